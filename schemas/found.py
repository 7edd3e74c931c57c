"""A label read from a table's context, with where it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Found:
    """A label and where it came from: row, section, column, caption, heading, note,
    paragraph or title."""

    # A PlatformMention (platform, count), a Precision, a Unit, a str (metric, statistic,
    # workload) or the {part word: Precision} of "precision_of_part", as the name says.
    value: Any
    source: str
    # A metric named only as a mode's name ("High-Throughput (flat)", "Low-Latency kernels"):
    # a unit the context states of another dimension says what its numbers measure.
    as_mode: bool = False
