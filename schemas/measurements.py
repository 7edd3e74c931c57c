"""The measurement frame: one canonical, comparable value per published metric cell.

Its columns and the checks a value must pass are stated here without pandera, so that an
ingest screens a frame with one polars query and never loads pandera (with pandas and
numpy, over 70 MB). The pandera model, MeasurementSchema, lives in
`schemas.measurement_schema`, is imported only for a frame the screen doubts, and is still
named `schemas.measurements.MeasurementSchema`;
tests/schemas/test_plain_statements.py holds the two equal."""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from perfledger.schemas.column_types import ColumnTypes, cast_columns
from perfledger.schemas.on_demand import models_on_demand

METRICS = [
    "throughput",
    "latency",
    "time_to_train",
    "time_to_result",
    "accuracy",
    "loss",
    "speedup",
    "scaling_efficiency",
    "other",
    "eval_metric",
    "ranking",
]
WORKLOADS = ["training", "inference"]
DTYPES = [
    "fp4",
    "fp6",
    "fp8",
    "fp16",
    "bf16",
    "tf32",
    "fp32",
    "fp64",
    "int2",
    "int3",
    "int4",
    "int5",
    "int6",
    "int8",
    "int16",
    "nf4",
    "mixed",
]
STATISTICS = ["mean", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9", "std", "min", "max"]
RATE_SCOPES = ["accelerator", "node", "user"]  # as schemas/units.py names them


class MeasurementColumn(NamedTuple):
    dtype: type[pl.DataType]
    nullable: bool
    # (name of a pandera built-in check, its one argument): ("greater_than", 0) is gt=0
    checks: tuple[tuple[str, object], ...] = ()


def _column(
    dtype: type[pl.DataType], *, nullable: bool = False, **checks: object
) -> MeasurementColumn:
    return MeasurementColumn(dtype, nullable, tuple(checks.items()))


# What MeasurementSchema asks of each column, in its order.
MEASUREMENT_COLUMNS: dict[str, MeasurementColumn] = {
    "source_id": _column(pl.String),
    "source_url": _column(pl.String),
    "document_sha256": _column(pl.String, str_length=64),
    "document_title": _column(pl.String, nullable=True),
    "captured_at": _column(pl.String),
    "parser_version": _column(pl.String),
    "table_index": _column(pl.Int32, greater_than_or_equal_to=0),
    "table_title": _column(pl.String, nullable=True),
    "row_number": _column(pl.Int32, greater_than_or_equal_to=1),
    "column_index": _column(pl.Int32, greater_than_or_equal_to=0),
    "column_name": _column(pl.String),
    "line_number": _column(pl.Int32, greater_than_or_equal_to=1),
    "row_identity": _column(pl.String),
    "model": _column(pl.String, nullable=True),
    "model_canonical": _column(pl.String, nullable=True),
    "variant": _column(pl.String, nullable=True),
    "platform": _column(pl.String, nullable=True),
    "vendor": _column(pl.String, nullable=True),
    "system": _column(pl.String, nullable=True),
    "accelerator": _column(pl.String, nullable=True),
    "accelerator_count": _column(pl.Int64, nullable=True, greater_than=0),
    "sdk_version": _column(pl.String, nullable=True),
    "sdk": _column(pl.String, nullable=True),
    "sdk_prerelease": _column(pl.Boolean, nullable=True),
    "framework": _column(pl.String, nullable=True),
    "framework_canonical": _column(pl.String, nullable=True),
    "dataset": _column(pl.String, nullable=True),
    "batch_size": _column(pl.String, nullable=True),
    "batch_size_number": _column(pl.Float64, nullable=True, greater_than=0),
    "precision": _column(pl.String, nullable=True),
    "activation_dtype": _column(pl.String, nullable=True, isin=DTYPES),
    "weight_dtype": _column(pl.String, nullable=True, isin=DTYPES),
    "division": _column(pl.String, nullable=True),
    "quality_target": _column(pl.String, nullable=True),
    "mlperf_id": _column(pl.String, nullable=True),
    "workload": _column(pl.String, nullable=True, isin=WORKLOADS),
    "phase": _column(pl.String, nullable=True),
    "metric": _column(pl.String, isin=METRICS),
    "value": _column(pl.Float64),
    "unit": _column(pl.String, nullable=True),
    "item_kind": _column(pl.String, nullable=True),
    "value_per_accelerator": _column(pl.Float64, nullable=True, greater_than=0),
    "rate_per": _column(pl.String, nullable=True, isin=RATE_SCOPES),
    "published_number": _column(pl.Float64, nullable=True),
    "unit_published": _column(pl.String, nullable=True),
    "approximate": _column(pl.Boolean, nullable=True),
    "raw_value": _column(pl.String),
    "row_label": _column(pl.String, nullable=True),
    "statistic": _column(pl.String, nullable=True, isin=STATISTICS),
    "spread": _column(pl.Float64, nullable=True),
    "qualifier": _column(pl.String, nullable=True),
    "settings": _column(pl.String, nullable=True),
    "label_sources": _column(pl.String, nullable=True),
    "unresolved": _column(pl.String, nullable=True),
    "model_base": _column(pl.String, nullable=True),
    "model_variant": _column(pl.String, nullable=True),
    "dataset_canonical": _column(pl.String, nullable=True),
}

# The frame-wide checks, by the name MeasurementSchema gives them; the model runs these
# very expressions, so the two cannot drift apart.
VALUE_IS_FINITE = pl.col("value").is_finite()
# Scores (accuracy, loss, eval_metric), ratios and other figures may be zero or negative.
RATES_AND_DURATIONS_ARE_POSITIVE = ~pl.col("metric").is_in(
    ["throughput", "latency", "time_to_train", "time_to_result", "speedup"]
) | (pl.col("value") > 0)
FRAME_CHECKS: dict[str, pl.Expr] = {
    "value_is_finite": VALUE_IS_FINITE,
    "rates_and_durations_are_positive": RATES_AND_DURATIONS_ARE_POSITIVE,
}

MEASUREMENT_DTYPES: ColumnTypes = {
    name: column.dtype for name, column in MEASUREMENT_COLUMNS.items()
}


def with_measurement_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every measurement column, in order: those it lacks are null."""
    missing = [
        pl.lit(None, dtype=dtype).alias(name)
        for name, dtype in MEASUREMENT_DTYPES.items()
        if name not in frame.columns
    ]
    return cast_columns(
        frame.with_columns(missing).select(list(MEASUREMENT_DTYPES)), MEASUREMENT_DTYPES
    )


__getattr__ = models_on_demand(__name__, ".measurement_schema", ["MeasurementSchema"])
