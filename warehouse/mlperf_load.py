"""Write official MLPerf results into the warehouse inside the caller's open transaction."""

from __future__ import annotations

import duckdb
import polars as pl

from sources.mlperf.tree import MlperfResults
from warehouse import sql

TABLES = {"mlperf_systems": "systems", "mlperf_runs": "runs", "mlperf_scores": "scores"}


def load_mlperf(
    connection: duckdb.DuckDBPyConnection, run_id: str, results: MlperfResults, source_id: str
) -> dict[str, int]:
    """Replace the source's rows in the three mlperf tables; return rows written per table.

    No BEGIN or COMMIT here: the caller's run transaction makes the whole run one snapshot,
    and a failure rolls these rows back with everything else.
    """
    written = {}
    for table, attribute in TABLES.items():
        frame = getattr(results, attribute)
        connection.execute(f"DELETE FROM {table} WHERE source_id = {sql.literal(source_id)}")
        rows = frame.with_columns(source_id=pl.lit(source_id), run_id=pl.lit(run_id))
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
