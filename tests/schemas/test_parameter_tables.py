"""Tables that document a tool's parameters or a chip's identifiers rather than report results
("参数 | 说明 | 默认值": parameter, description, default; "硬件 | SOC ID | HEXAGON ARCH"), and
headers that state a share of the hardware's peak ("%peak")."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As alibaba/MNN's docs/perf/gemm_speed_benchmark.md shows it: "精度" (precision) is one of the
# parameters, and its values are codes and defaults, not accuracies.
PARAMETERS = """### 参数说明

| 参数 | 说明 | 默认值 |
|------|------|--------|
| 后端类型 | 0=CPU, 3=OpenCL, 7=Vulkan, 1=Metal, 2=CUDA | 0 |
| 精度 | 0=Normal, 1=High, 2=Low(FP16) | 0 |
| 线程数/GPU选项 | CPU: 线程数; OpenCL: 可用位掩码组合 GPU 内存模式和 tuning 策略 | 1 |
"""

# As alibaba/MNN's docs/inference/npu.md shows it: the SoC and Hexagon architecture numbers a
# build needs.
IDENTIFIERS = """#### 明确硬件架构

| 硬件    | SOC ID | HEXAGON ARCH |
| :------ | :----- | :----------- |
| 8 Gen 1 | 36     | 69           |
| 8 Gen 2 | 43     | 73           |
"""

# As alibaba/MNN's docs/perf/gemv_bw_benchmark.md shows it (its Apple M3 Pro section).
SHARE_OF_PEAK = """### Apple M3 Pro (5P + 6E, 36GB LPDDR5-6400), macOS arm64, precision=Low (fp16)

**CPU**：

| type | threads | us/iter | eff GB/s | %peak | GFLOPS |
|------|--------:|--------:|---------:|------:|-------:|
| w8   |       4 |   605.2 |    103.1 |  87.4 |  194.0 |
| w4   |       4 |   334.0 |     98.9 |  83.9 |  351.6 |
"""


def test_a_table_documenting_parameters_holds_no_results():
    read = normalized(PARAMETERS)
    assert read.measurements.height == 0  # "精度" names a parameter, not an accuracy
    assert read.quarantine.height == 0


def test_a_table_of_hardware_identifiers_holds_no_results():
    read = normalized(IDENTIFIERS)
    assert read.measurements.height == 0
    assert read.quarantine.height == 0  # "HEXAGON ARCH" is no unknown metric


def test_a_share_of_peak_is_a_percentage():
    found = {
        row["raw_value"]: (row["metric"], row["value"], row["unit"], row["accelerator"])
        for row in normalized(SHARE_OF_PEAK).measurements.iter_rows(named=True)
    }
    assert found["87.4"] == ("other", 87.4, "%", "M3 Pro")
    assert found["103.1"] == ("other", 103.1, "GB/s", "M3 Pro")
    assert found["605.2"] == ("latency", 0.6052, "ms", "M3 Pro")


# As intel/neural-compressor's benchmark/vllm-qdq-plugin/scripts/bench_hw_vs_sdpa_report.md
# shows it: the setup as a table of names and values (the device, the software by name, the
# warmup), then the results.
SETUP_THEN_RESULTS = """# SAGE3 HW Kernel vs BF16 SDPA Benchmark Report

## Setup

| Parameter | Value |
|-----------|-------|
| Device | NVIDIA B200 |
| Shape | `[1, 40, 75600, 128]` (B, H, N, D) |
| dtype | bfloat16 |
| Warmup | 3 iterations |
| Measured | 10 iterations |
| Triton | 3.6.0 |
| PyTorch | 2.11.0+cu130 |
| Total FLOPs/call | 116.96 TFLOP (4×B×H×N²×D) |

## Results

| Config | Latency (ms) | TFLOPS | Speedup vs SDPA |
|--------|-------------|--------|-----------------|
| **bf16_sdpa** (baseline) | 84.56 | 1384.2 | 1.00× |
| mxfp8_hw | 258.42 | 452.9 | 0.33× |
"""


def test_a_setup_naming_its_software_and_warmup_is_the_setup_of_the_results():
    read = normalized(SETUP_THEN_RESULTS)
    assert read.quarantine.height == 0  # "NVIDIA B200" is no value of a metric "Value"
    found = {
        row["raw_value"]: (row["metric"], row["accelerator"], row["precision"])
        for row in read.measurements.iter_rows(named=True)
    }
    assert set(found) == {"84.56", "1384.2", "1.00×", "258.42", "452.9", "0.33×"}
    assert found["84.56"] == ("latency", "B200", "bf16")
    assert found["258.42"] == ("latency", "B200", "mxfp8")


# As FlagOpen/FlagPerf writes it (training/nvidia/llama3_8B-megatron/README.md): whether the
# run's loss matched the reference ("是否精度对齐", literally "whether the accuracy is aligned").
YES_OR_NO_COLUMN = """| 配置                 | precision | parallel    | token/p/s | 是否精度对齐     | MFU         |
| ------------------ | --------- | ----------- | --------- | ---------- | ----------- |
| A100单机8卡（1x8）      | bf16      | PP2DP4TP1   | 3698.7    | True(作为基线) | 56.9%       |
| H100二机16卡（2x8）     | bf16      | PP1DP8TP2   | 7914      | True       | 38.4%       |
"""


def test_a_yes_or_no_question_heads_no_results():
    read = normalized(YES_OR_NO_COLUMN)
    assert read.quarantine.height == 0  # "True" is no accuracy to quarantine
    found = {
        row["raw_value"]: (row["metric"], row["accelerator"], row["accelerator_count"])
        for row in read.measurements.iter_rows(named=True)
    }
    assert found["3698.7"] == ("throughput", "A100", 8)
    assert found["7914"] == ("throughput", "H100", 16)
    assert "True" not in found
