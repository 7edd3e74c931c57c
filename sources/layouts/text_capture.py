"""Text captures of web pages, where each table is flattened to one cell per line.

A flattened table is the header cells, one per line, then each row's cells, one per line,
up to the next blank line. An empty cell is a line holding only U+00A0, so lines are never
stripped before their role is known. Headers are recognised through the column vocabulary;
the table's width is the header's length, confirmed by the number of lines that follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from schemas.vocabulary import classify_header
from sources.layouts.base import (
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    cells_frame,
)
from sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    is_heading_like,
)

MIN_HEADER_COLUMNS = 3
MAX_CELL_CHARS = 500  # a longer line is prose, not a cell
MAX_UNKNOWN_HEADER_RUN = 2  # unknown header cells tolerated between known ones
NOTE_MAX_CHARS = 400
NOTE_HINT = re.compile(r"measured in|\bunits?\b|^\s*(?:\*|†|‡|note\b|notes\b|source\b)", re.I)

LINE_BREAKS = re.compile(r"\r\n|\r|\n|\u2028|\u2029|\x0b|\x0c|\x85")


@dataclass(frozen=True)
class _Table:
    header_start: int  # index into lines
    width: int
    row_count: int
    end: int  # index one past the last line used by the table


def split_lines(text: str) -> list[str]:
    """Split on every line break a capture may hold, keeping each line's characters as they are."""
    return LINE_BREAKS.split(text)


def is_blank(line: str) -> bool:
    # A line of only U+00A0 is an empty cell inside a table, so only true emptiness separates.
    return line.strip(" \t") == ""


@lru_cache(maxsize=4096)
def _is_header_cell(line: str) -> bool:
    # Pages of one site repeat their header cells table after table, page after page.
    return 0 < len(line.strip()) <= 60 and classify_header(line) is not None


def _could_be_header_cell(line: str) -> bool:
    text = line.strip()
    return 0 < len(text) <= 60 and not re.fullmatch(r"[\d.,\s%+-]*", text)


def _measure_header(lines: list[str], start: int) -> int:
    """Width of a header starting at `start`, or 0 when no table header starts there."""
    if not _is_header_cell(lines[start]):
        return 0
    width = 0
    known = 0
    unknown_run = 0
    index = start
    while index < len(lines) and not is_blank(lines[index]):
        line = lines[index]
        if _is_header_cell(line):
            known += 1
            unknown_run = 0
            width = index - start + 1
        elif _could_be_header_cell(line) and unknown_run < MAX_UNKNOWN_HEADER_RUN:
            unknown_run += 1
        else:
            break
        index += 1
    return width if known >= MIN_HEADER_COLUMNS else 0


def _block_end(lines: list[str], start: int) -> int:
    index = start
    while index < len(lines) and not is_blank(lines[index]):
        if len(lines[index]) > MAX_CELL_CHARS:
            break
        index += 1
    return index


def _find_tables(lines: list[str]) -> list[_Table]:
    tables: list[_Table] = []
    index = 0
    previous_blank = True
    while index < len(lines):
        line = lines[index]
        if previous_blank and not is_blank(line):
            width = _measure_header(lines, index)
            if width:
                body_start = index + width
                end = _block_end(lines, body_start)
                rows = (end - body_start) // width
                tables.append(_Table(index, width, rows, end))
                index = end
                previous_blank = False
                continue
        previous_blank = is_blank(line)
        index += 1
    return tables


def _table_title(lines: list[str], table: _Table, floor: int) -> str | None:
    for index in range(table.header_start - 1, floor - 1, -1):
        text = lines[index].strip()
        if text and is_heading_like(text) and " | " not in text:
            return text
    return None


def _table_note(lines: list[str], table: _Table) -> tuple[int, str] | None:
    index = table.end
    blanks = 0
    while index < len(lines) and is_blank(lines[index]) and blanks <= 1:
        index += 1
        blanks += 1
    if index >= len(lines) or blanks > 1:
        return None
    text = lines[index].strip()
    if text and len(text) <= NOTE_MAX_CHARS and (NOTE_HINT.search(text) or " | " in text):
        return index, text
    return None


def parse_text_capture(text: str) -> ParsedDocument:
    """Parse a flattened text capture into cells, prose paragraphs and page metadata."""
    text = text.removeprefix("\ufeff")
    lines = split_lines(text)
    tables = _find_tables(lines)
    rows: list[tuple] = []
    problems: list[ParseProblem] = []
    used: set[int] = set()
    floor = 0
    for table_index, table in enumerate(tables):
        title = _table_title(lines, table, floor)
        note = _table_note(lines, table)
        note_text = note[1] if note else None
        headers = [lines[table.header_start + i].strip() for i in range(table.width)]
        for column, name in enumerate(headers):
            rows.append((table_index, title, note_text, 0, column, name, lines[table.header_start + column],
                         table.header_start + column + 1))
        body_start = table.header_start + table.width
        for row in range(table.row_count):
            first = body_start + row * table.width
            for column in range(table.width):
                rows.append((table_index, title, note_text, row + 1, column, headers[column],
                             lines[first + column], first + column + 1))
        leftover_start = body_start + table.row_count * table.width
        if leftover_start < table.end:
            leftover = lines[leftover_start : table.end]
            problems.append(
                ParseProblem(
                    check="incomplete_row",
                    reason=(
                        f"table '{title or table_index}' has {table.width} columns but its last "
                        f"{len(leftover)} line(s) do not fill a row; they were not placed"
                    ),
                    line_number=leftover_start + 1,
                    table_index=table_index,
                    raw="\n".join(leftover),
                )
            )
        used.update(range(table.header_start, table.end))
        if note is not None:
            used.add(note[0])
        floor = table.end
    prose = [
        (index + 1, line.strip())
        for index, line in enumerate(lines)
        if index not in used and line.strip()
    ]
    metadata = DocumentMetadata(
        title=find_title(lines),
        author=find_author(lines),
        **find_dates(lines),
    )
    return ParsedDocument(cells=cells_frame(rows), metadata=metadata, prose=prose, problems=problems)


def sniff_text_capture(data: bytes, content_type: str | None) -> float:
    head = data[:4096].lower()
    if b"<html" in head or b"<!doctype html" in head:
        return 0.1
    # Lowering the whole page costs a tenth of a millisecond per 100 KB: only when the head
    # did not tell already.
    if content_type and "html" in content_type and b"<table" in data.lower():
        return 0.1
    return 0.5


LAYOUT = Layout(name="text_capture", sniff=sniff_text_capture, parse=parse_text_capture)
