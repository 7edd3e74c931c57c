"""Render query results for a terminal (aligned table) or for programs (CSV, JSON)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from decimal import Decimal

from perfledger.warehouse.cell_text import inert, number_text
from perfledger.warehouse.query import json_ready

FORMATS = ("table", "csv", "json")
MAX_WIDTH = 48  # characters of a table cell; a longer one is cut and ends in ELLIPSIS
ELLIPSIS = "\u2026"


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, Decimal):
        return format(value, "f")  # as the column's scale gives it, never through a float
    return str(json_ready(value))


def _cut(text: str, max_width: int) -> str:
    """At most max_width characters (0: no limit); a cut one ends in an ellipsis."""
    if max_width <= 0 or len(text) <= max_width:
        return text
    return text[: max_width - 1] + ELLIPSIS


def render(
    columns: Sequence[str], rows: Sequence[Sequence], fmt: str, max_width: int = MAX_WIDTH
) -> str:
    if fmt == "json":
        return json.dumps(
            [{c: json_ready(v) for c, v in zip(columns, row, strict=True)} for row in rows],
            ensure_ascii=False,
            indent=1,
            default=str,
        )
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([inert(_cell_text(v)) for v in row])
        return buffer.getvalue().rstrip("\n")
    texts = [[_cut(_cell_text(v).replace("\n", " "), max_width) for v in row] for row in rows]
    widths = [max([len(str(c))] + [len(t[i]) for t in texts]) for i, c in enumerate(columns)]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(columns, widths, strict=True)),
        "  ".join("-" * w for w in widths),
    ]
    lines += ["  ".join(t.ljust(w) for t, w in zip(row, widths, strict=True)) for row in texts]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)
