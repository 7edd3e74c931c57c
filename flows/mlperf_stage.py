"""Parse, normalize and validate an archived MLPerf results tree into what the load stage writes."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from schemas.normalize import DocumentContext, quarantine_frame
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
    problems = quarantine_frame(
        results.problems_frame(), document_sha256=document.document_sha256,
        source_id=document.source_id, stage="parse", check=pl.col("check"),
        reason=pl.format("{}: {}", pl.col("path"), pl.col("reason")),
        raw_value=pl.col("raw"), line_number=pl.col("line_number"),
    )
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
