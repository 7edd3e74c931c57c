"""Claims whose parties are written in ways beyond the development corpus: each sentence or
snippet is quoted as published (repository and path named), and the claim it states is
asserted whole."""

from __future__ import annotations

from perfledger.sources.claims.extract import extract_claims, extract_page_claims
from perfledger.sources.parse import parse_document

FIELDS = ("subject", "baseline", "model", "metric", "ratio")


def claims_of(*sentences: str) -> list[tuple]:
    result = extract_claims([(number, text) for number, text in enumerate(sentences, 1)])
    return [tuple(row[f] for f in FIELDS) for row in result.claims.to_dicts()]


def page_claims(markdown: str) -> list[tuple]:
    parsed, layout = parse_document(markdown.encode(), None, check=False)
    claims = extract_page_claims(parsed, layout).claims
    return [tuple(row[f] for f in FIELDS) for row in claims.to_dicts()]


def test_a_baseline_after_v_s_is_the_baseline() -> None:
    # lm-sys/lm-sys.github.io blog/2025-07-14-intel-xeon-optimization.md (Highlights)
    sentence = "SGLang achieves **6-14x** speedup for TTFT and **2-4x** for TPOT v.s. llama.cpp."
    assert claims_of(sentence)[0] == ("SGLang", "llama.cpp", None, "latency", 14.0)


def test_a_program_named_after_a_model_family_names_no_model() -> None:
    # kvcache-ai/ktransformers doc/en/DeepseekR1_V3_tutorial.md: "llama.cpp" is the baseline
    # program, not a LLaMA model
    sentence = (
        "With V0.3-preview, we achieve up to 286 tokens/s for prefill, making it up to "
        "**28× faster than llama.cpp** for local inference."
    )
    assert claims_of(sentence) == [("V0.3-preview", "llama.cpp", None, "performance", 28.0)]
