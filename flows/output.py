"""Render query results for a terminal (aligned table) or for programs (CSV, JSON)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from warehouse.query import json_ready

FORMATS = ("table", "csv", "json")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e15 else repr(value)
    return str(json_ready(value))


def _inert(text: str) -> str:
    """Spreadsheets run cells that start like a formula; a leading quote keeps them text."""
    return "'" + text if text.startswith(_FORMULA_START) and not _is_number(text) else text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def render(columns: Sequence[str], rows: Sequence[Sequence], fmt: str, max_width: int = 48) -> str:
    if fmt == "json":
        return json.dumps(
            [{c: json_ready(v) for c, v in zip(columns, row, strict=True)} for row in rows],
            ensure_ascii=False, indent=1, default=str,
        )
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_inert(_cell_text(v)) for v in row])
        return buffer.getvalue().rstrip("\n")
    texts = [[_cell_text(v).replace("\n", " ")[:max_width] for v in row] for row in rows]
    widths = [
        max([len(str(c))] + [len(t[i]) for t in texts]) for i, c in enumerate(columns)
    ]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(columns, widths, strict=True)),
        "  ".join("-" * w for w in widths),
    ]
    lines += ["  ".join(t.ljust(w) for t, w in zip(row, widths, strict=True)) for row in texts]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)
