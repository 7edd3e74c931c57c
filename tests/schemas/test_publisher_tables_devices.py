"""Tables of on-device and consumer-hardware publishers no corpus holds, written as their pages
write them: phones named by their retail names (the SoC inside is the chip, when every market
sells the phone with the same SoC), a product number that is no count ("OnePlus 12 devices"),
and a board cluster counted in a column header ("4 x RasPi 5 8 GB")."""

from __future__ import annotations

import pytest

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.platform_mentions import read_platform
from perfledger.schemas.precisions import precision_of_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As cactus-compute/cactus writes it (README.md, "Performance"): one row per phone, the phones
# of every maker by their retail names.
PHONES = """## Performance

| Device                        | Gemma-3 1B Q8 (toks/sec) | Qwen-2.5 1.5B Q8 (toks/sec) |
|:------------------------------|:------------------------:|:---------------------------:|
| iPhone 16 Pro Max             |            46            |             37              |
| OnePlus 13 5G                 |            37            |             -               |
| Samsung Galaxy S24 Ultra      |            36            |             -               |
| OnePlus Open                  |            33            |             -               |
| Samsung Galaxy S23 5G         |            32            |             -               |
| Galaxy S25 Ultra              |            25            |             -               |
| Redmi K70 Ultra               |            21            |             -               |
| Xiaomi 13                     |            20            |             -               |
| Samsung Galaxy S24+           |            19            |             -               |
| Samsung Galaxy Z Fold 4       |            18            |             -               |
| Xiaomi Poco F6 5G             |            17            |             -               |
"""


def test_a_phone_sold_with_one_soc_reads_as_that_soc():
    found = fields_by_raw_value(PHONES, "accelerator", "vendor", "accelerator_count")
    assert found["46"] == ("A18 Pro", "Apple", None)
    assert found["37"] == ("Snapdragon 8 Elite", "Qualcomm", None)
    assert found["36"] == ("Snapdragon 8 Gen 3", "Qualcomm", None)
    assert found["33"] == ("Snapdragon 8 Gen 2", "Qualcomm", None)
    assert found["32"] == ("Snapdragon 8 Gen 2", "Qualcomm", None)
    assert found["25"] == ("Snapdragon 8 Elite", "Qualcomm", None)
    assert found["21"] == ("Dimensity 9300+", "MediaTek", None)
    assert found["20"] == ("Snapdragon 8 Gen 2", "Qualcomm", None)
    assert found["18"] == ("Snapdragon 8+ Gen 1", "Qualcomm", None)
    assert found["17"] == ("Snapdragon 8s Gen 3", "Qualcomm", None)


def test_a_phone_sold_with_two_socs_keeps_its_own_name():
    # The Galaxy S24+ is an Exynos 2400 in some markets and a Snapdragon 8 Gen 3 in others.
    found = fields_by_raw_value(PHONES, "accelerator")
    assert found["19"] == ("Galaxy S24+",)


# As pytorch/executorch writes it (examples/models/llama/README.md, "Performance"): the phones
# in the paragraph above the table, one of them a product numbered 12, and a row per phone.
PHONE_PARAGRAPH = """### Performance

Llama 3 8B performance was measured on the Samsung Galaxy S22, S24, and OnePlus 12 devices. The \
performance measurement is expressed in terms of tokens per second using an adb binary-based \
approach.

|Device  | Groupwise 4-bit (128) | Groupwise 4-bit (256)
|--------| ---------------------- | ---------------
|Galaxy S22  | 7.85 tokens/second | 8.4 tokens/second |
|Galaxy S24 | 10.91 tokens/second | 11.21 tokens/second |
|OnePlus 12 | 10.85 tokens/second | 11.02 tokens/second |
"""


def test_a_phones_model_number_is_no_count_of_devices():
    result = normalized(PHONE_PARAGRAPH)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(
        PHONE_PARAGRAPH, "metric", "value", "unit", "accelerator", "accelerator_count"
    )
    assert found["7.85 tokens/second"] == ("throughput", 7.85, "items/s", "Galaxy S22", None)
    assert found["10.91 tokens/second"] == ("throughput", 10.91, "items/s", "Galaxy S24", None)
    assert found["10.85 tokens/second"] == (
        "throughput",
        10.85,
        "items/s",
        "Snapdragon 8 Gen 3",
        None,
    )


# As pytorch/executorch writes it (examples/models/llama/README.md): the phone the table ran on
# in the paragraph above it, an A100 named far above for the quantization method's training.
PHONE_ABOVE_THE_TABLE = """# Llama on ExecuTorch

SpinQuant only requires 100 iterations on a single A100 node.

### Performance

Llama 3.2 1B and 3B performance was measured on Android OnePlus 12 device. The performance \
measurement is expressed in terms of tokens per second.

|Model  | Decode (tokens/s) | Time-to-first-token (sec) | Prefill (tokens/s) |
|-------|------------------:|--------------------------:| ------------------:|
|1B BF16 (baseline) | 19.2 |  1.0 | 60.3  |
"""


def test_the_phone_of_the_tables_paragraph_is_the_chip_not_a_count():
    found = fields_by_raw_value(
        PHONE_ABOVE_THE_TABLE, "metric", "value", "accelerator", "accelerator_count"
    )
    assert found["19.2"] == ("throughput", 19.2, "Snapdragon 8 Gen 3", None)
    assert found["1.0"] == ("latency", 1000.0, "Snapdragon 8 Gen 3", None)


# As b4rtaz/distributed-llama wrote it (README.md at aec85b9, "Measurements"): a cluster of
# Raspberry Pi boards per column, "RasPi" for Raspberry Pi and the board count before it.
RASPI_CLUSTERS = """### Average Token Generation Time

| Model       | 1 x RasPi 5 8 GB | 2 x RasPi 5 8 GB | 4 x RasPi 5 8 GB |
|-------------|------------------|------------------|------------------|
| Llama 2 7B  | **441.09 ms**    | **341.46 ms**    | **219.08 ms** 🔥 |
"""


def test_a_cluster_of_raspberry_pi_boards_counts_its_boards():
    result = normalized(RASPI_CLUSTERS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(
        RASPI_CLUSTERS, "metric", "value", "unit", "accelerator", "vendor", "accelerator_count"
    )
    assert found["441.09 ms"] == ("latency", 441.09, "ms", "BCM2712", "Raspberry Pi", 1)
    assert found["341.46 ms"] == ("latency", 341.46, "ms", "BCM2712", "Raspberry Pi", 2)
    assert found["219.08 ms 🔥"] == ("latency", 219.08, "ms", "BCM2712", "Raspberry Pi", 4)


def test_a_chip_named_as_a_family_lends_its_number_to_no_count():
    # "RTX 4090 GPUs" in prose names a product line; its "4090 GPUs" counts nothing
    assert read_platform("The kernels run on RTX 4090 GPUs.", prose=True) is None
    assert read_platform("measured on 4 RTX 4090 GPUs", prose=True).count == 4


# As b4rtaz/distributed-llama wrote it (README.md at aec85b9, "Raspberry Pi 4B 8 GB"): each
# cell's time in bold, then in small print the parts it is made of (I - inference time of the
# root node, T - network transfer time), and "Not enough RAM" where the model did not fit.
BREAKDOWNS = """### Average Token Generation Time

I - inference time of the root node, T - network transfer time of the root node.

| Model       | 1 x RasPi 4B 8 GB                                                   | 2 x RasPi 4B 8 GB                                                     |
|-------------|---------------------------------------------------------------------|-----------------------------------------------------------------------|
| Llama 2 7B  | **1312.50 ms**<br><sub><sup>I: 1307.94 ms, T: 1.81 ms</sup></sub> | **793.69 ms**<br><sub><sup>I: 739.00 ms, T: 52.50 ms</sup></sub>    |
| Llama 2 13B | <sub><sup>Not enough RAM</sup></sub>                                | **1497.19 ms**<br><sub><sup>I: 1465.06 ms, T: 30.88 ms</sup></sub>  |

| Model       | 1 x RasPi 5 8 GB                                                    |
|-------------|---------------------------------------------------------------------|
| Llama 2 7B  | **441.09 ms**, 2.26 t/s<br><sub><sup>I: 434.84 ms, T: 5.25 ms</sup></sub> |
"""  # noqa: E501


def test_a_values_named_parts_in_small_print_are_its_remark():
    result = normalized(BREAKDOWNS)
    found = {
        (row["value"], row["unit"]): (
            row["metric"],
            row["qualifier"],
            row["accelerator"],
            row["accelerator_count"],
        )
        for row in result.measurements.iter_rows(named=True)
    }
    assert found[(1312.5, "ms")] == ("latency", "I: 1307.94 ms, T: 1.81 ms", "BCM2711", 1)
    assert found[(793.69, "ms")] == ("latency", "I: 739.00 ms, T: 52.50 ms", "BCM2711", 2)
    assert found[(441.09, "ms")] == ("latency", None, "BCM2712", 1)
    assert found[(2.26, "items/s")] == ("throughput", "I: 434.84 ms, T: 5.25 ms", "BCM2712", 1)
    assert result.measurements.height == 5


def test_a_model_too_large_for_the_board_is_a_placeholder():
    result = normalized(BREAKDOWNS)
    reasons = result.quarantine.select("check", "raw_value").rows()
    assert [(check, raw.strip()) for check, raw in reasons] == [
        ("placeholder_value", "Not enough RAM")
    ]


# As pytorch/executorch writes it (examples/models/llama/README.md, "Performance"): the memory
# a run used as "Memory size (RSS in MiB)", beside the size of the model's file.
MEMORY_SIZE = """### Performance

Llama 3.2 1B and 3B performance was measured on Android OnePlus 12 device.

|Model  | Decode (tokens/s) | Model size (PTE file size in MiB) | Memory size (RSS in MiB) |
|-------|------------------:|----------------------------------:| ------------------------:|
|1B BF16 (baseline) | 19.2 | 2,358 | 3,185 |
"""


def test_the_memory_a_run_used_is_a_figure_not_the_models_size():
    result = normalized(MEMORY_SIZE)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(MEMORY_SIZE, "metric", "value", "unit", "accelerator")
    assert found["3,185"] == ("other", 3185.0, "MiB", "Snapdragon 8 Gen 3")
    assert found["19.2"] == ("throughput", 19.2, "items/s", "Snapdragon 8 Gen 3")
    assert "2,358" not in found  # the model's file size is its configuration


@pytest.mark.parametrize("header", ["Memory size (RSS in MiB)", "Peak RSS", "RSS (MB)"])
def test_a_header_naming_resident_memory_heads_a_figure(header):
    reading = read_header(header)
    assert (reading.kind, reading.role) == ("metric", "other")


# As li-plus/chatglm.cpp writes it (README.md, "Performance"): one row per backend, the CPU
# named by its Xeon tier and number alone.
BACKEND_ROWS = """ChatGLM-6B:

|                                | Q4_0  | Q4_1  |
|--------------------------------|-------|-------|
| ms/token (CPU @ Platinum 8260) | 74    | 77    |
| ms/token (CUDA @ V100 SXM2)    | 8.1   | 8.7   |
| ms/token (MPS @ M2 Ultra)      | 11.5  | 12.3  |
"""


def test_a_xeon_named_by_its_tier_and_number_is_that_xeon():
    found = fields_by_raw_value(BACKEND_ROWS, "metric", "value", "accelerator", "vendor")
    assert found["74"] == ("latency", 74.0, "Xeon 8260", "Intel")
    assert found["8.1"] == ("latency", 8.1, "V100", "NVIDIA")
    assert found["11.5"] == ("latency", 11.5, "M2 Ultra", "Apple")


# As google-ai-edge/LiteRT-LM writes it (README.md): the phone's model on a second line, in
# brackets, and a laptop named with its chip.
LITERT_DEVICES = """Below are the performance numbers of running each model on various devices.

| Model | Device | Backend | Prefill (tokens/sec) | Decode (tokens/sec) |
| :--- | :--- | :--- | :--- | :--- |
| Gemma3-1B | MacBook Pro<br>(2023 M3) | CPU | 422.98 | 66.89 |
| Gemma3-1B | Samsung S24<br>(Ultra) | GPU | 1876.5 | 44.57 |
"""


def test_a_samsung_phone_without_the_word_galaxy_reads_as_its_soc():
    found = fields_by_raw_value(LITERT_DEVICES, "metric", "accelerator")
    assert found["422.98"] == ("throughput", "M3")
    assert found["1876.5"] == ("throughput", "Snapdragon 8 Gen 3")


def test_a_gguf_type_heading_a_column_gives_its_weights_dtype():
    # BACKEND_ROWS heads its columns "Q4_0", "Q4_1": llama.cpp's 4-bit weight types, the
    # activations they run in unstated
    found = fields_by_raw_value(BACKEND_ROWS, "weight_dtype", "activation_dtype")
    assert found["74"] == ("int4", None)
    assert found["77"] == ("int4", None)


@pytest.mark.parametrize(
    ("text", "weight"),
    [("Q4_0", "int4"), ("Q5_1", "int5"), ("Q8_0", "int8"), ("Q4_K_M", "int4"), ("IQ4_XS", "int4")],
)
def test_gguf_types_written_with_underscores_are_weight_precisions(text, weight):
    assert precision_of_header(text, comparison=False).weight == weight


# As Qualcomm's AI Hub model cards write their results (the Hugging Face card of
# MobileNet-v3-Small): a row per device and runtime, the device beside the chipset inside it.
DEVICE_AND_CHIPSET = """# MobileNet-v3-Small: Optimized for Mobile Deployment

| Model | Precision | Device | Chipset | Target Runtime | Inference Time (ms) | Peak Memory \
Range (MB) | Primary Compute Unit | Target Model
|---|---|---|---|---|---|---|---|---|
| MobileNet-v3-Small | float | QCS8550 (Proxy) | Qualcomm® QCS8550 (Proxy) | TFLITE | 0.776 ms \
| 0 - 50 MB | NPU | [MobileNet-v3-Small.tflite](https://huggingface.co/qualcomm/MobileNet-v3-Small/b\
lob/main/MobileNet-v3-Small.tflite) |
| MobileNet-v3-Small | float | SA8775P ADP | Qualcomm® SA8775P | QNN_DLC | 1.071 ms | 1 - 22 MB \
| NPU | [MobileNet-v3-Small.dlc](https://huggingface.co/qualcomm/MobileNet-v3-Small/blob/main/Mo\
bileNet-v3-Small.dlc) |
| MobileNet-v3-Small | float | Samsung Galaxy S24 | Snapdragon® 8 Gen 3 Mobile | ONNX | 0.434 ms \
| 0 - 37 MB | NPU | [MobileNet-v3-Small.onnx.zip](https://huggingface.co/qualcomm/MobileNet-v3-Sma\
ll/blob/main/MobileNet-v3-Small.onnx.zip) |
"""


def test_the_chipset_beside_a_device_no_vocabulary_knows_is_the_rows_chip():
    found = fields_by_raw_value(
        DEVICE_AND_CHIPSET, "platform", "accelerator", "vendor", "activation_dtype"
    )
    # the Galaxy S24 is sold with two SoCs: its own row names the one it ran on
    assert found["0.434 ms"] == ("Samsung Galaxy S24", "Snapdragon 8 Gen 3", "Qualcomm", "fp32")
    # Qualcomm's automotive SoCs, by their development platform's name or the chipset's
    assert found["1.071 ms"] == ("SA8775P ADP", "SA8775P", "Qualcomm", "fp32")
    assert found["0.776 ms"] == ("QCS8550 (Proxy)", "QCS8550", "Qualcomm", "fp32")
    assert read_platform("SA8650 (Proxy)").accelerator == "SA8650P"


# As more-ane-transformers' Neural Engine benchmarks name their Macs: a year, the model as its
# owners abbreviate it ("MBP", "Air") and the chip. Read as chips "MBP M1" and "Air M2".
MACS_ABBREVIATED = """## gpt2

All gpt2 timings use a performance-optimized (but equally accurate) version of coremltools.

|Device     |gpt2 (124M)|gpt2-medium (350M)|
|-|-|-|
|2021 MBP M1|26ms*      |27ms              |
|2022 Air M2|21ms*      |23ms              |
"""


def test_a_mac_named_by_its_abbreviation_reads_as_its_chip():
    found = fields_by_raw_value(MACS_ABBREVIATED, "accelerator", "metric", "value", "unit")
    assert found["26ms*"] == ("M1", "latency", 26.0, "ms")
    assert found["23ms"] == ("M2", "latency", 23.0, "ms")
    assert read_platform("2021 MBP M1").accelerator == "M1"
    assert read_platform("2022 Air M2").accelerator == "M2"
