"""Parsed cells -> canonical measurements, with every value that does not fit set apart.

The tables of many documents are read at once (schemas/chunk_reading.py), each with the text
around it and the decimal mark of its page; each value's labels are resolved and given a
readable natural key (schemas/value_assembly.py) and its document's lineage here, and the
cells that gave no value become quarantine rows with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from perfledger.schemas.chunk_reading import DocumentPlans, read_chunk
from perfledger.schemas.column_types import ColumnTypes
from perfledger.schemas.frame_runs import parts_by
from perfledger.schemas.identities import with_identities
from perfledger.schemas.label_mappings import NO_MAPPINGS, LabelMappings
from perfledger.schemas.measurements import MEASUREMENT_DTYPES
from perfledger.schemas.reading_caches import refresh_caches
from perfledger.schemas.value_assembly import IDENTITY_PARTS, PAGE_ORDER, assemble, identity_parts

_CONTEXT_COLUMNS = (
    "source_id",
    "source_url",
    "document_sha256",
    "document_title",
    "captured_at",
    "parser_version",
)
__all__ = ["IDENTITY_PARTS", "identity_parts", "normalize_cells", "normalize_documents"]


@dataclass(frozen=True)
class DocumentContext:
    source_id: str
    source_url: str
    document_sha256: str
    document_title: str | None
    captured_at: str
    parser_version: str
    language: str | None = None  # as the page declares it
    outline: pl.DataFrame | None = field(default=None, compare=False, hash=False)
    # Its tables' plans, when the process that read it made them (chunk_reading.plan_document)
    plans: DocumentPlans | None = field(default=None, compare=False, hash=False)


@dataclass
class NormalizedDocument:
    measurements: pl.DataFrame
    quarantine: pl.DataFrame


QUARANTINE_SCHEMA: ColumnTypes = {
    "document_sha256": pl.String,
    "source_id": pl.String,
    "stage": pl.String,
    "check": pl.String,
    "reason": pl.String,
    "table_index": pl.Int32,
    "table_title": pl.String,
    "row_number": pl.Int32,
    "column_name": pl.String,
    "raw_value": pl.String,
    "raw_row": pl.String,
    "line_number": pl.Int32,
}
_EMPTY_QUARANTINE = pl.DataFrame(schema=QUARANTINE_SCHEMA)
_EMPTY_MEASUREMENTS = pl.DataFrame(schema=MEASUREMENT_DTYPES)


def empty_quarantine() -> pl.DataFrame:
    # One frame serves every caller: building an empty frame costs more than a page's rows.
    return _EMPTY_QUARANTINE


def quarantine_frame(
    frame: pl.DataFrame,
    *,
    document_sha256: str,
    source_id: str,
    stage: str,
    check: pl.Expr,
    reason: pl.Expr,
    raw_value: pl.Expr,
    line_number: pl.Expr,
) -> pl.DataFrame:
    """Rows set aside outside a table (claims, whole files): the table columns stay null."""
    # Built column by column: a query holding a literal per column costs more than the rows,
    # and columns taken as they are (the usual case) need no query at all.
    exprs = {"check": check, "reason": reason, "raw_value": raw_value, "line_number": line_number}
    if all(expr.meta.is_column() for expr in exprs.values()):
        picked = {
            name: frame.get_column(expr.meta.output_name()).alias(name)
            for name, expr in exprs.items()
        }
    else:
        picked = {column.name: column for column in frame.select(**exprs).get_columns()}
    given = {"document_sha256": document_sha256, "source_id": source_id, "stage": stage}
    rows = len(picked["check"])
    return pl.DataFrame(
        [
            picked[name].cast(dtype)
            if name in picked
            else pl.Series(name, [given.get(name)], dtype=dtype).new_from_index(0, rows)
            for name, dtype in QUARANTINE_SCHEMA.items()
        ]
    )


def normalize_cells(
    cells: pl.DataFrame, context: DocumentContext, mappings: LabelMappings = NO_MAPPINGS
) -> NormalizedDocument:
    """Turn one document's parsed cells into canonical measurements and quarantined values."""
    return normalize_documents([(cells, context)], mappings)[0]


def normalize_documents(
    documents: list[tuple[pl.DataFrame, DocumentContext]],
    mappings: LabelMappings = NO_MAPPINGS,
) -> list[NormalizedDocument]:
    """`normalize_cells` for several documents at once, in the order given.

    Every polars query has a fixed cost of its own, larger than the work on one page's few
    hundred cells; running them once over many documents shares it out. Every row keeps the
    index of its document, and every key and ranking includes it, so the result for each
    document is the one it would get alone."""
    refresh_caches()
    reading = read_chunk(documents, mappings)
    if reading.values is None or reading.values.height == 0:
        measurements = [_EMPTY_MEASUREMENTS] * len(documents)
    else:
        measurements = _split(assemble(reading.values), documents)
    problems: list[list[dict]] = [[] for _ in documents]
    for index, problem in reading.problems:
        problems[index].append(problem)
    return [
        NormalizedDocument(frame, _quarantine(found, context))
        for frame, found, (_cells, context) in zip(measurements, problems, documents, strict=True)
    ]


def _split(frame: pl.DataFrame, documents: list) -> list[pl.DataFrame]:
    """The measurement rows of each document, lineage and identities (schemas/identities.py)
    added, in the documents' order; the columns are MEASUREMENT_DTYPES', as
    schemas.measurements states them."""
    lineage = pl.DataFrame(
        [
            (
                context.source_id,
                context.source_url,
                context.document_sha256,
                context.document_title,
                context.captured_at,
                context.parser_version,
            )
            for _cells, context in documents
        ],
        schema=dict.fromkeys(_CONTEXT_COLUMNS, pl.String),
        orient="row",
    )
    frame = (
        with_identities(frame.hstack(lineage[frame["document"]].get_columns()))
        .select("document", *MEASUREMENT_DTYPES)
        .cast({"document": pl.Int32, **MEASUREMENT_DTYPES})
        .sort("document", *PAGE_ORDER, maintain_order=True)
    )
    # Sorted by document: each document's rows are a slice.
    parts = parts_by(frame, "document", include_key=False)
    return [parts.get((index,), _EMPTY_MEASUREMENTS) for index in range(len(documents))]


def _quarantine(problems: list[dict], context: DocumentContext) -> pl.DataFrame:
    if not problems:
        return empty_quarantine()
    rows = [
        {
            "document_sha256": context.document_sha256,
            "source_id": context.source_id,
            "stage": "normalize",
            **problem,
            "reason": problem["reason"].replace("SOURCE_ID", context.source_id),
        }
        for problem in problems
    ]
    return pl.DataFrame(rows, schema=QUARANTINE_SCHEMA)
