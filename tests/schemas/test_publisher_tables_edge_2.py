"""Tables of edge accelerator and SoC publishers no corpus holds, written as their pages write
them: an SoC vendor's model list naming its chip in the title ("Model list for RZ/V2H"), and
an accelerator's model zoo naming the card its throughput was measured on ("Metis 1x M.2
card"), where the card's form factor is no chip."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As renesas-rz/rzv_drp-ai_tvm writes it (docs/model_list/Model_List_V2H.md): the SoC in the
# title and in the evaluation board's name, the inference time with and without its NPU.
RZ_MODEL_LIST = """# Model list for RZ/V2H

| Item                       | RZ/V2H                                    |
| -------------------------- | ----------------------------------------- |
| DRP-AI TVM[^1]             | v2.4.0 / v2.5.0 [^2] /v2.7.0 [^3]         |
| Evaluation Board           | RZ/V2H EVK                                |

| AI model | Input Shape | Task | Format | Inference time<br>(CPU only) | Inference time<br>(CPU+DRP-AI) |
|----------|-------------|------|--------|------------------------------|--------------------------------|
| [ResNet18-v1](https://github.com/onnx/models/blob/main/validated/vision/classification/resnet/model/resnet18-v1-7.onnx) |(224,224) | Classification | ONNX | 4450ms|2ms|
| [YOLOv5s](./how_to_convert/How_to_convert_yolov5_onnx_models_V2H.md)[^2] |(640,640) | Object Detection | ONNX | 1454ms|19ms|
"""


def test_a_renesas_rz_soc_named_in_the_title_is_the_chip_of_every_row():
    result = normalized(RZ_MODEL_LIST)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(RZ_MODEL_LIST, "metric", "value", "unit", "accelerator", "vendor")
    assert found["4450ms"] == ("latency", 4450.0, "ms", "RZ/V2H", "Renesas")
    assert found["19ms"] == ("latency", 19.0, "ms", "RZ/V2H", "Renesas")


def test_a_format_column_naming_a_framework_gives_the_framework_not_a_precision():
    found = fields_by_raw_value(RZ_MODEL_LIST, "framework", "precision", "unresolved")
    assert found["4450ms"] == ("ONNX", None, None)


# As axelera-ai-hub/voyager-sdk writes it (docs/reference/model_zoo.md, "Supported models and
# performance characteristics"): the reference platforms in a list above the table, each a host
# CPU with one Metis card, the card's form factor ("PCIe", "M.2") naming no chip.
METIS_CARDS = """## Supported models and performance characteristics

The tables below list all model zoo models supported by this release of the Voyager SDK. The
tables provide the host throughput in frames per second (FPS) which is measured from the host
side when running inference on the following reference platform:

* Intel Core i9-13900K CPU with Metis 1x PCIe card
* Intel Core i5-1145G7E CPU with Metis 1x M.2 card

### Image Classification
| Model | Resolution | Dataset | Ref FP32 accuracy | Ref PCIe FPS | Ref M.2 FPS |
| :---- |:--------- | :---------- | ----------------: | -----------: | ----------: |
| [EfficientNet-B0](/ax_models/zoo/torchvision/classification/efficientnet_b0-imagenet.yaml) | 224x224 | ImageNet-1K | 77.67 | 1307 | 1309 |
"""


def test_a_cards_form_factor_is_no_chip_and_the_card_counts_one_metis():
    result = normalized(METIS_CARDS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(
        METIS_CARDS, "metric", "unit", "accelerator", "accelerator_count", "vendor"
    )
    assert found["1307"] == ("throughput", "items/s", "Metis", 1, "Axelera")
    assert found["1309"] == ("throughput", "items/s", "Metis", 1, "Axelera")
    assert found["77.67"][:3] == ("accuracy", "%", "Metis")


# As TexasInstruments/edgeai-modelzoo writes it (models/vision/detection/readme.md, "EdgeAI-
# YOLOv5 Models"): the model's work per frame in "GigaMACS", accuracies with "%" glued to the
# header's last word.
GIGAMACS = """### EdgeAI-YOLOv5 Models

YOLOv5 models have very good accuracy and are good candidates for low complexity inference.

|Dataset |Model Name                      |Input Size |GigaMACS  |AP[0.5:0.95]%| AP50%|Available|Notes |
|--------|------------------------------- |-----------|----------|-------------|------|---------|----- |
|COCO    |Yolov5s6_ti_lite_640            |640x640    |**8.74**  |**37.4**     | 56.0 |Y        |      |
|COCO    |Yolov5s6_ti_lite_576            |576x576    |**7.08**  |**36.6**     | 55.7 |         |(Train@ 640, val@576) |
"""


def test_a_models_giga_macs_are_its_size_and_a_glued_percent_is_the_unit():
    result = normalized(GIGAMACS)
    assert result.quarantine.height == 0
    assert sorted(result.measurements["value"].to_list()) == [36.6, 37.4, 55.7, 56.0]
    found = fields_by_raw_value(GIGAMACS, "metric", "value", "unit", "model", "settings")
    assert found["37.4"][:4] == ("accuracy", 37.4, "%", "Yolov5s6_ti_lite_640")
    assert found["56.0"][:3] == ("accuracy", 56.0, "%")
    assert "GigaMACS=8.74" in found["37.4"][4]


# The same zoo's segmentation page (models/vision/segmentation/readme.md): "MeanIoU%".
MEAN_IOU = """### EdgeAI-Torchvision

|Dataset    |Model Name                     |Input Size |GigaMACs  |MeanIoU%       |Available|Notes |
|-----------|------------------------------ |-----------|----------|---------------|---------|------|
|ADE20K32   |MobileNetV2S16+DeepLabV3Lite   |512x512    |3.28      |51.01          |Y        |      |
"""


def test_a_mean_iou_written_as_one_word_is_an_accuracy_in_percent():
    result = normalized(MEAN_IOU)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(MEAN_IOU, "metric", "value", "unit", "dataset")
    assert found == {"51.01": ("accuracy", 51.01, "%", "ADE20K32")}


# The same zoo's classification page (models/vision/classification/readme.md, "Tensorflow TPU
# Models"): models designed for the Edge TPU, grouped under "Edge TPU models", their accuracy
# measured in float, on no chip.
EDGETPU_MODELS = """### Tensorflow TPU Models

|Dataset  |Model Name                   |Input Size|GigaMACs|Top-1 Accuracy%|Available|Notes |
|---------|-----------------------------|----------|--------|---------------|---------|------|
|*Edge TPU models*
|ImageNet |EfficeintNet-EdgeTPU-S[7,9]  |224x224   |2.353   |77.23          |Y        |      |
|ImageNet |MobileNetV1[1]               |224x224   |0.569   |71.0           |Y        |      |
"""


def test_a_chip_a_models_name_is_built_for_is_not_the_chip_it_ran_on():
    found = fields_by_raw_value(EDGETPU_MODELS, "model", "accelerator", "unit")
    assert normalized(EDGETPU_MODELS).quarantine.height == 0
    assert found["77.23"] == ("EfficeintNet-EdgeTPU-S[7,9]", None, "%")
    assert found["71.0"] == ("MobileNetV1[1]", None, "%")


# renesas-rz/rzv_drp-ai_tvm's RZ/V2L model list: a model not yet measured on the CPU alone.
TBD = """# Model list for RZ/V2L

| AI model | Input Shape | Task | Format | Inference time<br>(CPU only) | Inference time<br>(CPU+DRP-AI) |
|----------|-------------|------|--------|------------------------------|--------------------------------|
|[YOLOv8n](./how_to_convert/How_to_convert_yolov8_onnx_models_V2L.md)|(640,640)|Object Detection|ONNX|T.B.D|168ms|
"""


def test_a_dotted_tbd_is_no_value_published():
    result = normalized(TBD)
    assert result.quarantine["check"].to_list() == ["placeholder_value"]
    found = fields_by_raw_value(TBD, "metric", "value", "accelerator")
    assert found == {"168ms": ("latency", 168.0, "RZ/V2L")}


# The same zoo's detection page ("EdgeAI-MMDetection"): short rows label the groups of rows
# under them, the label emphasized in the model column after a blank or dashed cell, and a
# row of a dash alone rules groups apart.
GROUP_ROWS = """### EdgeAI-MMDetection

|Dataset | Model Name                        | Input Size | GigaMACS  | AP[0.5:0.95]%, AP50% |Available|Notes |
|--------|-----------------------------------|------------|-----------|----------------------|---------|----- |
|        | **SSD models**
|COCO    | MobileNetV2+FPN+SSDLite           | 512x512    | **2.29**  | **27.2**, 45.7       |Y        |      |
|-
|COCO    | ResNet50+FPN+SSD                  | 512x512    | **30.77** | **31.2**, 52.2       |Y        |      |
|-       | **YOLOX models**
|COCO    | YOLOX-s-Lite                      | 640x640    | **13.43** | **38.3**, 56.9       |Y        |      |
|*Lite models*
|COCO    | YOLOX-tiny-Lite                   | 416x416    | **3.240** | **30.5**, 47.4       |Y        |      |
"""


def test_short_rows_of_an_emphasized_label_group_the_rows_and_a_dash_row_is_a_rule():
    result = normalized(GROUP_ROWS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(GROUP_ROWS, "table_title", "model", "value")
    assert found["27.2, 45.7"][:2] == (
        "EdgeAI-MMDetection \u2014 SSD models",
        "MobileNetV2+FPN+SSDLite",
    )
    assert found["31.2, 52.2"][:2] == ("EdgeAI-MMDetection \u2014 SSD models", "ResNet50+FPN+SSD")
    assert found["38.3, 56.9"][:2] == ("EdgeAI-MMDetection \u2014 YOLOX models", "YOLOX-s-Lite")
    assert found["30.5, 47.4"][:2] == ("EdgeAI-MMDetection \u2014 Lite models", "YOLOX-tiny-Lite")
    assert result.measurements.height == 8


# As hailo-ai/hailo_model_zoo writes it (docs/public_models/HAILO8L/HAILO8L_pose_estimation.rst):
# an icon after a network's name, a substitution defined as an image above the table, marks
# the networks of the vendor's benchmark.
HAILO_ICONS = """Public Pre-Trained Models
=========================

.. |rocket| image:: ../../images/rocket.png
  :width: 18

* Network available in Hailo Benchmark are marked with |rocket|

COCO
^^^^

.. list-table::
   :header-rows: 1

   * - Network Name
     - float
     - Hardware Degradation
     - FPS (Batch Size=1)
   * - yolov8m_pose |rocket|
     - 61.37
     - 58.48
     - 48
"""


def test_an_icons_substitution_after_a_models_name_is_no_part_of_it():
    found = {
        row["raw_value"]: (row["model"], row["metric"])
        for row in normalized(HAILO_ICONS, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert found["48"] == ("yolov8m_pose", "throughput")
    assert found["61.37"] == ("yolov8m_pose", "accuracy")
