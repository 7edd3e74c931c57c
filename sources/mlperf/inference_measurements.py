"""Official MLPerf Inference results as measurements: the frame and labels the vendor pages yield.

One measurement per valid result. Throughput results (samples/s, queries/s, tokens/s) are
metric `throughput` in items/s with the item kind the unit counts, as the normalizer stores
"tokens/s" read on a vendor page; latency results (SingleStream p90, MultiStream p99) are
metric `latency` in ms with their statistic. The scenario is the row's setting
("Scenario=Server"), the benchmark its label. The model's canonical name comes from
schemas/vocab/models.csv, as for vendor pages, else stays as the results name it.
"""

from __future__ import annotations

import polars as pl

from perfledger.schemas.identities import with_identities
from perfledger.schemas.labels import fold_key, model_name, split_sdk
from perfledger.schemas.measurements import MEASUREMENT_DTYPES, with_measurement_columns
from perfledger.schemas.normalize import DocumentContext, identity_parts
from perfledger.schemas.platform_mentions import read_platform
from perfledger.sources.mlperf.inference import InferenceResults

PARSER_VERSION = "mlperf_inference_results/1"
SYSTEM_KEY = ["mlperf_round", "division", "submitter", "system_id"]
# unit of the result -> (metric, canonical unit, item kind, statistic)
UNIT_MEASURES = {
    "tokens/s": ("throughput", "items/s", "tokens", None),
    "samples/s": ("throughput", "items/s", "samples", None),
    "queries/s": ("throughput", "items/s", "queries", None),
}
LATENCY_STATISTICS = {"latency_p90": "p90", "latency_p99": "p99"}


def measurements_from_inference(
    results: InferenceResults, context: DocumentContext
) -> pl.DataFrame:
    """One measurement per valid official result, in MeasurementSchema's shape.

    The value is the official result in the canonical unit (items/s, or ms for latencies);
    raw_value and published_number are the number LoadGen logged (latencies in ns). A CPU-only
    system (no accelerator) keeps its system name as platform, its processor as accelerator
    and its sockets as count (null where its description names no processor the chip
    vocabulary knows). The results repository carries no MLCommons result id, so mlperf_id
    stays null.
    """
    valid = results.results.filter(pl.col("valid") & pl.col("value").is_not_null())
    systems = _compute_units(results.systems).select(
        "mlperf_round",
        "division",
        "submitter",
        "system_id",
        "system_name",
        "vendor",
        "system",
        "accelerator",
        "accelerator_count",
        "framework",
        "framework_canonical",
        "sdk_version",
    )
    frame = valid.join(systems, on=SYSTEM_KEY, how="inner", nulls_equal=True)
    if frame.height == 0:
        return pl.DataFrame(schema=MEASUREMENT_DTYPES)
    frame = _add_positions(frame.with_columns(model_canonical=_canonical_models(frame)))
    sdk, prerelease = split_sdk(pl.col("sdk_version"))
    has_accelerator = pl.col("accelerator_count") > 0
    count = pl.when(has_accelerator).then(pl.col("accelerator_count"))
    latency = pl.col("unit") == "ms"
    throughput = pl.col("unit").is_in(list(UNIT_MEASURES))
    published = pl.when(latency).then(pl.col("value") * 1_000_000).otherwise(pl.col("value"))
    frame = frame.with_columns(
        source_id=pl.lit(context.source_id),
        source_url=pl.lit(context.source_url),
        document_sha256=pl.lit(context.document_sha256),
        document_title=pl.lit(context.document_title, dtype=pl.String),
        captured_at=pl.lit(context.captured_at),
        parser_version=pl.lit(context.parser_version),
        table_title=pl.format(
            "MLPerf Inference v{} official results, {} division",
            pl.col("mlperf_round").fill_null("?"),
            pl.col("division").fill_null("unknown"),
        ),
        column_index=pl.lit(0, dtype=pl.Int32),
        column_name=pl.format("{} ({})", pl.col("scenario"), pl.col("unit")),
        # A result has no source line; its row stands in, as the schema needs a position.
        line_number=pl.col("row_number"),
        variant=pl.lit(None, dtype=pl.String),
        platform=pl.coalesce("system_name", "system_id"),
        system=pl.coalesce("system", "system_name", "system_id"),
        accelerator=pl.when(has_accelerator).then(pl.col("accelerator")),
        accelerator_count=count,
        sdk=sdk,
        dataset=pl.lit(None, dtype=pl.String),
        batch_size=pl.lit(None, dtype=pl.String),
        precision=pl.lit(None, dtype=pl.String),
        sdk_prerelease=pl.when(sdk.is_not_null()).then(prerelease),
        quality_target=pl.when(pl.col("accuracy_target").is_not_null()).then(
            pl.format("{}%", pl.col("accuracy_target"))
        ),
        mlperf_id=pl.lit(None, dtype=pl.String),
        workload=pl.lit("inference"),
        phase=pl.lit(None, dtype=pl.String),
        metric=pl.when(latency).then(pl.lit("latency")).otherwise(pl.lit("throughput")),
        unit=pl.when(latency).then(pl.lit("ms")).otherwise(pl.lit("items/s")),
        item_kind=pl.col("unit").replace_strict(
            {unit: kind for unit, (_, _, kind, _) in UNIT_MEASURES.items()}, default=None
        ),
        value_per_accelerator=pl.when(throughput & has_accelerator).then(
            pl.col("value") / pl.col("accelerator_count")
        ),
        published_number=published,
        unit_published=pl.when(latency).then(pl.lit("ns")).otherwise(pl.col("unit")),
        approximate=pl.lit(False),
        raw_value=published.map_elements(_format_number, return_dtype=pl.String),
        row_label=pl.col("benchmark"),
        statistic=pl.col("metric").replace_strict(LATENCY_STATISTICS, default=None),
        settings=pl.format("Scenario={}", pl.col("scenario")),
        label_sources=pl.lit("mlperf_inference_results"),
    )
    frame = with_measurement_columns(frame.with_columns(row_identity=_build_identity()))
    return with_measurement_columns(with_identities(frame))


def _compute_units(systems: pl.DataFrame) -> pl.DataFrame:
    """Each system's accelerator and count as measurements name them; a CPU-only system
    (no accelerator) is compared by its processor and socket count ("INTEL(R) XEON(R)
    6980P", 2 per node: 2x Xeon 6980P), as vendor pages name CPU systems."""
    cpu_only = systems.filter(~(pl.col("accelerator_count") > 0))
    if cpu_only.height == 0:
        return systems
    chips = {
        name: read_platform(name)
        for name in cpu_only.get_column("host_processor_model_name").drop_nulls().unique().to_list()
    }
    named = {
        name: (mention.accelerator, mention.vendor)
        for name, mention in chips.items()
        if mention is not None and mention.accelerator is not None
    }
    if not named:
        return systems
    processor = pl.col("host_processor_model_name")
    chip = processor.replace_strict(
        list(named), [chip for chip, _ in named.values()], default=None, return_dtype=pl.String
    )
    maker = processor.replace_strict(
        list(named), [vendor for _, vendor in named.values()], default=None, return_dtype=pl.String
    )
    sockets = pl.col("host_processors_per_node") * pl.col("number_of_nodes").fill_null(1)
    is_cpu = ~(pl.col("accelerator_count") > 0) & chip.is_not_null()
    return systems.with_columns(
        accelerator=pl.when(is_cpu).then(chip).otherwise(pl.col("accelerator")),
        vendor=pl.when(is_cpu).then(maker).otherwise(pl.col("vendor")),
        accelerator_count=pl.when(is_cpu).then(sockets).otherwise(pl.col("accelerator_count")),
    )


def _canonical_models(frame: pl.DataFrame) -> pl.Series:
    """The model's canonical name as models.csv gives it for vendor pages ("resnet50" ->
    ResNet-50); a model it does not know keeps the results' name ("llama2-70b")."""
    names = {
        label: model_name(label)[0] for label in frame["model"].unique().drop_nulls().to_list()
    }
    return frame["model"].replace_strict(names, default=None, return_dtype=pl.String)


def _add_positions(frame: pl.DataFrame) -> pl.DataFrame:
    """One table per round and division, rows ordered like the MLCommons results table."""
    frame = frame.sort(
        "mlperf_round",
        "division",
        "model_canonical",
        "benchmark",
        "scenario",
        "accelerator_count",
        "system_name",
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
    """The vendor pages' identity parts, plus the submission and its result: official rows
    never collide, neither with one another (a benchmark's 99 and 99.9 variants, its
    scenarios) nor with a vendor page's."""
    submission = pl.format(
        "submission=inference/{}/{}/{}/{}/{}",
        pl.col("mlperf_round").fill_null(""),
        fold_key(pl.col("submitter")),
        fold_key(pl.col("system_id")),
        pl.col("benchmark"),
        pl.col("scenario").fill_null(""),
    )
    return pl.concat_str(
        [
            *identity_parts(),
            pl.format("metric={}", pl.col("metric")),
            pl.format("statistic={}", pl.col("statistic").fill_null("")),
            submission,
        ],
        separator="|",
    )


def _format_number(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else repr(float(number))
