"""The tables a benchmark tool prints in a page's code (a Markdown page's fenced code, an HTML
page's <pre>): its box tables ("+---+" borders, see box_tables), its summaries ("Mean TTFT
(ms):  120.45", see console_summaries) and its per-model statistic lines (see
statistic_lines), found on a page's lines and read as located cells with their rows in the
page's outline. Both layouts read them with these functions, so a printout reads the same in
either."""

from __future__ import annotations

from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.box_tables import BoxTable, drawn_box_tables
from perfledger.sources.layouts.console_summaries import (
    ConsoleSummary,
    find_console_summaries,
    summary_cells,
)
from perfledger.sources.layouts.markdown_blocks import PipeTable
from perfledger.sources.layouts.pipe_cells import table_cells
from perfledger.sources.layouts.statistic_lines import (
    StatisticLines,
    find_statistic_lines,
    statistic_cells,
)
from perfledger.sources.layouts.table_text import with_section

PrintedTable = BoxTable | ConsoleSummary | StatisticLines


def find_printed_tables(
    text: str, lines: list[str], code: set[int]
) -> tuple[list[PrintedTable], list[str]]:
    """The tables printed on the lines of `code` (indexes into `lines`, the lines of `text`),
    and the lines with each box table's borders written as delimiter rows (see
    `drawn_box_tables`), which its cells are read from."""
    boxes, drawn = drawn_box_tables(text, lines, code)
    summaries = find_console_summaries(lines, code) if ":" in text else []
    return [*boxes, *summaries, *find_statistic_lines(lines, code)], drawn


def first_line(piece: PrintedTable) -> int:
    """The index of a printed table's first line: a box table's header row."""
    return piece.header if isinstance(piece, BoxTable) else piece.start


def printed_cells(
    piece: PrintedTable, drawn: list[str], table_index: int, heading: str | None
) -> tuple[list[tuple], list[ParseProblem], list[tuple]]:
    """A printed table's cells, problems and outline rows, lines counted as in `drawn` (see
    `find_printed_tables`); its caption extends `heading`, the heading above it, and is its
    caption in the outline ("GPU Power Usage (W)" over avg, min, max: the context of its
    values)."""
    title = with_section(heading, piece.caption)
    start = first_line(piece)
    outline: list[tuple] = [(start + 1, "table", None, None, table_index)]
    if isinstance(piece, StatisticLines):
        return statistic_cells(piece, table_index, title), [], outline
    if piece.caption:
        outline.insert(0, (start, "caption", None, piece.caption, table_index))
    if isinstance(piece, ConsoleSummary):
        return summary_cells(piece, table_index, title), [], outline
    rows, problems = table_cells(
        drawn, PipeTable(piece.header, piece.end), table_index, title, None
    )
    return rows, problems, outline
