"""The rows of a Markdown pipe table: `| a | b |`, and the `|---|:---:|` row under its header."""

from __future__ import annotations

import re

from perfledger.sources.layouts.row_realignment import (
    ColumnProfile,
    reads_as_drawn,
    realign_position,
)

_DELIMITER_CELL = re.compile(r"[ \t]*:?-+:?[ \t]*")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def has_pipe(line: str) -> bool:
    return _UNESCAPED_PIPE.search(line) is not None


def split_row(line: str) -> list[str]:
    """The raw cells of a pipe row: optional outer pipes dropped, `\\|` kept inside a cell."""
    body = line.strip(" \t")
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip(" \t") for cell in _UNESCAPED_PIPE.split(body)]


def is_delimiter_row(line: str) -> bool:
    return has_pipe(line) and all(_DELIMITER_CELL.fullmatch(cell) for cell in split_row(line))


# The rule under a header drawn with "+" where columns meet ("--------+-----------+"), as
# psql and tabulate's "presto" format print a table: no box around it, " | " between cells.
_JUNCTION_RULE = re.compile(r"[ \t]*:?-+:?(?:\+:?-+:?)+[ \t]*")


def is_junction_rule(line: str, above: str) -> bool:
    """Whether `line` is a rule drawn with "+" junctions under `above`, a pipe row of as many
    cells (see `with_junction_rules`)."""
    return (
        "+" in line
        and _JUNCTION_RULE.fullmatch(line) is not None
        and has_pipe(above)
        and len(split_row(above)) == line.count("+") + 1
    )


def with_junction_rules(lines: list[str], hidden: set[int]) -> list[str]:
    """The lines with each rule drawn with "+" junctions right under a pipe row of as many
    cells written as the delimiter row it stands for ("---|---"), so the table it closes the
    header of reads as a pipe table; each line stays where it is. Lines of `hidden` (code,
    comments) are left as they are."""
    rewritten = None
    for index in range(1, len(lines)):
        line = lines[index]
        if (
            index not in hidden
            and index - 1 not in hidden
            and is_junction_rule(line, lines[index - 1])
        ):
            rewritten = rewritten or list(lines)
            rewritten[index] = line.replace("+", "|")
    return rewritten or lines


def is_rule_row(raw: list[str], width: int) -> bool:
    """A row of dashes alone the page draws between groups of rows, holding no value: a
    short one ("|-", "| - |") under a table of more columns, or one whose every cell is a
    long run of them ("| \\---------- | \\-------- |", escaped so as not to read as the
    delimiter row), where a missing value would be one dash beside a row's label."""
    if width < 2 or not raw:
        return False
    if all(_LONG_RULE.fullmatch(cell.strip()) for cell in raw):
        return True
    return (
        len(raw) < width
        and all(not cell.strip() or set(cell.strip()) == {"-"} for cell in raw)
        and any(cell.strip() for cell in raw)
    )


_LONG_RULE = re.compile(r"\\?-{3,}")


def width_under_empty_header(header: list[str], rows: list[list[str]]) -> int:
    """The table's width: the header's, but an empty header row wider than every row under
    it ("|  |  |  |  |" over rows of three cells, all alike) names no column, and the table
    is as wide as its rows (GitHub pads a short row at its end)."""
    if not rows or any(cell.strip() for cell in header):
        return len(header)
    widths = {len(cells) for cells in rows if any(cell.strip() for cell in cells)}
    return min(widths.pop(), len(header)) if len(widths) == 1 else len(header)


def fit_cells(cells: list[str], width: int, profile: ColumnProfile | None) -> list[str] | None:
    """The row's cells under the header, or None when they cannot be placed with certainty.
    A row longer than the header is cut to it, as GitHub shows it (see pipe_table._cells_cut)."""
    if len(cells) >= width:
        return cells[:width]
    # As GitHub draws it, first: a row whose last cells the page left out (as an HTML row is).
    if profile is not None and reads_as_drawn(cells, profile):
        return [*cells, *[""] * (width - len(cells))]
    gap = realign_position(cells, profile) if profile is not None else None
    if gap is None:
        return None
    return [*cells[:gap], "", *cells[gap:]]
