"""Results pages that describe their system item by item (MLCommons' summary pages: an
"Accelerator Details" table of `accelerator_model_name`, `accelerators_per_node`, ...): the
chip and its count are read from those items where the page's title names neither, counts
written as nodes times chips read as their product, and a score written after its name
("mAP: 37.1745") shows the page's decimal mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.schemas.page_reading import normalized

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
AMD_PAGE = SHARED / "real-pages" / "pages" / "mlcommons_inference_v4.1_amd_8xmi300x_summary.html"


def summary_page(headerbar: str, accelerator: str, per_node: str, results: str) -> str:
    """A summary page shaped as mlcommons/inference_results_v4.1 publishes them
    (closed/<submitter>/results/<system>/summary/summary.html), its cells as published."""
    return f"""<html><body>
<div class="titlebar"><h1 class="title">MLPerf Inference v4.1</h1></div>
<table class="titlebarcontainer"><tr><td class="headerbar" rowspan="2">
<p>{headerbar}</p></td></tr></table>
<table><tr><td><h3>Accelerator Details</h3><table>
<tr><td>accelerator_host_interconnect</td><td>PCIe Gen5 x16</td></tr>
<tr><td>accelerator_memory_capacity</td><td>80 GB</td></tr>
<tr><td>accelerator_model_name</td><td>{accelerator}</td></tr>
<tr><td>accelerators_per_node</td><td>{per_node}</td></tr>
<tr><td>accelerator_frequency</td><td></td></tr>
</table></td></tr></table>
<h3>Results Table</h3>
<table>
<tr><th rowspan="2">Model</th><th rowspan="2">Accuracy Target</th>
<th colspan="2">Server</th><th colspan="2">Offline</th></tr>
<tr><td>Metric</td><td>Performance</td><td>Metric</td><td>Performance</td></tr>
{results}
</table></body></html>"""


def loaded(page: str) -> list[tuple]:
    measurements = normalized(page, "text/html").measurements
    return [
        (row["column_name"], row["value"], row["accelerator"], row["accelerator_count"])
        for row in measurements.iter_rows(named=True)
    ]


def test_the_count_of_devices_a_setup_item_gives_goes_with_the_chip_another_item_names():
    if not AMD_PAGE.is_file():
        pytest.skip(f"{AMD_PAGE} is not here")
    measurements = normalized(AMD_PAGE.read_text(encoding="utf-8"), "text/html").measurements
    # its title names a Supermicro server; "AMD Instinct MI300X-NPS1-SPX-192GB-750W" and
    # "accelerators_per_node | 8" stand in its Accelerator Details
    offline = measurements.filter(measurements["column_name"] == "Offline / Performance")
    assert offline.select("model", "value", "accelerator", "accelerator_count").rows()[0] == (
        "llama2-70b-99",
        23514.8,
        "MI300X",
        8,
    )
    assert set(measurements["accelerator_count"]) == {8}


def test_a_chip_named_with_its_count_keeps_the_count_the_setup_items_give():
    # closed/NVIDIA/results/Orin_TRT: the title names the chip, not how many
    page = summary_page(
        "NVIDIA Jetson AGX Orin Developer Kit 64G (TensorRT)",
        "NVIDIA Jetson AGX Orin 64G",
        "1",
        "<tr><td>gptj-99</td><td>ROUGE1: 42.5566, ROUGE2: 19.9223</td><td></td><td></td>"
        "<td>Tokens/s</td> <td>64.4734</td></tr>",
    )
    assert loaded(page) == [("Offline / Performance", 64.4734, "Jetson AGX Orin", 1)]


def test_nodes_times_chips_written_against_the_chip_count_every_chip():
    # closed/JuniperNetworks/results/DGX-H100_H100-SXM-80GBx32_TRT
    page = summary_page(
        "4x8xH100-SXM-80GB",
        "NVIDIA H100-SXM-80GB",
        "8",
        "<tr><td>llama2-70b-99</td><td>ROUGE1: 43.9869</td><td>Tokens/s</td> <td>82273.2</td>"
        "<td>Tokens/s</td> <td>82749.6</td></tr>",
    )
    assert loaded(page) == [
        ("Server / Performance", 82273.2, "H100", 32),
        ("Offline / Performance", 82749.6, "H100", 32),
    ]


def test_a_tpu_named_by_its_slice_is_its_chips():
    # closed/Google/results/tpu_v6_x4_flax: "tpu-v6-4", four of the chip MLPerf names TPU v6
    page = summary_page(
        "tpu-v6-4",
        "TPU v6",
        "4",
        "<tr><td>stable-diffusion-xl</td><td>CLIP_SCORE: 31.6863, FID_SCORE: 23.0109</td>"
        "<td>Queries/s</td> <td>4.48577</td><td>Samples/s</td> <td>5.43896</td></tr>",
    )
    assert loaded(page) == [
        ("Server / Performance", 4.48577, "TPU v6", 4),
        ("Offline / Performance", 5.43896, "TPU v6", 4),
    ]


def test_a_score_after_its_name_shows_the_decimal_mark_of_a_lone_value():
    # closed/Dell/results/XR8620_L4x1_TRT: "222.619" alone could group thousands; the page's
    # "mAP: 37.1745" can only be read with a decimal point
    page = summary_page(
        "Dell PowerEdge XR8620t (1x L4, TensorRT)",
        "NVIDIA L4",
        "1",
        "<tr><td>retinanet</td><td>mAP: 37.1745</td><td></td><td></td>"
        "<td>Samples/s</td> <td>222.619</td></tr>",
    )
    assert loaded(page) == [("Offline / Performance", 222.619, "L4", 1)]


def test_a_cpu_socket_in_a_system_name_names_no_chip():
    # open/NeuralMagic/results/phoenix_Amd_Am5-reference-cpu-deepsparse: a desktop PC of an
    # AMD Ryzen on its AM5 socket, no accelerator
    page = summary_page(
        "PCSPECIALIST AMD AM5",
        "N/A",
        "0",
        "<tr><td>bert-99</td><td>F1: 90.2</td><td></td><td></td>"
        "<td>Samples/s</td> <td>146.8</td></tr>",
    )
    assert loaded(page) == [("Offline / Performance", 146.8, None, None)]
