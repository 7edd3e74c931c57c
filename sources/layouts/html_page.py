"""A page's tree read once: the grids of its data tables, the text blocks around them, each
table's heading, caption and footnote; then its cells and its prose. A piece of HTML inside
another document (a <table> block of a Markdown page) is read the same way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.base import CellColumns, ParseProblem
from perfledger.sources.layouts.html_cells import table_cells
from perfledger.sources.layouts.html_grid import (
    MIN_DATA_COLUMNS,
    Grid,
    build_grid,
    line_of,
    sort_tables,
)
from perfledger.sources.layouts.html_stream import Block, CodeMark, Stream, TableMark
from perfledger.sources.layouts.html_text import clean_heading, text_of
from perfledger.sources.layouts.html_tree import parse_tree, prepare_markup
from perfledger.sources.layouts.table_text import NOTE_LINE_SEPARATOR, looks_like_note


def _note_after(items: Sequence[Block | TableMark | CodeMark], start: int) -> list[str]:
    """The footnote lines right after a table: blocks that read as footnotes, with the rest of
    a footnote paragraph that <br> cut into lines."""
    lines: list[str] = []
    owner = None
    for item in items[start:]:
        if not isinstance(item, Block) or item.heading:
            break
        if item.owner != owner and not looks_like_note(item.text):
            break
        lines.append(item.text)
        owner = item.owner
    return lines


def _assign_titles_and_notes(
    items: Sequence[Block | TableMark | CodeMark],
) -> tuple[dict[etree._Element, tuple[str | None, str | None]], set[int]]:
    """Per table: the nearest heading above it and the footnote right after it."""
    found: dict[etree._Element, tuple[str | None, str | None]] = {}
    note_items: set[int] = set()
    heading: str | None = None
    for position, item in enumerate(items):
        if isinstance(item, TableMark):
            lines = _note_after(items, position + 1)
            note_items.update(range(position + 1, position + 1 + len(lines)))
            found[item.table] = (heading, NOTE_LINE_SEPARATOR.join(lines) or None)
        elif isinstance(item, Block) and item.heading:
            heading = item.text
    return found, note_items


@dataclass
class TablesAndText:
    """A tree read once: its tables, the grids of its data tables and the text blocks around
    them in reading order."""

    tables: list[etree._Element]  # every <table>, in the order of their opening tags
    grids: dict[etree._Element, Grid]  # the data tables, in the same order
    items: list[Block | TableMark | CodeMark]  # text blocks, data tables, code in reading order
    context: dict[etree._Element, tuple[str | None, str | None]]  # heading above, note after
    note_items: set[int]  # the places in `items` of the blocks that are a table's footnote
    captions: dict[etree._Element, tuple[str, int]]  # a data table's <caption>: text, line
    nested: dict[etree._Element, list[etree._Element]]  # data tables inside a data table

    def table_indexes(self, first: int = 0) -> dict[etree._Element, int]:
        """Each table's index: its place among all the tables, layout ones included."""
        return {table: first + place for place, table in enumerate(self.tables)}

    def shift_lines(self, offset: int) -> None:
        """Count lines from `offset` + 1, as the document a piece of HTML read apart sits in
        does. (Line breaks put before the piece would do it too, but cost a scan of them for
        each piece: a page of many pieces would take the square of its length.)"""
        for grid in self.grids.values():
            cells = grid.cells
            cells.lines = [line + offset for line in cells.lines]
            cells.cut_rows = [(line + offset, cut, raw) for line, cut, raw in cells.cut_rows]
            grid.line_offset += offset
        self.items = [
            item if isinstance(item, TableMark) else item._replace(line=item.line + offset)
            for item in self.items
        ]
        self.captions = {
            table: (text, line + offset) for table, (text, line) in self.captions.items()
        }

    def table_at_end(self) -> etree._Element | None:
        """The data table the text ends with, if it does: what follows the text in the
        document it sits in (a Markdown page) may be that table's footnote."""
        last = self.items[-1] if self.items else None
        return last.table if isinstance(last, TableMark) else None

    def add_note(self, table: etree._Element, note: str) -> None:
        heading, known = self.context.get(table, (None, None))
        self.context[table] = (heading, NOTE_LINE_SEPARATOR.join(filter(None, (known, note))))


def read_tables_and_text(root: etree._Element, tables: list[etree._Element]) -> TablesAndText:
    """Read the tree under `root`, whose <table> elements are `tables` in document order."""
    data, holders = sort_tables(tables)
    grids = {table: build_grid(table, table in holders) for table in data}
    # A table too narrow for results is page layout: its text is prose like any other.
    grids = {table: grid for table, grid in grids.items() if grid.width >= MIN_DATA_COLUMNS}
    stream = Stream(set(grids))
    stream.read(root)
    stream.flush()
    context, note_items = _assign_titles_and_notes(stream.items)
    return TablesAndText(
        tables, grids, stream.items, context, note_items, _captions(grids), _nested(grids)
    )


def _captions(grids: dict[etree._Element, Grid]) -> dict[etree._Element, tuple[str, int]]:
    found = {}
    for table in grids:
        caption = next(table.iterchildren("caption"), None)
        text = clean_heading(text_of(caption)) if caption is not None else ""
        if text:
            found[table] = (text, line_of(caption, line_of(table)))
    return found


def _nested(grids: dict[etree._Element, Grid]) -> dict[etree._Element, list[etree._Element]]:
    """The data tables inside each data table, which the stream does not read into."""
    nested: dict[etree._Element, list[etree._Element]] = {}
    for table in grids:
        holder = next((above for above in table.iterancestors("table") if above in grids), None)
        if holder is not None:
            nested.setdefault(holder, []).append(table)
    return nested


def add_table_cells(
    page: TablesAndText,
    indexes: dict[etree._Element, int],
    out: CellColumns,
    title_above: str | None = None,
) -> list[ParseProblem]:
    """Add the cells of the page's data tables to `out`; rows whose cells cannot be placed
    are returned as problems. `title_above` titles a table without a heading of its own above
    it (the heading of the document a piece of HTML sits in)."""
    problems: list[ParseProblem] = []
    for table, grid in page.grids.items():
        heading, note = page.context.get(table, (None, None))
        caption = page.captions.get(table)
        title = (caption[0] if caption else None) or heading or title_above
        problems += table_cells(grid, indexes[table], title, note, out)
    return problems


def prose_of(page: TablesAndText) -> list[tuple[int, str]]:
    """(line, text) of the text blocks, a table's footnotes left out (they are its note)."""
    return [
        (item.line, item.text)
        for position, item in enumerate(page.items)
        if isinstance(item, Block) and position not in page.note_items
    ]


def read_html_fragment(
    text: str, first_line: int = 1
) -> tuple[TablesAndText | None, list[ParseProblem]]:
    """The tables and text of a piece of HTML inside another document (a <table> block of a
    Markdown page) that starts at its line `first_line`, with the problems of reading it;
    lines are the document's."""
    stopped: list[ParseProblem] = []
    try:
        root = parse_tree(prepare_markup(text), stopped, first_line)
    except (ValueError, etree.LxmlError) as error:
        return None, [
            ParseProblem(
                "unparseable_html",
                f"the HTML parser refused a block: {error}",
                line_number=first_line,
            )
        ]
    if root is None:
        return None, stopped
    page = read_tables_and_text(root, list(root.iter("table")))
    if first_line != 1:
        page.shift_lines(first_line - 1)
    return page, stopped
