"""Model zoos of embedded NPUs no corpus holds, quoted as their pages write them: a header
spanning a model's family and its size, accuracies of the float and the quantized model beside
the row's quantization, and download links named by their files."""

from __future__ import annotations

from perfledger.schemas.model_names import read_model
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As telechips-ai/TCC750x-Model-Zoo writes it (Classification/README.md): "Model" spans two
# columns, the family and its size; "Accuracy" spans the float and the quantized model's.
TCC750X_CLASSIFICATION = """# Classification Benchmark on TCC750x

<table border="1" cellspacing="0" cellpadding="5">
    <thead>
    <tr>
        <th rowspan="2" colspan="2">Model</th>
        <th rowspan="2">Framework</th>
        <th rowspan="2">Dataset</th>
        <th rowspan="2">Input Size (WxHxC)</th>
        <th rowspan="2">Inference Time (ms)</th>
        <th colspan="2">Accuracy</th>
        <th rowspan="2">Quantization Bit</th>
    </tr>
    <tr>
        <th>FP32</th>
        <th>INT8</th>
    </tr>
    </thead>
    <tbody>
        <tr>
            <td align="center" colspan="1"><a href="ConvMixer/README.md">ConvMixer</a></td>
            <td align="center" rowspan="1" class="variant"><a href="ConvMixer/convmixer_768_32/">768-32</a></td>
            <td align="center">PyTorch </td>
            <td align="center">ILSVRC 2012</td>
            <td align="center">224x224x3</td>
            <td align="center">133.05</td>
            <td align="center">0.531</td>
            <td align="center">0.484</td>
            <td align="center">INT8 </td>
        </tr>
        <tr>
            <td align="center" colspan="1"><a href="EfficientNet/README.md">EfficientNet</td>
            <td align="center" rowspan="1" class="variant"><a href="EfficientNet/efficientnet_lite0/">Lite0</a></td>
            <td align="center">PyTorch</td>
            <td align="center">ILSVRC 2012</td>
            <td align="center">224x224x3</td>
            <td align="center">1.26</td>
            <td align="center">0.714</td>
            <td align="center">0.711</td>
            <td align="center">INT8 </td>
        </tr>
        <tr>
            <td align="center" colspan="2"><a href="LeNet5/README.md">LeNet5</a></td>
            <td align="center">PyTorch</td>
            <td align="center">MNIST</td>
            <td align="center">32x32x1</td>
            <td align="center">0.05</td>
            <td align="center">0.986</td>
            <td align="center">0.982</td>
            <td align="center">INT8 </td>
        </tr>
        <tr>
            <td align="center" colspan="1" rowspan="1"><a href="MobileNet/README.md">MobileNet-v2</a></td>
            <td align="center" colspan="1"><a href="MobileNet/mobilenet_v2_10/">10</a></td>
            <td align="center">MXNet</td>
            <td align="center">ILSVRC 2012</td>
            <td align="center">224x224x3</td>
            <td align="center">1.24</td>
            <td align="center">0.698</td>
            <td align="center">0.688</td>
            <td align="center">INT8</td>
        </tr>
    </tbody>
</table>
"""  # noqa: E501

# As the same zoo writes its detectors (Object_Detection/README.md): sizes whose letters the
# family's name holds ("l" of "YOLOv5", "x" of "YOLOX"), and a size not published ("-").
TCC750X_DETECTION = """# Object Detection Benchmark on TCC750x

<table border="1" cellspacing="0" cellpadding="5">
    <thead>
        <tr>
            <th align="center" colspan="2">Model</th>
            <th>Framework</th>
            <th>Dataset</th>
            <th>Inference Time (ms)</th>
        </tr>
    </thead>
    <tbody>
        <tr>
            <td align="center" class="model"><a href="YOLO/yolov3/README.md">YOLOv3</a></td>
            <td align="center" class="variant">-</td>
            <td align="center">PyTorch</td>
            <td align="center">COCO2017</td>
            <td align="center">63.6</td>
        </tr>
        <tr>
            <td align="center" rowspan="2" class="model"><a href="YOLO/yolov5/README.md">YOLOv5</a></td>
            <td align="center" class="variant"><a href="YOLO/yolov5/yolov5l/">l</a></td>
            <td align="center">PyTorch</td>
            <td align="center">COCO2017</td>
            <td align="center">71.64</td>
        </tr>
        <tr>
            <td align="center" class="variant"><a href="YOLO/yolov5/yolov5x/">x</a></td>
            <td align="center">PyTorch</td>
            <td align="center">COCO2017</td>
            <td align="center">132.03</td>
        </tr>
        <tr>
            <td align="center" class="model"><a href="YOLO/yoloX/README.md">YOLOX</a></td>
            <td align="center" class="variant"><a href="YOLO/yoloX/yolox_x/">x</a></td>
            <td align="center">PyTorch</td>
            <td align="center">COCO2017</td>
            <td align="center">135.6</td>
        </tr>
    </tbody>
</table>
"""

# As Eyenix/en675_model_zoo writes it (README.md): each model's ONNX file linked by its name,
# which starts with the model's input size.
EN675_DOWNLOADS = """## EN675 NPU Model Zoo

#### :arrow_forward: Object Detection

|Model|ONNX|Compile Results|Cfg|Total DRAM Size|Inference Speed (Standard)|Inference Speed (Boost)|
|:-----:|:---:|:---:|:---:|:---:|:---:|:---:|
|320_320_eyenix_model_v1|[320_320_eyenix_model_v1.onnx](https://github.com/Eyenix/en675_model_zoo/files/9623478/320_320_eyenix_model_v1.zip)|[od6class_320.bin](https://github.com/Eyenix/en675_model_zoo/files/9623476/od6class_320.zip)|[od6class_320.cfg](https://github.com/Eyenix/en675_model_zoo/files/12812959/od6class_320.zip)|11MB|26ms|13ms|
|512_512_eyenix_model_v1|[512_512_eyenix_model_v1.onnx](https://github.com/Eyenix/en675_model_zoo/files/9466030/512_512_eyenix_model_v1.zip)|[od6class_512.bin](https://github.com/Eyenix/en675_model_zoo/files/9466035/od6class_512.zip)|[od6class_512.cfg](https://github.com/Eyenix/en675_model_zoo/files/12812963/od6class_512.zip)|18MB|37ms|20ms|

**class** : Face

|Model|ONNX|Compile Results|Cfg|Total DRAM Size|Inference Speed (Standard)|Inference Speed (Boost)|
|:-----:|:---:|:---:|:---:|:---:|:---:|:---:|
|320_320_eyenix_model_face_v1|[320_320_eyenix_model_face_v1.onnx](https://github.com/Eyenix/en675_model_zoo/files/9925051/320_320_eyenix_model_face_v1.zip)|[face_320.bin](https://github.com/Eyenix/en675_model_zoo/files/9925052/face_320.zip)|[face_320.cfg](https://github.com/Eyenix/en675_model_zoo/files/12812980/face_320.zip)|12MB|22ms|11ms|
"""  # noqa: E501


def test_a_model_header_spanning_two_columns_names_the_family_and_its_size_together():
    found = fields_by_raw_value(TCC750X_CLASSIFICATION, "model", "model_canonical")
    assert found["133.05"] == ("ConvMixer 768-32", "ConvMixer 768-32")
    assert found["1.26"] == ("EfficientNet Lite0", "EfficientNet-Lite0")
    # a name spanning both columns is written once
    assert found["0.05"] == ("LeNet5", "LeNet5")


def test_a_size_whose_letter_the_family_holds_and_a_size_left_blank():
    found = fields_by_raw_value(TCC750X_DETECTION, "model", "model_canonical")
    assert found["63.6"] == ("YOLOv3", "YOLOv3")
    assert found["71.64"] == ("YOLOv5 l", "YOLOv5l")
    assert found["132.03"] == ("YOLOv5 x", "YOLOv5x")
    assert found["135.6"] == ("YOLOX x", "YOLOX-X")


def test_a_width_after_the_version_keeps_the_version_of_the_model():
    # "MobileNet-v2 | 10" (mobilenet_v2_10): MobileNet v2, not MobileNet v1 of revision v2
    found = fields_by_raw_value(TCC750X_CLASSIFICATION, "model_canonical")
    assert found["1.24"] == ("MobileNet v2",)
    assert read_model("MobileNet-v2 10").canonical == "MobileNet v2"
    assert read_model("resnet50-v2-7").canonical == "ResNet-50 v2"


def test_columns_of_the_float_and_the_quantized_model_keep_their_precisions():
    found = fields_by_raw_value(TCC750X_CLASSIFICATION, "metric", "precision", "weight_dtype")
    # "Accuracy / FP32" beside "Quantization Bit | INT8": the float model's accuracy
    assert found["0.531"] == ("accuracy", "FP32", "fp32")
    assert found["0.484"] == ("accuracy", "INT8", "int8")
    # the time, under no precision of its own, is the quantized model's the row names
    assert found["133.05"] == ("latency", "INT8", "int8")


def test_a_download_link_named_by_its_file_is_no_value():
    result = normalized(EN675_DOWNLOADS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(EN675_DOWNLOADS, "model", "metric", "value", "unit")
    assert set(found) == {"26ms", "13ms", "37ms", "20ms", "22ms", "11ms"}
    assert found["22ms"] == ("320_320_eyenix_model_face_v1", "latency", 22.0, "ms")


# As mobilint/mblt-model-zoo writes it (mblt_model_zoo/vision/README.md): the NPU build's
# accuracy beside the float model's on a GPU, each column naming its device in brackets.
MOBILINT_ACCURACY = """### Image Classification

| Model | Input Size<br>(H,W,C) | Acc<sup>Top1</sup><br>(NPU) | Acc<sup>Top1</sup><br>(GPU) | FLOPs (B) | params (M) | Source | Note |
| --- | --- | --- | --- | --- | --- | --- | --- |
| AlexNet | (224,224,3) | 56.084 | 56.556 | 1.43 | 61.10 | [Link](https://docs.pytorch.org/vision/stable/models/generated/torchvision.models.alexnet.html) |  |
"""  # noqa: E501

# As Eyenix/en675_model_zoo writes it (README.md): the page names its NPU, and the mAP of the
# model before quantizing was measured on a GPU.
EN675_ACCURACY = """## EN675 NPU Model Zoo

### :trophy: Performance
#### :arrow_forward: Object Detection

|Model|mAP at IOU = 0.50 (GPU)|mAP at IOU = 0.50 (NPU)| test file |
|:-----:|:---:|:---:|:---:|
|320_320_eyenix_model_v1|74.5|73.3|[VOC320_quantized.zip](https://github.com/Eyenix/en675_model_zoo/files/9669475/VOC320_quantized.zip)|
"""  # noqa: E501


def test_columns_naming_their_devices_in_brackets_keep_them_apart():
    found = fields_by_raw_value(MOBILINT_ACCURACY, "metric", "platform", "accelerator")
    assert found["56.084"] == ("accuracy", "NPU", None)
    assert found["56.556"] == ("accuracy", "GPU", None)


def test_the_pages_npu_is_not_the_chip_of_a_column_measured_on_a_gpu():
    found = fields_by_raw_value(EN675_ACCURACY, "platform", "accelerator")
    assert found["73.3"] == ("EN675 NPU", "EN675")
    assert found["74.5"] == ("GPU", None)


# As Brainchip-Inc/models writes it (README.md): the model under "Architecture", its
# quantization as a width in bits alone, and a regression model's "MSE".
AKIDA_ZOO = """## Models

| Domain        | Use case          | Architecture                                                              | Resolution | Dataset       | #Params | Quantization | Accuracy | F1 Score | MSE   | Minimal #Nodes |
|---------------|-------------------|---------------------------------------------------------------------------|------------|---------------|---------|--------------|----------|----------|-------|----------------|
| Vision        | Classification    | [MobileNetV2 1.0](vision/classification/mobilenetv2/imagenet)             | 224        | ImageNet      | 3.5M    | 8            | 70.35%   |          |       | 7              |
| Vision        | Classification    | [spatiotemporal](vision/classification/spatiotemporal/FallVision)         | 224        | FallVision    | 1.34M   | 8            | 98.36%   |          |       | 16             |
| Synthetic     | Regression        | [MLP](synthetic/regression/MLP/1D_Curve)                                  | 1          | 1D_Curve      | 6.2K    | 8            |          |          | 0.136 | 1 ☁️          |
| Vision        | Detection         | [AkidaNet18/CenterNet](vision/detection/akidanet18_centernet/soda_bottles)| 224        | Soda_bottle   | 2.43M   | 8            | 91.53%   |          |       | 6 ☁️         |
"""  # noqa: E501


def test_an_architecture_column_names_the_model_and_a_bare_width_its_bits():
    result = normalized(AKIDA_ZOO)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(AKIDA_ZOO, "model", "metric", "value", "weight_dtype")
    assert found["70.35%"] == ("MobileNetV2 1.0", "accuracy", 70.35, "int8")
    assert found["98.36%"] == ("spatiotemporal", "accuracy", 98.36, "int8")
    assert found["91.53%"] == ("AkidaNet18/CenterNet", "accuracy", 91.53, "int8")
    # a mean squared error is the model's quality, as a mean absolute error is
    assert found["0.136"] == ("MLP", "accuracy", 0.136, "int8")
