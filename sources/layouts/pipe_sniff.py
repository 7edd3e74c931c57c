"""Whether a page's bytes are a Markdown page of pipe tables: the pipe table layout's sniff."""

from __future__ import annotations

import re

from perfledger.sources.layouts.markdown_blocks import (
    ATX_HEADING,
    PipeTable,
    find_tables,
    front_matter,
    hidden_lines,
    is_blank,
    starts_table,
)
from perfledger.sources.layouts.page_text import split_lines

SNIFF_BYTES = 65_536


def sniff_pipe_tables(data: bytes, content_type: str | None) -> float:
    """High when a block of the page is mostly pipe rows under a delimiter row, or when a page
    that reads as Markdown holds HTML tables; low for an HTML document."""
    head = data[:SNIFF_BYTES].replace(b"\x00", b"")
    lowered = head.lower()
    if b"<html" in lowered or b"<!doctype html" in lowered or b"<body" in lowered:
        return 0.05
    holds_html_table = b"<table" in lowered
    markdown_type = bool(content_type) and "markdown" in content_type.lower()
    if _MYST_TABLE.search(head):
        return round(0.7 + (0.1 if markdown_type else 0.0), 2)  # a MyST table directive
    if b"|" not in head and not holds_html_table:
        # Every pipe table row, the delimiter row included, holds a pipe: none in the head.
        return 0.6 if markdown_type or _table_past(data, SNIFF_BYTES) else 0.0
    lines = split_lines(head.decode("utf-8", errors="replace"))
    front, start = front_matter(lines)
    hidden = hidden_lines(lines, start)
    tables = find_tables(lines, hidden)
    bonus = 0.1 if markdown_type else 0.0
    if holds_html_table:
        # The HTML layout scores a page holding a <table> 0.8: a README with HTML tables in
        # its Markdown is this layout's, a fragment of HTML is not.
        markdown = markdown_type or bool(tables or front) or _has_atx_heading(lines, hidden)
        return round(0.85 + bonus, 2) if markdown else 0.05
    if tables:
        return round(bonus + (0.7 if any(_mostly_pipes(lines, t) for t in tables) else 0.3), 2)
    # No table in the head: a page declared Markdown is this layout's wherever its tables
    # are (after 64 KiB of prose, or under a header row longer than the head); another
    # page is, when a table starts past the head.
    if markdown_type or _table_past(data, SNIFF_BYTES):
        return 0.6
    return 0.0


_MYST_TABLE = re.compile(rb"(?m)^ {0,3}(?:`{3,}|~{3,}|:{3,})\{(?:list-table|csv-table|table)\}")
_DELIMITER_LINE = re.compile(rb"(?m)^[ \t]{0,3}\|?[ \t]*:?-+:?[ \t]*\|[-:| \t]*$")
MAX_LATE_CANDIDATES = 64  # delimiter-like lines past the head looked at, at most


def _table_past(data: bytes, start: int) -> bool:
    """Whether a pipe table's header and |---| rows stand past `start` of the page: a few
    delimiter-like lines are looked for in C, and each checked with the line above it."""
    if len(data) <= start:
        return False
    for count, found in enumerate(_DELIMITER_LINE.finditer(data, start)):
        if count >= MAX_LATE_CANDIDATES:
            return False
        above_end = found.start() - 1
        if above_end < 0 or data[above_end : above_end + 1] != b"\n":
            continue
        above_start = data.rfind(b"\n", 0, above_end) + 1
        pair = data[above_start : found.end()].replace(b"\x00", b"")
        lines = split_lines(pair.decode("utf-8", errors="replace"))
        if len(lines) >= 2 and starts_table(lines[-2:], 0, set()):
            return True
    return False


def _has_atx_heading(lines: list[str], hidden: set[int]) -> bool:
    return any(
        index not in hidden
        and (match := ATX_HEADING.match(line)) is not None
        and match.group("text")
        for index, line in enumerate(lines)
    )


def _ends_block(line: str) -> bool:
    return is_blank(line) or ATX_HEADING.match(line) is not None


def _mostly_pipes(lines: list[str], table: PipeTable) -> bool:
    """Whether the table's rows are at least half of the block of lines around it; a heading
    ends a block as a blank line does (tables stacked under headings, no blank line between)."""
    first = table.header
    while first > 0 and not _ends_block(lines[first - 1]):
        first -= 1
    last = table.end
    while last < len(lines) and not _ends_block(lines[last]):
        last += 1
    return (table.end - table.header) * 2 >= last - first
