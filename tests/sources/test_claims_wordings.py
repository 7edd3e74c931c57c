"""Claim wordings taken from publishers' prose beyond the development corpus: each sentence is
quoted as published (repository and path named), and the claim it states is asserted whole."""

from __future__ import annotations

import pytest

from perfledger.sources.claims.extract import extract_claims

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


def test_faster_pre_training_is_time_to_train() -> None:
    # pytorch/ao README.md
    sentence = (
        "We achieved 1.43-1.51x faster pre-training on Llama-3.1-70B and 405B using float8 training"
    )
    [claim] = claims_of(sentence)
    assert (claim[3], claim[4], claim[5]) == ("time_to_train", 1.51, "range 1.43-1.51x")
