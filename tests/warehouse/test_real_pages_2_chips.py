"""Chips and chip counts of named pages of publishers outside the development corpus
(../shared/real-pages-2), ingested as a user would: the exact cells below come out with the
chip and count their page states, and hardware no vocabulary knows keeps its name, listed by
`perfledger labels`. The pages stay in ../shared and are never copied into the project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main

PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages-2" / "pages"
NAMED = (
    "deepseek_deepep_README.md",
    "tencent_ncnn_benchmark_rankcards_README.md",
    "google_tpu_recipes_ironwood_training_README.md",
    "nvidia_nemo_diffusion_readme.rst",
    "nvidia_jetson_benchmarks_README.md",
    "microsoft_deepspeed_chat_blog_README.md",
)


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> str:
    if not all((PAGES / name).is_file() for name in NAMED):
        pytest.skip(f"../shared/real-pages-2 is not here ({PAGES})")
    folder = str(tmp_path_factory.mktemp("real-pages-2") / "warehouse")
    run("ingest", *(str(PAGES / name) for name in NAMED), "--warehouse", folder, "--quiet")
    return folder


def cells(warehouse: str, page: str, **where: str) -> list[tuple]:
    """(accelerator, accelerator_count, vendor) of the values of `page` whose columns are as
    given (raw_value, column_name, table_index...)."""
    conditions = " AND ".join(f"{name} = '{value}'" for name, value in where.items())
    query = (
        "SELECT accelerator, accelerator_count, vendor FROM measurements "
        f"WHERE source_url LIKE '%{page}' AND {conditions} ORDER BY row_number"
    )
    rows = json.loads(run("sql", query, "--format", "json", "--warehouse", warehouse))
    return [(row["accelerator"], row["accelerator_count"], row["vendor"]) for row in rows]


def test_deepep_counts_come_from_its_ep_columns(warehouse):
    # "| 8 | 77 us | ... | 8 | 114 us |" under "Dispatch #EP" and "Combine #EP", on H800
    page = "deepseek_deepep_README.md"
    assert cells(warehouse, page, raw_value="77 us") == [("H800", 8, "NVIDIA")]
    assert cells(warehouse, page, raw_value="360 us") == [("H800", 256, "NVIDIA")]
    assert cells(warehouse, page, raw_value="57 GB/s (RDMA)") == [("H800", 32, "NVIDIA")]


def test_ncnn_boards_name_their_chip_known_or_not(warehouse):
    page = "tencent_ncnn_benchmark_rankcards_README.md"
    assert cells(warehouse, page, raw_value="12.5") == [("VideoCore VII", None, "Broadcom")]
    assert cells(warehouse, page, raw_value="0.309") == [("Dimensity 9300", None, "MediaTek")]
    assert cells(warehouse, page, raw_value="0.346") == [("M1", None, "Apple")]
    assert cells(warehouse, page, raw_value="83.3") == [("TH1520", None, "T-Head")]
    # Ingenic's T40XP is in no vocabulary: its name is kept, its maker's word read ...
    assert cells(warehouse, page, raw_value="165") == [("T40XP", None, "Ingenic")]
    # ... and a cloud instance type names no chip.
    assert cells(warehouse, page, raw_value="0.418") == [(None, None, None)]
    listed = {
        row["label"]
        for row in json.loads(run("labels", "--format", "json", "--warehouse", warehouse))
        if row["kind"] == "platform"
    }
    assert {
        "Ingenic T40XP Xburst2 Core X2 1.4Ghz (without MSA)",
        "AWS c5.4xlarge Instance",
    } <= listed
    assert not any("Dimensity" in label for label in listed)


def test_ironwood_chips_counted_by_their_column(warehouse):
    # "| llama3.1-70b | 64 | 256 | 8192 | bf16 | 12.20 | 1,207.05 | ..." under "Number of chips"
    page = "google_tpu_recipes_ironwood_training_README.md"
    assert cells(warehouse, page, raw_value="1,207.05") == [("Ironwood", 64, "Google")]


def test_a_training_config_of_parallel_degrees_counts_no_chips(warehouse):
    # "TP=2 SP" splits each copy of the 7B model; the run's 32 H100 DGX nodes give no count.
    page = "nvidia_nemo_diffusion_readme.rst"
    assert cells(warehouse, page, raw_value="10052") == [("H100", None, "NVIDIA")]


def test_a_jetson_module_named_in_a_heading(warehouse):
    page = "nvidia_jetson_benchmarks_README.md"
    assert cells(warehouse, page, raw_value="311.73") == [("Jetson Xavier NX", None, "NVIDIA")]


def test_deepspeed_rows_count_their_gpus(warehouse):
    page = "microsoft_deepspeed_chat_blog_README.md"
    assert cells(warehouse, page, raw_value="1.25 hours ($320)") == [("A100", 64, "NVIDIA")]
