"""The rows of a Markdown pipe table: `| a | b |`, and the `|---|:---:|` row under its header."""

from __future__ import annotations

import re

_DELIMITER_CELL = re.compile(r"[ \t]*:?-+:?[ \t]*")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


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


def is_rule_row(raw: list[str], width: int) -> bool:
    """A row of dashes alone the page draws between groups of rows, holding no value: a
    short one ("|-", "| - |") under a table of more columns, or one whose every cell is a
    long run of them ("| \\---------- | \\-------- |", escaped so as not to read as the
    delimiter row), where a missing value would be one dash beside a row's label."""
    if width < 2 or not raw:
        return False
    if all(_LONG_RULE.fullmatch(cell.strip()) for cell in raw):
        return True
    return (
        len(raw) < width
        and all(not cell.strip() or set(cell.strip()) == {"-"} for cell in raw)
        and any(cell.strip() for cell in raw)
    )


_LONG_RULE = re.compile(r"\\?-{3,}")
