"""Where a Markdown page's tables stand: its front matter, the lines code and comments
hide, pipe tables (a row over a `|---|` row, in list items too), HTML blocks holding a
<table>, MyST table directives; and a cell's text as a reader sees it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate

from perfledger.sources.layouts.inline_markup import (
    COMMENT,
    COMMENT_CLOSE,
    sub_closed,
)
from perfledger.sources.layouts.myst_tables import DirectiveTable, table_directive
from perfledger.sources.layouts.pipe_rows import has_pipe, is_delimiter_row, split_row

# A backtick fence's info string holds no backtick (CommonMark): "``` cd x ```" is inline code.
_FENCE = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")
# An ATX heading ("## Results"): its text ends on a non-blank, one way to match a hostile line.
ATX_HEADING = re.compile(
    r"^ {0,3}(?P<level>#{1,6})(?:[ \t]+(?P<text>(?:.*?[^ \t])??))?(?:[ \t]+#+)?[ \t]*$"
)
_HTML_TABLE_OPEN = re.compile(r"<table(?![\w-])", re.I)
_HTML_TABLE_CLOSE = re.compile(r"</table(?![\w-])", re.I)
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]{1,999}\]:[ \t]*\S")
_FRONT_MATTER_ITEM = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)[ \t]*:[ \t]*(?P<value>.*)$")


def is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# ---- the page's lines, sorted by role ------------------------------------------------------


@dataclass(frozen=True)
class PipeTable:
    header: int  # index of the header line
    end: int  # index one past the last row


def front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """(key -> value, index of the first line after it) for a leading '---' block."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    values: dict[str, str] = {}
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return values, index + 1
        match = _FRONT_MATTER_ITEM.match(lines[index])
        if match:
            values.setdefault(match.group("key").lower(), match.group("value").strip("'\" \t"))
    return {}, 0  # never closed: not front matter


# A blockquote's markers, nested or not: "> | a | b |" is a table row GitHub draws as one.
_QUOTE_MARKS = re.compile(r"^(?: {0,3}> ?)+")


def unquoted(lines: list[str], hidden: set[int]) -> list[str]:
    """`lines` with the blockquote markers of the lines outside code taken off, so that a
    table or a heading quoted in a blockquote reads as it shows; each line keeps its place."""
    return [
        line
        if index in hidden or not line.lstrip(" ").startswith(">")
        else _QUOTE_MARKS.sub("", line)
        for index, line in enumerate(lines)
    ]


def hidden_lines(
    lines: list[str], start: int, directives: list[DirectiveTable] | None = None
) -> set[int]:
    """Lines inside fenced code or a multi-line HTML comment, and link reference definitions.
    A fence opening a MyST table directive (see myst_tables) is no code: it joins
    `directives`, its lines hidden from the pipe tables' reader but for a `{table}`'s, which
    hold a pipe table."""
    hidden: set[int] = set(range(start))
    fence: str | None = None
    directive: tuple[int, str, str] | None = None  # (line, name, argument) of an open one
    in_comment = False
    for index in range(start, len(lines)):
        line = lines[index]
        if fence is not None:
            closing = _closes(line, fence)
            if directive is None or closing or directive[1] != "table":
                hidden.add(index)
            if closing:
                _close_directive(directive, index + 1, directives)
                fence, directive = None, None
            continue
        if in_comment:
            hidden.add(index)
            in_comment = "-->" not in line
            continue
        found = table_directive(line) if "{" in line else None
        opened = _FENCE.match(line)
        if found is not None:
            fence, name, argument = found
            directive = (index, name, argument)
            hidden.add(index)
        elif opened:
            fence = opened.group(1)
            hidden.add(index)
        elif "<!--" in sub_closed(COMMENT, COMMENT_CLOSE, "", line):
            hidden.add(index)
            in_comment = True
        elif _LINK_DEFINITION.match(line) and (
            index == start or is_blank(lines[index - 1]) or index - 1 in hidden
        ):
            # "[//]: # (a note)": a link reference definition shows nothing, which makes it
            # Markdown's other comment (one cannot interrupt a paragraph, CommonMark says)
            hidden.add(index)
    if directive is not None:
        _close_directive(directive, len(lines), directives, closed=False)
    return hidden


def _closes(line: str, fence: str) -> bool:
    """Whether `line` closes a block opened by `fence`: as CommonMark has it, a run of the
    fence's character at least as long, and nothing else; "```bash" after an unclosed block
    opens nothing and closes nothing, so the tables below it are not taken for code."""
    bare = line.strip(" \t")
    return bare.startswith(fence) and bare.strip(fence[0]) == ""


def _close_directive(
    directive: tuple[int, str, str] | None,
    end: int,
    directives: list[DirectiveTable] | None,
    closed: bool = True,
) -> None:
    if directive is not None and directives is not None:
        start, name, argument = directive
        directives.append(DirectiveTable(start, end, name, argument, closed))


def find_tables(lines: list[str], hidden: set[int]) -> list[PipeTable]:
    tables: list[PipeTable] = []
    listed = list_item_lines(lines, hidden)
    index = 0
    while index + 1 < len(lines):
        if starts_table(lines, index, hidden, listed):
            end = index + 2
            while (
                end < len(lines)
                and end not in hidden
                and not is_blank(lines[end])
                and has_pipe(lines[end])
            ):
                end += 1
            tables.append(PipeTable(index, end))
            index = end
        else:
            index += 1
    return tables


def starts_table(
    lines: list[str], index: int, hidden: set[int], listed: set[int] | frozenset[int] = frozenset()
) -> bool:
    """Whether a table's header row starts at `index`: a pipe row over a delimiter row as
    wide, indented less than code, or to the content of the list item it stands in
    (`listed`, see `list_item_lines`)."""
    if index + 1 >= len(lines):
        return False  # the last line: no delimiter row can follow (a footnote ending the page)
    line, below = lines[index], lines[index + 1]
    return (
        index not in hidden
        and index + 1 not in hidden
        and has_pipe(line)
        and not is_delimiter_row(line)
        and is_delimiter_row(below)
        and len(split_row(below)) == len(split_row(line))
        and (indent_of(line) < 4 or index in listed)
    )


_ITEM_MARKER = re.compile(r"[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+")
# Blocks of MkDocs-style pages whose content is indented four spaces under them: admonitions
# ('!!! note', '??? tip', '???+ info') and content tabs ('=== "Detection (COCO)"').
_CONTAINER_MARKER = re.compile(r"[ \t]*(?:!!!|\?\?\?\+?|===)[ \t]+\S")


def list_item_lines(lines: list[str], hidden: set[int]) -> set[int]:
    """The lines indented four spaces or more that stand in a list item's content (a table
    under a numbered step, indented to the step's text, in pipes or HTML), or in an
    admonition's or a content tab's, rather than in an indented code block: one pass,
    keeping the content offsets of the items open above each line."""
    if not any(line.startswith("    ") and ("|" in line or "<" in line) for line in lines):
        return set()  # most pages: no indented pipe row or tag at all
    found: set[int] = set()
    offsets: list[int] = []  # where the content of each open item starts
    for index, line in enumerate(lines):
        if index in hidden or is_blank(line):
            continue
        indent = indent_of(line)
        while offsets and indent < offsets[-1]:
            offsets.pop()
        marker = _ITEM_MARKER.match(line)
        if marker is not None:
            offsets.append(marker.end())
        elif _CONTAINER_MARKER.match(line):
            offsets.append(indent + 4)
        elif indent >= 4 and offsets and indent < offsets[-1] + 4:
            found.add(index)
    return found


@dataclass(frozen=True)
class HtmlBlock:
    """A block of HTML written in the page that holds a <table>, and the tables inside it."""

    start: int  # index of the line that opens the table
    end: int  # index one past the line that closes it


def find_html_tables(lines: list[str], hidden: set[int]) -> list[HtmlBlock]:
    """The HTML blocks that hold a table: from a line starting with a tag that opens a <table>
    to the line that closes it, the tables inside it counted. A table never closed ends at
    the first blank line, where Markdown ends an HTML block."""
    depth = list(
        accumulate(
            (
                0 if index in hidden else _table_tag_balance(line)
                for index, line in enumerate(lines)
            ),
            initial=0,
        )
    )
    closing = _next_not_deeper(depth)
    listed = list_item_lines(lines, hidden)
    blocks = []
    index = 0
    while index < len(lines):
        if index in hidden or not _opens_html_table(lines[index], index in listed):
            index += 1
            continue
        end = closing[index]
        if end is None:  # never closed; the next block starts past it: no line read twice
            end = next((i for i in range(index + 1, len(lines)) if is_blank(lines[i])), len(lines))
        blocks.append(HtmlBlock(index, end))
        index = end
    return blocks


def _table_tag_balance(line: str) -> int:
    """<table> tags opened minus closed on the line."""
    if "<" not in line:
        return 0
    return len(_HTML_TABLE_OPEN.findall(line)) - len(_HTML_TABLE_CLOSE.findall(line))


def _next_not_deeper(depth: list[int]) -> list[int | None]:
    """For each place, the first place after it whose depth is no greater (None when there is
    none): where a table opened there is closed. One pass from the end with a stack of the
    places seen, so that a page of tables never closed costs no rescan per table."""
    found: list[int | None] = [None] * len(depth)
    stack: list[int] = []
    for place in range(len(depth) - 1, -1, -1):
        while stack and depth[stack[-1]] > depth[place]:
            stack.pop()
        found[place] = stack[-1] if stack else None
        stack.append(place)
    return found


def _opens_html_table(line: str, listed: bool = False) -> bool:
    """A line that starts an HTML block (a tag, indented less than code or to the content of
    the list item it stands in) and opens a table."""
    return (
        (indent_of(line) < 4 or listed)
        and line.lstrip(" ").startswith("<")
        and _HTML_TABLE_OPEN.search(line) is not None
    )


# Front matter keys whose value is what the page says of itself, in a sentence of its own.
_SUMMARY_KEYS = ("summary", "description", "excerpt", "subtitle")


def summary_rows(front_lines: list[str], front: dict[str, str]) -> list[tuple]:
    """The front matter's summary as the page's first paragraph, at its line."""
    for key in _SUMMARY_KEYS:
        if front.get(key):
            line = next(
                (
                    index + 1
                    for index, text in enumerate(front_lines)
                    if text.lstrip().lower().startswith(f"{key}:")
                ),
                1,
            )
            return [(line, "paragraph", None, front[key], None)]
    return []
