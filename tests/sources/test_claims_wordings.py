"""Claim wordings taken from publishers' prose beyond the development corpus: each sentence is
quoted as published (repository and path named), and the claim it states is asserted whole."""

from __future__ import annotations

import pytest

from perfledger.sources.claims.extract import extract_claims, extract_page_claims
from perfledger.sources.layouts.pipe_table import parse_pipe_tables

FIELDS = ("subject", "baseline", "model", "metric", "ratio", "qualifier")


def claims_of(*sentences: str) -> list[tuple]:
    result = extract_claims([(number, text) for number, text in enumerate(sentences, 1)])
    return [tuple(row[f] for f in FIELDS) for row in result.claims.to_dicts()]


def rejects_of(sentence: str) -> list[str]:
    return extract_claims([(1, sentence)]).rejected["check"].to_list()


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        # hao-ai-lab/hao-ai-lab.github.io content/blogs/sta/index.md
        (
            "STA with window size calibration achieves an attention sparsity of 58% and a 1.8x "
            "end-to-end speedup, reducing DiT inference time from 945 seconds (FA3 full attn) to "
            "520 seconds with no quality degradation.",
            ("STA", None, None, "performance", 1.8, None),
        ),
        # pytorch/ao README.md: a word naming what was sped up names the metric
        (
            "Float8 rowwise training yielded 1.34-1.43x training speedup at 2k H100 GPU scale",
            (
                "Float8 rowwise training",
                "without Float8 rowwise training",
                None,
                "time_to_train",
                1.43,
                "range 1.34-1.43x",
            ),
        ),
    ],
)
def test_a_word_between_the_number_and_its_noun_keeps_the_claim(
    sentence: str, claim: tuple
) -> None:
    assert claims_of(sentence) == [claim]


def test_a_range_written_with_capital_x_reads_its_upper_bound() -> None:
    # hao-ai-lab/hao-ai-lab.github.io content/blogs/lookaheadreasoning/index.md
    sentence = (
        "In terms of efficiency, LR alone achieves speedups ranging from 1.04X to 1.71X, "
        "depending on the dataset and model combination."
    )
    assert claims_of(sentence) == [
        ("LR alone", None, None, "performance", 1.71, "range 1.04-1.71x")
    ]


def test_the_hardware_a_claim_ran_on_is_neither_subject_nor_baseline() -> None:
    # flashinfer-ai/flashinfer-ai.github.io _posts/2024-01-08-cascade-inference.md
    sentence = (
        "We show that Cascade Inference can greatly accelerate shared-prefix batch decoding "
        "operator, with up to 31x speedup compared to the baseline vLLM PageAttention "
        "implementation and 26x speedup compared to FlashInfer batch decoding operator without "
        "cascading on a H100 SXM 80GB."
    )
    assert claims_of(sentence) == [
        (None, "vLLM", None, "performance", 31.0, "up to"),
        (None, "FlashInfer batch decoding operator", None, "performance", 26.0, None),
    ]
    # flashinfer-ai/flashinfer-ai.github.io _posts/2024-01-08-cascade-inference.md
    decode = (
        "For very long shared prompt (32768), the decode kernel can get up to 31x speedup on "
        "H100 SXM 80GB with large batch size(≥128) and short unique kv-length (≤256)."
    )
    assert claims_of(decode) == [("decode kernel", None, None, "performance", 31.0, "up to")]


def test_chips_compared_on_both_sides_stay_the_claim_s_parties() -> None:
    # the Graphcore demo page: "on the IPU-M2000" is the subject when the baseline is a chip
    sentence = (
        "ResNeXt uses depth-wise separable convolutions which perform far better on the IPU "
        "architecture than on the GPU resulting in 3.7x higher throughput on the IPU-M2000 "
        "with TensorFlow vs A100 GPU."
    )
    assert [c[:2] for c in claims_of(sentence)] == [("IPU-M2000", "A100")]


def test_increase_by_more_than_a_percentage_is_a_claim() -> None:
    # linkedin/Liger-Kernel README.md
    sentence = (
        "With one line of code, Liger Kernel can increase throughput by more than 20% and "
        "reduce memory usage by 60%, thereby enabling longer context lengths, larger batch "
        "sizes, and massive vocabularies."
    )
    assert claims_of(sentence) == [("Liger Kernel", None, None, "throughput", 1.2, "more than")]


def test_matching_the_speed_of_a_system_is_parity() -> None:
    # thu-ml/SageAttention README.md
    assert claims_of(
        "SageAttention is now available on Hopper GPUs (H100, H800, H20)! It matches the speed "
        "of FlashAttention3-FP8 but offers much better accuracy!"
    ) == [("SageAttention", "FlashAttention3-FP8", None, "performance", 1.0, None)]


def test_faster_pre_training_is_time_to_train() -> None:
    # pytorch/ao README.md
    sentence = (
        "We achieved 1.43-1.51x faster pre-training on Llama-3.1-70B and 405B using float8 training"
    )
    [claim] = claims_of(sentence)
    assert (claim[3], claim[4], claim[5]) == ("time_to_train", 1.51, "range 1.43-1.51x")


def test_vram_requirements_are_memory_not_performance() -> None:
    # pytorch/ao README.md
    sentence = (
        "This approach can reduce your VRAM requirements by 60% with minimal impact on "
        "training speed:"
    )
    assert claims_of(sentence) == []
    assert rejects_of(sentence) == ["not_performance"]


def test_results_that_report_a_claim_are_not_its_subject() -> None:
    # huggingface/text-generation-inference docs/source/conceptual/chunking.md, under its
    # title "TGI v3 overview"
    sentence = (
        "Our benchmarking results show significant performance gains, with a 13x speedup over "
        "vLLM with prefix caching, and up to 30x speedup without prefix caching."
    )
    result = extract_claims([(1, sentence)], title="TGI v3 overview")
    assert [tuple(row[f] for f in FIELDS) for row in result.claims.to_dicts()] == [
        ("TGI v3 overview", "vLLM", None, "performance", 13.0, None),
        ("TGI v3 overview", "vLLM", None, "performance", 30.0, "up to"),
    ]


def test_a_markdown_comment_written_as_a_link_definition_states_no_claim() -> None:
    # hao-ai-lab/hao-ai-lab.github.io content/blogs/sta/index.md: the visible sentence, then
    # a note kept as "[//]: # (...)", which a reader never sees
    page = (
        "With further kernel optimizations, STA achieves a **10.45×** speedup over full "
        "attention.\n"
        "\n"
        "[//]: # (The bottleneck? Attention. STA accelerates attention by **2.8–17×** over "
        "FlashAttention-2 &#40;FA2&#41; and **1.6–10×** over FlashAttention-3 &#40;FA3&#41;.)\n"
    )
    claims = extract_page_claims(parse_pipe_tables(page), "pipe_table").claims
    assert claims.select("line_number", "ratio").rows() == [(1, 10.45)]


def test_a_technique_without_a_baseline_is_compared_with_its_absence() -> None:
    # pytorch/ao README.md
    sentence = (
        "MXFP8 training achieved 1.28x speedup on Crusoe B200 cluster with virtually identical "
        "loss curve to bfloat16!"
    )
    result = extract_claims([(1, sentence)])
    [row] = result.claims.to_dicts()
    assert tuple(row[f] for f in FIELDS) == (
        "MXFP8 training",
        "without MXFP8 training",
        None,
        "performance",
        1.28,
        None,
    )
    assert row["baseline_kind"] == "counterpart"


def test_a_multiplier_its_baseline_follows_at_once_is_a_speedup():
    # NVIDIA/TransformerEngine docs/features/low_precision_training/speedups.rst
    assert claims_of("In pre-quantized mode, raw FP8 reaches 1.92x over BF16.") == [
        ("FP8", "BF16", None, "performance", 1.92, None)
    ]
    assert claims_of(
        "FP8 DelayedScaling delivers ~1.69x over BF16, followed by FP8 CurrentScaling at "
        "~1.57x and FP8 Block Scaling at ~1.41x."
    )[0] == ("FP8 DelayedScaling", "BF16", None, "performance", 1.69, "about")
    # a count of what a run spans is no speedup
    assert claims_of("We trained on 8x over 2 nodes.") == []


@pytest.mark.parametrize(
    ("sentences", "claims"),
    [
        # ROCm/rocm-blogs blogs/artificial-intelligence/ROCm7-MI355X-training-performance: the
        # kind of chip after the subject's name is the subject's, no baseline
        (
            ("Llama3 70B BF16: AMD Instinct MI355X GPU achieves 1.16X in Primus-TorchTitan v25.9",),
            [("MI355X", None, "Llama 3 70B", "performance", 1.16, None)],
        ),
        # NVIDIA/TransformerEngine docs (GEMM profiling): the baseline the clause before names
        (
            (
                "Without quantization overhead, FP8 CurrentScaling reaches 1.90x over BF16, "
                "while FP8 DelayedScaling shows 1.67x.",
            ),
            [
                ("FP8 CurrentScaling", "BF16", None, "performance", 1.9, None),
                ("FP8 DelayedScaling", "BF16", None, "performance", 1.67, None),
            ],
        ),
    ],
)
def test_a_ratio_a_system_is_said_to_reach_is_a_claim(sentences: tuple, claims: list) -> None:
    assert claims_of(*sentences) == claims
