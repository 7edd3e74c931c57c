"""Tables of LLM-serving and data-center publishers no corpus holds, written as their pages
write them: a kernel benchmark's printed box tables shown as code, a serving blog's table
grouped by chip under bold one-cell rows, a TPU microbenchmark whose size columns are
settings."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a GEMM kernel benchmark's README shows its output (HabanaAI/vllm-fork,
# benchmarks/kernels/deepgemm/README.md): box tables printed by the script, each under the
# line naming the implementation, the GEMM's m, n, k describing each row.
GEMM_OUTPUT = """# DeepSeek DeepGEMM Kernels Benchmark

## Usage

```
===== PERFORMANCE COMPARISON =====

DeepGEMM Implementation:
+------+-------+-------+-----------+--------+--------+
| m    | n     | k     | Time (μs) | TFLOPS | GB/s   |
+------+-------+-------+-----------+--------+--------+
|    8 |  4096 |  7168 | 102.9     | 4.6    | 286.4  |
|    8 |  7168 | 18432 | 70.8      | 29.8   | 1868.8 |
+------+-------+-------+-----------+--------+--------+

vLLM Triton Implementation:
+------+-------+-------+-----------+--------+--------+--------------+
| m    | n     | k     | Time (μs) | TFLOPS | GB/s   | vs DeepGEMM  |
+------+-------+-------+-----------+--------+--------+--------------+
|    8 |  4096 |  7168 | 74.0      | 6.3    | 398.2  | 1.39x faster |
|    8 |  7168 | 18432 | 89.6      | 23.6   | 1478.1 | 0.79x slower |
+------+-------+-------+-----------+--------+--------+--------------+
```
"""


def test_a_box_table_printed_in_code_is_read_under_its_caption():
    found = fields_by_raw_value(GEMM_OUTPUT, "table_title", "metric", "unit", "value", "settings")
    assert found["102.9"] == (
        "Usage — DeepGEMM Implementation",
        "latency",
        "ms",
        0.1029,
        "m=8; n=4096; k=7168",
    )
    assert found["1868.8"][1:4] == ("other", "GB/s", 1868.8)
    assert found["398.2"][0] == "Usage — vLLM Triton Implementation"


def test_tables_printed_in_code_are_numbered_after_the_tables_written_as_tables():
    page = GEMM_OUTPUT + "\n| Model | Throughput (img/s) |\n| --- | --- |\n| ResNet-50 | 96 |\n"
    found = fields_by_raw_value(page, "table_index", "table_title")
    assert found["96"][0] == 0  # the page's one written table, below the printed ones
    assert found["102.9"] == (1, "Usage — DeepGEMM Implementation")
    assert found["398.2"][0] == 2


def test_the_gemm_dimensions_are_settings_and_no_value_is_quarantined():
    result = normalized(GEMM_OUTPUT)
    assert result.measurements.height == 14
    assert result.quarantine.height == 0


def test_a_single_letter_is_a_dimension_only_as_the_whole_header():
    assert read_header("k").role == "setting"
    for header in ("Recall@k", "Pass@k", "Memory (M)", "Throughput (M)", "Top K"):
        assert read_header(header).role != "setting", header


def test_a_ratio_below_one_said_slower_is_the_ratio_itself():
    found = fields_by_raw_value(GEMM_OUTPUT, "metric", "value", "qualifier")
    assert found["1.39x faster"] == ("speedup", 1.39, "faster")
    assert found["0.79x slower"] == ("speedup", 0.79, "slower")


# itsdevcoffee/mojo-audio, "mojo-audio Optimization Journey", its Performance Evolution table:
# each stage's time against librosa's 15 ms, written as how many times slower it is.
SLOWER_THAN_BASELINE = """# mojo-audio Optimization Journey

## Performance Evolution

| Stage | 30s Time | Throughput | vs librosa | Optimization |
|-------|----------|------------|------------|--------------|
| **librosa (target)** | 15ms | 1993x | - | - |
| Naive implementation | 476ms | 63x | 31.7x slower | Baseline |
| + Iterative FFT | 159ms | 188x | 10.6x slower | **3x faster!** ✅ |
"""


def test_a_ratio_above_one_said_slower_is_the_inverse_speedup_as_in_claims():
    # 476 ms against 15 ms: "31.7x slower" is a speedup of 1/31.7, as the claim "A is 31.7x
    # slower than B" reads (sources/claims/extract.py); the number printed is kept.
    found = fields_by_raw_value(
        SLOWER_THAN_BASELINE, "metric", "value", "unit", "qualifier", "published_number"
    )
    assert found["31.7x slower"] == ("speedup", 0.031546, "x", "slower", 31.7)
    assert found["10.6x slower"] == ("speedup", 0.09434, "x", "slower", 10.6)


# A status panel a device tool prints (npu-smi), its header written over two lines: no table
# of results, it stays code.
STATUS_PANEL = """# Setup

```sh
+----------------------+---------------+----------------------------------------------------+
| NPU   Name           | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                 | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+======================+===============+====================================================+
| 2     xxx            | OK            | 64.4        51                15   / 15            |
| 0                    | 0000:01:00.0  | 0           1873 / 15077      0    / 32768         |
+======================+===============+====================================================+
```
"""


def test_a_status_panel_printed_in_code_is_not_read_as_a_table():
    result = normalized(STATUS_PANEL)
    assert result.measurements.height == 0
    assert result.quarantine.height == 0


# As a runtime's design note writes it (extra page ort_genai_paged_attention_batching.md,
# "Where the cost actually is"): the column of the path before the change is headed by the
# engine's name and "(before)", its cells the figures of that path.
BEFORE_AFTER = """# Paged attention batching

## 3. Where the cost actually is

Profiling gpt-oss-20b (INT8 KV) on H200 at batch 32. Per decode step:

| Per step | `Engine` (before) | `Generator` |
|---|---|---|
| `cudaStreamSynchronize` | 130 | 4 |
| Tail `cudaLaunchKernel` | 160 | 7 |
| `cudaMemcpyAsync` | 100 | 1 |
| GPU time in sampling | 451 µs | 47 µs |
"""


def test_a_column_of_one_side_of_a_comparison_holds_values_not_labels():
    found = fields_by_raw_value(BEFORE_AFTER, "column_name", "metric", "value", "row_label")
    assert found["451 µs"] == ("Engine (before)", "latency", 0.451, "GPU time in sampling")
    assert found["47 µs"][1:3] == ("latency", 0.047)
    # the call counts say no metric: each is quarantined with its column, none taken as a label
    quarantined = normalized(BEFORE_AFTER).quarantine
    before = quarantined.filter(quarantined["column_name"] == "Engine (before)")
    assert sorted(before["raw_value"].to_list()) == ["100", "130", "160"]
    assert set(before["check"].to_list()) == {"unknown_metric"}


def test_a_header_naming_latency_or_throughput_names_neither_without_a_unit():
    # extra page d_robotics_classification_README.md: "Latency/throughput (single-threaded)"
    # over 8.80 for EdgeNeXt_base, beside its own "Frame rate(FPS)" column
    assert read_header("Latency/throughput (single-threaded)").role is None
    assert read_header("Latency/Throughput (ms)").role == "latency"
    assert read_header("Throughput (tokens/s)").role == "throughput"
    assert read_header("`Engine` (before)").kind is None
    assert read_header("Engine").role == "framework"


# As a serving library's conceptual guide writes it (extra page tgi_conceptual_chunking.md):
# the run's chip count written against the chip ("8H100") beside the same count written
# "8XH100" two rows above.
GLUED_COUNT = """# TGI v3 overview

|   |   |   |   |   |
|---|---|---|---|---|
|2nd run ||**TGI v3** (time in s)|**vLLM** (s)|**Amount of req**|
|**Llama 3.1 8b**|Small test - 4xL4 - 8B|4.8|6|200|
|**Llama 3.1 70b**|Small test - 8XH100 - 70B|6.2|7.4|200|
|**Llama 3.1 70b**|Long test - 8H100 - 70B|2|27.5|20|
"""


def test_a_count_written_against_the_chip_counts_it():
    found = fields_by_raw_value(GLUED_COUNT, "accelerator", "accelerator_count")
    assert found["27.5"] == ("H100", 8)
    assert found["7.4"] == ("H100", 8)
    assert found["6"] == ("L4", 4)
