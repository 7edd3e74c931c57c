"""A claim's model when the claim vocabulary names none near it: a model name by its shape
("Llama 3.1 8B", "gpt-oss-120b", "a 1.3B parameter model") in the sentence; else in the
sentences before it in its paragraph, then in its section, where a sentence names one model
family only ("LLaMA-7B ... and LLaMA-13B", not "Model A: Qwen3-0.6B | Model B: Phi-3");
else the page's own model, when one model is named far more than any other. The name
resolves as measurements' models do (schemas/vocab/models.csv); one no vocabulary knows is
kept as published."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from perfledger.schemas.labels import known_model, label_key, model_name
from perfledger.sources.claims.lexicon import Lexicon
from perfledger.sources.claims.sentences import split_sentences

CLAUSE_END = re.compile(r"[;:]|\s[—–]\s")
DOMINANT_MENTIONS = 3  # the page's model is named at least this often ...
DOMINANT_FACTOR = 2  # ... and this many times as often as all others together


def shaped_model(
    text: str,
    position: int,
    lex: Lexicon,
    previous: Sequence[str] = (),
    section: Sequence[str] = (),
    page: Callable[[], PageModels] | None = None,
) -> tuple[str | None, bool, str]:
    """(model, whether a vocabulary knows it, method tag) for a claim at `position`."""
    found, tag = nearest(text, position, lex), ""
    if found is None:
        found, tag = one_family(previous, lex), "+model-previous"
    if found is None:
        found, tag = one_family(section, lex), "+model-section"
    if found is None and page is not None:
        found, tag = page().dominant(), "+model-page"
    if found is None:
        return None, True, ""
    name = " ".join(found.split())
    if known_model(name):
        return model_name(name)[0], True, tag
    return name, False, tag


def context_model(text: str, position: int, lex: Lexicon, context) -> tuple[str | None, bool, str]:
    """`shaped_model` with the paragraph, section and page `context.discourse` has read."""
    discourse = context.discourse
    if discourse is None:
        return shaped_model(text, position, lex)
    return shaped_model(
        text,
        position,
        lex,
        discourse.current_before(),
        discourse.previous_sentences(),
        discourse.page_models,
    )


def nearest(text: str, position: int, lex: Lexicon) -> str | None:
    """The model a claim at `position` is about: the one named after it in its clause ("83%
    faster inference for Qwen3-0.6B"), else the nearest one before it in its clause, else the
    nearest one in the sentence."""
    names = list(lex.model_shape_re.finditer(text))
    if not names:
        return None
    start = max((m.end() for m in CLAUSE_END.finditer(text, 0, position)), default=0)
    stop = CLAUSE_END.search(text, position)
    end = stop.start() if stop else len(text)
    after = [m for m in names if position <= m.start() < end]
    if after:
        return after[0].group(0)
    before = [m for m in names if start <= m.start() < position]
    if before:
        return before[-1].group(0)
    return min(names, key=lambda m: abs(m.start() - position)).group(0)


def one_family(sentences: Iterable[str], lex: Lexicon) -> str | None:
    """The first model of the nearest sentence that names models of one family only."""
    for sentence in sentences:
        names = [m.group(0) for m in lex.model_shape_re.finditer(sentence)]
        if names:
            families = {family(name) for name in names}
            return names[0] if len(families) == 1 else None
    return None


def family(name: str) -> str:
    word = re.match(r"[A-Za-z]+", name)
    return word.group(0).casefold() if word else name.casefold()


class PageModels:
    """How often the page names each model, counted as its blocks are read (only when a
    claim asks: most pages never need it). A sentence that names models of several families
    catalogues or compares them ("GPT-OSS, Whisper, and Qwen", "Model A: Qwen3-0.6B | Model B:
    Phi-3") and counts for none."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.names: dict[str, str] = {}

    def add(self, texts: Iterable[str], lex: Lexicon) -> None:
        for text in texts:
            for sentence in split_sentences(text):
                names = [m.group(0) for m in lex.model_shape_re.finditer(sentence)]
                if not names or len({family(name) for name in names}) > 1:
                    continue
                for name in names:
                    key = label_key(name)
                    self.counts[key] += 1
                    self.names.setdefault(key, name)

    def dominant(self) -> str | None:
        """The model the page names often, and twice as often as all others together."""
        ranked = self.counts.most_common()
        if not ranked or ranked[0][1] < DOMINANT_MENTIONS:
            return None
        others = sum(count for _, count in ranked[1:])
        if ranked[0][1] < DOMINANT_FACTOR * others:
            return None
        return self.names[ranked[0][0]]
