"""Reading gaps found on model-zoo pages of accelerator makers no corpus held: the chip a
page's table of supported environments names, applied to the results tables after it."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

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
