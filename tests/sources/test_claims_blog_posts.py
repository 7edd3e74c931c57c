"""Claims of technical blog posts' prose, each sentence quoted as published (repository and
path named) and the claim it states asserted whole."""

from __future__ import annotations

import pytest

from perfledger.sources.claims.extract import extract_claims

FIELDS = ("subject", "baseline", "model", "metric", "ratio", "qualifier")


def claims_of(*sentences: str) -> list[tuple]:
    result = extract_claims([(number, text) for number, text in enumerate(sentences, 1)])
    return [tuple(row[f] for f in FIELDS) for row in result.claims.to_dicts()]


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        # huggingface/blog habana-gaudi-2-bloom.md: what "we saw" holds the claim's subject
        (
            "For example, in our last benchmark, we saw that Gaudi2 performs Stable Diffusion "
            "inference 2.2x faster than A100 and this has since been improved further to 2.37x "
            "with the latest optimizations provided by Habana.",
            ("Gaudi2", "A100", "Stable Diffusion", "performance", 2.2, None),
        ),
        # huggingface/blog habana-gaudi-2-bloom.md: the checkpoint the sentence names
        (
            "Gaudi2 is 3x faster than A100 for BLOOMZ-7B!",
            ("Gaudi2", "A100", "BLOOMZ 7B", "performance", 3.0, None),
        ),
    ],
)
def test_blog_claims(sentence, claim):
    assert claims_of(sentence) == [claim]


def test_an_instrument_opening_a_first_person_claim_without_a_comma_is_its_subject():
    # ROCm/rocm-blogs farskip-collective-moe: "By using X we accelerate ..." and "Further, by
    # integrating X we accelerate ...", no comma before "we": X is what the claim credits
    claims = claims_of(
        "By using FarSkip-Collective we accelerate the optimized Moonlight pre-training by 11%.",
        "Further, by integrating Moonlight with Grouped-Query-Attention layers we accelerate "
        "model training by 16%.",
    )
    assert [(c[0], c[3], c[4]) for c in claims] == [
        ("FarSkip-Collective", "time_to_train", 1.11),
        ("Moonlight with Grouped-Query-Attention layers", "time_to_train", 1.16),
    ]


def test_two_ratios_written_larger_first_give_the_range_from_the_smaller():
    # ROCm/rocm-blogs fp4-mixed-precision: the two batch sizes' gains, the larger written first
    claims = claims_of(
        "Overall, Petit serving the Llama 3.3 70B FP4 model is 1.74x and 1.60x faster than "
        "SGLang serving the original BF16 model."
    )
    assert [(c[1], c[4], c[5]) for c in claims] == [("SGLang", 1.74, "range 1.6-1.74x")]


def test_a_ratio_of_size_is_no_claim_on_the_throughput_named_after_it():
    # ROCm/rocm-blogs fp4-mixed-precision: "3.5x smaller" sizes the models; the throughput
    # the sentence ends on is what that size gives, not what was compared
    sentence = (
        "In production scenarios with small batch sizes where performance is memory "
        "bandwidth-bound, Petit's efficient utilization of the 3.5x smaller FP4 models "
        "translates directly to superior throughput."
    )
    result = extract_claims([(1, sentence)])
    assert result.claims.height == 0
    assert result.rejected["check"].to_list() == ["not_performance"]
