"""Text captures of web pages, where each table is flattened to one cell per line.

A flattened table is the header cells, one per line, then each row's cells, one per line,
up to the next blank line. An empty cell is a line holding only U+00A0, so lines are never
stripped before their role is known. A table is found by its header: cells the column
vocabulary or the normalizer's header reader recognise, the first of them perhaps heading the
rows' names ("Name"). Its width is what its body supports (flat_table_width): the header
words alone would read a table shifted when its header ends with a word no vocabulary knows.
A block of short lines that no known header starts is read at the one width its cells' shapes
support, if any. A block whose width cannot be told is reported, not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.vocabulary import classify_header
from perfledger.sources.layouts.base import (
    CellColumns,
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    outline_frame,
)
from perfledger.sources.layouts.flat_table_width import (
    NUMBER,
    TEXT,
    HeaderWords,
    Reading,
    Unclear,
    cell_shape,
    choose_width,
    reads_as_sentence,
    width_by_shapes,
)
from perfledger.sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    is_heading_like,
    split_lines,
)
from perfledger.sources.layouts.table_text import NOTE_HINT, NOTE_MAX_CHARS

MIN_HEADER_COLUMNS = 3
MAX_HEADER_COLUMNS = 64  # the most lines a header is read from: a capture's tables are narrower
MAX_HEADER_CELL_CHARS = 60
MAX_CELL_CHARS = 500  # a longer line is prose, not a cell
MAX_UNKNOWN_HEADER_RUN = 2  # unknown header cells tolerated between or after known ones
CAPTION_MAX_CHARS = 80  # a longer line before a table is a paragraph, not its caption
MAX_HEADER_READINGS = 512  # distinct labels per page the header reader is asked of
RAW_MAX_CHARS = 10_000  # of an unclear table's lines kept in its problem; the reason says where
# A block no header starts that still reads as a flattened table: this many short lines or
# more, none a sentence, and this many numbers among them.
MIN_UNREAD_LINES = 4
MIN_UNREAD_NUMBERS = 2
MAX_UNREAD_LINE_CHARS = 120
# What the header reader says of a header naming a role; "text" (Notes, Source) names none.
HEADER_KINDS = frozenset(
    {"metric", "statistic", "result", "config", "label", "reference", "unit", "metric_name"}
)

KNOWN, UNKNOWN, NOT_HEADER, ASK = "known", "unknown", "not a header", "ask the header reader"


@dataclass(frozen=True)
class _Table:
    header_start: int  # index into lines
    width: int  # 0 when the width is unclear and nothing was read
    row_count: int
    end: int  # index one past the last line used by the table
    unclear: Unclear | None = None


@dataclass(frozen=True)
class _Surroundings:
    title: str | None  # the nearest heading above the table
    caption: int | None  # index of the line right above that names the table
    note: tuple[int, str] | None  # the footnote right after it: index, text


def is_blank(line: str) -> bool:
    # A line of only U+00A0 is an empty cell inside a table, so only true emptiness separates.
    return line.strip(" \t") == ""


@lru_cache(maxsize=4096)
def _vocabulary_kind(line: str) -> str:
    """KNOWN to the column vocabulary, NOT_HEADER, or ASK the header reader (a short label
    the column vocabulary does not know). Pages of one site repeat their header cells table
    after table, page after page."""
    text = line.strip()
    if not 0 < len(text) <= MAX_HEADER_CELL_CHARS:
        return NOT_HEADER
    if classify_header(text) is not None:
        return KNOWN
    if cell_shape(text) != TEXT:
        return NOT_HEADER  # a number, with its unit or not, is a value
    return ASK


class _HeaderCells:
    """Tells the header cells of one page: KNOWN, UNKNOWN (a short label no vocabulary
    knows) or NOT_HEADER.

    The header reader costs a quarter of a millisecond on a text it has not read before. A
    results page asks it of a few dozen labels; a page made of thousands of short blocks of
    labels would ask it of each, so past MAX_HEADER_READINGS labels a page's header cells
    are known by the column vocabulary alone."""

    def __init__(self) -> None:
        self.read: dict[str, str | None] = {}  # label: the kind the header reader gives it

    def _reader_kind(self, line: str) -> str | None:
        """What the header reader says of a short label ("" past the page's budget)."""
        text = line.strip()
        found = self.read.get(text)
        if found is None and text not in self.read:
            if len(self.read) >= MAX_HEADER_READINGS:
                return ""
            found = self.read[text] = read_header(text).kind
        return found

    def kind(self, line: str) -> str:
        found = _vocabulary_kind(line)
        if found != ASK:
            return found
        return KNOWN if self._reader_kind(line) in HEADER_KINDS else UNKNOWN

    def names_the_rows(self, line: str) -> bool:
        """A first header cell that heads the rows' names or descriptions ("Name"): the
        header reader gives it no role of a value, but a table's first column is often so
        headed."""
        return _vocabulary_kind(line) == ASK and self._reader_kind(line) == "text"

    def header_at(self, lines: list[str], start: int) -> HeaderWords | None:
        """The header starting at `start`, or None when no table header starts there."""
        stop = min(len(lines), start + MAX_HEADER_COLUMNS)
        if stop - start < MIN_HEADER_COLUMNS or any(
            is_blank(line) for line in lines[start : start + MIN_HEADER_COLUMNS]
        ):
            return None  # too short a block for a header: no vocabulary is consulted
        if self.kind(lines[start]) != KNOWN and not self.names_the_rows(lines[start]):
            return None
        width = known = unknown_run = 0
        index = start
        while index < stop and not is_blank(lines[index]):
            kind = self.kind(lines[index])
            if kind == KNOWN:
                known += 1
                unknown_run = 0
                width = index - start + 1
            elif kind == UNKNOWN and unknown_run < MAX_UNKNOWN_HEADER_RUN:
                unknown_run += 1
            else:
                break
            index += 1
        return HeaderWords(width, index - start) if known >= MIN_HEADER_COLUMNS else None


def _block_end(lines: list[str], start: int) -> int:
    """One past the block's last line: the next blank line, or a line too long for a cell."""
    for index in range(start, len(lines)):
        line = lines[index]
        # is_blank, inlined: this runs once per line of every table
        if len(line) > MAX_CELL_CHARS or not line.strip(" \t"):
            return index
    return len(lines)


def _find_tables(lines: list[str]) -> list[_Table]:
    header_cells = _HeaderCells()
    tables: list[_Table] = []
    index = 0
    previous_blank = True
    while index < len(lines):
        blank = not lines[index].strip(" \t")  # is_blank, inlined: once per line of the page
        if previous_blank and not blank:
            header = header_cells.header_at(lines, index)
            table = (
                _read_table(lines, index, header)
                if header is not None
                else _table_by_shapes(lines, index)
            )
            if table is not None:
                tables.append(table)
                index = table.end
                previous_blank = False
                continue
        previous_blank = blank
        index += 1
    return tables


def _table_by_shapes(lines: list[str], start: int) -> _Table | None:
    """The table a block of short lines holds though no header word the vocabularies know
    starts it (a header of model names: "Benchmark | Phi-4-mini-instruct | ..."), when its
    cells' shapes tell one width (see `width_by_shapes`); None otherwise."""
    block = lines[start : _block_end(lines, start)]
    if len(block) < MIN_UNREAD_LINES or _numbers_of_flat_block(block) is None:
        return None
    reading = width_by_shapes(block, MAX_HEADER_COLUMNS)
    if reading is None:
        return None
    return _Table(start, reading.width, reading.rows, start + reading.lines)


def _read_table(lines: list[str], start: int, header: HeaderWords) -> _Table:
    end = _block_end(lines, start)
    reading = choose_width(lines[start:end], header)
    if isinstance(reading, Unclear):
        return _Table(start, 0, 0, end, reading)
    return _Table(start, reading.width, reading.rows, start + reading.lines)


# ---- around each table: its title, caption and footnote ------------------------------------


def _reads_as_heading(text: str) -> bool:
    return is_heading_like(text) and " | " not in text


def _reads_as_caption(text: str) -> bool:
    """Short, and not a sentence ended with a period ('FP16 Inference Latency'), as the
    HTML layout reads the block right above a table."""
    return 0 < len(text) <= CAPTION_MAX_CHARS and not text.endswith(".")


def _text_above(lines: list[str], before: int, floor: int) -> int | None:
    for index in range(before - 1, floor - 1, -1):
        if lines[index].strip():
            return index
    return None


def _heading_above(lines: list[str], before: int, floor: int) -> int | None:
    for index in range(before - 1, floor - 1, -1):
        text = lines[index].strip()
        if text and _reads_as_heading(text):
            return index
    return None


def _caption_line(lines: list[str], table: _Table, floor: int) -> int | None:
    """The line right above the table when it names the table: a short line that is no
    sentence. One reading as a heading ('FP16 Inference Latency') is the caption only under
    a heading of the table's own stretch of page; alone there, it is the section's heading."""
    above = _text_above(lines, table.header_start, floor)
    if above is None:
        return None
    text = lines[above].strip()
    if not _reads_as_caption(text):
        return None
    if not _reads_as_heading(text) or _heading_above(lines, above, floor) is not None:
        return above
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


def _surroundings(lines: list[str], tables: list[_Table]) -> list[_Surroundings]:
    """Each table's title, caption and note, looked for between the table and the one before
    it (its note included)."""
    found: list[_Surroundings] = []
    floor = 0
    for table in tables:
        caption = _caption_line(lines, table, floor)
        heading = _heading_above(lines, table.header_start if caption is None else caption, floor)
        note = _table_note(lines, table)
        found.append(
            _Surroundings(None if heading is None else lines[heading].strip(), caption, note)
        )
        floor = note[0] + 1 if note is not None else table.end
    return found


# ---- cells and problems --------------------------------------------------------------------


def _add_cells(
    cells: CellColumns, lines: list[str], table_index: int, table: _Table, around: _Surroundings
) -> None:
    note_text = around.note[1] if around.note else None
    start, width, rows = table.header_start, table.width, table.row_count
    headers = [line.strip() for line in lines[start : start + width]]
    end = start + width * (rows + 1)
    # The header row (row 0, its cells as published), then the body's rows, in line order.
    cells.add_rows(
        table_index,
        note_text,
        headers,
        [around.title] * (rows + 1),
        list(range(rows + 1)),
        lines[start:end],
        list(range(start + 1, end + 1)),
    )


def _incomplete_row(
    lines: list[str], table_index: int, table: _Table, title: str | None
) -> ParseProblem | None:
    leftover_start = table.header_start + table.width * (table.row_count + 1)
    if leftover_start >= table.end:
        return None
    leftover = lines[leftover_start : table.end]
    return ParseProblem(
        check="incomplete_row",
        reason=(
            f"table '{title or table_index}' has {table.width} columns but its last "
            f"{len(leftover)} line(s) do not fill a row; they were not placed"
        ),
        line_number=leftover_start + 1,
        table_index=table_index,
        raw="\n".join(leftover),
    )


def _unclear_width(
    lines: list[str], table_index: int, table: _Table, unclear: Unclear, title: str | None
) -> ParseProblem:
    first, last = table.header_start + 1, table.end
    tried = "; ".join(_describe(reading) for reading in unclear.readings)
    verdict = "reads as well under several widths" if unclear.fitting else "fits no width"
    raw = "\n".join(lines[table.header_start : table.end])
    return ParseProblem(
        check="table_width_unclear",
        reason=(
            f"table '{title or table_index}' (lines {first}-{last}) {verdict}: {tried}. "
            "Read under a wrong width, its rows would load under the wrong columns, so its "
            "lines were not placed"
        ),
        line_number=first,
        table_index=table_index,
        raw=raw[:RAW_MAX_CHARS],
    )


def _describe(reading: Reading) -> str:
    over = ""
    if reading.leftover and not reading.clean_cut:
        over = f", {reading.leftover} line(s) over"
    if reading.shifted:
        over += ", shaped as if a cell were lost on the way"
    return (
        f"{reading.width} columns ({reading.rows} row(s){over}, {reading.consistency:.0%} "
        "of cells shaped as their column)"
    )


def _unread_blocks(prose: list[tuple[int, str]], lines: list[str]) -> list[ParseProblem]:
    """Blocks of the page's prose (lines outside the tables read) that still read as a
    flattened table: short lines, no sentence among them, numbers among them. No header the
    vocabularies know starts them, so their numbers are not read; each is reported rather
    than left as prose unsaid."""
    problems = []
    start = previous = None
    for line, _text in prose:
        if previous is not None and line == previous + 1:
            previous = line
            continue
        if start is not None and previous is not None and previous - start + 1 >= MIN_UNREAD_LINES:
            problems.append(_unread_block(lines, start - 1, previous))
        start = previous = line
    if start is not None and previous is not None and previous - start + 1 >= MIN_UNREAD_LINES:
        problems.append(_unread_block(lines, start - 1, previous))
    return [problem for problem in problems if problem is not None]


def _numbers_of_flat_block(block: list[str]) -> int | None:
    """The numbers of a block that reads as a flattened table (short lines, no sentence among
    them, MIN_UNREAD_NUMBERS numbers at least); None for a block that does not."""
    if any(len(line) > MAX_UNREAD_LINE_CHARS or reads_as_sentence(line) for line in block):
        return None
    numbers = sum(1 for line in block if cell_shape(line) == NUMBER)
    return numbers if numbers >= MIN_UNREAD_NUMBERS else None


def _unread_block(lines: list[str], start: int, end: int) -> ParseProblem | None:
    block = lines[start:end]
    numbers = _numbers_of_flat_block(block)
    if numbers is None:
        return None
    return ParseProblem(
        check="table_not_read",
        reason=(
            f"lines {start + 1}-{end} read as a flattened table ({len(block)} short lines, "
            f"{numbers} of them numbers), but no header the column vocabularies know "
            "starts them; their numbers were not read"
        ),
        line_number=start + 1,
        raw="\n".join(block)[:RAW_MAX_CHARS],
    )


def parse_text_capture(text: str) -> ParsedDocument:
    """Parse a flattened text capture into cells, prose paragraphs and page metadata."""
    text = text.removeprefix("\ufeff")
    lines = split_lines(text)
    tables = _find_tables(lines)
    surroundings = _surroundings(lines, tables)
    cells = CellColumns()
    problems: list[ParseProblem] = []
    used: set[int] = set()
    for table_index, (table, around) in enumerate(zip(tables, surroundings, strict=True)):
        if table.unclear is not None:
            problems.append(_unclear_width(lines, table_index, table, table.unclear, around.title))
        else:
            _add_cells(cells, lines, table_index, table, around)
            problem = _incomplete_row(lines, table_index, table, around.title)
            if problem is not None:
                problems.append(problem)
        used.update(range(table.header_start, table.end))
        if around.note is not None:
            used.add(around.note[0])
    prose = [
        (index + 1, line.strip())
        for index, line in enumerate(lines)
        if index not in used and line.strip()
    ]
    problems += _unread_blocks(prose, lines)
    metadata = DocumentMetadata(
        title=find_title(lines),
        author=find_author(lines),
        **find_dates(lines),
    )
    captions = {
        around.caption + 1: table_index
        for table_index, around in enumerate(surroundings)
        if around.caption is not None
    }
    return ParsedDocument(
        cells=cells.frame(),
        metadata=metadata,
        prose=prose,
        problems=problems,
        outline=_outline(prose, tables, captions, metadata.title),
    )


def _outline(
    prose: list[tuple[int, str]], tables: list[_Table], captions: dict[int, int], title: str | None
):
    """The page's outline: each prose line a heading (the page's title at level 1), a table's
    caption (`captions`: line number to table) or a paragraph, and each table at its
    header's first line."""
    title_line = next((line for line, text in prose if text == title), None)
    rows: list[tuple] = []
    pending = iter(enumerate(tables))
    upcoming = next(pending, None)
    for line, text in prose:
        while upcoming is not None and upcoming[1].header_start + 1 < line:
            rows.append((upcoming[1].header_start + 1, "table", None, None, upcoming[0]))
            upcoming = next(pending, None)
        if line in captions:
            rows.append((line, "caption", None, text, captions[line]))
        elif _reads_as_heading(text):
            rows.append((line, "heading", 1 if line == title_line else 2, text, None))
        else:
            rows.append((line, "paragraph", None, text, None))
    while upcoming is not None:
        rows.append((upcoming[1].header_start + 1, "table", None, None, upcoming[0]))
        upcoming = next(pending, None)
    return outline_frame(rows)


def sniff_text_capture(data: bytes, content_type: str | None) -> float:
    head = data[:4096].lower()
    if b"<html" in head or b"<!doctype html" in head:
        return 0.1
    # Lowering the whole page costs a tenth of a millisecond per 100 KB: only when the head
    # did not tell already.
    if content_type and "html" in content_type and b"<table" in data.lower():
        return 0.1
    return 0.5


# The media types fetch asks for and keeps for this layout, with their weight in its Accept
# header, and the file suffixes collect reads as this layout's pages.
MEDIA_TYPES = {"text/plain": 0.8}
SUFFIXES = {".txt": "text/plain"}
LAYOUT = Layout(
    name="text_capture",
    sniff=sniff_text_capture,
    parse=parse_text_capture,
    media_types=MEDIA_TYPES,
    suffixes=SUFFIXES,
)
