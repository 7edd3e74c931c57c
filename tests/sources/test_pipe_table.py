"""The Markdown pipe-table layout: the July 2023 page as Markdown, crafted tables, noise."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from sources.layouts import choose_layout
from sources.layouts.pipe_table import parse_pipe_tables, sniff_pipe_tables
from sources.parse import parse_document
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
    text = "\n".join([
        "## Bow-2000 inference",
        "",
        "Model | Platform | Latency (ms)",
        ":--- | :---: | ---:",
        r"BERT \| Large | Bow-2000 | 1.36",
        "| GPT-2 | Bow-2000 | 2.10 |",
        "ViT|Bow-2000|0.80|",
    ])
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
    text = "\n".join([
        "| **Model** | Platform | Throughput (items/sec) |",
        "|---|---|---|",
        "| [BERT Large](https://example.com/bert) | `Bow Pod16` | 6,044<sup>1</sup> |",
        "| GPT&#8209;2 | &nbsp; | 1,234\\* |",
        "|  | Bow Pod64 | 2,000<br> |",
    ])
    assert rows_of(parse_pipe_tables(text).cells) == [
        ["Model", "Platform", "Throughput (items/sec)"],
        ["BERT Large", "Bow Pod16", "6,044\u00b9"],
        ["GPT\u20112", NBSP, "1,234*"],
        ["", "Bow Pod64", "2,000 "],
    ]


def test_titles_come_from_the_nearest_heading_bold_line_or_setext_heading():
    table = "| Model | Platform |\n|---|---|\n| BERT | Bow Pod16 |"
    text = "\n\n".join([
        "# Page", table, "**Bow Platform - Inference**", table, "Classic results\n---------------",
        "Some text.", table,
    ])
    parsed = parse_pipe_tables(text)
    titles = parsed.cells.group_by("table_index", maintain_order=True).agg(
        pl.col("table_title").first()
    )["table_title"].to_list()
    assert titles == ["Page", "Bow Platform - Inference", "Classic results"]
    assert [t for _, t in parsed.prose] == [
        "Page", "Bow Platform - Inference", "Classic results", "Some text."
    ]


def test_a_footnote_after_the_table_is_its_note_line_by_line():
    text = "\n".join([
        "| Model | Dataset | Throughput (items/sec) |",
        "|---|---|---|",
        "| GPS++ | PCQM4Mv2 | 17,800 |",
        "",
        "* PCQM4Mv2 throughput measured in graphs/s",
        "\u2020 Ensembled results",
        "",
        "A closing paragraph.",
    ])
    parsed = parse_pipe_tables(text)
    assert parsed.cells["table_note"].unique().to_list() == [
        "* PCQM4Mv2 throughput measured in graphs/s | \u2020 Ensembled results"
    ]
    assert parsed.prose == [(8, "A closing paragraph.")]


def test_tables_in_code_fences_and_comments_are_not_read():
    text = "\n".join([
        "```markdown", "| Model | Platform |", "|---|---|", "| Fenced | Bow Pod16 |", "```",
        "<!--", "| Model | Platform |", "|---|---|", "| Hidden | Bow Pod16 |", "-->",
        "~~~", "| a | b |", "|---|---|", "~~~",
        "| Model | Platform |", "|---|---|", "| Shown | Bow Pod16 |",
    ])
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells) == [["Model", "Platform"], ["Shown", "Bow Pod16"]]
    assert parsed.cells["line_number"].to_list() == [15, 15, 17, 17]
    assert parsed.prose == []


def test_front_matter_gives_the_page_metadata():
    text = "\n".join([
        "---", 'title: "Bow Pod results"', "author: Matt Fyles", "date: 2022-06-29",
        "lastmod: 2023-07-04T10:00:00Z", "---", "# Another heading", "",
        "| Model | Platform |", "|---|---|", "| BERT | Bow Pod16 |",
    ])
    parsed = parse_pipe_tables(text)
    assert parsed.metadata.title == "Bow Pod results"
    assert parsed.metadata.author == "Matt Fyles"
    assert parsed.metadata.published_date == "2022-06-29"
    assert parsed.metadata.last_updated_date == "2023-07-04"
    assert parsed.cells["line_number"].min() == 9


def test_a_repeated_header_and_a_repeated_delimiter_inside_the_body_are_skipped():
    text = "\n".join([
        "| Model | Platform |", "|---|---|", "| BERT | Bow Pod16 |", "| Model | Platform |",
        "|---|---|", "| GPT | Bow Pod64 |",
    ])
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells)[1:] == [["BERT", "Bow Pod16"], ["GPT", "Bow Pod64"]]
    assert parsed.cells["row_number"].max() == 2


# ---- rows that lost a cell -----------------------------------------------------------------

MIRROR = "\n".join([
    "## Bow Platform - Training",
    "",
    "| Model | Platform | Dataset | Batch Size | Precision | Throughput (items/sec) |",
    "|---|---|---|---|---|---|",
    "| BERT Large | Bow Pod16 | Wikipedia | 54,784 | 16.16 | 6,044 |",
    "| TGN | 1x Bow IPU | | 200 | 16.16 | 31,617 |",
    "| ResNet-50 | Bow Pod16 | ImageNet | 1,920 | 16.16 | 38,036 |",
    "| TGN | 1x Bow IPU | 200 | 16.16 | 30,000 |",
    "| GPT-2 | Bow Pod16 | 16.16 | 1,000 |",
])


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
    text = "\n".join([
        "| Model | Platform | Framework | Throughput (items/sec) |",
        "|---|---|---|---|",
        "| BERT | | PopART | 100 |",
        "| GPT | Bow Pod16 | | 200 |",
        "| ViT | PyTorch | 300 |",
    ])
    parsed = parse_pipe_tables(text)
    assert len(rows_of(parsed.cells)) == 3
    assert [p.raw for p in parsed.problems] == ["ViT | PyTorch | 300"]


def test_a_short_row_is_a_problem_without_enough_complete_rows_to_learn_from():
    text = "| Model | Platform | Dataset |\n|---|---|---|\n| BERT | | Wiki |\n| GPT | Bow Pod16 |"
    parsed = parse_pipe_tables(text)
    assert [p.raw for p in parsed.problems] == ["GPT | Bow Pod16"]


def test_trailing_empty_cells_past_the_header_are_dropped_and_real_extras_are_problems():
    text = "\n".join([
        "| Model | Platform |", "|---|---|", "| BERT | Bow Pod16 | | |",
        "| GPT | Bow Pod64 | 12 |",
    ])
    parsed = parse_pipe_tables(text)
    assert rows_of(parsed.cells)[1:] == [["BERT", "Bow Pod16"]]
    assert [p.raw for p in parsed.problems] == ["GPT | Bow Pod64 | 12"]


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
        ["Model", "Platform", "Throughput (items/sec)"], ["ResNet-50 v1.5", "Bow Pod16", "44,059"]
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


_PIPE_PARTS = st.sampled_from([
    "|", "| ", " |", "---", "|---|", ":--", "--:", "\\|", "\n", "\r\n", " ", "# ", "## ", "**",
    "```", "~~~", "<!--", "-->", "---\n", "a", "1,234", "&nbsp;", "<sup>1</sup>", "<br>",
    "\u00a0", "*", "title: x\n",
])
PIPE_SOUP = st.lists(st.one_of(_PIPE_PARTS, st.text(max_size=4)), max_size=80).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), PIPE_SOUP))
def test_the_pipe_parser_never_raises_and_cells_stay_inside_their_table(text):
    parsed = parse_pipe_tables(text)
    assert_well_formed(parsed.cells)
