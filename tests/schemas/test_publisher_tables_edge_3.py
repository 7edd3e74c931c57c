"""Tables of edge NPU publishers no corpus holds, written as their pages write them: a Chinese
model zoo naming its frame rate "帧率", its float and quantized accuracies "浮点Top-1" and
"量化Top-1", a latency or throughput column qualified by its threads "(单线程)", and a note
rating the board's NPU "10TOPS等效int8算力"; a technical report whose header row is left
empty and whose column names, led by bit widths ("32bit-acc", "8bit-acc"), stand in the first
body row."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.precisions import precision_of_header, read_precision_label
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As D-Robotics/rdk_model_zoo writes it (samples/vision/classification/ConvNeXt/README_cn.md):
# the board in the paragraph, the NPU's rating in a note under the table.
RDK_CONVNEXT = """# CNN - ConvNeXt

## 2. 模型性能数据

以下表格是在 RDK X5 & RDK X5 Module 上实际测试得到的性能数据，可以根据自己推理实际需要的性能和精度，对模型的大小做权衡取舍

| 模型 | 尺寸(像素)  | 类别数  | 参数量(M) | 浮点Top-1  | 量化Top-1  | 延迟/吞吐量(单线程) | 延迟/吞吐量(多线程) | 帧率 |
| ----------------- | ------- | ---- | ------ | ----- | ----- | ----------- | ----------- | ------ |
| ConvNeXt_nano  | 224x224 | 1000 | 15.59  | 77.37 | 71.75 | 5.71        | 19.80       | 200.18 |
| ConvNeXt_pico  | 224x224 | 1000 | 9.04   | 77.25 | 71.03 | 3.37        | 10.88       | 364.07 |

说明:
1. X5的状态为最佳状态：CPU为8xA55@1.8G, 全核心Performance调度, BPU为1xBayes-e@1G, 共10TOPS等效int8算力。
"""


def test_a_chinese_frame_rate_column_is_a_throughput_in_frames_per_second():
    found = fields_by_raw_value(RDK_CONVNEXT, "metric", "value", "unit", "accelerator")
    assert found["200.18"] == ("throughput", 200.18, "items/s", "Sunrise X5")
    assert found["364.07"] == ("throughput", 364.07, "items/s", "Sunrise X5")
    assert read_header("Frame rate").role == "throughput"


def test_a_latency_or_throughput_column_qualified_by_its_threads_loads_neither():
    # one number under "latency/throughput (single-threaded)" may be either: quarantined with
    # its reason, as the English header is, never loaded as a throughput
    result = normalized(RDK_CONVNEXT)
    quarantined = dict(zip(result.quarantine["raw_value"], result.quarantine["check"], strict=True))
    assert quarantined["5.71"] == "unknown_metric"
    assert quarantined["19.80"] == "unknown_metric"
    assert read_header("延迟/吞吐量(单线程)").alternatives
    assert read_header("吞吐量(单线程)").role == "throughput"


def test_the_float_columns_accuracy_is_fp32_and_the_npus_rating_sets_no_precision():
    found = fields_by_raw_value(RDK_CONVNEXT, "metric", "precision", "weight_dtype")
    assert found["77.37"] == ("accuracy", "浮点", "fp32")
    # the quantized column states no dtype; "10TOPS等效int8算力" rates the NPU, not the runs
    assert found["71.75"] == ("accuracy", None, None)
    assert found["200.18"] == ("throughput", None, None)


def test_a_rating_in_tops_with_its_precision_is_read_as_no_precision_of_the_runs():
    from perfledger.schemas.context_words import without_ratings

    assert "int8" not in without_ratings("共10TOPS等效int8算力")
    assert "INT8" not in without_ratings("measured on the Hailo-8, 26 TOPS INT8, with batch 1")
    assert "INT8" not in without_ratings("INT8: 26 TOPS")
    assert without_ratings("Results in INT8 precision") == "Results in INT8 precision"
    assert precision_of_header("mAP (float)", False).weight == "fp32"
    assert precision_of_header("Float Ops", False) is None


# As TexasInstruments/edgeai-tensorlab writes it (docs/tech_reports/20240901-speed-accuracy-
# analysis-of-object-detection-models/README.md, "Effect of mixed-precision"): an empty header
# row, the column names in the first body row.
TI_MIXED_PRECISION = """## **Effect of mixed-precision**

We see a drop in accuracy when we run the full model in 8bit mode.

|     |     |     |     |     |     |     |
| --- | --- | --- | --- | --- | --- | --- |
| models\\_name | non-lite-model-acc | lite-model-acc | 32bit-acc | 8bit-acc | 8bit-acc-mp | GMACs |
| yolov8\\_small | 44.2 | 42.4 | 41.44 | 39.881021 | 40.702836 | 14.3337 |
| yolov7\\_large | 51  | 48.1 | 46.93 | 42.242723 | 46.63116 | 52.9457 |
|     |     |     |     |     |     |     |
"""


def test_column_names_led_by_bit_widths_under_an_empty_header_row_name_the_columns():
    result = normalized(TI_MIXED_PRECISION)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(TI_MIXED_PRECISION, "column_name", "metric", "value")
    assert found["41.44"] == ("32bit-acc", "accuracy", 41.44)
    assert found["39.881021"] == ("8bit-acc", "accuracy", 39.881021)
    assert found["46.63116"] == ("8bit-acc-mp", "accuracy", 46.63116)
    # the header row's names are no values
    assert "32bit-acc" not in found
    assert "14.3337" not in found  # the model's GMACs: a property of the row, no result


def test_a_bit_width_naming_a_column_is_the_precision_of_its_values():
    found = fields_by_raw_value(TI_MIXED_PRECISION, "precision", "activation_dtype", "weight_dtype")
    assert found["41.44"] == ("32bit", "fp32", "fp32")
    assert found["39.881021"] == ("8bit", "int8", "int8")
    assert found["46.63116"] == ("8bit", "int8", "int8")
    # the heading names what the section studies, not the precision of the other columns
    assert found["44.2"] == (None, None, None)
    assert precision_of_header("8bits Accuracy", False).activation == "int8"
    assert precision_of_header("Speed (4-bit)", False).weight == "int4"
    # widths compared, or a width no dtype is published in, name no precision
    assert precision_of_header("8-bit vs 16-bit", False) is None
    assert precision_of_header("64-bit", False) is None
    assert read_precision_label("16 bit").activation == "fp16"


# As D-Robotics/rdk_model_zoo writes it (samples/vision/ultralytics_yolo/README_cn.md,
# "Benchmark - Accuracy"): the quantized model's mAP with its ratio to the float model's in
# brackets.
RDK_YOLO_ACCURACY = """## Benchmark - Accuracy
### RDK X5
#### Object Detection (COCO2017)
| Model | Pytorch | YUV420SP<br/>Python |
|---------|---------|-------|
| YOLOv5nu | 0.275 | 0.260(94.55%) |
| YOLOv5su | 0.362 | 0.354(97.79%) |
"""


def test_a_percent_in_brackets_after_an_accuracy_is_its_ratio_not_a_second_accuracy():
    result = normalized(RDK_YOLO_ACCURACY)
    rows = {
        (row["raw_value"], row["value"]): (row["metric"], row["unit"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert rows[("0.275", 0.275)] == ("accuracy", "score")
    assert rows[("0.260(94.55%)", 0.26)] == ("accuracy", "score")
    assert rows[("0.260(94.55%)", 94.55)] == ("other", "%")
    assert rows[("0.354(97.79%)", 97.79)] == ("other", "%")


# As the same report writes it ("Performance on TIDL"): an empty header row of seven cells
# over rows of six, the models' names in the first of them, a metric and a setting leading
# each row of values.
TI_PERFORMANCE_ON_TIDL = """## **Performance on TIDL**

|                          |     |     |     |     |     |     |
|--------------------------| --- | --- | --- | --- | --- | --- |
|                          |     | yolov7\\_large | yolov5\\_small | yolov4\\_csp | yolov7\\_tiny |
| **Accuracy AP\\[.5:.95\\]%** | **without\\_tidl** | 42.126174 | 30.196424 | 40.028126 | 30.724629 |
|                          |     |     |     |     |     |     |
| **Inference Time (ms)**  | **without\\_tidl** | 6671.132608 | 1088.245636 | 7560.71492 | 956.867193 |
| **Inference Time (ms)**       | **tidl\\_25\\_100** | 46.604622 | 13.175834 | 44.581183 | 11.941207 |
"""


def test_an_empty_header_row_wider_than_every_row_under_it_leaves_the_rows_placed():
    result = normalized(TI_PERFORMANCE_ON_TIDL)
    assert "row_width_mismatch" not in result.quarantine["check"].to_list()
    found = fields_by_raw_value(TI_PERFORMANCE_ON_TIDL, "metric", "value", "unit")
    assert found["42.126174"] == ("accuracy", 42.126174, "%")
    assert found["6671.132608"] == ("latency", 6671.132608, "ms")
    assert found["11.941207"] == ("latency", 11.941207, "ms")


# As the same report writes it ("Tuning detection threshold for better accuracy"): the models
# in the first body row over their groups of columns, the columns' names in the second, led by
# a bit width ("8bits Accuracy") or by "float".
TI_THRESHOLDS = """## **Tuning detection threshold for better accuracy**

|     |     |     |     |     |     |     |
| --- | --- | --- | --- | --- | --- | --- |
|     | yolov7\\_tiny |     |     | ssd\\_regnetx\\_200mf\\_320 |     |     |
|     | Inference Time (ms) | 8bits Accuracy | float Accuracy | Inference Time (ms) | 8bits Accuracy | float Accuracy |
| ConfidenceTh=0.3 Topk=200 | 11.92091 | 29.82639 | 30.538 | 6.10956 | 15.602666 | 17.33 |
| ConfidenceTh=0.01 Topk=1000 | 13.016959 | 35.542307 | 35.75 | 149.33048 | 16.936272 | 20.63 |
"""


def test_column_names_led_by_a_bit_width_under_model_groups_are_a_level_of_the_header():
    result = normalized(TI_THRESHOLDS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(TI_THRESHOLDS, "column_name", "metric", "unit", "precision")
    assert found["11.92091"] == ("yolov7_tiny / Inference Time (ms)", "latency", "ms", None)
    assert found["29.82639"] == ("yolov7_tiny / 8bits Accuracy", "accuracy", "%", "8bits")
    assert found["30.538"] == ("yolov7_tiny / float Accuracy", "accuracy", "%", "float")
    assert found["149.33048"] == (
        "ssd_regnetx_200mf_320 / Inference Time (ms)",
        "latency",
        "ms",
        None,
    )


# As the RDK YOLO page writes its classification accuracies: top-1 and top-5 parted by " / ",
# each with its ratio to the float model's in brackets.
RDK_YOLO_CLASSIFICATION = """## Benchmark - Accuracy
### RDK X5
#### Image Classification (ImageNet2012)
| Model | Pytorch | YUV420SP - Python<br/>TOP1 / TOP5 |
|---------|---------|-------|
| YOLOv8n-CLS | 0.690 / 0.883 | 0.525(76.09%) / 0.762(86.30%) |
"""


def test_a_series_of_accuracies_each_with_a_ratio_in_brackets_loses_none():
    result = normalized(RDK_YOLO_CLASSIFICATION)
    assert result.quarantine.height == 0
    rows = sorted(
        (row["value"], row["metric"])
        for row in result.measurements.iter_rows(named=True)
        if row["raw_value"] == "0.525(76.09%) / 0.762(86.30%)"
    )
    # the top-5 accuracy 0.762 was dropped without a trace
    assert rows == [(0.525, "accuracy"), (0.762, "accuracy"), (76.09, "other"), (86.3, "other")]


# As the RDK YOLO page writes its detection accuracies: a column for the C/C++ runs holding
# only the template of a value not filled in, "(%)".
RDK_YOLO_DETECTION = """## Benchmark - Accuracy
### RDK X5
#### Object Detection (COCO2017)
| Model | Pytorch | YUV420SP<br/>Python | YUV420SP<br/>C/C++ |
|---------|---------|-------|---------|
| YOLOv5nu | 0.275 | 0.260(94.55%) | (%) |
| YOLOv5su | 0.362 | 0.354(97.79%) | (%) |
"""


def test_a_column_of_placeholders_publishes_no_value_and_names_no_row():
    result = normalized(RDK_YOLO_DETECTION)
    found = fields_by_raw_value(RDK_YOLO_DETECTION, "row_label", "metric", "value")
    assert found["0.275"] == ("YOLOv5nu", "accuracy", 0.275)  # was "YOLOv5nu / (%)"
    assert found["0.362"] == ("YOLOv5su", "accuracy", 0.362)
    assert result.quarantine["check"].to_list() == ["placeholder_value", "placeholder_value"]
    assert result.quarantine["raw_value"].to_list() == ["(%)", "(%)"]


# As a paper's notes write their preprocessing costs ("Preprocessing metrics" of a PIR scheme's
# summary): each time of a series with its run in brackets, one thread then eight.
THREADED_TIMES = """#### Preprocessing metrics

| Metric | Asymptotic | Concrete (100 GB) | Phase |
|--------|-----------|-------------------|-------|
| Amortized offline time per query | -- | 13.2 ms (1 thread) / 2.2 ms (8 threads) | Amortized over Q = sqrt(n) ln n queries |
"""


def test_a_series_of_times_each_with_its_run_in_brackets_loses_none():
    result = normalized(THREADED_TIMES)
    rows = sorted(
        (row["value"], row["unit"], row["qualifier"])
        for row in result.measurements.iter_rows(named=True)
        if row["raw_value"] == "13.2 ms (1 thread) / 2.2 ms (8 threads)"
    )
    # the eight-thread time was dropped without a trace
    assert rows == [(2.2, "ms", "8 threads"), (13.2, "ms", "1 thread")]


# The English page of the same model (samples/vision/classification/ConvNeXt/README.md): the
# float model's accuracy under "Floating point precision".
RDK_CONVNEXT_EN = """## 2. Model performance data

The following table shows the performance data obtained from actual testing on RDK X5 & RDK X5 Module.

| Model        | Size    | Categories | Parameter | Floating point precision | Quantization accuracy | Latency/throughput (single-threaded) | Latency/throughput (multi-threaded) | Frame rate(FPS) |
| ------------ | ------- | ---- | ------ | ----- | ----- | ----------- | ----------- | ------- |
| ConvNeXt_nano  | 224x224 | 1000 | 15.59  | 77.37 | 71.75 | 5.71        | 19.80       | 200.18 |
| ConvNeXt_pico  | 224x224 | 1000 | 9.04   | 77.25 | 71.03 | 3.37        | 10.88       | 364.07 |
"""


def test_a_float_models_precision_over_decimals_is_its_accuracy_not_a_numeric_format():
    found = fields_by_raw_value(RDK_CONVNEXT_EN, "row_label", "metric", "precision")
    # was a precision label "77.37" joined to the row's label, no value
    assert found["77.37"] == (
        "ConvNeXt_nano / 224x224 / 1000 / 15.59",
        "accuracy",
        "Floating point",
    )
    assert found["71.75"][1:] == ("accuracy", None)
    assert found["200.18"][1:] == ("throughput", None)
    assert read_header("Recall").role == "accuracy"
