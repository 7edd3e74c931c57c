"""What each column of a table is, decided once per table from its header and its cells:
a result (with its metric), a setting such as batch size or GPU count, a label such as the
model or platform, a unit or metric name for the result beside it, or a reference figure (a
target, a test statistic) that is no measurement. A table whose metrics stand in its first
column ("Throughput (sequences/sec) | 3265.35 | ...") is read turned around. The plan also
carries what the table's context says of its values (schemas/context_labels.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from perfledger.schemas.column_metrics import (
    BRACKETED_ASIDE,
    MEASURED_UNIT_KINDS,
    names_a_side,
    names_its_own_quantity,
    speed_metric,
    takes_the_side,
)
from perfledger.schemas.column_plans import ColumnPlan, ColumnStats
from perfledger.schemas.context_labels import Found, context_labels
from perfledger.schemas.corner_headers import (
    corner_framework,
    corner_model,
    corner_precision,
    corner_setting_of,
)
from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import (
    HeaderReading,
    names_quality_change,
    read_header,
    role_matches,
)
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.labels import known_model, names_a_run
from perfledger.schemas.legends import defines_a_sized_model, glossary_entry, legend_platform
from perfledger.schemas.name_headers import lists_no_results, names_among_names, precision_columns
from perfledger.schemas.named_cells import names_metrics
from perfledger.schemas.precisions import Precision, read_precision_label
from perfledger.schemas.scored_datasets import names_scored_dataset
from perfledger.schemas.spec_sheets import hardware_specifications
from perfledger.schemas.table_chips import nearby_words, with_table_chips
from perfledger.schemas.table_context import TableContext, with_note
from perfledger.schemas.units import metric_of_unit, unit_named
from perfledger.schemas.unnamed_columns import with_sibling_scores, with_stated_metric

# Metrics that compare the other columns' values rather than measure ("Improvement", "delta").
COMPARISONS = ("speedup", "scaling_efficiency", "other")


@dataclass(frozen=True)
class TableShape:
    document: int
    table_index: int
    title: str | None  # the heading its parser gave it
    note: str | None  # its footnote
    headers: tuple[str, ...]  # the header cell of each column, in the orientation read
    stats: tuple[ColumnStats, ...]
    turned: bool = False  # read turned around: its "headers" are its first column's cells


@dataclass(frozen=True)
class TablePlan:
    shape: TableShape
    columns: tuple[ColumnPlan, ...]
    context: dict[str, Found]
    corner_model: str | None  # a model named by the top-left header
    header_states_chip: bool  # a result column's header names a chip
    header_states_count: bool
    header_states_precision: bool
    table_workload: str | None  # what the table's metrics imply: training or inference
    named_rows: dict[str, str] = field(default_factory=dict)  # row names the page defines
    # The setting the top-left header names when the result columns are headed by its
    # values ("Batch size | 1 | 8 | 32"): each column's number is that setting's value.
    corner_setting: HeaderReading | None = None
    # The precision the top-left header is, and nothing else ("q4k" over rows of phases
    # and columns of lengths): every value of the table ran in it
    corner_precision: Precision | None = None

    @property
    def note(self) -> str | None:
        return self.shape.note

    @cached_property
    def results(self) -> list[ColumnPlan]:
        return [column for column in self.columns if column.role == "result"]


def header_reading(text: str, mappings: LabelMappings) -> HeaderReading:
    """How a header reads, after the user's mapping of it if any."""
    reading = read_header(text)
    mapped = mappings.get("column", text)
    if not mapped:
        return reading
    precision = read_precision_label(mapped["precision"]) if "precision" in mapped else None
    return replace(
        reading,
        kind=mapped.get("kind", "metric" if "role" in mapped else reading.kind),
        role=mapped.get("role", reading.role),
        unit=unit_named(mapped["unit"]) if "unit" in mapped else reading.unit,
        statistic=mapped.get("statistic", reading.statistic),
        precision=precision or reading.precision,
        parts=(),
    )


def transposed(
    headers: list[str], first_cells: list[str], numeric_rows: list[bool], mappings: LabelMappings
) -> bool:
    """Metrics in the first column's cells and none in the header: its rows are columns.
    A header naming only a figure derived from the others ("Improvement", "delta") leaves
    the metrics to the first column ("Mean TTFT (ms) | 131.78 | 88.94 | -32.5%").

    `numeric_rows` says of each row whether its other cells start with numbers (a third)."""
    if any(names_base_metric(header_reading(text, mappings)) for text in headers[1:]):
        return False
    # "参数 | 说明 | 默认值" (parameter, description, default): a table documenting settings,
    # whose header names no run; its "精度" row names a setting, not a metric of runs.
    if headers[1:] and all(header_reading(text, mappings).kind == "text" for text in headers[1:]):
        return False
    # A row of a figure derived from the others ("Speedup" under "FP16" and "TinyChat")
    # compares the rows above it: it makes no column of metrics.
    readings = [header_reading(text, mappings) for text in first_cells]
    metric_rows = sum(
        1
        for reading, numeric in zip(readings, numeric_rows, strict=True)
        if numeric and _names_metric_row(reading)
    )
    if metric_rows >= 1 and metric_rows * 3 >= len(first_cells):
        return True
    return _field_card(readings, numeric_rows)


def _field_card(readings: list[HeaderReading], numeric_rows: list[bool]) -> bool:
    """A card of fields, one a row ("Resource | Ascend 910", "Optimizer | Momentum", "Speed |
    13 ms/step", "Accuracy | 0.91"): most rows describe the run, but the first cells name
    fields (all but one in five: "Outputs | probability" names no role) and a row holds a
    measured figure, so each column is one run."""
    measured = sum(
        1
        for reading, numeric in zip(readings, numeric_rows, strict=True)
        if numeric
        and names_base_metric(reading)
        and (reading.kind != "metric" or not names_model_configuration(reading))
    )
    unknown = sum(1 for reading in readings if reading.kind is None)
    return measured >= 1 and unknown * 5 <= len(readings)


def _names_metric_row(reading: HeaderReading) -> bool:
    return (
        reading.kind == "metric"
        and names_base_metric(reading)
        and not names_model_configuration(reading)
    )


_JOINERS = re.compile(r"[\s\-\u2013\u2014:,/()]+")


def names_model_configuration(reading: HeaderReading) -> bool:
    """A model's name and a bare metric word ("Llama2 7B - latency", "Llama2 7B throughput"):
    the name of a configuration the model was deployed in, when the page uses it so."""
    if reading.kind != "metric" or reading.unit is not None or reading.statistic is not None:
        return False
    return _model_and_metric_word(reading.text)


@lru_cache(maxsize=16_384)
def _model_and_metric_word(text: str) -> bool:  # by the header's text: a reading hashes slowly
    folded = fold_words(text)
    rest = folded
    for start, end, rule in sorted(role_matches(folded), key=lambda found: -found[0]):
        if rule.kind == "metric":
            rest = rest[:start] + " " + rest[end:]
    rest = _JOINERS.sub(" ", rest).strip()
    return bool(rest) and rest != folded.strip() and known_model(rest)


def names_base_metric(reading: HeaderReading) -> bool:
    """A header naming a measured metric, not only a comparison of the others."""
    return reading.kind in ("metric", "statistic", "result") and not (
        reading.kind == "metric" and reading.role in COMPARISONS and reading.unit is None
    )


def plan_table(
    shape: TableShape, context: TableContext, page_decimal: str | None, mappings: LabelMappings
) -> TablePlan | None:
    """The plan of a table, or None when it holds no result column."""
    readings = [
        _with_legend(header_reading(text, mappings), context, mappings) for text in shape.headers
    ]
    # "3090Ti | 4090" under a paragraph naming GPUs: chips by the table's words
    nearby = nearby_words([*(text.text for text in context.texts), *shape.headers])
    readings = with_table_chips(readings, nearby)
    readings, names = names_among_names(readings)  # "PPL(fp16) | TRT-8(fp16)": engines
    readings = precision_columns(readings, shape.stats)  # "Precision" over 0.912: a score
    if hardware_specifications(readings, context) or lists_no_results(readings):
        return None  # what the chips are ("Spec | A100 | H100"), a cookie list: no results
    numbers = [
        reading.kind in ("metric", "statistic", "result") and stats.numeric > 0
        for reading, stats in zip(readings, shape.stats, strict=True)
    ]
    columns = [
        ColumnPlan(
            index,
            _role(index, reading, stats, any(numbers[:index])),
            reading,
            decimal=_decimal(stats, page_decimal),
        )
        for index, (reading, stats) in enumerate(zip(readings, shape.stats, strict=True))
    ]
    columns = _with_stub(columns, shape.stats)
    columns = _systems_beside_metric_names(columns, shape.stats)
    columns = _with_offered_loads(columns)
    corner_setting = corner_setting_of(
        [column.reading for column in columns], [column.role for column in columns]
    )
    if corner_setting is not None:  # its cells label the rows: "TensorRT" is no batch size
        columns[0] = replace(
            columns[0], role="label", reading=HeaderReading(corner_setting.text, "label", None)
        )
    if not any(column.role == "result" for column in columns):
        return None  # what its context says would label nothing
    found = context_labels(with_note(context, shape.note), mappings, names)
    software = corner_framework(readings)
    first = shape.stats[0]
    if software is not None and columns[0].role == "label" and 0 < first.numeric == first.filled:
        # "PyTorch | ONNX Runtime | DISC" over "56.7 | 43.1 | 32.8": the first engine's results
        columns[0] = replace(columns[0], role="result")
    elif software is not None and columns[0].role == "label":
        # "DeepStream | Precision | FPS" over "YOLO-NAS L": the rows' models, run on it
        found = {**found, "framework": Found(software, "column")}
        columns[0] = replace(columns[0], reading=HeaderReading(readings[0].text, "label", "model"))
    if _property_table(columns, shape.stats) and "metric" not in found:
        return None
    stated = _context_metric(found)
    columns = with_stated_metric(_with_metrics(columns, readings, stated), stated)
    columns = _with_groups(_with_precision_accuracies(with_sibling_scores(columns, shape.stats)))
    results = [column for column in columns if column.role == "result"]
    if not results:
        return None
    metrics = {column.metric.value for column in results if column.metric}
    return TablePlan(
        shape=shape,
        columns=tuple(columns),
        context=found,
        corner_model=corner_model(readings),
        corner_precision=corner_precision(readings),
        header_states_chip=any(
            c.reading.platform is not None and c.reading.platform.accelerator for c in results
        ),
        header_states_count=any(
            c.reading.platform is not None and c.reading.platform.count is not None for c in results
        ),
        header_states_precision=any(c.reading.precision is not None for c in results),
        table_workload=(
            "training"
            if "time_to_train" in metrics
            else "inference"
            if "latency" in metrics
            else None
        ),
        named_rows=context.named_rows,
        corner_setting=corner_setting,
    )


def _context_metric(found: dict[str, Found]) -> Found | None:
    """The metric the table's context names, else the one the unit it states measures
    ("ResNet-50 on A100 (images/s)": a throughput); a throughput stated in a unit of time
    is the time each item takes."""
    metric = found.get("metric")
    unit = found.get("unit")
    if unit is None:
        return metric
    named = metric_of_unit(unit.value)
    if metric is None:
        return Found(named, unit.source) if named is not None else None
    if metric.value == "throughput" and named == "latency" and unit.source == metric.source:
        # "the throughput in msecs": a time per token or per image, whatever it is called
        return Found(named, metric.source)
    return metric


def _with_legend(
    reading: HeaderReading, context: TableContext, mappings: LabelMappings
) -> HeaderReading:
    """A header naming no hardware but a key the page defines ("A, INT8" under "A - Intel
    Core i9-9000K") names the key's hardware; a header of no known role that is a word the
    page defines ("TP" under "TP: Tensor Parallel size") reads as its definition."""
    # A setting's word the page defines ("tp: the number of GPU cards") reads as defined too.
    generic = reading.kind is None or (reading.kind == "config" and reading.role == "setting")
    if generic and reading.text:
        defined = glossary_entry(reading.text, context.glossary)
        definition = header_reading(defined, mappings) if defined is not None else None
        if definition is not None and defines_a_sized_model(defined, definition.kind):
            return replace(reading, kind="result")  # "cifar: 32x32x3 input": its results
        # A definition that describes the word ("IC03_860: 36 MB, 860 samples", a test set)
        # says what it names, not that its column holds words, as a "Notes" header does.
        if (
            definition is not None
            and definition.kind != "text"
            and (reading.kind is None or definition.kind is not None)
        ):
            return replace(definition, text=reading.text)
    if not context.legend or (
        reading.platform is not None and reading.platform.accelerator is not None
    ):
        return reading
    platform = legend_platform(reading.text, context.legend)
    return reading if platform is None else replace(reading, platform=platform)


def _decimal(stats: ColumnStats, page_decimal: str | None) -> str | None:
    """A column whose numbers show one decimal mark reads with it; else the page's."""
    if stats.point and not stats.comma:
        return "."
    if stats.comma and not stats.point:
        return ","
    return page_decimal if not (stats.point and stats.comma) else None


def _role(index: int, reading: HeaderReading, stats: ColumnStats, results_before: bool) -> str:
    kind = reading.kind
    if reading.parts:
        return "config"
    if kind == "reference":
        return "reference" if stats.numeric else "label"
    if kind == "text":  # "Description", "Example Value", "Notes": about the row, never a value
        return "label"
    if kind in ("config", "label"):
        # A header read as a setting or a label that states what its numbers measure ("GPU 耗时
        # (ms)"), or a label over times or rates only ("2964tps" under "LLM"): results.
        timed = kind == "label" and 0 < stats.filled == stats.measured
        # "2.9GB" under "Minimum GPU Usage of Generating 2048 Tokens": the memory a run took,
        # whatever device or count the header names. A size of the model or the data ("15 GB"
        # under "Model size"), or a memory of the hardware ("16MB" under "Flash"), describes
        # what ran.
        sized = 0 < stats.filled == stats.sized and reading.role not in ("model_size", "setting")
        if index > 0 and (names_metrics(stats) or timed or sized):
            return "result"
        if (
            index > 0
            and stats.numeric
            and stats.numeric * 2 >= stats.filled
            and (
                _states_a_measurement(reading)
                or _per_device_figure(reading)
                or _states_a_setting_value(reading)
                or _fractional_device_counts(reading, stats)
                or _fractional_parallel_degrees(reading, stats)
            )
        ):
            return "result"
        return kind
    if kind in ("unit", "metric_name") and not (index > 0 and names_metrics(stats)):
        if kind == "metric_name" and index > 0 and _states_its_run(reading, stats):
            # "AM68A_8bits_metric" over "71.2" beside a "metric_name" column: the value of
            # the metric its row names, on that chip in that precision
            return "result"
        return "unit" if stats.filled and stats.units * 2 >= stats.filled else "metric_name"
    if kind in ("metric", "statistic", "result", "metric_name"):  # "Metric | latency 5.09 ms"
        # "text:292" under "性能": figures named by a part of the run, not words of the row
        named = names_metrics(stats) or (kind == "result" and stats.labelled * 2 > stats.filled)
        if stats.numeric or not stats.filled or (index > 0 and named):
            return "result"
        # A column of words: the first one, or one of words only (two at least) before any
        # result, labels the rows under a header naming the table's metric ("Loss (Model/Epoch)", "Model
        # Latency (ms)" beside a column of sequence lengths); one whose header names no
        # particular metric ("Values", "Performance") describes; else its words are values
        # that do not read, and are set apart.
        if (
            index == 0
            or (stats.numeric == 0 and stats.filled > 1 and not results_before)
            or kind == "result"
            or reading.role == "eval_metric"
        ):
            return "label"
        return "result"
    # No role: a column of numbers is a result whose metric the table states elsewhere; the
    # first column, or a column of words, labels the rows. A column of 0s and 1s under a
    # name ("MNNVL") says whether a feature of the run was on: a setting.
    if index > 0 and stats.filled and stats.numeric * 2 >= stats.filled:
        return "config" if stats.switch else "result"
    if index == 0 and stats.filled and stats.measured == stats.filled:
        # "Wan2.1 t2v 1.3B | TeaCache (0.05)" over "~175 s | ~117 s": times under a name, the
        # baseline's results, label no row
        return "result"
    if index > 0 and not stats.filled:
        # A column holding only "oom", "-" or nothing, headed by a value of the table's axis
        # ("512" batch) or by a name ("C/C++" beside "Python"): no value was published there,
        # which its cells say, not its rows' names.
        return "result"
    return "label"


def _states_its_run(reading: HeaderReading, stats: ColumnStats) -> bool:
    """A header naming a metric as a column of metric names would, but also the chip or the
    precision of a run, over numbers: the column holds that run's values."""
    return (
        (reading.platform is not None or reading.precision is not None)
        and stats.numeric > 0
        and stats.numeric * 2 >= stats.filled
    )


def _states_a_measurement(reading: HeaderReading) -> bool:
    """A unit of a measured quantity (a rate, a duration), or a bracketed metric name
    ("(TFLOPS/s)"), in a header whose words name a setting or a label."""
    if reading.unit is not None and reading.unit.kind in MEASURED_UNIT_KINDS:
        return True
    return any(read_header(part).kind == "metric" for part in BRACKETED_ASIDE.findall(reading.text))


def _measured_metric(reading: HeaderReading) -> str | None:
    """The metric a header that reads as a setting names beside it ("Latency(ms) bs=1" is a
    latency at batch size 1), else the one its unit's dimension names (a rate: throughput)."""
    found = [
        rule.role
        for _start, _end, rule in role_matches(fold_words(reading.text))
        if rule.kind == "metric"
    ]
    if found:
        return found[-1]
    unit = reading.unit
    return "throughput" if unit is not None and unit.kind == "rate" else None


# A setting's value right after the setting's word ("Batch 1", "BS=8", "Seq Len 2048"), the
# only number of the rest of the header but a footnote's mark ("bsz=196[1]").
_SETTING_VALUE = re.compile(
    r"\s*[=:/]?\s*(?:\d[\d.,]*(?![\d.,])(?:\s?\[\d{1,2}\])?(?!.*\d)"
    r"|(?:on|off|enabled|disabled)(?![\w-]))"  # "CP on": the setting switched, a run's state
)


def _states_a_setting_value(reading: HeaderReading) -> bool:
    """A header that gives a setting a value ("Batch 1", "BS=8", "Seq Len 2048", "CP on")
    heads the results measured with that setting, not a column of the setting's values."""
    return _gives_a_setting_value(reading.text)


# A setting's value right before the setting's word: "Kirin 980 (4-threads)", "(8 streams)".
_VALUE_BEFORE = re.compile(r"(?:^|[\s(\[,;])\d+\s?-?\s?$")


@lru_cache(maxsize=16_384)
def _gives_a_setting_value(text: str) -> bool:  # headers repeat from table to table
    folded = fold_words(text)
    return any(
        rule.kind == "config"
        and (
            _SETTING_VALUE.match(folded, end)
            or (rule.role == "setting" and _VALUE_BEFORE.search(folded, 0, start))
        )
        for start, end, rule in role_matches(folded)
    )


# Words saying a header gives a figure of the device itself, not of a run on it.
_DEVICE_RESOURCE = re.compile(
    r"(?i)\b(?:memory|mem|v?ram|hbm|consumption|usage|utili[sz]ation|size|power|bandwidth)\b"
)


def _fractional_device_counts(reading: HeaderReading, stats: ColumnStats) -> bool:
    """A column under a device-count word ("GPU") whose numbers mostly have decimals
    ("4.4 ms"): devices are counted whole, so its numbers are results measured on them. A
    figure of the device itself ("GPU VRAM consumption": 20.5) is no result of a run."""
    return (
        reading.role == "accelerator_count"
        and (stats.point + stats.comma) * 2 >= stats.numeric
        and _DEVICE_RESOURCE.search(reading.text) is None
    )


# A parallelism degree's abbreviation ("TP", "EP"), ending a header.
_PARALLEL_DEGREE = re.compile(r"(?<![a-z0-9])(?:tp|pp|dp|cp|ep|vpp?|etp|edp)$")


def _fractional_parallel_degrees(reading: HeaderReading, stats: ColumnStats) -> bool:
    """A column under a parallelism abbreviation ("My UCCL EP") or a framework's name ("Optimized
    DSChat (with Hybrid Engine)") whose numbers mostly have decimals ("358.0", "855.09"): degrees
    are whole and frameworks are named, so it names a system and holds its results."""
    named = reading.role == "framework" or (
        reading.role == "setting" and _PARALLEL_DEGREE.search(fold_words(reading.text))
    )
    return bool(named) and (stats.point + stats.comma) * 2 >= stats.numeric


# A per-device part ending a header: "/GPU", "/chip", "per card".
_PER_DEVICE = re.compile(
    r"(?:/\s?|\bper\s+)(?:gpus?|chips?|cards?|devices?|accelerators?"
    r"|tpus?|npus?|hpus?|ipus?|xpus?)\s*$",
    re.I,
)


def _per_device_figure(reading: HeaderReading) -> bool:
    """A header read as a device count or a platform only through its per-device part
    ("Tokens/sec/chip", "TPS/GPU"): a figure per device, not devices ("GPUs per node" is a
    count of them)."""
    if reading.role not in ("accelerator_count", "platform"):
        return False
    found = _PER_DEVICE.search(reading.text)
    if found is None:
        return False
    figure = reading.text[: found.start()].strip(" /")
    return bool(figure) and read_header(figure).role != reading.role


def _property_table(columns: list[ColumnPlan], stats: Sequence[ColumnStats]) -> bool:
    """A two-column table of names and values ("accelerators_per_node | 8", "Memory Size |
    128 GB") whose header names no metric nor states what its numbers measure, and whose
    context names no metric either, describes a system; its numbers are no results. A header
    naming a scored benchmark ("模型 | MT-bench") or cells naming their metric say what."""
    return len(columns) == 2 and not any(
        column.reading.kind in ("metric", "statistic", "result")
        or _states_a_measurement(column.reading)
        or _states_a_setting_value(column.reading)
        or names_scored_dataset(column.reading.text)
        or names_metrics(column_stats)  # "Input throughput: 22424 tps/card"
        # "infer time" over "60ms", "81ms": times or rates measured row by row
        or (column.role == "result" and 1 < column_stats.filled == column_stats.measured)
        for column, column_stats in zip(columns, stats, strict=True)
    )


def _with_stub(columns: list[ColumnPlan], stats: tuple[ColumnStats, ...]) -> list[ColumnPlan]:
    """The columns of words left of every result column of numbers label the rows, when those
    result columns name no metric of their own: the row labels may take several columns
    ("Sequence Length | Model Latency (ms) | A100 | T4"), and a header over them that names a
    metric names the table's (see `_corner`). A column of words among columns that name
    their metrics is a result whose words do not read, and is set apart."""
    stub = []
    for column, column_stats in zip(columns, stats, strict=True):
        if column.role == "result" and column_stats.numeric:
            break
        stub.append(column)
    rest = columns[len(stub) :]
    if not any(
        column.role == "result" and column.reading.kind not in ("metric", "statistic")
        for column in rest
    ):
        return columns
    return [
        replace(column, role="label")
        if column.role == "result" and column_stats.filled and column.reading.kind == "metric"
        else column
        for column, column_stats in zip(stub, stats, strict=False)
    ] + rest


_OFFERED_ITEMS = frozenset({"requests", "queries"})


def _with_offered_loads(columns: list[ColumnPlan]) -> list[ColumnPlan]:
    """A rate of requests or queries ("RPS", "QPS") in a column before the label columns of a
    table whose results follow those labels ("RPS | Engine | Median TTFT") is the load the
    run was given, a setting of its rows, not a throughput it measured."""
    first_label = next((at for at, column in enumerate(columns) if column.role == "label"), None)
    if first_label is None or not any(c.role == "result" for c in columns[first_label + 1 :]):
        return columns  # no labels, or no results after them: the rates are the results
    offered = {
        at
        for at, column in enumerate(columns[:first_label])
        if column.role == "result"
        and column.reading.unit is not None
        and column.reading.unit.item_kind in _OFFERED_ITEMS
    }
    return [
        replace(
            column, role="config", reading=HeaderReading(column.reading.text, "config", "setting")
        )
        if at in offered
        else column
        for at, column in enumerate(columns)
    ]


def _systems_beside_metric_names(
    columns: list[ColumnPlan], stats: tuple[ColumnStats, ...]
) -> list[ColumnPlan]:
    """Where the first column names each row's metric ("Metric | Full-parameter | LoRA"),
    every column of numbers beside it holds those metrics' values for one system or method:
    a header word that elsewhere names a setting or a label ("Full-parameter", "Level 2")
    does not make its numbers settings or row names."""
    if not columns or columns[0].role != "metric_name":
        return columns
    return [
        replace(column, role="result")
        if column.role in ("config", "label")
        and index > 0
        and stats_.numeric * 2 >= stats_.filled > 0
        else column
        for index, (column, stats_) in enumerate(zip(columns, stats, strict=True))
    ]


def _corner(columns: list[ColumnPlan]) -> HeaderReading | None:
    """The header over the row labels naming the table's metric ("Loss (Model/Epoch)", "Model
    Latency (ms)"): the last label column left of every result column that names a metric."""
    found = None
    for column in columns:
        if column.role == "result":
            break
        if column.role == "label" and column.reading.kind == "metric":
            found = column.reading
    return found


def compared_runs(columns: Sequence[ColumnPlan], context_metric: Found | None) -> set[int]:
    """The result columns a comparison the table's context names compares, where the table
    has a column of that comparison of its own: under "INT8 vs. FP16 speedup", beside
    "Speedup", "TINY (FP16)" and "TINY (INT8)" are runs, no speedups; the context speaks of
    the "Speedup" column."""
    if context_metric is None or context_metric.value not in COMPARISONS[:2]:
        return set()
    results = [column for column in columns if column.role == "result"]
    if not any(
        column.reading.kind == "metric" and column.reading.role == context_metric.value
        for column in results
    ):
        return set()
    return {column.column for column in results if _states_a_setup(column.reading)}


def _with_metrics(
    columns: list[ColumnPlan], readings: list[HeaderReading], context_metric: Found | None
) -> list[ColumnPlan]:
    """Each result column's metric: its header's; for a statistic ("Standard deviation") the
    metric of the result column to its left; for a column a unit or metric-name column
    qualifies, the one that column names per row; else the metric the header over the row
    labels names ("Loss (Model/Epoch)"), with its unit where the column states none; else the
    context's, except for a header naming metrics of its own ("Latency/throughput")."""
    corner = _corner(columns)
    corner_metric = Found(corner.role, "column") if corner is not None else None
    compared = compared_runs(columns, context_metric)
    configured = _configuration_columns(columns) if context_metric is not None else set()
    planned: list[ColumnPlan] = []
    annotation: ColumnPlan | None = None
    last_metric: Found | None = None
    side: HeaderReading | None = None  # the last result header naming a side and its unit
    for column in columns:
        if column.role in ("unit", "metric_name"):
            annotation = column
            planned.append(column)
            continue
        if column.role != "result":
            planned.append(column)
            continue
        reading = column.reading
        if reading.alternatives:
            metric = None  # "Latency/throughput": the metrics it names say none is the table's
        elif column.column in configured:
            metric = context_metric  # "Llama2 7B throughput" under "Encoding time": a name
        elif reading.kind == "metric":
            metric = Found(reading.role, "column")
        elif (
            reading.kind == "statistic"
            and (last_metric or _timed(context_metric))
            and not names_its_own_quantity(reading)
        ):
            metric = last_metric or context_metric  # "mean" under "All times in ms": a latency
        elif annotation is not None:
            metric = None  # named per row by the column beside it
        elif reading.kind in ("config", "label"):  # a result by what its header measures
            named = _measured_metric(reading)
            metric = Found(named, "column") if named else corner_metric or context_metric
        elif _states_a_setup(reading) or (corner_metric is not None and reading.kind is None):
            # The row labels' header names the metric of the columns beside them, which
            # name a setup or words of no role ("TensorRT 8.4 GA Update 2, CUDA 11.6").
            metric = corner_metric or (
                None if column.column in compared else speed_metric(reading, context_metric)
            )
            if corner is not None and reading.unit is None and corner.unit is not None:
                column = replace(column, reading=replace(reading, unit=corner.unit))
        else:
            metric = None  # a header of unknown words: its numbers are quarantined, not guessed
        if side is not None and takes_the_side(side, reading, metric is None):
            # "llama.cpp (CPU) (tokens/sec) | T-MAC (CPU)", "FP16 (ms) | INT8", "Inference Time
            # on V100 (ms) | A100": a side the column to its left opened, without its unit
            metric = Found(side.role, "column")
            column = replace(column, reading=replace(reading, unit=side.unit))
        if reading.kind == "metric":
            side = reading if names_a_side(reading) else None
        if metric is not None:
            last_metric = metric
        planned.append(  # not `replace`: this runs for every result column of every table
            ColumnPlan(
                column.column,
                column.role,
                column.reading,
                metric,
                annotation.column if annotation else None,
                annotation.role if annotation else None,
                column.decimal,
                column.group,
            )
        )
        if annotation is not None and annotation.role == "unit":
            annotation = None  # a unit column qualifies the value beside it; a metric name
            #                    ("Metric Name | A, INT8 | B, INT8") every value after it
    return planned


def _timed(found: Found | None) -> bool:  # a run's time or rate, no spec ("NPU: 5 TOPS")
    return found is not None and found.value in ("latency", "throughput")


def _with_precision_accuracies(columns: list[ColumnPlan]) -> list[ColumnPlan]:
    """A column headed by a precision alone ("float") right before one naming what the
    quantized model loses ("Hardware Degradation") holds the model's accuracy at that
    precision, the figure the loss is taken from; elsewhere such a column's metric comes from
    the table's context, or it is quarantined."""
    planned = list(columns)
    for position, (column, right) in enumerate(zip(columns, columns[1:], strict=False)):
        if (
            column.role != "result"
            or column.metric is not None
            or column.annotation is not None
            or right.role != "result"
            or not names_quality_change(right.reading.text)
        ):
            continue
        precision = read_precision_label(column.reading.text)
        if precision is None or precision.activation is None:
            continue
        reading = replace(column.reading, precision=precision)
        planned[position] = replace(column, reading=reading, metric=Found("accuracy", "column"))
    return planned


_GROUP_WORD = re.compile(r"^[A-Za-z]{4,}(?=\s)")


def _configuration_columns(columns: list[ColumnPlan]) -> set[int]:
    """The result columns headed by a model's name and a bare metric word, where those words
    differ from column to column ("Llama2 7B latency | Llama2 7B throughput | Llama2 13B
    latency"): names of the model's configurations, whose values are of the metric the
    table's caption or heading names."""
    named = [
        column
        for column in columns
        if column.role == "result" and names_model_configuration(column.reading)
    ]
    if len({column.reading.role for column in named}) < 2:
        return set()
    return {column.column for column in named}


def _with_groups(columns: list[ColumnPlan]) -> list[ColumnPlan]:
    """The result columns after a setting column whose header starts with a word of its own
    ("Dispatch #EP | Latency | RDMA bandwidth | Combine #EP | Latency | ..."): that word
    names the part of the run they measure."""
    grouped, group = [], None
    for column in columns:
        if column.role in ("config", "label"):
            word = _GROUP_WORD.match(column.reading.text or "")
            if word and read_header(word.group(0)).kind is None:  # no role word ("Batch")
                group = word.group(0).lower()
        elif column.role == "result" and group is not None:
            column = replace(column, group=group)
        grouped.append(column)
    return grouped


def _states_a_setup(reading: HeaderReading) -> bool:
    """A header that names no metric but a result's setup ("B200 TP1 (FP4)", "fp8 w/ fp8
    KVCache", an epoch "250", "Performance"): its numbers are of the metric the table names
    elsewhere."""
    return (
        reading.kind == "result"
        or reading.platform is not None
        or reading.precision is not None
        or reading.is_number
        or not reading.text
        or _names_a_model(reading)
    )


def _names_a_model(reading: HeaderReading) -> bool:
    """A header of no role that is a model ("densenet121" over rows of devices) or names a
    framework ("Keras 3 (JAX)"): the column of that run, whose numbers are of the metric the
    table names elsewhere ("time costs per image in milliseconds", "measured in ms/step")."""
    return reading.kind is None and reading.unit is None and names_a_run(reading.text)
