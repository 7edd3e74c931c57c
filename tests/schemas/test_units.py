"""The unit grammar on header and cell texts as real pages print them (the page each comes
from is named beside it; most are in ../shared/real-pages-2)."""

from __future__ import annotations

import polars as pl
import pytest

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.label_mappings import NO_MAPPINGS
from perfledger.schemas.normalize import normalize_cells
from perfledger.schemas.units import metric_of_unit, unit_in_header, unit_named
from perfledger.sources.layouts.text_capture import parse_text_capture
from tests.sources.layout_checks import CONTEXT


@pytest.mark.parametrize(
    ("text", "kind", "factor", "item", "canonical", "per"),
    [
        ("TPS/GPU", "rate", 1.0, "tokens", "items/s", "accelerator"),  # torchtitan
        ("T/s/GPU", "rate", 1.0, "tokens", "items/s", "accelerator"),  # MosaicML
        ("S/s", "rate", 1.0, "samples", "items/s", None),  # MosaicML
        ("Tokens/sec/chip", "rate", 1.0, "tokens", "items/s", "accelerator"),  # TPU recipes
        ("token/s/GPU", "rate", 1.0, "tokens", "items/s", "accelerator"),  # NeMo diffusion
        ("tok/s/user", "rate", 1.0, "tokens", "items/s", "user"),
        ("tokens per second per GPU", "rate", 1.0, "tokens", "items/s", "accelerator"),
        ("req/s", "rate", 1.0, "requests", "items/s", None),  # torchao serving
        ("it/s", "rate", 1.0, "iterations", "items/s", None),
        ("sen/s", "rate", 1.0, "sequences", "items/s", None),  # Tenstorrent
        ("k items/sec", "rate", 1000.0, None, "items/s", None),  # issue 30, defect 5
        ("K tokens/s", "rate", 1000.0, "tokens", "items/s", None),
        ("M samples/s", "rate", 1e6, "samples", "items/s", None),
        ("tokens/min", "rate", 1 / 60, "tokens", "items/s", None),
        ("帧/秒", "rate", 1.0, "frames", "items/s", None),
        ("ms/token", "duration", 0.001, "tokens", "s", "item"),  # AWS Neuron
        ("s/step", "duration", 1.0, "steps", "s", "item"),
        ("s/it", "duration", 1.0, "iterations", "s", "item"),
        ("Hours / 1B tokens", "duration", 3600.0, "tokens", "s", "work"),  # flash-attention
        ("毫秒", "duration", 0.001, None, "s", None),  # PaddleClas
        ("TFLOPs/sec/chip", "other", 1.0, None, "TFLOP/s/chip", "accelerator"),  # TPU recipes
        ("TFLOP/sec/GPU", "other", 1.0, None, "TFLOP/s/GPU", "accelerator"),  # Megatron-LM
        ("TFLOPS/s", "other", 1.0, None, "TFLOP/s", None),  # NeMo diffusion
        ("GiB", "other", 1.0, None, "GiB", None),  # torchtitan
        ("samples/s/W", "other", 1.0, "samples", "samples/s/W", None),
    ],
)
def test_a_unit_is_read_by_its_parts(text, kind, factor, item, canonical, per):
    unit = unit_named(text)
    assert unit is not None
    assert (unit.kind, unit.item_kind, unit.canonical, unit.per) == (kind, item, canonical, per)
    assert unit.factor == pytest.approx(factor)


@pytest.mark.parametrize("text", ["T", "tokens", "GPU", "Batch size", "1.2", "TP/PP", "s/s/s"])
def test_a_quantity_or_a_device_alone_is_no_unit(text):
    assert unit_named(text) is None


@pytest.mark.parametrize(
    ("header", "canonical", "factor"),
    [
        ("Throughput (T/s/GPU)", "items/s", 1.0),  # MosaicML
        ("Throughput (k items/sec)", "items/s", 1000.0),  # issue 30, defect 5
        ("Latency (ms, bs=1)", "s", 0.001),  # TensorRT quantization model zoo
        ("Latency in ms (per batch) on iPhone 14 Pro", "s", 0.001),  # coremltools
        ("GPU 耗时(ms)", "s", 0.001),  # PaddleClas
        ("Step time (seconds)", "s", 1.0),  # TPU recipes
        ("Without CP / TFLOPS / GPU", "TFLOP/s/GPU", 1.0),  # NeMo long sequence
        ("Memory(GiB)", "GiB", 1.0),  # torchtitan
        ("Hours / 1B tokens", "s", 3600.0),  # flash-attention
        ("All latencies are reported in ms.", "s", 0.001),  # a page's prose
        ("耗时单位为ms，精度为Top-1", "s", 0.001),
        ("Pixel 2, ms", "s", 0.001),  # a unit set apart by a comma (XNNPACK's phone tables)
        ("Time, s", "s", 1.0),
        ("Throughput, img/s", "items/s", 1.0),
        ("ms", "s", 0.001),  # a header that is a unit alone
    ],
)
def test_a_header_states_its_unit_in_brackets_after_in_or_written_out(header, canonical, factor):
    unit = unit_in_header(header)
    assert (unit.canonical, unit.factor) == (canonical, pytest.approx(factor))


def test_precision_said_in_chinese_is_no_accuracy():
    # 精度 is accuracy and numeric precision both: "运行时精度为 fp32" (Paddle-Lite) says the
    # precision a run used, not that its numbers are accuracies
    assert read_header("运行时精度为 fp32 的性能数据如下：").role is None
    assert (read_header("Top-1 精度").kind, read_header("Top-1 精度").role) == (
        "metric",
        "accuracy",
    )


@pytest.mark.parametrize(
    "header",
    [
        "SeqLen (T)",
        "Batch size / GPU",
        "Number of GPUs per node",
        "Output token throughput",
        "Time (s",
        "s",
        "m",  # YOLO's sizes n, s, m, l, x as column headers
        "Batch, 8",
        "Speedup, x",
    ],
)
def test_a_header_without_a_unit_states_none(header):
    assert unit_in_header(header) is None


@pytest.mark.parametrize(
    ("header", "metric", "canonical", "per"),
    [
        ("TPS/GPU", "throughput", "items/s", "accelerator"),  # torchtitan
        ("Tokens/sec/chip", "throughput", "items/s", "accelerator"),  # TPU recipes
        ("Step time (seconds)", "latency", "s", None),  # TPU recipes
        ("Hours / 1B tokens", "time_to_train", "s", "work"),  # flash-attention
        (":stopwatch: Jetson AGX Orin (ms) / Image Encoder", "latency", "s", None),  # NanoSAM
        (":stopwatch: Jetson AGX Orin (ms) / Full Pipeline", "latency", "s", None),  # NanoSAM
        ("GPU util. (TFLOPS/s)", "other", "TFLOP/s/GPU", "accelerator"),  # NeMo diffusion
        ("Throughput per GPU (img/s)", "throughput", "items/s", "accelerator"),
        ("MFU", "other", "%", None),  # MosaicML
        ("Median TTFT", "latency", None, None),  # SGLang: no unit stated, none guessed
        ("Output token throughput", "throughput", None, None),  # SGLang
        ("Goodput", "throughput", None, None),
        ("Walltime", "time_to_train", None, None),  # Alpa
        ("CPU 耗时(ms)", "latency", "s", None),  # PaddleClas
        ("压缩训练评估 Top-1 Acc", "accuracy", None, None),  # PaddleClas
        ("吞吐量(FPS)", "throughput", "items/s", None),
        ("T/S Ratio to Eager", "speedup", None, None),  # AMD ROCm blog: the rate compared
        ("Ratio", "other", "ratio", None),  # ncnn: no baseline, no way
        ("AP0.5:0.95", "accuracy", None, None),  # PaddleDetection: IoU thresholds of COCO AP
        ("mAP@0.5", "accuracy", None, None),
        ("AR small", "accuracy", None, None),  # COCO's average recall
        ("fp32 hmean", "accuracy", None, None),  # mmdeploy: text detection's F-score
        ("Max memory", "other", None, None),  # torchao's optimizers: "9.82 GB" in its cells
        ("Pixel 2, ms", "latency", "s", None),  # XNNPACK: a phone and the unit after a comma
    ],
)
def test_a_header_names_its_metric_by_its_words_or_its_units_dimension(
    header, metric, canonical, per
):
    reading = read_header(header)
    assert (reading.kind, reading.role) == ("metric", metric)
    assert (reading.unit.canonical if reading.unit else None) == canonical
    assert (reading.unit.per if reading.unit else None) == per


def test_a_bare_time_in_seconds_names_no_metric_by_itself():
    assert metric_of_unit(unit_named("s")) is None
    assert metric_of_unit(unit_named("ms")) == "latency"
    assert metric_of_unit(unit_named("days")) == "time_to_train"


def test_an_accuracy_naming_a_share_is_read_for_percent_and_another_score_is_not():
    assert read_header("Accuracy").share  # coremltools: 71.86
    assert not read_header("🎯 Accuracy (mAP)").share  # NanoOWL: 28 is a score


@pytest.mark.parametrize(
    ("cell", "seconds"),
    [
        ("1h05m", 3900.0),
        ("2m 5s", 125.0),
        ("1:05:30", 3930.0),
        ("2.1h", 7560.0),  # Alpa
        ("1.85 days", 159840.0),
        ("82 mins", 4920.0),
        ("2900 secs", 2900.0),
    ],  # DeepSpeed-Chat
)
def test_durations_in_cells_read_to_seconds(cell, seconds):
    (value,) = read_cell(cell).values
    assert value.seconds == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("cell", "number"),
    [("1310k", 1310000.0), ("2.50E-01", 0.25), ("1.29e+03", 1290.0)],  # torch2trt
)
def test_scaled_and_exponent_numbers_in_cells(cell, number):
    (value,) = read_cell(cell).values
    assert value.number == pytest.approx(number)


def test_values_in_brackets_with_their_own_units_are_values_too():
    # Ray Train benchmarks: a time to train, with the epochs and the throughput in brackets.
    first, second = read_cell("79.76 s (2 epochs, 40.7 images/sec)").values
    assert (first.number, first.unit.alias, first.qualifier) == (79.76, "s", "2 epochs")
    assert (second.number, second.unit.alias, second.secondary) == (40.7, "images/sec", True)
    # torchao serving: a rate with its speedup.
    rate, speedup = read_cell("1.57 req/s (1.16x speedup)").values
    assert (rate.unit.kind, speedup.number, speedup.unit.kind) == ("rate", 1.16, "ratio")
    # A remark with no value of its own stays a remark.
    (value,) = read_cell("153 GB/s (NVLink)").values
    assert value.qualifier == "NVLink"


def test_a_throughput_in_k_items_per_second_is_read_in_thousands():
    """Issue 30, defect 5: 1.361 under `Throughput (k items/sec)` is 1,361 items/s."""
    text = "\n".join(
        ["", "Model", "Platform", "Throughput (k items/sec)", "BERT", "Bow-2000", "1.361", ""]
    )
    normalized = normalize_cells(parse_text_capture(text).cells, CONTEXT)
    row = normalized.measurements.filter(pl.col("metric") == "throughput").row(0, named=True)
    assert (row["value"], row["unit"], row["unit_published"]) == (1361.0, "items/s", "k items/sec")


@pytest.mark.parametrize(
    ("cell", "number", "unit", "rest"),
    [
        ("RTF  0.817", 0.817, "rtf", None),  # rknn_model_zoo: the unit before the number
        ("Dice 0.8735", 0.8735, None, "Dice"),
        ("EPE: 0.878", 0.878, None, "EPE"),
    ],  # Vitis AI
)
def test_a_unit_or_score_named_before_the_number(cell, number, unit, rest):
    (value,) = read_cell(cell).values
    assert (value.number, value.unit.alias if value.unit else None, value.rest) == (
        number,
        unit,
        rest,
    )


@pytest.mark.parametrize("cell", ["Gaudi 2", "MI250 2.5"])
def test_a_name_with_a_number_is_no_value(cell):
    assert read_cell(cell).problem == "unparseable_value"


def test_a_slash_alone_is_no_value_published():
    assert read_cell("/").problem == "placeholder_value"  # rknn_model_zoo's tables


@pytest.mark.parametrize(
    ("header", "metric", "statistic", "canonical"),
    [  # as vLLM's and SGLang's serving benchmarks print them
        ("Mean TTFT (ms)", "latency", "mean", "s"),
        ("P99 ITL (ms)", "latency", "p99", "s"),
        ("Median E2EL (ms)", "latency", "p50", "s"),
        ("Request throughput (req/s)", "throughput", None, "items/s"),
        ("Output token throughput (tok/s)", "throughput", None, "items/s"),
        ("Benchmark duration (s)", "other", None, "s"),  # the whole run's, no latency
    ],
)
def test_serving_benchmark_rows_name_their_metric_statistic_and_unit(
    header, metric, statistic, canonical
):
    reading = read_header(header)
    assert (reading.role if reading.kind == "metric" else None) == metric
    assert (reading.statistic, reading.unit.canonical) == (statistic, canonical)


def test_a_table_of_metrics_by_row_is_read_turned_around_beside_a_comparison_column():
    """'| Metrics | Before | After | Improvement |': the rows name the metrics; the
    improvement compares them."""
    from perfledger.schemas.table_plans import names_base_metric, transposed

    assert read_header("Metrics").kind == "metric_name"
    assert not names_base_metric(read_header("Improvement"))
    assert not names_base_metric(read_header("delta"))
    assert names_base_metric(read_header("Throughput"))
    first = ["Request throughput (req/s)", "Mean TTFT (ms)", "P99 ITL (ms)"]
    assert transposed(["Metrics", "Before", "After", "Improvement"], first, [True] * 3, NO_MAPPINGS)


def test_a_signed_percentage_beside_a_value_is_a_change_of_its_own():
    value, change = read_cell("2646.09 (-39.2%)").values
    assert (value.number, change.number, change.unit.kind) == (2646.09, -39.2, "percent")


def test_a_setting_in_brackets_gives_the_header_no_role():
    """torchao serving: 'serving (num_prompts=1)' heads values whose cells state their units
    ('1.35 req/s'); the number of prompts is the run's setting, not the column's role."""
    reading = read_header("serving (num_prompts=1)")
    assert (reading.kind, reading.role) == (None, None)
    assert read_header("Num prompts").kind == "config"


@pytest.mark.parametrize(
    ("header", "alias"),
    [
        ("Total tokens per sec", "tokens/sec"),  # Intel's IPEX performance page
        ("Tokens per second", "tokens/second"),
        ("tokens per sec per GPU", "tokens/sec/gpu"),
    ],
)
def test_a_rate_written_with_per_is_a_rate_not_its_time(header, alias):
    unit = unit_in_header(header)
    assert (unit.alias, unit.kind) == (alias, "rate")


@pytest.mark.parametrize(
    ("cell", "number", "unit", "statistic"),
    [
        ("0.85s avg", 0.85, "s", "avg"),  # vLLM sleep-mode blog (../shared/claims-pages)
        ("37.6s avg", 37.6, "s", "avg"),
        ("3.2 ms p99", 3.2, "ms", "p99"),
        ("5 ms median", 5.0, "ms", "median"),
    ],
)
def test_a_statistic_after_the_unit_reads_as_in_brackets(cell, number, unit, statistic):
    (value,) = read_cell(cell).values
    assert (value.number, value.unit.alias, value.qualifier, value.rest) == (
        number,
        unit,
        statistic,
        None,
    )
    # A word that is no unit before it stays the cell's rest: nothing is guessed.
    (unknown,) = read_cell("12 foo avg").values
    assert (unknown.unit, unknown.rest) == (None, "foo avg")
