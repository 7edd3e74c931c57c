"""What a table is about where its rows and columns do not say: the model its caption, the
headings above it or the page title name, and whether it measures training or inference.

A model named only around the table ("ResNet50 v1.5 For PyTorch", a TensorRT-LLM table
under "#### Llama 3.3 70B") labels the values whose row and column name none: the nearest
text that names exactly one model wins (a heading naming two models settles nothing), and
the user's `perfledger map-label table` or `map-label source` mapping comes before all.
A table's workload comes from its column headers ("ISL/OSL", "QPS", "TTFT" are inference;
"Epochs", "MFU" training, schemas/vocab/workload_cues.csv), else from the page title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.model_names import (
    family_in_text,
    models_in_text,
    size_in_text,
    sized,
)
from perfledger.schemas.table_context import TableContext
from perfledger.schemas.vocabulary import read_vocab

MODEL_SOURCES = ("caption", "heading", "title")  # context texts that may name the model


@dataclass(frozen=True)
class TableSubject:
    model: str | None = None  # the model as the context names it
    model_source: str | None = None  # caption, heading, title or mapping
    family: str | None = None  # a family named without a size, for rows naming sizes only
    workload: str | None = None
    workload_source: str | None = None  # column or title


NOTHING = TableSubject()


def table_key(source_id: str, table_index: int) -> str:
    """How `perfledger map-label table` names a table: its source and its index."""
    return f"{source_id}#{table_index}"


def table_subject(
    context: TableContext,
    headers: tuple[str, ...],
    source_id: str | None,
    table_index: int,
    mappings: LabelMappings,
) -> TableSubject:
    model, model_source = _mapped_model(source_id, table_index, mappings)
    if model is None:
        model, model_source = _context_model(context)
    workload, workload_source = _headers_workload(headers), "column"
    if workload is None:
        title = next((text.text for text in context.texts if text.source == "title"), None)
        workload, workload_source = (_text_workload(title), "title") if title else (None, None)
    return TableSubject(
        model,
        model_source,
        _context_family(context),
        workload,
        workload_source if workload else None,
    )


def _mapped_model(
    source_id: str | None, table_index: int, mappings: LabelMappings
) -> tuple[str | None, str | None]:
    if not mappings or source_id is None:
        return None, None
    for kind, text in (("table", table_key(source_id, table_index)), ("source", source_id)):
        mapped = mappings.get(kind, text)
        if mapped and mapped.get("model"):
            return mapped["model"], "mapping"
    return None, None


def _context_model(context: TableContext) -> tuple[str | None, str | None]:
    texts = [text for text in context.texts if text.source in MODEL_SOURCES]
    for text in texts:
        named = models_in_text(text.text)
        identities = {reading.base for _phrase, reading in named}
        if len(identities) == 1:
            return named[0][0], text.source
    # "### Llama Throughput" over "#### A10 7b, fp16": a family and, nearer, a size.
    for position, text in enumerate(texts):
        size = size_in_text(text.text)
        if size is None:
            continue
        family = next(
            (found for farther in texts[position:] if (found := family_in_text(farther.text))), None
        )
        return (sized(family, size), text.source) if family else (None, None)
    return None, None


def _context_family(context: TableContext) -> str | None:
    for text in context.texts:
        if text.source in MODEL_SOURCES:
            family = family_in_text(text.text)
            if family is not None:
                return family
    return None


@cache
def _cues() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple(
        (re.compile(row["pattern"]), row["workload"])
        for row in read_vocab("workload_cues.csv").iter_rows(named=True)
    )


@lru_cache(maxsize=16_384)
def _text_workload(text: str) -> str | None:
    """The workload one header or title names, when it names one only."""
    folded = clean_text(text)[:500].lower()
    found = {workload for pattern, workload in _cues() if pattern.search(folded)}
    return found.pop() if len(found) == 1 else None


def _headers_workload(headers: tuple[str, ...]) -> str | None:
    found = {
        workload
        for header in headers
        if header
        for workload in (_text_workload(header),)
        if workload
    }
    return found.pop() if len(found) == 1 else None
