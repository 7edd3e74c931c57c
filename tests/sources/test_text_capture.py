"""The flattened text layout, on the real captures and on small crafted ones."""

from __future__ import annotations

import polars as pl
import pytest

from sources.layouts.text_capture import parse_text_capture
from tests.conftest import BLOG_MLPERF_V2, CORPUS, JANUARY_2022, JULY_2023, read_page

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def july():
    return parse_text_capture(read_page(JULY_2023))


def _row(cells: pl.DataFrame, table: int, row: int) -> dict[str, str]:
    picked = cells.filter((pl.col("table_index") == table) & (pl.col("row_number") == row))
    return dict(zip(picked["column_name"], picked["raw_value"], strict=True))


def test_every_table_of_the_july_2023_page_has_its_rows(july):
    rows = (
        july.cells.filter(pl.col("row_number") > 0)
        .group_by("table_index")
        .agg(pl.col("row_number").max())
        .sort("table_index")["row_number"]
        .to_list()
    )
    assert rows == [2, 64, 37, 11, 62, 1, 71]
    assert sum(rows) == 248
    assert july.problems == []


def test_table_titles_are_the_headings_above_the_tables(july):
    titles = july.cells.group_by("table_index").agg(pl.col("table_title").first()).sort(
        "table_index"
    )["table_title"].to_list()
    assert titles[1:] == [
        "Bow Platform - Training",
        "Bow Platform - Inference",
        "MLPerf v2.0 Training Performance",
        "IPU-POD Classic - Training",
        "IPU-POD Classic - Time to Result",
        "IPU-POD Classic - Inference",
    ]


def test_mlperf_header_and_a_row_are_read_cell_by_cell(july):
    header = july.cells.filter((pl.col("table_index") == 3) & (pl.col("row_number") == 0))
    assert header["raw_value"].to_list() == [
        "Division", "Model", "MLPerf Quality Target", "Platform", "SDK Version", "Framework",
        "MLPerf ID", "Dataset", "Precision", "Time to Train (mins)",
    ]
    assert _row(july.cells, 3, 1) == {
        "Division": "Closed", "Model": "ResNet50 v1.5",
        "MLPerf Quality Target": "75.90% classification", "Platform": "Bow Pod16",
        "SDK Version": "SDK 2.5.1", "Framework": "TensorFlow", "MLPerf ID": "2.0-2047",
        "Dataset": "ImageNet2012", "Precision": "16.16", "Time to Train (mins)": "19.64",
    }


def test_empty_cells_stay_empty_and_keep_their_place(july):
    tgn = next(
        _row(july.cells, 1, row) for row in range(1, 65)
        if _row(july.cells, 1, row)["Model"] == "TGN"
    )
    assert tgn["Dataset"] == NBSP and tgn["Batch Size"] == NBSP and tgn["Precision"] == NBSP
    assert tgn["Platform"] == "1x Bow IPU"
    assert tgn["Throughput (items/sec)"] == "31,617"


def test_cells_know_their_source_line(july):
    lines = read_page(JULY_2023).split("\n")
    first_bert = july.cells.filter(
        (pl.col("table_index") == 1) & (pl.col("row_number") == 1)
        & (pl.col("column_name") == "Throughput (items/sec)")
    ).row(0, named=True)
    assert lines[first_bert["line_number"] - 1] == "6,044"
    assert lines[first_bert["line_number"] - 9] == "BERT Large"


def test_the_ogb_footnote_is_attached_to_its_table(july):
    note = july.cells.filter(pl.col("table_index") == 0)["table_note"].unique().to_list()
    assert note == [
        "Evaluation Metric using ensembled results using test-challenge dataset | PQM4Mv2 "
        "throughput measured in graphs/s | WikiKG90M2 throughput measured in triples/s"
    ]
    prose = " ".join(text for _, text in july.prose)
    assert "PQM4Mv2 throughput measured in graphs/s" not in prose
    assert "Precision Terminology" in prose


def test_page_metadata_is_read_where_the_page_states_it(july):
    assert july.metadata.title == "Performance Results"
    assert july.metadata.last_updated_date == "2023-07-04"
    blog = parse_text_capture(read_page(BLOG_MLPERF_V2)).metadata
    assert blog.title == "Baidu results underscore big MLPerf gains for Graphcore"
    assert blog.author == "Matt Fyles"
    assert blog.published_date == "2022-06-29"


def test_a_page_without_tables_gives_no_rows_and_no_error():
    parsed = parse_text_capture(read_page(JANUARY_2022))
    assert parsed.cells.height == 0
    assert parsed.problems == []
    assert parsed.metadata.last_updated_date == "2022-01-25"
    for name in ("000_c64c95d4643991ea.txt", "001_84a8bfaf07a6e90f.txt",
                 "004_daef20c563bded08.txt"):
        assert parse_text_capture(read_page(CORPUS / name)).cells.height == 0


def test_an_incomplete_last_row_is_reported_not_dropped():
    text = "\n".join(["Intro", "", "Model", "Platform", "Throughput (items/sec)",
                      "ResNet-50", "Bow Pod16", "44,059", "BERT", "Bow Pod64", "", "After"])
    parsed = parse_text_capture(text)
    assert parsed.cells.filter(pl.col("row_number") > 0)["row_number"].max() == 1
    assert len(parsed.problems) == 1
    problem = parsed.problems[0]
    assert problem.check == "incomplete_row"
    assert problem.raw == "BERT\nBow Pod64"
    assert problem.line_number == 9


def test_prose_lines_that_look_like_cells_do_not_start_a_table():
    text = "\n".join(["Model", "We compare models.", "", "Model", "Platform",
                      "Latency (ms)", "BERT", "Bow-2000", "1.36", "", "Model quality matters."])
    parsed = parse_text_capture(text)
    assert parsed.table_count == 1
    assert parsed.cells.filter(pl.col("row_number") == 1)["raw_value"].to_list() == [
        "BERT", "Bow-2000", "1.36"
    ]


def test_an_unknown_header_between_known_ones_keeps_the_width():
    text = "\n".join(["", "Model", "Platform", "Power (W)", "Throughput (items/sec)",
                      "BERT", "Bow Pod16", "1200", "5,600", ""])
    parsed = parse_text_capture(text)
    assert parsed.cells.filter(pl.col("row_number") == 0).height == 4
    assert _row(parsed.cells, 0, 1)["Throughput (items/sec)"] == "5,600"


def test_unicode_line_breaks_and_a_bom_are_handled():
    text = "\ufeffIntro\u2028\u2028Model\x0cPlatform\rThroughput (items/sec)\r\nBERT\nBow Pod16\n1,000\n"
    parsed = parse_text_capture(text)
    assert _row(parsed.cells, 0, 1) == {
        "Model": "BERT", "Platform": "Bow Pod16", "Throughput (items/sec)": "1,000"
    }
