"""A reStructuredText page's blocks (rst_blocks) assembled into its cells, prose and
outline: each table numbered in reading order, titled by the heading above it, its
footnotes after it its note; a page of reStructuredText read whole (`read_rst`), which the
RST layout and the MyST directives of a Markdown page both use."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from perfledger.sources.layouts.base import (
    CellColumns,
    DocumentMetadata,
    ParsedDocument,
    ParseProblem,
    outline_frame,
)
from perfledger.sources.layouts.page_text import find_author, find_dates
from perfledger.sources.layouts.rst_blocks import (
    PROBLEM_RAW_CHARS,
    Heading,
    PageReader,
    Paragraph,
    Table,
)
from perfledger.sources.layouts.rst_grid import MAX_COLUMNS
from perfledger.sources.layouts.rst_text import Cell, page_lines
from perfledger.sources.layouts.table_links import links_block
from perfledger.sources.layouts.table_text import looks_like_note

CAPTION_MAX_CHARS = 80
HEADER_LEVEL_SEPARATOR = " / "
NOTE_SEPARATOR = " | "  # how the other layouts join a table's footnote lines
MAX_PAGE_CELLS = 1_000_000  # padding short rows could otherwise multiply a hostile page


def _column_names(header: list[list[Cell]], width: int) -> list[Cell]:
    """Each column's name: its header rows' texts joined with ' / ', a cell spanning rows
    named once; its line is where the first of those texts starts."""
    names = []
    fallback = header[0][0][1]
    for column in range(width):
        stack = [row[column] for row in header if column < len(row)]
        texts: list[str] = []
        line = None
        previous = None
        for cell in stack:
            if cell != previous and cell[0]:
                texts.append(cell[0])
                line = cell[1] if line is None else line
            previous = cell
        names.append(
            (
                HEADER_LEVEL_SEPARATOR.join(texts),
                line if line is not None else (stack[0][1] if stack else fallback),
            )
        )
    return names


@dataclass
class _Assembly:
    """The page's blocks turned into cells, outline rows, prose and problems."""

    cells: CellColumns = field(default_factory=CellColumns)
    cell_count: int = 0
    outline: list[tuple] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    problems: list[ParseProblem] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the page's, for the links of its tables

    def add_table(self, table: Table, note: str | None, index: int) -> None:
        self.problems += [replace(problem, table_index=index) for problem in table.problems]
        if not table.header:
            return  # none of its rows could be read: its problems say why
        title = self.headings[-1].text if self.headings else None
        if table.caption is not None:
            self.outline.append((table.caption[0] + 1, "caption", None, table.caption[1], index))
        elif not table.printed and self.outline and _reads_as_caption(self.outline[-1]):
            line, _kind, _level, text, _ = self.outline[-1]
            self.outline[-1] = (line, "caption", None, text, index)
        self.outline.append((table.line + 1, "table", None, None, index))
        last = max((line for row in table.body for _, line in row), default=table.line)
        self.outline += links_block(self.lines[table.line : last + 1], table.line + 1, index)
        self._table_cells(table, index, title, note)

    def _table_cells(self, table: Table, index: int, title: str | None, note: str | None) -> None:
        width = max(len(row) for row in table.header)
        if width > MAX_COLUMNS:
            self._cut_problem(
                index, title, 0, table.header[0][MAX_COLUMNS:], MAX_COLUMNS, "table_too_wide"
            )
            width = MAX_COLUMNS
        names = _column_names(table.header, width)
        # The data rows the page still has room for, after this table's header.
        room = max((MAX_PAGE_CELLS - self.cell_count) // width - 1, 0)
        if len(table.body) > room:
            self._too_many_cells(index, title, room + 1, len(table.body))
        body = [
            self._fitted(row, width, index, title, number, table.line)
            for number, row in enumerate(table.body[:room], start=1)
        ]
        column_names = [name for name, _ in names]
        values = column_names + [text for row in body for text, _ in row]
        lines = [line + 1 for _, line in names] + [line + 1 for row in body for _, line in row]
        self.cell_count += len(values)
        self.cells.add_rows(
            index,
            note,
            column_names,
            [title] * (len(body) + 1),
            list(range(len(body) + 1)),
            values,
            lines,
        )

    def _fitted(
        self,
        row: list[Cell],
        width: int,
        index: int,
        title: str | None,
        number: int,
        table_line: int,
    ) -> list[Cell]:
        """The row as wide as the header: a short one padded with empty cells, a long one
        cut to it and its cut cells reported."""
        if len(row) == width:
            return row
        if len(row) > width:
            self._cut_problem(index, title, number, row[width:], width, "cells_beyond_header")
            return row[:width]
        filler = ("", row[-1][1] if row else table_line)
        return row + [filler] * (width - len(row))

    def _cut_problem(
        self, index: int, title: str | None, number: int, cut: list[Cell], width: int, check: str
    ) -> None:
        label = title or f"#{index}"
        where = "the header row" if number == 0 else f"data row {number}"
        self.problems.append(
            ParseProblem(
                check=check,
                reason=(
                    f"{where} of table '{label}' has {len(cut)} cell(s) past its {width} "
                    f"columns; the first {width} cells were placed, these were not"
                ),
                line_number=cut[0][1] + 1,
                table_index=index,
                raw=" | ".join(text for text, _ in cut)[:PROBLEM_RAW_CHARS],
            )
        )

    def _too_many_cells(self, index: int, title: str | None, number: int, rows: int) -> None:
        self.problems.append(
            ParseProblem(
                check="table_too_large",
                reason=(
                    f"table '{title or index}' would take the page past {MAX_PAGE_CELLS} cells; "
                    f"its data rows {number} to {rows} were not placed"
                ),
                table_index=index,
            )
        )

    def add_heading(self, heading: Heading) -> None:
        self.headings.append(heading)
        self.outline.append((heading.line + 1, "heading", heading.level, heading.text, None))

    def add_paragraph(self, paragraph: Paragraph) -> None:
        self.outline.append((paragraph.line + 1, "paragraph", None, paragraph.text, None))
        self.prose.append((paragraph.line + 1, paragraph.text))


def _reads_as_caption(row: tuple) -> bool:
    _line, kind, _level, text, _table = row
    return kind == "paragraph" and len(text) <= CAPTION_MAX_CHARS and not text.endswith(".")


def _notes_after(blocks: list, position: int) -> list[int]:
    """Positions of the footnote paragraphs right after the table at `position`."""
    found = []
    after = position + 1
    while (
        after < len(blocks)
        and isinstance(blocks[after], Paragraph)
        and looks_like_note(blocks[after].text)
    ):
        found.append(after)
        after += 1
    return found


def _assemble(blocks: list, problems: list[ParseProblem], lines: list[str]) -> ParsedDocument:
    page = _Assembly(problems=problems, lines=lines)
    notes: set[int] = set()
    written = sum(1 for block in blocks if isinstance(block, Table) and not block.printed)
    numbers = [0, written]  # the next number of a written table, of a printed one
    for position, block in enumerate(blocks):
        if position in notes:
            continue
        if isinstance(block, Heading):
            page.add_heading(block)
        elif isinstance(block, Paragraph):
            page.add_paragraph(block)
        else:
            note = None
            if not block.printed:
                found = _notes_after(blocks, position)
                notes.update(found)
                note = NOTE_SEPARATOR.join(blocks[i].text for i in found) or None
            page.add_table(block, note, numbers[block.printed])
            numbers[block.printed] += 1
    title = next((h.text for h in page.headings if h.level == 1), None)
    texts = [text for _, text in page.prose]
    dates = find_dates(texts)
    return ParsedDocument(
        cells=page.cells.frame(),
        metadata=DocumentMetadata(title=title, author=find_author(texts), **dates),
        prose=page.prose,
        problems=page.problems,
        outline=outline_frame(page.outline),
    )


def read_rst(text: str) -> ParsedDocument:
    """Parse a reStructuredText page into table cells, prose, outline and page metadata."""
    lines = page_lines(text)
    reader = PageReader(lines)
    reader.read()
    return _assemble(reader.blocks, reader.problems, lines)
