"""Cells naming the metric of the number they hold ("TTFT: 27.0s", "Input throughput: 22424
tps/card"): under a header naming the run compared ("PP (Static Chunk)"), whatever setting
its words also name, such cells are results."""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.one_named_value import ONE_VALUE_NAME, SPACED_NAME

# A name, a colon or an equals sign (or, for a name of words alone, a space), then a number:
# the shape `cell_reading` reads a named value in. Searched by polars over every body cell;
# the cells it keeps ("SDK 3.0" too) are read in Python once per distinct text.
NAMED_NUMBER = rf"^\s*(?:{ONE_VALUE_NAME}[:=\uff1a]|{SPACED_NAME}\s)\s*[~+-]?\d"
_NAME = re.compile(rf"^\s*(?:([^:=\uff1a]+?)\s*[:=\uff1a]|({SPACED_NAME})\s+[~+-]?\d)")


@lru_cache(maxsize=16_384)
def names_its_metric(text: str) -> bool:
    """Whether a cell of NAMED_NUMBER's shape names a metric before its number."""
    match = _NAME.match(text)
    return match is not None and read_header(match.group(1) or match.group(2)).names_metric


def names_metrics(stats) -> bool:
    """Whether most cells of a column (its `ColumnStats`) name the metric of their number."""
    return stats.named * 2 > stats.filled
