"""What a table's context states part by part: a precision per part of the run ("FP8
dispatching and BF16 combining"), a precision or a count per chip of a comparison ("H100 FP8,
A100 FP16", "on 128 A100 GPUs as well as 96 H100 GPUs"), a quantized run's precision; and
whether a context text reads as prose."""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.context_words import without_names, without_ratings
from perfledger.schemas.found import Found
from perfledger.schemas.platform_mentions import PlatformMention, find_mentions
from perfledger.schemas.precisions import Precision, find_precisions, read_precision_label
from perfledger.schemas.table_context import TableContext

_WORD = re.compile(r"[^\W_][\w.+-]*")
_PART_WORD = re.compile(r"[a-z]{4,}")


def precisions_of_parts(context: TableContext) -> Found | None:
    """{part: precision} a context text states per part of the run ("FP8 dispatching and BF16
    combining"): a precision word, then the word naming what runs in it."""
    for text in context.texts:
        parts = _parts_in(text.text)
        if parts:
            return Found(parts, text.source)
    return None


@lru_cache(maxsize=16_384)
def _parts_in(text: str) -> dict[str, Precision]:
    words = _WORD.findall(without_names(text))
    parts: dict[str, Precision] = {}
    for word, after in zip(words, words[1:], strict=False):
        # every precision label holds a digit ("FP8"); most words hold none
        precision = (
            read_precision_label(word)
            if not word.isalpha() and any(map(str.isdigit, word))
            else None
        )
        if (
            precision is not None
            and precision.activation is not None
            and _PART_WORD.fullmatch(after.lower())
        ):
            parts.setdefault(after.lower(), precision)
    return parts if len(parts) > 1 else {}


def precisions_of_chips(context: TableContext) -> Found | None:
    """{chip: precision} the nearest context text states per chip ("FP8 H100, FP16 A100"):
    a comparison's chips each ran in a precision of their own."""
    for text in context.texts:
        of_chips = _chips_in(text.text, text.source)
        if of_chips:
            return Found(of_chips, text.source)
    return None


def counts_of_chips(context: TableContext) -> Found | None:
    """{chip: mention with its count} the nearest context text states for more than one
    chip ("on 128 A100 GPUs as well as 96 H100 GPUs"): the columns of a table comparing the
    chips each ran on the count stated for theirs."""
    for text in context.texts:
        counted = _counted_chips(text.text, text.source)
        if len(counted) > 1:
            return Found(counted, text.source)
    return None


@lru_cache(maxsize=16_384)
def _counted_chips(text: str, source: str) -> dict[str, PlatformMention]:
    counted: dict[str, PlatformMention] = {}
    for mention in find_mentions(text, prose=reads_as_prose(text, source)):
        if mention.accelerator is not None and mention.count_stated:
            counted.setdefault(mention.accelerator, mention)
    return counted


_CLAUSES = re.compile(r"[,;|]|\.\s")


@lru_cache(maxsize=16_384)
def _chips_in(text: str, source: str) -> dict[str, Precision]:
    """The chips of `text` each paired with a precision in a clause of its own ("H100 FP8,
    A100 FP16"), where they differ; else none."""
    of_chips: dict[str, Precision] = {}
    for clause in _CLAUSES.split(without_names(text)):
        precisions = find_precisions(clause) if any(map(str.isdigit, clause)) else ()
        if len(precisions) != 1:
            continue
        chips = {
            mention.accelerator
            for mention in find_mentions(clause, reads_as_prose(clause, source))
            if mention.accelerator is not None
        }
        if len(chips) == 1:
            of_chips.setdefault(chips.pop(), precisions[0])
    distinct = {precision.text.casefold() for precision in of_chips.values()}
    return of_chips if len(of_chips) > 1 and len(distinct) > 1 else {}


_QUANTIZED = frozenset({"int8", "int4", "fp8", "fp4"})


def quantized_precision(context: TableContext) -> Found | None:
    """The precision the context gives a run whose weights and activations are both
    quantized ("W8A8 mode", "int8-int8 compute"): the first it names of that kind."""
    for text in context.texts:
        for precision in find_precisions(without_ratings(without_names(text.text))):
            if precision.activation in _QUANTIZED and precision.weight in _QUANTIZED:
                return Found(precision, text.source)
    return None


def precision_of_part(parts: dict[str, Precision], group: str | None) -> Precision | None:
    """The precision stated for the part a column group is named after ("Dispatch #EP":
    "FP8 dispatching"): the part word starting with the group word's stem."""
    if not group:
        return None
    stem = group[:-1] if group.endswith("e") and len(group) > 4 else group
    return next((precision for word, precision in parts.items() if word.startswith(stem)), None)


_SENTENCE_WORDS = 8  # a caption of this many words is a sentence ("Table 6. ... on a single GPU")


def reads_as_prose(text: str, source: str) -> bool:
    """A paragraph, or a caption written as a sentence, reads as prose: "a single A6000 GPU"
    is one, "NVIDIA GPUs" a product line."""
    return source in ("paragraph", "note") or (
        source == "caption" and len(text.split()) >= _SENTENCE_WORDS
    )
