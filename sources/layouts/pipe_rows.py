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
    """A short row of dashes alone ("|-", "| - |") under a table of more columns: a rule the
    page draws between groups of rows, holding no value."""
    return (
        width >= 2
        and 0 < len(raw) < width
        and all(not cell.strip() or set(cell.strip()) == {"-"} for cell in raw)
        and any(cell.strip() for cell in raw)
    )
