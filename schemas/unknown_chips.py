"""Hardware no vocabulary knows, read by the shape of its name.

A chip, board or module name holds a model token of letters and digits ("Zeta-9", "TH1520",
"X2"), perhaps after a family word or two ("NeoChip X2", "RDK X3"). A text names such
hardware, rather than a model, a precision or a setting written the same way ("Llama-3-8B",
"FP8", "TP4"), when the name stands

1. with a count of it: "8x Zeta-9", "NeoChip X2 (16 chips)", "16 Zeta-9 chips";
2. after a maker's word: "T-Head TH1520", "Ingenic T40XP", "Loongson 3A6000";
3. before a device noun: "Zeta-9 GPU", "RDK X3 Module", "NeoChip X2 accelerator";
4. or, in a cell of a platform column (the column says it names hardware), first in the cell:
   "Zeta-9", "VisionFive2 , JH7110 (SiFive-U74 ...)".

The makers, device nouns and the words that never name a chip (models, software, precisions,
sizes, instruction sets, CPU cores) are data: schemas/vocab/chip_words.csv. The name found is
kept as published as the value's accelerator, unresolved: `perfledger labels` lists it and
`perfledger map-label platform` resolves it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from perfledger.schemas.chip_counts import CHIP_NOUNS, FAMILY_AFTER, number
from perfledger.schemas.folding import MAX_READ_CHARS, clean_text, fold_words
from perfledger.schemas.platform_mentions import PlatformMention, find_mentions, read_platform
from perfledger.schemas.vocabulary import read_vocab

_TOKEN = r"[A-Za-z0-9][A-Za-z0-9.+]*(?:-[A-Za-z0-9.+]+)*"
_WORD = r"[A-Z][A-Za-z]*"
_SUFFIX = r"(?: (?:Pro|Max|Ultra|Plus|Lite|Mini|Nano|NX|Duo|Ti|Super|XT|XTX|SE|Dual|Quad))?"
_NAME = rf"(?:{_WORD} ){{0,2}}{_TOKEN}{_SUFFIX}"
_NUMBER_WORDS = r"\d{1,7}|one|two|three|four|six|eight|twelve|sixteen|single|dual|quad"
_MEMORY = r"(?: \d+ ?[GT]B)?"
# What the device is for, between its name and its noun: "ORCA1 AI accelerator".
_HOURS_AFTER = re.compile(r"[ -]?hours?\b", re.I)
_KIND_OF_DEVICE = r"(?: (?:AI|ML|[Ee]dge AI|[Nn]eural|[Vv]ision|[Ii]nference))?"
_TRADEMARKS = re.compile(r"\((?:r|tm|c)\)|[\u00ae\u2122\u00a9]", re.I)
_LEADING_PART = re.compile(r"^[^(\[,;:|]*")
# A board's or card's name written in one word, each part capitalized ("OrinNX-16GB",
# "XavierNX-8GB", "TitanRTX", "OrinAGX-64GB"): a small letter then a capital starts a word.
_CAMEL_JOIN = re.compile(r"(?<=[a-z])(?=[A-Z])")


@dataclass(frozen=True)
class _Words:
    makers: re.Pattern[str]  # a maker's word, then the name after it
    maker_names: tuple[tuple[re.Pattern[str], str], ...]  # (maker pattern, canonical)
    maker_starts: frozenset[str]  # the first word of every maker's name, lower case
    wide_maker_starts: tuple[str, ...]  # those not in ASCII ("寒武纪"), found inside a word
    wide_maker_start: re.Pattern[str]  # one of those
    before_noun: re.Pattern[str]  # a name, then a device noun, ending the text
    nouns: re.Pattern[str]  # a device noun
    # A name with its count (group "count"), and a pattern that finds what each match of it
    # holds: a long paragraph without that is not scanned by the costlier pattern.
    counted: tuple[tuple[re.Pattern[str], re.Pattern[str] | None], ...]
    not_name: re.Pattern[str]  # a folded word that is never part of a chip's name
    leading: re.Pattern[str]  # the first name of a text


@cache
def _words() -> _Words:
    rows = list(read_vocab("chip_words.csv").iter_rows(named=True))
    makers = [(row["pattern"], row["meaning"]) for row in rows if row["kind"] == "maker"]
    devices = "|".join(row["pattern"] for row in rows if row["kind"] == "device")
    not_name = "|".join(f"(?:{row['pattern']})" for row in rows if row["kind"] == "not_name")
    maker_alternatives = "|".join(f"(?:{pattern})" for pattern, _ in makers)
    starts = frozenset(
        _first_word(alternative) for pattern, _ in makers for alternative in pattern.split("|")
    )
    wide = tuple(sorted(start for start in starts if not start.isascii()))
    return _Words(
        makers=re.compile(
            # "Loongson 3A4000", "Loongson-3A4000": a hyphen joins the maker to a model token;
            # Chinese writes none between its words and Latin ones ("寒武纪MLU370", "紫光展锐T820")
            rf"(?<![\w-])(?P<maker>{maker_alternatives})"
            rf"(?:[ ,]+|-(?=[A-Za-z]{{0,4}}\d)|(?<=[\u3400-\u9fff])(?=[A-Za-z0-9]))"
            rf"(?P<name>{_NAME})"
            rf"(?![\w+-])",
            re.I,
        ),
        maker_names=tuple(
            (re.compile(rf"(?:{pattern})", re.I), canonical) for pattern, canonical in makers
        ),
        maker_starts=starts,
        wide_maker_starts=wide,
        wide_maker_start=re.compile("|".join(re.escape(start) for start in wide) or "(?!)"),
        before_noun=re.compile(
            rf"(?<![\w.+-])(?P<name>{_NAME}){_MEMORY}{_KIND_OF_DEVICE} (?i:{devices})\Z"
        ),
        nouns=re.compile(rf"(?<=[\w.+]) (?i:{devices})(?!\w)"),
        counted=(
            (
                # not a part of an identifier ("Llama-2-7b-AQLM-1Bit-1x8-hf", "org/2x8-hf":
                # a quantization scheme in a model's name, not one "8-hf" chip)
                re.compile(
                    rf"(?<![\w./-])(?P<count>\d{{1,7}}) ?[x\u00d7*] ?(?P<name>{_NAME})"
                    rf"(?![\w.+-])"
                ),
                re.compile(r"\d ?[x\u00d7*]"),
            ),
            (
                re.compile(
                    rf"(?<![\w.+-])(?P<name>{_NAME}) ?\((?P<count>\d{{1,7}}) ?(?:x )?"
                    rf"(?:{CHIP_NOUNS})\)",
                    re.I,
                ),
                re.compile(r"\(\d"),
            ),
            (
                re.compile(
                    rf"(?<![\w.])(?P<count>(?i:{_NUMBER_WORDS})) (?P<name>{_NAME})"
                    rf"{_MEMORY} (?i:{CHIP_NOUNS})(?!\w)"
                ),
                None,
            ),
        ),
        not_name=re.compile(rf"(?:{not_name})", re.I),
        leading=re.compile(rf"(?<![\w.+-])(?P<name>{_NAME})(?![\w+-])"),
    )


def _first_word(alternative: str) -> str:
    """The letters a maker's spelling starts with, lower case ("nvidia" of "nvidia(?: corp)?")."""
    word = re.match(r"[^ \\?(|.-]+", alternative)
    assert word is not None  # chip_words.csv spells every maker from a letter of its name
    return word.group(0).lower()


def is_chip_name(name: str) -> bool:
    """Whether `name` may name hardware: it holds a token of letters and digits, and none of
    its words is a model, a precision, a size, a setting or software ("Llama-3-8B", "FP8",
    "TP4", "80GB", "CUDA12")."""
    tokens = name.lower().split()
    if not any(re.search(r"[a-z]", token) and re.search(r"\d", token) for token in tokens):
        return False
    not_name = _words().not_name
    return not any(
        not_name.fullmatch(word) or not_name.fullmatch(word.rstrip("+."))
        for word in fold_words(name).split()
    )


@lru_cache(maxsize=16_384)
def unknown_chip(text: str, where: str = "label") -> PlatformMention | None:
    """Hardware `text` names that no vocabulary knows (see the module's docstring), with the
    count of it the text states; None when it names none, or names a known chip.

    `where` the text stands: "platform" (a cell of a platform column, which names hardware
    by its place), "label" (a header, a section row, a heading or a caption) or "prose" (a
    paragraph, where a name without a count may be a product line rather than a setup)."""
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    if not any(map(str.isdigit, cleaned)):
        return None  # every model token holds a digit
    if any(mention.accelerator for mention in find_mentions(cleaned, where == "prose")):
        return None
    plain = " ".join(_TRADEMARKS.sub(" ", cleaned).split())
    words = _words()
    for pattern, held in words.counted:
        if held is not None and held.search(plain) is None:
            continue
        for match in pattern.finditer(plain):
            name = _trimmed(match.group("name"))
            count = number(match.group("count").lower())
            if name and name[:1].isdigit() and plain[match.start("name") - 1] != " ":
                continue  # "1x8-hf", "2x8g8": a shape (codebooks, a grid), no count of chips
            if name and count is not None:
                return _unknown(match.group(0), name, count=count)
    for match in _after_makers(plain):
        name = _trimmed(match.group("name"))
        if name and not (where == "prose" and _family(plain, match.end())):
            return _unknown(match.group(0), name, maker=_maker(match.group("maker")))
    for noun in words.nouns.finditer(plain):
        if where == "prose" and _HOURS_AFTER.match(plain, noun.end()):
            continue  # "2.788M H800 GPU hours": a cost in device time, no run's device
        # The name stands just before the noun: only that stretch of a long text is read.
        window = plain[max(0, noun.start() - _NAME_WINDOW) : noun.end()]
        match = words.before_noun.search(window)
        if match is None:
            continue
        name = _trimmed(match.group("name"))
        if name and not (where == "prose" and _plural_noun(plain, noun.end())):
            return _unknown(match.group(0)[match.group(0).index(name) :], name)
    if where == "platform":
        start = _LEADING_PART.match(plain)
        assert start is not None  # "^[^...]*" matches at the start of any text
        leading = start.group(0)
        for match in words.leading.finditer(leading):
            name = _trimmed(match.group("name"))
            if name:
                return _unknown(leading.strip(), name)
    return None


_NAME_WINDOW = 80  # characters before a device noun where the name it follows may start
_WORDS = re.compile(r"[A-Za-z]+|[^\x00-\x7f]+")


def _after_makers(plain: str):
    """Matches of a maker's word and the name after it, tried only where a word starts as
    some maker's name does (a pattern of every maker tried at every word costs more)."""
    words = _words()
    for word in _WORDS.finditer(plain):
        text = word.group(0).lower()
        if text in words.maker_starts:
            start = word.start() if text.isascii() else _cjk_start(plain, word, words)
        elif not text.isascii() and words.wide_maker_start.search(text):
            start = _cjk_start(plain, word, words)
        else:
            continue
        match = words.makers.match(plain, start)
        if match is not None:
            yield match


def _cjk_start(plain: str, word: re.Match[str], words: _Words) -> int:
    text = word.group(0)
    found = [text.find(start) for start in words.wide_maker_starts if start in text]
    return word.start() + min(found)


def _trimmed(name: str) -> str | None:
    """The name without words before its model token that are not part of it ("The
    NeoChip X2"), or None when it cannot name hardware."""
    words = name.rstrip(".").split(" ")
    while len(words) > 1 and (
        fold_words(words[0]) in _LEADING_WORDS or _words().not_name.fullmatch(fold_words(words[0]))
    ):
        words = words[1:]
    name = " ".join(words)
    return name if is_chip_name(name) else None


# Capitalised words that start a sentence or a title, not a chip's name.
_LEADING_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "on",
        "our",
        "with",
        "using",
        "for",
        "and",
        "of",
        "in",
        "by",
        "from",
        "to",
        "at",
        "via",
        "new",
        "this",
        "these",
        "each",
        "per",
        "all",
        "both",
        "results",
        "performance",
        "benchmark",
        "benchmarks",
        "throughput",
        "latency",
        "inference",
        "training",
        "system",
        "platform",
        "hardware",
        "device",
        "board",
        "target",
        "test",
    ]
)


def _maker(word: str) -> str | None:
    for pattern, canonical in _words().maker_names:
        if pattern.fullmatch(word):
            return canonical
    return None


def _family(plain: str, end: int) -> bool:
    """'Zeta Labs Z9 chips': a product line, in prose, when nothing counts it."""
    return bool(FAMILY_AFTER.match(" " + fold_words(plain[end : end + 60])))


def _plural_noun(plain: str, end: int) -> bool:
    return plain[:end].endswith("s") and not plain[:end].endswith("ss")


def _unknown(
    text: str, name: str, count: int | None = None, maker: str | None = None
) -> PlatformMention:
    return PlatformMention(
        text.strip(),
        vendor=maker,
        accelerator=name,
        count=count,
        count_stated=count is not None,
        names_device=True,
    )


def read_hardware(text: str, where: str = "label", nearby: str = "") -> PlatformMention | None:
    """The platform `text` names: a chip or system the vocabulary knows (see
    `read_platform`), else hardware named by its shape (`unknown_chip`), with the count the
    text states; a bare count ("8 GPUs") when it names no hardware."""
    return _hardware(text, where, nearby)  # one memo entry per reading (see find_mentions)


@lru_cache(maxsize=65_536)
def _hardware(text: str, where: str, nearby: str) -> PlatformMention | None:
    known = read_platform(text, prose=where == "prose", nearby=nearby)
    if known is not None and known.accelerator is not None:
        return known
    unknown = unknown_chip(text, where)
    if unknown is None:
        return _written_in_one_word(text, where, nearby) or known
    if unknown.count is None and known is not None and known.count is not None:
        return replace(unknown, count=known.count, count_stated=True)
    return unknown


def _written_in_one_word(text: str, where: str, nearby: str) -> PlatformMention | None:
    """The chip or board the vocabulary knows that `text` names with its words written
    together ("OrinNX-16GB": the Jetson Orin NX), when it names none as written: the whole of
    a word, not a part of an identifier of code."""
    split = _CAMEL_JOIN.sub(" ", text)
    if split == text:
        return None
    known = read_platform(split, prose=where == "prose", nearby=nearby)
    if known is None or known.accelerator is None or split[known.start : known.end] != known.text:
        return None
    # quoted as published: where each character of `split` stands in `text` (a space put in
    # before a capital stands nowhere)
    origin: list[int | None] = []
    at = 0
    for character in split:
        if at < len(text) and text[at] == character:
            origin.append(at)
            at += 1
        else:
            origin.append(None)
    start, last = origin[known.start], origin[known.end - 1]
    if start is None or last is None:
        return None
    if (start and text[start - 1].isalnum()) or text[last + 1 : last + 2].isalnum():
        return None  # part of a longer word: a name in code ("GaudiLlamaForCausalLM")
    return replace(known, text=text[start : last + 1], start=start, end=last + 1)
