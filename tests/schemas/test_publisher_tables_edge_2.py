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

