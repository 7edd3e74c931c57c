"""Markdown pages: pipe tables (`| a | b |` over a `|---|` row) as located cells, plus prose.

A table is a row of cells followed by a delimiter row with as many cells, as in GitHub's
Markdown; its rows run to the first blank line or line without a pipe. Cells are trimmed of
spaces and tabs only, so a U+00A0 cell keeps its text. Fenced code and HTML comments are
not read: a table shown as code or commented out is not published data.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from sources.layouts.base import (
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    cells_frame,
)
from sources.layouts.html_table import (
    ColumnProfile,
    cell_kind,
    fold_header_text,
    looks_like_note,
    machine_date,
    profile_columns,
    realign_position,
    superscript,
    width_problem,
)
from sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    is_heading_like,
)
from sources.layouts.text_capture import split_lines

NOTE_LINE_SEPARATOR = " | "
SNIFF_BYTES = 65_536

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# The patterns below that scan a whole line admit one way to match each stretch of it (the
# heading text ends on a non-blank, a link text holds no bracket, a strong run stops at its
# next delimiter), so a hostile line costs linear time, not a backtracking scan per character.
_ATX = re.compile(
    r"^ {0,3}(?P<level>#{1,6})(?:[ \t]+(?P<text>(?:.*?[^ \t])??))?(?:[ \t]+#+)?[ \t]*$"
)
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BOLD_LINE = re.compile(r"^[ \t]*(\*\*|__)(?P<text>\S(?:.*?\S)?)\1[ \t]*+:?[ \t]*$")
_DELIMITER_CELL = re.compile(r"[ \t]*:?-+:?[ \t]*")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_LIST_OR_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?")
_FRONT_MATTER_ITEM = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)[ \t]*:[ \t]*(?P<value>.*)$")
_COMMENT = re.compile(r"<!--.*?-->")
_MARKUP_CHARS = re.compile(r"[<\[`*_~\\&]")
_SUP_TAG = re.compile(r"<sup\b[^<>]*>(.*?)</sup>", re.I)
_SUP_CLOSE = re.compile(r"</sup>", re.I)
_COMMENT_CLOSE = re.compile(r"-->")
_LINK_CLOSE = re.compile(r"\)")
_BR_TAG = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_IMAGE_OR_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^)]*\)")
_CODE = re.compile(r"`([^`]*)`")
_STRONG = re.compile(r"(\*\*|__|~~)(?=\S)((?:(?!\1).)+?)(?<=\S)\1")
_EMPHASIS_WHOLE = re.compile(r"^([*_])(?=\S)(.+?)(?<=\S)\1$")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PUBLISHED_KEYS = ("date", "published", "pubdate", "publishdate", "published_date", "created")
_UPDATED_KEYS = ("lastmod", "updated", "last_updated", "modified", "last_modified")


def render_inline(text: str) -> str:
    """Cell or line text as a reader sees it: markup, links and escapes gone, entities
    decoded, <sup> footnote digits as superscripts (so '6,044<sup>1</sup>' is '6,044¹')."""
    if not _MARKUP_CHARS.search(text):
        return text  # most cells are plain text
    text = sub_closed(_COMMENT, _COMMENT_CLOSE, "", text)
    text = sub_closed(
        _SUP_TAG, _SUP_CLOSE, lambda match: superscript(_TAG.sub("", match.group(1))), text
    )
    text = _BR_TAG.sub(" ", text)
    text = _TAG.sub("", text)
    text = sub_closed(_IMAGE_OR_LINK, _LINK_CLOSE, r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS_WHOLE.sub(r"\2", text)
    text = _ESCAPE.sub(r"\1", text)
    return html.unescape(text)


def sub_closed(pattern: re.Pattern[str], closer: re.Pattern[str], replacement, text: str) -> str:
    """`pattern.sub` on the text up to the last `closer`: an opener after it cannot close, and
    each such opener would otherwise cost a scan to the end of the line."""
    end = max((match.end() for match in closer.finditer(text)), default=0)
    return pattern.sub(replacement, text[:end]) + text[end:] if end else text


def is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


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


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# ---- the page's lines, sorted by role ------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    header: int  # index of the header line
    end: int  # index one past the last row


def _front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
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


def _hidden_lines(lines: list[str], start: int) -> set[int]:
    """Lines inside fenced code or a multi-line HTML comment."""
    hidden: set[int] = set(range(start))
    fence: str | None = None
    in_comment = False
    for index in range(start, len(lines)):
        line = lines[index]
        if fence is not None:
            hidden.add(index)
            if line.strip(" \t").startswith(fence):
                fence = None
            continue
        if in_comment:
            hidden.add(index)
            in_comment = "-->" not in line
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group(1)
            hidden.add(index)
        elif "<!--" in sub_closed(_COMMENT, _COMMENT_CLOSE, "", line):
            hidden.add(index)
            in_comment = True
    return hidden


def find_tables(lines: list[str], hidden: set[int]) -> list[_Table]:
    tables: list[_Table] = []
    index = 0
    while index + 1 < len(lines):
        if _starts_table(lines, index, hidden):
            end = index + 2
            while (
                end < len(lines)
                and end not in hidden
                and not is_blank(lines[end])
                and has_pipe(lines[end])
            ):
                end += 1
            tables.append(_Table(index, end))
            index = end
        else:
            index += 1
    return tables


def _starts_table(lines: list[str], index: int, hidden: set[int]) -> bool:
    if index + 1 >= len(lines):
        return False  # the last line: no delimiter row can follow (a footnote ending the page)
    line, below = lines[index], lines[index + 1]
    return (
        index not in hidden
        and index + 1 not in hidden
        and has_pipe(line)
        and _indent(line) < 4
        and not is_delimiter_row(line)
        and is_delimiter_row(below)
        and len(split_row(below)) == len(split_row(line))
    )


def _heading_text(lines: list[str], index: int, hidden: set[int]) -> str | None:
    """The heading a line states: '# ...', a setext heading or a line that is all bold."""
    line = lines[index]
    atx = _ATX.match(line)
    if atx:
        return render_inline(atx.group("text") or "").strip() or None
    bold = _BOLD_LINE.match(line)
    if bold and is_heading_like(render_inline(bold.group("text"))):
        return render_inline(bold.group("text")).strip()
    below = index + 1
    if (
        below < len(lines)
        and below not in hidden
        and _SETEXT.match(lines[below])
        and not is_blank(line)
        and not has_pipe(line)
        and _indent(line) < 4
    ):
        return render_inline(line).strip() or None
    return None


def _note_lines(lines: list[str], table: _Table, hidden: set[int]) -> list[int]:
    """The footnote lines right after a table (one blank line allowed between), same rule as
    text captures; each footnote line is one segment of the note."""
    index = table.end
    if index < len(lines) and is_blank(lines[index]):
        index += 1
    found = []
    while (
        index < len(lines)
        and index not in hidden
        and not is_blank(lines[index])
        and not _ATX.match(lines[index])
        and not _starts_table(lines, index, hidden)
        and looks_like_note(render_inline(lines[index]))
    ):
        found.append(index)
        index += 1
    return found


# ---- one table to cells --------------------------------------------------------------------


def _fit_cells(cells: list[str], width: int, profile: ColumnProfile | None) -> list[str] | None:
    """The row's cells under the header, or None when they cannot be placed with certainty."""
    if len(cells) == width:
        return cells
    if len(cells) > width and all(cell_kind(cell) == "blank" for cell in cells[width:]):
        return cells[:width]  # trailing empty cells past the header hold nothing
    gap = realign_position(cells, profile) if profile is not None else None
    if gap is None:
        return None
    return [*cells[:gap], "", *cells[gap:]]


def table_cells(
    lines: list[str], table: _Table, table_index: int, title: str | None, note: str | None
) -> tuple[list[tuple], list[ParseProblem]]:
    names = [render_inline(cell) for cell in split_row(lines[table.header])]
    columns = [name.strip() for name in names]  # the header text stripped, as text captures do
    width = len(names)
    rows = [
        (table_index, title, note, 0, column, columns[column], name, table.header + 1)
        for column, name in enumerate(names)
    ]
    folded_header = [fold_header_text(name) for name in names]
    body = []
    for index in range(table.header + 2, table.end):
        cells = [render_inline(cell) for cell in split_row(lines[index])]
        if [fold_header_text(cell) for cell in cells] == folded_header:
            continue  # the header repeated inside the body
        if is_delimiter_row(lines[index]):
            continue
        body.append((index, cells))
    complete = [cells for _, cells in body if len(cells) == width]
    # Only a row that does not fit needs the columns' type pattern.
    profile = profile_columns(complete, width) if len(complete) < len(body) else None
    problems = []
    for row_number, (index, cells) in enumerate(body, start=1):
        fitted = _fit_cells(cells, width, profile)
        if fitted is None:
            problems.append(width_problem(table_index, title, row_number, cells, width, index + 1))
            continue
        rows.extend(
            (table_index, title, note, row_number, column, columns[column], text, index + 1)
            for column, text in enumerate(fitted)
        )
    return rows, problems


# ---- the page ------------------------------------------------------------------------------


def _prose_text(line: str) -> str:
    atx = _ATX.match(line)
    if atx:
        return render_inline(atx.group("text") or "").strip()
    return render_inline(_LIST_OR_QUOTE.sub("", line, count=1)).strip()


def _metadata(
    front: dict[str, str], headings: Sequence[tuple[int, int, str]], prose: list[str]
) -> DocumentMetadata:
    first_h1 = next((text for _, level, text in headings if level == 1), None)
    dates = find_dates(prose)
    published = next((machine_date(front[k]) for k in _PUBLISHED_KEYS if k in front), None)
    updated = next((machine_date(front[k]) for k in _UPDATED_KEYS if k in front), None)
    author = front.get("author") or front.get("authors")
    return DocumentMetadata(
        title=front.get("title") or first_h1 or find_title(prose),
        author=author.strip("[]'\" ") if author else find_author(prose),
        published_date=published or dates["published_date"],
        last_updated_date=updated or dates["last_updated_date"],
    )


def _headings(lines: list[str], hidden: set[int], taken: set[int]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of every heading; a bold line counts as level 7."""
    found = []
    for index in range(len(lines)):
        if index in hidden or index in taken:
            continue
        text = _heading_text(lines, index, hidden)
        if text:
            atx = _ATX.match(lines[index])
            found.append((index, len(atx.group("level")) if atx else 7, text))
    return found


def parse_pipe_tables(text: str) -> ParsedDocument:
    """Parse a Markdown page into pipe-table cells, prose lines and page metadata."""
    lines = split_lines(text.removeprefix("\ufeff"))
    front, start = _front_matter(lines)
    hidden = _hidden_lines(lines, start)
    tables = find_tables(lines, hidden)
    taken = {index for table in tables for index in range(table.header, table.end)}
    headings = _headings(lines, hidden, taken)
    rows: list[tuple] = []
    problems: list[ParseProblem] = []
    for table_index, table in enumerate(tables):
        title = next((t for i, _, t in reversed(headings) if i < table.header), None)
        note_lines = _note_lines(lines, table, hidden)
        note = NOTE_LINE_SEPARATOR.join(render_inline(lines[i]).strip() for i in note_lines)
        found, trouble = table_cells(lines, table, table_index, title, note or None)
        rows.extend(found)
        problems.extend(trouble)
        taken.update(note_lines)
    problems += _stray_rows(lines, hidden, taken)
    underlines = {
        index + 1
        for index, level, _ in headings
        if level == 7 and index + 1 < len(lines) and _SETEXT.match(lines[index + 1])
    }
    prose = [
        (index + 1, _prose_text(line))
        for index, line in enumerate(lines)
        if index not in hidden
        and index not in taken
        and index not in underlines
        and not _THEMATIC_BREAK.match(line)
        and _prose_text(line)
    ]
    return ParsedDocument(
        cells=cells_frame(rows),
        metadata=_metadata(front, headings, [text for _, text in prose]),
        prose=prose,
        problems=problems,
    )


def _stray_rows(lines: list[str], hidden: set[int], taken: set[int]) -> list[ParseProblem]:
    """Lines written as table rows (`| a | b |`) that belong to no table: a row cut off from
    its table by a line of text, or a table without its `|---|` row. Read as text, each is
    also reported, so that no row of numbers passes unnoticed."""
    return [
        ParseProblem(
            check="pipe_row_outside_table",
            reason=(f"line {index + 1} is written as a table row of {len(split_row(line))} "
                    "cells but belongs to no table (no header and |---| row right above it); "
                    "it was read as text"),
            line_number=index + 1,
            raw=line.strip(" \t"),
        )
        for index, line in enumerate(lines)
        if index not in taken and index not in hidden and _looks_like_row(line)
    ]


def _looks_like_row(line: str) -> bool:
    body = line.strip(" \t")
    return (_indent(line) < 4 and len(body) > 2 and body.startswith("|") and body.endswith("|")
            and not body.endswith("\\|") and len(split_row(line)) >= 2
            and not is_delimiter_row(line))


def sniff_pipe_tables(data: bytes, content_type: str | None) -> float:
    """High when a block of the page is mostly pipe rows under a delimiter row."""
    head = data[:SNIFF_BYTES].replace(b"\x00", b"")
    if b"|" not in head:
        return 0.0  # every table row, the delimiter row included, holds a pipe
    lowered = head.lower()
    if b"<html" in lowered or b"<!doctype html" in lowered or b"<table" in lowered:
        return 0.05
    lines = split_lines(head.decode("utf-8", errors="replace"))
    tables = find_tables(lines, _hidden_lines(lines, _front_matter(lines)[1]))
    if not tables:
        return 0.0
    bonus = 0.1 if content_type and "markdown" in content_type.lower() else 0.0
    return round(bonus + (0.7 if any(_mostly_pipes(lines, t) for t in tables) else 0.3), 2)


def _mostly_pipes(lines: list[str], table: _Table) -> bool:
    """Whether the table's rows are at least half of the block of lines around it."""
    first = table.header
    while first > 0 and not is_blank(lines[first - 1]):
        first -= 1
    last = table.end
    while last < len(lines) and not is_blank(lines[last]):
        last += 1
    return (table.end - table.header) * 2 >= last - first


LAYOUT = Layout(name="pipe_table", sniff=sniff_pipe_tables, parse=parse_pipe_tables)
