"""The grid a spreadsheet draws around a sheet it publishes as HTML, which is not the sheet's.

Google Sheets' "publish to the web" writes its column letters (A, B, C, ... as many as are
shown, hidden ones skipped) as the table's <thead>, and each row's number as a <th> leading
the row: read as they stand, the letters name the columns and the sheet's own names become a
row of data. A first row of column letters in increasing order over a first column of <th> holding
increasing row numbers is that chrome (letters alone may name a table's own columns). Both
are left out, and the sheet's rows are read as any table's (its names rows, spans included,
as the header).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from perfledger.sources.layouts.html_grid import GridRow


class SheetCells(Protocol):
    """What these tests read of a table's cells (html_grid.GridCells): their texts, by id,
    and whether a cell is a <th>."""

    texts: list[str]

    def is_header(self, cell: int) -> bool: ...


_LETTERS = re.compile(r"[A-Z]{1,3}")
_ROW_NUMBER = re.compile(r"\d{1,7}")
MIN_LETTERS = 2  # a single "A" over a table is a name, not a sheet's grid


def _column_number(letters: str) -> int:
    """The column a spreadsheet names by letters: A is 1, Z 26, AA 27."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def is_column_letters(ids: GridRow, cells: SheetCells) -> bool:
    """A row of spreadsheet column letters in increasing order, after a blank corner."""
    if len(ids) <= MIN_LETTERS or (ids[0] is not None and cells.texts[ids[0]].strip(" \u00a0")):
        return False  # the cheap test first: most tables' first row names its first column
    texts = [cells.texts[cell].strip(" \u00a0") if cell is not None else "" for cell in ids]
    letters = [text for text in texts[1:] if text]
    if len(letters) < MIN_LETTERS or len(letters) != len(texts) - 1:
        return False
    if not all(_LETTERS.fullmatch(text) for text in letters):
        return False
    numbers = list(map(_column_number, letters))
    return all(a < b for a, b in zip(numbers, numbers[1:], strict=False))


def leads_with_row_numbers(rows: list[GridRow], cells: SheetCells) -> bool:
    """Whether every row's first cell is a <th> holding a row number, increasing down the
    table (rows a sheet hides are skipped) or blank."""
    numbers = []
    for ids in rows:
        if not ids or ids[0] is None or not cells.is_header(ids[0]):
            return False
        text = cells.texts[ids[0]].strip(" \u00a0")
        if text:
            if not _ROW_NUMBER.fullmatch(text):
                return False
            numbers.append(int(text))
    return bool(numbers) and all(a < b for a, b in zip(numbers, numbers[1:], strict=False))


def without_first_column(ids: GridRow) -> GridRow:
    return range(ids.start + 1, ids.stop) if isinstance(ids, range) else ids[1:]
