"""What a table's headers say of what its rows and columns are, beyond each header's role.

A table whose top-left header names a subject that is never a run ("Cookie", "Package",
"Dependency", schemas/vocab/non_result_subjects.csv) and no header of which names a result
lists no results: a cookie's "30 mins" or a package's "2.0" is no measurement, whatever
metric a paragraph above names.

Headers whose metric abbreviation is the name of a thing the table compares:
"PPL" is perplexity in a quantization table and OpenPPL's name in its benchmark tables:
"PPL(fp16) | TRT-8(fp16) | PPL(int8) | TRT-8(int8)" compares two engines at two precisions,
each column a run. A header that is only a word written in capitals and a bracketed qualifier
reads as a name, not a metric, where another result header qualified the same way is headed
by a word of no role: the table crosses names with qualifiers. The word then names no metric
in the table's context either ("PPL and TRT Benchmark on T4").

A "Precision" header over decimals beside "Recall" ("Precision | Recall | mAP" over 0.912),
or naming the model it scores ("Floating point precision" over 77.37), names the score, not
the numeric format.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, lru_cache
from typing import Any

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import HeaderReading, read_header
from perfledger.schemas.vocabulary import read_vocab

# "PPL(fp16)", "TRT-8 (int8)": a name and one bracketed qualifier
_NAME_AND_QUALIFIER = re.compile(r"^([^()\[\]]{1,40}?)\s*[(\[]([^()\[\]]{1,40})[)\]]$")
# A word written in capitals, as names and abbreviations both are ("PPL", "MOS")
_CAPITALS = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")


@lru_cache(maxsize=16_384)
def _name_and_qualifier(text: str) -> tuple[str, str] | None:
    matched = _NAME_AND_QUALIFIER.match(text.strip())
    if matched is None:
        return None
    return matched.group(1).strip(), matched.group(2).strip().lower()


@lru_cache(maxsize=16_384)
def _names_nothing(word: str) -> bool:
    """A head word of no role: a name ("TRT-8", "ONNX Runtime"), no metric nor setting."""
    reading = read_header(word)
    return bool(word) and reading.kind is None and not reading.is_number


def names_among_names(
    readings: list[HeaderReading],
) -> tuple[list[HeaderReading], frozenset[str]]:
    """`readings` with each metric header that names one of the things compared read as a
    name (no metric), and those names, folded, for the table's context to skip."""
    parts = [_name_and_qualifier(reading.text) for reading in readings]
    named_by_qualifier: dict[str, set[str]] = {}
    for part in parts:
        if part is not None and _names_nothing(part[0]):
            named_by_qualifier.setdefault(part[1], set()).add(part[0])
    if not named_by_qualifier:
        return readings, frozenset()
    out, names = list(readings), set()
    for position, (reading, part) in enumerate(zip(readings, parts, strict=True)):
        if reading.kind != "metric" or part is None or reading.unit is not None:
            continue
        word, qualifier = part
        if _CAPITALS.match(word) and named_by_qualifier.get(qualifier, set()) - {word}:
            out[position] = replace(reading, kind=None, role=None, share=False)
            names.add(word.lower())
    return out, frozenset(names)


@cache
def _subjects() -> re.Pattern[str]:
    words = "|".join(
        f"(?:{row['pattern']})"
        for row in read_vocab("non_result_subjects.csv").iter_rows(named=True)
    )
    return re.compile(rf"(?:{words})")


_RESULT_KINDS = frozenset({"metric", "result", "statistic", "unit", "metric_name"})


def lists_no_results(readings: list[HeaderReading]) -> bool:
    """Whether the table lists things that are never runs (cookies, packages), and none of
    its headers names a result or a unit."""
    if len(readings) < 2 or not _subjects().fullmatch(fold_words(readings[0].text).strip()):
        return False
    return not any(
        reading.kind in _RESULT_KINDS or reading.unit is not None for reading in readings
    )


def scored_precisions(readings: list[HeaderReading], stats: Sequence[Any]) -> list[HeaderReading]:
    """`readings` with each "Precision" header over a column of decimals (its `stats`: the
    cells filled, numeric and written with a decimal point) read as an accuracy, where a
    "Recall" header beside it or a model's kind in it ("Floating point", "Quantized") says it
    scores: "Precision | 16.16" is Graphcore's weights and accumulation format. And the
    other way round (`precision_labels`): a header read as an accuracy over labels of
    precisions names them."""
    beside_recall = any("recall" in fold_words(reading.text) for reading in readings)
    readings = precision_labels(readings, stats)
    return [
        replace(reading, kind="metric", role="accuracy")
        if reading.kind == "label"
        and reading.role == "precision"
        and column.numeric * 2 >= column.filled > 0
        and column.point * 2 >= column.numeric
        and (beside_recall or _SCORED_MODEL.search(reading.text) is not None)
        else reading
        for reading, column in zip(readings, stats, strict=True)
    ]


_SCORED_MODEL = re.compile(r"(?i)float|quantiz|浮点|量化")


def precision_labels(readings: list[HeaderReading], stats: Sequence[Any]) -> list[HeaderReading]:
    """`readings` with each header read as an accuracy over a column of precision labels
    (its `stats`: most filled cells are one, "FP16", "INT8") read as the rows' precision:
    "精度" is the accuracy of a Chinese page and the numeric precision of a Japanese one."""
    return [
        replace(reading, kind="label", role="precision")
        if reading.kind == "metric"
        and reading.role == "accuracy"
        and column.precisions * 2 > column.filled > 0
        and column.numeric == 0
        else reading
        for reading, column in zip(readings, stats, strict=True)
    ]


# A header naming a width in bits and nothing else: "bits", "#bits", "bit width".
BITS_HEADER = re.compile(r"(?i)\s*(?:#|n|num(?:ber of)?)?\s*bits?(?:[ -]?width)?\s*")


def precision_columns(readings: list[HeaderReading], stats: Sequence[Any]) -> list[HeaderReading]:
    """`scored_precisions`, then each column of widths in bits read as the rows' precision:
    under a header naming nothing whose cells are mostly such a width ("Technique": "Base",
    "8-bit", "4-bit (G=32)"), and under "bits" over numbers ("16", "8", "4"), which the
    rows' labels read as widths (schemas/row_labels.py). Read as results or settings, the
    widths were a value "8 -bit" and the rows of each width shared one precision."""
    return [
        replace(reading, kind="label", role="precision")
        if (reading.kind is None and column.numeric > 0 and column.precisions * 2 >= column.filled)
        or (BITS_HEADER.fullmatch(reading.text) is not None and column.numeric == column.filled > 0)
        else reading
        for reading, column in zip(scored_precisions(readings, stats), stats, strict=True)
    ]
