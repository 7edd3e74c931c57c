"""Validate frames, collecting every failure, and split good rows from bad ones.

A polars screen of the plain statements in `schemas.measurements` passes the sound rows;
pandera, loaded only then, checks the rows the screen doubts and words their failures."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import polars as pl

from perfledger.schemas.column_types import cast_columns
from perfledger.schemas.measurements import FRAME_CHECKS, MEASUREMENT_COLUMNS, MEASUREMENT_DTYPES
from perfledger.schemas.normalize import QUARANTINE_SCHEMA, empty_quarantine


def validate_measurements(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(rows that pass every check, quarantine rows naming the check each failed row broke)."""
    if frame.schema != _MEASUREMENT_SCHEMA:  # a cast to the same types costs a copy
        frame = cast_columns(frame, MEASUREMENT_DTYPES)
    # Frames of several documents come in pieces: polars copies a frame of many chunks on
    # each query, so it is joined once.
    frame = frame.rechunk()
    passes = _rows_passing(frame)
    if frame.height == 0 or (passes is not None and passes.all()):
        return frame, empty_quarantine()
    frame = frame.with_row_index("_row")
    checked = frame if passes is None else frame.filter(~passes)
    # pandera (with pandas and numpy) is loaded only here, for a frame the screen doubts
    import pandera.polars as pa

    from perfledger.schemas.measurement_schema import MeasurementSchema

    try:
        MeasurementSchema.validate(checked.drop("_row"), lazy=True)
    except pa.errors.SchemaErrors as errors:
        failures = errors.failure_cases
        if checked.height < frame.height:
            failures = _positions_in(failures, checked["_row"])
        return _split(frame, failures)
    return frame.drop("_row"), empty_quarantine()


_MEASUREMENT_SCHEMA = pl.Schema(MEASUREMENT_DTYPES)


def _rows_passing(frame: pl.DataFrame) -> pl.Series | None:
    """For each row, True when it surely passes the schema; None when the frame's columns
    differ from the schema's (pandera then checks every row, and words the mismatch).

    A pandera validation costs tens of milliseconds whatever the rows, and almost every
    row passes, so pandera sees only the rows it will reject, and names their failures."""
    if dict(frame.schema) != MEASUREMENT_DTYPES:
        return None
    return frame.select(_verdict()).to_series()


# A built-in check of MEASUREMENT_COLUMNS as the polars expression pandera's polars backend
# evaluates for it (pandera/backends/polars/builtin_checks.py).
_BUILTIN_CHECKS: dict[str, Callable[[pl.Expr, Any], pl.Expr]] = {
    "greater_than": lambda column, bound: column > bound,
    "greater_than_or_equal_to": lambda column, bound: column >= bound,
    "isin": lambda column, allowed: column.is_in(allowed),
    "str_length": lambda column, length: column.str.len_chars() == length,
}


@cache
def _verdict() -> pl.Expr:
    """An expression, True for a row that passes every check of MeasurementSchema: one
    query for every check, built once, as each query has a cost of its own.

    It may flag a sound row (pandera then accepts it) but never passes a bad one: a null
    check outcome counts as a failure unless the check ignores nulls, as pandera's checks
    do by default (every check of the schema does)."""
    verdicts = [
        pl.all_horizontal(
            pl.col(name).is_not_null()
            & (pl.col(name).is_not_nan() if column.dtype.is_float() else True)
            for name, column in MEASUREMENT_COLUMNS.items()
            if not column.nullable
        )
    ]
    outcomes = [
        _BUILTIN_CHECKS[check](pl.col(name), argument)
        for name, column in MEASUREMENT_COLUMNS.items()
        for check, argument in column.checks
    ]
    outcomes += FRAME_CHECKS.values()
    verdicts += [outcome | outcome.is_null() for outcome in outcomes]
    return pl.all_horizontal(
        verdict.fill_null(False).alias(f"check_{position}")
        for position, verdict in enumerate(verdicts)
    )


def _positions_in(failures: pl.DataFrame, rows: pl.Series) -> pl.DataFrame:
    """Failure cases of a frame of `rows` with their index in the whole frame instead."""
    index = failures["index"]
    positions = pl.Series(range(rows.len()), dtype=index.dtype)
    return failures.with_columns(
        pl.col("index").replace_strict(positions, rows.cast(index.dtype), default=None)
    )


def _split(frame: pl.DataFrame, failures: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    row_failures = failures.filter(pl.col("index").is_not_null())
    frame_failures = failures.filter(pl.col("index").is_null())
    if frame_failures.height:
        # A failure with no row (a missing or mistyped column) is a schema bug, not bad data.
        import pandera.polars as pa

        from perfledger.schemas.measurement_schema import MeasurementSchema

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
            pl.format(
                "{} failed on column {} with {}",
                pl.col("check"),
                pl.col("column"),
                pl.col("failure_case"),
            )
            .str.join("; ")
            .alias("reason"),
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
    ).select(list(QUARANTINE_SCHEMA))
    quarantine = cast_columns(quarantine, QUARANTINE_SCHEMA)
    return good, quarantine
