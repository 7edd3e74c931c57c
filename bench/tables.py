"""A generated results table as its layouts render it, and the printed numbers in its cells."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

# Between the levels of a two-row header, as the ingest joins them into a column name.
HEADER_LEVEL_SEPARATOR = " / "
# A metric cell reading like a precision label ("16.32") is quarantined as a shifted row,
# so the generator never prints one where a value belongs.
_PRECISION_LIKE = re.compile(r"^(?:8|16|32)\.(?:8|16|32)$")


class Expected(NamedTuple):
    """What a correct pipeline reads from one published metric cell."""

    metric: str
    value: float  # in the metric's canonical unit
    unit: str


@dataclass
class Table:
    title: str  # the section heading above the table
    intro: str
    headers: tuple[str, ...]  # with two header levels, "Top / Sub" (or one level's text)
    rows: list[list[str]]  # "" is an empty cell
    note: str | None = None
    # A second heading between the title and the table, naming what no cell names (the
    # system, its chip count, the precision), as NVIDIA's and AMD's pages put it.
    context: str | None = None
    # A short line right above the table ("FP16 Inference Latency"), after the intro.
    caption: str | None = None
    header_levels: int = 1
    layout: str = "tablepress"  # the seed layout, or one of bench.vendor_layouts.LAYOUTS
    # (row number from 1, column index) -> the reading of each metric cell. None: the
    # seed layout, whose cells are read through their header (generate.derive_value).
    expected: dict[tuple[int, int], Expected] | None = None


def format_count(value: float, decimals: int = 0) -> str:
    return f"{value:,.{decimals}f}"


def draw_number(rng: random.Random, low: float, high: float, decimals: int) -> str:
    """A printed number in [low, high], never one that reads like a precision label."""
    while True:
        text = format_count(rng.uniform(low, high), decimals)
        if not _PRECISION_LIKE.match(text) and float(text.replace(",", "")) > 0:
            return text


def print_number(value: float, decimals: int, separators: bool = True) -> str:
    """`value` printed, nudged up by its last digit where it would print as zero or as a
    precision label."""
    step = 10.0**-decimals
    while True:
        text = format_count(value, decimals)
        if not separators:
            text = text.replace(",", "")
        if not _PRECISION_LIKE.match(text) and float(text.replace(",", "")) > 0:
            return text
        value += step


def scaled(text: str, factor: str = "1") -> float:
    """A printed number times a unit's factor, computed in decimal as a reader would."""
    return float(Decimal(text.replace(",", "")) * Decimal(factor))
