"""What a sentence says around a claim besides its parties: qualifiers ("up to", "nearly"),
conditions (framework, precision, batch size) and a negation that denies the comparison."""

from __future__ import annotations

from perfledger.sources.claims.lexicon import Lexicon, fold
from perfledger.sources.claims.mentions import clause_start
from perfledger.sources.claims.records import Sentence


def find_qualifiers(
    sentence: Sentence, prefix: str | None, lex: Lexicon, extra: list[str]
) -> str | None:
    found = [q for q in [prefix, *extra] if q] + sentence.qualifiers
    unique = list(dict.fromkeys(found))
    return "; ".join(unique) if unique else None


def find_context_qualifiers(text: str, lex: Lexicon) -> list[str]:
    found = [lex.context_of.get(fold(m.group(0)), "") for m in lex.context_re.finditer(text)]
    return list(dict.fromkeys(q for q in found if q))


def find_conditions(text: str, lex: Lexicon) -> str | None:
    parts = []
    for key, pattern, table in (
        ("framework", lex.framework_re, lex.framework_of),
        ("precision", lex.precision_re, lex.precision_of),
    ):
        values = [table.get(fold(m.group(0)), m.group(0)) for m in pattern.finditer(text)]
        if values:
            parts.append(f"{key}={','.join(dict.fromkeys(values))}")
    batches = [" ".join(m.group(0).split()) for m in lex.batch_re.finditer(text)]
    if batches:
        parts.append(f"batch_size={','.join(dict.fromkeys(batches))}")
    return "; ".join(parts) if parts else None


def find_negation(sentence: Sentence, position: int, lex: Lexicon) -> str | None:
    """A negation a few words before the comparison denies it ("is not 2x faster")."""
    text = sentence.text
    start = max(clause_start(sentence, position), position - 60)
    for match in lex.negation_re.finditer(text, start, position):
        if lex.negation_exception_at.match(text, match.start()):
            continue
        if len(text[match.end() : position].split()) <= 5:
            return match.group(0)
    return None


def read_prefix(text: str, position: int, lex: Lexicon) -> tuple[int, str | None]:
    match = lex.prefix_tail.search(text, max(0, position - 30), position)
    if match is None:
        return position, None
    return match.start(1), lex.prefix_of.get(fold(match.group(1)))


def read_suffix(text: str, position: int, lex: Lexicon) -> tuple[int, str | None]:
    match = lex.suffix_at.match(text, position, position + 30)
    if match is None:
        return position, None
    return match.end(), lex.suffix_of.get(fold(match.group(1)))
