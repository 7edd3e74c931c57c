"""HTML tables: the row groups read at once give what reading them row by row gives, and the
quick text helpers give what their plain definitions give."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from perfledger.sources.layouts import html_grid, html_text, html_tree
from perfledger.sources.layouts.html_grid import build_grid, sort_tables
from perfledger.sources.layouts.html_metadata import page_elements
from perfledger.sources.layouts.html_table import parse_html
from perfledger.sources.layouts.html_text import collapse_space
from perfledger.sources.layouts.html_tree import parse_tree, prepare_markup
from perfledger.sources.layouts.table_text import superscript
from tests.sources.layout_checks import rows_of

# Plain groups (a header, rows with superscripts, <br>, nested inline tags, &nbsp; cells,
# empty cells and runs of whitespace) next to groups with spans, a comment among the cells,
# a section label, a short row and a footer.
MIXED_PAGE = """<!DOCTYPE html>
<html><head><title>Mixed tables</title></head><body>
<h2>Throughput</h2>
<table>
<thead><tr><th>Model</th><th>Platform</th><th>Throughput<br>(items/sec)</th><th>Note</th></tr>
</thead>
<tbody>
<tr><td>ResNet-50</td><td>Bow Pod16</td><td>6,044<sup>1</sup></td><td>&nbsp;</td></tr>
<tr><td><b>BERT <i>Large</i></b></td><td>Bow&nbsp;Pod64</td><td> 12,345 <sup>*</sup></td>
<td></td></tr>
<tr><td>GPT
   2</td><td>IPU-POD<br>256</td><td>1<sup>st</sup></td><td>  tab\there </td></tr>
</tbody>
<tbody>
<tr><td rowspan="2">ResNet-50</td><td>Bow Pod16</td><td>5,000<sup>2</sup></td><td>x</td></tr>
<tr><td>Bow Pod64</td><td>19,000</td><td>&nbsp;</td></tr>
<tr><td colspan="4">Section: training</td></tr>
<tr><td>BERT</td><td colspan="2">Bow Pod16 <sup>3</sup></td><td>y</td></tr>
<tr><td>Plain</td><td>row</td><td>after</td><td>spans</td></tr>
</tbody>
<tbody>
<tr><td>A</td><!-- a comment among the cells --><td>B</td><td>C</td><td>D</td></tr>
<tr><td>E</td><td>F<span> <em>f</em></span></td><td>G</td><td>H</td></tr>
</tbody>
<tfoot><tr><td colspan="4">Measured in items/sec.<br>1 With host overlap</td></tr></tfoot>
</table>
<p>Measured in items per second.</p>
<table>
<tr><th colspan="3">All results</th></tr>
<tr><th>Model</th><th>System</th><th>Score</th></tr>
<tr><td>ResNet-50</td><td>Bow Pod16</td><td>1.5</td></tr>
<tr><td>BERT</td><td>Bow Pod16</td></tr>
<tr><td>GPT</td><td>Bow Pod64</td><td>2.5</td></tr>
</table>
<h2>Latency</h2>
<table>
<tr><th>Model</th><th>Latency <sup>ms</sup></th></tr>
<tr><td>ResNet-50</td><td>1.2<sup>1</sup></td></tr>
<tr><td>&nbsp;</td><td> </td></tr>
<tr><td>BERT</td><td>3.4<br/>(p99)</td></tr>
</table>
</body></html>
"""


def _row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def expand_rows(rows, cells, spans=True):
        return html_grid._expand_rows_one_by_one(rows, cells, spans)

    monkeypatch.setattr(html_grid, "expand_rows", expand_rows)


def _resolved(grid: html_grid.Grid) -> list:
    """The grid's rows as (text, line) per position, with which positions share a cell."""
    first_seen: dict[int, int] = {}

    def resolve(ids):
        return [
            None
            if cell is None
            else (
                grid.cells.texts[cell],
                grid.cells.lines[cell],
                first_seen.setdefault(cell, len(first_seen)),
            )
            for cell in ids
        ]

    header = [resolve(ids) for ids in grid.header_rows]
    body = [(row.sourceline, index, resolve(ids)) for row, ids, index in grid.body_rows]
    return [header, body, grid.foot_notes, grid.lead_section]


def _grids(text: str) -> list:
    root = parse_tree(prepare_markup(text))
    return [_resolved(build_grid(table)) for table in sort_tables(page_elements(root).tables)[0]]


def test_plain_groups_read_at_once_give_the_cells_read_row_by_row(monkeypatch):
    one_by_one = []
    original = html_grid._expand_rows_one_by_one

    def spy(rows, cells, spans):
        one_by_one.append(rows[0].findtext("td") if rows else None)
        return original(rows, cells, spans)

    monkeypatch.setattr(html_grid, "_expand_rows_one_by_one", spy)
    at_once = parse_html(MIXED_PAGE)
    grids_at_once = _grids(MIXED_PAGE)
    # Only the groups with a span or a comment among their cells were read row by row.
    assert one_by_one == ["ResNet-50", "A", None] * 2

    _row_by_row(monkeypatch)
    row_by_row = parse_html(MIXED_PAGE)
    assert_frame_equal(at_once.cells, row_by_row.cells)
    assert (at_once.metadata, at_once.prose, at_once.problems) == (
        row_by_row.metadata,
        row_by_row.prose,
        row_by_row.problems,
    )
    assert grids_at_once == _grids(MIXED_PAGE)

    values = dict(zip(at_once.cells["raw_value"], at_once.cells["column_name"], strict=False))
    assert values["6,044¹"] == "Throughput (items/sec)"
    assert {
        "BERT Large",
        "Bow\u00a0Pod64",
        "\u00a0",
        "GPT 2",
        "IPU-POD 256",
        "1st",
        "tab here",
        "F f",
        "1.2¹",
        "3.4 (p99)",
    } <= set(values)
    # The short row ("BERT | Bow Pod16") reads as a browser draws it: no score published.
    assert at_once.problems == []
    assert ["BERT", "Bow Pod16", ""] in rows_of(at_once.cells, table=1)


def test_a_table_without_spans_is_read_at_once_whatever_its_cells_hold(monkeypatch):
    page = re.sub(r' (?:row|col)span="\d"|<!--[^>]*-->', "", MIXED_PAGE)
    assert "span=" not in page and "<!--" not in page
    one_by_one = []
    original = html_grid._expand_rows_one_by_one
    monkeypatch.setattr(
        html_grid,
        "_expand_rows_one_by_one",
        lambda rows, cells, spans: one_by_one.append(rows) or original(rows, cells, spans),
    )
    at_once = parse_html(page)
    assert one_by_one == []
    _row_by_row(monkeypatch)
    row_by_row = parse_html(page)
    assert_frame_equal(at_once.cells, row_by_row.cells)
    assert at_once.problems == row_by_row.problems


def test_str_split_whitespace_is_html_whitespace_or_the_characters_set_apart():
    html_space = set(" \t\n\r\f")
    split_space = {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()}
    set_apart = {
        chr(code)
        for code in range(sys.maxunicode + 1)
        if html_text._NOT_HTML_SPACE.fullmatch(chr(code))
    }
    assert set_apart == split_space - html_space


_TEXT_PARTS = st.sampled_from(
    [
        " ",
        "  ",
        "\t",
        "\n",
        "\r",
        "\f",
        "\x0b",
        "\u00a0",
        "\u2028",
        "\u3000",
        "\x85",
        "a",
        "b",
        "6,044",
        "\u00b9",
        "",
        " \n ",
        "\x1c",
    ]
)
_TEXTS = st.lists(_TEXT_PARTS, max_size=8).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXTS)
def test_collapse_space_is_one_space_per_run_of_html_whitespace(text):
    assert collapse_space(text) == re.sub(r"[ \t\n\r\f]+", " ", text).strip(" ")


@settings(max_examples=500, deadline=None)
@given(st.lists(_TEXTS, max_size=6))
def test_cell_texts_collapse_at_once_as_one_by_one(texts):
    assert html_text.collapse_many(texts) == [collapse_space(text) for text in texts]


def _markup_as_published(text: str) -> bytes:
    """prepare_markup as first written: every change made on the str."""
    text = text.removeprefix("\ufeff")
    text = re.sub(r"\r\n?", "\n", text)
    declaration = html_tree._XML_DECLARATION
    if declaration.match(text):
        text = declaration.sub(lambda m: m.group(1) + "\n" * m.group(0).count("\n"), text)
    return re.sub(r"[\ud800-\udfff]", "\ufffd", text).encode("utf-8")


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "\r",
                "\n",
                "\r\n",
                "\r\r\n",
                "a",
                "é",
                "—",
                "\ud800",
                "\ufeff",
                " ",
                "<p>",
                "<?xml version='1.0' encoding='utf-8'?>",
                "\u2028",
            ]
        ),
        max_size=10,
    ).map("".join)
)
def test_line_breaks_are_normalized_in_the_bytes_as_in_the_text(text):
    assert prepare_markup(text) == _markup_as_published(text)
    if "\ud800" not in text:  # the page's own UTF-8 bytes, when given, give the same markup
        assert prepare_markup(text, text.encode("utf-8")) == _markup_as_published(text)


def _text_as_first_written(element, line_break: str = " ") -> str:
    """text_of as first written: every child read on one walk of the element."""
    parts: list[str] = []
    stack = [(element, iter(element))]
    parts.append(element.text or "")
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if node is not element:
                parts.append(node.tail or "")
            continue
        tag = child.tag.lower() if isinstance(child.tag, str) else None
        if tag is None or tag in (
            "script",
            "style",
            "template",
            "noscript",
            "textarea",
            "xmp",
            "table",
        ):
            parts.append(child.tail or "")
        elif tag == "br":
            parts.append(line_break)
            parts.append(child.tail or "")
        elif tag == "sup":
            parts.append(superscript(_text_as_first_written(child)))
            parts.append(child.tail or "")
        else:
            parts.append(child.text or "")
            stack.append((child, iter(child)))
    return re.sub(r"[ \t\n\r\f]+", " ", "".join(parts)).strip(" ")


_INLINE = st.recursive(
    st.sampled_from(["6,044", " 1 ", "\n", "&nbsp;", "a  b", "", "(2)", "st", "\t*"]),
    lambda inner: st.one_of(
        st.builds("<sup>{}</sup>".format, inner),
        st.builds("<b>{}</b>".format, inner),
        st.builds("<span><i>{}</i> x</span>".format, inner),
        st.builds("{}<br>{}".format, inner, inner),
        st.builds("{}<!-- c -->{}".format, inner, inner),
        st.builds("{}<script>s</script>{}".format, inner, inner),
        st.builds("{}{}".format, inner, inner),
    ),
    max_leaves=6,
)


@settings(max_examples=400, deadline=None)
@given(_INLINE, st.sampled_from([" ", "\u2028"]))
def test_the_text_of_a_cell_is_the_text_of_its_walk(markup, line_break):
    root = parse_tree(prepare_markup(f"<table><tr><td>{markup}</td></tr></table>"))
    cell = next(root.iter("td"))
    assert html_text.text_of(cell, line_break) == _text_as_first_written(cell, line_break)


@settings(max_examples=300, deadline=None)
@given(st.lists(_INLINE, min_size=1, max_size=5))
def test_the_cells_of_a_table_read_at_once_give_the_text_of_each(markups):
    row = "".join(f"<td>{markup}</td>" for markup in markups)
    root = parse_tree(prepare_markup(f"<table><tr>{row}</tr><tr>{row}</tr></table>"))
    cells = list(root.iter("td"))
    grid = build_grid(next(root.iter("table")))
    assert grid.cells.texts[: len(cells)] == [html_text.text_of(cell) for cell in cells]


# Long texts are collapsed with stand-ins for the whitespace HTML keeps; the stand-ins
# themselves ("\x01", "\x80") may be in the text too.
_LONG_TEXTS = st.lists(
    st.one_of(_TEXT_PARTS, st.sampled_from(["\x01", "\x80", "\x02\x03", "x" * 30])),
    min_size=10,
    max_size=40,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_LONG_TEXTS)
def test_long_texts_collapse_as_short_ones(text):
    assert collapse_space(text) == re.sub(r"[ \t\n\r\f]+", " ", text).strip(" ")


def test_a_long_text_holding_every_stand_in_is_still_collapsed():
    text = "".join(html_text._STAND_INS) + " \u00a0 \n\t x " * 20
    assert collapse_space(text) == re.sub(r"[ \t\n\r\f]+", " ", text).strip(" ")
