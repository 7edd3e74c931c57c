"""The tables an HTML page prints in its blocks of code (<pre>): the box tables, the summaries
and the per-model statistic lines a benchmark tool prints, read as a Markdown page's fenced
code is (see pipe_table). Documentation sites and rendered READMEs show a tool's output this
way; the rest of the code is neither prose nor table.

They are numbered after the page's <table> elements, as a Markdown page numbers what its
code prints after its written tables: reading a page's code never renumbers a written table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.box_tables import BoxTable, drawn_box_tables
from perfledger.sources.layouts.console_summaries import (
    ConsoleSummary,
    find_console_summaries,
    summary_cells,
)
from perfledger.sources.layouts.html_page import TablesAndText
from perfledger.sources.layouts.html_stream import Block, CodeMark
from perfledger.sources.layouts.markdown_blocks import PipeTable
from perfledger.sources.layouts.pipe_cells import table_cells
from perfledger.sources.layouts.statistic_lines import (
    StatisticLines,
    find_statistic_lines,
    statistic_cells,
)
from perfledger.sources.layouts.table_text import with_section

_DIGITS = frozenset("0123456789")


@dataclass
class PrintedTables:
    rows: list[tuple] = field(default_factory=list)  # cells, as CELL_SCHEMA's columns
    # By the place of its block of code among the page's items, the outline rows of the
    # tables the block prints.
    outline: dict[int, list[tuple]] = field(default_factory=dict)
    problems: list[ParseProblem] = field(default_factory=list)


def read_printed_tables(page: TablesAndText, first_index: int) -> PrintedTables:
    """The tables the page's blocks of code print, numbered from `first_index`, each titled
    by the heading above its block and the caption the tool prints above it."""
    found = PrintedTables()
    table_index = first_index
    heading: str | None = None
    for position, item in enumerate(page.items):
        if isinstance(item, Block):
            if item.heading:
                heading = item.text
            continue
        if not isinstance(item, CodeMark):
            continue
        text = "".join(item.code.itertext())
        if _DIGITS.isdisjoint(text):
            continue
        placed: list[tuple] = []
        for piece, lines in _printed_in(text):
            rows, problems, outline = _read_piece(piece, lines, table_index, heading)
            offset = item.line - 1  # the block's first line is the line of its <pre>
            found.rows += [(*row[:-1], row[-1] + offset) for row in rows]
            found.problems += [
                replace(problem, line_number=problem.line_number + offset)
                if problem.line_number is not None
                else problem
                for problem in problems
            ]
            placed += [(row[0] + offset, *row[1:]) for row in outline]
            table_index += 1
        if placed:
            found.outline[position] = placed
    return found


def _printed_in(
    text: str,
) -> list[tuple[BoxTable | ConsoleSummary | StatisticLines, list[str]]]:
    """The tables printed in a block of code, in the order of their first lines, each with
    the lines it is read from."""
    lines = text.split("\n")
    code = set(range(len(lines)))
    boxes, drawn = drawn_box_tables(text, lines, code)
    summaries = find_console_summaries(lines, code) if ":" in text else []
    statistics = find_statistic_lines(lines, code)
    pieces: list[tuple[BoxTable | ConsoleSummary | StatisticLines, list[str]]] = [
        (box, drawn) for box in boxes
    ]
    pieces += [(piece, lines) for piece in [*summaries, *statistics]]
    return sorted(pieces, key=lambda pair: _first_line(pair[0]))


def _first_line(piece: BoxTable | ConsoleSummary | StatisticLines) -> int:
    return piece.header if isinstance(piece, BoxTable) else piece.start


def _read_piece(
    piece: BoxTable | ConsoleSummary | StatisticLines,
    lines: list[str],
    table_index: int,
    heading: str | None,
) -> tuple[list[tuple], list[ParseProblem], list[tuple]]:
    """A printed table's cells, problems and outline rows, with lines counted in its block."""
    title = with_section(heading, piece.caption)
    if isinstance(piece, BoxTable):
        rows, problems = table_cells(
            lines, PipeTable(piece.header, piece.end), table_index, title, None
        )
        outline: list[tuple] = [(piece.header + 1, "table", None, None, table_index)]
        if piece.caption:
            outline.insert(0, (piece.header, "caption", None, piece.caption, table_index))
        return rows, problems, outline
    if isinstance(piece, ConsoleSummary):
        outline = [(piece.start + 1, "table", None, None, table_index)]
        if piece.caption:
            outline.insert(0, (piece.start, "caption", None, piece.caption, table_index))
        return summary_cells(piece, table_index, title), [], outline
    outline = [(piece.start + 1, "table", None, None, table_index)]
    return statistic_cells(piece, table_index, title), [], outline
