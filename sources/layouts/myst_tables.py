"""Tables written as MyST directives in a Markdown page (Sphinx docs written in Markdown).

A fence whose info string names a table directive is no code block: ```` ```{list-table} ````
and ```` ```{csv-table} ```` (or `:::` colon fences) hold a reStructuredText directive's
options and body, read here by the RST layout's own reader; ```` ```{table} Title ```` holds
a pipe table, which the Markdown layout reads as any other, titled by the fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import polars as pl

from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.rst_assembly import read_rst

_DIRECTIVE_FENCE = re.compile(
    r" {0,3}(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>list-table|csv-table|table)\}"
    r"(?:[ \t]+(?P<argument>.*?))?[ \t]*"
)
_OPTION = re.compile(r"[ \t]*:[\w-]+:")
_YAML_OPTION = re.compile(r"[ \t]*(?P<name>[\w-]+)[ \t]*:[ \t]*(?P<value>.*)")
RST_INDENT = "   "


@dataclass(frozen=True)
class DirectiveTable:
    """A table directive's fence in a Markdown page."""

    start: int  # index of the opening fence's line
    end: int  # index one past its closing fence, or the page's end when it is never closed
    name: str  # list-table, csv-table or table
    argument: str  # the title written after the name ('' when none)
    closed: bool = True


def table_directive(line: str) -> tuple[str, str, str] | None:
    """(fence, directive name, argument) of a line opening a MyST table directive."""
    found = _DIRECTIVE_FENCE.fullmatch(line)
    if found is None:
        return None
    return found.group("fence"), found.group("name"), found.group("argument") or ""


def rst_of(lines: list[str], block: DirectiveTable) -> str:
    """The directive as reStructuredText, line for line: its line `i` is the page's line
    `block.start + i`. Its options (`:header-rows: 1` lines, or a YAML block between `---`
    lines) first, then its body, indented under the directive."""
    out = [f".. {block.name}:: {block.argument}".rstrip()]
    inner = lines[block.start + 1 : block.end - 1 if block.closed else block.end]
    position = 0
    if inner and inner[0].strip() == "---":
        # The options move up a line, onto the opening '---': the directive's options must
        # follow it with no blank line between.
        position = 1
        options = []
        while position < len(inner) and inner[position].strip() != "---":
            option = _YAML_OPTION.fullmatch(inner[position])
            if option:
                options.append(f"{RST_INDENT}:{option.group('name')}: {option.group('value')}")
            position += 1
        position = min(position + 1, len(inner))  # past the closing '---'
        out += options + [""] * (position - len(options))
    else:
        while position < len(inner) and _OPTION.match(inner[position]):
            out.append(RST_INDENT + inner[position].strip())
            position += 1
    out += [RST_INDENT + line if line.strip() else "" for line in inner[position:]]
    return "\n".join(out) + "\n"


@dataclass
class DirectiveReading:
    """What a table directive gives the page it sits in."""

    rows: list[tuple]  # cells, as CELL_SCHEMA's columns
    problems: list[ParseProblem]
    outline: list[tuple]  # its caption and table rows of the page's outline
    tables: int  # how many table numbers it takes


def read_directive(
    lines: list[str], block: DirectiveTable, first_index: int, title: str | None
) -> DirectiveReading:
    """The cells, problems and outline rows of a list-table or csv-table directive, numbered
    from table `first_index`, its lines the page's, titled `title` (the heading above)."""
    parsed = read_rst(rst_of(lines, block))
    offset = block.start
    cells = parsed.cells.with_columns(
        pl.col("table_index") + first_index,
        pl.col("table_title").fill_null(title) if title else pl.col("table_title"),
        pl.col("line_number") + offset,
    )
    used = [
        *parsed.cells["table_index"].to_list(),
        *(problem.table_index for problem in parsed.problems if problem.table_index is not None),
    ]
    problems = [
        replace(
            problem,
            table_index=None if problem.table_index is None else problem.table_index + first_index,
            line_number=None if problem.line_number is None else problem.line_number + offset,
        )
        for problem in parsed.problems
    ]
    outline = [
        (line + offset, kind, level, text, index + first_index)
        for line, kind, level, text, index in parsed.outline.rows()
        if kind in ("caption", "table")
    ]
    return DirectiveReading(cells.rows(), problems, outline, max(used, default=-1) + 1)
