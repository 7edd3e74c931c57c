"""One HTML table's grid as located cells: each column's name from the header's levels, the
body rows that publish values, a row one cell short realigned or reported."""

from __future__ import annotations

import re

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.base import CellColumns, ParseProblem
from perfledger.sources.layouts.header_levels import filled_group_headers
from perfledger.sources.layouts.html_grid import (
    MAX_COLUMNS,
    Grid,
    GridCells,
    GridRow,
    PlacedRow,
    is_empty_row,
    is_placed_whole,
    line_of,
    section_cell,
)
from perfledger.sources.layouts.row_realignment import (
    ColumnProfile,
    cell_kind,
    profile_columns,
    reads_as_drawn,
    realign_position,
    width_problem,
)
from perfledger.sources.layouts.table_text import (
    NOTE_LINE_SEPARATOR,
    fold_header_text,
    with_section,
)

HEADER_LEVEL_SEPARATOR = " / "  # between the levels of a multi-row header

_BLANK = " \u00a0\t\n"
_NUMBER_ALONE = re.compile(r"[~<>≈]?\s*[+-]?\d[\d.,\s]*[%x×]?")


def _header_names(rows: list[GridRow], width: int, cells: GridCells) -> list[tuple[str, int]]:
    """(name, line) per column: the texts of a multi-row header joined top to bottom with
    ' / ', a cell spanning several header rows counted once and empty levels left out."""
    names = []
    # A group header written once over its columns, blank cells to its right (a Markdown
    # table as it renders), names each of them, as a spanned cell does (see header_levels).
    filled = _filled_levels(rows, width, cells) if len(rows) > 1 else None
    for column in range(width):
        seen: list[int] = []
        for ids in rows:
            cell = ids[column] if column < len(ids) else None
            if cell is not None and cell not in seen:
                seen.append(cell)
        level_texts = (
            [level[column] for level in filled] if filled else [cells.texts[c] for c in seen]
        )
        texts: list[str] = []
        for text in level_texts:
            # The same label written again in the level below adds nothing to the name.
            if text.strip(" \u00a0") and (not texts or texts[-1] != text):
                texts.append(text)
        line = cells.lines[seen[0]] if seen else 1
        fallback = cells.texts[seen[0]] if seen else ""
        names.append((HEADER_LEVEL_SEPARATOR.join(texts) if texts else fallback, line))
    return names


def _filled_levels(rows: list[GridRow], width: int, cells: GridCells) -> list[list[str]] | None:
    """The header's levels, column by column, with group headers filled over their blank
    cells; None when no blank cell takes a group's name."""
    levels = [[_text_at(ids, column, cells.texts) for column in range(width)] for ids in rows]
    filled = filled_group_headers(levels)
    return filled if filled != levels else None


def _text_at(ids: GridRow, column: int, texts: list[str]) -> str:
    cell = ids[column] if column < len(ids) else None
    return texts[cell] if cell is not None else ""


def _fit_row(
    ids: GridRow, index: int, width: int, profile: ColumnProfile | None, line: int, cells: GridCells
) -> PlacedRow | None:
    """The row's cell id per column, or None when its cells cannot be placed with certainty."""
    inside = ids[:width]
    extra = ids[width:]
    if is_placed_whole(inside, width):
        # Surplus cells are a span running past the edge or empty cells: nothing is lost.
        if all(
            cell is None or cell in inside or cell_kind(cells.texts[cell]) == "blank"
            for cell in extra
        ):
            return inside
        return None
    own = [cell for cell in ids if cell is not None]
    distinct = len(set(own)) == len(own)
    if (
        profile is None
        or len(own) != len(ids)
        or len(ids) >= width
        or not distinct
        or not (isinstance(ids, range) or all(cells.origin_rows[cell] == index for cell in own))
    ):
        return None
    texts = [cells.texts[cell] for cell in own]
    # As a browser draws it, first: a row whose last cells the page left out.
    if reads_as_drawn(texts, profile):
        return [*own, *(cells.add_blank(line) for _ in range(width - len(own)))]
    gap = realign_position(texts, profile)
    if gap is not None:
        return [*own[:gap], cells.add_blank(line), *own[gap:]]
    return None


def table_cells(
    grid: Grid, table_index: int, title: str | None, note: str | None, out: CellColumns
) -> list[ParseProblem]:
    """Add the cells of one data table to `out`; rows whose cells cannot be placed are
    returned as problems."""
    cells = grid.cells
    texts = cells.texts
    width = grid.width
    note = NOTE_LINE_SEPARATOR.join([*grid.foot_notes, *([note] if note else [])]) or None
    names = _header_names(grid.header_rows, width, cells)
    header_texts = [_folded_texts(ids, texts) for ids in grid.header_rows]
    header_texts.append([fold_header_text(name) for name, _ in names])
    heading = with_section(title, grid.lead_section)
    # As in text captures, the column's name is its header text stripped; the header cell's
    # raw value keeps the text as published.
    columns = [name.strip() for name, _ in names]
    out.add_rows(
        table_index,
        note,
        columns,
        [heading],
        [0],
        [name for name, _ in names],
        [line for _, line in names],
    )
    entries = _published_rows(grid, width, header_texts, heading)
    whole = [ids for _, ids, _, _ in entries if is_placed_whole(ids, width)]
    problems = []
    if len(whole) == len(entries):  # the common case: every row placed as it stands
        placed = whole
        row_titles = [row_title for _, _, _, row_title in entries]
        row_numbers = list(range(1, len(entries) + 1))
    else:
        placed, row_titles, row_numbers = _place_rows(entries, width, grid, table_index, problems)
    out.add_rows(
        table_index,
        note,
        columns,
        row_titles,
        row_numbers,
        _values_of(texts, placed),
        _values_of(cells.lines, placed),
    )
    label = heading or f"#{table_index}"
    problems += [
        ParseProblem(
            check="table_too_wide",
            reason=(
                f"a row of table '{label}' has {count} cells past column {MAX_COLUMNS}, "
                "the most this parser places; those cells were not read"
            ),
            line_number=line,
            table_index=table_index,
            raw=raw,
        )
        for line, count, raw in cells.cut_rows
    ]
    return problems


def _values_of(values: list, rows: list[PlacedRow]) -> list:
    """values[cell] for every cell of `rows`, in order. Plain rows whose ids follow on, as
    most do, are read as one slice: reading the cells one by one costs a step each."""
    out: list = []
    start = stop = 0  # the run of ids not read yet
    for ids in rows:
        if isinstance(ids, range) and ids.start == stop:
            stop = ids.stop
            continue
        out += values[start:stop]
        if isinstance(ids, range):
            start, stop = ids.start, ids.stop
        else:
            out += map(values.__getitem__, ids)
            start = stop = 0
    out += values[start:stop]
    return out


def _place_rows(
    entries: list[tuple[etree._Element, GridRow, int, str | None]],
    width: int,
    grid: Grid,
    table_index: int,
    problems: list[ParseProblem],
) -> tuple[list[PlacedRow], list[str | None], list[int]]:
    """(cell ids, row titles, row numbers) of the rows that can be placed, some of them
    not complete; the others join `problems`."""
    cells = grid.cells
    # Only a row that does not fit needs the columns' type pattern.
    profile = profile_columns(
        [
            [cells.texts[cell] for cell in ids]
            for _, ids, _, _ in entries
            if is_placed_whole(ids, width)
        ],
        width,
    )
    placed: list[PlacedRow] = []
    row_titles: list[str | None] = []
    row_numbers: list[int] = []
    for row_number, (row, ids, index, row_title) in enumerate(entries, start=1):
        # A complete row, the common case, is placed as it stands.
        whole = is_placed_whole(ids, width)
        line = 0 if whole else line_of(row) + grid.line_offset
        fitted = ids if whole else _fit_row(ids, index, width, profile, line, cells)
        if fitted is None:
            texts = [cells.texts[cell] for cell in ids if cell is not None]
            problems.append(width_problem(table_index, row_title, row_number, texts, width, line))
            continue
        placed.append(fitted)
        row_titles.append(row_title)
        row_numbers.append(row_number)
    return placed, row_titles, row_numbers


def _published_rows(
    grid: Grid, width: int, header_texts: list[list[str]], heading: str | None
) -> list[tuple[etree._Element, GridRow, int, str | None]]:
    """(tr, cell ids, row index, title) of the body rows that publish values: not empty, not a
    section label (which extends the title of the rows under it), not the header repeated."""
    entries = []
    title = heading
    texts = grid.cells.texts
    header_firsts = {row[0] for row in header_texts if row}
    folded: dict[str, str] = {}  # many rows share their first cell's text
    last = len(grid.body_rows) - 1
    for position, (row, ids, index) in enumerate(grid.body_rows):
        if isinstance(ids, range) and len(ids) > 1:
            # plain cells, two or more: a label over blank cells, over a row whose cells are
            # filled, is a section label (cells that show only an image are blank text, and
            # so are the cells of the rows such a table goes on with); any other row
            # publishes values (a filled last cell tells most of them at once)
            if (
                position < last
                and not _last_cell_filled(ids, texts)
                and _last_cell_filled(grid.body_rows[position + 1][1], texts)
                and (label := _label_over_blanks(ids, texts))
            ):
                title = with_section(heading, label)
                continue
        elif is_empty_row(ids):
            continue  # an empty <tr> publishes nothing
        elif (section := section_cell(ids, width)) is not None:
            label = texts[section]
            if label.strip(" \u00a0"):  # an empty full-width row only spaces the table out
                title = with_section(heading, label)
            continue
        # The header repeated inside the body, as long tables do, is left out. The cheap test
        # first: most rows differ from the header in cell one.
        text = texts[ids[0]] if ids and ids[0] is not None else ""
        first = folded.get(text)
        if first is None:
            first = folded[text] = fold_header_text(text)
        if first in header_firsts and _folded_texts(ids, texts) in header_texts:
            continue
        entries.append((row, ids, index, title))
    return entries


def _last_cell_filled(ids: GridRow, texts: list[str]) -> bool:
    cell = ids[-1] if ids else None
    return cell is not None and bool(texts[cell].strip(_BLANK))


def _label_over_blanks(ids: range, texts: list[str]) -> str | None:
    """The label of a row whose first cell alone is filled, in a table of three columns or
    more ("OpenNMT-tf WMT14 model" over blank cells): the rows under it are of that group, as
    a Markdown table's group row, which is how such a table renders. A number alone is no
    label ("2D" is): a row with one value is a row short of values."""
    if len(ids) < 3:
        return None
    label = texts[ids[0]].strip(_BLANK)
    if not label or _NUMBER_ALONE.fullmatch(label):
        return None
    if any(texts[cell].strip(_BLANK) for cell in ids[1:-1]):
        return None
    return " ".join(label.split())


def _folded_texts(ids: GridRow, texts: list[str]) -> list[str]:
    return [fold_header_text(texts[cell] if cell is not None else "") for cell in ids]
