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
from perfledger.sources.layouts.html_page import TablesAndText
from perfledger.sources.layouts.html_stream import Block, CodeMark
from perfledger.sources.layouts.printed_tables import (
    find_printed_tables,
    first_line,
    printed_cells,
)

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
        lines = text.split("\n")
        pieces, drawn = find_printed_tables(text, lines, set(range(len(lines))))
        for piece in sorted(pieces, key=first_line):
            rows, problems, outline = printed_cells(piece, drawn, table_index, heading)
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
