"""A cell that is one value after its name, the name as long as a column header ("Output
token throughput: 1234.5 tok/s", "Mean TTFT (ms): 120.4", "Request throughput (req/s):
3.21"): the form serving benchmarks print their results in, pasted into a table. A unit in
brackets at the end of the name is the value's unit."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# A name: a word first (never a number), then up to a header's length of anything but the
# separators. schemas/named_cells.py plans a column of such cells by the same shape.
ONE_VALUE_NAME = r"[^\W\d][^:=\uff1a\n]{0,40}?"
_ONE_NAMED = re.compile(
    rf"^\s*(?P<name>{ONE_VALUE_NAME})\s*[:=\uff1a]\s*(?P<value>[~+-]?\d[^:=\uff1a]*)$"
)
# A name of words alone before its value and a space ("latency 5.093 ms", as a "Metric"
# column of results writes them): read only where its words name a metric.
SPACED_NAME = r"[^\W\d][\w-]*(?: [^\W\d][\w-]*){0,2}"
_SPACED = re.compile(rf"^\s*(?P<name>{SPACED_NAME})\s+(?P<value>[~+-]?\d[^:=\uff1a]*)$")
_UNIT_IN_BRACKETS = re.compile(r"[(\[]\s*([^()\[\]\d][^()\[\]]{0,15}?)\s*[)\]]$")
_DECIMALS = re.compile(r"\d[.,]\d")


def one_named_value(
    text: str, read_one: Callable[[str], Any], names_metric: Callable[[str], bool]
) -> Any | None:
    """`read_one`'s reading of the value after the name, the name its qualifier; None unless
    the cell is such a name and one value with a unit (its own or the name's) or decimals,
    nothing else: "TP size: 8" names a setting, not a result. A name before a space counts
    only where `names_metric` says it names a metric."""
    match = _ONE_NAMED.match(text)
    if match is None:
        match = _SPACED.match(text)
        if match is None or not names_metric(match.group("name")):
            return None
    name, written = match.group("name").strip(), match.group("value").strip()
    reading = read_one(written)
    if len(reading.values) != 1:
        return None
    value = reading.values[0]
    if value.rest or value.qualifier:
        return None
    bracket = _UNIT_IN_BRACKETS.search(name)
    if value.unit is None and bracket is not None:
        with_unit = read_one(f"{written} {bracket.group(1)}")
        if len(with_unit.values) == 1 and with_unit.values[0].unit is not None:
            reading, value = with_unit, with_unit.values[0]
            if value.rest or value.qualifier:
                return None
    if value.unit is None and not _DECIMALS.search(written):
        return None
    return reading._replace(values=(value._replace(qualifier=name),))


# The values of a cell parted by commas or semicolons, each after its name ("RTFx 340, CER
# 8.20%"): a name is a word first, never a number.
_PARTS = re.compile(r"\s*[;,]\s+(?=[^\W\d])")


def named_in_turn(
    text: str, read_one: Callable[[str], Any], names_metric: Callable[[str], bool]
) -> Any | None:
    """The readings of a cell's values each written after its name or unit ("RTFx 340, CER
    8.20%", as FunASR's benchmark notes write a run's speed and accuracy), joined; None
    unless every part is one such value."""
    parts = _PARTS.split(text)
    if len(parts) < 2:
        return None
    joined = []
    for part in parts:
        reading = read_one(part)  # "RTFx 340": the unit named first
        values = reading.values
        if len(values) != 1 or values[0].unit is None or values[0].rest:
            reading = one_named_value(part, read_one, names_metric)  # "CER 8.20%"
            if reading is None:
                return None
        joined.append(reading)
    return joined[0]._replace(values=tuple(value for each in joined for value in each.values))
