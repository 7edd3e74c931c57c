"""Parse, normalize and validate an archived unit of an MLPerf results tree into what the load
stage writes: official training scores or inference results, and their measurements."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from perfledger.flows import budget
from perfledger.flows.archived import archived_sha256
from perfledger.schemas.normalize import DocumentContext, quarantine_frame
from perfledger.schemas.validate import validate_measurements
from perfledger.sources.collect import CollectedDocument
from perfledger.sources.mlperf.collect import CONTENT_TYPE, LAYOUT, materialized_tree
from perfledger.sources.mlperf.inference import read_inference_tree
from perfledger.sources.mlperf.inference.tree import InferenceResults
from perfledger.sources.mlperf.inference_measurements import measurements_from_inference
from perfledger.sources.mlperf.measurements import PARSER_VERSION, measurements_from_scores
from perfledger.sources.mlperf.mllog import Problem
from perfledger.sources.mlperf.tree import read_results_tree
from perfledger.warehouse import lake
from perfledger.warehouse.load import DocumentLoad

TITLES = {
    "training": "MLPerf Training v{} official results",
    "inference": "MLPerf Inference v{} official results",
}


def is_results_tree_document(document: CollectedDocument) -> bool:
    """A unit's manifest is known by its media type as well as its layout: a document read
    back from the warehouse (`perfledger reprocess`) has no registered source to name the
    layout, and read as a page its manifest holds no value."""
    return document.layout == LAYOUT or document.content_type == CONTENT_TYPE


def prepare_results_tree(
    document: CollectedDocument, base: DocumentLoad, warehouse: Path, first_sighting: bool
) -> DocumentLoad:
    """Read the unit back from the archive (never from the live folder) and score it. The
    size budget holds per file: a file over it is archived and reported, the rest is read."""
    max_bytes = budget.Budget.from_env().max_bytes
    sha256 = archived_sha256(document)
    with materialized_tree(
        lake.archive_dir(warehouse), sha256, max_bytes, document.archive_url
    ) as (folder, manifest, skipped):
        mlperf_round, kind = manifest.get("round"), manifest["kind"]
        if kind == "inference":
            results = read_inference_tree(folder, mlperf_round)
        else:
            _with_results_folders(folder, manifest)
            results = read_results_tree(folder, mlperf_round)
        read_from = str(folder)
    context = DocumentContext(
        source_id=document.source_id,
        source_url=document.source_url,
        document_sha256=sha256,
        document_title=TITLES.get(kind, TITLES["training"]).format(mlperf_round or "?"),
        captured_at=document.captured_at,
        parser_version=PARSER_VERSION,
    )
    if isinstance(results, InferenceResults):
        measured = measurements_from_inference(results, context)
    else:
        measured = measurements_from_scores(results, context)
    good, invalid = validate_measurements(measured)
    problems = pl.concat(
        [results.problems_frame(), _collect_problems(manifest, skipped, max_bytes)]
    )
    problems = problems.with_columns(
        _without_folder("path", read_from), _without_folder("reason", read_from)
    )
    problems = quarantine_frame(
        problems,
        document_sha256=sha256,
        source_id=document.source_id,
        stage="parse",
        check=pl.col("check"),
        reason=pl.format("{}: {}", pl.col("path"), pl.col("reason")),
        raw_value=pl.col("raw"),
        line_number=pl.col("line_number"),
    )
    base.measurements = good
    base.quarantine = pl.concat([problems, invalid])
    base.mlperf = results
    scored = _scored_rows(results)
    base.tables_found = min(scored, 1)
    base.document_row = _document_row(document, context, scored) if first_sighting else None
    base.message = _summary(results, good.height, base.quarantine.height)
    return base


def _with_results_folders(folder: Path, manifest: dict) -> None:
    """A unit that is a system's description alone (its system has no results) is laid out
    as its submitter folder holds it, beside an empty `results/`: a training tree needs both
    to be one, and the description is then read as any other."""
    if manifest.get("benchmark") is not None:
        return
    # The folders laid out (never a name of the manifest: it may climb out of the folder).
    for systems in [*folder.glob("*/systems"), *folder.glob("*/*/systems")]:
        if systems.is_dir():
            (systems.parent / "results").mkdir(exist_ok=True)


def _without_folder(column: str, folder: str) -> pl.Expr:
    """The unit is read from a temporary folder: a problem names its files by their paths
    in the tree, never by that folder."""
    return (
        pl.col(column)
        .str.replace_all(folder + "/", "", literal=True)
        .str.replace_all(folder, ".", literal=True)
    )


def _collect_problems(manifest: dict, skipped: dict[str, int], max_bytes: int) -> pl.DataFrame:
    """What the unit's files could not give: files over the size budget, unreadable files."""
    problems = [
        Problem(
            "over_budget",
            f"the file is {size:,} bytes, over the {max_bytes:,}-byte"
            f" budget ({budget.MAX_BYTES_ENV}); it is archived but was not read",
            path=relative,
        )
        for relative, size in sorted(skipped.items())
    ]
    problems += [
        Problem("unreadable_file", reason, path=relative)
        for relative, reason in sorted(manifest["unreadable"].items())
    ]
    rows = [(p.path, p.line_number, p.check, p.reason, p.raw) for p in problems]
    return pl.DataFrame(
        rows,
        schema={
            "path": pl.String,
            "line_number": pl.Int32,
            "check": pl.String,
            "reason": pl.String,
            "raw": pl.String,
        },
        orient="row",
    )


def _scored_rows(results) -> int:
    frame = getattr(results, "scores", None)
    if frame is None:
        frame = results.results
    return frame.height


def _summary(results, measured: int, quarantined: int) -> str:
    if hasattr(results, "scores"):
        return (
            f"{results.systems.height} systems, {results.runs.height} runs, "
            f"{measured} official scores, {quarantined} quarantined"
        )
    return (
        f"{results.systems.height} systems, {results.results.height} results, "
        f"{measured} official values, {quarantined} quarantined"
    )


def _document_row(document: CollectedDocument, context: DocumentContext, scored: int) -> dict:
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
        "tables_found": min(scored, 1),
        "cells_found": 0,
    }
