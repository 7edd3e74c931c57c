"""Reading gaps found on model-zoo pages of accelerator makers no corpus held: the chip a
page's table of supported environments names, applied to the results tables after it; models
a page defines by their input, heading columns of timings in a unit stated once ("unit is
ms"); values named each in one cell ("Acc@1=76.02,FPS=330,Time=4d3h，BatchSize=280"); a card
of runs headed by mixed precision in Chinese ("FP16混合精度"), no accuracy."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.cell_reading import CellValue, read_cell
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.units import stated_units, unit_named
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As Deep-Spark/DeepSparkInference's models/cv/object_detection/yolov5s/ixrt/README.md lists
# the GPU its examples run on in a table of its own, then its results with no chip.
ILUVATAR_YOLOV5S = """# YOLOv5s (IxRT)

## Model Description

The YOLOv5 architecture is designed for efficient and accurate object detection tasks in \
real-time scenarios.

## Supported Environments

| GPU | [IXUCA SDK](https://gitee.com/deep-spark/deepspark) | Release | Branch |
| :----: | :----: | :----: | :----: |
| MR-V100 | 4.4.0 | 26.03 | release/26.03 |
| MR-V100 | 4.3.0 | 25.12 | release/25.12 |

## Model Inference

### FP16

```bash
bash scripts/infer_yolov5s_fp16_performance.sh
```

## Model Results

| Model   | BatchSize | Precision | FPS     | MAP@0.5 | MAP@0.5:0.95 |
| :----: | :----: | :----: | :----: | :----: | :----: |
| YOLOv5s | 32        | FP16      | 1112.66 | 0.565   | 0.370        |
| YOLOv5s | 32        | INT8      | 2440.54 | 0.557   | 0.351        |
"""

# As Deep-Spark/DeepSparkHub's models/cv/classification/resnet50/pytorch/README.md lists two
# GPUs: the environments disagree, and name the chip of no table.
ILUVATAR_RESNET50_TWO_GPUS = """# ResNet50

## Supported Environments

| GPU    | IXUCA SDK | Release |
| :----: | :----: | :----: |
| BI-V150 | 4.2.0     |  25.03  |
| BI-V100 | 2.2.0     |  22.09  |

## Model Results

| Convergence criteria | Configuration (x denotes number of GPUs) | Accuracy |
|----------------------|------------------------------------------|----------|
| top1 75.9%           | SDK V2.2,bs:512,8x,AMP                   | 76.43%   |
"""


def test_the_one_chip_of_a_table_of_supported_environments_is_the_chip_of_the_results():
    found = fields_by_raw_value(
        ILUVATAR_YOLOV5S, "model", "accelerator", "vendor", "precision", "metric", "value"
    )
    assert found["1112.66"] == ("YOLOv5s", "MR-V100", "Iluvatar", "FP16", "throughput", 1112.66)
    assert found["2440.54"] == ("YOLOv5s", "MR-V100", "Iluvatar", "INT8", "throughput", 2440.54)
    assert found["0.351"] == ("YOLOv5s", "MR-V100", "Iluvatar", "INT8", "accuracy", 0.351)
    assert len(found) == 6  # the environments' SDK versions and releases are no results


def test_environments_of_two_chips_name_the_chip_of_no_table():
    found = fields_by_raw_value(ILUVATAR_RESNET50_TWO_GPUS, "accelerator", "metric", "value")
    assert found == {"76.43%": (None, "accuracy", 76.43)}


# As sipeed/TinyMaix's benchmark.md defines its test models by their input, states the unit of
# its timings once, then times each model on a chip per row.
TINYMAIX_BENCHMARK = """# Benchmark
## Test Models
### mnist
mnist: 28x28x1 input,4->8->16, pad valid
mnist_q_valid.h   2.4KB Flash 1.4KB RAM
### cifar
cifar: 32x32x3 input, 32->32->64->1024->10, 5x5 conv
cifar10_q.h 89KB Flash 11KB RAM

## Test Record
model infer time unit is ms;
Sort by performance, compare priority: mbnet128 > vww96 > cifar > mnist

|Chip/Board  |Core      |Flash|RAM     |Freq |mbnet|vww96|cifar|mnist|Note|
|---         |---       |---  |---     |---  |---  |---  |---  |---  |---|
|RK3399's A72|ARM A72   | 32GB|     4GB|1800M| 15  | 10  |  3  | 0.07||
|STM32H750   |ARM CM7   |  1MB|  1024KB| 480M| 94  | 64  | 15  | <1  ||
|ESP32-S3    |Xtensa LX7|  8MB|   512KB| 240M| 610 | 381 |  86 |  5  |mdl in flash|
"""


def test_a_model_the_page_defines_by_its_input_heads_that_models_timings_in_the_stated_unit():
    rows = normalized(TINYMAIX_BENCHMARK).measurements.filter(
        pl.col("column_name").is_in(["cifar", "mnist"])
    )
    found = {
        (row["column_name"], row["raw_value"]): (
            row["accelerator"],
            row["metric"],
            row["value"],
            row["unit"],
        )
        for row in rows.iter_rows(named=True)
    }
    assert found[("cifar", "3")] == ("RK3399", "latency", 3.0, "ms")
    assert found[("mnist", "0.07")] == ("RK3399", "latency", 0.07, "ms")
    assert found[("cifar", "15")] == ("STM32H750", "latency", 15.0, "ms")
    assert found[("cifar", "86")] == ("ESP32-S3", "latency", 86.0, "ms")
    assert found[("mnist", "5")] == ("ESP32-S3", "latency", 5.0, "ms")
    assert len(found) == 5  # "<1" is a bound, set apart


def test_a_unit_stated_with_is_is_the_unit_of_the_pages_numbers():
    assert stated_units("model infer time unit is ms;") == [unit_named("ms")]
    assert stated_units("All units are: ms") == [unit_named("ms")]


# As Deep-Spark/DeepSparkHub's models/cv/classification/resnet50/pytorch/README.md writes each
# run's accuracy, speed, time and batch size in one cell, named each, a precision per column.
ILUVATAR_RESNET50_RESULTS = """# ResNet50

## Model Results

| Model    | GPU        | FP32                                            | AMP+NHWC                                      |
|----------|------------|-------------------------------------------------|-----------------------------------------------|
| ResNet50 | BI-V100 x1 | Acc@1=76.02,FPS=330,Time=4d3h，BatchSize=280    | Acc@1=75.56,FPS=550,Time=2d13h，BatchSize=300 |
| ResNet50 | BI-V100 x8 | Acc@1=74.98,FPS=2150,Time=12h43m，BatchSize=300 | Acc@1=76.43,FPS=4200,Time=8h，BatchSize=480   |
"""


def test_values_named_each_in_one_cell_load_with_a_unit_named_for_the_value_and_no_setting():
    assert read_cell("Acc@1=76.02,FPS=330,Time=4d3h，BatchSize=280").values == (
        CellValue(76.02, qualifier="Acc@1"),
        CellValue(330.0, unit_named("FPS"), qualifier="FPS"),
        CellValue(356400.0, unit_named("s"), seconds=356400.0, qualifier="Time", spelled=True),
    )
    rows = normalized(ILUVATAR_RESNET50_RESULTS).measurements
    found = {
        (row["row_number"], row["column_name"], row["metric"]): (
            row["accelerator"],
            row["accelerator_count"],
            row["precision"],
            row["value"],
            row["unit"],
        )
        for row in rows.iter_rows(named=True)
    }
    assert found[(1, "FP32", "accuracy")] == ("BI-V100", 1, "FP32", 76.02, "score")
    assert found[(1, "FP32", "throughput")] == ("BI-V100", 1, "FP32", 330.0, "items/s")
    assert found[(2, "AMP+NHWC", "throughput")] == ("BI-V100", 8, "AMP", 4200.0, "items/s")
    assert found[(2, "AMP+NHWC", "time_to_train")] == ("BI-V100", 8, "AMP", 28800.0, "s")
    assert not any(value == 280.0 for value in rows.get_column("value"))  # a batch size


# As EnflameTechnology/ModelZoo's inference_models/onnx/vision/resnet/README.md sets a card of
# each run's resources, date, software, dataset and precision over its accuracies.
ENFLAME_RESNET_CARD = """### 模型精度

| 参数 | GCU <br>（FP16混合精度）| GCU <br>（FP32） | CPU <br>（FP32）|
| :--------------------------: | :--------------------------: | :--------------------------: | :--------------------------: |
| 资源 | Enflame 云燧i20 2.60GHz, 内存 16G; 系统 Linux | Enflame 云燧i20 2.60GHz, 内存 16G; 系统 Linux | X86_64 Intel CPU, 2.10GHZ, 内存 32G; 系统 Linux|
| 上传日期 | 2022-12-02 | 2022-12-02 | 2022-12-02 |
| onnxruntime-topsinference版本 | 1.9.1 | 1.9.1 | 1.9.1 |
| 数据集 | Imagenet | Imagenet | Imagenet |
| 测试精度 | FP16混合精度 | FP32 | FP32 |
| acc1 | 0.76126 | 0.7613 | 0.7613 |
| acc5 | 0.92862 | 0.92862 | 0.92862 |
"""


def test_mixed_precision_in_chinese_names_a_precision_not_an_accuracy():
    reading = read_header("FP16混合精度")
    assert (reading.kind, reading.precision.activation if reading.precision else None) == (
        None,
        "fp16",
    )
    assert read_header("测试精度").role == "accuracy"  # 精度 alone is still an accuracy
    assert read_header("acc1").role == "accuracy"


def test_a_card_of_runs_loads_its_accuracies_with_each_runs_card_and_precision_only():
    rows = normalized(ENFLAME_RESNET_CARD)
    found = {
        (row["row_number"], " ".join(row["column_name"].split(" / ")[0].split())): (
            row["accelerator"],
            row["precision"],
            row["dataset"],
            row["metric"],
            row["value"],
        )
        for row in rows.measurements.iter_rows(named=True)
    }
    assert found[(5, "GCU （FP16混合精度）")] == (  # acc1
        "CloudBlazer I20",
        "FP16混合精度",
        "Imagenet",
        "accuracy",
        0.76126,
    )
    assert found[(6, "CPU （FP32）")] == (None, "FP32", "Imagenet", "accuracy", 0.92862)  # acc5
    assert len(found) == 6  # the upload date, the runtime's version, no results
    assert rows.quarantine.height == 0


# As Deep-Spark/DeepSparkInference's models/cv/classification/dinov3/igie/README.md lists the
# one environment its example runs in.
ILUVATAR_DINOV3_ONE_ENVIRONMENT = """# Dinov3 (IGIE)

## Supported Environments

| GPU    | [IXUCA SDK](https://gitee.com/deep-spark/deepspark) | Release |
| :----: | :----: | :----: |
| MR-V100 | 5.0.0 | 26.09 |

## Model Results

| Model            | BatchSize | Precision | FPS     | Top-1(%) | Top-5(%) |
| :----: | :----: | :----: | :----: | :----: | :----: |
| Dinov3 | 32        | FP32      | 827.994 | 77.26   | 94.04     |
"""


def test_a_table_of_one_supported_environment_names_the_chip_of_the_results():
    found = fields_by_raw_value(ILUVATAR_DINOV3_ONE_ENVIRONMENT, "accelerator", "metric", "value")
    assert found == {
        "827.994": ("MR-V100", "throughput", 827.994),
        "77.26": ("MR-V100", "accuracy", 77.26),
        "94.04": ("MR-V100", "accuracy", 94.04),
    }


# As Deep-Spark/DeepSparkHub's models/cv/classification/resnet50/pytorch/README.md writes the
# power of each of 8 GPUs after it ("128\*8"), the unit in the header.
ILUVATAR_RESNET50_CONVERGENCE = """## Model Results

| Convergence criteria | Configuration (x denotes number of GPUs) | Performance | Accuracy | Power（W） | Scalability | Memory utilization（G） | Stability |
|----------------------|------------------------------------------|-------------|----------|------------|-------------|-------------------------|-----------|
| top1 75.9%           | SDK V2.2,bs:512,8x,AMP                   | 5221        | 76.43%   | 128\\*8     | 0.97        | 29.1\\*8                 | 1         |
"""


def test_a_value_written_before_a_count_of_devices_is_each_devices_in_the_headers_unit():
    assert read_cell("128*8").values == (CellValue(128.0, qualifier="each of 8"),)
    assert read_cell("8*64GB").values == (CellValue(64.0, unit_named("GB"), qualifier="each of 8"),)
    found = fields_by_raw_value(ILUVATAR_RESNET50_CONVERGENCE, "value", "unit", "qualifier")
    assert found["128*8"] == (128.0, "W", "each of 8")
    assert found["29.1*8"][0::2] == (29.1, "each of 8")


# As Deep-Spark/DeepSparkInference's models/cv/object_detection/centerpoint/igie/README.md
# scores its 3D detections by nuScenes' mAP and NDS.
ILUVATAR_CENTERPOINT = """## Model Results

nuScenes **v1.0-mini** val (**81** samples), FP16 single SO:

| Model       | BatchSize | Precision | Dataset FPS | Single-frame FPS (wall) | mAP    | NDS    |
| :---------: | :-------: | :-------: | :---------: | :---------------------: | :----: | :----: |
| CenterPoint | 1         | FP16      | ~6.8–7.0    | ~55–60                  | 0.4165 | 0.4855 |
"""


def test_the_nuscenes_detection_score_is_a_score_of_the_model_not_a_speed():
    found = fields_by_raw_value(ILUVATAR_CENTERPOINT, "column_name", "metric", "value")
    assert found["0.4855"] == ("NDS", "accuracy", 0.4855)
    assert found["0.4165"] == ("mAP", "accuracy", 0.4165)


def test_a_run_of_xs_says_the_model_could_not_run_there():
    # TinyMaix's benchmark.md: "Note3: XXX means impossible run this model on that chip"
    for text in ("XXX", "xxx", "XXXX"):
        assert read_cell(text).problem == "placeholder_value"
    row = "|CH32V203G6  |RV32</br>QingKe V4B| 32KB|    10KB| 144M| XXX | XXX | XXX | 2.5  ||\n"
    rows = normalized(TINYMAIX_BENCHMARK + row)
    found = rows.quarantine.filter(pl.col("column_name") == "cifar")
    assert found.select("raw_value", "check").rows() == [("XXX", "placeholder_value")]


# As Iluvatar's DeepSparkInference writes DINOv2's results under ixRT
# (models/cv/classification/dinov2/ixrt/README.md): a "Metric" column of values named each by
# a word before them, no colon between.
DINOV2_IXRT_RESULTS = """## Model Results

Measured on BI-V150 ×1, CoreX 4.5.0 `ml-inference`, input 224×224.

| Model | Task | BatchSize | Precision | FPS | Metric |
| --------------- | ----------------- | --------- | --------- | ------- | ---------------------- |
| DINOv2-base | Feature extract | 1 | FP16 | 196.29 | latency 5.093 ms |
| DINOv2-base | Feature extract | 32 | FP16 | 401.39 | latency 2.491 ms/img |
| DINOv2-base | Feature extract | 1 | FP32 | 91.36 | latency 10.945 ms |
| DINOv2-base | Feature extract | 32 | FP32 | 176.58 | latency 5.663 ms/img |
| DINOv2-base | vs ORT CPU FP32 | 32 | FP16 | — | embed cos min **0.999972** |
| DINOv2-base | leave-one-out 1-NN | 32 | FP16 | — | top-1 **0.8060** (= ORT) |
"""


def test_a_metric_column_of_values_named_by_a_word_loads_them_and_loses_none():
    result = normalized(DINOV2_IXRT_RESULTS)
    latencies = {
        row["raw_value"]: (row["metric"], row["value"], row["unit"], row["activation_dtype"])
        for row in result.measurements.iter_rows(named=True)
        if row["column_name"] == "Metric"
    }
    assert latencies == {
        "latency 5.093 ms": ("latency", 5.093, "ms", "fp16"),
        "latency 2.491 ms/img": ("latency", 2.491, "ms", "fp16"),
        "latency 10.945 ms": ("latency", 10.945, "ms", "fp32"),
        "latency 5.663 ms/img": ("latency", 5.663, "ms", "fp32"),
    }
    # the two figures that name no metric this page's words define are set apart, not lost
    set_apart = set(result.quarantine.get_column("raw_value").to_list())
    assert {"embed cos min 0.999972", "top-1 0.8060 (= ORT)"} <= set_apart
