"""Where a value's unit comes from: its cell, a word after its number, its row, its column's
header or the table's context (a caption, a heading, the paragraph before it), the first that
states one and fits the value's metric; and which unit that is, as the value's `u_*` columns."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import names_quality_change
from perfledger.schemas.row_labels import UNIT_FIELDS
from perfledger.schemas.vocabulary import word_alternatives

# The unit kinds a metric may take from its row or its page (its cell and column header
# state theirs outright).
KINDS_FROM_AROUND = {
    "throughput": ["rate"],
    "latency": ["duration"],
    "time_to_train": ["duration"],
    "time_to_result": ["duration"],
    "speedup": ["ratio", "percent"],
    "scaling_efficiency": ["ratio", "percent"],
    "accuracy": ["percent"],
    "other": ["other", "percent", "rate"],
}


def quality_change_columns(frame: pl.DataFrame) -> pl.Expr:
    """`_quality_change`: whether a value's column names what a model's quality loses
    ("Accuracy loss")."""
    return _columns_named(frame, names_quality_change, "_quality_change")


def setup_time_columns(frame: pl.DataFrame) -> pl.Expr:
    """`_setup_time`: whether a value's column names the time a run's setup takes ("Online
    NPU Init", "Load time"): a figure other than the metrics, whose unit may be the time the
    page states for its timings ("all timing values are expressed in milliseconds")."""
    return _columns_named(frame, _names_setup_time, "_setup_time")


def _names_setup_time(header: str) -> bool:
    return word_alternatives("setup_times.csv").search(fold_words(header)) is not None


def _columns_named(frame: pl.DataFrame, names: Callable[[str], bool], alias: str) -> pl.Expr:
    """Whether each value's column header is one `names` holds true, read per distinct
    header."""
    if "column_name" not in frame.columns:
        return pl.lit(False).alias(alias)
    headers = frame.get_column("column_name").unique().drop_nulls().to_list()
    named = [header for header in headers if names(header)]
    return pl.col("column_name").is_in(named).fill_null(False).alias(alias)


def _allowed(kind: pl.Expr) -> pl.Expr:
    """Whether a unit of `kind` stated around a value (its row, its page) fits its metric."""
    allowed = pl.lit(False)
    for metric, kinds in KINDS_FROM_AROUND.items():
        allowed = pl.when(pl.col("metric") == metric).then(kind.is_in(kinds)).otherwise(allowed)
    setup_time = (pl.col("metric") == "other") & (kind == "duration") & pl.col("_setup_time")
    return (allowed | setup_time).fill_null(False)


def _abbreviates_header_unit() -> pl.Expr:
    """ "97T" under "TFLOPS": a letter or two after the number that start the unit its
    column's header states abbreviate that unit."""
    rest = pl.col("rest").str.strip_chars().str.to_lowercase()
    return (
        pl.col("h_alias").is_not_null()
        & rest.str.contains(r"^[a-z]{1,2}$")
        & (pl.col("h_alias") != rest)
        & pl.col("h_alias").str.starts_with(rest)
    ).fill_null(False)


def unit_choice() -> pl.Expr:
    """Where a value's unit comes from: c(ell), rest (a word after the number no unit of the
    vocabulary), r(ow), h(eader) or x (the table's context)."""
    return (
        pl.when(pl.col("c_alias").is_not_null())
        .then(pl.lit("c"))
        .when(pl.col("rest").is_not_null() & ~_abbreviates_header_unit())
        .then(pl.lit("rest"))
        .when(pl.col("r_alias").is_not_null() & _allowed(pl.col("r_kind")))
        .then(pl.lit("r"))
        .when(pl.col("h_alias").is_not_null())
        .then(pl.lit("h"))
        # A quality's loss ("Accuracy loss") is in the quality's own unit: a rate or a time
        # the page states for its other columns ("FPS") is none of its.
        .when(
            pl.col("x_alias").is_not_null()
            & _allowed(pl.col("x_kind"))
            & ~(pl.col("_quality_change") & (pl.col("x_kind") != "percent"))
        )
        .then(pl.lit("x"))
        .alias("_from")
    )


def chosen_unit() -> list[pl.Expr]:
    choice = pl.col("_from")

    def chosen(name: str) -> pl.Expr:
        picked = pl.lit(None, dtype=UNIT_FIELDS[name])
        for prefix in ("c", "r", "h", "x"):
            picked = pl.when(choice == prefix).then(pl.col(f"{prefix}_{name}")).otherwise(picked)
        return picked.alias(f"u_{name}")

    published = (
        pl.when(choice == "c")
        .then(pl.when(~pl.col("spelled")).then(pl.col("c_alias")))
        .when(choice == "rest")
        .then(pl.col("rest").str.to_lowercase())
        .when(choice == "r")
        .then(pl.col("r_alias"))
        .when(choice == "h")
        .then(pl.col("h_alias"))
        .when(choice == "x")
        .then(pl.col("x_alias"))
    )
    return [
        *(chosen(name) for name in UNIT_FIELDS),
        pl.when(pl.col("metric") != "eval_metric").then(published).alias("unit_published"),
        pl.when(choice.is_in(["c", "rest"]))
        .then(pl.lit("cell"))
        .when(choice == "r")
        .then(pl.lit("row"))
        .when(choice == "h")
        .then(pl.lit("column"))
        .when(choice == "x")
        .then(pl.col("x_unit_source"))
        .alias("unit_source"),
    ]
