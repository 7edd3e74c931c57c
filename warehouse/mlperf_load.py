"""Write official MLPerf results into the warehouse inside the caller's open transaction."""

from __future__ import annotations

import duckdb
import polars as pl

from sources.mlperf.tree import MlperfResults

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
        # a literal: a query parameter makes duckdb import pandas and numpy
        connection.execute(
            f"DELETE FROM {table} WHERE source_id = '{source_id.replace(chr(39), chr(39) * 2)}'")
        rows = frame.with_columns(source_id=pl.lit(source_id), run_id=pl.lit(run_id))
        _insert_frame(connection, table, rows)
        written[table] = rows.height
    return written


def _insert_frame(connection: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame):
    """Insert by column name, so a frame's column order never matters."""
    if frame.height == 0:
        return
    from warehouse.load import _frame_view  # warehouse.load imports this module

    columns = ", ".join(f'"{name}"' for name in frame.columns)
    # a Parquet file, not a registered Arrow table, which would import pyarrow
    with _frame_view(connection, "_mlperf_rows", frame) as rows:
        connection.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {rows}")
