"""Validate frames with pandera, collecting every failure, and split good rows from bad ones."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl

from schemas.measurements import MEASUREMENT_DTYPES, MeasurementSchema
from schemas.normalize import QUARANTINE_SCHEMA, empty_quarantine


def validate_measurements(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(rows that pass every check, quarantine rows naming the check each failed row broke)."""
    frame = frame.cast(MEASUREMENT_DTYPES).with_row_index("_row")
    try:
        MeasurementSchema.validate(frame.drop("_row"), lazy=True)
    except pa.errors.SchemaErrors as errors:
        failures = errors.failure_cases
        return _split(frame, failures)
    return frame.drop("_row"), empty_quarantine()


def _split(frame: pl.DataFrame, failures: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    row_failures = failures.filter(pl.col("index").is_not_null())
    frame_failures = failures.filter(pl.col("index").is_null())
    if frame_failures.height:
        # A failure with no row (a missing or mistyped column) is a schema bug, not bad data.
        raise pa.errors.SchemaError(
            MeasurementSchema.to_schema(),
            frame,
            f"measurement frame does not match its schema: {frame_failures.to_dicts()}",
        )
    first = (
        row_failures.sort("index")
        .group_by("index", maintain_order=True)
        .agg(
            pl.col("check").first(),
            pl.format("{} failed on column {} with {}", pl.col("check"), pl.col("column"),
                      pl.col("failure_case")).str.join("; ").alias("reason"),
        )
        .rename({"index": "_row"})
        .with_columns(pl.col("_row").cast(pl.UInt32))
    )
    bad = frame.join(first, on="_row", how="inner")
    good = frame.join(first, on="_row", how="anti").drop("_row")
    quarantine = bad.with_columns(
        stage=pl.lit("validate"),
        check=pl.concat_str(pl.lit("schema:"), pl.col("check")),
        raw_row=pl.lit(None, dtype=pl.String),
    ).select(list(QUARANTINE_SCHEMA)).cast(QUARANTINE_SCHEMA)
    return good, quarantine
