"""The chip and system vocabulary of schemas/vocab/chips.csv, matched where a word starts.

A rule is tried only where the text's first two characters can begin one of its matches: the
vocabulary holds hundreds of rules, and trying each at every word of a long paragraph costs a
step per rule and word. Each rule's possible beginnings are worked out once from its pattern,
and the rules sharing a beginning are tried together, in file order, by one compiled pattern.
A rule whose beginnings cannot be told is tried everywhere, so the result is the same as
trying every rule in file order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

# The parsed form of a pattern, as the re module reads it; typeshed describes these modules
# under their deprecated public names only.
if TYPE_CHECKING:
    import sre_constants as sre
    import sre_parse
else:
    from re import _constants as sre
    from re import _parser as sre_parse

from perfledger.schemas.folding import WORD_START
from perfledger.schemas.vocabulary import read_vocab

# The accelerator of a rule for a name that reads as more than one chip ("Jetson NX": Xavier
# NX or Orin NX): the value keeps the name as published, unresolved, and is never given the
# wrong chip.
AS_PUBLISHED = "?"
# How a chip ranks when a text names several: a GPU or NPU ran the result rather than the
# SoC it sits on, and the SoC rather than a host CPU ("2x Xeon 8380, 8x A100").
KIND_RANK = {"accelerator": 2, "soc": 1, "cpu": 0}
# A form factor or memory size written after a data-center chip: "A100-SXM4-80GB",
# "H100 80GB PCIe", "V100 32G". `{form}` in a pattern stands for it.
_FORM = r"(?: (?:sxm ?\d?|pcie|nvl|nvlink|hgx|oam|\d+ ?gb?|hbm\d?e?)){0,3}"
# "1x 4090", "8 x 3090": a count of devices before a bare number says it names one
_TIMES_BEFORE = re.compile(r"(?<![a-z0-9.])\d{1,4} ?[x\u00d7] ?$")
_REQUIRES_WINDOW = 80  # characters either side of a match where its `requires` words may be
_KEY = 2  # characters of a word start that choose the rules to try


@dataclass(frozen=True)
class ChipRule:
    source: str  # the pattern, {form} expanded
    vendor: str
    accelerator: str  # a template: "$1" is the first group upper-cased, "$t1" title-cased
    system: str | None
    count: str | None  # a number, "$1", "8*$1", "slice" (the number is a slice size), or None
    kind: str  # accelerator, soc or cpu
    requires_source: str | None  # words one of which must stand near a bare match

    @property
    def rank(self) -> int:
        return KIND_RANK.get(self.kind, KIND_RANK["accelerator"])

    # Compiled when first used: a run reads few of the hundreds of rules, and compiling
    # them all would cost every reader process its start.
    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(rf"(?:{self.source})s?")

    @property
    def requires(self) -> re.Pattern[str] | None:
        if not self.requires_source:
            return None
        return _compiled(rf"(?<![a-z0-9])(?:{self.requires_source})")


@lru_cache(maxsize=2048)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@dataclass(frozen=True)
class _Vocabulary:
    rules: tuple[ChipRule, ...]
    sources: tuple[str, ...]  # each rule's pattern as written, with {form} expanded
    by_key: dict[str, tuple[int, ...]]  # the rules to try where a word starts with the key
    everywhere: tuple[int, ...]  # rules whose beginnings could not be told
    candidates: re.Pattern[str]  # word starts where some rule may match


def expanded(pattern: str) -> str:
    return pattern.replace("{form}", _FORM)


@cache
def vocabulary() -> _Vocabulary:
    rules, sources = [], []
    for row in read_vocab("chips.csv").iter_rows(named=True):
        source = expanded(row["pattern"])
        rules.append(
            ChipRule(
                source,
                row["vendor"],
                row["accelerator"],
                row["system"],
                row["count"],
                row.get("kind") or "accelerator",
                row.get("requires"),
            )
        )
        sources.append(source)
    by_key: dict[str, list[int]] = {}
    everywhere = []
    starts: set[str] = set()
    for index, source in enumerate(sources):
        keys = beginnings(source)
        if keys is None:
            everywhere.append(index)
            continue
        for key in keys:
            by_key.setdefault(key, []).append(index)
        starts |= _starts(source) or keys
    for indexes in by_key.values():
        indexes.extend(everywhere)
        indexes.sort()
    return _Vocabulary(
        tuple(rules),
        tuple(sources),
        {key: tuple(indexes) for key, indexes in by_key.items()},
        tuple(everywhere),
        _candidates(starts, bool(everywhere)),
    )


def _candidates(starts: set[str], anywhere: bool) -> re.Pattern[str]:
    """Word starts where some rule's match may begin: a paragraph's words share their
    first two letters with some chip's name far more often than their first three ("data",
    "system", "memory" beside "DaVinci", "SYS-", "MetaX")."""
    if anywhere:
        return re.compile(r"(?<![a-z0-9])(?=[a-z0-9])")
    return re.compile(rf"(?<![a-z0-9])(?={_alternation(starts)})")


def _alternation(strings: set[str]) -> str:
    """A pattern matching where one of `strings` begins the text, as a tree of their
    characters."""
    if "" in strings:
        return ""  # a shorter one begins it already
    rests: dict[str, set[str]] = {}
    for string in strings:
        rests.setdefault(string[0], set()).add(string[1:])
    if all(rest == {""} for rest in rests.values()):
        return "[" + "".join(re.escape(first) for first in sorted(rests)) + "]"
    return (
        "(?:"
        + "|".join(re.escape(first) + _alternation(rest) for first, rest in sorted(rests.items()))
        + ")"
    )


_STARTS = 3  # characters of a word start the candidates look at


def word_start_of(patterns: list[str], boundary: str = WORD_START) -> str:
    """A zero-width test that holds at a word's start (`boundary`) where a match of one of
    `patterns` may begin, by its first character (the boundary alone when that cannot be
    told). Written before the patterns combined, it spares a search trying each at every
    place of a paragraph, and finds what they find."""
    firsts: set[str] = set()
    for pattern in patterns:
        found = _starts_of(pattern, 1)
        if not found or "" in found:
            return boundary
        firsts |= found
    return rf"{boundary}(?=[{''.join(re.escape(first) for first in sorted(firsts))}])"


def _starts(pattern: str) -> set[str] | None:
    """The strings of `_STARTS` characters a match of `pattern` can begin with, and its
    whole matches shorter than that, or None when that cannot be told."""
    return _starts_of(pattern, _STARTS)


def _starts_of(pattern: str, length: int) -> set[str] | None:
    try:
        found = _prefixes(list(sre_parse.parse(pattern).data), length)
    except _Unknown:
        return None
    return found if len(found) <= _MAX_KEYS else None


def match_at(folded: str, position: int) -> tuple[int, re.Match[str]] | None:
    """(rule index, match) of the first rule, in file order, matching at `position` as a
    whole word (a plural "s" allowed), or None."""
    pattern = _key_pattern(folded[position : position + _KEY])
    if pattern is None:
        return None
    match = pattern.match(folded, position)
    if match is None:
        return None
    assert match.lastgroup is not None  # each alternative is a named group: "r<index>"
    return int(match.lastgroup[1:]), match


@lru_cache(maxsize=4096)
def _key_pattern(key: str) -> re.Pattern[str] | None:
    """The rules to try where a word starts with `key`, together (a paragraph holds dozens
    of such places: the pattern is found by the key, not by the rules' indexes)."""
    vocab = vocabulary()
    indexes = vocab.by_key.get(key, vocab.everywhere)
    return _combined(indexes) if indexes else None


@lru_cache(maxsize=4096)
def _combined(indexes: tuple[int, ...]) -> re.Pattern[str]:
    sources = vocabulary().sources
    alternatives = "|".join(f"(?P<r{index}>{sources[index]})" for index in indexes)
    # A whole word, or a model number with its device's noun written against it
    # ("MI250GPU", "A100GPU"): the name ends before the noun.
    glued = rf"(?<=\d)(?=(?:{_glued_devices()})(?![a-z0-9]))"
    return re.compile(rf"(?:{alternatives})(?:s?(?![a-z0-9])|{glued})")


@cache
def _glued_devices() -> str:
    """The device nouns of schemas/vocab/chip_words.csv written against a chip's number."""
    rows = read_vocab("chip_words.csv").iter_rows(named=True)
    return "|".join(f"(?:{row['pattern']})" for row in rows if row["kind"] == "glued_device")


def requirement_met(rule: ChipRule, folded: str, start: int, end: int, nearby: str = "") -> bool:
    """Whether a rule asking for words near its match ("M1" only beside "Apple", "MacBook"...)
    has one within the window around it, or in `nearby`: the words of the table the text
    stands in (see schemas/table_chips.py). A bare number ("4090") is a chip only by a
    table's words or a count of devices before it ("1x 4090"): in a sentence or a cell of
    its own it is a number."""
    if rule.requires is None:
        return True
    if nearby and rule.requires.search(nearby) is not None:
        return True
    if folded[start:end].isdigit():
        # "1x 4090"; "a Nvidia 3090 RTX GPU": the number with its family's word right after
        return (
            _TIMES_BEFORE.search(folded, max(0, start - 8), start) is not None
            or rule.requires.match(folded, end + 1 if folded[end : end + 1] == " " else end)
            is not None
        )
    window = folded[max(0, start - _REQUIRES_WINDOW) : end + _REQUIRES_WINDOW]
    return rule.requires.search(window) is not None


# ---- the beginnings of a pattern ----------------------------------------------------------------


class _Unknown(Exception):
    """A pattern construct whose first characters are not worked out here."""


_MAX_KEYS = 2000  # more beginnings than this: the rule is tried everywhere


def beginnings(pattern: str) -> frozenset[str] | None:
    """Every pair of first characters a match of `pattern` can start with, or None when that
    cannot be told (the pattern may match fewer than two characters, or uses a construct
    this does not read)."""
    try:
        keys = _prefixes(list(sre_parse.parse(pattern).data), _KEY)
    except _Unknown:
        return None
    if any(len(key) < _KEY for key in keys) or len(keys) > _MAX_KEYS:
        return None
    return frozenset(keys)


def _prefixes(items: list, k: int) -> set[str]:
    """The strings of length k a match of `items` can start with, and the shorter strings
    that are whole matches."""
    if k == 0 or not items:
        return {""}
    (op, argument), rest = items[0], items[1:]
    found: set[str] = set()
    for head in _first(op, argument, k):
        if len(head) >= k:
            found.add(head[:k])
        else:
            found.update(head + tail for tail in _prefixes(rest, k - len(head)))
        if len(found) > _MAX_KEYS:
            raise _Unknown
    return found


def _first(op, argument, k: int) -> set[str]:
    if op is sre.LITERAL:
        return {chr(argument)}
    if op is sre.IN:
        return _class(argument)
    if op is sre.SUBPATTERN:
        return _prefixes(list(argument[-1]), k)
    if op is sre.BRANCH:
        return set().union(*(_prefixes(list(branch), k) for branch in argument[1]))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, item = argument
        found: set[str] = set()
        # repeated more than k times ("\d{4}" when two characters are left), its first k
        # times begin it as well
        for times in range(min(low, k), min(high, k) + 1):
            found |= _prefixes(list(item) * times, k)
        return found
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return {""}  # zero width: the next items begin the match
    raise _Unknown


def _class(items) -> set[str]:
    found: set[str] = set()
    for op, argument in items:
        if op is sre.LITERAL:
            found.add(chr(argument))
        elif op is sre.RANGE:
            found.update(chr(code) for code in range(argument[0], argument[1] + 1))
        elif op is sre.CATEGORY and argument is sre.CATEGORY_DIGIT:
            found.update("0123456789")
        else:
            raise _Unknown
    return found
