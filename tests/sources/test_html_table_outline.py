"""HTML tables: numbering by opening tag, multi-row headers, clean headings and the outline."""

from __future__ import annotations

import re

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from perfledger.sources.layouts.base import OUTLINE_KINDS, OUTLINE_SCHEMA
from perfledger.sources.layouts.html_table import parse_html
from perfledger.sources.layouts.html_text import clean_heading
from tests.sources.layout_checks import rows_of
from tests.sources.test_html_table import TAG_SOUP

PERMALINK = re.compile("[\u00b6\ue000-\uf8ff]")


def header_of(cells: pl.DataFrame, table: int = 0) -> list[str]:
    return cells.filter((pl.col("table_index") == table) & (pl.col("row_number") == 0))[
        "column_name"
    ].to_list()


def outline_of(html: str) -> list[tuple]:
    outline = parse_html(html).outline
    assert outline.schema == OUTLINE_SCHEMA
    return outline.rows()


# ---- table numbering -----------------------------------------------------------------------

NUMBERED = """<table><tr><td>Title bar</td></tr></table>
<table><tr><td><p>Sidebar</p></td><td>
<table><tr><th>Model</th><th>Throughput</th></tr><tr><td>BERT</td><td>6,044</td></tr></table>
</td></tr></table>
<table><tr><th>Model</th><th>Latency</th></tr><tr><td>GPT</td><td>1.5</td></tr></table>
"""


def test_tables_are_numbered_by_their_opening_tags_layout_tables_included():
    parsed = parse_html(NUMBERED)
    # 0: one column, 1: layout holding 2, 3: after them; only 2 and 3 give cells.
    assert sorted(set(parsed.cells["table_index"])) == [2, 3]
    assert rows_of(parsed.cells, 2) == [["Model", "Throughput"], ["BERT", "6,044"]]
    assert rows_of(parsed.cells, 3) == [["Model", "Latency"], ["GPT", "1.5"]]
    assert [row for row in parsed.outline.rows() if row[1] == "table"] == [
        (3, "table", None, None, 2),
        (5, "table", None, None, 3),
    ]
    assert [text for _, text in parsed.prose] == ["Title bar", "Sidebar"]


# ---- multi-row headers ---------------------------------------------------------------------

ROWSPAN_HEADER = """<h3>Results Table</h3>
<table>
    <tr>
        <th rowspan="2">Model</th>
        <th rowspan="2">Accuracy Target</th>
        <th colspan="2">Server</th>
        <th colspan="2">Offline</th>
    </tr>
    <tr><td>Metric</td><td>Performance</td><td>Metric</td><td>Performance</td></tr>
    <tr><td>llama2-70b-99</td><td>ROUGE1: 43.9869</td><td>Tokens/s</td> <td>21605.8</td><td>Tokens/s</td> <td>24524.9</td><tr><td>dlrm-v2-99</td><td>AUC: 79.5069</td><td>Queries/s</td> <td>510155.0</td><td>Samples/s</td> <td>595658.0</td></table>
"""


def test_a_header_cells_rowspan_brings_the_row_it_covers_into_the_header():
    cells = parse_html(ROWSPAN_HEADER).cells
    names = [
        "Model",
        "Accuracy Target",
        "Server / Metric",
        "Server / Performance",
        "Offline / Metric",
        "Offline / Performance",
    ]
    assert header_of(cells) == names
    assert rows_of(cells) == [
        names,  # the header cells' raw values are the joined texts too
        ["llama2-70b-99", "ROUGE1: 43.9869", "Tokens/s", "21605.8", "Tokens/s", "24524.9"],
        ["dlrm-v2-99", "AUC: 79.5069", "Queries/s", "510155.0", "Samples/s", "595658.0"],
    ]
    header = cells.filter(pl.col("row_number") == 0)
    assert header["line_number"].to_list() == [4, 5, 6, 6, 7, 7]  # the top cell's line
    assert cells["table_title"].unique().to_list() == ["Results Table"]


def test_a_first_row_taken_as_header_keeps_the_rows_its_rowspan_reaches_as_data():
    html = """<table><tr><td rowspan="2">Model</td><td>Batch</td><td>Throughput</td></tr>
    <tr><td>8</td><td>800</td></tr><tr><td>BERT</td><td>1</td><td>50</td></tr></table>"""
    assert rows_of(parse_html(html).cells) == [
        ["Model", "Batch", "Throughput"],
        ["Model", "8", "800"],
        ["BERT", "1", "50"],
    ]


def test_a_first_row_of_data_with_a_rowspan_stays_data_under_unnamed_columns():
    html = """<table><tr><td rowspan="2">ResNet</td><td>1</td><td>100</td></tr>
    <tr><td>8</td><td>800</td></tr><tr><td>BERT</td><td>1</td><td>50</td></tr></table>"""
    assert rows_of(parse_html(html).cells) == [
        ["", "", ""],
        ["ResNet", "1", "100"],
        ["ResNet", "8", "800"],
        ["BERT", "1", "50"],
    ]


BOLD_HEADER = """<table>
<tbody>
<tr><td></td><td colspan="2"><b>Mixed Precision</b></td><td colspan="2"><b>TF32</b></td></tr>
<tr><td></td><td colspan="2"><strong>CUDA Graphs ON</strong></td><td colspan="2"><b>CUDA Graphs</b> <b>OFF</b></td></tr>
<tr><td><b>Batch size</b></td><td><b>Throughput Avg</b></td><td><b>Latency Avg</b></td><td><b>Throughput Avg</b></td><td><b>Latency Avg</b></td></tr>
<tr><td>32768</td><td>14,796,024</td><td>0.00221</td><td>8,832,225</td><td>0.00371</td></tr>
<tr><td><b>16384</b></td><td>14,217,340</td><td>0.00115</td><td>8,540,191</td><td>0.00192</td></tr>
</tbody>
</table>"""


def test_leading_bold_rows_of_a_table_without_th_are_its_header_levels():
    cells = parse_html(BOLD_HEADER).cells
    assert header_of(cells) == [
        "Batch size",
        "Mixed Precision / CUDA Graphs ON / Throughput Avg",
        "Mixed Precision / CUDA Graphs ON / Latency Avg",
        "TF32 / CUDA Graphs OFF / Throughput Avg",
        "TF32 / CUDA Graphs OFF / Latency Avg",
    ]
    # A body row with one bold cell among plain ones is data.
    assert rows_of(cells)[1:] == [
        ["32768", "14,796,024", "0.00221", "8,832,225", "0.00371"],
        ["16384", "14,217,340", "0.00115", "8,540,191", "0.00192"],
    ]


def test_bold_rows_are_no_header_when_nothing_follows_them_or_the_table_has_th():
    all_bold = (
        "<table><tr><td><b>Model</b></td><td><b>Platform</b></td></tr>"
        "<tr><td><b>BERT</b></td><td><b>Bow Pod16</b></td></tr></table>"
    )
    assert rows_of(parse_html(all_bold).cells) == [["Model", "Platform"], ["BERT", "Bow Pod16"]]
    with_th = (
        "<table><tr><td><b>Model</b></td><td><b>Platform</b></td></tr>"
        "<tr><td><b>Variant</b></td><td><b>Pod</b></td></tr>"
        "<tr><th>BERT</th><td>Bow Pod16</td></tr></table>"
    )
    assert rows_of(parse_html(with_th).cells) == [
        ["Model", "Platform"],
        ["Variant", "Pod"],
        ["BERT", "Bow Pod16"],
    ]


def test_a_label_repeated_in_the_level_below_and_empty_levels_count_once():
    html = """<table><thead>
    <tr><th>Model</th><th colspan="2">Throughput</th></tr>
    <tr><th>Model</th><th>FP16</th><th></th></tr></thead>
    <tr><td>BERT</td><td>1</td><td>2</td></tr></table>"""
    assert header_of(parse_html(html).cells) == ["Model", "Throughput / FP16", "Throughput"]


# ---- headings and titles without permalink marks -------------------------------------------

SPHINX = """<html><head><title>Performance Data &mdash; Docs</title></head><body>
<h1>Performance Data<a class="headerlink" href="#performance-data" title="Link">\uf0c1</a></h1>
<h2>Training Results <a class="headerlink" href="#training">\u00b6</a></h2>
<table><caption><span>Table 1 </span><span>ResNet50 training</span><a class="headerlink">\u00b6</a></caption>
<tr><th>GPUs</th><th>Throughput</th></tr><tr><td>1</td><td>918.96</td></tr></table>
<h3>Inference\uf0c1</h3>
<table><tr><th>GPUs</th><th>Throughput</th></tr><tr><td>1</td><td>435.01</td></tr></table>
</body></html>"""


def test_permalink_marks_leave_headings_titles_and_captions():
    parsed = parse_html(SPHINX)
    assert parsed.metadata.title == "Performance Data"
    assert parsed.cells.group_by("table_index", maintain_order=True).agg(
        pl.col("table_title").first()
    )["table_title"].to_list() == ["Table 1 ResNet50 training", "Inference"]
    assert outline_of(SPHINX) == [
        (2, "heading", 1, "Performance Data", None),
        (3, "heading", 2, "Training Results", None),
        (4, "caption", None, "Table 1 ResNet50 training", 0),
        (5, "table", None, None, 0),
        (6, "heading", 3, "Inference", None),
        (7, "table", None, None, 1),
    ]


def test_clean_heading_drops_the_marks_and_the_space_before_them_only():
    assert clean_heading("Results \u00b6") == "Results"
    assert clean_heading("Results\ue000\uf8ff") == "Results"
    assert clean_heading("a \uf0c1b") == "a b"
    assert clean_heading("a\uf0c1 b") == "a b"
    assert clean_heading("plain \u00a7 heading") == "plain \u00a7 heading"
    assert clean_heading(" " * 50_000 + "x") == " " * 50_000 + "x"  # left as it is, at once


# ---- the outline ---------------------------------------------------------------------------

OUTLINE_PAGE = """<h1>Benchmarks</h1>
<p>Measured on DGX A100 systems with the 23.09 container.</p>
<h2>Inference</h2>
<p><strong>NVIDIA DGX A100 (8x A100 80GB)</strong></p>
<p>FP16 Inference Latency</p>
<table><tr><th>Batch size</th><th>Latency (ms)</th></tr><tr><td>1</td><td>9.09</td></tr></table>
<p>* measured in ms at the 99th percentile</p>
<p>Results were obtained with the default configuration and no tuning applied to the model.</p>
<table><tr><th>Batch size</th><th>Throughput</th></tr><tr><td>1</td><td>110.97</td></tr></table>
<p>Throughput results</p>
<div><table><caption>Training</caption><tr><th>GPUs</th><th>Time</th></tr><tr><td>8</td><td>3.1</td></tr></table></div>
<h3>Training</h3>
<table><tr><th>GPUs</th><th>Accuracy</th></tr><tr><td>8</td><td>77.6</td></tr></table>
"""


def test_the_outline_holds_headings_paragraphs_captions_and_tables_in_reading_order():
    assert outline_of(OUTLINE_PAGE) == [
        (1, "heading", 1, "Benchmarks", None),
        (2, "paragraph", None, "Measured on DGX A100 systems with the 23.09 container.", None),
        (3, "heading", 2, "Inference", None),
        (4, "heading", 6, "NVIDIA DGX A100 (8x A100 80GB)", None),  # a bold paragraph
        (5, "caption", None, "FP16 Inference Latency", 0),  # short, no period, right above
        (6, "table", None, None, 0),
        # The footnote is the table's note, not a block; a long sentence is no caption.
        (
            8,
            "paragraph",
            None,
            "Results were obtained with the default configuration and no "
            "tuning applied to the model.",
            None,
        ),
        (9, "table", None, None, 1),
        # A <caption> names its table; the short line above it stays a paragraph.
        (10, "paragraph", None, "Throughput results", None),
        (11, "caption", None, "Training", 2),
        (11, "table", None, None, 2),
        (12, "heading", 3, "Training", None),  # a heading right above is a heading
        (13, "table", None, None, 3),
    ]
    parsed = parse_html(OUTLINE_PAGE)
    # The prose is what it was: the caption line is prose, the footnote is not.
    assert "FP16 Inference Latency" in [text for _, text in parsed.prose]
    assert parsed.cells.filter(pl.col("table_index") == 0)["table_note"][0] == (
        "* measured in ms at the 99th percentile"
    )


def test_the_text_of_a_layout_table_above_a_table_stays_a_paragraph():
    html = """<table class="titlebar"><tr><td><p>UntetherAI</p>
    <p>Dell PowerEdge R760xa (6x speedAI240 Slim)</p></td></tr></table>
    <table><tr><th>Category:</th><td>Datacenter</td></tr><tr><th>Division:</th><td>Closed</td></tr></table>
    <table><tr><td><p>Accelerator Details</p>
    <table><tr><td>accelerators_per_node</td><td>6</td></tr><tr><td>cooling</td><td>air</td></tr></table>
    </td></tr></table>"""
    assert outline_of(html) == [
        (1, "paragraph", None, "UntetherAI", None),
        (2, "paragraph", None, "Dell PowerEdge R760xa (6x speedAI240 Slim)", None),
        (3, "table", None, None, 1),
        # In the same cell as the table under it, a short line is its caption.
        (4, "caption", None, "Accelerator Details", 3),
        (5, "table", None, None, 3),
    ]


def test_a_data_table_inside_a_data_table_follows_it_in_the_outline():
    html = """<h2>Training</h2><table>
    <tr><th>Model</th><th>Platform</th><th>Throughput (items/sec)</th></tr>
    <tr><td>ResNet-50 v1.5</td><td>Bow Pod16</td><td>44,059</td></tr>
    <tr><td>BERT Large</td><td>Bow Pod64</td><td>25,135<table>
      <tr><th>Run</th><th>Seconds</th></tr><tr><td>first</td><td>12</td></tr></table></td></tr>
    </table>"""
    assert outline_of(html) == [
        (1, "heading", 2, "Training", None),
        (2, "table", None, None, 0),
        (5, "table", None, None, 1),
    ]


def test_a_page_without_blocks_has_an_empty_outline_of_the_schema():
    for html in ("", "<!-- nothing -->", "<html><body></body></html>"):
        outline = parse_html(html).outline
        assert outline.height == 0
        assert outline.schema == OUTLINE_SCHEMA


_OUTLINE_PARTS = st.sampled_from(
    [
        "<h2>",
        "</h2>",
        "<h6>",
        "<p>",
        "</p>",
        "<p><b>",
        "</b></p>",
        "<caption>",
        "</caption>",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "<th>",
        '<th rowspan="2">',
        "<b>",
        "</b>",
        "\uf0c1",
        "\u00b6",
        " ",
        "Results",
        "1.5",
        "* measured in ms",
        ".",
        "\n",
    ]
)
OUTLINE_SOUP = st.lists(st.one_of(_OUTLINE_PARTS, TAG_SOUP), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), OUTLINE_SOUP))
def test_the_outline_names_each_table_that_gives_cells_once_in_reading_order(text):
    parsed = parse_html(text)
    outline = parsed.outline
    assert outline.schema == OUTLINE_SCHEMA
    assert outline["kind"].is_in(list(OUTLINE_KINDS)).all()
    tables = outline.filter(pl.col("kind") == "table")["table_index"].to_list()
    assert sorted(set(tables)) == tables
    assert set(tables) == set(parsed.cells["table_index"].to_list())
    captions = outline.filter(pl.col("kind") == "caption")["table_index"].to_list()
    assert set(captions) <= set(tables) and len(set(captions)) == len(captions)
    headings = outline.filter(pl.col("kind") == "heading")
    assert headings["level"].is_between(1, 6).all()
    assert not any(PERMALINK.search(text) for text in headings["text"])
