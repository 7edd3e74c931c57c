"""The change a claim credits when it names no baseline: "SGLang w/ torch.compile yields up to
a 1.5x speedup", "achieves 1.3x faster ... by introducing CUDA graph", "with MTP for 1.4-2.2x
faster inference". The claim compares its subject with that change against the subject
without it, as "5-7x slowdown without warm-up" compares with the subject with it."""

from __future__ import annotations

import re

from perfledger.sources.claims.lexicon import Lexicon
from perfledger.sources.claims.phrases import phrase_after

# "with X", "w/ X", "by introducing X": what the claim's subject runs with; not "compared
# with", "along with", "on par with" (a baseline or a parity), nor "with up to N" (a number)
ENABLED = re.compile(
    r"(?<![\w/-])(?<!compared )(?<!comparing )(?<!along )(?<!together )(?<!par )(?<!line )"
    r"(?:w/|with|by (?:introducing|enabling|adding|using|applying|turning on)"
    r"|after (?:enabling|applying|adding|introducing))(?=\s)",
    re.IGNORECASE,
)
# a thing's own name has a capital, an inner dot or a digit after a letter ("torch.compile",
# "CUDA graph", "MTP"); common words ("window size calibration", "large batch size(≥128)")
# say how a run was set
PROPER = re.compile(r"[A-Z]|\w[._]\w|[a-z][0-9]")
REACH = 80  # characters around a claim where "with X" conditions it
CLAUSE_END = re.compile(r"[,;:]|\s[—–]\s")


def enabled_change(text: str, start: int, end: int, lex: Lexicon, subject: str) -> str | None:
    """X of the nearest "with X" in the claim's clause (within REACH of its words), when X is
    a thing's own name, neither a metric, a number nor the subject itself."""
    stop = CLAUSE_END.search(text, end)
    clause_end = stop.start() if stop else len(text)
    clause_start = max((m.end() for m in CLAUSE_END.finditer(text, 0, start)), default=0)
    found = [
        match
        for match in ENABLED.finditer(text, max(clause_start, start - REACH), clause_end)
        if match.start() < end + REACH
    ]
    for match in sorted(found, key=lambda m: abs(m.start() - start)):
        phrase = phrase_after(text, match.end(), lex, clause_end)
        if (
            phrase is None
            or phrase.kind != "name"
            or lex.metric_re.search(phrase.text)
            or phrase.text[:1].isdigit()
            or phrase.text.casefold() in subject.casefold()
            or not any(PROPER.search(word) for word in phrase.text.split())
        ):
            continue
        return phrase.text
    return None
