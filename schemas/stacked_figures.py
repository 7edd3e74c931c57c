"""A cell holding two figures of one run written one under the other ("90.8 fps<br>11 ms",
"385 fps<br><br>2.9 ms @ 30Hz"): a rate and the time each item takes, each with its unit,
the line break read as a space. The second names its own metric by its unit, as a value in
brackets after the first does; words after an "@" at the end ("@ 30Hz", the rate the input
was played at) are its remark."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from perfledger.schemas.units import unit_named

# Where the second figure starts: a space or a slash, then its number ("6.7G / 1.0s/it").
_BREAK = re.compile(r"(?:\s*/\s*|\s+)(?=[~\u2248]?\d)")
# The condition the last figure was measured under: "@ 30Hz", "@ 1080p".
_AT_REMARK = re.compile(r"\s+@\s?(?P<remark>[^@]{1,30})$")


def stacked_figures(text: str, read_one: Callable[[str], Any]) -> tuple[Any, Any, list] | None:
    """The two values of such a cell (the second with its remark) and the readings they
    came from; None unless the cell is two numbers, each with a unit and nothing else, the
    units of different kinds ("12 ms 15 ms" is no such pair)."""
    remark = None
    at = _AT_REMARK.search(text)
    if at is not None:
        remark, text = f"@ {at.group('remark').strip()}", text[: at.start()]
    breaks = list(_BREAK.finditer(text))
    if len(breaks) != 1:
        return None
    split = breaks[0]
    readings = [read_one(text[: split.start()]), read_one(text[split.end() :])]
    values = [_sized(reading.values[0]) for reading in readings if len(reading.values) == 1]
    if len(values) != 2 or any(
        value.unit is None or value.rest or value.qualifier or value.spelled for value in values
    ):
        return None
    first, second = values
    if first.unit.kind == second.unit.kind:
        return None
    return first, second._replace(qualifier=remark), readings


# A memory written with its magnitude letter alone ("6.7G / 1.0s/it", the GPU memory a step
# took and its time): beside a figure of another kind, the letter is of bytes.
_MAGNITUDES = frozenset("KMGT")


def _sized(value: Any) -> Any:
    if value.unit is None and value.rest in _MAGNITUDES:
        return value._replace(unit=unit_named(f"{value.rest}B"), rest=None)
    return value
