"""Parse, normalize and validate an archived MLPerf results tree into what the load stage writes."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from schemas.normalize import QUARANTINE_SCHEMA, DocumentContext
from schemas.validate import validate_measurements
from sources.collect import CollectedDocument
from sources.mlperf.collect import LAYOUT, materialized_tree
from sources.mlperf.measurements import PARSER_VERSION, measurements_from_scores
from sources.mlperf.tree import read_results_tree
from warehouse import lake
from warehouse.load import DocumentLoad


def is_results_tree_document(document: CollectedDocument) -> bool:
    return document.layout == LAYOUT


def prepare_results_tree(
    document: CollectedDocument, base: DocumentLoad, warehouse: Path, first_sighting: bool
) -> DocumentLoad:
    """Read the tree back from the archive (never from the live folder) and score it."""
    with materialized_tree(lake.archive_dir(warehouse), document.document_sha256) as (
        folder, mlperf_round
    ):
        results = read_results_tree(folder, mlperf_round)
    context = DocumentContext(
        source_id=document.source_id,
        source_url=document.source_url,
        document_sha256=document.document_sha256,
        document_title=f"MLPerf Training v{mlperf_round} official results",
        captured_at=document.captured_at,
        parser_version=PARSER_VERSION,
    )
    good, invalid = validate_measurements(measurements_from_scores(results, context))
    problems = results.problems_frame().select(
        pl.lit(document.document_sha256).alias("document_sha256"),
        pl.lit(document.source_id).alias("source_id"),
        pl.lit("parse").alias("stage"),
        "check",
        pl.format("{}: {}", pl.col("path"), pl.col("reason")).alias("reason"),
        pl.lit(None, dtype=pl.Int32).alias("table_index"),
        pl.lit(None, dtype=pl.String).alias("table_title"),
        pl.lit(None, dtype=pl.Int32).alias("row_number"),
        pl.lit(None, dtype=pl.String).alias("column_name"),
        pl.col("raw").alias("raw_value"),
        pl.lit(None, dtype=pl.String).alias("raw_row"),
        "line_number",
    ).cast(QUARANTINE_SCHEMA)
    base.measurements = good
    base.quarantine = pl.concat([problems, invalid])
    base.mlperf = results
    base.tables_found = results.scores.height and 1
    base.document_row = _document_row(document, context, results) if first_sighting else None
    base.message = (f"{results.systems.height} systems, {results.runs.height} runs, "
                    f"{good.height} official scores, {base.quarantine.height} quarantined")
    return base


def _document_row(document: CollectedDocument, context: DocumentContext, results) -> dict:
    return {
        "document_sha256": document.document_sha256,
        "source_id": document.source_id,
        "source_url": document.source_url,
        "content_type": document.content_type,
        "byte_size": document.byte_size,
        "layout": LAYOUT,
        "parser_version": context.parser_version,
        "title": context.document_title,
        "author": None,
        "published_date": None,
        "last_updated_date": None,
        "captured_at": document.captured_at,
        "archive_path": document.archive_path,
        "first_run_id": None,
        "tables_found": 1 if results.scores.height else 0,
        "cells_found": 0,
    }
