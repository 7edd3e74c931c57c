"""A cell stating one value held by each of several devices: the count first ("8*64GB": 64 GB on
each of 8) or after the value ("128*8", "29.1*8" under "Power (W)", "Memory utilization (G)": 128
W on each of 8 cards, the unit the header's). The count is no value of its own."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# The count first, then the value with its unit; or the value, then a count of up to two digits
# after a star or a multiplication sign (not an "x": "2x8" may be a shape, "1.5x" a speedup).
_COUNT_FIRST = re.compile(r"^(?P<count>\d{1,4})\s*[*x\u00d7]\s*(?P<each>\d.*)$")
_COUNT_AFTER = re.compile(r"^(?P<each>\d+(?:[.,]\d+)?)\s*[*\u00d7]\s*(?P<count>[1-9]\d?)$")


def value_each(text: str, read_one: Callable[[str], Any]) -> Any | None:
    """`read_one`'s reading of the value each device holds, remarked "each of N"; None unless
    the cell is such a value: with its unit when the count comes first, alone when after."""
    after = _COUNT_AFTER.match(text)
    match = after or _COUNT_FIRST.match(text)
    if match is None:
        return None
    reading = read_one(match.group("each"))
    if reading.problem is not None or len(reading.values) != 1:
        return None
    value = reading.values[0]
    if (value.unit is None and after is None) or value.rest or value.qualifier:
        return None
    return reading._replace(values=(value._replace(qualifier=f"each of {match.group('count')}"),))
