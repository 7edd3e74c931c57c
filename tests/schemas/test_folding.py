"""Folded text as the label readers compare it, and its positions in the published text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from perfledger.schemas.folding import clean_text, fold_words, folded_with_positions, published_span

# Characters of chip names and counts ("8xA100-80GBs", "Xeon(R)", "2 × H100"), trademark signs
_PIECES = st.sampled_from(
    [
        "8",
        "24",
        "x",
        "X",
        "×",
        "MI",
        "a",
        "H",
        "100",
        "300",
        "-",
        "_",
        ".",
        " ",
        "(r)",
        "®",
        "GPU",
        "large",
        "s",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join))
@example("8xMI-300")  # a glued count before a name a hyphen parts
def test_both_foldings_agree_and_every_folded_character_has_its_place(text):
    cleaned = clean_text(text)
    folded, positions = folded_with_positions(cleaned)
    assert folded == fold_words(text)
    assert len(positions) == len(folded)
    assert all(0 <= place < len(cleaned) for place in positions)


def test_a_count_glued_to_its_chip_is_a_word_of_its_own():
    # FasterTransformer's hardware settings
    cleaned = clean_text("Intra node: 8xA100-80GBs")
    folded, positions = folded_with_positions(cleaned)
    assert folded == "intra node: 8x a100 80gbs"
    start = folded.index("a100")
    assert published_span(cleaned, positions, start, start + 4) == "A100"
    assert fold_words("p4d.24xlarge") == "p4d.24xlarge"  # an instance size stays one word
