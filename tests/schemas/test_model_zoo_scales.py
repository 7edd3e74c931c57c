"""Model zoos naming a model family in one column and its size in the next ("Name | Scale":
"YOLOv8 | N"), as MindSpore's model zoos write them: each row's model is the sized one the
two cells read as together."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

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
