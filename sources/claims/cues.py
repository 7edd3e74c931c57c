"""Cheap tests that tell which text cannot hold a claim, so the extractor can skip it.

`extract_sentence` reports something (a claim or a rejected claim-like sentence) only when
the sentence holds a ratio anchor (a number with x / % / times / -fold / percent, or a number
word such as "twice" or "half") or a qualitative trigger: a comparison verb ("outperforms"),
a lead word ("ahead of"), an advantage noun followed by "over"/"vs", or a comparative
followed by "than". A sentence too long to read is reported when it holds a ratio number or a
comparative. Most paragraphs of a results page (navigation, footers, table notes) hold none
of these, and finding that out costs far less than indexing every vocabulary in them.

Two layers, each of which may only let *more* text through than the extractor would report:

* `may_hold_claim_loosely` looks at a whole page or paragraph for lower-case substrings
  (one word of each cue phrase) with `str` methods, which run at memory speed.
* `may_hold_claim` runs the extractor's own cue patterns on one sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# Characters that re.IGNORECASE matches with an ASCII letter while str.lower() maps them
# elsewhere (dotted and dotless i, long s, Kelvin sign). Text holding one is never skipped by
# the substring layer, whose lower-casing would otherwise disagree with the patterns.
UNFOLDED = re.compile("[\u0130\u0131\u017f\u212a]")
# The tail every multiplier or percent anchor ends with, right after its last digit
# ("3.4x", "2-fold", "3 times", "31%", "31 percent", "31 per cent"), read on lower-cased text.
LOOSE_RATIO = re.compile(r"[0-9](?:\s?[x×%]|-fold|\s{1,2}times|\s?per)|[x×]\s?[0-9]")


@dataclass(frozen=True)
class Cues:
    # exact layer, the extractor's own patterns
    anchors: re.Pattern[str]  # one match makes a sentence a candidate
    pairs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]  # both must match
    # substring layer; None when the vocabulary cannot be matched by plain lower-casing
    words: tuple[str, ...] | None
    word_pairs: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    comparatives: tuple[str, ...]
    long_text: int  # longer text may hold a sentence too long to read
    # the substring layer's keys as single-pass searches of the lower-cased text
    single_keys: re.Pattern[str]  # a ratio's tail or a single word
    pair_keys: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]
    comparative_keys: re.Pattern[str]


def build_cues(
    singles: Iterable[re.Pattern[str]],
    pairs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...],
    vocab: dict[str, Iterable[str]],
    long_text: int,
) -> Cues:
    """`vocab` names the phrases behind the patterns: "single" (number words, verbs, lead
    words), "nouns", "markers", "comparatives" (the pairs are nouns+markers and
    comparatives+than)."""
    # Each alternative is bounded in length, so the union stays linear in the text.
    anchors = re.compile("|".join(f"(?:{p.pattern})" for p in singles), re.IGNORECASE)
    groups = [
        substring_keys(vocab[name]) for name in ("single", "nouns", "markers", "comparatives")
    ]
    plain = all(key.isascii() for group in groups for key in group)
    words, nouns, markers, comparatives = groups
    word_pairs = ((nouns, markers), (comparatives, ("than",)))
    return Cues(
        anchors=anchors,
        pairs=pairs,
        words=words if plain else None,
        word_pairs=word_pairs,
        comparatives=comparatives,
        long_text=long_text,
        single_keys=re.compile(f"{LOOSE_RATIO.pattern}|{literal_union(words)}"),
        pair_keys=tuple(
            (re.compile(literal_union(first)), re.compile(literal_union(second)))
            for first, second in word_pairs
        ),
        comparative_keys=re.compile(literal_union(comparatives)),
    )


def literal_union(keys: Iterable[str]) -> str:
    return "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))


# Words too common to tell anything: a phrase's key is its longest other word.
FUNCTION_WORDS = frozenset(
    {
        "with",
        "than",
        "that",
        "this",
        "from",
        "to",
        "the",
        "as",
        "of",
        "on",
        "at",
        "and",
        "or",
        "an",
        "a",
        "by",
        "in",
        "for",
    }
)


def substring_keys(phrases: Iterable[str]) -> tuple[str, ...]:
    """One lower-case word of each phrase (its longest but for function words), dropping
    words that contain another.

    A phrase the patterns match holds each of its words verbatim, so the text holds the key."""
    keys = set()
    for phrase in phrases:
        words = sorted(phrase.lower().split(), key=len, reverse=True)
        if words:
            keys.add(next((w for w in words if w not in FUNCTION_WORDS), words[0]))
    return tuple(sorted(k for k in keys if not any(o != k and o in k for o in keys)))


def contains_any(text: str, keys: Iterable[str]) -> bool:
    return any(key in text for key in keys)


def may_hold_claim_loosely(text: str, cues: Cues) -> bool:
    """False only when no sentence of `text` (a page or a paragraph) can yield anything."""
    if cues.words is None or UNFOLDED.search(text):
        return True
    low = text.lower()
    # one pass of the text per pattern: `key in low` for each key is a pass per key
    if cues.single_keys.search(low):
        return True
    if len(text) > cues.long_text and cues.comparative_keys.search(low):
        return True
    return any(first.search(low) and second.search(low) for first, second in cues.pair_keys)


def may_hold_claim(sentence: str, cues: Cues) -> bool:
    """False only when the extractor would find nothing in this sentence (of readable length)."""
    if cues.anchors.search(sentence):
        return True
    return any(first.search(sentence) and second.search(sentence) for first, second in cues.pairs)
