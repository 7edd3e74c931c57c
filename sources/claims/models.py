"""A claim's model when the claim vocabulary names none near it: a model name by its shape
("Llama 3.1 8B", "gpt-oss-120b", "a 1.3B parameter model") in the sentence, else in the
sentences before it in its paragraph. The name resolves as measurements' models do
(schemas/vocab/models.csv); one no vocabulary knows is kept as published."""

from __future__ import annotations

from collections.abc import Sequence

from perfledger.schemas.labels import known_model, model_name
from perfledger.sources.claims.lexicon import Lexicon
from perfledger.sources.claims.records import WINDOW


def shaped_model(
    text: str, position: int, lex: Lexicon, previous: Sequence[str] = ()
) -> tuple[str | None, bool, str]:
    """(model, whether a vocabulary knows it, method tag) for a claim at `position`."""
    found = nearest(text, position, lex)
    tag = ""
    if found is None:
        for sentence in previous:
            names = [m.group(0) for m in lex.model_shape_re.finditer(sentence)]
            if names:
                found, tag = names[-1], "+model-previous"
                break
    if found is None:
        return None, True, ""
    name = " ".join(found.split())
    if known_model(name):
        return model_name(name)[0], True, tag
    return name, False, tag


def nearest(text: str, position: int, lex: Lexicon) -> str | None:
    start, end = max(0, position - WINDOW * 2), min(len(text), position + WINDOW)
    names = list(lex.model_shape_re.finditer(text, start, end))
    if not names:
        return None
    return min(names, key=lambda m: abs(m.start() - position)).group(0)
