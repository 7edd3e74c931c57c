"""Precision labels: "16.32" (activations.weights), words ("BF16", "mixed precision", "AMP")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from perfledger.schemas.folding import (
    MAX_READ_CHARS,
    clean_text,
    fold_words,
    folded_with_positions,
    published_span,
)
from perfledger.schemas.vocabulary import read_vocab

_PAIR = re.compile(r"^(\d{1,2})\s*[./]\s*(\d{1,2})$")
_SPEEDUP_BETWEEN = re.compile(r"\bto\b|->|→|\bvs\.?\b| - ")


@dataclass(frozen=True)
class Precision:
    text: str  # as published
    activation: str | None  # precision of activations and gradients
    weight: str | None  # precision of weights


@cache
def _words() -> dict[str, tuple[str, str]]:
    return {row["word"]: (row["activation_dtype"], row["weight_dtype"])
            for row in read_vocab("precisions.csv").iter_rows(named=True)}


@cache
def _bits() -> dict[str, str]:
    return {row["bits"]: row["dtype"] for row in read_vocab("precision_bits.csv").iter_rows(named=True)}


@cache
def _searchable() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern finding every precision word allowed in running text, and the word key
    of each spelling (e.g. "mixed precision" -> "mixedprecision")."""
    spellings: dict[str, str] = {}
    for row in read_vocab("precisions.csv").iter_rows(named=True):
        if row["in_text"] == "true":
            word = row["word"]
            # letters and digits may be written apart ("fp 16", "mixed precision")
            spelled = re.sub(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", " ?", re.escape(word))
            spelled = spelled.replace("mixedprecision", "mixed ?precision")
            spellings[spelled] = word
    ordered = sorted(spellings, key=len, reverse=True)
    return (re.compile(r"(?<![a-z0-9])(" + "|".join(f"(?:{s})" for s in ordered)
                       + r")(?![a-z0-9])"), spellings)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text)


@lru_cache(maxsize=16_384)
def find_precisions(text: str) -> tuple[Precision, ...]:
    """Every precision word in `text`, in order."""
    pattern, _ = _searchable()
    cleaned = clean_text(text)[:MAX_READ_CHARS]
    folded, positions = folded_with_positions(cleaned)
    found = []
    for match in pattern.finditer(folded):
        activation, weight = _words()[_key(match.group(1))]
        found.append(Precision(published_span(cleaned, positions, match.start(), match.end()),
                               activation, weight))
    return tuple(found)


@lru_cache(maxsize=16_384)
def read_precision_label(label: str) -> Precision | None:
    """A precision cell: "16.32", a vocabulary word, or the words it holds; two different
    precisions in one label ("INT8/BF16") are a mixed precision."""
    cleaned = clean_text(label)
    pair = _PAIR.match(cleaned)
    if pair and pair.group(1) in _bits() and pair.group(2) in _bits():
        return Precision(cleaned, _bits()[pair.group(1)], _bits()[pair.group(2)])
    word = _words().get(_key(fold_words(cleaned)))
    if word is not None:
        return Precision(cleaned, *word)
    found = find_precisions(cleaned)
    if not found:
        return None
    if len({p.activation for p in found}) > 1 and not _qualifies_first(cleaned):
        return Precision(cleaned, "mixed", None)
    return Precision(cleaned, found[0].activation, found[0].weight)


def _qualifies_first(text: str) -> bool:
    """'FP16 (AMP)', 'fp8 w/ fp8 KVCache': a precision with a remark, not two of them."""
    return bool(re.search(r"\(|\bw/|\bwith\b", text))


def precision_of_header(header: str, comparison: bool) -> Precision | None:
    """The precision a column header states: for a comparison ("speedup (TF32 to mixed
    precision)") the one compared, the last; else the first."""
    found = find_precisions(header)
    if not found:
        return None
    if comparison and len(found) > 1 and _SPEEDUP_BETWEEN.search(clean_text(header).lower()):
        return found[-1]
    return found[-1] if comparison else found[0]
