"""A result column's plan as a row of the frame the values of a chunk are read with: its
metric, its header's platform, precision and unit, and what the table's context and subject
give it (schemas/chunk_reading.py joins the frame to the cells of the column)."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.chip_vocabulary import KIND_RANK
from perfledger.schemas.column_types import ColumnTypes
from perfledger.schemas.context_labels import device_class
from perfledger.schemas.context_parts import precision_of_part
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.header_remainder import header_remainder
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.labels import (
    bracketed_framework,
    header_batch_shorthand,
    header_framework,
    names_a_framework,
    stated_batch,
)
from perfledger.schemas.platform_mentions import PlatformMention
from perfledger.schemas.row_labels import (
    CONTRIBUTION_SCHEMA,
    PLATFORM_FIELDS,
    UNIT_FIELDS,
    batch_number,
    contribution,
    model_of,
    platform_fields,
    precision_fields,
    unit_fields,
)
from perfledger.schemas.table_plans import ColumnPlan, TablePlan, compared_runs
from perfledger.schemas.table_subject import TableSubject
from perfledger.schemas.thread_counts import threads_setting, threads_stated
from perfledger.schemas.unit_choice import KINDS_FROM_AROUND as _KINDS

# The fields of a result column's plan, as a frame.
RESULT_COLUMN_SCHEMA: ColumnTypes = {
    "document": pl.Int32,
    "table_index": pl.Int32,
    "vcol": pl.Int32,
    "metric": pl.String,
    "metric_source": pl.String,
    "x_metric": pl.String,
    "x_metric_source": pl.String,
    "decimal": pl.String,
    "annotation": pl.Int32,
    "annotation_role": pl.String,
    "statistic": pl.String,
    **{f"h_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "h_count": pl.Int64,
    "h_count_chip": pl.String,
    "h_count_stated": pl.Boolean,
    "h_precision": pl.String,
    "h_act": pl.String,
    "h_wt": pl.String,
    **{f"h_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
    "k_model": pl.String,
    "k_model_canonical": pl.String,
    "k_model_item": pl.String,
    **{f"x_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "x_platform_source": pl.String,
    "x_count": pl.Int64,
    "x_count_chip": pl.String,
    "x_count_source": pl.String,
    "x_precision": pl.String,
    "x_act": pl.String,
    "x_wt": pl.String,
    "x_precision_source": pl.String,
    "x_workload": pl.String,
    "x_workload_source": pl.String,
    **{f"x_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
    "x_unit_source": pl.String,
    "header_states_chip": pl.Boolean,
    "header_states_count": pl.Boolean,
    "header_states_precision": pl.Boolean,
    "table_workload": pl.String,
    "h_share": pl.Boolean,
    "h_results": pl.Boolean,
    "h_change": pl.Boolean,
    "h_serving": pl.String,
    "k_model_source": pl.String,
    "k_family": pl.String,
    "k_workload": pl.String,
    "k_workload_source": pl.String,
    "hs_batch": pl.String,
    "hs_batch_number": pl.Float64,
    "hs_settings": pl.String,
    "h_variant": pl.String,
    # The context's chip of each class of device, for rows naming only the class ("GPU")
    **{f"xc_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "xc_source": pl.String,
    **{f"xa_{name}": dtype for name, dtype in PLATFORM_FIELDS.items()},
    "xa_source": pl.String,
    "x_framework": pl.String,  # the one a caption or heading names ("0.5B (vLLM)")
    "h_spread_named": pl.Boolean,  # "(average, std)": a value's bracketed number is its spread
    "x_dataset": pl.String,  # the one a heading or caption names ("Cityscapes")
    "x_dataset_source": pl.String,
}


_TIMED_METRICS = frozenset({"latency", "throughput"})


def _metric_of(column: ColumnPlan, context_metric) -> str | None:
    found = column.metric or context_metric
    return found.value if found is not None else None


def result_records(
    document: int,
    table: int,
    plan: TablePlan,
    subject: TableSubject,
    mappings: LabelMappings,
) -> list[tuple]:
    """The fields of RESULT_COLUMN_SCHEMA, in order, of each result column of a table, in
    the table's order; what the table's context and subject give every column is read
    once."""
    results = plan.results
    if not results:
        return []
    context = plan.context
    context_metric = context.get("metric")
    compared = compared_runs(plan.columns, context_metric)
    # The table's model: its top-left header's, else the one its context names.
    table_model = plan.corner_model or subject.model
    model_source = "column" if plan.corner_model else subject.model_source
    model_canonical, model_item = model_of(table_model, mappings)
    x_platform, x_count = _found(context, "platform"), _found(context, "count")
    platform_source, count_source = _source(context, "platform"), _source(context, "count")
    x_precision, x_unit = _found(context, "precision"), _found(context, "unit")
    precision_source = _source(context, "precision")
    if plan.corner_precision is not None:  # "q4k" heading the table's rows: nearer than prose
        x_precision, precision_source = plan.corner_precision, "column"
    parts = context.get("precision_of_part")
    counts = context.get("count_of_chip")
    classes = [
        device_class(column.reading.text) if column.reading.platform is None else None
        for column in results
    ]
    # Where some columns name the device class they ran on, a column naming none (an
    # accuracy beside "GPU 耗时" and "CPU 耗时") is tied to no device of the context. A
    # figure of a device's resources ("GPU Memory (MB)" beside "CPU Memory (MB)") names the
    # part it describes, not a device a run was made on: it splits no table by device.
    classes_named = (
        len(
            {
                named
                for named, column in zip(classes, results, strict=True)
                if named is not None and not _describes_resource(column)
            }
        )
        > 1
    )
    of_kinds = context.get("unit_of_kind")
    table_fields = (
        model_canonical,
        model_item,
        _found(context, "workload"),
        _source(context, "workload"),
        plan.header_states_chip and _header_states(results, "accelerator"),
        plan.header_states_count and _header_states(results, "count"),
        plan.header_states_precision,
        plan.table_workload,
    )
    statistic = _found(context, "statistic")
    if statistic is not None and any(column.reading.statistic == statistic for column in results):
        # "the lowest median for milliseconds per token" over "Latency (ms/token) median"
        # beside "Throughput (tokens/second)": the context's statistic is that column's own
        statistic = None
    of_classes = (
        *platform_fields(_found(context, "platform:cpu")),
        _source(context, "platform:cpu"),
        *platform_fields(_found(context, "platform:accelerator")),
        _source(context, "platform:accelerator"),
    )
    records = []
    for column, named_class in zip(results, classes, strict=True):
        reading = column.reading
        header = reading.platform
        column_platform, column_count = x_platform, x_count
        column_platform_source, column_count_source = platform_source, count_source
        of_class = context.get(f"platform:{named_class}") if named_class else None
        if of_class is not None:  # "GPU 耗时(ms)": the context's GPU, not its CPU
            column_platform, column_platform_source = of_class.value, of_class.source
            column_count, column_count_source = (
                (of_class.value, of_class.source) if of_class.value.count_stated else (None, None)
            )
        elif (named_class is None and classes_named) or (
            # "CPU + MKLDNN" times beside a note naming only a T4: the CPU they ran on goes
            # unnamed ("Max. CPU memory" of a run on the T4 is the T4's run's)
            named_class == "cpu"
            and x_platform is not None
            and x_platform.rank == KIND_RANK["accelerator"]
            and _metric_of(column, context_metric) in _TIMED_METRICS
        ):
            column_platform = column_count = column_platform_source = column_count_source = None
        if (
            counts is not None
            and header is not None
            and header.count is None
            and header.accelerator in counts.value
            and (column_count is None or column_count.accelerator != header.accelerator)
        ):
            # "MFU (H100 80G)" beside "MFU (A100 80G)" under "on 128 A100 GPUs as well as 96
            # H100 GPUs": the count the context states for the column's own chip
            column_count, column_count_source = counts.value[header.accelerator], counts.source
        column_precision, column_precision_source = x_precision, precision_source
        if parts is not None:
            of_part = precision_of_part(parts.value, column.group)
            if of_part is not None:  # "FP8 dispatching and BF16 combining": the part's
                column_precision, column_precision_source = of_part, parts.source
        records.append(
            (
                document,
                table,
                column.column,
                column.metric.value if column.metric else None,
                column.metric.source if column.metric else None,
                # "Latency/throughput" over one number names metrics: none the context names
                # is taken for it ("top-1 accuracy" in a paragraph)
                *(
                    (context_metric.value, context_metric.source)
                    if context_metric and not reading.alternatives and column.column not in compared
                    else (None, None)
                ),
                column.decimal,
                column.annotation,
                column.annotation_role,
                reading.statistic or statistic,
                *platform_fields(header),
                *_count(header),
                (header is not None and header.count_stated) or None,
                *precision_fields(reading.precision),
                *unit_fields(reading.unit),
                table_model,
                *table_fields[:2],
                *platform_fields(column_platform),
                column_platform_source,
                *_count(column_count),
                column_count_source,
                *precision_fields(column_precision),
                column_precision_source,
                *table_fields[2:4],
                *unit_fields(_unit_of(x_unit, of_kinds, _metric_of(column, context_metric))),
                _source(context, "unit"),
                *table_fields[4:],
                reading.share,
                reading.kind == "result",
                reading.change,
                reading.serving,
                model_source,
                subject.family,
                subject.workload,
                subject.workload_source,
                *_header_setting(
                    column,
                    plan,
                    mappings,
                    # the context's CPU threads are those of the times and rates measured
                    # on a CPU, or on a device no column names ("GPU 耗时" ran no threads)
                    named_class != "accelerator"
                    and (header is None or header.rank != KIND_RANK["accelerator"])
                    and _metric_of(column, context_metric) in _TIMED_METRICS,
                ),
                # A turned table's metric row names what it measured beside the metric
                # ("Prefill token/s", "decode token/s"); a header keeps those words in the
                # value's column name.
                header_remainder(reading) if plan.shape.turned else None,
                *of_classes,
                # "PyTorch (ms)" beside "TensorRT (ms)" under a heading "TensorRT": its own;
                # "RTX4090 (TensorRT)": the chip's runs used the framework it names
                (
                    # "T4 TensorRT FP16(FPS)": the chip's runs used it too
                    (bracketed_framework(reading.text) or header_framework(reading.text))
                    if reading.platform is not None
                    else header_framework(reading.text)
                )
                if names_a_framework(reading.text)
                else _found(context, "framework"),
                reading.spread_named,
                _found(context, "dataset"),
                _source(context, "dataset"),
            )
        )
    return records


_SAID = {name: index for index, name in enumerate(CONTRIBUTION_SCHEMA)}


def _header_setting(
    column: ColumnPlan, plan: TablePlan, mappings: LabelMappings, context_threads: bool
) -> tuple:
    """(batch size, its number, settings) a column headed by a value of the table's corner
    setting states ("8" under "Batch size"), read as a row's cell of that setting would be;
    else the batch size its header states among other words ("Gaudi2 (BS=32)"), else the
    one the table's caption or heading states; and the CPU threads its header states, else
    (`context_threads`) those the text above or below the table states."""
    corner = plan.corner_setting
    if corner is None or not column.reading.is_number:
        # "Gaudi2 (BS=32)", else the caption's or heading's "batch size = 128"
        batch = (
            stated_batch(column.reading.text)
            or header_batch_shorthand(column.reading.text)
            or _found(plan.context, "batch")
        )
        # "cpu time(thread 1,fp16, ms)", else "测试统一使用 8 线程" above the table
        threads = threads_setting(
            threads_stated(column.reading.text)
            or (_found(plan.context, "threads") if context_threads else None)
        )
        return (batch, batch_number(batch) if batch is not None else None, threads)
    said = contribution(corner, column.reading.text, mappings)
    return (
        said[_SAID["batch_size"]],
        said[_SAID["batch_size_number"]],
        said[_SAID["settings"]],
    )


def _header_states(results, field: str) -> bool:
    """Whether a result column's header names the chip (the count) its values ran on. A
    figure of a device's resources whose device word only the page's legend defines ("GPU
    util" under "- GPU: 1x NVIDIA B200") describes the device the context states: no chip
    or count of its own."""
    return any(
        column.reading.platform is not None
        and getattr(column.reading.platform, field) is not None
        and not (_describes_resource(column) and read_header(column.reading.text).platform is None)
        for column in results
    )


def _describes_resource(column: ColumnPlan) -> bool:
    """Whether a result column gives a figure of the hardware (its memory, utilization or
    power: the metric "other") rather than of the run (a time, a rate, a score)."""
    return column.metric is not None and column.metric.value == "other"


def _found(context: dict, name: str):
    found = context.get(name)
    return found.value if found is not None else None


def _unit_of(unit, of_kinds, metric: str | None):
    """The context's unit for a column measuring `metric`: where the text stating it states
    units of several kinds ("median µs ...; tok/s"), the one of the metric's kind."""
    kinds = _KINDS.get(metric or "", ())
    if of_kinds is None or (unit is not None and unit.kind in kinds):
        return unit
    return next((of_kinds.value[kind] for kind in kinds if kind in of_kinds.value), unit)


def _source(context: dict, name: str) -> str | None:
    found = context.get(name)
    return found.source if found is not None else None


def _count(mention: PlatformMention | None) -> tuple:
    if mention is None or mention.count is None:
        return (None, None)
    return (mention.count, mention.accelerator)
