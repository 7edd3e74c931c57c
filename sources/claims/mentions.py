"""Where a sentence's vocabulary mentions are, and where the clause around a position starts
and ends: every lookup a bisection of positions found once per sentence."""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping

from perfledger.sources.claims.lexicon import fold
from perfledger.sources.claims.records import CLAUSE_REACH, Mention, Mentions, Sentence


def find_mentions(pattern: re.Pattern[str], table: Mapping[str, str], text: str) -> Mentions:
    mentions = []
    for match in pattern.finditer(text):
        canonical = lookup(table, match.group(0))
        if canonical is not None:
            mentions.append(Mention(match.start(), match.end(), canonical, match.group(0)))
    return Mentions(mentions)


def lookup(table: Mapping[str, str], text: str) -> str | None:
    key = fold(text)
    if key in table:
        return table[key]
    # A matched system may carry a generic suffix ("V100 GPU setup"): retry without it.
    head, _, _ = key.rpartition(" ")
    while head:
        if head in table:
            return table[head]
        head, _, _ = head.rpartition(" ")
    stem = key.rsplit("-", 1)[0]
    return table.get(stem)


def clause_start(sentence: Sentence, position: int) -> int:
    index = bisect.bisect_right(sentence.breaks, position) - 1
    start = sentence.breaks[index] if index >= 0 else 0
    # A clause is read at most CLAUSE_REACH characters away, so that an endless unpunctuated
    # "sentence" holding thousands of claims costs linear time, not a scan per claim.
    return max(start, position - CLAUSE_REACH)


def clause_end(sentence: Sentence, position: int) -> int:
    index = bisect.bisect_right(sentence.breaks, position)
    # breaks holds ends; the breaker itself starts a little earlier, which is close enough here
    end = sentence.breaks[index] if index < len(sentence.breaks) else len(sentence.text)
    return min(end, position + CLAUSE_REACH)


def strong_end(sentence: Sentence, position: int) -> int:
    index = bisect.bisect_right(sentence.strong_breaks, position)
    if index < len(sentence.strong_breaks):
        return sentence.strong_breaks[index]
    return len(sentence.text)


def mentions_between(mentions: Mentions, start: int, end: int) -> list[Mention]:
    low = bisect.bisect_left(mentions.starts, start)
    high = bisect.bisect_left(mentions.starts, end)
    return [m for m in mentions[low:high] if m.end <= end]
