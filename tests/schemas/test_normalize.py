"""Normalization on real rows of the July 2023 page, and quarantine of values that do not fit."""

from __future__ import annotations

import polars as pl
import pytest

from perfledger.schemas.normalize import normalize_cells
from perfledger.schemas.validate import validate_measurements
from perfledger.sources.layouts.pipe_table import parse_pipe_tables
from perfledger.sources.layouts.text_capture import parse_text_capture
from tests.conftest import JULY_2023, read_page
from tests.schemas.test_normalize_paths import cells_of
from tests.sources.layout_checks import CONTEXT


@pytest.fixture(scope="module")
def july():
    normalized = normalize_cells(parse_text_capture(read_page(JULY_2023)).cells, CONTEXT)
    good, invalid = validate_measurements(normalized.measurements)
    return good, pl.concat([normalized.quarantine, invalid])


def one(frame: pl.DataFrame, **where) -> dict:
    picked = frame.filter(*[pl.col(k) == v for k, v in where.items()])
    assert picked.height == 1, picked
    return picked.row(0, named=True)


def test_the_demo_page_loads_every_value_and_quarantines_none(july):
    good, quarantine = july
    assert good.height == 358
    assert quarantine.height == 0


def test_mlperf_time_to_train_in_minutes_becomes_seconds(july):
    good, _ = july
    row = one(good, metric="time_to_train", system="Bow Pod16", model_canonical="ResNet-50 v1.5")
    assert row["raw_value"] == "19.64"
    assert row["value"] == pytest.approx(1178.4)
    assert row["unit"] == "s"
    assert row["mlperf_id"] == "2.0-2047"
    assert row["division"] == "Closed"
    assert row["workload"] == "training"


def test_per_accelerator_throughput_of_a_bow_pod64_row(july):
    good, _ = july
    row = one(
        good,
        metric="throughput",
        system="Bow Pod64",
        model_canonical="ResNet-50 v1.5",
        framework="TensorFlow1",
    )
    assert row["value"] == 153205.0
    assert row["accelerator"] == "Bow IPU"
    assert row["accelerator_count"] == 64
    assert row["value_per_accelerator"] == pytest.approx(153205 / 64)
    assert row["item_kind"] == "images"


def test_precision_16_32_is_fp16_activations_and_fp32_weights(july):
    good, _ = july
    row = one(
        good,
        metric="throughput",
        system="Bow Pod16",
        model_canonical="EfficientNet-B4",
        framework="PyTorch",
    )
    assert row["precision"] == "16.32"
    assert (row["activation_dtype"], row["weight_dtype"]) == ("fp16", "fp32")
    assert row["value"] == 8223.0


def test_ogb_units_come_from_the_footnote_and_durations_from_the_cell(july):
    good, _ = july
    gps = one(good, metric="throughput", model_canonical="GPS++")
    assert (gps["value"], gps["item_kind"], gps["unit_published"]) == (
        17800.0,
        "graphs",
        "graphs/s",
    )
    transe = one(good, metric="throughput", model_canonical="TransE (256)")
    assert (transe["value"], transe["item_kind"]) == (1260000.0, "triples")
    assert one(good, metric="time_to_train", model_canonical="GPS++")["value"] == 85380.0
    assert one(good, metric="eval_metric", model_canonical="GPS++")["value"] == 0.0719
    assert one(good, metric="eval_metric", model_canonical="GPS++")["unit"] == "MAE"
    assert one(good, metric="ranking", model_canonical="TransE (256)")["value"] == 1.0


def test_a_unit_in_the_variant_column_is_a_unit_not_a_variant(july):
    good, _ = july
    row = one(good, metric="throughput", model_canonical="FastPitch")
    assert row["variant"] is None
    assert (row["value"], row["item_kind"], row["unit_published"]) == (
        1489341.0,
        "frames",
        "frames/s",
    )


def test_single_accelerator_platform_and_empty_cells(july):
    good, _ = july
    row = one(good, metric="throughput", model_canonical="TGN", system="1x Bow IPU")
    assert row["accelerator_count"] == 1
    assert row["value_per_accelerator"] == 31617.0
    assert row["dataset"] is None and row["batch_size"] is None and row["precision"] is None
    assert row["framework_canonical"] == "PyTorch Geometric"


def test_latency_in_milliseconds_and_inference_workload(july):
    good, _ = july
    row = one(
        good, metric="latency", model_canonical="BERT-Base", system="Bow-2000", batch_size="4"
    )
    assert row["value"] == pytest.approx(0.6)
    assert row["unit"] == "ms"
    assert row["workload"] == "inference"
    assert row["accelerator_count"] == 4


def test_canonical_labels(july):
    good, _ = july
    keras = good.filter(pl.col("framework") == "TF2 w/Keras")
    assert keras.height == 10
    assert keras["framework_canonical"].unique().to_list() == ["TensorFlow 2 + Keras"]
    models = good.filter(
        pl.col("model").is_in(["ResNet50 v1.5", "ResNet-50v1.5", "ResNet-50 v1.5"])
    )
    assert models["model_canonical"].unique().to_list() == ["ResNet-50 v1.5"]
    assert good.filter(pl.col("sdk_version") == "SDK 3.3")["sdk"].unique().to_list() == ["3.3"]
    ttr = one(good, metric="time_to_result")
    assert (ttr["value"], ttr["unit"], ttr["model_canonical"]) == (49.0, "s", "MCMC TFP")


def test_phases_come_from_the_variant(july):
    good, _ = july
    row = one(
        good,
        metric="throughput",
        model_canonical="BERT-Large",
        system="Bow Pod16",
        framework="PopART",
        variant="Ph2 Pre-Training (SL512) - Packed",
    )
    assert row["phase"] == "pre-training phase 2"
    assert row["value"] == 2126.0


def test_every_value_has_a_distinct_natural_key(july):
    good, _ = july
    assert good["row_identity"].n_unique() == good.height


def _table(*rows: list[str]) -> pl.DataFrame:
    text = "\n".join(["", *[cell for row in rows for cell in row], ""])
    return parse_text_capture(text).cells


HEADER = ["Model", "Platform", "Precision", "Throughput (items/sec)", "Latency (ms)"]


@pytest.mark.parametrize(
    ("row", "check", "reason_part"),
    [
        (["BERT", "Bow-2000", "16.16", "N/A", "1.2"], "placeholder_value", "no value published"),
        (["BERT", "Bow-2000", "16.16", "TBD", "1.2"], "placeholder_value", "'TBD'"),
        (["BERT", "Bow-2000", "6,044", "16.16", "1.2"], "shifted_cells", "precision label"),
        (["BERT", "Bow-2000", "16.16", "-5", "1.2"], "non_positive_value", "must be positive"),
        (["BERT", "Bow-2000", "16.16", "inf", "1.2"], "non_finite_value", "'inf'"),
        (["BERT", "Bow-2000", "16.16", "1" + "0" * 400, "1.2"], "unparseable_value", "cannot read"),
        (["BERT", "Bow-2000", "16.16", ">1000", "1.2"], "bound_value", "is a bound"),
        (["BERT", "Bow-2000", "16.16", "12 parsecs", "1.2"], "unknown_unit", "'parsecs'"),
        (["BERT", "Bow-2000", "16.16", "12 ms", "1.2"], "unit_metric_mismatch", "'ms'"),
    ],
)
def test_values_that_do_not_fit_are_quarantined_with_a_reason(row, check, reason_part):
    normalized = normalize_cells(_table(HEADER, row), CONTEXT)
    quarantined = normalized.quarantine.filter(pl.col("column_name") == "Throughput (items/sec)")
    assert quarantined["check"].to_list() == [check]
    assert reason_part in quarantined["reason"].item()
    assert quarantined["raw_row"].item().startswith('{"Model": "BERT"')
    assert normalized.measurements.filter(pl.col("metric") == "throughput").height == 0


@pytest.mark.parametrize(
    ("column", "cell", "metric", "value"),
    [
        # A numbered footnote after a value is a footnote, as "*" is.
        ("Throughput (items/sec)", "45,824 [1]", "throughput", 45824.0),
        ("Throughput (items/sec)", "147,530[1]", "throughput", 147530.0),
        ("Latency (ms)", "28.51[1]", "latency", 28.51),
        ("Latency (ms)", "18.77 ms [2]", "latency", 18.77),
        # A pictograph beside a value decorates it (torchao's "27 \U0001f40c").
        ("Latency (ms)", "12.3 \U0001f525", "latency", 12.3),
        # The reference mark of CJK and Japanese pages is a footnote mark too.
        ("Throughput (token/sec)", "942\u203b", "throughput", 942.0),
        # "18m" in a column of times: the minutes of a duration in parts ("1h 18m").
        ("Time to Train", "18m", "time_to_train", 1080.0),
        ("Time to Train", "21h 46m[1]", "time_to_train", 78360.0),
        # A latency shaped like a precision label, beside the row's own precision, is a value.
        ("Latency (ms)", "16.32", "latency", 16.32),
    ],
)
def test_result_cells_with_marks_and_parts_read_their_value(column, cell, metric, value):
    header = ["Model", "Platform", "Precision", column]
    normalized = normalize_cells(_table(header, ["BERT", "Bow-2000", "16.16", cell]), CONTEXT)
    assert normalized.quarantine.height == 0
    row = one(normalized.measurements, metric=metric)
    assert row["value"] == pytest.approx(value)
    assert row["raw_value"] == cell


def test_a_value_shaped_like_a_precision_is_a_value_where_no_column_holds_precisions():
    """torchao's optimizer table: "8.32" GB beside "8.33" GB, and no precision column whose
    label could have shifted into it."""
    page = (
        "AdamW impl      | Peak memory allocated (GB) | imgs/s | accuracy\n"
        "----------------|----------------------------|--------|----------\n"
        "PyTorch (fused) | 12.23                      | 41.9   | 94.52\n"
        "bnb 8-bit       |  8.32                      | 43.6   | 94.54\n"
        "ao 8-bit        |  8.33                      | 42.5   | 94.30\n"
    )
    normalized = normalize_cells(parse_pipe_tables(page).cells, CONTEXT)
    assert normalized.quarantine.height == 0
    memory = normalized.measurements.filter(pl.col("column_name") == "Peak memory allocated (GB)")
    assert sorted(memory["value"].to_list()) == [8.32, 8.33, 12.23]


def test_the_minutes_letter_is_no_unit_of_a_throughput():
    normalized = normalize_cells(
        _table(HEADER, ["BERT", "Bow-2000", "16.16", "18m", "1.2"]), CONTEXT
    )
    assert normalized.quarantine.filter(pl.col("column_name") == "Throughput (items/sec)")[
        "check"
    ].to_list() == ["unknown_unit"]


@pytest.mark.parametrize(
    ("platform", "precision", "unresolved", "accelerator", "count", "activation"),
    [
        # Hardware no vocabulary knows keeps its name as the chip, unresolved.
        ("Quantum Pod9", "16.16", "platform=Quantum Pod9", "Quantum Pod9", None, "fp16"),
        ("Quantum Pod (9x Q-1)", "16.16", "platform=Quantum Pod (9x Q-1)", "Q-1", 9, "fp16"),
        ("Bow-2000", "fp13", "precision=fp13", "Bow IPU", 4, None),
        ("\u00a0", "16.16", None, None, None, "fp16"),
    ],
)
def test_a_label_not_known_never_costs_the_value(
    platform, precision, unresolved, accelerator, count, activation
):
    normalized = normalize_cells(
        _table(HEADER, ["BERT", platform, precision, "100", "1.2"]), CONTEXT
    )
    assert normalized.quarantine.height == 0
    value = one(normalized.measurements, metric="throughput")
    assert (
        value["value"],
        value["unresolved"],
        value["accelerator"],
        value["accelerator_count"],
        value["activation_dtype"],
    ) == (100.0, unresolved, accelerator, count, activation)


def test_a_column_of_numbers_naming_no_metric_sets_each_number_apart():
    normalized = normalize_cells(
        _table(
            ["Model", "Platform", "Widgets", "Throughput (items/sec)"],
            ["BERT", "Bow Pod16", "900", "5600"],
        ),
        CONTEXT,
    )
    assert normalized.measurements["value"].to_list() == [5600.0]
    assert normalized.quarantine.select("check", "raw_value").rows() == [("unknown_metric", "900")]
    assert 'map-label column "Widgets"' in normalized.quarantine["reason"].item()


def test_a_header_naming_a_setting_but_stating_a_measured_unit_never_gives_counts():
    # "GPU" names a GPU count, "(ms)" and "(TFLOPS/s)" what the numbers measure: the
    # numbers are results, not counts.
    normalized = normalize_cells(
        cells_of(
            [
                ["Model", "GPU 耗时(ms)", "GPU util. (TFLOPS/s)", "Latency(ms) bs=1"],
                ["BERT", "2.4", "519", "1.74"],
            ]
        ),
        CONTEXT,
    )
    assert normalized.measurements.select(
        "column_name", "metric", "value", "unit", "accelerator_count"
    ).rows() == [
        ("GPU 耗时(ms)", "latency", 2.4, "ms", None),
        ("GPU util. (TFLOPS/s)", "other", 519.0, "TFLOP/s/GPU", None),
        ("Latency(ms) bs=1", "latency", 1.74, "ms", None),
    ]
    assert normalized.quarantine.height == 0


def test_a_figure_per_device_is_no_device_count_and_a_count_per_node_is_one():
    normalized = normalize_cells(
        cells_of(
            [
                ["Model", "GPUs per node", "Tokens/sec/chip", "TPS/GPU", "Throughput (items/sec)"],
                ["Llama 3 8B", "8", "2,425.75", "5,762", "5600"],
            ]
        ),
        CONTEXT,
    )
    measured = normalized.measurements.select(
        "column_name", "value", "accelerator_count", "rate_per"
    )
    assert measured.rows() == [
        ("Tokens/sec/chip", 2425.75, 8, "accelerator"),
        ("TPS/GPU", 5762.0, 8, "accelerator"),
        ("Throughput (items/sec)", 5600.0, 8, None),
    ]
    assert normalized.quarantine.height == 0


def test_a_header_giving_a_setting_a_value_heads_results_not_settings():
    normalized = normalize_cells(
        cells_of(
            [
                ["Model", "Batch size", "BS=1", "BS=8", "Throughput (items/sec)"],
                ["ResNet-50", "256", "1,200", "5,400", "5600"],
            ]
        ),
        CONTEXT,
    )
    assert normalized.measurements.select("column_name", "batch_size").rows() == [
        ("Throughput (items/sec)", "256")
    ]
    # The table names no metric for them: set apart, neither batch sizes nor dropped.
    assert normalized.quarantine.select("check", "column_name").rows() == [
        ("unknown_metric", "BS=1"),
        ("unknown_metric", "BS=8"),
    ]


def test_a_second_figure_of_another_metric_in_a_cell_is_a_value_of_its_own():
    normalized = normalize_cells(
        cells_of(
            [
                ["Model", "Platform", "Latency"],
                ["Phi-4-mini-float8dq", "H100", "1.41s (1.16x speedup)"],
            ]
        ),
        CONTEXT,
    )
    assert normalized.measurements.select("metric", "value", "unit").rows() == [
        ("latency", 1410.0, "ms"),
        ("speedup", 1.16, "x"),
    ]
    assert normalized.quarantine.height == 0
    # A note holding a number that names no metric (a cost) is the value's qualifier only.
    cost = normalize_cells(
        cells_of(
            [["Model", "Platform", "Time to train"], ["OPT-13B", "8x A100", "4 hours ($1024)"]]
        ),
        CONTEXT,
    )
    assert cost.measurements["value"].to_list() == [14400.0]
    assert cost.quarantine.height == 0


def test_a_metric_named_over_the_row_labels_columns_is_the_tables_with_its_unit():
    # The row labels take two columns; the second's header names the metric and its unit.
    normalized = normalize_cells(
        cells_of(
            [
                ["Sequence Length", "Model Latency (ms)", "A100-80GB", "T4"],
                ["512", "PyTorch (FP16)", "21.5", "22.7"],
                ["", "TensorRT (FP16)", "1.6", "6.2"],
            ]
        ),
        CONTEXT,
    )
    assert normalized.quarantine.height == 0
    measured = normalized.measurements
    assert (
        measured.select("metric", "unit", "accelerator").rows()
        == [("latency", "ms", "A100"), ("latency", "ms", "T4")] * 2
    )
    assert measured["value"].to_list() == pytest.approx([21.5, 22.7, 1.6, 6.2])


def test_normalizing_is_deterministic():
    cells = parse_text_capture(read_page(JULY_2023)).cells
    first = normalize_cells(cells, CONTEXT).measurements
    second = normalize_cells(cells, CONTEXT).measurements
    assert first.equals(second)


def significant_digits(number: float) -> int:
    """Digits of the shortest text that reads back as the number: 0.39 -> 2, 251.4 -> 4."""
    mantissa = f"{number!r}".split("e")[0].replace("-", "").replace(".", "")
    return len(mantissa.strip("0"))


def test_converted_values_read_as_the_published_number(july):
    """A value converted to its canonical unit carries no binary noise of the conversion:
    0.39 ms stays 0.39 (not 0.39000000000000007), 4.19 min is 251.4 s (not
    251.40000000000003), 19.64 min is 1178.4 s."""
    good, _ = july
    cell = {
        (row["table_index"], row["row_number"], row["column_index"]): row
        for row in good.iter_rows(named=True)
    }
    assert (cell[(2, 13, 9)]["raw_value"], cell[(2, 13, 9)]["value"]) == ("0.39", 0.39)
    assert (cell[(3, 3, 9)]["raw_value"], cell[(3, 3, 9)]["value"]) == ("4.19", 251.4)
    ttt = one(good, metric="time_to_train", system="Bow Pod16", model_canonical="ResNet-50 v1.5")
    assert ttt["value"] == 1178.4
    # Every converted value of the page: no more digits than its number and the factors
    # (1000 ms/s, 60 s/min: 1 digit each) together carry.
    converted = good.filter(pl.col("value") != pl.col("published_number"))
    assert converted.height == 11
    for row in converted.iter_rows(named=True):
        assert (
            significant_digits(row["value"]) <= significant_digits(row["published_number"]) + 2
        ), row


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("114 us", 0.000114),  # deepseek-ai/DeepEP README: 114 us, not 0.00011399999999999999
        ("2.2hr", 7920.0),  # microsoft/DeepSpeed chat blog: 2.2 hours, not 7920.000000000001
        ("1:02:03.3", 3723.3),
    ],
)
def test_durations_convert_to_the_seconds_they_print(text, seconds):
    from perfledger.schemas.cell_reading import read_cell

    (value,) = read_cell(text, None).values
    assert value.seconds == seconds


def test_a_scale_word_multiplies_as_printed():
    from perfledger.schemas.cell_reading import read_cell

    (value,) = read_cell("1.001 million", ".").values
    assert value.number == 1001000.0  # 1.001 * 1e6 is 1000999.9999999999
