"""ASCII box tables a benchmark tool prints ("+------+-------+" borders around "| m | n |"
rows), as pages show its output inside fenced code. A box table is read as the pipe table
it draws: its header is the one pipe row above the border that opens its body, its borders
are delimiter rows, and a one-cell band above the header ("| Decode Result |") or a short
line right above the top border ("DeepGEMM Implementation:") is its caption.

Tables drawn with box-drawing characters, as Python's Rich library prints them (GenAI-Perf's
"┏━━┳━━┓" over "┃ Statistic ┃ avg ┃", "│" between body cells), are read as the same grid;
so are the tables a panel frames (a table per figure, each under its title line), once the
panel's sides are taken off.

A table printed with no box, " | " between cells and a rule with "+" junctions under its
header (psql's output, tabulate's "presto" format), is read as the same grid: its rows run
to the first line of another width ("(16 rows)").

Only a plain grid is read: a header written over two lines or body rows of another width
(a device status panel, whose cells wrap) is no table of results and stays code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from perfledger.sources.layouts.pipe_rows import is_junction_rule, split_row
from perfledger.sources.layouts.table_text import CAPTION_MAX_CHARS, printed_line_above

_BORDER = re.compile(r"^[ \t]*\+(?:[-=]+\+)+[ \t]*$")
_BOX_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
MIN_COLUMNS = 2


@dataclass(frozen=True)
class BoxTable:
    header: int  # index of the header row
    end: int  # index one past the bottom border
    caption: str | None


# Box-drawing characters as the ASCII a box table is drawn with: corners and junctions "+",
# horizontal rules "-", vertical rules "|".
_DRAWN_AS_ASCII = str.maketrans(
    {
        **dict.fromkeys("┏┳┓┡╇┩┗┻┛┣╋┫┌┬┐├┼┤└┴┘╭╮╰╯╔╦╗╠╬╣╚╩╝╞╪╡╒╤╕╘╧╛┢╈┪┞╀┦", "+"),
        **dict.fromkeys("━─═╌╍┄┅", "-"),
        **dict.fromkeys("┃│║╎╏┆┇", "|"),
    }
)
_RULES = ("+-", "━", "─", "═")


def drawn_box_tables(
    text: str, lines: list[str], inside: set[int]
) -> tuple[list[BoxTable], list[str]]:
    """The box tables drawn on lines of `inside` (fenced code), and the page's lines with
    their borders written as delimiter rows (see `as_pipe_lines`); no table, the lines as
    they are, where the page draws no rule."""
    if not any(rule in text for rule in _RULES):
        return [], lines
    if "+-" not in text or any(rule in text for rule in _RULES[1:]):
        lines = [
            line.translate(_DRAWN_AS_ASCII) if i in inside else line for i, line in enumerate(lines)
        ]
    lines = _panels_unwrapped(lines, inside)
    tables = find_box_tables(lines, inside)
    if "-+-" in text:
        tables = sorted([*tables, *_junction_tables(lines, inside)], key=lambda t: t.header)
    return tables, (as_pipe_lines(lines, tables) if tables else lines)


# A line drawn inside a panel's sides: "| <what the panel holds> |".
_PANEL_LINE = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$")
_MAX_PANEL_DEPTH = 3


def _panels_unwrapped(lines: list[str], inside: set[int]) -> list[str]:
    """The lines with each panel's sides taken off what it holds: a run of lines between a
    panel's sides that holds a table's border is a panel around tables (GenAI-Perf's GPU
    telemetry: a table per figure, its title above it, inside one frame), not a table's rows.
    Each line stays where it is, so lines keep their numbers."""
    for _depth in range(_MAX_PANEL_DEPTH):
        unwrapped = list(lines)
        index = 0
        while index < len(lines):
            if index not in inside or _PANEL_LINE.match(lines[index]) is None:
                index += 1
                continue
            held: list[str] = []
            while index + len(held) < len(lines) and index + len(held) in inside:
                side = _PANEL_LINE.match(lines[index + len(held)])
                if side is None:
                    break
                held.append(side.group(1))
            if any(is_border(line) for line in held):
                unwrapped[index : index + len(held)] = held
            index += len(held)
        if unwrapped == lines:
            return lines
        lines = unwrapped
    return lines


def is_border(line: str) -> bool:
    return _BORDER.match(line) is not None


def find_box_tables(lines: list[str], inside: set[int]) -> list[BoxTable]:
    """The box tables drawn on lines of `inside` (fenced code): runs of border and `|` row
    lines that open and close with a border."""
    tables = []
    index = 0
    while index < len(lines):
        if index not in inside or not is_border(lines[index]):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and end in inside and _is_box_line(lines[end]):
            end += 1
        while end > index + 1 and not is_border(lines[end - 1]):
            end -= 1
        found = _box_table(lines, index, end, inside)
        if found is not None:
            tables.append(found)
        index = max(end, index + 1)
    return tables


def _is_box_line(line: str) -> bool:
    return _BORDER.match(line) is not None or _BOX_ROW.match(line) is not None


def _box_table(lines: list[str], top: int, end: int, inside: set[int]) -> BoxTable | None:
    """The table drawn on lines `top` to `end`, or None when it is no plain grid."""
    rows = [i for i in range(top, end) if not is_border(lines[i])]
    if not rows:
        return None
    width = max(len(split_row(lines[i])) for i in rows)
    if width < MIN_COLUMNS:
        return None
    header = next((i for i in rows if len(split_row(lines[i])) == width), None)
    if header is None or not is_border(lines[header - 1]) or not is_border(lines[header + 1]):
        return None  # a header written over two lines: its cells cannot be told apart
    body = [i for i in rows if i > header]
    if not body or any(len(split_row(lines[i])) != width for i in body):
        return None
    if _wrapped(lines, body):
        return None
    bands = [split_row(lines[i]) for i in rows if i < header]
    titles = [cells[0] for cells in bands if len(cells) == 1 and cells[0]]
    caption = titles[-1] if titles else _short(printed_line_above(lines, top, inside))
    return BoxTable(header, end, caption)


def _junction_tables(lines: list[str], inside: set[int]) -> list[BoxTable]:
    """The tables printed in code with a "+" junction rule under their header and no box:
    the header, the rule, then the rows of as many cells."""
    tables = []
    for index in range(1, len(lines)):
        if index not in inside or index - 1 not in inside:
            continue
        if not is_junction_rule(lines[index], lines[index - 1]):
            continue
        width = len(split_row(lines[index - 1]))
        end = index + 1
        while end < len(lines) and end in inside and len(split_row(lines[end])) == width:
            end += 1
        if end > index + 1:
            caption = _short(printed_line_above(lines, index - 1, inside))
            tables.append(BoxTable(index - 1, end, caption))
    return tables


def _short(text: str | None) -> str | None:
    return text if text is not None and len(text) <= CAPTION_MAX_CHARS else None


def _wrapped(lines: list[str], body: list[int]) -> bool:
    """Whether borders cut the body into bands of more than one line: each band then is one
    row written over several lines, as a status panel wraps its cells."""
    if not any(is_border(lines[i]) for i in range(body[0], body[-1])):
        return False  # no border between the rows: each line is a row
    rows = set(body)  # a list would be searched once per line: the square of a long printout
    return any(i - 1 in rows for i in body)


def as_pipe_lines(lines: list[str], tables: list[BoxTable]) -> list[str]:
    """The page's lines with each box table's borders written as delimiter rows ("|---|"),
    so that the pipe table reader reads the table where it stands."""
    drawn = list(lines)
    for table in tables:
        for index in range(table.header - 1, table.end):
            if is_border(drawn[index]) or (
                index == table.header + 1 and is_junction_rule(drawn[index], drawn[index - 1])
            ):
                drawn[index] = drawn[index].replace("=", "-").replace("+", "|")
    return drawn
