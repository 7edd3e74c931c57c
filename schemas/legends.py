"""Keys a page defines in a list near its tables and uses in their headers: "A - Intel Core
i9-9000K (AVX2)", "B: Xeon 6338", then columns headed "A, INT8", "B, INT8". A header holding
such a key names the hardware its definition names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.platform_mentions import PlatformMention, read_platform, unknown_device

# "A - text", "B: text", "(C) text", "D = text": a key of at most three capitals or digits.
_DEFINITION = re.compile(
    r"^\s*(?:[*\u2022-]\s+)?\(?(?P<key>[A-Z][A-Z0-9]{0,2}|[0-9]{1,2})\)?\s*"
    r"(?:[-\u2013\u2014:=]|(?<=\)))\s+(?P<text>\S.{2,})$")
_LEAD = re.compile(r"[^,(;]{2,60}")  # "Intel Core i9-9000K" of "Intel Core i9-9000K (AVX2), INT8"
_TOKEN = re.compile(r"[A-Za-z0-9]+")
MIN_KEYS = 2  # one line of "A - ..." is a sentence, not a legend


@lru_cache(maxsize=16_384)
def _definition(paragraph: str) -> tuple[str, str] | None:
    match = _DEFINITION.match(clean_text(paragraph))
    if match is None:
        return None
    return match.group("key"), match.group("text")


def legend_of(paragraphs: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(key, definition) of each key the paragraphs define, nearest first (the paragraphs
    come nearest first; a key defined twice keeps its nearest definition), when they define
    at least MIN_KEYS keys that each name hardware."""
    found: dict[str, str] = {}
    for paragraph in paragraphs:
        definition = _definition(paragraph)
        if definition is not None and definition[0] not in found:
            found[definition[0]] = definition[1]
    hardware = sum(1 for definition in found.values() if names_hardware(definition))
    # A list whose other keys name hardware defines hardware with each key, known or not.
    return tuple(found.items()) if len(found) >= MIN_KEYS and hardware * 2 >= len(found) else ()


@lru_cache(maxsize=16_384)
def names_hardware(text: str) -> bool:
    mention = read_platform(text)
    return (mention is not None and mention.accelerator is not None) \
        or unknown_device(text) is not None


@lru_cache(maxsize=16_384)
def _platform_of(definition: str) -> PlatformMention | None:
    mention = read_platform(definition)
    if mention is not None and mention.accelerator is not None:
        return mention
    named = _LEAD.match(clean_text(definition))
    return unknown_device(definition) or PlatformMention(
        named.group(0).strip() if named else definition, names_device=True)


def legend_platform(header: str, legend: tuple[tuple[str, str], ...]) -> PlatformMention | None:
    """The platform a header names through a legend key it holds as a word of its own."""
    if not legend:
        return None
    words = set(_TOKEN.findall(header))
    for key, definition in legend:
        if key in words:
            return _platform_of(definition)
    return None
