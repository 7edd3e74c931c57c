"""The grid of an HTML table: its cells known by id, colspan and rowspan expanded, its header,
body and footer rows told apart; and which of a page's tables hold data."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, chain, compress, count, groupby, islice, repeat
from operator import attrgetter, methodcaller
from typing import TypeGuard

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.header_levels import (
    MAX_EXTRA_LEVELS,
    SAMPLED_ROWS,
    header_levels_below,
    is_data_row,
    publishes_a_number,
)
from perfledger.sources.layouts.html_sheet import (
    is_column_letters,
    leads_with_row_numbers,
    without_first_column,
)
from perfledger.sources.layouts.html_text import (
    SKIPPED,
    collapse_many,
    note_text,
    tag_name,
    text_of,
)

MIN_DATA_COLUMNS = 2  # a one-column table is page layout, not a results table
MAX_HEADER_ROWS = 8  # rows of <th> under a <thead> that join it, at most
MAX_COLSPAN = 1000  # the HTML table model's own limits, which also bound hostile input
MAX_ROWSPAN = 65534
MAX_COLUMNS = 1000
CUT_RAW_CHARS = 2000  # of the text of a row's cells past MAX_COLUMNS kept in its problem
_BOLD_TAGS = frozenset({"b", "strong"})


@dataclass
class GridCells:
    """The cells of one table, each known by its place in these lists, its id. The grid holds
    ids: a cell is no object of its own, and a row of plain cells is a range of ids. A spanned
    cell fills every position it covers with its one id, so its value is repeated in each
    covered cell, as a reader sees it."""

    texts: list[str] = field(default_factory=list)  # whitespace collapsed
    lines: list[int] = field(default_factory=list)
    # The element of each cell, while the grid is built: a proxy object per cell of the page
    # held any longer costs memory and the collector's time.
    elements: list[etree._Element] = field(default_factory=list)
    # The row, in its group, where each cell placed around spans starts. The cells of a range
    # row start in that row: such a row neither spans nor receives a span.
    origin_rows: dict[int, int] = field(default_factory=dict)
    # Rows with cells past MAX_COLUMNS, which the grid has no place for: (line, cells cut,
    # their text, up to CUT_RAW_CHARS), each reported as a problem rather than dropped.
    cut_rows: list[tuple[int, int, str]] = field(default_factory=list)
    # The table, while the grid is built, and the cells of it whose text `text_of` must walk
    # (see `_cells_to_walk`), found when a cell holding markup first needs them.
    table: etree._Element | None = None
    walked: set[etree._Element] | None = None

    def add_cut(self, line: int, cut: list[etree._Element]) -> None:
        texts: list[str] = []
        length = 0
        for cell in cut:
            if length > CUT_RAW_CHARS:
                texts.append("...")
                break
            texts.append(text_of(cell))  # whitespace collapsed already
            length += len(texts[-1]) + 3
        self.cut_rows.append((line, len(cut), " | ".join(texts)))

    def add_blank(self, line: int) -> int:
        self.texts.append("")
        self.lines.append(line)
        return len(self.texts) - 1

    def add_elements(
        self, elements: list[etree._Element], row_lines: Callable[[], Iterable[int]]
    ) -> int:
        """Add a cell per <td> or <th> of `elements`; returns the id of the first. Each field
        is read for all the elements at once, in C. `row_lines()` gives, element by element,
        the line of the row each starts in."""
        first = len(self.texts)
        texts = list(map(_TEXT_OF_NODE, elements))
        # A cell holding markup: its visible text (see `text_of`). Few cells do: they are
        # picked out in C. Most hold only inline markup (<a>, <em>, <span>), whose text
        # libxml2 gathers as `text_of` does, at less than half its cost.
        holding = list(compress(count(), map(len, elements)))
        if holding:
            walked = self._cells_to_walk()
            for index in holding:
                element = elements[index]
                texts[index] = text_of(element) if element in walked else _TEXT_CONTENT(element)
        if not all(texts):  # an empty cell, whose text lxml gives as None
            texts = [text or "" for text in texts]
        self.texts += collapse_many(texts)
        lines = list(map(_LINE_OF_NODE, elements))
        if not all(lines):  # libxml2 knew no line: the cell starts where its row does
            lines = [line or fallback for line, fallback in zip(lines, row_lines(), strict=True)]
        self.lines += lines
        self.elements += elements
        return first

    def _cells_to_walk(self) -> set[etree._Element]:
        """The table's cells whose text differs from all the text inside them: those holding
        markup `text_of` reads its own way (<br>, <sup>, scripts, a table), a comment or a
        processing instruction. Found in one walk of the table in C, which yields only those."""
        if self.walked is None:
            assert self.table is not None, "set by build_grid while the grid is built"
            self.walked = {
                cell
                for found in self.table.iter(*_READ_APART, etree.Comment, etree.PI)
                if found is not self.table
                and (cell := next(found.iterancestors("td", "th"), None)) is not None
            }
        return self.walked

    def is_header(self, cell: int) -> bool:
        return self.elements[cell].tag == "th"


# A row of the grid: cell ids by column, None where no cell is; a range for a plain row.
GridRow = list[int | None] | range
# A row with a cell in every column, as rows are placed into the table.
PlacedRow = list[int] | range


def is_placed_whole(ids: GridRow, width: int) -> TypeGuard[PlacedRow]:
    """Whether a row has a cell in each of `width` columns (a range, a plain row, has no hole)."""
    return len(ids) == width and (isinstance(ids, range) or None not in ids)


# The tags `text_of` reads otherwise than as text among text.
_READ_APART = (*SKIPPED, "table", "br", "sup")
# All the text inside an element, as libxml2 gathers it (comments and processing instructions
# left out, as `text_of` leaves them).
_TEXT_CONTENT = partial(etree.tostring, method="text", encoding=str, with_tail=False)
# C-level getters: a list comprehension costs a Python step per cell.
_CELL_ELEMENTS_OF = methodcaller("iterchildren", "td", "th")  # the tag filter runs in C
_TEXT_OF_NODE = attrgetter("text")
_TAG_OF = attrgetter("tag")
_LINE_OF_NODE = attrgetter("sourceline")
_PARENT_OF = methodcaller("getparent")


def _span(cell: etree._Element, name: str, default: int, limit: int) -> int:
    value = cell.get(name)
    if value is None:
        return default
    # Nine digits are past every limit; more would make int() refuse a 5,000-digit span.
    match = re.match(r"\s*0*(\d{1,9})", value)
    return min(int(match.group(1)), limit) if match else default


def line_of(node: etree._Element, fallback: int = 1) -> int:
    return node.sourceline or fallback


_CELL_TAGS = frozenset({"td", "th"})  # a set test: one read of `.tag`, which builds a string


def _cells_of(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if cell.tag in _CELL_TAGS]


# The span attributes inside a table, in one walk of it in C: reading the two attributes of
# every cell from Python costs four times as much.
_SPAN_ATTRIBUTES = etree.XPath("descendant::*/@colspan | descendant::*/@rowspan")
_HOLDS_TABLE = etree.XPath("boolean(descendant::table)")
# A cell that is a number as published: digits with separators, a sign, a decimal point.
_NUMBER_LIKE = re.compile(r"[-+\u2212]?\d[\d,.\s\u00a0\u202f]*")


def rows_with_spans(table: etree._Element) -> set[etree._Element]:
    """The rows of the table (and of the tables inside it) with a cell that has a colspan or
    rowspan attribute (an empty one spans nothing)."""
    return {
        cell.getparent()
        for value in _SPAN_ATTRIBUTES(table)
        if value and (cell := value.getparent()).tag in _CELL_TAGS
    }


def expand_rows(
    rows: Sequence[etree._Element], cells: GridCells, span_rows: AbstractSet[etree._Element]
) -> list[GridRow]:
    """The row group as a grid of the ids of its cells, added to `cells`, with colspan and
    rowspan expanded; None is a hole no cell fills. `span_rows` are the rows with a cell that
    spans (see `rows_with_spans`)."""
    counts = list(map(len, rows))
    elements = list(chain.from_iterable(map(_CELL_ELEMENTS_OF, rows)))
    if (
        len(elements) != sum(counts)  # a comment or another element among the cells
        or max(counts, default=0) > MAX_COLUMNS
        or not span_rows.isdisjoint(rows)
    ):
        return _expand_rows_one_by_one(rows, cells, span_rows)
    # The common case, every row plain: its cells in order, all the group's cells added at
    # once; each row is the range of its cells' ids.
    first = cells.add_elements(
        elements, lambda: chain.from_iterable(map(repeat, map(line_of, rows), counts))
    )
    bounds = list(accumulate(counts, initial=first))
    return list(map(range, bounds, islice(bounds, 1, None)))


def _expand_rows_one_by_one(
    rows: Sequence[etree._Element], cells: GridCells, span_rows: AbstractSet[etree._Element]
) -> list[GridRow]:
    """`expand_rows` a row at a time: a row that spans nothing and receives no span from
    above is plain, a cell per column; the cells of any other row are placed around the
    spans. The grid holds the ids the cells will have; they are added at the end, at once."""
    grid: list[GridRow] = [[] for _ in rows]
    placed: list[etree._Element] = []
    row_lines: list[int] = []
    first = len(cells.texts)
    # Each row's cells listed in C: most rows of a group with spans are plain.
    for index, (row, row_cells) in enumerate(
        zip(rows, map(list, map(_CELL_ELEMENTS_OF, rows)), strict=True)
    ):
        start = len(placed)
        if not grid[index] and row not in span_rows:
            placed += row_cells[:MAX_COLUMNS]
            grid[index] = range(first + start, first + len(placed))
            cut = row_cells[MAX_COLUMNS:]
        else:
            cut = _place_spanning_cells(grid, index, row_cells, placed, first, cells.origin_rows)
        if cut:
            cells.add_cut(line_of(row), cut)
        row_lines += [line_of(row)] * (len(placed) - start)
    cells.add_elements(placed, lambda: row_lines)
    return grid


def _place_spanning_cells(
    grid: list[GridRow],
    index: int,
    row_cells: list[etree._Element],
    placed: list[etree._Element],
    first: int,
    origin_rows: dict[int, int],
) -> list[etree._Element]:
    """Place one row's cells around the spans from above: each cell joins `placed`, and its
    id, first + its place there, fills the positions it covers. Returns the cells left
    without a place, past MAX_COLUMNS."""
    column = 0
    for order, cell in enumerate(row_cells):
        ids = grid[index]
        while column < len(ids) and ids[column] is not None:
            column += 1
        if column >= MAX_COLUMNS:
            return row_cells[order:]
        colspan = min(max(_span(cell, "colspan", 1, MAX_COLSPAN), 1), MAX_COLUMNS - column)
        rowspan = _span(cell, "rowspan", 1, MAX_ROWSPAN)
        # rowspan="0" reaches to the end of the row group.
        last = len(grid) if rowspan == 0 else min(len(grid), index + rowspan)
        cell_id = first + len(placed)
        placed.append(cell)
        origin_rows[cell_id] = index
        for covered in range(index, max(last, index + 1)):
            target = grid[covered]
            assert isinstance(target, list)  # only rows not yet reached receive spans
            if len(target) < column + colspan:
                target.extend([None] * (column + colspan - len(target)))
            for position in range(column, column + colspan):
                if target[position] is None:  # overlapping spans: the first cell keeps it
                    target[position] = cell_id
        column += colspan
    return []


def is_empty_row(ids: GridRow) -> bool:
    # range.count(None) would compare None with each id
    return not ids if isinstance(ids, range) else ids.count(None) == len(ids)


def section_cell(ids: GridRow, width: int) -> int | None:
    """The one cell of a row it spans at the table's full width, a label for the rows under
    it; None for any other row."""
    first = ids[0] if ids else None
    if first is None or len(ids) < width or (len(ids) > 1 and ids[1] != first):
        return None  # the cheap tests first: most rows are not one cell
    return first if ids.count(first) == len(ids) else None


@dataclass
class Grid:
    cells: GridCells
    header_rows: list[GridRow]
    body_rows: list[tuple[etree._Element, GridRow, int]]  # (tr, cell ids, row index in group)
    foot_notes: list[str]  # the text of each <tfoot> cell
    lead_section: str | None
    # Added to the lines of the rows' elements: the lines before a piece of HTML read apart
    # from the document it sits in (see `TablesAndText.shift_lines`).
    line_offset: int = 0

    @property
    def width(self) -> int:
        return max((len(ids) for ids in self.header_rows), default=0)


def _row_groups(rows: Iterable[etree._Element]) -> tuple[list, list[list], list]:
    """The table's rows (all its <tr>, in document order): thead rows, body groups in order
    (rowspans stop at a group's end), tfoot rows."""
    head: list[etree._Element] = []
    foot: list[etree._Element] = []
    body: dict[etree._Element, list[etree._Element]] = {}
    # The rows of a group follow each other: a step per run of rows with the same parent.
    for parent, run in groupby(rows, _PARENT_OF):
        group = tag_name(parent) if parent is not None else None
        if group == "thead":
            head += run
        elif group == "tfoot":
            foot += run
        else:
            body.setdefault(parent, []).extend(run)
    return head, list(body.values()), foot


def _take_sections(
    rows: list[tuple[etree._Element, GridRow, int]], width: int, cells: GridCells
) -> list[str]:
    """Remove and return the labels of the full-width single-cell rows leading `rows`."""
    labels = []
    while rows and (section := section_cell(rows[0][1], width)) is not None:
        del rows[0]
        labels.append(cells.texts[section])
    return labels


def _take_title_row(body: list[tuple[etree._Element, GridRow, int]], cells: GridCells) -> list[str]:
    """Remove and return the text of a first row that holds text in its first cell alone,
    over a row of <th> cells: the table's title, written in a row of its own (a full-width
    cell is taken by `_take_sections`)."""
    if len(body) < 2 or not _all_header_cells(body[1][1], cells):
        return []
    ids = body[0][1]
    first = ids[0] if ids else None
    texts = cells.texts
    if first is None or cells.is_header(first) or not texts[first].strip(" \u00a0"):
        return []
    if any(cell is not None and cell != first and texts[cell].strip(" \u00a0") for cell in ids):
        return []
    del body[0]
    return [texts[first]]


def _all_header_cells(ids: GridRow, cells: GridCells) -> bool:
    return None not in ids and all(cells.is_header(cell) for cell in ids if cell is not None)


def _spanned_from(ids: GridRow, header: list[tuple[etree._Element, GridRow, int]]) -> bool:
    """Whether a header cell's rowspan reaches into the row: the row is a header level too."""
    if isinstance(ids, range):
        return False  # a plain row receives no span
    header_cells = {cell for _row, above, _index in header for cell in above}
    return not header_cells.isdisjoint(ids)


def _wholly_bold(element: etree._Element) -> bool:
    """Whether every visible character of the element is inside <b> or <strong>. (Recursive:
    libxml2 nests elements 256 deep at most.)"""
    if (element.text or "").strip():
        return False
    for child in element:
        tag = tag_name(child)
        if tag is not None and tag not in _BOLD_TAGS and tag != "br" and not _wholly_bold(child):
            return False
        if (child.tail or "").strip():
            return False
    return True


def _is_bold_row(ids: GridRow, cells: GridCells) -> bool:
    """A row of cells written bold, as a header is where a page does without <th>."""
    shown = [cell for cell in ids if cell is not None and cells.texts[cell].strip(" \u00a0")]
    return bool(shown) and all(_wholly_bold(cells.elements[cell]) for cell in shown)


def _take_header(body: list[tuple[etree._Element, GridRow, int]], cells: GridCells) -> list:
    """Remove and return the header rows leading a table without <thead>: the rows made only
    of <th>, else the bold rows of a table without <th> followed by a row that is not bold;
    each with the rows a header cell's rowspan reaches. Else the first row alone, unless it
    reads as data (see header_levels.is_data_row): then a header of unnamed columns."""
    header = []
    while body and body[0][1] and _all_header_cells(body[0][1], cells):
        header.append(body.pop(0))
    # The first row tested first: the cells' tags are only read when it is bold.
    if not header and body and _is_bold_row(body[0][1], cells):
        bold = 1
        while bold < len(body) and _is_bold_row(body[bold][1], cells):
            bold += 1
        if bold < len(body) and "th" not in map(_TAG_OF, cells.elements):
            header = body[:bold]
            del body[:bold]
    while header and body and _spanned_from(body[0][1], header):
        header.append(body.pop(0))
    if not header and body:
        row, ids, _index = body[0]
        if is_data_row([cells.texts[cell] if cell is not None else "" for cell in ids]):
            # No header row: the columns are unnamed, and the first row stays data.
            header.append((row, [cells.add_blank(line_of(row)) for _ in ids], 0))
        else:
            header.append(body.pop(0))
    return header


def _title_cell(ids: GridRow, width: int) -> int | None:
    """The cell of a header row that covers the row labels' column and more than half the
    table ("Model Zoo Details & Performance" over sixteen of twenty columns): it names the
    table, not a group of its columns."""
    if isinstance(ids, range) or not ids or ids[0] is None:
        return None  # a plain row spans nothing
    first = ids[0]
    covered = ids.count(first)
    return first if covered > 1 and covered * 2 > width else None


def _texts_of(ids: GridRow, cells: GridCells, width: int) -> list[str]:
    """A row's texts by column, a title cell's left out."""
    title = _title_cell(ids, width)
    texts = cells.texts
    return ["" if cell is None or cell == title else texts[cell] for cell in ids]


def _take_levels_below(header: list, body: list, cells: GridCells, width: int) -> None:
    """Move the body rows that are more levels of the header to it: rows of <th> cells
    alone that publish no number (a <tbody> row under the <thead>), then the rows
    header_levels finds."""
    if not body or publishes_a_number(_texts_of(body[0][1], cells, width)):
        return  # most tables: no row to gather
    while (
        body
        and len(header) < MAX_HEADER_ROWS
        and _all_header_cells(body[0][1], cells)
        and not publishes_a_number(_texts_of(body[0][1], cells, width))
    ):
        header.append(body.pop(0))
    sample = body[: MAX_EXTRA_LEVELS + SAMPLED_ROWS]
    levels = header_levels_below([_texts_of(ids, cells, width) for _row, ids, _index in sample])
    header += body[:levels]
    del body[:levels]


def _take_titles(
    header: list[tuple[etree._Element, GridRow, int]], width: int, cells: GridCells
) -> list[str]:
    """The texts of the title cells of a header of several rows, which leave the columns'
    names: their places in the header become holes."""
    if len(header) < 2:
        return []
    titles = []
    for position, (row, ids, index) in enumerate(header):
        title = _title_cell(ids, width)
        if title is not None:
            titles.append(cells.texts[title])
            header[position] = (row, [None if cell == title else cell for cell in ids], index)
    return titles


def _all_blank(rows: list[tuple[etree._Element, GridRow, int]], cells: GridCells) -> bool:
    texts = cells.texts
    return all(
        cell is None or not texts[cell].strip(" \u00a0")
        for _row, ids, _index in rows
        for cell in ids
    )


def _drop_sheet_grid(header: list, body: list, cells: GridCells) -> None:
    """Leave out the column letters and row numbers a spreadsheet publishing a sheet as HTML
    draws around it (see html_sheet)."""
    letters = header or body
    if not letters or not is_column_letters(letters[0][1], cells):
        return
    below = (
        [ids for _row, ids, _index in header[1:] + body]
        if header
        else [ids for _row, ids, _index in body[1:]]
    )
    if not leads_with_row_numbers(below, cells):
        return  # letters over a table of its own ("| A | B |" configurations) are its names
    del letters[0]
    for rows in (header, body):
        rows[:] = [(row, without_first_column(ids), index) for row, ids, index in rows]


def build_grid(table: etree._Element, holds_tables: bool | None = None) -> Grid:
    """Header rows, body rows and footer rows of a data table, spans expanded; the rows of
    a table nested in one of its cells are that table's, not its own.

    The header is the <thead> unless it is empty; else the leading rows made only of <th>
    or, in a table without <th>, made only of bold text, and the rows their rowspans reach;
    else the first row. The body rows right under it that are more levels of it join it
    (see header_levels). Full-width single cells above the header, a title in a row of its
    own above a row of <th>, and a header cell that covers most of the table from its first
    column are a label for the whole table. The grid a spreadsheet draws around a sheet it
    publishes (see html_sheet) is left out first. `holds_tables`: whether a table stands
    inside this one, when the caller knows (see `sort_tables`)."""
    cells = GridCells(table=table)
    head, body_groups, foot = _row_groups(own_rows(table, holds_tables))
    spans = rows_with_spans(table)
    header = [
        (row, ids, index)
        for index, (row, ids) in enumerate(zip(head, expand_rows(head, cells, spans), strict=True))
    ]
    body = [
        (group[index], ids, index)
        for group in body_groups
        for index, ids in enumerate(expand_rows(group, cells, spans))
    ]
    _drop_sheet_grid(header, body, cells)
    widest = max((len(ids) for _row, ids, _index in header + body), default=0)
    lead = _take_sections(header, widest, cells)
    if not header or _all_blank(header, cells):  # an empty <thead>: the names are below it
        header = []
        lead += _take_sections(body, widest, cells)
        lead += _take_title_row(body, cells)
        header = _take_header(body, cells)
    _take_levels_below(header, body, cells, widest)
    lead += _take_titles(header, widest, cells)
    label = " ".join(text for text in lead if text.strip(" \u00a0")) or None
    cells.elements.clear()
    cells.table = cells.walked = None
    notes = [note_text(cell) for row in foot for cell in _cells_of(row)]
    return Grid(
        cells,
        [ids for _row, ids, _index in header],
        body,
        [note for note in notes if note.strip()],
        label,
    )


def first_row_line(grid: Grid) -> int:
    """The line where the table's first row (its header) starts."""
    lines = grid.cells.lines
    return min((lines[cell] for cell in grid.header_rows[0] if cell is not None), default=1)


def own_rows(table: etree._Element, holds_tables: bool | None = None) -> Iterable[etree._Element]:
    """The table's rows, without those of the tables nested in its cells. `holds_tables`:
    whether a table stands inside this one, when the caller knows."""
    if holds_tables is None:
        holds_tables = _HOLDS_TABLE(table)
    if not holds_tables:  # the usual table: every row inside is its own (C walks)
        return table.iter("tr")
    return [row for row in table.iter("tr") if next(row.iterancestors("table")) is table]


def reads_as_data(table: etree._Element) -> bool:
    """Whether a table that holds tables is a results table with a table in some cell rather
    than a table laying out the page: two rows of its own or more, one with two cells or
    more, and a cell of its own (nested tables left out) that reads as a number."""
    rows = list(own_rows(table, holds_tables=True))
    if len(rows) < 2 or max(len(_cells_of(row)) for row in rows) < MIN_DATA_COLUMNS:
        return False
    return any(_NUMBER_LIKE.fullmatch(text_of(cell)) for row in rows[1:] for cell in _cells_of(row))


def sort_tables(
    tables: list[etree._Element],
) -> tuple[list[etree._Element], set[etree._Element]]:
    """(the page's tables that may hold data, the tables among `tables` that hold a table).
    `tables` are all of the page's, in document order; a table may hold data when it is not
    marked as presentation, not inside a script, template or the like, and holds no table
    unless it `reads_as_data` (a table holding tables usually lays out the page)."""
    holders: set[etree._Element] = set()
    hidden: set[etree._Element] = set()
    for table in tables:
        # Walking up from every table finds the tables that hold one, without walking down
        # through every table's cells.
        for ancestor in table.iterancestors():
            if ancestor.tag == "table":
                holders.add(ancestor)
            if tag_name(ancestor) in SKIPPED:
                hidden.add(table)
    data = [
        table
        for table in tables
        if (table.get("role") or "").lower() not in ("presentation", "none")
        and (table not in holders or reads_as_data(table))
        and table not in hidden
    ]
    return data, holders
