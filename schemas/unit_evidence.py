"""Units a page proves where it states none, decided from its own numbers.

An accuracy column whose header names a share ("Accuracy", "Top-1 Acc") and states no unit
is in percent when a number of it is above 1 (71.86: a share cannot exceed 1), with
`unit_source` "column values"; one whose numbers all stay within 1 is a fraction, a score.
A utilization whose header implies its percent by its word alone ("MFU", "HFU") and whose
numbers all stay within 1 (0.68) is written as a fraction: 68%, with `unit_source` "column
values".

A latency column with no unit anywhere (cell, column, row, table context) is not guessed; but
a row that also publishes a throughput shows the latency's unit: a throughput times the
time of one batch is the batch (251 images/s x 4.96 = 1,245: 4.96 ms per image, not
seconds). When every row of the column that publishes both agrees on one unit of time and
on no other, the column's latencies take it, with `unit_source` "row throughput"; else they
stay unit_not_stated.

A served model's latencies (TTFT, TPOT, ITL, E2E latency) are printed by serving benchmark
tools all in one unit. Where a table states none, its per-token latencies (TPOT, ITL) show
it: when each of them lies between 1 and 1000 it is milliseconds (1 to 1000 tokens/s per
user; in seconds they would be under one token per second), and every serving latency of
the table takes it, with `unit_source` "per-token latencies". A table without per-token
latencies, or with one outside that span, stays unit_not_stated.
"""

from __future__ import annotations

import polars as pl

from perfledger.schemas.units import UNIT_FIELDS, unit_fields, unit_named

# The units a latency may be in, by how its number times a throughput compares with the batch.
_CANDIDATES = ("s", "ms", "us")


def _factor(name: str) -> float:
    unit = unit_named(name)
    assert unit is not None  # units.csv names each of _CANDIDATES
    return unit.factor


# How far a throughput times a latency may be from the batch and still show the unit: the
# time of a batch includes more than the work the throughput counts (copies, launches).
_LOW, _HIGH = 0.5, 2.0
MIN_ROWS = 2  # rows that must publish both before a column's unit is taken as shown
SOURCE = "row throughput"
SHARE_SOURCE = "column values"
SERVING_SOURCE = "per-token latencies"
_PER_TOKEN_MS = (1.0, 1000.0)  # the span of per-token times that shows milliseconds
_PERCENT_AT_MOST = 100.0
_COLUMN = ["document", "table_index", "vcol"]
_ROW = ["document", "table_index", "row_number"]
_TABLE = ["document", "table_index"]


def with_units_from_row_throughput(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` (values with their chosen unit, u_*) with the latencies of a column that
    states no unit given the one their rows' throughputs show."""
    open_latency = (
        (pl.col("metric") == "latency")
        & pl.col("u_kind").is_null()
        & pl.col("number").is_not_null()
    )
    if not frame.select(open_latency.any()).item():
        return frame
    # Filtered lazily, so that only the columns selected are copied out of the wide frame.
    rates = (
        frame.lazy()
        .filter(
            (pl.col("metric") == "throughput")
            & pl.col("number").is_not_null()
            & pl.col("u_kind").is_in(["rate"]).fill_null(True)
            & pl.col("u_per").is_null()
        )
        .select(*_ROW, (pl.col("number") * pl.col("u_factor").fill_null(1.0)).alias("_rate"))
        .collect(engine="in-memory")
    )
    if rates.height == 0:
        return frame
    latencies = (
        frame.lazy()
        .filter(open_latency)
        .select(
            *_COLUMN,
            "row_number",
            "number",
            pl.col("batch_size_number").fill_null(1.0).alias("_batch")
            if "batch_size_number" in frame.columns
            else pl.lit(1.0).alias("_batch"),
        )
        .collect(engine="in-memory")
    )
    pairs = latencies.join(rates, on=_ROW, how="inner")
    if pairs.height == 0:
        return frame
    products = pl.col("_rate") * pl.col("number") / pl.col("_batch")
    fits = [
        (products * _factor(name)).is_between(_LOW, _HIGH).any().alias(name) for name in _CANDIDATES
    ]
    per_row = pairs.group_by([*_COLUMN, "row_number"]).agg(fits)
    per_column = per_row.group_by(_COLUMN).agg(
        pl.len().alias("_rows"), *(pl.col(name).all() for name in _CANDIDATES)
    )
    shown = per_column.filter(
        (pl.col("_rows") >= MIN_ROWS)
        & (pl.sum_horizontal(pl.col(name).cast(pl.Int8) for name in _CANDIDATES) == 1)
    )
    if shown.height == 0:
        return frame
    unit = pl.coalesce(*(pl.when(pl.col(name)).then(pl.lit(name)) for name in _CANDIDATES))
    shown = shown.select(*_COLUMN, unit.alias("_shown"))
    names = shown.get_column("_shown").unique().to_list()
    fields = pl.DataFrame(
        [(name, *unit_fields(unit_named(name))) for name in names],
        schema={
            "_shown": pl.String,
            **{f"_s_{field}": dtype for field, dtype in UNIT_FIELDS.items()},
        },
        orient="row",
    )
    shown = shown.join(fields, on="_shown")
    frame = frame.join(shown, on=_COLUMN, how="left", maintain_order="left")
    take = open_latency & pl.col("_shown").is_not_null()
    return frame.with_columns(
        *(
            pl.when(take)
            .then(pl.col(f"_s_{field}"))
            .otherwise(pl.col(f"u_{field}"))
            .alias(f"u_{field}")
            for field in UNIT_FIELDS
        ),
        pl.when(take).then(pl.lit(SOURCE)).otherwise(pl.col("unit_source")).alias("unit_source"),
    ).drop("_shown", *(f"_s_{field}" for field in UNIT_FIELDS))


def with_percent_shares(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with the accuracies of a share column that states no unit in percent when
    one of the column's numbers is above 1 and none above 100."""
    if "h_share" not in frame.columns:
        return frame
    open_share = (
        (pl.col("metric") == "accuracy")
        & pl.col("u_kind").is_null()
        & pl.col("h_share").fill_null(False)
    )
    implied_percent = (
        (pl.col("metric") != "accuracy")
        & (pl.col("unit_source") == "column")
        & (pl.col("u_kind") == "percent")
        & pl.col("h_share").fill_null(False)
    )
    if not frame.select((open_share | implied_percent).any()).item():
        return frame
    largest = pl.col("number").filter(open_share).max().over(_COLUMN)
    largest_implied = pl.col("number").filter(implied_percent).max().over(_COLUMN)
    # Columns of their own, read by every field below: as an expression written out in each,
    # its window would be worked out once per field.
    steps = frame.lazy().with_columns(
        _take=open_share & (largest > 1.0) & (largest <= _PERCENT_AT_MOST),
        _fraction=implied_percent & (largest_implied <= 1.0),
    )
    steps = _taking_unit(steps, pl.col("_take"), "%", SHARE_SOURCE)
    return (
        _taking_unit(steps, pl.col("_fraction"), "fraction", SHARE_SOURCE)
        .drop("_take", "_fraction")
        .collect(engine="in-memory")
    )


def with_serving_units(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with the serving latencies of a table that states no unit in milliseconds
    when the table's per-token latencies show it (see the module's note)."""
    if "h_serving" not in frame.columns:
        return frame
    open_serving = (
        (pl.col("metric") == "latency")
        & pl.col("u_kind").is_null()
        & pl.col("h_serving").is_not_null()
        & pl.col("number").is_not_null()
    )
    if not frame.select(open_serving.any()).item():
        return frame
    per_token = open_serving & (pl.col("h_serving") == "per token")
    low, high = _PER_TOKEN_MS
    tables = (
        frame.lazy()
        .filter(open_serving)
        .group_by(_TABLE)
        .agg(
            (
                (per_token.sum() > 0)
                & pl.col("number").filter(per_token).is_between(low, high).all()
            ).alias("_shown")
        )
        .filter(pl.col("_shown"))
        .collect(engine="in-memory")
    )
    if tables.height == 0:
        return frame
    steps = frame.lazy().join(tables.lazy(), on=_TABLE, how="left", maintain_order="left")
    take = open_serving & pl.col("_shown").fill_null(False)
    return (
        _taking_unit(steps, take, "ms", SERVING_SOURCE).drop("_shown").collect(engine="in-memory")
    )


def _taking_unit(steps: pl.LazyFrame, take: pl.Expr, unit: str, source: str) -> pl.LazyFrame:
    """`steps` with the unit fields (u_*) of the rows `take` selects set to `unit`'s, and
    their `unit_source` to `source`."""
    fields = unit_fields(unit_named(unit))
    return steps.with_columns(
        *(
            pl.when(take)
            .then(pl.lit(value, dtype=dtype))
            .otherwise(pl.col(f"u_{field}"))
            .alias(f"u_{field}")
            for (field, dtype), value in zip(UNIT_FIELDS.items(), fields, strict=True)
        ),
        pl.when(take).then(pl.lit(source)).otherwise(pl.col("unit_source")).alias("unit_source"),
    )


def with_units_shown(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every unit its own numbers show where the page states none (see the
    module's note)."""
    return with_serving_units(with_percent_shares(with_units_from_row_throughput(frame)))
