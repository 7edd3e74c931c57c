"""The layouts on the second corpus of real pages (../shared/real-pages-2), publishers the
first corpus does not hold: headers taller than their markup says (a sheet published as HTML,
a GPU row under a Markdown header), RST grid tables holding wide characters. Cells are
asserted as the pages publish them, named by table, row and column as labels.csv names them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import polars as pl
import pytest

from perfledger.sources.layouts import file_media_types
from perfledger.sources.layouts.base import ParsedDocument
from perfledger.sources.parse import parse_document

REAL_PAGES_2 = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages-2"
VITIS = "amd_xilinx_vitis_ai_3.5_model_zoo_github.htm"
DEBERTA = "nvidia_tensorrt_demo_deberta_README.md"


@pytest.fixture(scope="module", autouse=True)
def real_pages_2() -> Path:
    if not (REAL_PAGES_2 / "pages").is_dir():
        pytest.skip(f"../shared/real-pages-2 is not here: {REAL_PAGES_2} holds no pages/ folder")
    return REAL_PAGES_2


@cache
def page(name: str) -> ParsedDocument:
    path = REAL_PAGES_2 / "pages" / name
    return parse_document(path.read_bytes(), file_media_types()[path.suffix])[0]


def table(name: str, index: int) -> pl.DataFrame:
    return page(name).cells.filter(pl.col("table_index") == index)


def header(name: str, index: int) -> list[str]:
    return (
        table(name, index)
        .filter(pl.col("row_number") == 0)
        .sort("column_index")["column_name"]
        .to_list()
    )


def value(name: str, index: int, row_cell: str, column: str) -> list[str]:
    """The raw values under `column` in the rows of table `index` holding a cell `row_cell`."""
    cells = table(name, index).filter(pl.col("row_number") > 0)
    rows = cells.filter(pl.col("raw_value") == row_cell)["row_number"].unique()
    return cells.filter(
        pl.col("row_number").is_in(rows.implode()) & (pl.col("column_name") == column)
    )["raw_value"].to_list()


def test_the_sheet_published_as_html_has_its_three_header_rows_joined():
    names = header(VITIS, 0)
    assert names[:3] == ["Task", "Market Specialization", "Application"]
    assert names[12:14] == ["FP32 Floating-Point Accuracy", "Quantized Accuracy"]
    assert names[17:] == [
        "VEK280 / 1* C20B14CU1 @ 300MHz / E2E throughput (fps) Single Thread",
        "VEK280 / 1* C20B14CU1 @ 300MHz / E2E throughput (fps) Multi Thread",
        "V70 / 4PE DPUCVDX8H @350MHz Gen4x8 / E2E throughput (fps) Multi Thread",
    ]
    # The title cell over sixteen columns names the table, not the columns under it.
    assert table(VITIS, 0)["table_title"][0].startswith("Vitis AI Model Zoo Details & Performance")
    assert value(VITIS, 0, "pt_face-mask-detection_3.5", names[17]) == ["512.65"]
    assert value(VITIS, 0, "pt_face-mask-detection_3.5", names[19]) == ["2173.85"]
    assert value(VITIS, 0, "pt_resnet50_3.5", "FP32 Floating-Point Accuracy") == ["0.761/0.929"]
    assert value(VITIS, 0, "pt_3D-UNET_3.5", "Quantized Accuracy") == ["0.8774"]


def test_the_gpu_row_under_the_markdown_header_joins_the_header():
    names = header(DEBERTA, 0)
    assert names == [
        "Sequence Length",
        "Model Latency (ms)",
        "A100-80GB",
        "TensorRT 8.4 GA Update 2 (8.4.3), CUDA 11.6 / T4",
        "V100-16GB",
        "A100-80GB",
        "TensorRT 8.2 GA Update 3 (8.2.4), CUDA 11.4 / T4",
        "V100-16GB",
    ]
    assert header(DEBERTA, 1)[0] == "Variant"
    first = table(DEBERTA, 0).filter(pl.col("row_number") == 1).sort("column_index")
    assert first["raw_value"].to_list()[:4] == ["512", "PyTorch (FP32/TF32)", "23.7", "35.6"]
    assert value(DEBERTA, 0, "TensorRT (FP16)", names[3]) == ["6.2", "16.3", "56.2"]


NEMO_DIFFUSION = "nvidia_nemo_diffusion_readme.rst"


def test_rst_grid_tables_holding_emoji_drawn_two_columns_wide_are_read():
    assert sorted(set(page(NEMO_DIFFUSION).cells["table_index"])) == [0, 1, 2]
    assert not page(NEMO_DIFFUSION).problems
    assert header(NEMO_DIFFUSION, 1) == ["Parallelism", "Status"]
    assert value(NEMO_DIFFUSION, 1, "CP+TP+SP+PP+distopt+EP", "Status") == ["\u2705 Supported"]
    assert value(NEMO_DIFFUSION, 2, "DiT 5B, 30B+", "sequence length") == ["256", "8k", "74k+"]
    assert value(NEMO_DIFFUSION, 0, "TP=2 SP", "Throughput (token/s/GPU)") == ["10052"]
