"""Text as the label readers compare it: invisible characters gone, width variants folded.

Every reader of headers, cells and headings starts here, so that a zero-width space, a soft
hyphen or a bidi control inside "1\u200b361" or "Bow\u200b Pod16" never makes a value or a
label differ from its plain twin. The raw text is kept elsewhere, verbatim."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import overload

# Zero-width characters, soft hyphen, bidi controls and other format characters; C0/C1
# controls other than the whitespace ones, which become spaces.
_INVISIBLE = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f"
    r"\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff\U000e0000-\U000e007f]"
)
# Superscript digits are footnote marks ("6,044¹"); NFKC would make them digits of the number.
_SUPERSCRIPTS = re.compile(r"[\u00b9\u00b2\u00b3\u2070-\u207f\u2080-\u208e]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
# NFKC spells the trade and service mark signs as letters: "Core™ i9" would read "CoreTM i9".
_MARK_SIGNS = re.compile(r"[\u2120\u2122]")
_PRIVATE_USE = re.compile(r"[\ue000-\uf8ff\u00b6]")  # icon fonts and pilcrow permalinks
# Pictographs ("27 \U0001f40c", "\U0001f680 1.8x") decorate a value or a label and say nothing of
# it; check marks and crosses (U+2713...) stay: they are a cell's yes or no.
_PICTOGRAPHS = re.compile(r"[\U0001f000-\U0001faff]")
_MARKUP = re.compile(r"<br\s*/?>|</?(?:b|strong|em|i|sup|sub|span|code)\b[^<>]{0,200}>", re.I)
# Bold in pairs only: "**1.5x**" is 1.5x, a stray "**" or a run of asterisks stays text.
_BOLD = re.compile(r"\*\*(.{1,200}?)\*\*|__(.{1,200}?)__")
_SPACES = re.compile(r"\s+")
_TRADEMARKS = re.compile(r"\((?:r|tm|c)\)|[\u00ae\u2122\u00a9]", re.I)
_DASHES = re.compile(r"[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_WORD_JOINERS = re.compile(r"[-_]+")
# A count glued to the chip it counts ("8xA100", "2xH100s", "4xMI300X", nodes times chips
# "2x8xH100") reads as "8x a100"; only before a name holding a digit, so that "24xlarge" (an
# instance size) stays one word.
_GLUED_COUNT = re.compile(r"(?<![\w.])(?:\d{1,3}[x\u00d7])?\d{1,4}[x\u00d7](?=[a-z][a-z-]{0,12}\d)")
# Labels are looked for in this many characters of a text: a label sits near the start of a
# cell or a sentence, and crafted pages hold cells and paragraphs of megabytes.
MAX_READ_CHARS = 2000


_BRACKETED = re.compile(r"[(\[][^()\[\]]*[)\]]")


def without_brackets(text: str) -> str:
    """`text` with each innermost aside in round or square brackets ("GPU(Metal)", "speed(ms)")
    replaced by a space."""
    return _BRACKETED.sub(" ", text)


@lru_cache(maxsize=65_536)
def clean_text(text: str) -> str:
    """`text` with invisible and control characters and footnote superscripts removed,
    compatibility forms folded (NFKC), markup left by Markdown or HTML ("**", "<br/>") and icon characters removed, and
    runs of white space made one space."""
    if text.isascii():  # most text: no invisible, superscript or compatibility character
        if not text.isprintable():
            text = _CONTROL.sub(" ", text)
        if "<" in text:
            text = _MARKUP.sub(" ", text)
        if "**" in text or "__" in text:
            text = _BOLD.sub(r" \1\2 ", text)
        return " ".join(text.split())
    text = _INVISIBLE.sub("", text)
    text = _SUPERSCRIPTS.sub("", text)
    text = _CONTROL.sub(" ", text)
    text = _MARK_SIGNS.sub("", text)
    text = unicodedata.normalize("NFKC", text)
    text = _DASHES.sub("-", text)
    text = _PRIVATE_USE.sub(" ", text)
    text = _PICTOGRAPHS.sub(" ", text)
    text = _MARKUP.sub(" ", text)
    text = _BOLD.sub(r" \1\2 ", text)
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=65_536)
def fold_words(text: str) -> str:
    """`clean_text`, lower case, trademark signs gone and hyphens or underscores read as
    spaces: the form vocabulary patterns are written for ("DGX-1" -> "dgx 1")."""
    return _fold_cleaned(clean_text(text))


def _fold_cleaned(cleaned: str) -> str:
    lowered = _lower_in_place(cleaned)
    if "x" in lowered or "\u00d7" in lowered:
        lowered = _GLUED_COUNT.sub(r"\g<0> ", lowered)
    text = _WORD_JOINERS.sub(" ", _TRADEMARKS.sub(" ", lowered))
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=16_384)
def folded_with_positions(cleaned: str) -> tuple[str, Positions]:
    """`fold_words` of text already cleaned, with the place in `cleaned` of each of its
    characters, so that a match in the folded text can be quoted as published."""
    lowered = _lower_in_place(cleaned)
    # found before the substitutions below, as `_fold_cleaned` finds them: same positions
    glued = (
        {match.end() for match in _GLUED_COUNT.finditer(lowered)}
        if "x" in lowered or "\u00d7" in lowered
        else ()
    )
    lowered = _TRADEMARKS.sub(lambda match: " " * len(match.group(0)), lowered)
    lowered = _WORD_JOINERS.sub(lambda match: " " * len(match.group(0)), lowered)
    if glued:
        folded, starts, places = _stretches(lowered, glued)
        return folded, Positions(lowered, len(folded), starts, places)
    # Nothing to split: the words joined by single spaces, and where they stood worked out
    # only if a label is found in them.
    folded = " ".join(lowered.split())
    return folded, Positions(lowered, len(folded))


def _stretches(
    lowered: str, glued: Collection[int]
) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """(folded text, where each stretch of characters kept in order starts in it, where
    that stretch starts in `lowered`), word by word: runs of white space become one space,
    which stands where the run starts (right after the word before it), and a glued count
    is split from its chip."""
    pieces: list[str] = []
    starts: list[int] = []
    places: list[int] = []
    length = 0
    for word in _NOT_SPACE.finditer(lowered):
        start, end = word.span()
        if pieces:
            pieces.append(" ")
            length += 1
        cuts = sorted(cut for cut in glued if start < cut < end) if glued else ()
        for cut in cuts:
            starts.append(length)
            places.append(start)
            pieces.append(lowered[start:cut])
            pieces.append(" ")  # "8xa100": the space after the count stands at the chip
            length += cut - start + 1
            start = cut
        starts.append(length)
        places.append(start)
        pieces.append(lowered[start:end])
        length += end - start
    return "".join(pieces), tuple(starts), tuple(places)


# A run of white space other than one plain space: where `" ".join(text.split())` drops
# characters, and so where a stretch of characters kept in order ends.
_SPACE_RUN = re.compile(r" \s+|[^\S ]\s*")


def _plain_stretches(lowered: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`_stretches` of a text with no glued count to split, found run by run of white
    space that folding shortens (few in a paragraph) rather than word by word."""
    kept = lowered.strip()
    if not kept:
        return (0,), (0,)
    offset = lowered.index(kept[0])
    starts, places = [0], [offset]
    removed = offset
    for run in _SPACE_RUN.finditer(kept):
        # the run's first character stands for the one space it becomes
        removed += run.end() - run.start() - 1
        starts.append(run.end() + offset - removed)
        places.append(run.end() + offset)
    return tuple(starts), tuple(places)


class Positions(Sequence[int]):
    """Where each character of a folded text stands in the text it was folded from, kept
    as the stretches in which both advance together: a paragraph is folded whole, but only
    the places of the labels found in it are asked for, and most paragraphs hold none."""

    __slots__ = ("_length", "_lowered", "_places", "_starts")

    def __init__(
        self,
        lowered: str,
        length: int,
        starts: tuple[int, ...] | None = None,
        places: tuple[int, ...] | None = None,
    ) -> None:
        self._lowered, self._length, self._starts, self._places = lowered, length, starts, places

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self[at] for at in range(*index.indices(self._length)))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        if self._starts is None or self._places is None:
            self._starts, self._places = _plain_stretches(self._lowered)
        stretch = bisect_right(self._starts, index) - 1
        return self._places[stretch] + index - self._starts[stretch]


_NOT_SPACE = re.compile(r"\S+")


def _lower_in_place(text: str) -> str:
    """Lower case, one character for one ("İ" lowers to two: it stays as it is)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def published_span(cleaned: str, positions: Sequence[int], start: int, end: int) -> str:
    """The text of `cleaned` behind folded[start:end] (see `folded_with_positions`)."""
    if start >= end or end > len(positions):
        return ""
    return cleaned[positions[start] : positions[end - 1] + 1]


def word_pattern(alternatives: str) -> re.Pattern[str]:
    """A pattern matching `alternatives` as whole words of `fold_words` text. Chinese and
    Japanese are written without spaces, against Latin letters and digits too ("310P3性能",
    "T4性能"): a match beginning or ending with such a character needs no boundary there."""
    if alternatives.isascii() and not _WIDE_CAPABLE.search(alternatives):
        # No match can begin or end with such a character: the plain boundaries say the same,
        # and compile and search far faster than the alternation over wide character ranges.
        return re.compile(rf"{WORD_START}(?:{alternatives})(?![a-z0-9])")
    return re.compile(rf"{WIDE_WORD_START}(?:{alternatives})(?:(?![a-z0-9])|(?<={_WIDE}))")


_WIDE = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]"  # kana and CJK ideographs
# Where a `word_pattern` match may start: after no letter or digit, or (for one that may
# match wide characters) at a wide character.
WORD_START = r"(?<![a-z0-9])"
WIDE_WORD_START = rf"(?:{WORD_START}|(?={_WIDE}))"
# What in a pattern written in ASCII may still match such a character: a wildcard (a dot not
# escaped), a negated set, a class escape.
_WIDE_CAPABLE = re.compile(r"(?<!\\)\.|\\[SWDwu]|\[\^")
