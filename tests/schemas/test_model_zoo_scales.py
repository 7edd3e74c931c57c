"""Model zoos naming a model family in one column and its size in the next ("Name | Scale":
"YOLOv8 | N"), as MindSpore's model zoos write them: each row's model is the sized one the
two cells read as together."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As mindspore-lab/mindyolo writes it (benchmark_results.md), rows of three families.
MINDYOLO = """# MindYOLO Benchmark and Baselines

## Detection
<details open markdown>
<summary><b>performance tested on Ascend 910(8p) with graph mode</b></summary>

| Name   |        Scale       | BatchSize | ImageSize | Dataset      | Box mAP (%) | Params |                Recipe                        | Download                                                                                                             |
|--------|        :---:       |   :---:   |   :---:   |--------------|    :---:    |  :---: |                :---:                         |        :---:       |
| YOLOv8 | N                  |  16 * 8   |    640    | MS COCO 2017 |    37.2     | 3.2M   | [yaml](./configs/yolov8/yolov8n.yaml)        | [weights](https://download.mindspore.cn/toolkits/mindyolo/yolov8/yolov8-n_500e_mAP372-cc07f5bd.ckpt)                 |
| YOLOv7 | Tiny               |  16 * 8   |    640    | MS COCO 2017 |    37.5     | 6.2M   | [yaml](./configs/yolov7/yolov7-tiny.yaml)    | [weights](https://download.mindspore.cn/toolkits/mindyolo/yolov7/yolov7-tiny_300e_mAP375-d8972c94.ckpt)              |
| YOLOv5 | X                  |  16 * 8   |    640    | MS COCO 2017 |    50.5     | 86.7M  | [yaml](./configs/yolov5/yolov5x.yaml)        | [weights](https://download.mindspore.cn/toolkits/mindyolo/yolov5/yolov5x_300e_mAP505-97d36ddc.ckpt)                  |
| YOLOX  | Darknet53          |   8 * 8   |    640    | MS COCO 2017 |    47.7     | 63.7M  | [yaml](./configs/yolox/yolox-darknet53.yaml) | [weights](https://download.mindspore.cn/toolkits/mindyolo/yolox/yolox-darknet53_300e_map477-b5fcaba9.ckpt)          |
</details>
"""


def test_a_family_and_its_size_in_two_cells_name_the_sized_model():
    found = fields_by_raw_value(MINDYOLO, "model", "model_canonical", "value")
    # the family alone is no model of the catalogue: these rows had none
    assert found["37.2"] == ("YOLOv8 N", "YOLOv8n", 37.2)
    assert found["50.5"] == ("YOLOv5 X", "YOLOv5x", 50.5)
    # a model of its own with its size beside it is the sized model, not the base one
    assert found["37.5"] == ("YOLOv7 Tiny", "YOLOv7-Tiny", 37.5)
    # a backbone in the size column is no size: the model stays as published
    assert found["47.7"] == ("YOLOX", "YOLOX", 47.7)


def test_a_count_of_processes_in_brackets_after_the_chip_is_its_device_count():
    # "Ascend 910(8p)", "Ascend 910*(8p)": eight processes, one per device
    found = fields_by_raw_value(MINDYOLO, "accelerator", "accelerator_count")
    assert found["37.2"] == ("Ascend 910", 8)
    star = MINDYOLO.replace("Ascend 910(8p) with graph mode", "Ascend 910*(8p)")
    assert fields_by_raw_value(star, "accelerator", "accelerator_count")["37.2"] == (
        "Ascend 910",
        8,
    )
    resolution = MINDYOLO.replace("Ascend 910(8p)", "Ascend 910 (720p)")
    assert fields_by_raw_value(resolution, "accelerator_count")["37.2"] == (None,)


def test_settings_named_in_camel_case_are_settings_not_unknown_results():
    result = normalized(MINDYOLO)
    # "BatchSize" and "ImageSize" were quarantined, 8 of them, as columns naming no metric
    assert result.quarantine.is_empty()
    found = fields_by_raw_value(MINDYOLO, "batch_size", "settings")
    assert found["37.2"] == (
        "16 * 8",
        "Scale=N; ImageSize=640; Params=3.2M; Recipe=yaml; Download=weights",
    )
    assert read_header("BatchSize").role == "batch_size"
    assert read_header("ImageSize").kind == "config"
    assert read_header("TorchScript").kind is None  # a name, not a script


# As mosaicml/llm-foundry writes it (scripts/train/benchmarking/README.md), one row of many.
LLM_FOUNDRY = """## H100 80GB BF16 (Large Scale, >= 128 GPUs)
|  Model | SeqLen (T) | # GPUs | GPU | MFU | HFU | Model TFLOP | MicroBatchSize | GradAccum | GlobalBatchSize | Throughput (S/s) | Throughput (T/s) | Throughput (T/s/GPU) | GlobalBatchSize (T) | Precision | MP Mode | Sharding Strategy | Activation Checkpointing | Activation CPUOffload | NumParams |
|  --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
|  70b | 2048 | 512 | h100_80gb | 41.25 | 55.0 | 408 | 8 | 1 | 4096 | 251 | 515636 | 1007 | 8388608 | amp_bf16 | DEFAULT | FULL_SHARD | True | False | 64862437376 |
"""


def test_batch_sizes_and_parameter_counts_in_camel_case_are_settings():
    result = normalized(LLM_FOUNDRY)
    # quarantined as columns naming no metric (the whole page loaded them as throughputs in
    # items/s: 4096, 8388608 and 64862437376 "per second"); "GradAccum" is a setting too
    assert result.quarantine.is_empty()
    assert "GradAccum=1" in fields_by_raw_value(LLM_FOUNDRY, "settings")["1007"][0]
    found = fields_by_raw_value(LLM_FOUNDRY, "metric", "unit")
    for setting in ("4096", "8388608", "64862437376"):
        assert setting not in found
    assert found["515636"] == ("throughput", "items/s")
    assert read_header("NumParams").role == "model_size"


# As mindspore-lab/mindyolo writes it (deploy/README.md): a model column naming the family, its
# size in the next.
MINDYOLO_DEPLOY = """## mindir支持列表

| model  | scale | img size | dataset | map| recipe | mindir|
|--------|:-----:|-----|--------|--------|--------|-------|
| YOLOv8 | N | 640 | MS COCO 2017 | 37.2 | [yaml](https://github.com/mindspore-lab/mindyolo/blob/master/configs/yolov8/yolov8n.yaml) | [mindir](https://download.mindspore.cn/toolkits/mindyolo/yolov8/yolov8-n_500e_mAP372-cc07f5bd-36a7ffec.mindir) |
| YOLOv8 | S  | 640  | MS COCO 2017 | 44.6 | [yaml](https://github.com/mindspore-lab/mindyolo/blob/master/configs/yolov8/yolov8s.yaml) | [mindir](https://download.mindspore.cn/toolkits/mindyolo/yolov8/yolov8-s_500e_mAP446-3086f0c9-137e9384.mindir) |
"""

# As mindspore-lab/mindyolo writes it (docs/zh/modelzoo/benchmark.md): a family with its task.
MINDYOLO_SEG = """## 图像分割
<details open markdown>
<summary><b>设备 Ascend 910(8p) 测试结果</b></summary>

| Name       | Scale | BatchSize | ImageSize | Dataset      | Box mAP (%) | Mask mAP (%) | Params |                Recipe                        | Download                                                                                                       |
|------------| :---: |   :---:   |   :---:   |--------------|    :---:    |     :---:    |  :---: |                :---:                         |        :---:       |
| YOLOv8-seg |   X   |  16 * 8   |    640    | MS COCO 2017 |     52.5    |     42.9     |  71.8M | [yaml](https://github.com/mindspore-lab/mindyolo/blob/master/configs/yolov8/seg/yolov8x-seg.yaml) | [weights](https://download.mindspore.cn/toolkits/mindyolo/yolov8/yolov8-x-seg_300e_mAP_mask_429-b4920557.ckpt) |
</details>
"""


def test_a_model_column_naming_the_family_and_a_size_column_name_the_sized_model():
    found = fields_by_raw_value(MINDYOLO_DEPLOY, "model", "model_canonical", "metric")
    assert found["37.2"] == ("YOLOv8 N", "YOLOv8n", "accuracy")
    assert found["44.6"] == ("YOLOv8 S", "YOLOv8s", "accuracy")


def test_a_family_named_with_its_task_is_the_rows_model_as_published():
    found = fields_by_raw_value(MINDYOLO_SEG, "model", "accelerator", "accelerator_count")
    assert found["52.5"] == ("YOLOv8-seg", "Ascend 910", 8)
    assert found["42.9"] == ("YOLOv8-seg", "Ascend 910", 8)
