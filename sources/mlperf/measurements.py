"""Official MLPerf scores as measurements: the frame and labels the vendor pages yield."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.identities import with_identities
from perfledger.schemas.labels import fold_key, split_sdk
from perfledger.schemas.measurements import MEASUREMENT_DTYPES, with_measurement_columns
from perfledger.schemas.normalize import DocumentContext, identity_parts
from perfledger.sources.mlperf.tree import MlperfResults

PARSER_VERSION = "mlperf_results/1"
COLUMN_NAME = "Time to Train (mins)"
SYSTEM_KEY = ["mlperf_round", "submitter", "system_id"]
SCORE_KEY = [*SYSTEM_KEY, "benchmark"]


def measurements_from_scores(results: MlperfResults, context: DocumentContext) -> pl.DataFrame:
    """One time_to_train measurement per valid official score, in MeasurementSchema's shape.

    The value is the score in seconds; raw_value is the score in minutes as text. A score
    whose system has no description, or no accelerator, cannot name a platform and is left
    out; the tree read has already reported both as problems. The results repository
    carries no MLCommons result id ("2.0-2047"), so mlperf_id stays null: official and
    vendor rows meet on round, system, model and framework instead.
    """
    scores = results.scores.filter(pl.col("valid") & pl.col("score_minutes").is_not_null())
    frame = (
        scores.join(results.systems.drop("division"), on=SYSTEM_KEY, how="inner")
        .join(_agreed_batch_sizes(results.runs), on=SCORE_KEY, how="left")
        .join(_seconds_of_used_runs(results.runs), on=SCORE_KEY, how="left")
        .filter(pl.col("system").is_not_null() & (pl.col("accelerator_count") > 0))
    )
    if frame.height == 0:
        return pl.DataFrame(schema=MEASUREMENT_DTYPES)
    frame = _add_positions(frame)
    sdk, prerelease = split_sdk(pl.col("sdk_version"))
    minutes = pl.col("score_minutes")
    frame = frame.with_columns(
        source_id=pl.lit(context.source_id),
        source_url=pl.lit(context.source_url),
        document_sha256=pl.lit(context.document_sha256),
        document_title=pl.lit(context.document_title, dtype=pl.String),
        captured_at=pl.lit(context.captured_at),
        parser_version=pl.lit(context.parser_version),
        table_title=pl.format(
            "MLPerf Training v{} official results, {} division",
            pl.col("mlperf_round").fill_null("?"),
            pl.col("division").fill_null("unknown"),
        ),
        column_index=pl.lit(0, dtype=pl.Int32),
        column_name=pl.lit(COLUMN_NAME),
        # A score has no source line; its row stands in, as the schema needs a position.
        line_number=pl.col("row_number"),
        model=pl.col("benchmark"),
        variant=pl.lit(None, dtype=pl.String),
        platform=pl.coalesce("system_name", "system_id"),
        sdk=sdk,
        sdk_prerelease=pl.when(sdk.is_not_null()).then(prerelease),
        dataset=pl.lit(None, dtype=pl.String),
        batch_size=pl.col("global_batch_size").cast(pl.String),
        batch_size_number=pl.col("global_batch_size").cast(pl.Float64),
        precision=pl.lit(None, dtype=pl.String),
        activation_dtype=pl.lit(None, dtype=pl.String),
        weight_dtype=pl.lit(None, dtype=pl.String),
        quality_target=pl.lit(None, dtype=pl.String),
        mlperf_id=pl.lit(None, dtype=pl.String),
        workload=pl.lit("training"),
        phase=pl.lit(None, dtype=pl.String),
        metric=pl.lit("time_to_train"),
        # The seconds from the runs' milliseconds in one division: minutes x 60 would add
        # binary noise (160.32500000000002 for 160.325 s).
        value=pl.coalesce(
            pl.col("_seconds") * pl.col("scaling_factor").fill_null(1.0), minutes * 60.0
        ),
        unit=pl.lit("s"),
        item_kind=pl.lit(None, dtype=pl.String),
        value_per_accelerator=pl.lit(None, dtype=pl.Float64),
        published_number=minutes.round(6),
        unit_published=pl.lit("min"),
        approximate=pl.lit(False),
        raw_value=minutes.map_elements(_format_minutes, return_dtype=pl.String),
    )
    frame = with_measurement_columns(frame.with_columns(row_identity=_build_identity()))
    return with_measurement_columns(with_identities(frame))


def _agreed_batch_sizes(runs: pl.DataFrame) -> pl.DataFrame:
    """The global batch size of a score's runs when they all agree, else null."""
    return runs.group_by(SCORE_KEY).agg(
        pl.when(pl.col("global_batch_size").drop_nulls().n_unique() == 1)
        .then(pl.col("global_batch_size").drop_nulls().first())
        .alias("global_batch_size")
    )


def _seconds_of_used_runs(runs: pl.DataFrame) -> pl.DataFrame:
    """The mean time of the runs a score uses, in seconds: their milliseconds summed and
    divided once (score_minutes is the summarizer's, ms / 60 / 1000 per run)."""
    return (
        runs.filter(pl.col("score_role") == "used")
        .group_by(SCORE_KEY)
        .agg(_seconds=pl.col("duration_ms").sum() / (pl.len() * 1000.0))
    )


def _add_positions(frame: pl.DataFrame) -> pl.DataFrame:
    """One table per round and division, rows ordered like the MLCommons results table."""
    frame = frame.sort(
        "mlperf_round",
        "division",
        "model_canonical",
        "accelerator_count",
        "system",
        "framework_canonical",
        "submitter",
        "system_id",
        nulls_last=True,
    )
    tables = frame.select("mlperf_round", "division").unique(maintain_order=True)
    tables = tables.with_row_index("table_index").with_columns(pl.col("table_index").cast(pl.Int32))
    frame = frame.join(
        tables, on=["mlperf_round", "division"], how="left", nulls_equal=True, maintain_order="left"
    )
    return frame.with_columns(
        row_number=(pl.int_range(pl.len()).over("table_index") + 1).cast(pl.Int32)
    )


def _build_identity() -> pl.Expr:
    """The vendor pages' identity parts, plus the submission: official rows never collide."""
    submission = pl.format(
        "submission={}/{}/{}",
        pl.col("mlperf_round").fill_null(""),
        fold_key(pl.col("submitter")),
        fold_key(pl.col("system_id")),
    )
    return pl.concat_str(
        [*identity_parts(), pl.lit("metric=time_to_train"), submission], separator="|"
    )


def _format_minutes(minutes: float) -> str:
    return f"{minutes:.6f}"
