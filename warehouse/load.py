"""Load one run into the warehouse: a single transaction, so a single DuckLake snapshot."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import duckdb
import polars as pl

from warehouse.lake import LAKE
from warehouse.mlperf_load import load_mlperf
from warehouse.reviews import apply_reviews

# Columns whose change is a change of the published value; lineage and position are not.
CONTENT_COLUMNS = (
    "row_identity", "model", "model_canonical", "variant", "platform", "vendor", "system",
    "accelerator", "accelerator_count", "sdk_version", "sdk", "sdk_prerelease", "framework",
    "framework_canonical", "dataset", "batch_size", "batch_size_number", "precision",
    "activation_dtype", "weight_dtype", "division", "quality_target", "mlperf_id", "workload",
    "phase", "metric", "value", "unit", "item_kind", "value_per_accelerator",
    "published_number", "unit_published", "approximate", "raw_value",
)


@dataclass
class RunCounts:
    values_added: int = 0
    values_changed: int = 0
    values_removed: int = 0
    values_quarantined: int = 0


@dataclass
class DocumentLoad:
    """One document version as the load stage receives it."""

    source_id: str
    source_url: str
    document_sha256: str
    status: str  # "new" (apply), "unchanged", "stale", "failed"
    message: str = ""
    document_row: dict | None = None  # columns of the documents table, for a first sighting
    cells: pl.DataFrame | None = None
    measurements: pl.DataFrame | None = None
    quarantine: pl.DataFrame | None = None
    errors: list[tuple[str, str, str]] = field(default_factory=list)  # (location, stage, reason)
    tables_found: int = 0
    prose: list[tuple[int, str]] = field(default_factory=list)
    counts: RunCounts = field(default_factory=RunCounts)  # this document's share of the run
    previous_sha256: str | None = None  # the version this one replaces
    claims: pl.DataFrame | None = None
    fetch_record: dict | None = None
    mlperf: object | None = None  # official MLPerf results read from a results tree


def known_documents(connection: duckdb.DuckDBPyConnection) -> set[str]:
    rows = connection.execute("SELECT document_sha256 FROM documents").fetchall()
    return {row[0] for row in rows}


@dataclass(frozen=True)
class SourceState:
    """The version a source's current values come from."""

    document_sha256: str
    captured_at: str  # ISO 8601, UTC
    value_count: int


def current_versions(connection: duckdb.DuckDBPyConnection) -> dict[str, SourceState]:
    rows = connection.execute(
        """
        WITH latest AS (
            SELECT rd.source_id, d.document_sha256,
                   strftime(d.captured_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS captured
            FROM run_documents rd JOIN documents d USING (document_sha256)
            WHERE rd.status = 'new'
            QUALIFY row_number() OVER (
                PARTITION BY rd.source_id ORDER BY d.captured_at DESC) = 1
        ), counts AS (
            SELECT source_id, count(*) AS value_count FROM measurement_values GROUP BY 1
        )
        SELECT l.source_id, l.document_sha256, l.captured, coalesce(c.value_count, 0)
        FROM latest l LEFT JOIN counts c USING (source_id)
        """
    ).fetchall()
    return {row[0]: SourceState(row[1], row[2], row[3]) for row in rows}


def load_run(
    connection: duckdb.DuckDBPyConnection,
    run: dict,
    documents: list[DocumentLoad],
    reviews: pl.DataFrame | None = None,
) -> RunCounts:
    """Write a run's documents, cells, value changes and quarantine; commit once or not at all."""
    counts = RunCounts()
    connection.execute("BEGIN")
    try:
        for document in documents:
            _record_document(connection, run["run_id"], document)
            if document.status == "new":
                _apply_values(connection, run["run_id"], document)
                _replace_claims(connection, run["run_id"], document)
                if document.mlperf is not None:
                    load_mlperf(connection, run["run_id"], document.mlperf, document.source_id)
                _record_revision(connection, run["run_id"], document)
                for name, value in document.counts.__dict__.items():
                    setattr(counts, name, getattr(counts, name) + value)
        if reviews is not None:
            apply_reviews(connection, reviews)
        run_row = {**run, **counts.__dict__}
        _insert_rows(connection, "runs", pl.DataFrame([run_row]))
        connection.execute(
            f"CALL {LAKE}.set_commit_message('perfledger', ?, extra_info => ?)",
            [f"ingest run {run['run_id']}", json.dumps(_commit_info(run, documents))],
        )
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return counts


def _commit_info(run: dict, documents: list[DocumentLoad]) -> dict:
    return {
        "run_id": run["run_id"],
        "trigger": run["trigger"],
        "documents": [
            {"source_id": d.source_id, "sha256": d.document_sha256, "status": d.status}
            for d in documents
        ],
    }


def _record_document(connection, run_id: str, document: DocumentLoad) -> None:
    connection.execute(
        "INSERT INTO run_documents VALUES (?, ?, ?, ?, ?)",
        [run_id, document.source_id, document.document_sha256, document.status,
         document.message],
    )
    if document.document_row is not None:
        _insert_rows(connection, "documents", pl.DataFrame([document.document_row]))
    if document.cells is not None and document.cells.height:
        cells = document.cells.with_columns(
            document_sha256=pl.lit(document.document_sha256)
        )
        _insert_rows(connection, "cells", cells)
    if document.fetch_record is not None:
        _insert_rows(connection, "fetches",
                     pl.DataFrame([{"run_id": run_id, "source_id": document.source_id,
                                    **document.fetch_record}]))
    for location, stage, reason in document.errors:
        connection.execute(
            "INSERT INTO document_errors VALUES (?, ?, ?, ?, ?, ?)",
            [run_id, document.source_id, location, document.document_sha256, stage, reason],
        )


def _insert_rows(connection, table: str, frame: pl.DataFrame) -> None:
    """Insert a frame by column name, so a frame's column order never matters."""
    columns = ", ".join(f'"{name}"' for name in frame.columns)
    connection.register("_incoming_rows", frame.to_arrow())
    try:
        connection.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM _incoming_rows")
    finally:
        connection.unregister("_incoming_rows")


def _apply_values(connection, run_id: str, document: DocumentLoad) -> None:
    """Bring the source's current values to this version: update, insert, delete by key."""
    measurements = document.measurements
    content = ", ".join(f'"{name}"' for name in CONTENT_COLUMNS)
    connection.register("_incoming", measurements.to_arrow())
    try:
        connection.execute(
            f"""
            CREATE OR REPLACE TEMP TABLE _values AS
            SELECT md5(source_id || chr(31) || row_identity) AS measurement_key,
                   md5(CAST(ROW({content}) AS VARCHAR)) AS content_hash,
                   ? AS run_id, *
            FROM _incoming
            """,
            [run_id],
        )
    finally:
        connection.unregister("_incoming")
    source = document.source_id
    counts = document.counts
    existing = "SELECT measurement_key FROM measurement_values WHERE source_id = ?"
    counts.values_changed += connection.execute(
        """SELECT count(*) FROM _values v JOIN measurement_values m USING (measurement_key)
           WHERE m.source_id = ? AND m.content_hash <> v.content_hash""",
        [source],
    ).fetchone()[0]
    counts.values_added += connection.execute(
        f"SELECT count(*) FROM _values WHERE measurement_key NOT IN ({existing})", [source]
    ).fetchone()[0]
    counts.values_removed += connection.execute(
        """SELECT count(*) FROM measurement_values WHERE source_id = ?
           AND measurement_key NOT IN (SELECT measurement_key FROM _values)""",
        [source],
    ).fetchone()[0]
    columns = [name for name in _table_columns(connection, "measurement_values")]
    assignments = ", ".join(f'"{name}" = v."{name}"' for name in columns if name != "measurement_key")
    connection.execute(
        f"""UPDATE measurement_values SET {assignments} FROM _values v
            WHERE measurement_values.measurement_key = v.measurement_key
              AND measurement_values.source_id = ?
              AND measurement_values.content_hash <> v.content_hash""",
        [source],
    )
    column_list = ", ".join(f'"{name}"' for name in columns)
    connection.execute(
        f"""INSERT INTO measurement_values ({column_list})
            SELECT {column_list} FROM _values
            WHERE measurement_key NOT IN ({existing})""",
        [source],
    )
    connection.execute(
        """DELETE FROM measurement_values WHERE source_id = ?
           AND measurement_key NOT IN (SELECT measurement_key FROM _values)""",
        [source],
    )
    connection.execute(
        "DELETE FROM quarantined_values WHERE source_id = ?", [source]
    )
    quarantine = document.quarantine
    if quarantine is not None and quarantine.height:
        _insert_rows(connection, "quarantined_values", quarantine.with_columns(run_id=pl.lit(run_id)))
        counts.values_quarantined += quarantine.filter(pl.col("stage") != "claims").height
    connection.execute("DROP TABLE _values")


def _replace_claims(connection, run_id: str, document: DocumentLoad) -> None:
    connection.execute("DELETE FROM claim_rows WHERE source_id = ?", [document.source_id])
    claims = document.claims
    if claims is None or claims.height == 0:
        return
    connection.register("_claims", claims.to_arrow())
    try:
        connection.execute(
            """
            INSERT INTO claim_rows BY NAME
            SELECT md5(concat_ws(chr(31), ?, sentence, claim_text, char_start::VARCHAR))
                       AS claim_id,
                   ? AS source_id, ? AS source_url, ? AS document_sha256, ? AS run_id, *
            FROM _claims
            """,
            [document.source_id, document.source_id, document.source_url,
             document.document_sha256, run_id],
        )
    finally:
        connection.unregister("_claims")


def _record_revision(connection, run_id: str, document: DocumentLoad) -> None:
    counts = document.counts
    changed = counts.values_added + counts.values_changed + counts.values_removed > 0
    connection.execute(
        """
        INSERT INTO document_revisions
        SELECT ?, ?, new.document_sha256, old.document_sha256, new.captured_at,
               coalesce(new.last_updated_date, new.published_date),
               coalesce(old.last_updated_date, old.published_date),
               ?, ?, ?, ?,
               ? AND old.document_sha256 IS NOT NULL
                 AND coalesce(new.last_updated_date, new.published_date)
                     IS NOT DISTINCT FROM coalesce(old.last_updated_date, old.published_date)
        FROM (SELECT * FROM documents WHERE document_sha256 = ?) AS new
        LEFT JOIN (SELECT * FROM documents WHERE document_sha256 = ?) AS old ON true
        """,
        [run_id, document.source_id, counts.values_added, counts.values_changed,
         counts.values_removed, changed, changed, document.document_sha256,
         document.previous_sha256],
    )


def _table_columns(connection, table: str) -> list[str]:
    rows = connection.execute(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_catalog = ? AND table_name = ? ORDER BY ordinal_position",
        [LAKE, table],
    ).fetchall()
    return [row[0] for row in rows]
