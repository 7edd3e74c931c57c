"""Abbreviations a page defines in its prose ("acceptance length (AL)", "output tokens per
second (OTPS)") and then uses alone in a caption or heading ("P-EAGLE (AL):" over a table):
the short text says what the long form says."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from perfledger.schemas.header_reading import reads_as_unknown

# An abbreviation in brackets after the words it abbreviates: capitals, a plural's "s".
_BRACKETED = re.compile(r"\(([A-Z][A-Za-z]{1,7}?)s?\)")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
# Words an abbreviation may leave out ("tokens per second": TPS).
_SMALL_WORDS = frozenset({"to", "of", "per", "the", "a", "an", "and", "for", "in", "on", "by"})
_MAX_EXTRA_WORDS = 3
SHORT_TEXT_CHARS = 100  # a caption or heading, not a paragraph of prose


@lru_cache(maxsize=16_384)
def _defined_in(paragraph: str) -> tuple[tuple[str, str], ...]:
    """(abbreviation, long form) of each abbreviation the paragraph defines."""
    found = []
    for match in _BRACKETED.finditer(paragraph):
        abbreviation = match.group(1)
        long_form = _long_form(paragraph[max(0, match.start() - 120) : match.start()], abbreviation)
        if long_form is not None:
            found.append((abbreviation, long_form))
    return tuple(found)


def _long_form(before: str, abbreviation: str) -> str | None:
    """The words right before the brackets whose initials the abbreviation is, all of them or
    all but the small words; None when no run of them ends there."""
    letters = abbreviation.casefold()
    words = _WORD.findall(before)
    for count in range(len(letters), len(letters) + _MAX_EXTRA_WORDS + 1):
        if count > len(words):
            return None
        run = words[-count:]
        if run[0].casefold() in _SMALL_WORDS:
            continue
        every = "".join(word[0] for word in run).casefold()
        content = "".join(word[0] for word in run if word.casefold() not in _SMALL_WORDS)
        if letters in (every, content.casefold()):
            return " ".join(run)
    return None


def page_abbreviations(paragraphs: Iterable[str]) -> dict[str, str]:
    """{abbreviation: long form} of the abbreviations the paragraphs define that the
    vocabularies do not read ("GPU" reads as it is), the first definition of each."""
    found: dict[str, str] = {}
    for paragraph in paragraphs:
        if "(" not in paragraph:
            continue
        for abbreviation, long_form in _defined_in(paragraph):
            if abbreviation not in found and reads_as_unknown(abbreviation):
                found[abbreviation] = long_form
    return found


def with_long_forms(text: str, abbreviations: dict[str, str]) -> str:
    """A short text with the long form of each abbreviation it uses after it, in brackets:
    "P-EAGLE (AL): (acceptance length)"."""
    if not abbreviations or len(text) > SHORT_TEXT_CHARS:
        return text
    used = [
        long_form
        for abbreviation, long_form in abbreviations.items()
        if abbreviation in text
        and _used_alone(abbreviation).search(text)
        and long_form.casefold() not in text.casefold()
    ]
    return f"{text} ({'; '.join(used)})" if used else text


@lru_cache(maxsize=1024)
def _used_alone(abbreviation: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(abbreviation)}s?(?![\w-])")
