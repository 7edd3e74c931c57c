"""The cue tests that let the claim extractor skip text must never skip a claim or a reject."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import perfledger.sources.claims.extract as extract
from perfledger.sources.claims.cues import UNFOLDED, may_hold_claim, may_hold_claim_loosely

CUE_FRAGMENTS = [
    "IPU-M2000",
    "A100",
    "DGX A100",
    "Bow Pod16",
    "ResNet-50",
    "BERT-Large",
    "Graphcore",
    "NVIDIA",
    "8x",
    "2X",
    "1.5×",
    "31%",
    "12 percent",
    "7 per cent",
    "3-fold",
    "4  times",
    "2-3x",
    "twice",
    "TWICE",
    "half",
    "a third",
    "two-thirds",
    "an order of magnitude",
    "faster",
    "Slower",
    "higher",
    "lower",
    "less",
    "more",
    "throughput",
    "latency",
    "cost",
    "than",
    "THAN",
    "vs",
    "vs.",
    "versus",
    "over",
    "against",
    "compared to",
    "not",
    "no",
    "up to",
    "by",
    "reduced",
    "of",
    "the",
    "of what",
    "outperforms",
    "beats",
    "ahead of",
    "lead over",
    "edge",
    "advantage",
    "gains",
    "improvement",
    "v1.1",
    "2021",
    ",",
    ".",
    ";",
    "-",
    "(",
    ")",
    "\u00a0",
    "’s",
    "ſ",
    "İ",
    "ı",
    "K",
    "twİce",
    "faſter",
    "outperformıng",
    "mlperf-improvement",
    "Training",
    "Results",
]
claim_like = st.lists(st.sampled_from(CUE_FRAGMENTS), max_size=30)
glue = st.sampled_from([" ", "", "  ", ". ", "\n"])


def test_unfolded_holds_every_character_lowercasing_misreads() -> None:
    # Every character re.IGNORECASE matches with an ASCII letter either lower-cases to that
    # letter or is in UNFOLDED, so the substring layer never misses what the patterns find.
    letter = re.compile("[a-z]", re.IGNORECASE)
    misread = set()
    for point in range(0x80, 0x110000):
        char = chr(point)
        if letter.fullmatch(char):
            lower = char.lower()
            if not (lower.isascii() and re.fullmatch(re.escape(lower), char, re.IGNORECASE)):
                misread.add(char)
    assert misread <= set(UNFOLDED.pattern.strip("[]"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim_like, glue)
def test_loose_layer_passes_every_sentence_the_exact_layer_passes(
    words: list[str], joiner: str
) -> None:
    text = joiner.join(words)
    cues = extract.load_cues()
    for sentence in extract.split_sentences(text) if text.strip() else []:
        if may_hold_claim(sentence, cues):
            assert may_hold_claim_loosely(text, cues), sentence


@pytest.mark.parametrize("fragment", CUE_FRAGMENTS)
def test_each_cue_alone_passes_the_loose_layer(fragment: str) -> None:
    cues = extract.load_cues()
    for text in (fragment, f"The IPU is {fragment} the A100", f"x{fragment}y", f"{fragment}."):
        for sentence in extract.split_sentences(text):
            if may_hold_claim(sentence, cues):
                assert may_hold_claim_loosely(text, cues), text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + " %×.-İıſK", max_size=200))
def test_loose_layer_passes_every_sentence_the_exact_layer_passes_on_any_text(
    text: str,
) -> None:
    cues = extract.load_cues()
    if may_hold_claim(text, cues):
        assert may_hold_claim_loosely(text, cues)


def test_long_text_with_a_comparative_passes() -> None:
    sentence = "faster " * 400  # too long to read, still reported as set aside
    cues = extract.load_cues()
    assert may_hold_claim_loosely(sentence, cues)
    assert extract.extract_claims([(1, sentence)]).rejected.height == 1


def read_everything(monkeypatch: pytest.MonkeyPatch, prose: list[tuple[int, str]]):
    with monkeypatch.context() as patched:
        patched.setattr(extract, "may_hold_claim", lambda *_: True)
        patched.setattr(extract, "may_hold_claim_loosely", lambda *_: True)
        # the screening of each distinct text is memoized: read every block afresh
        patched.setattr(extract, "_block_may_hold_claim", lambda *_: True)
        patched.setattr(
            extract, "_screened_once", lambda text: extract._screened(text, extract.load_cues())
        )
        return extract.extract_claims(prose, "ResNet-50 training")


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(claim_like, glue), max_size=6))
def test_skipping_cueless_text_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, paragraphs: list[tuple[list[str], str]]
) -> None:
    # short paragraphs act as headings, so the model context is exercised as well
    prose = [(number, joiner.join(words)) for number, (words, joiner) in enumerate(paragraphs)]
    fast = extract.extract_claims(prose, "ResNet-50 training")
    full = read_everything(monkeypatch, prose)
    assert fast.claims.equals(full.claims) and fast.claims.schema == full.claims.schema
    assert fast.rejected.equals(full.rejected) and fast.rejected.schema == full.rejected.schema
