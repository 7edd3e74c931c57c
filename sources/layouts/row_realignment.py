"""Rows one cell short: where the empty cell a row lost belongs, read from what the table's
complete rows show of each column (the HTML and Markdown layouts both realign so); a row
that cannot be placed with certainty is reported, not placed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from perfledger.sources.layouts.base import ParseProblem

MIN_PROFILE_ROWS = 2  # complete rows needed before a column's type pattern counts as evidence
# Realigning a short row tries every gap against every cell: the square of the width per row.
MAX_REALIGN_COLUMNS = 64
# Starts only where a run of markers starts, so a long run not at the end costs one scan.
_FOOTNOTE_TAIL = re.compile(
    r"(?<![\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#])"
    r"[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#]+$"
)
_INTEGER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_DECIMAL = re.compile(r"\d*\.\d+")
# "[.,]*\d" rather than "[\d.,]*\d": one way to match, so "1,1,1,...!" fails in linear time.
_NUMBERISH = re.compile(r"[~\u2248<>+\-]?\s*[.,]*\d[\d.,]*\s*(?:%|x|k|m|b|ms|s)?", re.I)


# A numbered reference after a value: "32.32 [1]".
_REFERENCE_TAIL = re.compile(r"\s*\[\d{1,2}\]$")


_NUMBER_STARTS = frozenset("0123456789~\u2248<>+-.,")  # what a number's text starts with
_MEMO_CHARS = 64  # a table's label cells repeat ("Bow Pod16"): short ones are read once


_KINDS_KEPT = 16_384
# The kinds of short texts read so far, looked up in C for a whole column (see
# profile_columns); emptied when full.
_KINDS: dict[str, str] = {}


def cell_kind(text: str) -> str:
    """blank, integer, decimal, number or text: the coarse shape a column's cells share."""
    kind = _KINDS.get(text)
    if kind is None:
        kind = _cell_kind(text)
        if len(text) <= _MEMO_CHARS:
            if len(_KINDS) >= _KINDS_KEPT:
                _KINDS.clear()
            _KINDS[text] = kind
    return kind


def _cell_kind(text: str) -> str:
    # A number as such, the usual cell, reads the same stripped of spaces and markers.
    if _INTEGER.fullmatch(text):
        return "integer"
    if _DECIMAL.fullmatch(text):
        return "decimal"
    value = text.strip(" \t\u00a0")
    if value.endswith("]"):
        value = _REFERENCE_TAIL.sub("", value)
    value = _FOOTNOTE_TAIL.sub("", value).strip()
    if not value:
        return "blank"
    if value[0] not in _NUMBER_STARTS:
        return "text"
    if _INTEGER.fullmatch(value):
        return "integer"
    if _DECIMAL.fullmatch(value):
        return "decimal"
    if _NUMBERISH.fullmatch(value):
        return "number"
    return "text"


@dataclass(frozen=True)
class ColumnProfile:
    """What the complete rows of a table show about each column."""

    kinds: tuple[frozenset[str], ...]  # non-blank kinds seen in the column
    can_be_blank: tuple[bool, ...]
    rows: int

    @property
    def width(self) -> int:
        return len(self.kinds)


def profile_columns(rows: Sequence[Sequence[str]], width: int) -> ColumnProfile:
    complete = [row for row in rows if len(row) == width]
    kinds: list[frozenset[str]] = []
    blank: list[bool] = []
    # Column by column, each distinct text once: a column's cells repeat (labels, units),
    # and the rows are turned into columns in C.
    for column in zip(*complete, strict=True) if complete else [()] * width:
        distinct = set(column)
        known = set(map(_KINDS.get, distinct))
        found = set(map(cell_kind, distinct)) if None in known else cast("set[str]", known)
        blank.append("blank" in found)
        found.discard("blank")
        kinds.append(frozenset(found))
    return ColumnProfile(tuple(kinds), tuple(blank), len(complete))


def _fits(text: str, column: int, profile: ColumnProfile) -> bool:
    kind = cell_kind(text)
    return profile.can_be_blank[column] if kind == "blank" else kind in profile.kinds[column]


def realign_position(cells: Sequence[str], profile: ColumnProfile) -> int | None:
    """Where the one empty cell a row lost belongs, or None when the evidence is not clear.

    A row one cell short is placed only when the table's complete rows (at least
    MIN_PROFILE_ROWS) leave a single reading: the gap must fall in a column that is empty
    elsewhere in the table, and every other cell must have a shape its column already shows.
    Gaps at different places of one run of empty cells read the same and count as one."""
    width = profile.width
    if profile.rows < MIN_PROFILE_ROWS or len(cells) != width - 1 or width > MAX_REALIGN_COLUMNS:
        return None
    readings: dict[tuple[str, ...], int] = {}
    for gap in range(width):
        if not profile.can_be_blank[gap]:
            continue
        candidate = [*cells[:gap], "", *cells[gap:]]
        if all(_fits(text, column, profile) for column, text in enumerate(candidate)):
            folded = tuple("" if cell_kind(text) == "blank" else text for text in candidate)
            readings.setdefault(folded, gap)
    return next(iter(readings.values())) if len(readings) == 1 else None


def reads_as_drawn(cells: Sequence[str], profile: ColumnProfile) -> bool:
    """Whether an HTML row with fewer cells than its header reads as a browser draws it: its
    cells in the first columns, its last columns empty. It does when it holds more than half
    of the columns and each of its cells but the empty ones has a shape its column shows in
    the table's complete rows (at least MIN_PROFILE_ROWS of them); a row cut short further is
    reported."""
    width = profile.width
    if profile.rows < MIN_PROFILE_ROWS or not width / 2 < len(cells) < width:
        return False
    # An empty cell places no value: only the others need a column that shows their shape.
    return all(
        kind == "blank" or kind in profile.kinds[column]
        for column, kind in enumerate(map(cell_kind, cells))
    )


def width_problem(
    table_index: int,
    title: str | None,
    row_number: int,
    texts: Sequence[str],
    width: int,
    line_number: int,
) -> ParseProblem:
    label = title or f"#{table_index}"
    return ParseProblem(
        check="row_width_mismatch",
        reason=(
            f"data row {row_number} of table '{label}' has {len(texts)} cells where the header "
            f"has {width}; which column each cell belongs to is not certain, so the row was "
            "not placed"
        ),
        line_number=line_number,
        table_index=table_index,
        raw=" | ".join(texts),
    )
