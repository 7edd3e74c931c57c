"""Validate frames with pandera, collecting every failure, and split good rows from bad ones."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pandera.backends.polars.builtin_checks  # noqa: F401  (the polars built-in checks)
import pandera.polars as pa
import polars as pl
from pandera.api.polars.types import PolarsData

from schemas.measurements import MEASUREMENT_DTYPES, MeasurementSchema
from schemas.normalize import QUARANTINE_SCHEMA, empty_quarantine


def validate_measurements(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(rows that pass every check, quarantine rows naming the check each failed row broke)."""
    frame = frame.cast(MEASUREMENT_DTYPES).with_row_index("_row")
    checked = _rows_pandera_must_check(frame)
    if checked.height == 0:
        return frame.drop("_row"), empty_quarantine()
    try:
        MeasurementSchema.validate(checked.drop("_row"), lazy=True)
    except pa.errors.SchemaErrors as errors:
        failures = errors.failure_cases
        if checked.height < frame.height:
            failures = _positions_in(failures, checked["_row"])
        return _split(frame, failures)
    return frame.drop("_row"), empty_quarantine()


def _rows_pandera_must_check(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows that may fail the schema: all of them, unless the schema's checks could run
    as one vectorised query (see `_row_screen`), which then leaves out the rows passing all.

    A pandera validation costs tens of milliseconds whatever the rows, and almost every
    row passes, so pandera sees only the rows it will reject, and names their failures."""
    screen = _row_screen()
    if screen is None or dict(frame.drop("_row").schema) != _schema_dtypes():
        return frame
    passes = screen(frame.drop("_row").lazy())
    return frame if passes is None else frame.filter(~passes)


@cache
def _schema_dtypes() -> dict[str, pl.DataType] | None:
    schema = MeasurementSchema.to_schema()
    return {name: column.dtype.type for name, column in schema.columns.items()}


@cache
def _row_screen() -> Callable[[pl.LazyFrame], pl.Series | None] | None:
    """A function giving, for each row, True when the row passes every check of
    MeasurementSchema, evaluated with pandera's own check functions in one query; None
    when the schema uses a feature the screen does not cover (pandera then checks all rows).

    The screen may flag a sound row (pandera then accepts it) but never passes a bad one:
    a null check output counts as a failure unless the check ignores nulls, and a verdict on the whole frame instead of
    one per row sends every row to pandera."""
    schema = MeasurementSchema.to_schema()
    if (schema.unique or schema.ordered or schema.coerce or schema.drop_invalid_rows
            or schema.add_missing_columns or not schema.strict):
        return None
    columns = schema.columns.values()
    if any(column.unique or column.coerce or column.regex or column.drop_invalid_rows
           or not column.required for column in columns):
        return None
    checks = [(check, column.name) for column in columns for check in column.checks]
    checks += [(check, "*") for check in schema.checks]
    if any(check.element_wise or check.groupby is not None for check, _key in checks):
        return None

    functions = [(_check_function(check), check._check_kwargs, key, check.ignore_na)
                 for check, key in checks]

    def passes(frame: pl.LazyFrame) -> pl.Series | None:
        not_null = [
            pl.col(column.name).is_not_null()
            & (pl.col(column.name).is_not_nan() if column.dtype.type.is_float() else True)
            for column in columns if not column.nullable
        ]
        parts = [frame.select(pl.all_horizontal(not_null).alias("not_null"))]
        for position, (function, kwargs, key, ignore_na) in enumerate(functions):
            output = function(PolarsData(frame, key), **kwargs)
            if not isinstance(output, pl.LazyFrame):
                return None  # a verdict on the whole frame, not per row: pandera decides
            # A check may give several boolean columns: a row passes when all are true. A
            # null outcome (a null cell) passes when the check ignores nulls, as in pandera.
            outcome = pl.all_horizontal(pl.all())
            parts.append(output.select(
                (outcome | outcome.is_null() if ignore_na else outcome)
                .alias(f"check_{position}")
            ))
        # One query for every check: each collect has a cost of its own.
        return pl.concat(parts, how="horizontal").select(
            pl.all_horizontal(pl.all().fill_null(False))
        ).collect().to_series()

    return passes


def _check_function(check: pa.Check) -> Callable:
    """The function pandera's polars backend runs for `check`: a built-in check's function
    is looked up again by name, as Check.__call__ does, for the polars version of it."""
    name = getattr(check._check_fn, "__name__", None)
    if name is not None and check.is_builtin_check(name):
        return check.get_builtin_check_fn(name)
    return check._check_fn


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
