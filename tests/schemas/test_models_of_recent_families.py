"""Models of the LLM families that serving pages written since 2025 benchmark (Kimi K2, GLM-4.5,
MiniMax-M2, ERNIE 4.5, Granite, SmolLM, Ministral, EXAONE, Seed-OSS), and the model a page's
prose names when its title or heading names only the family; quoted from the pages' own cells."""

from __future__ import annotations

import pytest

from perfledger.schemas.model_names import models_in_text
from tests.schemas.page_reading import normalized

# vllm-project/vllm-ascend, docs/source/tutorials/models/Kimi-K2-Thinking.md: the page's title
# is the model's name, which the serving table's rows and columns leave unsaid.
KIMI_K2_THINKING = """# Kimi-K2-Thinking

## 1 Introduction

Kimi-K2-Thinking is a large-scale Mixture-of-Experts (MoE) model developed by Moonshot AI.

## 8 Performance Evaluation

| random input len | random output len | success | duration (s) | request throughput (req/s) | output throughput (tok/s) |
| ---: | ---: | ---: | ---: | ---: | ---: |
| 512 | 512 | 10 / 10 | 111.00 | 0.09 | 46.12 |
| 1024 | 1024 | 10 / 10 | 221.52 | 0.05 | 46.23 |
"""


def test_a_title_naming_a_kimi_model_labels_its_tables():
    document = normalized(KIMI_K2_THINKING)
    rows = document.measurements.filter(
        document.measurements["column_name"] == "output throughput (tok/s)"
    )
    assert rows.select("raw_value", "model").rows() == [
        ("46.12", "Kimi-K2-Thinking"),
        ("46.23", "Kimi-K2-Thinking"),
    ]


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("moonshotai/Kimi-K2-Instruct", "Kimi K2 Instruct"),
        ("GLM-4.5", "GLM-4.5"),
        ("GLM-4.5-Air", "GLM-4.5 Air"),  # a size that is a word reads as one
        ("MiniMax-M2", "MiniMax-M2"),
        ("ERNIE-4.5-21B-A3B", "ERNIE 4.5 21B-A3B"),
        ("granite-3.1-8b-instruct", "Granite 3.1 8B Instruct"),
        ("SmolLM2-1.7B", "SmolLM2 1.7B"),
        ("Ministral-8B", "Ministral 8B"),
        ("EXAONE-3.5-7.8B", "EXAONE 3.5 7.8B"),
        ("Seed-OSS-36B", "Seed-OSS 36B"),
        ("DeepSeek-V4-Pro", "DeepSeek-V4 Pro"),
    ],
)
def test_models_of_recent_families_are_known(written, canonical):
    assert [(phrase, reading.canonical) for phrase, reading in models_in_text(written)] == [
        (written, canonical)
    ]


# microsoft/BitNet, gpu/README.md: the title names the family ("BitNet Inference Kernel"), the
# opening paragraph the one model the kernel is for; the kernel table names neither.
BITNET_KERNEL = """# BitNet Inference Kernel

This repository provides a highly efficient GEMV kernel implementation for the BitNet model, optimized for W2A8 inference — 2-bit weights and 8-bit activations. It is tailored for use with the [BitNet-b1.58-2B-4T](https://arxiv.org/abs/2504.12285) model.

## Performance

### Kernel Benchmarks

Tested on NVIDIA A100 40GB GPU, our custom W2A8 kernel shows significant speedups over standard BF16 implementations:

| Shape (N×K)         | W2A8 Latency (us) | BF16 Latency (us) | Speedup Ratio        |
|---------------------|-------------------|-------------------|----------------------|
| 2560 × 2560         | 13.32             | 18.32             |   1.38               |
| 3840 × 2560         | 14.90             | 18.87             |   1.27               |

### End-to-End Generation Latency

Compared to a similarly-sized BF16 model (Gemma-2-2B using vLLM), BitNet-b1.58-2B with our kernel achieves consistent speedups across workloads:

| Input Length | Output Length | BF16 Latency (ms) | W2A8 Latency (ms) | Speedup Ratio |
| --- | --- | --- | --- | --- |
| 64 | 16 | 187.64 | 57.40 | 3.27 |
"""


def test_the_one_model_of_the_titles_family_that_the_prose_names_labels_the_table():
    document = normalized(BITNET_KERNEL)
    kernel = document.measurements.filter(
        document.measurements["column_name"] == "W2A8 Latency (us)"
    )
    assert kernel.select("raw_value", "model", "accelerator").rows() == [
        ("13.32", "BitNet-b1.58-2B-4T", "A100"),
        ("14.90", "BitNet-b1.58-2B-4T", "A100"),
    ]


def test_a_paragraph_naming_a_model_of_another_family_too_names_none():
    # The paragraph over the second table compares two models: which column ran which is
    # not the paragraph's to say.
    document = normalized(BITNET_KERNEL)
    end_to_end = document.measurements.filter(
        document.measurements["column_name"] == "BF16 Latency (ms)"
    )
    assert end_to_end.select("raw_value", "model").rows() == [("187.64", None)]
