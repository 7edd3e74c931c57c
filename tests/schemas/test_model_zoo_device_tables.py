"""Model zoo pages that time each model on one board per section, the board named in the
section's heading, beside columns giving the memory the run used on the board's GPU and CPU
("GPU Memory (MB)", "CPU Memory (MB)"): a figure of the board's parts, which splits no table by
device, so the latency is the board's."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As Nota-NetsPresso/netspresso-trainer writes it (docs/benchmarks/device_matrix/tensorrt.md):
# JetPack, then the board, then the precision as headings; the memory columns beside the time.
JETSON_ORIN_NANO = """# TensorRT

Note that the latency value only measures the time for the model's computation and does not include the time on data preprocessing or postprocessing.

## JetPack 6.0

### Jetson Orin Nano

#### FP16

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | MixNet-s | (224, 224) | 3 | 6.33559 | 12.0 | 1.0 | onnx_opset=13 |
| Classification | ResNet50 | (224, 224) | 3 | 4.80201 | 48.0 | - | onnx_opset=13 |
"""


def test_a_boards_latency_beside_its_gpu_and_cpu_memory_is_the_boards():
    found = fields_by_raw_value(
        JETSON_ORIN_NANO, "metric", "value", "unit", "accelerator", "activation_dtype"
    )
    assert found["6.33559"] == ("latency", 6.33559, "ms", "Jetson Orin Nano", "fp16")
    assert found["4.80201"] == ("latency", 4.80201, "ms", "Jetson Orin Nano", "fp16")
    assert found["48.0"][:1] == ("other",)


# The same site's TFLite, OpenVINO and DRP-AI pages (device_matrix/tflite.md, openvino.md,
# drpai.md): boards and processors named as their makers write them, without the slash or the
# hyphen of the names the vocabulary knew ("RZ V2L", "Xeon W-2233", "Raspberry Pi Zero 2 W").
BOARD_SECTIONS = """# DRP-AI

## Renesas RZ V2L

### FP16

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | ResNet18 | (224, 224) | 3 | 23.9425 | - | - | onnx_opset=13 |

## Intel Xeon W-2233

### FP16

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | EfficientFormer-l1 | (224, 224) | 3 | 5.65 | - | - | onnx_opset=13 |

## Raspberry Pi Zero 2 W

### INT8

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | MobileNetV3-small | (224, 224) | 3 | 95.6823 | - | 1.0 | onnx_opset=13 |
"""


def test_boards_and_processors_named_without_their_slash_or_hyphen_are_known():
    found = fields_by_raw_value(BOARD_SECTIONS, "metric", "accelerator", "vendor", "system")
    assert found["23.9425"] == ("latency", "RZ/V2L", "Renesas", "RZ/V2L")
    assert found["5.65"] == ("latency", "Xeon W-2233", "Intel", "Xeon W-2233")
    assert found["95.6823"] == ("latency", "BCM2710", "Raspberry Pi", "Raspberry Pi Zero 2 W")
    # a placeholder for a memory not measured is set apart, never read as a number
    assert normalized(BOARD_SECTIONS).quarantine.height == 5


# As IGWPark/rbln-bench writes it (README.md): the Rebellions card by its product code.
RBLN_CARD = """## 📈 Sample Results (NPU: RBLN-CA22)

### Peak Throughput by Context

| Model      |   Context |   Peak Throughput (tok/s) |   Peak Utilization (%) |   Power (W) |   Efficiency (tok/s/W) |
|:-----------|----------:|--------------------------:|-----------------------:|------------:|-----------------------:|
| Qwen3-0.6B |      1000 |                       117 |                   72.8 |        56   |                   2.08 |
"""


def test_a_rebellions_card_named_by_its_product_code_is_an_atom():
    found = fields_by_raw_value(RBLN_CARD, "metric", "value", "accelerator", "vendor")
    assert found["117"] == ("throughput", 117.0, "ATOM", "Rebellions")


# The same page's per-batch table (README.md, "Per-Batch Breakdown"): the context length of
# each run under "Context", and the work per watt under "Efficiency (tok/s/W)".
RBLN_BATCHES = """## 📈 Sample Results (NPU: RBLN-CA22)

📊 Per-Batch Breakdown

| Model      |   Context |   Batch |   Throughput (tok/s) |   Utilization (%) |   Power (W) |   Efficiency (tok/s/W) |   Req/Batch |
|:-----------|----------:|--------:|---------------------:|------------------:|------------:|-----------------------:|------------:|
| Qwen3-0.6B |      1000 |       4 |                   86 |              38.5 |        51.8 |                   1.67 |           1 |
"""


def test_a_context_column_is_the_runs_length_and_work_per_watt_no_scaling():
    found = fields_by_raw_value(RBLN_BATCHES, "metric", "value", "unit", "batch_size", "settings")
    assert "1000" not in found  # the context length of the run, no value
    assert found["86"][:3] == ("throughput", 86.0, "items/s")
    assert found["86"][3] == "4"
    assert "Context=1000" in found["86"][4]
    assert found["1.67"][:3] == ("other", 1.67, "tokens/s/W")
