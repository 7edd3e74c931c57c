"""Cells naming the metric of the number they hold ("TTFT: 27.0s", "Input throughput: 22424
tps/card"): under a header naming the run compared ("PP (Static Chunk)"), whatever setting
its words also name, such cells are results."""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.one_named_value import ONE_VALUE_NAME

# A name, a colon or an equals sign, then a number: the shape `cell_reading` reads a named
# value in. Searched by polars over every body cell, so it is cheap to reject.
NAMED_NUMBER = rf"^\s*{ONE_VALUE_NAME}[:=\uff1a]\s*[~+-]?\d"
_NAME = re.compile(r"^\s*([^:=\uff1a]+?)\s*[:=\uff1a]")


@lru_cache(maxsize=16_384)
def names_its_metric(text: str) -> bool:
    """Whether a cell of NAMED_NUMBER's shape names a metric before its number."""
    match = _NAME.match(text)
    return match is not None and read_header(match.group(1)).names_metric


def names_metrics(stats) -> bool:
    """Whether most cells of a column (its `ColumnStats`) name the metric of their number."""
    return stats.named * 2 > stats.filled
