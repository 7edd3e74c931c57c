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
    if frame.schema != _MEASUREMENT_SCHEMA:  # a cast to the same types costs a copy
        frame = frame.cast(MEASUREMENT_DTYPES)
    # Frames of several documents come in pieces: polars copies a frame of many chunks on
    # each query, so it is joined once.
    frame = frame.rechunk()
    passes = _rows_passing(frame)
    if frame.height == 0 or (passes is not None and passes.all()):
        return frame, empty_quarantine()
    frame = frame.with_row_index("_row")
    checked = frame if passes is None else frame.filter(~passes)
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
    """For each row, True when it surely passes the schema; None when the schema's checks
    cannot run as one vectorised query (see `_row_screen`): then every row may fail.

    A pandera validation costs tens of milliseconds whatever the rows, and almost every
    row passes, so pandera sees only the rows it will reject, and names their failures."""
    screen = _row_screen()
    if screen is None or dict(frame.schema) != _schema_dtypes():
        return None
    return screen(frame)


@cache
def _schema_dtypes() -> dict[str, pl.DataType] | None:
    schema = MeasurementSchema.to_schema()
    return {name: column.dtype.type for name, column in schema.columns.items()}


@cache
def _row_screen() -> Callable[[pl.DataFrame], pl.Series] | None:
    """A function giving, for each row, True when the row passes every check of
    MeasurementSchema, evaluated with pandera's own check functions in one query; None
    when the schema uses a feature the screen does not cover (pandera then checks all rows).

    The screen may flag a sound row (pandera then accepts it) but never passes a bad one:
    a null check output counts as a failure unless the check ignores nulls, and a check
    that does more than select from the frame leaves the screen out."""
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

    verdicts = [
        pl.all_horizontal(
            pl.col(column.name).is_not_null()
            & (pl.col(column.name).is_not_nan() if column.dtype.type.is_float() else True)
            for column in columns if not column.nullable
        )
    ]
    for check, key in checks:
        selected = _selected_by(_check_function(check), key, check._check_kwargs)
        if selected is None:
            return None
        # A check may give several boolean columns: a row passes when all are true. A
        # null outcome (a null cell) passes when the check ignores nulls, as in pandera.
        outcome = pl.all_horizontal(selected)
        verdicts.append(outcome | outcome.is_null() if check.ignore_na else outcome)
    # One query for every check, built once: each query has a cost of its own.
    verdict = pl.all_horizontal(
        verdict.fill_null(False).alias(f"check_{position}")
        for position, verdict in enumerate(verdicts)
    )

    def passes(frame: pl.DataFrame) -> pl.Series:
        return frame.select(verdict).to_series()

    return passes


class _Selection:
    """Stands for the frame a check function reads: it may only select from it."""

    def __init__(self) -> None:
        self.columns: list[pl.Expr] | None = None

    def select(self, *exprs: pl.Expr | list[pl.Expr], **named: pl.Expr) -> _Selection:
        if self.columns is not None:
            raise _NotASelection
        self.columns = [
            *(expr for item in exprs for expr in (item if isinstance(item, list) else [item])),
            *(expr.alias(name) for name, expr in named.items()),
        ]
        return self


class _NotASelection(Exception):
    """A check function did more with the frame than select row-wise columns from it."""


def _selected_by(function: Callable, key: str, kwargs: dict) -> list[pl.Expr] | None:
    """The columns `function`, a check, selects from the frame it is given; None when it
    does anything else (its verdict is then left to pandera)."""
    selection = _Selection()
    try:
        output = function(PolarsData(selection, key), **kwargs)
    except (_NotASelection, AttributeError, TypeError):
        return None
    if output is not selection or not selection.columns:
        return None
    if not all(isinstance(expr, pl.Expr) for expr in selection.columns):
        return None
    return selection.columns


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
