"""Chips a table names by a bare model number, read with the table's words.

Some chip names are certain only beside their family or brand: "4090" and "3090Ti" are
GeForce cards beside "RTX" or "GPUs", "310P3" an Ascend chip beside "Ascend" or "芯片"
(chip). schemas/vocab/chips.csv gives such a rule the words it `requires`. In a table the
name stands alone in its header or cell, and those words stand in the table's caption,
heading, the paragraph above it or another header: they are its `nearby` words. A header
that is a bare number names a chip only beside another header naming one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache, lru_cache

from perfledger.schemas.chip_vocabulary import vocabulary, word_start_of
from perfledger.schemas.folding import MAX_READ_CHARS, fold_words
from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.platform_mentions import read_platform


@cache
def _required_words() -> re.Pattern[str] | None:
    sources = sorted({rule.requires_source for rule in vocabulary().rules if rule.requires_source})
    if not sources:
        return None
    # the whole word a required word begins: "machines", not the "mac" found first in it
    alternatives = "|".join(f"(?:{s})" for s in sources)
    return re.compile(rf"{word_start_of(sources)}(?:{alternatives})[a-z0-9]*")


@lru_cache(maxsize=16_384)
def _words_of(text: str) -> frozenset[str]:
    pattern = _required_words()
    if pattern is None or not text:
        return frozenset()
    return frozenset(m.group(0) for m in pattern.finditer(fold_words(text[:MAX_READ_CHARS])))


def nearby_words(texts: Iterable[str | None]) -> str:
    """The words of `texts` some chip rule requires, as one text ("" when none)."""
    found: set[str] = set()
    for text in texts:
        if text:
            found |= _words_of(text)
    return " ".join(sorted(found))


def with_table_chips(readings: Sequence[HeaderReading], nearby: str) -> list[HeaderReading]:
    """The headers' readings, a header naming no chip alone read with the table's words."""
    if not nearby:
        return list(readings)
    found = [
        None
        if _names_chip(reading) or not _may_need_words(reading.text)
        else _chip_near(reading.text, nearby)
        for reading in readings
    ]
    worded = [  # chips named by more than a number, alone or with the table's words
        index
        for index, reading in enumerate(readings)
        if _names_chip(reading) or (found[index] is not None and not reading.is_number)
    ]
    result = []
    for index, reading in enumerate(readings):
        mention = found[index]
        if mention is None or (reading.is_number and not set(worded) - {index}):
            result.append(reading)
        else:
            result.append(replace(reading, platform=mention, is_number=False))
    return result


@cache
def _needing_words() -> re.Pattern[str] | None:
    """Where some rule that requires words nearby may match: only there can the table's
    words make a chip of a header that names none alone."""
    sources = [rule.source for rule in vocabulary().rules if rule.requires_source]
    if not sources:
        return None
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(f'(?:{s})' for s in sources)})")


@lru_cache(maxsize=16_384)
def _may_need_words(text: str) -> bool:
    pattern = _needing_words()
    return bool(text) and pattern is not None and pattern.search(fold_words(text)) is not None


def _names_chip(reading: HeaderReading) -> bool:
    return reading.platform is not None and reading.platform.accelerator is not None


@lru_cache(maxsize=16_384)
def _chip_near(text: str, nearby: str):
    if not text:
        return None
    mention = read_platform(text, nearby=nearby)
    return mention if mention is not None and mention.accelerator is not None else None
