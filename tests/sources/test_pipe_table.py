"""The Markdown pipe-table layout: the July 2023 page as Markdown, crafted tables, noise."""

from __future__ import annotations

import time

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from perfledger.sources.layouts import choose_layout
from perfledger.sources.layouts.base import OUTLINE_KINDS, OUTLINE_SCHEMA
from perfledger.sources.layouts.pipe_table import parse_pipe_tables, sniff_pipe_tables
from perfledger.sources.parse import parse_document
from tests.conftest import CORPUS
from tests.fixtures.render_html import (
    JULY_2023_HTML,
    JULY_2023_MARKDOWN,
    cells_without_positions,
    july_2023_capture,
    render_markdown,
)
from tests.sources.layout_checks import measurements, rows_of
from tests.sources.test_html_table import assert_well_formed

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def capture():
    return july_2023_capture()


@pytest.fixture(scope="module")
def page():
    return parse_pipe_tables(JULY_2023_MARKDOWN.read_text(encoding="utf-8"))


# ---- the same page as Markdown and as a text capture ---------------------------------------


def test_the_committed_markdown_fixture_is_what_the_generator_renders(capture):
    assert JULY_2023_MARKDOWN.read_text(encoding="utf-8") == render_markdown(capture), (
        "regenerate with: python -m tests.fixtures.render_html"
    )


def test_the_same_page_as_markdown_and_as_a_text_capture_yields_the_same_measurements(
    capture, page
):
    expected = measurements(capture.cells)
    assert expected.height == 358
    assert_frame_equal(measurements(page.cells), expected)


def test_the_markdown_page_yields_the_same_cells_apart_from_their_lines(capture, page):
    assert_frame_equal(cells_without_positions(page.cells), cells_without_positions(capture.cells))
    assert page.problems == []


def test_markdown_cells_point_at_their_row_line(page):
    lines = JULY_2023_MARKDOWN.read_text(encoding="utf-8").split("\n")
    for row in page.cells.sample(200, seed=3).iter_rows(named=True):
        shown = "&nbsp;" if row["raw_value"] == NBSP else row["raw_value"]
        assert f"| {shown} |" in lines[row["line_number"] - 1], row


def test_the_code_block_table_is_not_data_and_pipe_prose_is_not_a_table(page):
    assert page.table_count == 7
    assert "Fake model" not in page.cells["raw_value"].to_list()
    prose = [text for _, text in page.prose]
    assert any(text.startswith("MLPerf v2.0 Training Results | MLPerf ID") for text in prose)
    assert not any("Fake model" in text for text in prose)
    assert page.metadata.title == "Performance Results"
    assert page.metadata.last_updated_date == "2023-07-04"


def test_layouts_are_chosen_by_sniffing():
    assert choose_layout(JULY_2023_MARKDOWN.read_bytes(), "").name == "pipe_table"
    assert choose_layout(JULY_2023_HTML.read_bytes(), "").name == "html_table"
    for path in sorted(CORPUS.glob("*.txt")):
        assert choose_layout(path.read_bytes(), "text/plain").name == "text_capture"
    parsed, layout = parse_document(JULY_2023_MARKDOWN.read_bytes(), "text/markdown")
    assert layout == "pipe_table"
    assert parsed.cells.height == 2417


# ---- pipe syntax ---------------------------------------------------------------------------


def test_escaped_pipes_alignment_colons_and_optional_outer_pipes():
    text = "\n".join(
        [
            "## Bow-2000 inference",
            "",
            "Model | Platform | Latency (ms)",
            ":--- | :---: | ---:",
            r"BERT \| Large | Bow-2000 | 1.36",
            "| GPT-2 | Bow-2000 | 2.10 |",
            "ViT|Bow-2000|0.80|",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert parsed.cells.rows() == [
        (0, "Bow-2000 inference", None, 0, 0, "Model", "Model", 3),
        (0, "Bow-2000 inference", None, 0, 1, "Platform", "Platform", 3),
        (0, "Bow-2000 inference", None, 0, 2, "Latency (ms)", "Latency (ms)", 3),
        (0, "Bow-2000 inference", None, 1, 0, "Model", "BERT | Large", 5),
        (0, "Bow-2000 inference", None, 1, 1, "Platform", "Bow-2000", 5),
        (0, "Bow-2000 inference", None, 1, 2, "Latency (ms)", "1.36", 5),
        (0, "Bow-2000 inference", None, 2, 0, "Model", "GPT-2", 6),
        (0, "Bow-2000 inference", None, 2, 1, "Platform", "Bow-2000", 6),
        (0, "Bow-2000 inference", None, 2, 2, "Latency (ms)", "2.10", 6),
        (0, "Bow-2000 inference", None, 3, 0, "Model", "ViT", 7),
        (0, "Bow-2000 inference", None, 3, 1, "Platform", "Bow-2000", 7),
        (0, "Bow-2000 inference", None, 3, 2, "Latency (ms)", "0.80", 7),
    ]
    assert parsed.problems == []


def test_inline_markup_entities_and_sup_footnotes_read_as_shown():
    text = "\n".join(
        [
            "| **Model** | Platform | Throughput (items/sec) |",
            "|---|---|---|",
            "| [BERT Large](https://example.com/bert) | `Bow Pod16` | 6,044<sup>1</sup> |",
            "| GPT&#8209;2 | &nbsp; | 1,234\\* |",
            "|  | Bow Pod64 | 2,000<br> |",
        ]
    )
    assert rows_of(parse_pipe_tables(text).cells) == [
        ["Model", "Platform", "Throughput (items/sec)"],
        ["BERT Large", "Bow Pod16", "6,044\u00b9"],
        ["GPT\u20112", NBSP, "1,234*"],
        ["", "Bow Pod64", "2,000 "],
    ]


def test_titles_come_from_the_nearest_heading_bold_line_or_setext_heading():
    table = "| Model | Platform |\n|---|---|\n| BERT | Bow Pod16 |"
    text = "\n\n".join(
        [
            "# Page",
            table,
            "**Bow Platform - Inference**",
            table,
            "Classic results\n---------------",
            "Some text.",
            table,
        ]
    )
    parsed = parse_pipe_tables(text)
    titles = (
        parsed.cells.group_by("table_index", maintain_order=True)
        .agg(pl.col("table_title").first())["table_title"]
        .to_list()
    )
    assert titles == ["Page", "Bow Platform - Inference", "Classic results"]
    assert [t for _, t in parsed.prose] == [
        "Page",
        "Bow Platform - Inference",
        "Classic results",
        "Some text.",
    ]


def test_a_footnote_after_the_table_is_its_note_line_by_line():
    text = "\n".join(
        [
            "| Model | Dataset | Throughput (items/sec) |",
            "|---|---|---|",
            "| GPS++ | PCQM4Mv2 | 17,800 |",
            "",
            "* PCQM4Mv2 throughput measured in graphs/s",
            "\u2020 Ensembled results",
            "",
            "A closing paragraph.",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert parsed.cells["table_note"].unique().to_list() == [
        "* PCQM4Mv2 throughput measured in graphs/s | \u2020 Ensembled results"
    ]
    assert parsed.prose == [(8, "A closing paragraph.")]


def test_tables_in_code_fences_and_comments_are_not_read():
    text = "\n".join(
        [
            "```markdown",
            "| Model | Platform |",
            "|---|---|",
            "| Fenced | Bow Pod16 |",
            "```",
            "<!--",
            "| Model | Platform |",
            "|---|---|",
            "| Hidden | Bow Pod16 |",
            "-->",
            "~~~",
            "| a | b |",
            "|---|---|",
            "~~~",
            "| Model | Platform |",
            "|---|---|",
            "| Shown | Bow Pod16 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "Platform"], ["Shown", "Bow Pod16"]]
    assert parsed.cells["line_number"].to_list() == [15, 15, 17, 17]
    assert parsed.prose == []


def test_front_matter_gives_the_page_metadata():
    text = "\n".join(
        [
            "---",
            'title: "Bow Pod results"',
            "author: Matt Fyles",
            "date: 2022-06-29",
            "lastmod: 2023-07-04T10:00:00Z",
            "---",
            "# Another heading",
            "",
            "| Model | Platform |",
            "|---|---|",
            "| BERT | Bow Pod16 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert parsed.metadata.title == "Bow Pod results"
    assert parsed.metadata.author == "Matt Fyles"
    assert parsed.metadata.published_date == "2022-06-29"
    assert parsed.metadata.last_updated_date == "2023-07-04"
    assert parsed.cells["line_number"].min() == 9


def test_a_repeated_header_and_a_repeated_delimiter_inside_the_body_are_skipped():
    text = "\n".join(
        [
            "| Model | Platform |",
            "|---|---|",
            "| BERT | Bow Pod16 |",
            "| Model | Platform |",
            "|---|---|",
            "| GPT | Bow Pod64 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells)[1:] == [["BERT", "Bow Pod16"], ["GPT", "Bow Pod64"]]
    assert parsed.cells["row_number"].max() == 2


# ---- rows that lost a cell -----------------------------------------------------------------

MIRROR = "\n".join(
    [
        "## Bow Platform - Training",
        "",
        "| Model | Platform | Dataset | Batch Size | Precision | Throughput (items/sec) |",
        "|---|---|---|---|---|---|",
        "| BERT Large | Bow Pod16 | Wikipedia | 54,784 | 16.16 | 6,044 |",
        "| TGN | 1x Bow IPU | | 200 | 16.16 | 31,617 |",
        "| ResNet-50 | Bow Pod16 | ImageNet | 1,920 | 16.16 | 38,036 |",
        "| TGN | 1x Bow IPU | 200 | 16.16 | 30,000 |",
        "| GPT-2 | Bow Pod16 | 16.16 | 1,000 |",
    ]
)


def test_a_translated_mirror_row_that_lost_its_empty_cell_is_realigned():
    parsed = parse_pipe_tables(MIRROR)
    assert rows_of(parsed.cells)[1:] == [
        ["BERT Large", "Bow Pod16", "Wikipedia", "54,784", "16.16", "6,044"],
        ["TGN", "1x Bow IPU", "", "200", "16.16", "31,617"],
        ["ResNet-50", "Bow Pod16", "ImageNet", "1,920", "16.16", "38,036"],
        ["TGN", "1x Bow IPU", "", "200", "16.16", "30,000"],
    ]
    assert [(p.check, p.raw, p.line_number) for p in parsed.problems] == [
        ("row_width_mismatch", "GPT-2 | Bow Pod16 | 16.16 | 1,000", 9)
    ]
    assert parsed.cells["row_number"].max() == 4  # the problem row keeps number 5


def test_a_short_row_is_a_problem_when_two_columns_could_have_lost_the_cell():
    text = "\n".join(
        [
            "| Model | Platform | Framework | Throughput (items/sec) |",
            "|---|---|---|---|",
            "| BERT | | PopART | 100 |",
            "| GPT | Bow Pod16 | | 200 |",
            "| ViT | PyTorch | 300 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert len(rows_of(parsed.cells)) == 3
    assert [p.raw for p in parsed.problems] == ["ViT | PyTorch | 300"]


def test_a_short_row_is_a_problem_without_enough_complete_rows_to_learn_from():
    text = "| Model | Platform | Dataset |\n|---|---|---|\n| BERT | | Wiki |\n| GPT | Bow Pod16 |"
    parsed = parse_pipe_tables(text)
    assert [p.raw for p in parsed.problems] == ["GPT | Bow Pod16"]


def test_trailing_empty_cells_past_the_header_are_dropped_and_real_extras_are_reported():
    # A row longer than the header used to be refused whole; it is now cut to the header's
    # width, as GitHub shows it, and only the cells cut are reported.
    text = "\n".join(
        [
            "| Model | Platform |",
            "|---|---|",
            "| BERT | Bow Pod16 | | |",
            "| GPT | Bow Pod64 | 12 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells)[1:] == [["BERT", "Bow Pod16"], ["GPT", "Bow Pod64"]]
    assert [(p.check, p.raw, p.line_number) for p in parsed.problems] == [
        ("cells_beyond_header", "12", 4)
    ]


# ---- sniffing and robustness ---------------------------------------------------------------


def test_a_row_cut_off_from_its_table_is_reported_and_code_and_prose_pipes_are_not():
    text = (
        "| Model | Platform | Throughput (items/sec) |\n|---|---|---|\n"
        "| ResNet-50 v1.5 | Bow Pod16 | 44,059 |\n"
        "Measured on 2023-07-01.\n"
        "| BERT Large | Bow Pod64 | 25,135 |\n\n"
        "A sentence with a | pipe | in it.\n"
        "    | indented | code |\n"
        "```\n| fenced | row |\n```\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [
        ["Model", "Platform", "Throughput (items/sec)"],
        ["ResNet-50 v1.5", "Bow Pod16", "44,059"],
    ]
    assert [(p.check, p.line_number, p.raw) for p in parsed.problems] == [
        ("pipe_row_outside_table", 5, "| BERT Large | Bow Pod64 | 25,135 |")
    ]
    assert "25,135" in " ".join(text for _, text in parsed.prose)


def test_sniff_wants_a_delimiter_row_and_leaves_html_to_the_html_layout():
    assert sniff_pipe_tables(b"| a | b |\n|---|---|\n| 1 | 2 |\n", None) >= 0.7
    assert sniff_pipe_tables(b"| a | b |\n|---|---|\n", "text/markdown") >= 0.8
    assert sniff_pipe_tables(b"Results | MLPerf ID: 2.0-2045\nmore | text\n", None) == 0.0
    assert sniff_pipe_tables(b"<table><tr><td>| a |</td></tr></table>\n|---|", None) < 0.1
    assert sniff_pipe_tables(b"```\n| a | b |\n|---|---|\n```\n", None) == 0.0


def test_a_table_past_the_sniffed_head_still_makes_the_page_markdown():
    prose = b"A paragraph of prose, long enough to fill the head of the page.\n\n" * 1100
    table = b"| Model | Throughput (img/s) |\n|---|---|\n| ResNet-50 | 1,200 |\n"
    assert len(prose) > 65_536
    for content_type in (None, "text/plain", "text/markdown"):
        parsed, layout = parse_document(prose + table, content_type)
        assert (layout, parsed.table_count) == ("pipe_table", 1), content_type
    # Declared Markdown, a page is this layout's even with no table at all.
    assert sniff_pipe_tables(prose, "text/markdown") == 0.6
    assert sniff_pipe_tables(prose, None) == 0.0
    # Lines that only look like delimiter rows past the head cost a bounded look each.
    fake = prose + b"text\n|---|\n" * 100_000 + table
    started = time.process_time()  # CPU time: other work on the machine does not count
    assert sniff_pipe_tables(fake, None) == 0.0
    assert time.process_time() - started < 0.5


_PIPE_PARTS = st.sampled_from(
    [
        "|",
        "| ",
        " |",
        "---",
        "|---|",
        ":--",
        "--:",
        "\\|",
        "\n",
        "\r\n",
        " ",
        "# ",
        "## ",
        "**",
        "```",
        "~~~",
        "<!--",
        "-->",
        "---\n",
        "a",
        "1,234",
        "&nbsp;",
        "<sup>1</sup>",
        "<br>",
        "\u00a0",
        "*",
        "title: x\n",
        "```{list-table}",
        ":::{csv-table} T",
        "```{table}",
        ":header-rows: 1",
        "* - ",
        "  - ",
        "---\nheader-rows: 2\n---\n",
    ]
)
PIPE_SOUP = st.lists(st.one_of(_PIPE_PARTS, st.text(max_size=4)), max_size=80).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), PIPE_SOUP))
def test_the_pipe_parser_never_raises_and_cells_stay_inside_their_table(text):
    parsed = parse_pipe_tables(text)
    assert_well_formed(parsed.cells)


# ---- rows longer than the header -----------------------------------------------------------


def test_a_row_longer_than_the_header_is_cut_to_it_and_the_cut_cells_are_reported():
    text = "\n".join(
        [
            "FP16 Inference Latency",
            "",
            "| Batch size | Resolution | Throughput Avg |",
            "|------------|------------|----------------|",
            "|      1      |    224x224       | 110.97 |  #| 95.71  | 10.45  |",
            "|      8      |    224x224       | 874.91 |",
            "|      32     |    224x224       | 2188.84 | # |  |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [
        ["Batch size", "Resolution", "Throughput Avg"],
        ["1", "224x224", "110.97"],
        ["8", "224x224", "874.91"],
        ["32", "224x224", "2188.84"],
    ]
    assert [(p.check, p.line_number, p.table_index, p.raw) for p in parsed.problems] == [
        ("cells_beyond_header", 5, 0, "# | 95.71 | 10.45"),
        ("cells_beyond_header", 7, 0, "#"),
    ]
    assert parsed.problems[0].reason.startswith(
        "data row 1 of table '#0' has 3 cells past the header's 3;"
    )


# ---- HTML tables written in Markdown -------------------------------------------------------

WITH_HTML = """# DLRM

## Training

| GPUs | Throughput |
|---|---|
| 8 | 11,400,000 |

## Inference

Our results were obtained by running the benchmark.

<table>
<tbody>
<tr><td></td><td colspan="2"><b>Mixed Precision</b></td></tr>
<tr><td><b>Batch size</b></td><td><b>Throughput Avg</b></td><td><b>Latency Avg</b></td></tr>

<tr><td style="text-align: right;">32768</td><td>14,796,024</td><td>0.00221</td></tr>
<tr><td> 8192</td><td>12,769,583</td><td>0.00064</td></tr>
</tbody>
</table>

\\* latency measured in seconds

<div align="center"><table><tr><td>Figure 1. A layout table</td></tr></table></div>

```html
<table><tr><td>Fenced</td><td>1</td></tr><tr><td>x</td><td>2</td></tr></table>
```
<!--
<table><tr><td>Commented</td><td>1</td></tr><tr><td>x</td><td>2</td></tr></table>
-->
Batch 1 results
| Batch size | Latency |
|---|---|
| 1 | 0.00014 |
"""


def test_html_tables_in_markdown_are_read_and_numbered_with_the_pipe_tables():
    parsed = parse_pipe_tables(WITH_HTML)
    cells = parsed.cells
    # 0: pipe table, 1: the HTML table, 2: the one-column layout table, 3: pipe table.
    assert sorted(set(cells["table_index"])) == [0, 1, 3]
    assert rows_of(cells, 1) == [
        ["Batch size", "Mixed Precision / Throughput Avg", "Mixed Precision / Latency Avg"],
        ["32768", "14,796,024", "0.00221"],
        ["8192", "12,769,583", "0.00064"],
    ]
    html_table = cells.filter(pl.col("table_index") == 1)
    lines = WITH_HTML.split("\n")
    for row in html_table.filter(pl.col("row_number") > 0).iter_rows(named=True):
        assert row["raw_value"] in lines[row["line_number"] - 1]  # the Markdown file's lines
    assert html_table["table_title"].unique().to_list() == ["Inference"]
    assert html_table["table_note"].unique().to_list() == ["* latency measured in seconds"]
    assert rows_of(cells, 3) == [["Batch size", "Latency"], ["1", "0.00014"]]
    assert "Fenced" not in cells["raw_value"].to_list()
    assert "Commented" not in cells["raw_value"].to_list()
    prose = [text for _, text in parsed.prose]
    assert "Figure 1. A layout table" in prose  # the layout table's text is prose
    assert not any("14,796,024" in text or "latency measured" in text for text in prose)
    assert parsed.problems == []


def test_the_outline_of_a_markdown_page_with_html_tables():
    assert parse_pipe_tables(WITH_HTML).outline.rows() == [
        (1, "heading", 1, "DLRM", None),
        (3, "heading", 2, "Training", None),
        (5, "table", None, None, 0),
        (9, "heading", 2, "Inference", None),
        (11, "paragraph", None, "Our results were obtained by running the benchmark.", None),
        (15, "table", None, None, 1),
        (25, "paragraph", None, "Figure 1. A layout table", None),
        (33, "caption", None, "Batch 1 results", 3),  # right above, after a comment
        (34, "table", None, None, 3),
    ]


def test_a_table_never_closed_ends_at_the_first_blank_line():
    text = (
        "<table><tr><td>Model</td><td>BERT</td></tr>\n<tr><td>x</td><td>1</td></tr>\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells, 0) == [["Model", "BERT"], ["x", "1"]]
    assert rows_of(parsed.cells, 1) == [["a", "b"], ["1", "2"]]


def _seconds_to_parse(text: str) -> float:
    timings = []
    for _ in range(2):
        started = time.process_time()  # CPU time: other work on the machine does not count
        parse_pipe_tables(text)
        timings.append(time.process_time() - started)
    return min(timings)


def test_many_tables_never_closed_read_in_linear_time():
    block = "<table><tr><td>a</td><td>1</td></tr>\n\n"
    assert parse_pipe_tables(block * 1_500).table_count == 1_500
    # Four times the blocks: about four times the time, where a scan to the end of the page
    # for each block, or its lines put before it, would take sixteen.
    ratio = _seconds_to_parse(block * 6_000) / _seconds_to_parse(block * 1_500)
    assert ratio < 8, ratio


def test_markdown_that_holds_html_tables_is_read_as_markdown_and_html_pages_as_html():
    assert choose_layout(WITH_HTML.encode(), "text/markdown").name == "pipe_table"
    assert choose_layout(WITH_HTML.encode(), None).name == "pipe_table"
    headings_only = b"# Results\n\n<table><tr><td>a</td><td>1</td></tr></table>\n"
    assert choose_layout(headings_only, None).name == "pipe_table"
    fragment = b"<p>x</p>\n<table><tr><td>a</td><td>1</td></tr></table>\n"
    assert choose_layout(fragment, None).name == "html_table"
    page = (
        b"<!DOCTYPE html><html><body>\n# not a heading\n| a | b |\n|---|---|\n"
        b"<table><tr><td>a</td><td>1</td></tr></table></body></html>"
    )
    assert choose_layout(page, "text/markdown").name == "html_table"


# ---- the outline ---------------------------------------------------------------------------

OUTLINE_PAGE = """---
title: Results
---
# EfficientNet

Intro line one,
line two with **bold** and a [link](https://example.com).

- first item
- second item
  continued

Inference results
=================

**NVIDIA DGX A100 (8x A100 80GB)**

FP16 Inference Latency

| Batch size | Latency (ms) |
|---|---|
| 1 | 9.09 |

* measured in ms

A sentence that ends with a period.

| Batch size | Throughput |
|---|---|
| 1 | 110.97 |

Precision
---
```
code
```
| GPUs | Time |
|---|---|
| 8 | 3.1 |
"""


def test_the_outline_of_a_markdown_page():
    assert parse_pipe_tables(OUTLINE_PAGE).outline.rows() == [
        (4, "heading", 1, "EfficientNet", None),
        (6, "paragraph", None, "Intro line one, line two with bold and a link.", None),
        (9, "paragraph", None, "first item", None),
        (10, "paragraph", None, "second item continued", None),
        (13, "heading", 1, "Inference results", None),
        (16, "heading", 6, "NVIDIA DGX A100 (8x A100 80GB)", None),
        (18, "caption", None, "FP16 Inference Latency", 0),
        (20, "table", None, None, 0),
        # The footnote is the table's note, no block; a sentence is no caption.
        (26, "paragraph", None, "A sentence that ends with a period.", None),
        (28, "table", None, None, 1),
        (32, "heading", 2, "Precision", None),
        (37, "table", None, None, 2),  # fenced code between: no caption
    ]


_HTML_IN_MARKDOWN_PARTS = st.sampled_from(
    [
        "<table>",
        "</table>",
        "<tr>",
        "</tr>",
        "<td>",
        "</td>",
        "<th>",
        '<th rowspan="2">',
        '<td colspan="2">',
        "<b>",
        "</b>",
        "<caption>",
        "\n",
        "\n\n",
        "| a | b |\n|---|---|\n",
        "| 1 | 2 | 3 |\n",
        "# Title\n",
        "Caption line\n",
        "```\n",
        "<!--",
        "-->",
        "1,234",
        "   ",
        "* note\n",
        "<div>",
        "    <table>",
    ]
)
HTML_IN_MARKDOWN = st.lists(
    st.one_of(_HTML_IN_MARKDOWN_PARTS, st.text(max_size=3)), max_size=60
).map("".join)


@settings(max_examples=300, deadline=None)
@given(HTML_IN_MARKDOWN)
def test_markdown_with_html_tables_never_raises_and_the_outline_names_only_its_tables(text):
    parsed = parse_pipe_tables(text)
    assert_well_formed(parsed.cells)
    outline = parsed.outline
    assert set(outline.columns) == set(OUTLINE_SCHEMA)
    assert outline["kind"].is_in(list(OUTLINE_KINDS)).all()
    tables = outline.filter(pl.col("kind") == "table")["table_index"].to_list()
    assert sorted(tables) == tables  # reading order is table order
    assert set(tables) == set(parsed.cells["table_index"].to_list())
    assert outline["line_number"].min() is None or outline["line_number"].min() >= 1


def test_a_table_in_a_list_item_is_read_and_an_indented_code_block_is_not():
    text = (
        "# Results\n\n1. Run the benchmark:\n\n"
        "    | Model | Throughput (img/s) |\n    |---|---|\n    | ResNet-50 | 1,200 |\n\n"
        "2. Then the nested step:\n\n   - on one GPU\n\n"
        "       | Model | Latency (ms) |\n       |---|---|\n       | BERT | 5.1 |\n\n"
        "Shown as code:\n\n    | Model | Latency (ms) |\n    |---|---|\n    | GPT-J | 51 |\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "Throughput (img/s)"], ["ResNet-50", "1,200"]]
    assert rows_of(parsed.cells, 1) == [["Model", "Latency (ms)"], ["BERT", "5.1"]]
    assert set(parsed.cells["table_index"]) == {0, 1}
    assert parsed.cells.filter(pl.col("raw_value") == "5.1")["line_number"].to_list() == [15]


def test_a_table_in_an_admonition_or_a_content_tab_is_read():
    # Ultralytics' model pages (MkDocs): results tables in tabs inside an admonition
    text = (
        '## Performance Metrics\n\n!!! performance\n\n    === "Detection (COCO)"\n\n'
        "        | Model | mAP<sup>val<br>50-95 | Speed<br><sup>A100 TensorRT<br>(ms) |\n"
        "        | --- | --- | --- |\n"
        "        | [YOLOv8n](https://example.com/yolov8n.pt) | 37.3 | 0.99 |\n\n"
        "Shown as code:\n\n    | Model | Latency (ms) |\n    |---|---|\n    | GPT-J | 51 |\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [
        ["Model", "mAP val 50-95", "Speed A100 TensorRT (ms)"],
        ["YOLOv8n", "37.3", "0.99"],
    ]
    assert set(parsed.cells["table_index"]) == {0}


def test_an_html_table_in_a_list_item_is_read_and_one_in_indented_code_is_not():
    text = (
        "1. Results:\n\n    <table>\n"
        "    <tr><th>Model</th><th>Throughput (img/s)</th></tr>\n"
        "    <tr><td>ResNet-50</td><td>1,200</td></tr>\n    </table>\n\n"
        "Code:\n\n    <table><tr><td>GPT-J</td><td>51</td></tr></table>\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "Throughput (img/s)"], ["ResNet-50", "1,200"]]
    assert set(parsed.cells["table_index"]) == {0}


def test_myst_table_directives_are_read_as_tables_and_other_fences_stay_code():
    text = (
        "# Performance\n\n## A100\n\n"
        "```{list-table} Throughput by GPU\n:header-rows: 1\n\n"
        "* - Model\n  - A100 (img/s)\n* - ResNet-50\n  - 2,800\n```\n\n"
        "```{table} Latency on H100\n| Model | Latency (ms) |\n|---|---|\n| BERT | 5.1 |\n```\n\n"
        ':::{csv-table} Tokens\n:header-rows: 1\n\nModel, Tokens/s\nLlama 3 8B, "1,024"\n:::\n\n'
        "```python\n| code | 1 |\n|---|---|\n```\n"
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "A100 (img/s)"], ["ResNet-50", "2,800"]]
    assert rows_of(parsed.cells, 1) == [["Model", "Latency (ms)"], ["BERT", "5.1"]]
    assert rows_of(parsed.cells, 2) == [["Model", "Tokens/s"], ["Llama 3 8B", "1,024"]]
    assert set(parsed.cells["table_index"]) == {0, 1, 2}
    assert set(parsed.cells["table_title"]) == {"A100"}
    assert parsed.cells.filter(pl.col("raw_value") == "2,800")["line_number"].to_list() == [11]
    captions = parsed.outline.filter(pl.col("kind") == "caption")
    assert captions.select("text", "table_index").rows() == [
        ("Throughput by GPU", 0),
        ("Latency on H100", 1),
        ("Tokens", 2),
    ]
    assert not parsed.problems
    # Options as a YAML block, the body indented.
    yaml = parse_pipe_tables(
        "```{list-table}\n---\nheader-rows: 1\nalign: center\n---\n\n"
        "  * - Model\n    - Mean\n  * - llama-3-8b\n    - 41.250\n```\n"
    )
    assert rows_of(yaml.cells) == [["Model", "Mean"], ["llama-3-8b", "41.250"]]
    assert not yaml.problems
    # Served as plain text, a page of MyST tables is still Markdown.
    assert choose_layout(text.encode(), "text/plain").name == "pipe_table"


def test_a_fence_line_with_an_info_string_closes_no_code_block():
    # As on a board vendor's model-zoo README: a code block whose closing fence was glued to
    # its last line is closed by the next bare fence, so "```bash" inside it opens nothing and
    # the results table after the following blocks is shown, not hidden as code; nor is a
    # line of inline code between backtick runs (as on NVIDIA's Jetson benchmarks README) a
    # fence.
    text = "\n".join(
        [
            "```bash",
            "    └── mapper.py```",
            "```bash",
            "python3 eval.py",
            "```",
            "``` git clone https://github.com/NVIDIA-AI-IOT/jetson_benchmarks.git``` <br />",
            "| Model | BPU Latency |",
            "|---|---|",
            "| YOLOv8n | 7.0 ms |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "BPU Latency"], ["YOLOv8n", "7.0 ms"]]


# As samuel-bohman/AI-benchmarking-guide's Azure_Results/ND_MI300X_v5_results.md draws it: a row
# of escaped dashes between the square shapes and the others.
RULE_BETWEEN_GROUPS = """### GEMM HipBLASLt

| m           | n         | k        | ND MI300X v5 (TFLOPS)    |
| ----------- | --------- | -------- | ---------------------- |
| 1024        | 1024      | 1024     | 53.13                   |
| 32768       | 32768     | 32768    |  1029.14               |
| \\---------- | \\-------- | \\------- | \\--------------------- |
| 1024        | 2145      | 1024     |   110.96                 |
"""


def test_a_body_row_of_long_dash_runs_is_a_rule_not_a_row():
    cells = parse_pipe_tables(RULE_BETWEEN_GROUPS).cells
    values = cells.filter(pl.col("column_index") == 3).get_column("raw_value").to_list()
    assert values == ["ND MI300X v5 (TFLOPS)", "53.13", "1029.14", "110.96"]
    assert not cells.get_column("raw_value").str.contains("---").any()


def test_a_short_row_whose_cells_fit_the_first_columns_reads_as_github_draws_it():
    # FuriosaAI's warboy-vision-models README: three rows of its segmentation table stop
    # before the two speed columns, which GitHub draws empty
    text = "\n".join(
        [
            "| Model       | Input Size<br><sup>(pixels) | mAP<sup>box<br>50-95 (FP32) "
            "| mAP<sup>mask<br>50-95 (FP32) | Warboy Speed<sup>Fusion<br>(ms) "
            "| Warboy Speed<sup>Single PE<br>(ms) |",
            "| ----------- | --- | --- | --- | --- | --- |",
            "| YOLOv9c-seg | 640x640 | 52.4 | 42.2 | 2.13  (4.60) | 2.60  (4.94) |",
            "| YOLOv8n-seg | 640x640 | 36.7 | 30.5 | 9.21  (10.61) | 12.59 (14.28) |",
            "| YOLOv8m-seg | 640x640 | 49.9 | 40.8 |                                 |",
        ]
    )
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells)[3] == ["YOLOv8m-seg", "640x640", "49.9", "40.8", "", ""]
    assert parsed.problems == []


def test_link_texts_keep_their_brackets_and_destinations_their_parentheses():
    # Spec-Bench's leaderboard names a method "[SAMD[EAGLE2]](...)"; a wiki table of training
    # costs links "[Llama 3.1 (405B)](/index.php?title=Llama_3.1_(405B)&action=edit&redlink=1)"
    text = "\n".join(
        [
            "| Model | Training time |",
            "| --- | --- |",
            "| [Llama 3.1 (405B)](/index.php?title=Llama_3.1_(405B)&action=edit&redlink=1) "
            "| 30.84M GPU-hours |",
            "| [SAMD[EAGLE2]](https://github.com/hyx1999/SAM-Decoding) | 2.63x |",
            "| [![badge](https://img.shields.io/x.svg)](https://example.com) | 1.00x |",
        ]
    )
    assert [row[0] for row in rows_of(parse_pipe_tables(text).cells)[1:]] == [
        "Llama 3.1 (405B)",
        "SAMD[EAGLE2]",
        "badge",
    ]
