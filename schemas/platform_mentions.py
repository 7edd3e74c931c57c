"""Accelerators and systems named in free text, with the number of chips the text states.

Platform labels are parsed by their structure against the chip and system vocabulary of
schemas/vocab/chips.csv (schemas/chip_vocabulary.py): "8x A100 80GB", "2x MI300X", "16x
CS-2", "DGX H100", "HLS-Gaudi2", "TPU v4-4096", "Xeon Platinum 8380 (2 sockets)", "B200 TP4",
"Raspberry Pi 5 Broadcom BCM2712, VideoCore VII", "V100 单卡", and rows such as "8 GPUs" that
give a count and leave the chip to the page around them (schemas/chip_counts.py). A new chip
is one line of data; hardware no vocabulary knows is read by its shape
(schemas/unknown_chips.py). A TPU slice's size counts chips or TensorCores as its generation
does ("TPU v4-4096" is 2048 chips; schemas/vocab/tpu_slices.csv).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from perfledger.schemas.chip_counts import (
    FAMILY_AFTER,
    GLUED_COUNT,
    MAX_ACCELERATORS,
    NUMBER_WORDS,
    count_matches,
    count_only,
    node_count,
    parallel_count,
    stated_count,
)
from perfledger.schemas.chip_vocabulary import (
    AS_PUBLISHED,
    KIND_RANK,
    ChipRule,
    match_at,
    requirement_met,
    vocabulary,
)
from perfledger.schemas.folding import (
    MAX_READ_CHARS,
    clean_text,
    fold_words,
    folded_with_positions,
    published_span,
)
from perfledger.schemas.placeholders import is_placeholder
from perfledger.schemas.vocabulary import read_vocab

__all__ = [
    "MAX_ACCELERATORS",
    "PlatformMention",
    "find_mentions",
    "names_device",
    "read_platform",
    "system_name",
]

_OPEN_PAREN = re.compile(r"^ ?\(")
_ALTERNATIVE = re.compile(r" ?(?:/|,|or|and|vs\.?|versus) ?")
# What a sentence says of hardware right after naming it when no result ran on it yet: "RTX 3090
# version is coming soon", "Gaudi3 support will be added", "MI300X: planned".
# Device time as a cost after a chip's name: "H800 GPU hours", "A100 GPU-hours", "TPU hours".
_DEVICE_HOURS_AFTER = re.compile(r" ?(?:(?:gpu|tpu|npu|accelerator|device|chip)[ -]?)?hours?\b")
_FUTURE_AFTER = re.compile(
    r"[^.;:!?,]{0,30}?(?<![a-z])(?:(?:is|are) )?(?:coming soon|to be (?:added|supported|released)"
    r"|will be (?:added|supported|available|released)|not (?:yet )?supported|under development"
    r"|work in progress|planned|即将|后续支持|敬请期待)"
)


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
    # Hardware no vocabulary knows ("8x Zeta-9", "Ingenic T40XP"): `accelerator` is its
    # name as published, unresolved.
    names_device: bool = False
    rank: int = KIND_RANK["accelerator"]  # an accelerator outranks an SoC, an SoC a CPU
    depth: int = 0  # brackets around it: "(...Mali-G720...)" describes the chip before it


def _expand(template: str, match: re.Match[str]) -> str:
    """A template's `$1` is the group upper-cased ("6271c": "6271C"), `$t1` title-cased."""

    def group(reference: re.Match[str]) -> str:
        text = match.group(int(reference.group(2))) or ""
        return text.title() if reference.group(1) else text.upper()

    return " ".join(re.sub(r"\$(t?)(\d)", group, template).split())


def _implied_count(rule: ChipRule, match: re.Match[str]) -> int | None:
    if not rule.count or rule.count == "slice":
        return None
    product = 1
    for factor in _expand(rule.count, match).split("*"):
        if not factor.isdigit() or len(factor) > 7:
            return None
        product *= int(factor)
    return product if 0 < product <= MAX_ACCELERATORS else None


@cache
def _units_per_chip() -> dict[str, int]:
    """By chip, how many of the units a slice's name counts make one chip (tpu_slices.csv)."""
    rows = read_vocab("tpu_slices.csv").iter_rows(named=True)
    return {row["accelerator"]: int(row["units_per_chip"]) for row in rows}


_SLICE_SIZE = re.compile(r"(\d{1,7})s?$")


def _slice_chips(accelerator: str, name: str) -> int | None:
    """The chips of a slice its name states ("v5p 128": 64 chips, "v5e 256": 256), for a chip
    whose slices tpu_slices.csv knows; None for another, or a size no whole number of chips."""
    per_chip = _units_per_chip().get(accelerator)
    size = _SLICE_SIZE.search(name)
    if per_chip is None or size is None or int(size.group(1)) % per_chip:
        return None
    chips = int(size.group(1)) // per_chip
    return chips if 0 < chips <= MAX_ACCELERATORS else None


def _chip_mentions(
    folded: str,
    cleaned: str,
    positions: Sequence[int],
    prose: bool,
    nearby: str = "",
    names: list[tuple[int, int]] | None = None,
) -> list[PlatformMention]:
    """The chips `folded` names; `names` gathers the span of every chip name read, those
    dropped as a family included."""
    vocab = vocabulary()
    mentions = []
    end = 0
    starts = [candidate.start() for candidate in vocab.candidates.finditer(folded)]
    if not prose:  # "8H100": a chip's name may start after a count written against it
        glued = [count.end() for count in GLUED_COUNT.finditer(folded)]
        starts = sorted({*starts, *glued}) if glued else starts
    for start in starts:
        if start < end:
            continue
        found = match_at(folded, start)
        if found is None:
            continue
        index, match = found
        rule = vocab.rules[index]
        if not requirement_met(rule, folded, start, match.end(), nearby):
            continue
        end = match.end()
        if prose and _in_file_name(cleaned, positions[start], positions[end - 1] + 1):
            # "edit the train_llama3_8b_h100_fp8.sh script": prose about a file says nothing
            # of what a result ran on (a table's own "BM1684/yolov5s.bmodel" cell does)
            continue
        if names is not None:
            names.append((start, end))
        if prose and _FUTURE_AFTER.match(folded, end):
            continue  # "RTX 3090 version is coming soon": no result ran on it yet
        if prose and _DEVICE_HOURS_AFTER.match(folded, end):
            continue  # "2.788M H800 GPU hours for its full training": a cost, no run's device
        if end - start <= _SHORT_NAME and _among_run_settings(cleaned, positions, start, end):
            continue  # "deepseekv3_l4_tp1_ep8": four layers beside the parallel degrees
        shorter = _shorter_reading(rule, folded, cleaned, positions, start, end, nearby)
        if shorter is not None:
            mention = _plural_or_as_published(rule, shorter, folded, cleaned, positions, prose)
        elif rule.accelerator == AS_PUBLISHED:
            mention = _as_published(rule, folded, cleaned, positions, start, end)
        else:
            mention = _mention(rule, match, folded, cleaned, positions, prose)
        if mention is not None:
            mentions.append(mention)
    if prose:
        mentions = _without_alternatives(mentions, folded)
    return _merged(mentions, folded, cleaned, positions)


_SHORT_NAME = 3  # "L4", "T4", "A10": a name short enough to be a run's setting in an identifier
# A run's settings written as parts of an identifier: parallel degrees, micro-batches.
_SETTING_PART = re.compile(r"(?:tp|pp|dp|ep|cp|sp|vp|mbs?|mbc|gbs|bs)\d{1,4}")


def _among_run_settings(cleaned: str, positions: Sequence[int], start: int, end: int) -> bool:
    """Whether a short chip name is one part of an identifier whose other parts are a
    run's settings ("deepseekv2_tp1_ep8_pp1_dp8_l4_mbc4"): there it counts layers."""
    begin, finish = positions[start], positions[end - 1] + 1
    parts = _word_around(cleaned, begin, finish).lower().split("_")
    if len(parts) < 3 or cleaned[begin:finish].lower() not in parts:
        return False
    return sum(bool(_SETTING_PART.fullmatch(part)) for part in parts) >= 2


_FILE_NAME = re.compile(
    r"\.(?:sh|bash|py|ipynb|ya?ml|json|toml|cfg|conf|ini|csv|tsv|txt|md|rst|"
    r"log|sql|onnx|pt|pth|bin|ckpt|safetensors|engine|plan|trt|tflite|"
    r"rknn|hef|bmodel|om|mlmodel|mlpackage|tar|gz|zip)$",
    re.I,
)
_RUN_PUNCTUATION = "`'\"()[]<>,;:!?"


def _in_file_name(cleaned: str, start: int, end: int) -> bool:
    """Whether cleaned[start:end] sits inside a file name ("train_llama3_8b_h100_fp8.sh")."""
    return bool(_FILE_NAME.search(_word_around(cleaned, start, end).strip(_RUN_PUNCTUATION)))


def _word_around(cleaned: str, start: int, end: int) -> str:
    """The run of characters between spaces that holds cleaned[start:end]."""
    left = cleaned.rfind(" ", 0, start) + 1
    right = cleaned.find(" ", end)
    return cleaned[left : right if right >= 0 else len(cleaned)]


def _shorter_reading(
    rule: ChipRule,
    folded: str,
    cleaned: str,
    positions: Sequence[int],
    start: int,
    end: int,
    nearby: str,
) -> tuple[ChipRule, re.Match[str]] | None:
    """For a chip whose own name ends in S ("V100S", "L40S") written in capitals with a small
    's' after them ("8 V100s", "L40s"): the rule and match that read the name without the 's'
    ("V100", "L40"), whose plural it may be; None where the 's' is a capital ("V100S") or the
    name holds small letters of its own ("iPhone 5s")."""
    if cleaned[positions[end - 1]] != "s" or end - start < 3:
        return None
    words = published_span(cleaned, positions, start, end - 1).split()
    last = words[-1] if words else ""
    if last == last.upper() == last.lower() or last != last.upper():
        return None  # no capital letter, or a small one: the case says nothing of the 's'
    found = match_at(folded[: end - 1], start)
    if found is None or found[1].end() != end - 1:
        return None
    shorter = vocabulary().rules[found[0]]
    if shorter is rule or not requirement_met(shorter, folded, start, end - 1, nearby):
        return None
    return shorter, found[1]


def _plural_or_as_published(
    rule: ChipRule,
    shorter: tuple[ChipRule, re.Match[str]],
    folded: str,
    cleaned: str,
    positions: Sequence[int],
    prose: bool,
) -> PlatformMention | None:
    """A count before "V100s" makes it a plural ("8 V100s": eight V100); without one, "L40s"
    reads as two chips (L40S, or L40 in the plural), and is kept as published, unresolved."""
    short_rule, match = shorter
    start, end = match.start(), match.end() + 1
    if stated_count(folded, start, end, prose, plural=True) is not None:
        return _mention(short_rule, match, folded, cleaned, positions, prose, plural_end=end)
    return _as_published(rule, folded, cleaned, positions, start, end)


def _as_published(
    rule: ChipRule, folded: str, cleaned: str, positions: Sequence[int], start: int, end: int
) -> PlatformMention:
    """A name that reads as more than one chip ("Jetson NX": Xavier NX or Orin NX): kept as
    the page writes it, unresolved, for a mapping to settle (`perfledger map-label`)."""
    text = published_span(cleaned, positions, start, end)
    return PlatformMention(
        text=text,
        vendor=rule.vendor,
        accelerator=text,
        start=start,
        end=end,
        names_device=True,
        rank=rule.rank,
    )


# "We benchmarked these methods on NVIDIA H200 GPUs": the chips a run used, however many.
_RAN_ON = re.compile(
    r"(?<![a-z])(?:benchmarked|measured|tested|evaluated|profiled|ran)(?: [a-z0-9-]+){0,6}"
    r" on(?: [a-z0-9-]+){0,2} $"
)


def _mention(
    rule: ChipRule,
    match: re.Match[str],
    folded: str,
    cleaned: str,
    positions: Sequence[int],
    prose: bool,
    plural_end: int | None = None,
) -> PlatformMention | None:
    """The mention a rule's match makes; `plural_end`: where the plural 's' written after
    the match ends ("V100s" read by the V100 rule)."""
    start, end = match.start(), plural_end or match.end()
    own = rule.pattern.fullmatch(match.group(0))
    implied = _implied_count(rule, own) if own else None
    accelerator = _expand(rule.accelerator, own) if own else rule.accelerator
    assert match.lastgroup is not None  # the rule's own group (chip_vocabulary.match_at)
    plural = plural_end is not None or len(match.group(0)) > len(match.group(match.lastgroup))
    stated = stated_count(folded, start, end, prose, plural)
    in_slices = rule.count == "slice"
    if in_slices:  # "2x v5p-128": two slices of the chips its name states
        implied = _slice_chips(accelerator, match.group(0))
        if stated is not None and (
            implied is None or not stated.of_units or stated.nodes or stated.per_node
        ):
            stated = None
    if (
        prose
        and stated is None
        and (plural or FAMILY_AFTER.match(folded[end : end + 60]))
        and not _RAN_ON.search(folded[max(0, start - 80) : start])
    ):
        return None  # "runs on NVIDIA GPUs", "Intel Gaudi AI accelerators": a family
    count = None
    if stated is not None:
        if stated.per_node:  # "8 DGX nodes with 8 A100 GPUs/node"
            nodes = node_count(folded)
            count = stated.number * nodes if nodes else None
        elif stated.of_units and (rule.system or in_slices) and implied:  # "4x DGX H100"
            count = stated.number * implied
        elif not stated.nodes:  # "32 H100 DGX nodes": GPUs per node not stated
            count = stated.number
    if count is not None and not 0 < count <= MAX_ACCELERATORS:
        count = None
    before = folded[:start]
    return PlatformMention(
        text=published_span(cleaned, positions, start, end),
        vendor=rule.vendor,
        accelerator=accelerator,
        system=_expand(rule.system, own) if rule.system and own else None,
        count=count if count is not None else implied,
        count_stated=count is not None,
        implied_count=implied,
        start=start,
        end=end,
        rank=rule.rank,
        depth=max(0, before.count("(") - before.count(")")),
    )


def _without_alternatives(mentions: list[PlatformMention], folded: str) -> list[PlatformMention]:
    """Prose naming chips side by side ("Trainium/Inferentia2", "Trn2 or Trn1 instances")
    speaks of a range of products, not of the one a result ran on."""
    paired = set()
    for index, (first, second) in enumerate(zip(mentions, mentions[1:], strict=False)):
        if first.accelerator != second.accelerator and _ALTERNATIVE.fullmatch(
            folded[first.end : second.start]
        ):
            paired.update((index, index + 1))
    return [mention for index, mention in enumerate(mentions) if index not in paired]


def _merged(
    mentions: list[PlatformMention], folded: str, cleaned: str, positions: Sequence[int]
) -> list[PlatformMention]:
    """A system followed by its chips in brackets ("DGX A100 (8x A100 80GB)") is one mention,
    with the bracket's count."""
    merged: list[PlatformMention] = []
    for mention in mentions:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.system
            and not previous.count_stated
            and mention.accelerator == previous.accelerator
            and mention.count_stated
            and _OPEN_PAREN.match(folded[previous.end : mention.start])
        ):
            closing = folded.find(")", mention.end)
            end = closing + 1 if 0 <= closing - mention.end <= 40 else mention.end
            merged[-1] = replace(
                previous,
                count=mention.count,
                count_stated=True,
                end=end,
                text=published_span(cleaned, positions, previous.start, end),
            )
            continue
        merged.append(mention)
    return merged


def find_mentions(text: str, prose: bool = False, nearby: str = "") -> tuple[PlatformMention, ...]:
    """Every chip or system `text` names, in order, then the bare counts it states ("8 GPUs").

    In prose, a chip named as a family ("NVIDIA GPUs", "Gaudi AI accelerators") is not a
    mention: it says what a product line is, not what a result ran on."""
    # One memo entry per reading, however the caller passes the arguments: a memo keys
    # `f(t, True)`, `f(t, prose=True)` and `f(t, True, "")` apart, and a paragraph is read by
    # several callers.
    return _mentions(text, prose, nearby)


@lru_cache(maxsize=65_536)
def _mentions(text: str, prose: bool, nearby: str) -> tuple[PlatformMention, ...]:
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    folded = fold_words(cleaned)
    if (
        not vocabulary().candidates.search(folded)
        and next(count_matches(folded), None) is None
        and (prose or not GLUED_COUNT.search(folded))
    ):
        return ()
    folded, positions = folded_with_positions(cleaned)
    names: list[tuple[int, int]] = []
    chips = _chip_mentions(folded, cleaned, positions, prose, nearby, names)
    counts = []
    for match in count_matches(folded):
        count = count_only(match)
        if (
            count is not None
            and not _joined_to_word(cleaned, positions[match.start()])
            and (not any(chip.start - 12 <= match.start() < chip.end + 8 for chip in chips))
            # the number ends a chip's name read as a family ("OnePlus 12 devices",
            # "RTX 4090 GPUs"): it names the product, it counts nothing
            and not any(start < match.start() < end for start, end in names)
        ):
            counts.append(
                PlatformMention(
                    text=published_span(cleaned, positions, match.start(), match.end()),
                    count=count,
                    count_stated=True,
                    start=match.start(),
                    end=match.end(),
                )
            )
    return tuple(chips) + tuple(counts)


def _joined_to_word(cleaned: str, position: int) -> bool:
    """Whether the number at `position` ends a name joined by a hyphen ("Zeta-9 chips")."""
    return position >= 2 and cleaned[position - 1] in "-_" and cleaned[position - 2].isalpha()


def read_platform(text: str, prose: bool = False, nearby: str = "") -> PlatformMention | None:
    """The platform `text` names: the chip or system that ran the result (an accelerator
    before the SoC or host CPU named beside it, a chip before the parts its brackets list),
    with the count the text states (written next to the chip, else as "8 GPUs", else as
    parallel degrees "TP2,PP2"), else the count its system implies; a bare count when it
    names no chip."""
    return _platform(text, prose, nearby)  # one memo entry per reading (see find_mentions)


@lru_cache(maxsize=65_536)
def _platform(text: str, prose: bool, nearby: str) -> PlatformMention | None:
    mentions = find_mentions(text, prose, nearby)
    chips = [mention for mention in mentions if mention.accelerator is not None]
    if not chips:
        if mentions:
            return mentions[0]
        parallel = parallel_count(fold_words(text[:MAX_READ_CHARS]), whole=False)
        return (
            None
            if parallel is None
            else PlatformMention(text=clean_text(text), count=parallel, count_stated=True)
        )
    first = min(chips, key=lambda chip: (chip.depth, -chip.rank))
    bare = next((m for m in mentions if m.accelerator is None), None)
    if first.count_stated:
        # "a single Atlas 800T A2 node with a 4-card deployment", "one DGX H100 node using 4
        # GPUs": the devices a run used, fewer than the one system named holds.
        if (
            bare is not None
            and first.count == first.implied_count
            and bare.count is not None
            and first.count is not None
            and bare.count < first.count
        ):
            return replace(first, count=bare.count)
        return first
    again = next(
        (
            m
            for m in chips
            if m is not first and m.accelerator == first.accelerator and m.count_stated
        ),
        None,
    )  # "NVIDIA A100 (1x A100 80GB)"
    if again is not None:
        return replace(first, count=again.count, count_stated=True)
    if bare is not None:
        return replace(first, count=bare.count, count_stated=True)
    parallel = parallel_count(fold_words(text[:MAX_READ_CHARS]), whole=True)
    if parallel is not None:
        return replace(first, count=parallel, count_stated=True)
    return first


def system_name(mention: PlatformMention, count: int | None) -> str | None:
    """The canonical system a value ran on: the named system when the count is the one it
    implies, else "<count>x <chip>", else the chip."""
    if mention.system and (count is None or count == mention.implied_count):
        return mention.system
    if mention.accelerator is None:
        return None
    return f"{count}x {mention.accelerator}" if count else mention.accelerator


_GENERIC_WORDS = frozenset(
    [
        "gpu",
        "gpus",
        "card",
        "cards",
        "chip",
        "chips",
        "accelerator",
        "accelerators",
        "device",
        "devices",
        "node",
        "nodes",
        "x",
        "gb",
        "tb",
        "system",
        "systems",
        "server",
        "servers",
        "socket",
        "sockets",
        "core",
        "cores",
        "instance",
        "instances",
    ]
)


def names_device(text: str) -> bool:
    """Whether a platform cell the vocabulary cannot resolve still names hardware: anything
    besides a count of generic units ("8 GPUs", "2 nodes") does ("8x Zeta-9", "Quantum Pod9")."""
    if is_placeholder(text[:MAX_READ_CHARS]):
        return False  # "N/A", "-": nothing published
    words = re.findall(r"[a-z]+", fold_words(text[:MAX_READ_CHARS]))
    return any(word not in _GENERIC_WORDS and word not in _NUMBER_WORDS_LATIN for word in words)


_NUMBER_WORDS_LATIN = frozenset(word for word in NUMBER_WORDS if word.isascii())


def count_of_all_chips(text: str, mention: PlatformMention, prose: bool) -> PlatformMention:
    """The count `mention` gives, for the chip it names; a count `text` states bare ("All
    runs were distributed runs on 8 devices") beside chips of more than one kind ("The Gaudi
    runs ... and the A100 runs ...") is the count of each of them, not of the first alone."""
    if mention.accelerator is None or mention.count is None or not mention.count_stated:
        return mention
    mentions = find_mentions(text, prose)
    chips = {m.accelerator for m in mentions if m.accelerator is not None}
    if len(chips) < 2 or any(m.accelerator == mention.accelerator and m.count for m in mentions):
        return mention
    return replace(mention, accelerator=None, vendor=None, system=None, names_device=False)
