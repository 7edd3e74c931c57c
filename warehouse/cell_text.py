"""A value as text a person or a spreadsheet reads: every digit of a number, none invented,
and text that starts like a formula kept inert. Shared by the CLI's output, the exports and
the report."""

from __future__ import annotations

import math
from decimal import Decimal

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Magnitudes a person reads written out in full; beyond them the exponent form is shorter
# and no digit is lost either way.
_POSITIONAL_RANGE = (1e-6, 1e16)


def number_text(value: float | int) -> str:
    """Every digit of a number, none invented: for a float, Python's shortest round-tripping
    digits, written out (3521863, 93083.8125, 0.00001) unless tiny or huge (1e-07, 1e+16)."""
    if isinstance(value, int):
        return str(value)
    shortest = repr(value)
    low, high = _POSITIONAL_RANGE
    if not math.isfinite(value) or not (value == 0 or low <= abs(value) < high):
        return shortest
    text = format(Decimal(shortest), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def inert(text: str) -> str:
    """Spreadsheets run cells that start like a formula; a leading quote keeps them text."""
    return "'" + text if text.startswith(_FORMULA_START) and not _is_number(text) else text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
