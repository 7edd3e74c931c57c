"""Accelerators and systems named in free text, with the number of chips the text states.

Platform labels are parsed by their structure against the chip and system vocabulary of
schemas/vocab/chips.csv: "8x A100 80GB", "2x MI300X", "16x CS-2", "DGX H100", "HLS-Gaudi2",
"TPU v4-4096", "Xeon Platinum 8380 (2 sockets)", "B200 TP4", and rows such as "8 GPUs" that
give a count and leave the chip to the page around them. A new chip is one line of data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from perfledger.schemas.folding import (
    MAX_READ_CHARS,
    clean_text,
    fold_words,
    folded_with_positions,
    published_span,
)
from perfledger.schemas.vocabulary import read_vocab

MAX_ACCELERATORS = 10_000_000  # far above any system; a larger count is not a real one
_NUMBER_WORDS = {
    "one": 1, "single": 1, "two": 2, "dual": 2, "three": 3, "four": 4, "quad": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16,
    "thirty two": 32, "sixty four": 64,
}
_COUNT = r"(\d{1,7}|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + ")"
_CHIP_NOUNS = (r"gpus?|cards?|chips?|accelerators?|devices?|ipus?|tpus?|hpus?|npus?|xpus?"
               r"|gaudis?|sockets?|processors?|cpus?|dies|packages?")
_FAMILY_NOUNS = (r"gpus|cards|chips|accelerators|devices|ipus|tpus|hpus|npus|processors"
                 r"|systems|servers|instances|nodes|platforms|products|families|series")
_COUNT_BEFORE = re.compile(_COUNT + r" ?(?:x|×|\*) ?$")
_BARE_COUNT_BEFORE = re.compile(r"(?:^|[^a-z0-9.]) ?" + _COUNT + r" $")
_COUNT_AFTER = re.compile(r"^ ?(?:x|×) ?(\d{1,7})(?![a-z0-9.])")
_ARTICLE_BEFORE = re.compile(r"(?:^|[^a-z0-9])(?:a|an|one|single)(?: [a-z]+)? $")
_NOUN_AFTER = re.compile(r"^(?: \d+ ?gb)?(?: [a-z0-9]+){0,2}? (?:" + _CHIP_NOUNS + r")(?![a-z0-9])")
_SINGULAR_NOUN_AFTER = re.compile(
    r"^(?: \d+ ?gb)? (?:gpu|card|chip|accelerator|device|ipu|tpu|hpu|npu|processor)(?![a-z0-9])")
_FAMILY_AFTER = re.compile(r"^(?: [a-z0-9]+){0,2}? (?:" + _FAMILY_NOUNS + r")(?![a-z0-9])")
_SOCKETS_AFTER = re.compile(r"^[^()]{0,40}\(" + _COUNT + r" ?(?:sockets?|s)\)")
_COUNT_ONLY = re.compile(r"(?<![a-z0-9.])" + _COUNT + r" ?(?:x )?(?:" + _CHIP_NOUNS
                         + r")(?![a-z0-9])")
_PARALLEL = re.compile(r"(?<![a-z0-9])(tp|pp|dp) ?(\d{1,5})(?![a-z0-9])")
_OPEN_PAREN = re.compile(r"^ ?\(")
_ALTERNATIVE = re.compile(r" ?(?:/|,|or|and|vs\.?|versus) ?")


@dataclass(frozen=True)
class PlatformMention:
    """A platform a text names: `text` is the part of it that names the platform."""

    text: str
    vendor: str | None = None
    accelerator: str | None = None  # canonical chip name; None for a bare count ("8 GPUs")
    system: str | None = None  # a named system ("DGX A100"); None for a chip alone
    count: int | None = None  # chips the mention states or its system implies
    count_stated: bool = False  # written out ("8x", "8 GPUs"), not implied by a system name
    implied_count: int | None = None  # chips its named system holds ("DGX A100": 8)
    start: int = 0  # where the mention starts in the folded text
    end: int = 0  # where it ends
    names_device: bool = False  # names hardware no vocabulary knows ("8x Zeta-9")


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    vendor: str
    accelerator: str
    system: str | None
    count: str | None  # a number, "$1", "8*$1", "slice" (the number is a slice size), or None


@cache
def _screen() -> re.Pattern[str]:
    """A quick test every text a rule matches passes: it holds a digit, or a word some rule
    needs without any digit ("gaudi", "ipu", "trainium"...). Most headings and paragraphs
    name no chip, and trying every rule at every word of them costs far more."""
    words = set()
    for row in read_vocab("chips.csv").iter_rows(named=True):
        for alternative in _top_level_alternatives(row["pattern"]):
            required = alternative
            while True:  # optional groups, innermost first, may be left out
                shorter = _OPTIONAL_GROUP.sub(" ", required)
                if shorter == required:
                    break
                required = shorter
            if not re.search(r"\d", required.replace("\\d", "0")):
                # one word the alternative needs is enough: the longest, the rarest likely
                words.add(max(re.findall(r"[a-z]{2,}", required), key=len))
    return re.compile(r"\d|" + "|".join(sorted(words, key=len, reverse=True)))


_OPTIONAL_GROUP = re.compile(r"\(\?:[^()]*\)\?|.\?")


def _top_level_alternatives(pattern: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for position, character in enumerate(pattern):
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        elif character == "|" and depth == 0:
            parts.append(pattern[start:position])
            start = position + 1
    parts.append(pattern[start:])
    return parts


@cache
def _rules() -> tuple[tuple[_Rule, ...], re.Pattern[str]]:
    """The chip rules in file order, and one pattern trying them all (in that order) at each
    place of a text: a named group per rule."""
    rules, alternatives = [], []
    for index, row in enumerate(read_vocab("chips.csv").iter_rows(named=True)):
        rules.append(_Rule(re.compile(rf"(?:{row['pattern']})s?"), row["vendor"],
                           row["accelerator"], row["system"], row["count"]))
        alternatives.append(f"(?P<r{index}>{row['pattern']})")
    combined = re.compile(rf"(?<![a-z0-9])(?:{'|'.join(alternatives)})s?(?![a-z0-9])")
    return tuple(rules), combined


def _number(text: str) -> int | None:
    value = _NUMBER_WORDS.get(text) if not text.isdigit() else int(text)
    return value if value is not None and 0 < value <= MAX_ACCELERATORS else None


def _expand(template: str, match: re.Match[str]) -> str:
    return re.sub(r"\$(\d)", lambda ref: (match.group(int(ref.group(1))) or "").upper(), template)


def _implied_count(rule: _Rule, match: re.Match[str]) -> int | None:
    if not rule.count or rule.count == "slice":
        return None
    product = 1
    for factor in _expand(rule.count, match).split("*"):
        if not factor.isdigit() or len(factor) > 7:
            return None
        product *= int(factor)
    return product if 0 < product <= MAX_ACCELERATORS else None


def _stated_count(folded: str, start: int, end: int, prose: bool) -> int | None:
    """The count written next to a chip named at folded[start:end]: "8x A100", "A100 x 8",
    "8 A100 GPUs", "two MI210 GPUs", "an MI210 GPU", "Xeon 8380 (2 sockets)"."""
    before, after = folded[max(0, start - 24):start], folded[end:end + 60]
    match = _COUNT_BEFORE.search(before)
    if match:
        return _number(match.group(1))
    match = _BARE_COUNT_BEFORE.search(before)
    if match and (start - len(match.group(1)) - 1 <= 0 or _NOUN_AFTER.match(after)):
        return _number(match.group(1))
    match = _COUNT_AFTER.match(after) or _SOCKETS_AFTER.match(after)
    if match:
        return _number(match.group(1))
    if prose and _ARTICLE_BEFORE.search(before) and _SINGULAR_NOUN_AFTER.match(after):
        return 1
    return None


def _chip_mentions(folded: str, cleaned: str, positions: tuple[int, ...],
                   prose: bool) -> list[PlatformMention]:
    rules, combined = _rules()
    mentions = []
    for match in _word_start_matches(combined, folded):
        rule = rules[int(match.lastgroup[1:])]
        own = rule.pattern.fullmatch(match.group(0))
        count = None if rule.count == "slice" else _stated_count(
            folded, match.start(), match.end(), prose)
        plural = len(match.group(0)) > len(match.group(match.lastgroup))
        if prose and count is None and (
                plural or _FAMILY_AFTER.match(folded[match.end():match.end() + 60])):
            continue  # "runs on NVIDIA GPUs", "Intel Gaudi AI accelerators": a family, not a setup
        implied = _implied_count(rule, own) if own else None
        mentions.append(PlatformMention(
            text=published_span(cleaned, positions, match.start(), match.end()),
            vendor=rule.vendor,
            accelerator=_expand(rule.accelerator, own) if own else rule.accelerator,
            system=_expand(rule.system, own) if rule.system and own else None,
            count=count if count is not None else implied,
            count_stated=count is not None,
            implied_count=implied,
            start=match.start(),
            end=match.end(),
        ))
    if prose:
        mentions = _without_alternatives(mentions, folded)
    return _merged(mentions, folded, cleaned, positions)


def _word_start_matches(combined: re.Pattern[str], folded: str):
    """combined.finditer(folded), tried only where a word starts: every rule starts with a
    letter or digit, and trying each rule after each space or sign of a long run of them
    ("\u00b1" * 20,000) costs a step per rule and character."""
    end = 0
    for start in _WORD_START.finditer(folded):
        if start.start() < end:
            continue
        match = combined.match(folded, start.start())
        if match is not None:
            end = match.end()
            yield match


_WORD_START = re.compile(r"(?<![a-z0-9])[a-z0-9]")


def _without_alternatives(mentions: list[PlatformMention], folded: str) -> list[PlatformMention]:
    """Prose naming chips side by side ("Trainium/Inferentia2", "Trn2 or Trn1 instances")
    speaks of a range of products, not of the one a result ran on."""
    paired = set()
    for index, (first, second) in enumerate(zip(mentions, mentions[1:], strict=False)):
        if first.accelerator != second.accelerator and _ALTERNATIVE.fullmatch(
                folded[first.end:second.start]):
            paired.update((index, index + 1))
    return [mention for index, mention in enumerate(mentions) if index not in paired]


def _merged(mentions: list[PlatformMention], folded: str, cleaned: str,
            positions: tuple[int, ...]) -> list[PlatformMention]:
    """A system followed by its chips in brackets ("DGX A100 (8x A100 80GB)") is one mention,
    with the bracket's count."""
    merged: list[PlatformMention] = []
    for mention in mentions:
        previous = merged[-1] if merged else None
        if (previous is not None and previous.system and not previous.count_stated
                and mention.accelerator == previous.accelerator and mention.count_stated
                and _OPEN_PAREN.match(folded[previous.end:mention.start])):
            closing = folded.find(")", mention.end)
            end = closing + 1 if 0 <= closing - mention.end <= 40 else mention.end
            merged[-1] = replace(previous, count=mention.count, count_stated=True, end=end,
                                 text=published_span(cleaned, positions, previous.start, end))
            continue
        merged.append(mention)
    return merged


@lru_cache(maxsize=65_536)
def find_mentions(text: str, prose: bool = False) -> tuple[PlatformMention, ...]:
    """Every chip or system `text` names, in order, then the bare counts it states ("8 GPUs").

    In prose, a chip named as a family ("NVIDIA GPUs", "Gaudi AI accelerators") is not a
    mention: it says what a product line is, not what a result ran on."""
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    folded = fold_words(cleaned)
    if not _screen().search(folded):
        return ()
    folded, positions = folded_with_positions(cleaned)
    chips = _chip_mentions(folded, cleaned, positions, prose)
    counts = [
        PlatformMention(text=published_span(cleaned, positions, match.start(), match.end()),
                        count=_number(match.group(1)), count_stated=True,
                        start=match.start(), end=match.end())
        for match in _COUNT_ONLY.finditer(folded)
        if _number(match.group(1)) is not None
        and not any(chip.start - 12 <= match.start() < chip.end + 8 for chip in chips)
    ]
    return tuple(chips) + tuple(counts)


@lru_cache(maxsize=65_536)
def read_platform(text: str, prose: bool = False) -> PlatformMention | None:
    """The platform `text` names: its first chip or system, with the count the text states
    (written next to the chip, else as "8 GPUs", else as tensor x pipeline parallel degrees
    "TP2,PP2"), else the count its system implies; a bare count when it names no chip."""
    mentions = find_mentions(text, prose)
    if not mentions:
        parallel = _parallel_count(fold_words(text[:MAX_READ_CHARS]))
        return None if parallel is None else PlatformMention(
            text=clean_text(text), count=parallel, count_stated=True)
    first = mentions[0]
    if first.accelerator is None or first.count_stated:
        return first
    again = next((m for m in mentions[1:] if m.accelerator == first.accelerator
                  and m.count_stated), None)  # "NVIDIA A100 (1x A100 80GB)"
    if again is not None:
        return replace(first, count=again.count, count_stated=True)
    bare = next((m for m in mentions if m.accelerator is None), None)
    if bare is not None:
        return replace(first, count=bare.count, count_stated=True)
    parallel = _parallel_count(fold_words(text[:MAX_READ_CHARS]))
    if parallel is not None:
        return replace(first, count=parallel, count_stated=True)
    return first


def _parallel_count(folded: str) -> int | None:
    degrees = {kind: int(degree) for kind, degree in _PARALLEL.findall(folded)}
    if not degrees:
        return None
    product = 1
    for degree in degrees.values():
        product *= degree
    return product if 0 < product <= MAX_ACCELERATORS else None


def system_name(mention: PlatformMention, count: int | None) -> str | None:
    """The canonical system a value ran on: the named system when the count is the one it
    implies, else "<count>x <chip>", else the chip."""
    if mention.system and (count is None or count == mention.implied_count):
        return mention.system
    if mention.accelerator is None:
        return None
    return f"{count}x {mention.accelerator}" if count else mention.accelerator


# Hardware no vocabulary knows, with the count of it a text states: "8x Zeta-9", "16x Lumen
# L20", "NeoChip X2 (16 chips)". A product name holds a token of letters and digits ("X2",
# "L20", "Zeta-9"), which keeps "8x faster" and "results (8 GPUs)" out.
_MODEL_TOKEN = r"(?=[A-Za-z0-9.+-]*[A-Za-z])(?=[A-Za-z0-9.+-]*\d)[A-Za-z0-9][A-Za-z0-9.+-]*"
_NAME = rf"(?:[A-Za-z][\w.+-]* )?{_MODEL_TOKEN}(?: {_MODEL_TOKEN})?"
_DEVICE_AFTER_COUNT = re.compile(rf"(?<![\w.])(\d{{1,7}}) ?[x\u00d7] ?({_NAME})(?![\w.+-])")
_DEVICE_BEFORE_COUNT = re.compile(
    rf"(?<![\w.+-])({_NAME}) ?\((\d{{1,7}}) ?(?:x )?(?:{_CHIP_NOUNS})\)", re.I)
_GENERIC_WORDS = frozenset([
    "gpu", "gpus", "card", "cards", "chip", "chips", "accelerator", "accelerators", "device",
    "devices", "node", "nodes", "x", "gb", "tb", "system", "systems", "server", "servers",
    "socket", "sockets", "core", "cores", "instance", "instances"])


@lru_cache(maxsize=16_384)
def unknown_device(text: str) -> PlatformMention | None:
    """Hardware `text` names that no vocabulary knows, written with its count ("8x Zeta-9",
    "NeoChip X2 (16 chips)"); None when it names none, or names a known chip."""
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    if not any(character.isdigit() for character in cleaned):
        return None
    if any(mention.accelerator for mention in find_mentions(cleaned)):
        return None
    for pattern, count_group in ((_DEVICE_AFTER_COUNT, 1), (_DEVICE_BEFORE_COUNT, 2)):
        match = pattern.search(cleaned)
        if match is not None:
            count = _number(match.group(count_group))
            return PlatformMention(match.group(0).strip(), count=count,
                                   count_stated=count is not None, names_device=True)
    return None


def names_device(text: str) -> bool:
    """Whether a platform cell the vocabulary cannot resolve still names hardware: anything
    besides a count of generic units ("8 GPUs", "2 nodes") does ("8x Zeta-9", "Server X")."""
    words = re.findall(r"[a-z]+", fold_words(text[:MAX_READ_CHARS]))
    return any(word not in _GENERIC_WORDS and word not in _NUMBER_WORDS for word in words)
