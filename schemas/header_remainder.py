"""The words of a header that name none of what it is read for: "Prefill" of "Prefill
token/s", "KTrans (8 experts) Prefill" of "KTrans (8 experts) Prefill token/s".

A table read turned around has its metrics in its first column, one row each; what such a
row's label says besides its metric, unit, statistic, precision and hardware (the phase of
the run, the system or setting measured) is the one thing that tells two of its rows apart,
and is kept as the values' variant (schemas/result_columns.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import HeaderReading, role_matches, statistic_of
from perfledger.schemas.labels import workload_phase
from perfledger.schemas.precisions import find_precisions

_WORD = re.compile(r"[^\s()\[\]{},;:/|]+")
_EMPTY_BRACKETS = re.compile(r"[(\[{][^\w(\[{]*[)\]}]")
_LOOSE = re.compile(r"(?<=[(\[{])[\s,;:/|]+|[\s,;:/|]+(?=[)\]}])|(?<=\s)[,;:/|](?=\s)")
_PER = re.compile(r"\bper\s+\S+", re.I)  # "per token": the unit's, not the row's
_EDGES = " -:/,;|=&+"
# Which of a served request's times or rates a row gives ("Mean TTFT", "Mean E2E latency",
# "P99 ITL", "Input throughput"): all are latencies or throughputs, and only these words tell
# the rows apart.
_NAMES_WHICH_FIGURE = re.compile(
    r"(?<![a-z0-9])(?:ttft|tpot|itl|e2el?|time to first token|time per output token"
    r"|inter ?token latency|end to end|input|output|prompt|completion|request)(?![a-z0-9])"
)
# Words that join a header's parts and say nothing of their own.
_JOINING = frozenset(("per", "in", "of", "at", "on", "for", "the", "a", "and", "or", "w", "with"))


@lru_cache(maxsize=16_384)
def header_remainder(reading: HeaderReading) -> str | None:
    """What `reading`'s header says besides what is read from it, as published; None when
    nothing is left."""
    text = reading.text
    if not text or reading.kind not in ("metric", "statistic", "result"):
        return None
    dropped = _read_words(reading)
    kept = _WORD.sub(
        lambda match: "" if _folded(match.group(0)) in dropped else match.group(0),
        _PER.sub(" ", text),
    )
    kept = _EMPTY_BRACKETS.sub(" ", _LOOSE.sub("", " ".join(kept.split())))
    kept = " ".join(kept.split()).strip(_EDGES)
    words = {_folded(word) for word in _WORD.findall(kept)}
    return kept if words - _JOINING - {""} else None


def _folded(word: str) -> str:
    """A word as compared; a setting written "name=value" is its name, which the header's
    reading reads ("batch_size=1" of "Latency (batch_size=1)": a batch size)."""
    name = word.split("=", 1)[0] if "=" in word else word
    return fold_words(name).strip(".").replace(" ", "_")


def _read_words(reading: HeaderReading) -> frozenset[str]:
    """The folded words of the parts of the header its reading stands for."""
    folded = fold_words(reading.text)
    spans = [
        folded[start:end]
        for start, end, _rule in role_matches(folded)
        if not _NAMES_WHICH_FIGURE.search(folded[start:end])
    ]
    if reading.unit is not None:
        spans.append(reading.unit.alias)
    if reading.statistic is not None:
        spans += [word for word in _WORD.findall(folded) if statistic_of(word)]
    spans += [fold_words(found.text) for found in find_precisions(reading.text)]
    if reading.platform is not None and reading.platform.text:
        spans.append(fold_words(reading.platform.text))
    words = {_folded(word) for span in spans for word in _WORD.findall(fold_words(span))}
    words |= {"_".join(fold_words(span).split()) for span in spans}
    # "Training throughput": the workload is read from the table as it is from a header.
    words |= {word for word in _WORD.findall(folded) if workload_phase(word)[0] is not None}
    return frozenset(words | _JOINING)
