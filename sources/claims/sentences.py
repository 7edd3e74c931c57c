"""A paragraph cut into verbatim sentences, and a sentence indexed once: every vocabulary
mention, clause break, number and condition located, so that lookups stay cheap."""

from __future__ import annotations

import re

from perfledger.sources.claims.lexicon import Lexicon
from perfledger.sources.claims.records import Sentence

# Image-caption file names glued to the next sentence ("mlperf-improvementBaidu's ...").
SLUG = r"[a-z][a-z0-9]{1,30}(?:-[a-z0-9]{1,30}){1,8}(?=[A-Z][a-z])"
CAPTION_SLUG = re.compile(SLUG)
# (?<![.!?]): a match starts where a run of stops starts, so "....." is one scan, not one each.
# A sentence ends before a capital, a digit or a name written with a lower-case first letter
# and a capital inside ("... one output completion. vLLM achieves ...").
SENTENCE_END = re.compile(
    r"(?<![.!?])[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?(?:[A-Z0-9]|[a-z]{1,4}[A-Z])|" + SLUG + ")"
)
ABBREVIATION = re.compile(r"(?<!\w)(?:[A-Za-z]|vs|e\.g|i\.e|etc|approx|Inc|Fig|No|Dr|Mr|Ms)$")


def split_sentences(paragraph: str) -> list[str]:
    """Split a paragraph into verbatim sentences, dropping glued caption slugs."""
    return [text for _, text in split_sentences_at(paragraph)]


def split_sentences_at(paragraph: str) -> list[tuple[int, str]]:
    """(offset in the paragraph, sentence) of each verbatim sentence of a paragraph."""
    pieces: list[tuple[int, int]] = []
    start = 0
    for match in SENTENCE_END.finditer(paragraph):
        if ABBREVIATION.search(paragraph, max(start, match.start() - 8), match.start()):
            continue
        pieces.append((start, match.end()))
        start = match.end()
    pieces.append((start, len(paragraph)))
    sentences = []
    for begin, end in pieces:
        piece = paragraph[begin:end]
        text = piece.strip()
        offset = begin + len(piece) - len(piece.lstrip())
        slug = CAPTION_SLUG.match(text)
        if slug:
            text = text[slug.end() :]
            offset += slug.end()
        if text:
            sentences.append((offset, text))
    return sentences


def index_sentence(text: str, line_number: int, lex: Lexicon) -> Sentence:
    """A sentence to read claims from; what it mentions is located when first asked for."""
    return Sentence(text, line_number, lex)
