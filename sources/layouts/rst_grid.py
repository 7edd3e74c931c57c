"""reStructuredText grid tables (`+---+` borders) and simple tables (`=====  =====` borders)
cut into cells, spanning cells placed as docutils places them."""

from __future__ import annotations

import re

from perfledger.sources.layouts.rst_text import WIDE_PAD, Cell, cell_of, is_blank

MAX_COLUMNS = 1000  # as the HTML layout: wider header cells are reported, not placed
MAX_GRID_WORK = 2_000_000  # a grid table's lines x column borders, each looked at once

_SPAN_RULE = re.compile(r"-+(?:[ ]+-+)*")
_RUN_OF_DASHES = re.compile(r"-+")
_RULE_SEGMENT = re.compile(r"\+[-=]+\+")
_RULE_CORNER = re.compile(r"\+(?=[-=])|(?<=[-=])\+")
_HEADER_RULE = re.compile(r"\+(?:=+\+)+")


def grid_rows(block: list[str], first: int) -> tuple[list, list] | str:
    """(header rows, body rows) of a grid table, or why it cannot be read.

    The table is cut into atomic cells by every row rule and column corner; neighbours with
    no border between them belong to one cell (a union-find), which is placed in its first
    row and column."""
    width = len(block[0])
    if any(len(line) != width or line[-1] not in "+|" for line in block):
        return "its lines are not all as wide as its top border"
    rules = [r for r, line in enumerate(block) if _RULE_SEGMENT.search(line)]
    if len(rules) < 2 or rules[-1] != len(block) - 1:
        return "no border line closes it"
    if sum(block[r].count("+") for r in rules) + len(block) > MAX_GRID_WORK:
        return "too large to read"
    corners = sorted({m.start() for r in rules for m in _RULE_CORNER.finditer(block[r])})
    if corners[0] != 0 or corners[-1] != width - 1:
        return "its column borders do not line up"
    if len(corners) - 1 > MAX_COLUMNS:
        return f"more than {MAX_COLUMNS} columns"
    if len(block) * len(corners) > MAX_GRID_WORK:
        return "too large to read"
    owner = _grid_owners(block, rules, corners)
    cells = _grid_cell_texts(block, rules, corners, owner, first)
    if isinstance(cells, str):
        return cells
    separator = next((r for r in rules[1:-1] if _HEADER_RULE.fullmatch(block[r])), None)
    header_count = rules.index(separator) if separator is not None else 1
    rows = []
    for band in range(len(rules) - 1):
        row = []
        for column in range(len(corners) - 1):
            root = owner[band][column]
            cell = cells[root]
            placed = root == (band, column) or band < header_count
            row.append(cell if placed else ("", first + rules[band] + 1))
        rows.append(row)
    return rows[:header_count], rows[header_count:]


def _grid_owners(block: list[str], rules: list[int], corners: list[int]) -> list[list]:
    """For each (band, column) of atomic cells, the (band, column) of the cell holding it."""
    bands, columns = len(rules) - 1, len(corners) - 1
    parent = list(range(bands * columns))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    def join(one: int, other: int) -> None:
        first, second = root(one), root(other)
        parent[max(first, second)] = min(first, second)  # the top-left cell stays the root

    for band in range(bands):
        inside = block[rules[band] + 1 : rules[band + 1]]
        for column in range(1, columns):
            corner = corners[column]
            if not all(line[corner] == "|" for line in inside):
                join(band * columns + column - 1, band * columns + column)
    for band in range(1, bands):
        rule = block[rules[band]]
        for column in range(columns):
            segment = rule[corners[column] + 1 : corners[column + 1]]
            if segment.strip("-") and segment.strip("="):
                join((band - 1) * columns + column, band * columns + column)
    return [
        [divmod(root(band * columns + column), columns) for column in range(columns)]
        for band in range(bands)
    ]


def _grid_cell_texts(
    block: list[str], rules: list[int], corners: list[int], owner: list[list], first: int
) -> dict | str:
    """The (text, line) of each cell, keyed by its top-left atomic cell."""
    extent: dict[tuple[int, int], list[int]] = {}  # root -> [last band, last column, size]
    for band, row in enumerate(owner):
        for column, root in enumerate(row):
            found = extent.setdefault(root, [band, column, 0])
            found[0], found[1] = max(found[0], band), max(found[1], column)
            found[2] += 1
    cells = {}
    for (top, left), (bottom, right, size) in extent.items():
        if (bottom - top + 1) * (right - left + 1) != size:
            return "a cell that is not a rectangle"
        start, stop = rules[top] + 1, rules[bottom + 1]
        parts = [
            (first + r, block[r][corners[left] + 1 : corners[right + 1]].replace(WIDE_PAD, ""))
            for r in range(start, stop)
        ]
        cells[(top, left)] = cell_of(parts) if parts else ("", first + rules[top])
    return cells


def simple_row_lines(
    lines: list[str], start: int, stop: int, columns: list[tuple[int, int]]
) -> list[tuple[list[int], list]]:
    """(line indexes, column spans) of each row of a simple table between two borders. A
    line whose first column is blank goes on the row above; a line of dashes under a row
    joins the columns it spans."""
    groups: list[tuple[list[int], list[tuple[int, int]]]] = []
    first_end = columns[1][0] if len(columns) > 1 else None
    for index in range(start, stop):
        line = lines[index]
        if is_blank(line):
            continue
        spans = _span_groups(line, columns) if groups else None
        if spans is not None:
            groups[-1] = (groups[-1][0], spans)
        elif groups and not line[:first_end].strip(" "):
            groups[-1][0].append(index)
        else:
            groups.append(([index], [(k, k) for k in range(len(columns))]))
    return groups


def _span_groups(line: str, columns: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """(first, last) column of each cell a line of dashes marks, None for any other line."""
    if not _SPAN_RULE.fullmatch(line.strip(" ")):
        return None
    groups = []
    for run in _RUN_OF_DASHES.finditer(line):
        covered = [
            k for k, (begin, end) in enumerate(columns) if begin >= run.start() and end <= run.end()
        ]
        if not covered:
            return None  # a row of '-' cells, not a span rule
        groups.append((covered[0], covered[-1]))
    return groups


def simple_row(
    lines: list[str],
    indexes: list[int],
    spans: list[tuple[int, int]],
    columns: list[tuple[int, int]],
    as_header: bool,
) -> list[Cell]:
    row: list[Cell] = []
    for first, last in spans:
        begin = columns[first][0]
        end = columns[last + 1][0] if last + 1 < len(columns) else None
        cell = cell_of(
            [(index, lines[index][begin:end].replace(WIDE_PAD, "")) for index in indexes]
        )
        row.append(cell)
        filler = cell if as_header else ("", indexes[0])
        row.extend([filler] * (last - first))
    return row
