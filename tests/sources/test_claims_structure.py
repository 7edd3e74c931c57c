"""Claims read the way a reader reads a page: sentences joined across wrapped lines and
emphasis, list items under their lead-in and heading, code and front matter kept apart; and
what only looks like a claim (shares of a total, chip counts, units) set aside."""

from __future__ import annotations

from perfledger.sources.claims.blocks import assemble_blocks
from perfledger.sources.claims.extract import extract_claims, extract_page_claims
from perfledger.sources.parse import parse_document

MARKDOWN = """---
title: "Serving Llama 3 with FastServe"
summary: "FastServe delivers up to 3x higher throughput than vLLM on Llama 3 8B."
---

# Serving Llama 3 with FastServe

FastServe is our new serving engine. On H100, FastServe achieves
**2.5x higher throughput** than
vLLM for Llama 3 8B.

Compared to TGI, FastServe delivers:

- 4x higher throughput
- 60% lower TTFT

```
$ bench --engine fastserve
speedup: 5x faster than vLLM
```

## About FastServe Turbo

- Up to 2x faster than FastServe on long prompts.
"""


def claims_of(text: str, content_type: str = "text/markdown") -> list[tuple]:
    parsed, layout = parse_document(text.encode(), content_type, check=False)
    found = extract_page_claims(parsed, layout).claims
    return [
        (row["line_number"], row["ratio"], row["subject"], row["baseline"], row["metric"])
        for row in found.iter_rows(named=True)
    ]


def sentence_claims(*sentences: str) -> list[tuple]:
    found = extract_claims(list(enumerate(sentences, start=1))).claims
    return [
        (row["ratio"], row["subject"], row["baseline"], row["metric"])
        for row in found.iter_rows(named=True)
    ]


def test_a_markdown_page_is_read_as_its_reader_reads_it():
    assert claims_of(MARKDOWN) == [
        # the front matter's summary is what the page says of itself
        (3, 3.0, "FastServe", "vLLM", "throughput"),
        # a sentence wrapped over three lines, emphasis and all, is one sentence of line 8
        (8, 2.5, "FastServe", "vLLM", "throughput"),
        # list items take their subject and baseline from the line that leads them in
        (14, 4.0, "FastServe", "Text Generation Inference", "throughput"),
        (15, 2.5, "FastServe", "Text Generation Inference", "latency"),
        # a heading "About X" names the subject of the items under it; code is no prose
        (24, 2.0, "FastServe Turbo", "FastServe", "performance"),
    ]


def test_wrapped_lines_of_a_markdown_paragraph_make_one_sentence():
    # The page's lines as captured: the reader follows their Markdown itself.
    parsed, _ = parse_document(
        MARKDOWN.encode(), "text/markdown", layout="text_capture", check=False
    )
    page = assemble_blocks(parsed.prose)
    paragraph = next(b for b in page.blocks if b.text.startswith("FastServe is our"))
    assert paragraph.text == (
        "FastServe is our new serving engine. On H100, FastServe achieves "
        "2.5x higher throughput than vLLM for Llama 3 8B."
    )
    assert paragraph.line_at(paragraph.text.index("vLLM")) == 10
    assert page.title == "Serving Llama 3 with FastServe"
    assert [b.kind for b in page.blocks if b.text.endswith("delivers:")] == ["paragraph"]


def test_an_html_page_is_read_from_its_elements():
    page = (
        "<html><head><title>FastServe on H100</title></head><body>"
        "<h1>FastServe on H100</h1>\n<p>On H100, FastServe achieves\n"
        "<strong>2.5x higher throughput</strong> than\nvLLM for Llama 3 8B.</p>\n"
        "<p>Compared to TGI, FastServe delivers:</p>\n"
        "<ul><li>4x higher throughput</li>\n<li>60% lower TTFT</li></ul></body></html>"
    )
    found = claims_of(page, "text/html")
    assert [claim[1:] for claim in found] == [
        (2.5, "FastServe", "vLLM", "throughput"),
        (4.0, "FastServe", "Text Generation Inference", "throughput"),
        (2.5, "FastServe", "Text Generation Inference", "latency"),
    ]


def test_a_share_of_a_total_is_no_claim():
    # vLLM blog, 2024-09-05: the API server's share of one run, not a ratio to a baseline
    assert sentence_claims("The HTTP API server takes 33% of the total execution time.") == []
    # while a share of a baseline's performance is one
    assert sentence_claims(
        "On H100, the Triton attention backend achieved 100.7% of the performance of "
        "FlashAttention 3 for long decode requests."
    ) == [(1.007, "Triton attention backend", "FlashAttention 3", "performance")]


def test_a_count_of_chips_is_no_party():
    # "2 GPUs instead of 1" counts chips, and "the linear 2x" is a number: neither is a
    # baseline, and with no party named the claim is set aside, never given "GPU"
    result = extract_claims(
        [
            (
                1,
                "We observe 3.9x more token throughput - much more than the "
                "linear 2x we would expect from using 2 GPUs instead of 1.",
            )
        ]
    )
    assert result.claims.height == 0
    assert result.rejected.get_column("check").to_list() == ["no_system"]


def test_a_chip_a_metric_is_counted_per_is_no_party():
    # vLLM blog, 2026-02-13: "per-GPU" is the unit of the throughput, GB300 its subject
    assert sentence_claims(
        "In prefill-only scenarios, GB300's per-GPU throughput is 14% higher than B300, and "
        "8x higher compared to H200."
    ) == [(1.14, "GB300", "B300", "throughput"), (8.0, "GB300", "H200", "throughput")]


def test_the_object_of_outperforms_is_the_baseline():
    # Hugging Face blog on Inferentia2: "by ~6x" reads like "by 6x"
    assert sentence_claims(
        "It is remarkable to see how Inferentia2 outperforms all other setups by ~6x for "
        "sequence lengths up to 256."
    ) == [(6.0, "Inferentia2", "other setups", "performance")]


def test_a_subject_of_an_infinitive_and_a_participle_clause():
    assert sentence_claims(
        "Intel Gaudi 3 is projected to deliver 50% faster time-to-train on average across "
        "Llama2 models compared to NVIDIA H100."
    )[0][:3] == (1.5, "Gaudi3", "H100")
    # ", delivering" shares the subject of the clause before the comma
    assert sentence_claims(
        "P-EAGLE removes this ceiling by generating all K draft tokens in a single forward "
        "pass, delivering up to 1.69x speedup over vanilla EAGLE-3 on real workloads on "
        "NVIDIA B200."
    )[0][:3] == (1.69, "P-EAGLE", "EAGLE-3")


def test_a_passive_comparison_takes_its_agent_for_subject():
    assert sentence_claims(
        "The A100 was beaten by Gaudi2 by 2 times in BERT training throughput."
    ) == [(2.0, "Gaudi2", "A100", "throughput")]
    assert sentence_claims("Gaudi2 outperforms the A100 by 20% in throughput.") == [
        (1.2, "Gaudi2", "A100", "throughput")
    ]
