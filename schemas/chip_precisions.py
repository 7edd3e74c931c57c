"""The precision a table's context states per chip ("FP8 H100, FP16 A100" noted under a
table of both), given to the values of each chip's rows and columns."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.row_labels import TABLE_KEY, precision_fields
from perfledger.schemas.table_plans import TablePlan

_SCHEMA = {
    "document": pl.Int32,
    "table_index": pl.Int32,
    "_stated_chip": pl.String,
    "xp_text": pl.String,
    "xp_act": pl.String,
    "xp_wt": pl.String,
    "xp_source": pl.String,
}


def chip_precisions(plans: dict[tuple[int, int], TablePlan]) -> pl.DataFrame:
    """The precision each table's context states per chip ("FP8 H100, FP16 A100"), one row
    per table and chip."""
    found = [
        (document, table, chip, *precision_fields(precision), of_chips.source)
        for (document, table), plan in plans.items()
        if (of_chips := plan.context.get("precision_of_chip")) is not None
        for chip, precision in of_chips.value.items()
    ]
    return pl.DataFrame(found, schema=_SCHEMA, orient="row")


def with_chip_precisions(results: pl.DataFrame, chip_precisions: pl.DataFrame) -> pl.DataFrame:
    """`results` with the precision the context states for the chip each value's row,
    section or column names (xp_*), where it states one per chip."""
    if chip_precisions.height == 0:
        return results.with_columns(
            *(
                pl.lit(None, dtype=dtype).alias(name)
                for name, dtype in _SCHEMA.items()
                if name.startswith("xp_")
            ),
            xp_table=pl.lit(False),
        )
    stated = pl.coalesce("rp_chip", "fp_chip", "sp_chip", "h_chip").alias("_stated_chip")
    # A table whose context states precisions per chip states none for a value of another
    # chip or of none (a speedup of FP8 H100 over FP16 A100).
    tables = chip_precisions.select(TABLE_KEY).unique().with_columns(xp_table=pl.lit(True))
    return (
        results.with_columns(stated)
        .join(chip_precisions, on=[*TABLE_KEY, "_stated_chip"], how="left", maintain_order="left")
        .join(tables, on=TABLE_KEY, how="left", maintain_order="left")
        .with_columns(pl.col("xp_table").fill_null(False))
        .drop("_stated_chip")
    )
