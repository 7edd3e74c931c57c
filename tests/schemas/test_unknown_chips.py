"""Hardware no vocabulary knows, read by the shape of its name, on the board names of a real
ranking page (../shared/real-pages-2, Tencent ncnn's RankCards) and on names written the way
pages write them; and the models, precisions, settings and software written like chips that
must stay none."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from perfledger.schemas.normalize import DocumentContext, normalize_cells
from perfledger.schemas.unknown_chips import is_chip_name, read_hardware, unknown_chip
from perfledger.sources.parse import parse_document

NCNN = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "real-pages-2"
    / "pages"
    / "tencent_ncnn_benchmark_rankcards_README.md"
)


def board(starting: str) -> str:
    """The Board cell of the ncnn ranking row whose board starts so, as the page prints it."""
    if not NCNN.is_file():
        pytest.skip(f"../shared/real-pages-2 is not here ({NCNN})")
    for line in NCNN.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 3 and cells[2].startswith(starting):
            return cells[2]
    raise AssertionError(f"no board {starting!r} on the page")


@pytest.mark.parametrize(
    ("starting", "name", "maker"),
    [
        ("Ingenic T40XP", "T40XP", "Ingenic"),
        ("Loongson 3A6000", "3A6000", "Loongson"),
        ("Loongson 2K1000LA", "2K1000LA", "Loongson"),
        ("Sunway SW831", "SW831", "Sunway"),
        ("Phytium FT-2000+/64", "FT-2000+", "Phytium"),
        ("Banana Pi M2 Zero 2 AllWinner H2+", "H2+", "Allwinner"),
        ("MYIR RemiPi,Renesas RZG2L", "RZG2L", "Renesas"),
        ("Amlogic S805", "S805", "Amlogic"),
        ("OrangePi Zero 2, Allwinner H616", "H616", "Allwinner"),
    ],
)
def test_a_makers_word_before_a_model_token_names_its_chip(starting, name, maker):
    text = board(starting)
    found = read_hardware(text, "platform")
    assert (found.accelerator, found.vendor, found.names_device) == (name, maker, True)


@pytest.mark.parametrize("starting", ["AWS c5.4xlarge Instance", "Radxa Zero 3W"])
def test_a_board_cell_naming_no_chip_keeps_none(starting):
    # A cloud instance type names no chip; "3W" reads as a power, not a model token.
    assert unknown_chip(board(starting), "platform") is None


@pytest.mark.parametrize(
    ("text", "where", "name", "count"),
    [
        ("8x Zeta-9", "platform", "Zeta-9", 8),
        ("Frobnitz Pod (16x Zeta-1)", "platform", "Zeta-1", 16),
        ("NeoChip X2 (16 chips), BF16", "label", "NeoChip X2", 16),
        ("Results on 8 Zeta-9 chips", "label", "Zeta-9", 8),
        ("Two NeoChip X2 cards", "label", "NeoChip X2", 2),
        ("Zeta-9 GPU (ms)", "label", "Zeta-9", None),
        ("RDK X9 Module (Cortex-A53 1.5GHz x 4) aarch64", "platform", "RDK X9", None),
        ("We ran every model on a single NeoChip X2 accelerator.", "prose", "NeoChip X2", 1),
        ("AMD Instinct MI999X", "label", "Instinct MI999X", None),  # a new chip of a known maker
        ("Zeta-9", "platform", "Zeta-9", None),  # a platform column names hardware by its place
    ],
)
def test_hardware_of_its_own_keeps_its_name_and_count(text, where, name, count):
    found = read_hardware(text, where)
    assert (found.accelerator, found.count, found.names_device) == (name, count, True)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("Llama-3-8B", "platform"),
        ("ResNet-50 (fps)", "label"),
        ("GPT3-125M", "platform"),
        ("Falcon7B-decode (t/s)", "platform"),
        ("Qwen2.5-72B-Instruct GPU", "label"),
        ("FP8 GPU", "label"),
        ("W4A16 kernel", "label"),
        ("TP4 PP2", "label"),
        ("BS32 GPU", "label"),
        ("Gen4x8 card", "label"),
        ("80GB GPU", "label"),
        ("2.4GHz x 4", "label"),
        ("x86_64 CPU", "label"),
        ("Cortex-A76 CPU", "label"),
        ("CUDA12 GPU", "label"),
        ("1-card", "platform"),
        ("Step 2 of 3", "platform"),
        ("We used the NVIDIA Nemotron-4 340B model", "prose"),
        ("Zeta-9 chips are a family of accelerators", "prose"),  # a product line, not a setup
        ("N/A", "platform"),
        ("ResNext 32x16d", "platform"),  # Intel's IPEX page: a model's cardinality x width
        ("AWS EC2 C6i.2xlarge", "platform"),  # a cloud and its instance type
        ("多机网络类型、带宽: InfiniBand，2*200Gbps", "prose"),  # a network's bandwidth
    ],
)
def test_models_precisions_settings_and_software_are_no_chips(text, where):
    found = read_hardware(text, where)
    assert found is None or found.accelerator is None, found


def test_a_known_chip_is_never_read_as_unknown():
    assert unknown_chip("8x A100 80GB", "platform") is None
    assert read_hardware("8x A100 80GB", "platform").names_device is False


@pytest.mark.parametrize(
    ("name", "chip"),
    [
        ("TH1520", True),
        ("NeoChip X2", True),
        ("FT-2000+", True),
        ("Llama-2-70B", False),
        ("T5", False),
        ("int8", False),
        ("v1.5", False),
        ("c5.4xlarge", False),
        ("top1", False),
    ],
)
def test_a_chip_name_holds_a_model_token_and_no_word_of_another_kind(name, chip):
    assert is_chip_name(name) is chip


def test_a_column_header_naming_unknown_hardware_labels_its_values_beside_a_known_context():
    page = (
        b"# Results on NVIDIA DGX A100\n\n"
        b"| Model | Zeta-9 GPU latency (ms) | A100 latency (ms) |\n|---|---|---|\n"
        b"| BERT Large | 1.5 | 2.5 |\n"
    )
    parsed, layout = parse_document(page, "text/markdown")
    context = DocumentContext(
        "page",
        "file:///page.md",
        "0" * 64,
        parsed.metadata.title,
        "2024-01-01T00:00:00Z",
        layout,
        "en",
        parsed.outline,
    )
    values = normalize_cells(parsed.cells, context).measurements
    found = (
        values.select("column_name", "accelerator", "vendor", "unresolved")
        .sort("column_name")
        .rows()
    )
    assert found == [
        ("A100 latency (ms)", "A100", "NVIDIA", None),
        ("Zeta-9 GPU latency (ms)", "Zeta-9", None, "platform=Zeta-9 GPU"),
    ]
    assert values.filter(pl.col("accelerator") == "Zeta-9")["system"].to_list() == ["Zeta-9"]


def test_a_row_label_naming_unknown_hardware_is_not_replaced_by_the_headings_chip():
    page = (
        b"# Results on NVIDIA DGX A100\n\n| Run | Throughput (images/s) |\n|---|---|\n"
        b"| ResNet-50 on 8x Zeta-9 | 5120 |\n| ResNet-50 on 8x A100 | 2500 |\n"
    )
    parsed, layout = parse_document(page, "text/markdown")
    context = DocumentContext(
        "page",
        "file:///page.md",
        "0" * 64,
        parsed.metadata.title,
        "2024-01-01T00:00:00Z",
        layout,
        "en",
        parsed.outline,
    )
    values = normalize_cells(parsed.cells, context).measurements
    assert values.select("value", "accelerator", "accelerator_count", "unresolved").sort(
        "value"
    ).rows() == [(2500.0, "A100", 8, None), (5120.0, "Zeta-9", 8, "platform=8x Zeta-9")]
