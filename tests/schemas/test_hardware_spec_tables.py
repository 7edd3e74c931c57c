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
