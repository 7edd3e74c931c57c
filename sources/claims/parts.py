"""The parts of a sentence its readers locate: the vocabulary's mentions, the numbers that
may carry a ratio and the words that compare without one. They live apart from sources/claims/records.py, whose sentence
record calls those readers, so that the readers and the record name one class each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Mention:
    start: int  # -1 when the party comes from the page around the sentence
    end: int
    canonical: str  # the vocabulary's name; the words as published when it has none
    text: str
    known: bool = True  # whether a vocabulary resolved it


@dataclass(frozen=True)
class Anchor:
    """A number that may carry a ratio: "3.4x", "31%", "half", "an order of magnitude"."""

    start: int
    end: int
    value: float
    unit: str  # "multiplier" | "percent" | "fraction"
    ends_range: bool = False  # the number ends a range ("2-3x"): the anchor spans it
    low: float | None = None  # the range's lower end


@dataclass(frozen=True)
class Trigger:
    """Words that compare without a number: "outperforms", "ahead of", "advantage over"."""

    start: int
    end: int
    slot_start: int  # where the baseline is named
    form: str
    metric: Mention | None = None


class Mentions(list):
    """Mentions in text order, with their starts kept for bisection."""

    def __init__(self, items: Iterable[Mention] = ()) -> None:
        super().__init__(items)
        self.starts = [m.start for m in self]
