"""A pipe table's cells: its header levels, group rows and data rows as located cells, for
the tables a Markdown page writes and the box tables a tool prints (with its borders written
as delimiter rows, see box_tables)."""

from __future__ import annotations

import re
from bisect import bisect_left

from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.header_levels import (
    filled_group_headers,
    header_levels_below,
    joined_levels,
    levels_under_blank_header,
)
from perfledger.sources.layouts.inline_markup import render_inline
from perfledger.sources.layouts.markdown_blocks import PipeTable
from perfledger.sources.layouts.pipe_rows import (
    fit_cells,
    is_delimiter_row,
    is_rule_row,
    split_row,
    width_under_empty_header,
)
from perfledger.sources.layouts.row_realignment import profile_columns, width_problem
from perfledger.sources.layouts.table_text import fold_header_text, with_section

_BOLD_CELL = re.compile(r"(\*\*|__)(?P<text>[^*_\s](?:.*?[^*_\s])?)\1:?")
_EMPHASIS_CELL = re.compile(r"(\*\*|__|\*|_)(?P<text>[^*_\s](?:[^*_]*?[^*_\s])?)\1:?")
_NUMBER_CELL = re.compile(r"^\s*[~<>]?\s*[+-]?\d")


def table_cells(
    lines: list[str], table: PipeTable, table_index: int, title: str | None, note: str | None
) -> tuple[list[tuple], list[ParseProblem]]:
    header = [render_inline(cell) for cell in split_row(lines[table.header])]
    width = len(header)
    body = []
    sections: dict[int, str] = {}  # by line, the label of each bold group row
    for index in range(table.header + 2, table.end):
        if is_delimiter_row(lines[index]):
            continue
        raw = split_row(lines[index])
        if is_rule_row(raw, width):
            continue
        label = _section_label(raw, width)
        if label is not None:
            sections[index] = label
            continue
        body.append((index, [render_inline(cell) for cell in raw]))
    header = header[: width_under_empty_header(header, [cells for _, cells in body])]
    width = len(header)
    # Rows under the |---| row that are more levels of the header (a GPU per column), above
    # any group row.
    first_group = min(sections, default=table.end)
    # Only rows above any group row may be levels of the header; the rows of numbers under
    # the groups tell which columns hold numbers.
    above = sum(1 for index, _cells in body if index < first_group)
    below = min(header_levels_below([cells for _, cells in body]), above)
    if not any(cell.strip() for cell in header):  # a blank header row names no column
        below = max(below, min(levels_under_blank_header([cells for _, cells in body]), above))
    levels = [header, *(cells[:width] for _, cells in body[:below])]
    body = body[len(levels) - 1 :]
    # A group header written once over its columns names each of them (see header_levels).
    stacked = filled_group_headers(levels)
    names = [
        joined_levels([level[column] for level in stacked]) or header[column]
        for column in range(width)
    ]
    columns = [name.strip() for name in names]  # the header text stripped, as text captures do
    rows = [
        (table_index, title, note, 0, column, columns[column], name, table.header + 1)
        for column, name in enumerate(names)
    ]
    # The header repeated inside the body, any of its levels, is no data row.
    repeated = [[fold_header_text(cell) for cell in level] for level in levels]
    repeated.append([fold_header_text(name) for name in names])
    body = [
        (index, cells)
        for index, cells in body
        if [fold_header_text(cell) for cell in cells] not in repeated
    ]
    complete = [cells for _, cells in body if len(cells) == width]
    # Only a row that does not fit needs the columns' type pattern.
    profile = profile_columns(complete, width) if len(complete) < len(body) else None
    problems = []
    heading = title
    section_lines = sorted(sections)
    for row_number, (index, cells) in enumerate(body, start=1):
        # A row stands under the nearest group row above it, as an HTML table's rows under
        # a full-width label do.
        group = bisect_left(section_lines, index)
        if group:
            title = with_section(heading, sections[section_lines[group - 1]])
        fitted = fit_cells(cells, width, profile)
        if fitted is None:
            problems.append(width_problem(table_index, title, row_number, cells, width, index + 1))
            continue
        cut = _cells_cut(cells, width)
        if cut:
            problems.append(_cut_problem(table_index, title, row_number, cut, width, index + 1))
        rows.extend(
            (table_index, title, note, row_number, column, columns[column], text, index + 1)
            for column, text in enumerate(fitted)
        )
    return rows, problems


def _section_label(raw: list[str], width: int) -> str | None:
    """The label of a group row: its first cell all bold and its other cells blank
    ("| **OpenNMT-py WMT14 model** | | |"), in a table of two columns or more, or any label
    but a number over blanks in a table of three or more ("| MMLU (shuffle 1k) | | | |");
    the rows under it are of that group. A bold cell alone on its row ("| **A100** |") is one
    too: GitHub fills the short row with blank cells, and so is an emphasized cell after
    blank or dashed ones on a short row ("|   | **SSD models**", "|- | **YOLOX models**",
    "|*Lite models*")."""
    lead = 0
    while lead < len(raw) - 1 and not raw[lead].strip(" \t-"):
        lead += 1
    emphasized = _EMPHASIS_CELL.fullmatch(raw[lead].strip()) if len(raw) < width else None
    if emphasized is not None and not _NUMBER_CELL.match(emphasized.group("text")):
        # only an emphasized label moves: a plain one after blanks is a short row
        raw = [f"**{emphasized.group('text')}**", *raw[lead + 1 :]]
    if width < 2 or not raw or any(cell.strip() for cell in raw[1:]):
        return None
    bold = _BOLD_CELL.fullmatch(raw[0].strip())
    if bold is None:
        # Not bold, in a table of three columns or more: a label over a row of blanks
        # ("| MMLU<br>(shuffle 1k) | | | |") heads the rows under it all the same.
        # So does such a label alone on its row ("| DEV |" over rows of six error rates).
        if width < 3 or 1 < len(raw) < width or _NUMBER_CELL.match(raw[0]):
            return None
        return " ".join(render_inline(raw[0]).split()) or None
    label = render_inline(bold.group("text")).strip()
    return label or None


def _cells_cut(cells: list[str], width: int) -> list[str]:
    """The cells of a row past the header's width, up to the last that holds any text (a
    lone '#' included): empty cells past the header (a trailing `| |`) hold nothing."""
    cut = cells[width:]
    while cut and not cut[-1].strip(" \t\u00a0"):
        cut.pop()
    return cut


def _cut_problem(
    table_index: int, title: str | None, row_number: int, cut: list[str], width: int, line: int
) -> ParseProblem:
    label = title or f"#{table_index}"
    return ParseProblem(
        check="cells_beyond_header",
        reason=(
            f"data row {row_number} of table '{label}' has {len(cut)} cells past the header's "
            f"{width}; its first {width} cells were placed, as GitHub shows the row, and the "
            "cells past the header were not read"
        ),
        line_number=line,
        table_index=table_index,
        raw=" | ".join(cut),
    )
