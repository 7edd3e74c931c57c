"""Two tables written back to back under one caption are read under it both, and a top-left
header that is a precision alone ("q4k", "q8_0") is the table's precision, not its model."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

# As EricLBuehler/mistral.rs' releases/v0.9.0/report.md gives its headline results: a table
# of the GB10, then two tables of the Xeon under one caption, each headed by its quantization.
MISTRALRS_HEADLINES = """# mistral.rs v0.9.0 CPU Benchmark Report

CPU-only comparison of mistral.rs against llama.cpp on two architectures: GB10 (aarch64, 10x
Cortex-X925) and a c7i.8xlarge Xeon (Sapphire Rapids, AVX512/VNNI/AMX). Values are tokens per
second; speedups are mistral.rs divided by llama.cpp at the same prompt length or decode depth,
with each engine at its best measured configuration.

## Headline results

GB10 (aarch64), mean speedup across context lengths 128-8192/16384:

| Model | Quant | Prefill mean | Decode mean |
|---|---|---:|---:|
| gemma4-e4b | Q4_K | 2.75x | 1.31x |
| qwen3-4b | Q8_0 | 1.15x | 1.13x |

x86 (Sapphire Rapids), qwen3-4b, per-point ratios:

| q4k | 128 | 512 | 2048 | 8192 | 16384 |
|---|---|---|---|---|---|
| prefill | 0.42x | 0.69x | 0.79x | 0.86x | - |
| decode | 1.06x | 1.07x | 1.12x | 1.53x | **1.81x** |

| q8_0 | 128 | 512 | 2048 | 8192 |
|---|---|---|---|---|
| prefill | 0.79x | 0.66x | 0.72x | 0.81x |
| decode | 0.84x | 0.84x | 0.92x | **1.33x** |
"""


def test_the_second_of_two_tables_back_to_back_takes_the_first_ones_caption():
    found = fields_by_raw_value(MISTRALRS_HEADLINES, "metric", "value", "accelerator", "model")
    assert found["0.79x"][1:] == (0.79, "Sapphire Rapids", "qwen3-4b")  # of both tables
    assert found["0.66x"] == ("speedup", 0.66, "Sapphire Rapids", "qwen3-4b")
    assert found["0.92x"] == ("speedup", 0.92, "Sapphire Rapids", "qwen3-4b")
    assert found["1.15x"] == ("speedup", 1.15, "GB10", "qwen3-4b")


def test_a_precision_heading_the_rows_is_the_tables_precision():
    found = fields_by_raw_value(MISTRALRS_HEADLINES, "model", "weight_dtype", "precision")
    assert found["0.69x"] == ("qwen3-4b", "int4", "q4k")
    assert found["0.66x"] == ("qwen3-4b", "int8", "q8_0")
    assert found["2.75x"] == ("gemma4-e4b", "int4", "Q4_K")
