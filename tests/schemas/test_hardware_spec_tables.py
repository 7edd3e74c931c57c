"""A table of hardware specifications ("Spec | A100 | H100 | ..." over Year, Transistors,
TDP, SMs, peak TFLOPS) says what the chips are: its numbers are no results of a run, and a
paragraph's metric near it ("2x speedup") must not make them speedups."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As hao-ai-lab/hao-ai-lab.github.io's content/blogs/attn-qat/index.md shows it ("Bloated
# Tensor Cores and the Softmax Bottleneck"), its first rows, and the paragraph after it.
SPEC_SHEET = """### Bloated Tensor Cores and the Softmax Bottleneck

| Spec                           | A100 (SXM4)    | H100 (SXM5)    | B200 (HGX)              | B300 / GB300                  | R200                         |
| ------------------------------ | -------------- | -------------- | ----------------------- | ----------------------------- | ---------------------------- |
| **Architecture**               | Ampere         | Hopper         | Blackwell               | Blackwell Ultra               | Rubin                        |
| **Year**                       | 2020           | 2022           | 2024                    | 2025                          | 2026                         |
| **Transistors**                | 54.2B          | 80B            | 208B                    | 208B                          | 336B                         |
| **TDP**                        | 400W           | 700W           | 1,000W                  | 1,100W (HGX) / 1,400W (GB300) | ~1,800W                      |
| **SMs (enabled)**              | 108            | 132            | 148                     | 160                           | 224                          |
| **BF16 Tensor TFLOPS (dense)** | 312            | 989            | 2,250                   | ~2,500                        | TBD                          |

In the above table, we see that BF16/FP8 Tensor Core throughput increased by roughly 2x.
"""

# The same page's measured table below it keeps loading (its columns name no chip).
MEASURED = """### Kernel latency

| Spec | FP4 (ms) | BF16 (ms) |
| ---- | -------- | --------- |
| seq 8k | 1.25 | 2.40 |
| seq 16k | 4.10 | 8.75 |
"""


def test_a_sheet_of_chips_specifications_loads_no_values():
    document = normalized(SPEC_SHEET)
    assert document.measurements.height == 0
    assert document.quarantine.height == 0  # no results table: nothing to hold back


def test_a_table_with_a_spec_corner_over_measured_columns_still_loads():
    loaded = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"])
        for row in normalized(MEASURED).measurements.iter_rows(named=True)
    }
    assert loaded[("seq 8k", "FP4 (ms)")] == ("latency", 1.25)
    assert loaded[("seq 16k", "BF16 (ms)")] == ("latency", 8.75)


# As PaddlePaddle/Paddle-Lite's docs/performance/benchmark.md shows it: the phones and boards
# of the test, eight side by side, in the list of the test environment, then a results table
# with the same SoCs as its columns (shortened to three of each).
DEVICES_SIDE_BY_SIDE = """## 测试环境

* 测试机器

   |SOC|骁龙 865|骁龙 855|骁龙 845|骁龙 835|骁龙 625|麒麟 990|麒麟 980|RK3399|
   |:----|----:|----:|----:|----:|----:|----:|----:|----:|
   |设备|Xiaomi MI10 |Xiaomi MI9 |Xiaomi MI8 |Xiaomi mi6 |Xiaomi Redmi6 Pro |Huawei Mate 30 |Huawei Mate 20 |瑞芯微RK3399开发板 |
   |CPU|1xA77 @2.84GHz + 3xA77 @2.42GHz + 4xA55 @1.8GHz |1xA76 @2.84GHz + 3xA76 @2.42GHz + 4xA55 @1.78GHz |4xA75 @2.8GHz + 4xA75 @1.7GHz |4xA73 @2.45GHz + 4xA53 @1.9GHz |4xA53 @1.8GHz + 4xA53 @1.6GHz |2xA76 @2.86GHz + 2xA76 @2.09GHz + 4xA55 @1.86GHz |2xA76 @2.6GHz + 2xA76 @1.92Ghz + 4xA55 @1.8Ghz |2xA72 @1.8GHz + 4xA53 @1.4Ghz |
   |GPU|Adreno 650 |Adreno 640 |Adreno 630 |Adreno 540 |Adreno 506 |16 core Mali-G76 |10 core Mali-G76 |4 core Mali-T860 |

* 测试说明
    * warmup=20, repeats=600，统计平均时间，单位 ms

## 测试数据

#### ARMV8 CPU 数据

|模型|骁龙 865|骁龙 855|骁龙 845|骁龙 835|骁龙 625|麒麟 990|麒麟 980|RK3399|
|:----|----:|----:|----:|----:|----:|----:|----:|----:|
|MobileNetV1|28.38 |29.04 |58.70 |82.48 |143.64 |38.22 |32.50 |103.39 |
|ResNet50|160.97 |161.13 |339.59 |484.79 |831.62 |222.21 |190.38 |616.68 |
"""


def test_a_wide_table_of_devices_side_by_side_holds_no_results():
    read = normalized(DEVICES_SIDE_BY_SIDE)
    assert read.quarantine.height == 0  # no "Huawei Mate 30" or "16 core Mali-G76" latency
    values = {
        (row["raw_value"], row["accelerator"]): (row["metric"], row["value"], row["unit"])
        for row in read.measurements.iter_rows(named=True)
    }
    assert len(values) == 16  # the two models on the eight SoCs, and nothing else
    assert values[("160.97", "Snapdragon 865")] == ("latency", 160.97, "ms")
    assert values[("222.21", "Kirin 990")] == ("latency", 222.21, "ms")
    assert values[("616.68", "RK3399")] == ("latency", 616.68, "ms")
