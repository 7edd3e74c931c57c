"""The values of result cells, in their metric's canonical unit, with the unit's source.

A cell's number and unit are read by schemas/cell_reading.py ("96 img/s", "~5 hours",
"77.12 +/- 0.11", "109.4 sps (phase1), 20 sps (phase2)"); most cells are plain numbers, read
here by polars without a Python step each. A value takes its cell's unit, else its row's (a
unit column beside it, a footnote, a unit in a label cell), else its column header's, else
its table context's, and is converted to the canonical unit of its metric: items/s for a
throughput, ms for a latency, s for a time to train, x for a speedup, % or x for scaling, %
or score for accuracy. What cannot be read with certainty gets a `problem` (the check) and
is set apart by the caller with the reason.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache

import polars as pl

from perfledger.schemas.cell_reading import LOSS_WORDS, read_cell
from perfledger.schemas.column_metrics import QUALITY_METRICS
from perfledger.schemas.column_types import ColumnTypes, frame_of_rows
from perfledger.schemas.header_part_figures import reading_texts
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.measurements import RATE_SCOPES
from perfledger.schemas.row_labels import UNIT_FIELDS, unit_fields
from perfledger.schemas.unit_choice import (
    chosen_unit,
    quality_change_columns,
    setup_time_columns,
    unit_choice,
)
from perfledger.schemas.unit_evidence import with_units_shown
from perfledger.schemas.units import LATENCY_BELOW_SECONDS, TRAINING_FROM_SECONDS, unit_named
from perfledger.schemas.vocabulary import read_vocab

# ASCII digits only: "３,２１２" (full-width) is read by schemas/cell_reading.py, which folds it.
_PLAIN = r"^(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:[.,][0-9]+)?)$"
_TWO_READINGS = r"^[1-9]\d{0,2}[.,]\d{3}$"  # "12.345": thousands or decimals
_COMMA_GROUPS = r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$"
_SIGNED = r"^[\s*_~]*[+\-\u2212]\s*\d"
_WAY_WORDS = ("faster", "quicker", "higher", "better", "slower", "lower", "worse")
_TIME_HEADER = r"(?i)(?:^|[^a-z])time(?:[^a-z]|$)"
_HOURS_IN_PARTS = r"(?i)^\s*\d+(?:\.\d+)?\s*(?:d|days?|h|hrs?|hours?)\s*\d"
_SHIFTED_PRECISION = r"^\s*(?:8|16|32)\.(?:8|16|32)\s*$"
MAX_DIGITS = 30
_MINUTE = 60.0  # seconds
MAX_EXACT_DIGITS = 15  # significant digits a double always holds exactly
POSITIVE_METRICS = ["throughput", "latency", "time_to_train", "time_to_result", "speedup"]
DURATION_METRICS = ["latency", "time_to_train", "time_to_result"]
READING_SCHEMA: ColumnTypes = {
    "raw_value": pl.String,
    "decimal": pl.String,
    "number": pl.Float64,
    **{f"c_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
    "rest": pl.String,
    "spread": pl.Float64,
    "approximate": pl.Boolean,
    "seconds": pl.Float64,
    "qualifier": pl.String,
    "spelled": pl.Boolean,
    "secondary": pl.Boolean,
    "problem": pl.String,
}


def read_values(cells: pl.DataFrame, mappings: LabelMappings) -> pl.DataFrame:
    """The values of result cells: one row per value (a cell may hold two), with `value`,
    `unit`, `spread`, `unit_source`, `unit_published`, `unit_item_kind`, `published_number`,
    `approximate`, `qualifier` and `problem` (null for a value that reads).

    `cells` holds per cell its `raw_value`, `metric`, `decimal`, and the units around it:
    row (r_*), column header (h_*) and context (x_*, with `x_unit_source`)."""
    numbers = _numbers(cells.select(reading_texts(cells), "decimal"), mappings)
    if numbers.height == cells.height:  # one value per cell, in the cells' order
        frame = cells.hstack(numbers.drop("_cell").get_columns())
    else:
        frame = cells[numbers.get_column("_cell")].hstack(numbers.drop("_cell").get_columns())
    if "h_spread_named" in frame.columns and frame.get_column("h_spread_named").any():
        frame = frame.with_columns(_spread_in_brackets())
    steps = frame.lazy().with_columns(
        _metrics_of_header_parts(frame),
        quality_change_columns(frame),
        setup_time_columns(frame),
    )
    if frame.get_column("qualifier").is_not_null().any() and "metric_source" in frame.columns:
        steps = steps.with_columns(_metric_of_cell_name(frame))
    for step in _metric_of_cell_unit(frame.columns):
        steps = steps.with_columns(step)
    steps = steps.drop("secondary", "_named", "_take", "_part_metrics")
    if frame.get_column("metric").eq("ranking").any():
        steps = steps.with_columns(_ranking())
    if frame.get_column("rest").is_not_null().any():
        steps = steps.with_columns(_minutes=_is_minutes()).with_columns(_minutes_letter())
        steps = steps.drop("_minutes")
    if "h_factor" in frame.columns and frame.get_column("spelled").any():
        steps = steps.with_columns(_clock_in_hours())
    chosen = (
        steps.with_columns(unit_choice())
        .with_columns(chosen_unit())
        .drop("_quality_change", "_setup_time")
        .collect(engine="in-memory")
    )
    proven = with_units_shown(chosen)
    spreads = proven.get_column("spread").is_not_null().any()
    return (
        proven.lazy()
        .with_columns(_unrounded(_factor_digits(proven.get_column("u_factor")), spreads=spreads))
        .with_columns(_converted(spreads=spreads))
        .with_columns(_checked())
        .drop("_from", *_UNROUNDED)
        .collect(engine="in-memory")
    )


_BARE_FIGURE = r"^\d+(?:\.\d+)?$"


def _spread_in_brackets() -> list[pl.Expr]:
    """A figure in brackets after a value whose column names the standard deviation beside
    the mean ("12.4 (0.8)" under "Latency ms (average, std)") is its spread, no remark."""
    bracketed = (
        pl.col("h_spread_named").fill_null(False)
        & pl.col("spread").is_null()
        & pl.col("qualifier").str.contains(_BARE_FIGURE).fill_null(False)
    )
    return [
        pl.when(bracketed)
        .then(pl.col("qualifier").cast(pl.Float64, strict=False))
        .otherwise(pl.col("spread"))
        .alias("spread"),
        pl.when(bracketed).then(None).otherwise(pl.col("qualifier")).alias("qualifier"),
    ]


def _numbers(texts: pl.DataFrame, mappings: LabelMappings) -> pl.DataFrame:
    """The reading of each cell of `texts` (raw_value, decimal), READING_SCHEMA but the
    text and mark, with `_cell`, the cell's row: in the cells' order, a cell of two values
    giving two rows. Read on these two columns alone, which the wide frame of labels
    beside them would only slow down."""
    texts = texts.with_row_index("_cell").with_columns(
        _plain=pl.col("raw_value").str.contains(_PLAIN)
    )
    read_plainly = texts.filter(pl.col("_plain")).with_columns(_plain_readings())
    others = texts.filter(~pl.col("_plain"))
    if others.height == 0:
        return read_plainly.drop("raw_value", "decimal", "_plain")
    readings = _readings_of(others.select("raw_value", "decimal").unique(), mappings)
    others = others.join(
        readings, on=["raw_value", "decimal"], how="left", nulls_equal=True, maintain_order="left"
    )
    return (
        pl.concat([read_plainly, others], how="diagonal_relaxed")
        .sort("_cell", maintain_order=True)
        .drop("raw_value", "decimal", "_plain")
    )


# ---- reading the number --------------------------------------------------------------------


def _plain_readings() -> list[pl.Expr]:
    """The reading of a plain number ("6,044", "12.5", "1,234,567"), as read_cell gives it."""
    text = pl.col("raw_value")
    separator = (
        pl.when(text.str.contains(",", literal=True)).then(pl.lit(",")).otherwise(pl.lit("."))
    )
    as_decimals = text.str.replace(",", ".", literal=True).cast(pl.Float64, strict=False)
    as_thousands = text.str.replace_all(r"[.,]", "").cast(pl.Float64, strict=False)
    two_readings = text.str.contains(_TWO_READINGS)
    number = (
        pl.when(two_readings)
        .then(
            pl.when(pl.col("decimal") == separator)
            .then(as_decimals)
            .when(pl.col("decimal").is_not_null())
            .then(as_thousands)
        )
        .when(text.str.contains(_COMMA_GROUPS))
        .then(text.str.replace_all(",", "", literal=True).cast(pl.Float64, strict=False))
        .otherwise(as_decimals)
    )
    too_long = text.str.count_matches(r"\d") > MAX_DIGITS
    return [
        pl.when(~too_long).then(number).alias("number"),
        *(pl.lit(None, dtype=dtype).alias(f"c_{name}") for name, dtype in UNIT_FIELDS.items()),
        pl.lit(None, dtype=pl.String).alias("rest"),
        pl.lit(None, dtype=pl.Float64).alias("spread"),
        pl.lit(False).alias("approximate"),
        pl.lit(None, dtype=pl.Float64).alias("seconds"),
        pl.lit(None, dtype=pl.String).alias("qualifier"),
        pl.lit(False).alias("spelled"),
        pl.lit(False).alias("secondary"),
        pl.when(too_long)
        .then(pl.lit("unparseable_value"))
        .when(two_readings & pl.col("decimal").is_null())
        .then(pl.lit("ambiguous_number"))
        .alias("problem"),
    ]


def _readings_of(texts: pl.DataFrame, mappings: LabelMappings) -> pl.DataFrame:
    """read_cell of each distinct (text, decimal mark); a cell of two values gives two rows."""
    rows = []
    for raw, decimal in texts.iter_rows():
        reading = read_cell(raw, decimal)
        if reading.problem is not None or not reading.values:
            rows.append(
                (
                    raw,
                    decimal,
                    None,
                    *unit_fields(None),
                    None,
                    None,
                    False,
                    None,
                    None,
                    False,
                    False,
                    reading.problem or "unparseable_value",
                )
            )
            continue
        several = len(reading.values) > 1
        for value in reading.values:
            unit = value.unit
            if unit is None and value.rest is not None:
                unit = _mapped_unit(value.rest, mappings)
            rows.append(
                (
                    raw,
                    decimal,
                    value.number,
                    *unit_fields(unit),
                    None if unit is not None else value.rest,
                    value.spread,
                    value.approximate,
                    value.seconds,
                    value.qualifier if several or value.qualifier else None,
                    value.spelled,
                    value.secondary,
                    None,
                )
            )
    return frame_of_rows(rows, READING_SCHEMA)


def _mapped_unit(text: str, mappings: LabelMappings):
    mapped = mappings.get("unit", text)
    if not mapped:
        return None
    from perfledger.schemas.units import Unit

    return Unit(
        text.lower(),
        mapped.get("kind", "other"),
        float(mapped.get("factor", 1.0)),
        mapped.get("item_kind"),
        mapped.get("canonical", text),
    )


@cache
def _ordinals() -> tuple[list[str], list[float]]:
    rows = list(read_vocab("ordinals.csv").iter_rows(named=True))
    return [row["word"] for row in rows], [float(row["place"]) for row in rows]


def _ranking() -> list[pl.Expr]:
    """A place written as a word ("First") is a ranking's value, with no number printed."""
    words, places = _ordinals()
    place = (
        pl.col("raw_value")
        .str.strip_chars()
        .str.to_lowercase()
        .replace_strict(words, places, default=None, return_dtype=pl.Float64)
    )
    ranked_word = (pl.col("metric") == "ranking") & place.is_not_null()
    return [
        pl.when(ranked_word).then(place).otherwise(pl.col("number")).alias("number"),
        pl.when(ranked_word)
        .then(pl.lit(None, dtype=pl.String))
        .otherwise(pl.col("problem"))
        .alias("problem"),
        (pl.col("spelled") | ranked_word).alias("spelled"),
    ]


# ---- the metric a cell's own unit names ----------------------------------------------------


_SPACED_SLASH = re.compile(r"\s+/\s+")


def _metrics_of_header_parts(frame: pl.DataFrame) -> pl.Expr:
    """`_part_metrics`: the metrics a header names in parts parted by " / " ("BPU Task
    Latency / BPU Throughput (Threads)": latency and throughput), per distinct header."""
    if "column_name" not in frame.columns:
        return pl.lit(None, dtype=pl.List(pl.String)).alias("_part_metrics")
    headers = frame.get_column("column_name").unique().drop_nulls().to_list()
    named = [_metrics_named(header) for header in headers]
    return (
        pl.col("column_name")
        .replace_strict(headers, named, default=None, return_dtype=pl.List(pl.String))
        .alias("_part_metrics")
    )


def _metrics_named(header: str) -> list[str] | None:
    parts = _SPACED_SLASH.split(header)
    if len(parts) < 2:
        return None
    readings = [read_header(part) for part in parts]
    return sorted({reading.role for reading in readings if reading.names_metric and reading.role})


def _metric_of_cell_name(frame: pl.DataFrame) -> list[pl.Expr]:
    """A value whose cell names its metric before it ("TTFT: 22.5s", "Input throughput:
    22424 tps/card") takes that metric where its column names none (a column of the runs
    compared, "CPP (Dynamic Chunk)"), and the statistic its name gives ("Mean TTFT (ms):
    21.48") wherever it gives one."""
    names = frame.get_column("qualifier").unique().drop_nulls().to_list()
    named = pl.col("qualifier").replace_strict(
        names, [_metric_named_by(name) for name in names], default=None, return_dtype=pl.String
    )
    take = pl.col("metric").is_null() & named.is_not_null()
    statistic = pl.col("qualifier").replace_strict(
        names, [_statistic_named_by(name) for name in names], default=None, return_dtype=pl.String
    )
    return [
        pl.when(take).then(named).otherwise(pl.col("metric")).alias("metric"),
        pl.when(take)
        .then(pl.lit("cell"))
        .otherwise(pl.col("metric_source"))
        .alias("metric_source"),
        pl.coalesce(statistic, pl.col("statistic")).alias("statistic"),
    ]


@lru_cache(maxsize=4096)
def _metric_named_by(name: str) -> str | None:
    reading = read_header(name)
    return reading.role if reading.names_metric else None


_OWN_FIGURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


@lru_cache(maxsize=4096)
def _statistic_named_by(name: str) -> str | None:
    """The statistic a value's own name gives it, as a header would ("Mean TTFT (ms)",
    "p99" of "TTFT mean/p50/p99"): it is more particular than its column's. A remark
    holding a figure of its own ("standard deviation 663 usec") names another value."""
    if _OWN_FIGURE.search(name):
        return None
    reading = read_header(name)
    return reading.statistic if reading.kind in ("metric", "statistic") else None


def _metric_of_cell_unit(columns: list[str]) -> list[list[pl.Expr]]:
    """A value whose cell states a unit takes the metric that unit names ("5.7 hours": a time
    to train; "40.7 images/sec": a throughput; "1.16x speedup": a speedup) where its column
    names none, where its metric came from the table's context and does not fit the unit,
    and for a value in brackets after another whose unit does not fit the column's metric.
    A time in seconds or minutes names none by itself: under a header saying the column
    holds results ("Performance"), the table's workload tells a training time from a
    latency; under another ("Duration") it stays unknown."""
    kind, per, factor = pl.col("c_kind"), pl.col("c_per"), pl.col("c_factor")
    workload = pl.coalesce("x_workload", "table_workload")
    results_column = (
        pl.col("h_results").fill_null(False) if "h_results" in columns else pl.lit(False)
    )
    # A share under a column of results in a quality context ("% of BF16 Performance" beside
    # "Strict-match Accuracy"): the quality kept, the context's metric (not a throughput of
    # "Performance"; schemas/table_plans.py, _speed_metric).
    quality_share = (
        (kind == "percent")
        & results_column
        & pl.col("x_metric").is_in(QUALITY_METRICS).fill_null(False)
        if "x_metric" in columns
        else pl.lit(False)
    )
    context_metric = pl.col("metric").is_not_null() & ~pl.col("metric").is_in(
        ["other", *DURATION_METRICS]
    )
    # Only under a header that says it is a time ("Time", "Total Time"): a cookie's
    # "Duration" on a benchmark page measures nothing.
    timed = (
        pl.col("column_name").str.contains(_TIME_HEADER).fill_null(False)
        if "column_name" in columns
        else pl.lit(False)
    )
    context_misfit = (
        context_metric & timed & ~pl.col("metric_source").is_in(["column", "row"]).fill_null(True)
    )
    named = (
        pl.when(quality_share)
        .then(pl.col("x_metric"))
        .when(kind == "rate")
        .then(pl.lit("throughput"))
        .when(kind == "ratio")
        .then(pl.lit("speedup"))
        .when(kind == "other")
        .then(pl.lit("other"))
        # "9426 (+61.2%)": a change beside the value, another figure.
        .when((kind == "percent") & pl.col("secondary"))
        .then(pl.lit("other"))
        .when(kind != "duration")
        .then(pl.lit(None, dtype=pl.String))
        .when(per == "item")
        .then(pl.lit("latency"))
        .when(per == "work")
        .then(pl.lit("time_to_train"))
        .when(factor < LATENCY_BELOW_SECONDS)
        .then(pl.lit("latency"))
        .when(factor >= TRAINING_FROM_SECONDS)
        .then(pl.lit("time_to_train"))
        # "13h 44m", "1d 3h 43m": a time in parts counting hours, as "13.7 hours" is
        .when(pl.col("raw_value").str.contains(_HOURS_IN_PARTS).fill_null(False))
        .then(pl.lit("time_to_train"))
        # A time under a column naming no metric, on a page whose prose names one that no
        # duration measures ("faster ... for the same accuracy"): the cells' own unit wins,
        # a whole run's wall time.
        .when(context_misfit & (workload == "training"))
        .then(pl.lit("time_to_train"))
        .when(context_misfit)
        .then(pl.lit("time_to_result"))
        .when(~results_column)
        .then(pl.lit(None, dtype=pl.String))
        .when(workload == "training")
        .then(pl.lit("time_to_train"))
        .when(workload == "inference")
        .then(pl.lit("latency"))
    )
    metric = pl.col("metric")
    fits = (
        pl.when(metric == "throughput")
        .then(kind == "rate")
        .when(metric.is_in(DURATION_METRICS))
        .then(kind == "duration")
        .when(metric.is_in(["speedup", "scaling_efficiency"]))
        .then(kind.is_in(["ratio", "percent"]))
        .when(metric == "accuracy")
        .then(kind == "percent")
        # "532.4 samples/s" on a page whose prose speaks of a model's "contrastive loss":
        # no loss is a rate, a time or a ratio
        .when(metric == "loss")
        .then(~kind.is_in(["rate", "duration", "ratio"]))
        # "Effective TFLOPS" in a caption over "3.12 ms / 706 TFLOPS": the cell's time is a
        # latency, whatever other figure the context names.
        .when(metric == "other")
        .then(~kind.is_in(["rate", "duration", "ratio"]))
        .otherwise(pl.lit(True))
    )
    stated_here = pl.col("metric_source").is_in(["column", "row"]) & ~pl.col("secondary")
    # "+13.3%", "-32.5%" beside or under values: a signed percentage is a relative change
    # (another figure), whatever the column measures.
    change = (
        (kind == "percent")
        # "33% faster": a percentage the way it goes is a change too
        & (pl.col("raw_value").str.contains(_SIGNED) | pl.col("qualifier").is_in(_WAY_WORDS))
        & ~metric.is_in(["accuracy", "other", "scaling_efficiency"]).fill_null(False)
    )
    # A percentage under a gain ("TPS Gain 45.1%") is that change too; one under a speedup
    # the column does not name (a share, "Accept Rate 27.0%", on a page saying "speedup")
    # is no comparison.
    change_column = pl.col("h_change").fill_null(False) if "h_change" in columns else pl.lit(False)
    unnamed_comparison = (
        (kind == "percent")
        & (metric == "speedup").fill_null(False)
        & (change_column | ~pl.col("metric_source").is_in(["column", "row"]).fill_null(True))
    )
    # "0.260(94.55%)" under an accuracy: the percent in brackets is the score's ratio to
    # another (the float model's), no second accuracy.
    retained = (kind == "percent") & pl.col("secondary") & (metric == "accuracy").fill_null(False)
    # "63%" under "FP8 slope (% of BF16)" on a page of latencies: a share of one, no latency
    share_of_timed = (
        (kind == "percent")
        & metric.is_in(["throughput", *DURATION_METRICS]).fill_null(False)
        & ~pl.col("metric_source").is_in(["column", "row"]).fill_null(True)
    )
    change = change | unnamed_comparison | retained | share_of_timed
    named = pl.when(change).then(pl.lit("other")).otherwise(named)
    # "2.62x" under "Throughput": how many times the throughput, a speedup of it.
    gain = (kind == "ratio") & metric.is_in(["throughput", *DURATION_METRICS]).fill_null(False)
    # In steps, each a column of its own: an expression written out twice is worked out
    # twice.
    # "6.3 ms / 157.4 FPS" under "Latency / Throughput": the header names each value's metric
    # in one of its parts, the one its unit fits.
    named_in_part = pl.col("_part_metrics").list.contains(pl.col("_named")).fill_null(False)
    take = pl.col("_named").is_not_null() & (
        metric.is_null() | (~stated_here & ~fits) | change | gain | (~fits & named_in_part)
    )
    return [
        [named.alias("_named")],
        [_seconds_beside_latencies(columns)],
        [take.alias("_take")],
        [
            pl.when(pl.col("_take")).then(pl.col("_named")).otherwise(metric).alias("metric"),
            pl.when(pl.col("_take"))
            .then(pl.lit("cell"))
            .otherwise(pl.col("metric_source"))
            .alias("metric_source"),
        ],
    ]


def _seconds_beside_latencies(columns: list[str]) -> pl.Expr:
    """A time in seconds names no metric by itself; in a column whose other cells are plain
    times their own units name latencies ("632.6ms" above "3.28s"), and none a time to
    train, it is one of them. Minutes stay unknown, and so do seconds beside times per step
    ("13毫秒/步" above "总时长 4分钟": a whole run's time)."""
    column = ["document", "table_index", "column_index"]
    if not all(name in columns for name in column):
        return pl.col("_named")
    named, kind, per = pl.col("_named"), pl.col("c_kind"), pl.col("c_per")
    plain_time = (kind == "duration") & per.is_null()
    undecided = named.is_null() & plain_time & (pl.col("c_factor") < _MINUTE)
    beside = ((named == "latency") & plain_time).any().over(column) & ~(
        named == "time_to_train"
    ).any().over(column)
    # "Time | 3.2s" in a table naming no metric (an image generated on each platform): under a
    # header saying it holds times, the seconds are the time each run took to its result
    timed = (
        pl.col("metric").is_null() & pl.col("column_name").str.contains(_TIME_HEADER)
        if "column_name" in columns
        else pl.lit(False)
    )
    return (
        pl.when(undecided & beside)
        .then(pl.lit("latency"))
        .when(undecided & timed.fill_null(False) & (pl.col("c_factor") >= 1.0))
        .then(pl.lit("time_to_result"))
        .otherwise(named)
        .alias("_named")
    )


# ---- the unit -------------------------------------------------------------------------------


_MINUTES_LETTER = "m"


def _is_minutes() -> pl.Expr:
    """ "18m" in a column of times is 18 minutes: the letter a duration in parts writes its
    minutes with ("1h 18m"). Alone it is no unit of the vocabulary, which also knows it as a
    million; only a value whose metric is a time reads it so."""
    return pl.col("metric").is_in(DURATION_METRICS) & (
        pl.col("rest").str.strip_chars().str.to_lowercase() == _MINUTES_LETTER
    )


def _minutes_letter() -> list[pl.Expr]:
    """A value read in minutes where the column `_minutes` (_is_minutes) says so."""
    minutes = unit_named("min")
    assert minutes is not None  # units.csv names minutes "min"
    minute = unit_fields(replace(minutes, alias=_MINUTES_LETTER))
    is_minutes = pl.col("_minutes")
    return [
        *(
            pl.when(is_minutes)
            .then(pl.lit(value, dtype=UNIT_FIELDS[name]))
            .otherwise(pl.col(f"c_{name}"))
            .alias(f"c_{name}")
            for name, value in zip(UNIT_FIELDS, minute, strict=True)
        ),
        pl.when(is_minutes)
        .then(pl.col("number") * minute[2])
        .otherwise(pl.col("seconds"))
        .alias("seconds"),
        pl.when(is_minutes)
        .then(pl.lit(None, dtype=pl.String))
        .otherwise(pl.col("rest"))
        .alias("rest"),
    ]


# A clock reading of two parts ("80:17"): minutes and seconds, unless its column is in hours.
_TWO_PART_CLOCK = r"^\s*~?\d{1,4}:\d{2}\s*(?:\([^()]*\))?\s*$"
_HOUR = 3600.0  # seconds


def _clock_in_hours() -> list[pl.Expr]:
    """ "80:17" under "Train Time 300 epochs A100 (hours)": 80 hours and 17 minutes, the two
    parts a column of hours writes, not 80 minutes and 17 seconds."""
    in_hours = (
        pl.col("spelled")
        & (pl.col("h_factor") == _HOUR)
        & pl.col("raw_value").str.contains(_TWO_PART_CLOCK)
    ).fill_null(False)
    return [
        pl.when(in_hours).then(pl.col(name) * _MINUTE).otherwise(pl.col(name)).alias(name)
        for name in ("seconds", "number")
    ]


# ---- the canonical value --------------------------------------------------------------------


# The value and spread as computed, and the significant digits each is rounded to: columns of
# their own, since `as_published` reads them once per count of digits, and an expression
# written out that many times is evaluated that many times.
_UNROUNDED = ("_value", "_value_digits", "_spread", "_spread_digits")


def _factor_digits(factors: pl.Series) -> pl.Expr:
    """The significant digits of each value's unit factor, worked out once per factor: a
    chunk's values have a handful of factors between them."""
    distinct = factors.fill_null(1.0).unique()
    digits = pl.DataFrame({"factor": distinct}).select(significant_digits(pl.col("factor")))
    return (
        pl.col("u_factor")
        .fill_null(1.0)
        .replace_strict(distinct, digits.to_series(), return_dtype=digits.dtypes[0])
    )


def _unrounded(factor_digits: pl.Expr, *, spreads: bool) -> list[pl.Expr]:
    """`factor_digits`: those of each value's unit factor (see _factor_digits); `spreads`:
    whether any value has a spread ("77.12 +/- 0.11"), else none is worked out."""
    metric = pl.col("metric")
    number, spread = pl.col("number"), pl.col("spread")
    kind, factor = pl.col("u_kind"), pl.col("u_factor")
    seconds = pl.coalesce(pl.col("seconds"), number * factor)
    to_canonical = pl.when(metric == "latency").then(pl.lit(1000.0)).otherwise(pl.lit(1.0))
    percent = kind == "percent"
    # Another figure measured in time (a latency's change, "+11 ms") is kept in ms, as a
    # latency is.
    other_time = (metric == "other") & (kind == "duration")
    # "2.21x slower": the speedup is the inverse of the ratio a loss word follows above one
    inverse = (metric == "speedup") & pl.col("qualifier").is_in(LOSS_WORDS) & (number > 1.0)
    value = (
        pl.when(metric == "throughput")
        .then(number * factor.fill_null(1.0))
        .when(metric.is_in(DURATION_METRICS))
        .then(seconds * to_canonical)
        .when((metric == "speedup") & percent)
        .then(number / 100.0)
        .when(inverse)
        .then(1.0 / number)
        .when(other_time)
        .then(seconds * 1000.0)
        .when((metric == "other") & kind.is_not_null())
        .then(number * factor)
        .otherwise(number)
    )
    spread_value = (
        pl.when(metric == "throughput")
        .then(spread * factor.fill_null(1.0))
        .when(metric.is_in(DURATION_METRICS))
        .then(pl.when(~pl.col("spelled")).then(spread * factor * to_canonical))
        .when((metric == "speedup") & percent)
        .then(spread / 100.0)
        .when(other_time)
        .then(spread * factor * 1000.0)
        .when((metric == "other") & kind.is_not_null())
        .then(spread * factor)
        .otherwise(spread)
    )
    # The factors' digits: those of the unit's factor (0.001, 60, 86400) and of the metric's
    # canonical scale (1 or 1000: one digit); a clock reading's seconds are the number
    # converted.
    factor_digits = factor_digits + 1
    scaled = pl.coalesce(pl.col("seconds"), number)
    return [
        value.alias("_value"),
        (significant_digits(scaled) + factor_digits).alias("_value_digits"),
        *(
            [
                spread_value.alias("_spread"),
                (significant_digits(spread) + factor_digits).alias("_spread_digits"),
            ]
            if spreads
            else [pl.lit(None, dtype=pl.Float64).alias(name) for name in _UNROUNDED[2:]]
        ),
    ]


def _converted(*, spreads: bool) -> list[pl.Expr]:
    """The value and its spread in the canonical unit, rounded as published (without
    `spreads`, the spreads, all null, are left as they are), and the unit's fields."""
    metric = pl.col("metric")
    number = pl.col("number")
    kind = pl.col("u_kind")
    percent = kind == "percent"
    other_time = (metric == "other") & (kind == "duration")
    value = as_published(pl.col("_value"), pl.col("_value_digits"))
    spread_value = as_published(pl.col("_spread"), pl.col("_spread_digits"))
    unit = (
        pl.when(metric == "throughput")
        .then(pl.lit("items/s"))
        .when(metric == "latency")
        .then(pl.lit("ms"))
        .when(metric.is_in(["time_to_train", "time_to_result"]))
        .then(pl.lit("s"))
        .when(metric == "speedup")
        .then(pl.lit("x"))
        .when(metric == "scaling_efficiency")
        .then(pl.when(percent).then(pl.lit("%")).otherwise(pl.lit("x")))
        .when(metric == "accuracy")
        .then(pl.when(percent).then(pl.lit("%")).otherwise(pl.lit("score")))
        .when(metric == "loss")
        .then(pl.lit("score"))
        .when(metric == "eval_metric")
        .then(pl.coalesce("rest", "u_alias"))
        .when(metric == "ranking")
        .then(pl.lit("place"))
        .when(other_time)
        .then(pl.lit("ms"))
        .when(kind.is_not_null())
        .then(pl.col("u_canonical"))
        .otherwise(pl.coalesce("rest", pl.lit("score")))
    )
    # A score written with its name ("0.0719 MAE") has no published number, as every earlier
    # version stored it (the stored content hashes depend on it); nor has a clock reading.
    printed = ~pl.col("spelled") & ~((metric == "eval_metric") & pl.col("rest").is_not_null())
    return [
        value.alias("value"),
        *([spread_value.alias("spread")] if spreads else []),
        unit.alias("unit"),
        pl.when(printed).then(number).alias("published_number"),
        pl.col("u_item").alias("unit_item_kind"),
        pl.when(pl.col("u_per").is_in(RATE_SCOPES)).then(pl.col("u_per")).alias("rate_per"),
    ]


def significant_digits(number: pl.Expr) -> pl.Expr:
    """The fewest significant digits that give the number back (0.39: 2, 86400: 3, 1e-06:
    1); null beyond MAX_EXACT_DIGITS."""
    return pl.coalesce(
        [
            pl.when(number.round_sig_figs(digits) == number).then(pl.lit(digits))
            for digits in range(1, MAX_EXACT_DIGITS + 1)
        ]
    )


def as_published(value: pl.Expr, digits: pl.Expr) -> pl.Expr:
    """A product of decimals rounded to the significant digits its factors carry together:
    the exact product has no more (0.39 ms is 0.39 x 0.001 s x 1000, at most 4 digits), so
    this drops only the binary noise of the multiplication (0.39000000000000007 -> 0.39).
    A value of more digits than a double holds exactly is left as computed."""
    rounded = pl.when(digits == 1).then(value.round_sig_figs(1))
    for count in range(2, MAX_EXACT_DIGITS + 1):
        rounded = rounded.when(digits == count).then(value.round_sig_figs(count))
    return rounded.otherwise(value)


def _checked() -> pl.Expr:
    """The first check a value fails: a unit no vocabulary knows, of the wrong kind, or
    missing where the metric needs one; a value not finite or not positive."""
    metric = pl.col("metric")
    kind = pl.col("u_kind")
    wrong_kind = (
        pl.when(metric == "throughput")
        .then(kind.is_not_null() & (kind != "rate"))
        .when(metric.is_in(DURATION_METRICS))
        .then(kind.is_not_null() & (kind != "duration"))
        .when(metric == "speedup")
        .then(kind.is_not_null() & ~kind.is_in(["ratio", "percent"]))
        .when(metric == "scaling_efficiency")
        .then(kind.is_not_null() & ~kind.is_in(["ratio", "percent"]))
        .when(metric == "accuracy")
        .then(kind.is_not_null() & (kind != "percent"))
        .otherwise(pl.lit(False))
    )
    unknown_unit = (pl.col("_from") == "rest") & ~metric.is_in(
        ["accuracy", "loss", "other", "eval_metric", "ranking"]
    )
    return (
        pl.when(pl.col("problem").is_not_null())
        .then(pl.col("problem"))
        .when(unknown_unit)
        .then(pl.lit("unknown_unit"))
        .when(wrong_kind)
        .then(pl.lit("unit_metric_mismatch"))
        .when(metric.is_in(DURATION_METRICS) & kind.is_null())
        .then(pl.lit("unit_not_stated"))
        .when(~pl.col("value").is_finite())
        .then(pl.lit("non_finite_value"))
        .when(metric.is_in(POSITIVE_METRICS) & (pl.col("value") <= 0))
        .then(pl.lit("non_positive_value"))
        .when(pl.col("value").is_null())
        .then(pl.lit("unparseable_value"))
        .alias("problem")
    )


def shifted_precision() -> pl.Expr:
    """A result cell holding "16.32": the row's cells look shifted (a precision label)."""
    return pl.col("raw_value").str.contains(_SHIFTED_PRECISION)


def unit_of_text(text: str) -> tuple:
    """The fields of the unit a text is, as UNIT_FIELDS orders them."""
    return unit_fields(unit_named(text))
