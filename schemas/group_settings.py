"""Batch sizes a table states once per group of its columns.

"Throughput Inference | | Realtime Inference |" over "Batch Size | Boost Ratio | Batch Size |
Boost Ratio": each result column was measured at the batch size of the batch column that opens
its group, the nearest one to its left, not at the row's first. A table with a single batch
column gives each row one batch size, as schemas/row_labels.py reads it."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.row_labels import CONTRIBUTION_SCHEMA, ROW_KEY, TABLE_KEY, contribution
from perfledger.schemas.table_plans import ColumnPlan, TablePlan

_BATCH = "batch_size"
_AT_BATCH = list(CONTRIBUTION_SCHEMA).index(_BATCH)
_AT_NUMBER = list(CONTRIBUTION_SCHEMA).index("batch_size_number")
_OWN = {"document": pl.Int32, "table_index": pl.Int32, "vcol": pl.Int32, "_batch_vcol": pl.Int32}


def with_group_batches(
    results: pl.DataFrame,
    cells: pl.DataFrame,
    plans: dict[tuple[int, int], TablePlan],
    mappings: LabelMappings,
) -> pl.DataFrame:
    """`results` (one row per result cell, its row's labels joined) with the batch size of
    each value's own batch column where its table has several."""
    own = [
        (document, table, column, batch)
        for (document, table), plan in plans.items()
        for column, batch in _own_batch_columns(plan.columns).items()
    ]
    if not own:
        return results
    owners = pl.DataFrame(own, schema=_OWN, orient="row")
    batch_cells = cells.join(
        owners.select(*TABLE_KEY, pl.col("_batch_vcol").alias("vcol")).unique(),
        on=[*TABLE_KEY, "vcol"],
        how="semi",
    ).select(*ROW_KEY, pl.col("vcol").alias("_batch_vcol"), pl.col("raw_value").alias("_batch"))
    readings = {
        (document, table): {column.column: column.reading for column in plan.columns}
        for (document, table), plan in plans.items()
    }
    texts = batch_cells.select(*TABLE_KEY, "_batch_vcol", "_batch").unique()
    said = [
        contribution(readings[(document, table)][vcol], text, mappings)
        for document, table, vcol, text in texts.iter_rows()
    ]
    texts = texts.with_columns(
        pl.Series("_own_batch", [row[_AT_BATCH] for row in said], dtype=pl.String),
        pl.Series("_own_batch_number", [row[_AT_NUMBER] for row in said], dtype=pl.Float64),
    )
    found = batch_cells.join(
        texts, on=[*TABLE_KEY, "_batch_vcol", "_batch"], how="left", maintain_order="left"
    )
    joined = results.join(owners, on=[*TABLE_KEY, "vcol"], how="left", maintain_order="left")
    joined = joined.join(
        found.drop("_batch"), on=[*ROW_KEY, "_batch_vcol"], how="left", maintain_order="left"
    )
    return joined.with_columns(
        pl.coalesce("_own_batch", _BATCH).alias(_BATCH),
        pl.coalesce("_own_batch_number", "batch_size_number").alias("batch_size_number"),
    ).drop("_batch_vcol", "_own_batch", "_own_batch_number")


def _own_batch_columns(columns: tuple[ColumnPlan, ...]) -> dict[int, int]:
    """{result column: the batch column nearest to its left}, for a table of two or more
    batch columns each opening a group of results; {} for any other."""
    batches = [
        column.column
        for column in columns
        if column.role == "config" and column.reading.role == _BATCH
    ]
    if len(batches) < 2:
        return {}
    results = [column.column for column in columns if column.role == "result"]
    # Groups only where results stand between batch columns: "Batch size | Global batch size |
    # Throughput" states one run's two sizes, and its row's first is its batch size.
    if not all(
        any(before < result < after for result in results)
        for before, after in zip(batches, batches[1:], strict=False)
    ):
        return {}
    own = {}
    for column in columns:
        if column.role != "result":
            continue
        left = [batch for batch in batches if batch < column.column]
        if left:
            own[column.column] = left[-1]
    return own
