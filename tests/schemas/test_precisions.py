"""Precision labels as pages write them, each text taken from a real page of ../shared."""

from __future__ import annotations

import pytest

from perfledger.schemas.precisions import find_precisions, read_precision_label


@pytest.mark.parametrize(
    ("label", "activation", "weight"),
    [
        ("amp_bf16", "bf16", "fp32"),  # MosaicML llm-foundry: AMP running in bf16
        ("amp_fp8", "fp8", "fp32"),
        ("fp8_full", "fp8", "fp8"),  # Google TPU recipes
        ("Phi-4-mini-instruct-float8dq", "fp8", "fp8"),  # torchao: fp8 dynamic quantization
        ("NF4+DQ", None, "nf4"),  # bitsandbytes: a 4-bit weight format, compute dtype unstated
        ("GPTQ-Int4", None, "int4"),
        ("int4 weight-only", None, "int4"),
        ("W4A16", "fp16", "int4"),
        ("INT8/BF16", "mixed", None),  # two precisions in one label
        ("16.32", "fp16", "fp32"),
    ],
)
def test_a_precision_label_reads_activations_and_weights(label, activation, weight):
    precision = read_precision_label(label)
    assert (precision.activation, precision.weight) == (activation, weight)


def test_words_of_one_precision_are_one_and_compared_precisions_stay_two():
    assert [(p.text, p.activation) for p in find_precisions("Mixed precision (BF16)")] == [
        ("Mixed precision (BF16)", "bf16")
    ]
    # NVIDIA's speedup headers compare two precisions: neither is merged into the other.
    assert [
        p.activation for p in find_precisions("Throughput speedup (TF32 - mixed precision)")
    ] == ["tf32", "mixed"]
    assert [p.activation for p in find_precisions("TF32 / AMP")] == ["tf32", "mixed"]
    assert [
        (p.activation, p.weight) for p in find_precisions("quantized with Llama int8 weight-only")
    ] == [(None, "int8")]


def test_a_precision_keeps_the_bracket_it_opens_when_the_bracket_closes_after_another_word():
    # Hugging Face's BridgeTower on Gaudi2 post: "a mixed-precision (*bfloat16*/*float*) run
    # distributed across 8 devices", as its HTML reads
    found = find_precisions("a mixed-precision (bfloat16/float) run distributed across 8 devices")
    assert [(p.text, p.activation, p.weight) for p in found] == [
        ("mixed-precision (bfloat16/float)", "bf16", "fp32")
    ]
