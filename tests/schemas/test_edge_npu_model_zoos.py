"""Model zoos and benchmark pages of MCU and edge-NPU publishers no corpus holds, quoted as
their pages write them: MLPerf Tiny submitters' result summaries, an MCU vendor's model zoo,
an SoC vendor's reference timings in RST and an NPU vendor's per-model performance tables."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As mlcommons/tiny_results_v1.1 closed/Krai/results/README.md writes it: the rate and the
# energy in each cell, abbreviated with a period ("inf./sec", "uJ/inf.").
KRAI_TINY = """## Krai results for Tiny MLperf Benchmarks
#### X-CUBE-AI-7.3.0
| Board | Benchmark | Performance v1.1| Accuracy v1.1 | Energy v1.1 |
|-|-|-|-|-|
| NUCLEO_L4R5ZI | Anomaly Detection |131.949 inf./sec|Top-1: 77.8%, AUC: 0.86|  529.299 uJ/inf |
| | Image Classification | 4.407 inf./sec | Top-1: 85.0%, AUC: 0.99 | 17755.446 uJ/inf. |
"""

# As STMicroelectronics/stm32ai-modelzoo writes it (image_classification/mobilenetv2/README.md):
# the rate in a column headed by its unit alone, abbreviated ("Inf / sec").
STM32_NPU_TIMES = """### Reference **NPU**  inference time on food-101 and ImageNet dataset (see Accuracy for details on dataset)
| Model  | Dataset          | Format | Resolution  | Board            | Execution Engine | Inference time (ms) | Inf / sec   | STM32Cube.AI version  |  STEdgeAI Core version |
|--------|------------------|--------|-------------|------------------|------------------|---------------------|-------|----------------------|-------------------------|
| [MobileNet v2 0.35 fft](./ST_pretrainedmodel_public_dataset/food-101/mobilenet_v2_0.35_128_fft/mobilenet_v2_0.35_128_fft_int8.tflite) | food-101      | Int8     | 128x128x3  | STM32N6570-DK   |   NPU/MCU      | 3.33 | 300.30 |       10.0.0        |     2.0.0   |
"""  # noqa: E501


def test_inferences_abbreviated_with_a_period_are_a_rate_and_an_energy_per_inference():
    result = normalized(KRAI_TINY)
    assert "unknown_metric" not in result.quarantine["check"].to_list()
    found = fields_by_raw_value(KRAI_TINY, "metric", "value", "unit", "item_kind")
    assert found["131.949 inf./sec"] == ("throughput", 131.949, "items/s", "inferences")
    assert found["4.407 inf./sec"] == ("throughput", 4.407, "items/s", "inferences")
    metric, joules, unit, _items = found["17755.446 uJ/inf."]
    assert (metric, unit) == ("other", "J/inference")
    assert abs(joules - 0.017755446) < 1e-12


def test_a_column_headed_by_an_abbreviated_rate_alone_is_a_throughput():
    result = normalized(STM32_NPU_TIMES)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(STM32_NPU_TIMES, "metric", "value", "unit", "item_kind")
    assert found["300.30"] == ("throughput", 300.3, "items/s", "inferences")
    assert found["3.33"] == ("latency", 3.33, "ms", None)
