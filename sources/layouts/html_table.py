"""HTML pages: every data <table> as located cells, plus the page's prose and metadata.

One lxml tree serves tables, prose and metadata. On a 300 KB page with five 200-row tables,
lxml builds its tree in about 7 ms and the whole parse takes about 20 ms, where
BeautifulSoup needs about 375 ms with html.parser for its tree alone (and 285 ms with its
lxml builder, which drops `sourceline`, the cells' line numbers). libxml2 also closes omitted
</td>, </tr> and </p> tags the way browsers do, and one tree means the prose and the tables
never disagree about where a table starts or ends.

Most of the time left is lxml's: building the tree, and a Python object for each element
read. A table's cells are read a field at a time, the texts of all the cells of a row group
at once, then their lines (see `html_grid.expand_rows`); each cell is known by its place in
those lists rather than as an object of its own (see `html_grid.GridCells`).

libxml2's HTML parser never loads a DTD nor expands entities a document declares; only
the predefined HTML character references (&nbsp;, &amp;, ...) become characters.

The reading is split by step: the markup and its tree (html_tree), the text of elements
(html_text), a table's grid (html_grid) and cells (html_cells), the page's text blocks
(html_stream), its tables and text read once (html_page), its outline (html_outline) and
metadata (html_metadata).
"""

from __future__ import annotations

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"
import polars as pl

from perfledger.sources.layouts.base import (
    CellColumns,
    Layout,
    ParsedDocument,
    ParseProblem,
    cells_frame,
    outline_of,
)
from perfledger.sources.layouts.html_head import read_head
from perfledger.sources.layouts.html_metadata import may_hold_spans, page_elements, page_metadata
from perfledger.sources.layouts.html_outline import outline_rows
from perfledger.sources.layouts.html_page import add_table_cells, prose_of, read_tables_and_text
from perfledger.sources.layouts.html_printed import read_printed_tables
from perfledger.sources.layouts.html_stream import Block
from perfledger.sources.layouts.html_text import collapse_space
from perfledger.sources.layouts.html_tree import parse_tree, prepare_markup

# collapse_space and may_hold_spans are imported from here by callers outside the layouts.
__all__ = [
    "LAYOUT",
    "MEDIA_TYPES",
    "SUFFIXES",
    "collapse_space",
    "may_hold_spans",
    "parse_html",
    "sniff_html",
]

# The media types fetch asks for and keeps for this layout, with their weight in its Accept
# header, and the file suffixes collect reads as this layout's pages.
MEDIA_TYPES = {"text/html": 1.0, "application/xhtml+xml": 1.0}
SUFFIXES = {".html": "text/html", ".htm": "text/html", ".xhtml": "application/xhtml+xml"}


def parse_html(text: str, utf8: bytes | None = None) -> ParsedDocument:
    """Parse an HTML page into table cells, prose paragraphs, its outline and metadata.
    `utf8`: the text's UTF-8, when the caller has it (see `prepare_markup`)."""
    stopped: list[ParseProblem] = []
    try:
        markup = prepare_markup(text, utf8)
        root = parse_tree(markup, stopped)
    except (ValueError, etree.LxmlError) as error:
        problem = ParseProblem("unparseable_html", f"the HTML parser refused the page: {error}")
        return ParsedDocument(cells=cells_frame(), problems=[problem])
    if root is None:
        return ParsedDocument(cells=cells_frame())
    head = read_head(text)
    found = page_elements(root)
    page = read_tables_and_text(root, found.tables)
    indexes = page.table_indexes()
    cells = CellColumns()
    problems = stopped + add_table_cells(page, indexes, cells)
    printed = read_printed_tables(page, len(page.tables))
    frame = cells.frame()
    if printed.rows:
        frame = pl.concat([frame, cells_frame(printed.rows)])
    blocks = [item for item in page.items if isinstance(item, Block)]
    return ParsedDocument(
        cells=frame,
        metadata=page_metadata(found, blocks, head, root),
        prose=prose_of(page),
        problems=problems + printed.problems,
        outline=outline_of(outline_rows(page, indexes, printed.outline)),
    )


def sniff_html(data: bytes, content_type: str | None) -> float:
    kind = (content_type or "").lower()
    if "text/html" in kind or "application/xhtml+xml" in kind:
        return 0.9
    # NUL bytes removed so that UTF-16 pages are recognised too.
    head = data[:8192].replace(b"\x00", b"").lower()
    if b"<!doctype html" in head or b"<html" in head:
        return 0.9
    body = data[:1_048_576].replace(b"\x00", b"").lower()
    if b"<table" in body and (b"<td" in body or b"<th" in body):
        return 0.8
    return 0.0


LAYOUT = Layout(
    name="html_table",
    sniff=sniff_html,
    parse=parse_html,
    media_types=MEDIA_TYPES,
    suffixes=SUFFIXES,
    parse_utf8=parse_html,
)
