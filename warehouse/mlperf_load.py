"""Write official MLPerf results into the warehouse inside the caller's open transaction."""

from __future__ import annotations

import duckdb
import polars as pl

from perfledger.warehouse import sql

# Each table and the attribute of a reader's results that fills it.
TRAINING_TABLES = {"mlperf_systems": "systems", "mlperf_runs": "runs", "mlperf_scores": "scores"}
INFERENCE_TABLES = {"mlperf_inference_systems": "systems", "mlperf_inference_results": "results"}
TABLES = TRAINING_TABLES  # the training tables, by the name callers used before inference


def tables_of(results: object) -> dict[str, str]:
    return TRAINING_TABLES if hasattr(results, "scores") else INFERENCE_TABLES


def load_mlperf(
    connection: duckdb.DuckDBPyConnection, run_id: str, results: object, source_id: str
) -> dict[str, int]:
    """Replace one source's rows in the mlperf tables; return rows written per table."""
    return load_official(connection, run_id, [(source_id, results)])


def load_official(
    connection: duckdb.DuckDBPyConnection, run_id: str, loaded: list[tuple[str, object]]
) -> dict[str, int]:
    """Replace the rows of every source in `loaded` (source_id, results read from its unit) in
    the mlperf tables, one statement per table whatever the number of units; return rows
    written per table.

    No BEGIN or COMMIT here: the caller's run transaction makes the whole run one snapshot,
    and a failure rolls these rows back with everything else.
    """
    if not loaded:
        return {}
    sources = pl.DataFrame({"source_id": sorted({source_id for source_id, _ in loaded})})
    with sql.frame_view(connection, "_mlperf_sources", sources) as replaced:
        for table in [*TRAINING_TABLES, *INFERENCE_TABLES]:
            connection.execute(
                f"DELETE FROM {table} WHERE source_id IN (SELECT source_id FROM {replaced})"
            )
    frames: dict[str, list[pl.DataFrame]] = {}
    for source_id, results in loaded:
        for table, attribute in tables_of(results).items():
            frame = getattr(results, attribute)
            if frame.height:
                frames.setdefault(table, []).append(
                    frame.with_columns(source_id=pl.lit(source_id), run_id=pl.lit(run_id))
                )
    written = {}
    for table, parts in frames.items():
        rows = pl.concat(parts, how="diagonal_relaxed")
        _insert_frame(connection, table, rows)
        written[table] = rows.height
    return written


def _insert_frame(connection: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame):
    """Insert by column name, so a frame's column order never matters."""
    if frame.height == 0:
        return
    columns = ", ".join(f'"{name}"' for name in frame.columns)
    with sql.frame_view(connection, "_mlperf_rows", frame) as rows:
        connection.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {rows}")
