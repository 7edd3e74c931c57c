"""The HTML and Markdown layouts on real vendor pages (../shared/real-pages): the tables each
page holds, numbered as expected_tables.csv numbers them, their headers, values and outline."""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import polars as pl
import pytest

from perfledger.sources.layouts.base import OUTLINE_SCHEMA, ParsedDocument
from perfledger.sources.layouts.markdown_blocks import front_matter, hidden_lines
from perfledger.sources.layouts.page_text import split_lines
from perfledger.sources.parse import parse_document

REAL_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages"
CONTENT_TYPES = {".html": "text/html", ".md": "text/markdown"}
LAYOUTS = {".html": "html_table", ".md": "pipe_table"}
PERMALINK_MARK = re.compile("[\u00b6\ue000-\uf8ff]")


@pytest.fixture(scope="module", autouse=True)
def real_pages() -> Path:
    if not (REAL_PAGES / "pages").is_dir():
        pytest.skip(f"../shared/real-pages is not here: {REAL_PAGES} holds no pages/ folder")
    return REAL_PAGES


@cache
def parsed(name: str) -> tuple[ParsedDocument, str]:
    path = REAL_PAGES / "pages" / name
    return parse_document(path.read_bytes(), CONTENT_TYPES[path.suffix])


def page(name: str) -> ParsedDocument:
    return parsed(name)[0]


def printed_in_code(name: str) -> set[int]:
    """The tables a Markdown page shows as a tool's output inside fenced code (a box table,
    a serving benchmark's summary): expected_tables.csv counts only tables written as
    tables, so these come beyond its count."""
    if Path(name).suffix != ".md":
        return set()
    lines = split_lines((REAL_PAGES / "pages" / name).read_text(encoding="utf-8"))
    code = hidden_lines(lines, front_matter(lines)[1])
    first_lines = page(name).cells.group_by("table_index").agg(pl.col("line_number").min())
    return {index for index, line in first_lines.iter_rows() if line - 1 in code}


def table(name: str, index: int) -> pl.DataFrame:
    return page(name).cells.filter(pl.col("table_index") == index)


def value(name: str, index: int, row_label: str, column: str) -> list[str]:
    """The raw values under `column` in the rows of table `index` whose first cell reads
    `row_label`."""
    cells = table(name, index).filter(pl.col("row_number") > 0)
    rows = cells.filter((pl.col("column_index") == 0) & (pl.col("raw_value") == row_label))
    return cells.filter(
        pl.col("row_number").is_in(rows["row_number"].implode()) & (pl.col("column_name") == column)
    )["raw_value"].to_list()


def expected_tables() -> list[dict[str, str]]:
    with (REAL_PAGES / "expected_tables.csv").open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def html_and_markdown_pages() -> list[str]:
    folder = REAL_PAGES / "pages"
    if not folder.is_dir():
        return ["absent.html"]  # one case, which the `real_pages` fixture skips with its reason
    return sorted(path.name for path in folder.iterdir() if path.suffix in CONTENT_TYPES)


# ---- every page ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", html_and_markdown_pages())
def test_every_page_is_read_by_its_layout_with_the_tables_numbered_as_expected(name):
    document, layout = parsed(name)
    assert layout == LAYOUTS[Path(name).suffix]
    rows = [row for row in expected_tables() if row["doc"] == name]
    assert rows, f"expected_tables.csv lists no table of {name}"
    every = {int(row["table_index"]) for row in rows}
    results = {int(row["table_index"]) for row in rows if row["kind"] != "layout"}
    with_cells = set(document.cells["table_index"].to_list())
    printed = printed_in_code(name)
    assert not printed & every, sorted(printed)  # no table written as a table is taken as code
    # Every table that is not page layout gives cells under its own index, and nothing else
    # does (MLCommons' category/division bar, a layout table, gives cells too).
    assert results <= with_cells - printed <= every, (sorted(with_cells), sorted(results))
    for row in rows:
        if int(row["table_index"]) in with_cells and "no header row" not in row["notes"]:
            body = table(name, int(row["table_index"])).filter(pl.col("row_number") > 0)
            assert body["row_number"].n_unique() == int(row["rows"]), row
    outline = document.outline
    assert outline.schema == OUTLINE_SCHEMA
    assert set(outline.filter(pl.col("kind") == "table")["table_index"]) == with_cells


def test_every_labeled_cell_is_found_under_its_table_index_and_column_header():
    with (REAL_PAGES / "labels.csv").open(encoding="utf-8") as file:
        labels = [row for row in csv.DictReader(file) if Path(row["doc"]).suffix in LAYOUTS]
    assert len(labels) >= 100
    for label in labels:
        # labels.csv keeps a Markdown header as written; a reader sees <br/> as a space and
        # no bold markers.
        header = re.sub(r"<br\s*/?>", " ", label["column_header"]).replace("**", "")
        found = table(label["doc"], int(label["table_index"])).filter(
            (pl.col("column_name") == header) & (pl.col("raw_value") == label["raw_cell"])
        )
        assert found.height >= 1, label


# ---- HTML pages ----------------------------------------------------------------------------

MLPERF_NVIDIA = "mlcommons_inference_v4.1_nvidia_dgx_h100_summary.html"
ITEX = "intel_itex_v2.15.0.1_gpu_performance.html"


def test_the_mlperf_results_table_is_table_8_with_its_two_header_rows_joined():
    results = table(MLPERF_NVIDIA, 8)
    assert results.filter(pl.col("row_number") == 0)["column_name"].to_list() == [
        "Model",
        "Accuracy Target",
        "Server / Metric",
        "Server / Performance",
        "Offline / Metric",
        "Offline / Performance",
    ]
    assert value(MLPERF_NVIDIA, 8, "llama2-70b-99", "Server / Performance") == ["21605.8"]
    assert value(MLPERF_NVIDIA, 8, "dlrm-v2-99.9", "Offline / Metric") == ["Samples/s"]
    assert results["row_number"].max() == 7
    assert results["table_title"].unique().to_list() == ["Results Table"]
    detail = table(MLPERF_NVIDIA, 3)  # nested in layout table 2, right after it
    assert detail["table_title"][0] == "Accelerator Details"
    assert "accelerators_per_node" in detail["raw_value"].to_list()


def test_the_mlperf_title_bar_stays_paragraphs_of_the_outline():
    outline = page(MLPERF_NVIDIA).outline
    bar = outline.filter(pl.col("text") == "NVIDIA DGX H100 (8x H100-SXM-80GB, TensorRT)")
    assert bar.rows() == [(81, "paragraph", None, bar["text"][0], None)]
    assert outline.filter(pl.col("kind") == "heading").rows()[-1] == (
        108,
        "heading",
        3,
        "Results Table",
        None,
    )


def test_no_heading_or_title_of_the_sphinx_page_holds_a_permalink_mark():
    document = page(ITEX)
    assert document.metadata.title == "Performance Data"
    headings = document.outline.filter(pl.col("kind") == "heading")["text"].to_list()
    assert "Training Workloads" in headings
    titles = document.cells["table_title"].unique().to_list()
    assert "ResNet50v1-5 Training Performance Results" in titles
    for text in [*headings, *titles, document.metadata.title]:
        assert "\uf0c1" not in text and not PERMALINK_MARK.search(text), text


# ---- Markdown pages ------------------------------------------------------------------------

DLRM = "nvidia_dle_pytorch_dlrm_README.md"
EFFICIENTNET = "nvidia_dle_tf2_efficientnet_v1_README.md"
TRT_LLM = "nvidia_trtllm_perf_overview.md"
MAXTEXT_V4 = "google_maxtext_configs_v4_README.md"


def test_the_html_tables_of_the_dlrm_readme_follow_its_nine_pipe_tables():
    assert sorted(set(page(DLRM).cells["table_index"])) == list(range(11))
    column = "Mixed Precision / CUDA Graphs ON / Throughput Avg"
    assert value(DLRM, 9, "32768", column) == ["14,796,024"]
    assert value(DLRM, 10, "32768", "FP32 / CUDA Graphs OFF / Latency Avg") == ["0.01818"]
    inference = table(DLRM, 9)
    assert inference.filter(pl.col("row_number") == 0)["column_name"][0] == "Batch size"
    assert inference["table_title"][0] == "Inference performance: NVIDIA A100 (1x A100 80GB)"
    # Lines of the Markdown file: the row of 32768 is line 990.
    assert inference.filter(pl.col("raw_value") == "14,796,024")["line_number"].to_list() == [990]
    assert value(DLRM, 3, "8", "Time to train - TF32]") == ["0:06:27"]


def test_efficientnet_rows_longer_than_the_header_are_placed_and_their_excess_reported():
    assert value(EFFICIENTNET, 9, "1", "Throughput Avg") == ["110.97"]
    assert value(EFFICIENTNET, 9, "1", "Latency 99% (ms)") == ["9.09"]
    cut = [p for p in page(EFFICIENTNET).problems if p.check == "cells_beyond_header"]
    assert [(p.table_index, p.line_number) for p in cut] == [
        (9, 476),
        (9, 477),
        (10, 485),
        (10, 486),
        (13, 519),
        (15, 539),
    ]
    assert cut[0].raw == "# | 95.71 | 10.45 | 10.34 | 10.38 | 10.42"
    assert all(p.raw.startswith("#") for p in cut)
    assert not [p for p in page(EFFICIENTNET).problems if p.check != "cells_beyond_header"]
    captions = page(EFFICIENTNET).outline.filter(pl.col("kind") == "caption")
    assert captions.filter(pl.col("table_index") == 9)["text"].to_list() == [
        "FP16 Inference Latency"
    ]


def test_the_maxtext_comment_cell_past_the_header_is_reported_not_placed():
    assert value(MAXTEXT_V4, 1, "2x v4-384", "MFU") == ["58.9%"]
    (problem,) = page(MAXTEXT_V4).problems
    assert (problem.check, problem.table_index, problem.line_number) == (
        "cells_beyond_header",
        1,
        33,
    )
    assert problem.raw.startswith("# this is quirkily higher than single slice")


def test_the_trt_llm_outline_gives_headings_and_captions_of_its_tables():
    outline = page(TRT_LLM).outline
    rows = outline.rows()
    first_table = rows.index((63, "table", None, None, 0))
    headings = [row for row in rows[:first_table] if row[1] == "heading"]
    assert headings[-1] == (61, "heading", 4, "Llama 4 Scout", None)
    assert rows[first_table + 1 : first_table + 3] == [
        (76, "caption", None, "RTX 6000 Pro Blackwell Server Edition", 1),
        (77, "table", None, None, 1),
    ]
    captions = outline.filter(pl.col("kind") == "caption")
    # the written tables' captions, then the titles trtllm-bench prints over its summaries
    assert captions["table_index"].to_list() == [1, 3, 5, 7, 9, 11, 16, 17, 18, 19]
    assert captions["text"].to_list()[6:] == [
        "PERFORMANCE OVERVIEW",
        "Per-Request Time-per-Output-Token [TPOT] Breakdown (ms)",
        "Per-Request Time-to-First-Token [TTFT] Breakdown (ms)",
        "Request Latency Breakdown (ms)",
    ]
    assert table(TRT_LLM, 0).filter(pl.col("row_number") == 0)["column_name"][1] == (
        "B200 TP1 (FP4)"
    )
