"""The numbers that may carry a ratio ("3.4x", "31%", "half") and what the words right
after or before each one say of it: a direction, a metric, a baseline marker."""

from __future__ import annotations

import re

from perfledger.sources.claims.lexicon import Lexicon, fold
from perfledger.sources.claims.mentions import lookup, mentions_between
from perfledger.sources.claims.records import WINDOW, Anchor, Mention, Reading, Sentence

# The lower end of a range right before a ratio's number: "14x - 24x", "18-200x", "61-88%",
# "1.5x to 2.5x", "from ~10% to ~60%", "between 2x and 3x".
RANGE_LOW = re.compile(
    r"(?<![\w.,])~?([0-9]{1,6}(?:\.[0-9]{1,4})?)[ \t]?(?:[xX×%]|times)?[ \t]{0,2}"
    r"(?:-|–|—|to|and)[ \t]{0,2}~?[ \t]?$"
)


def find_anchors(text: str, lex: Lexicon) -> list[Anchor]:
    anchors = []
    for pattern, unit in (
        (lex.multiplier_re, "multiplier"),
        (lex.percent_re, "percent"),
        (lex.prefix_multiplier_re, "multiplier"),
    ):
        for match in pattern.finditer(text):
            value = float(match.group(1).replace(",", ""))
            anchors.append(with_range(text, Anchor(match.start(), match.end(), value, unit)))
    for match in lex.word_number_re.finditer(text):
        value, unit = lex.word_number.get(fold(match.group(0)), (0.0, ""))
        if unit:
            anchors.append(Anchor(match.start(), match.end(), value, unit))
    return drop_overlaps(sorted(anchors, key=lambda a: (a.start, -a.end)))


def with_range(text: str, anchor: Anchor) -> Anchor:
    """A ratio that ends a range ("14x - 24x higher") stands for the range: its span starts
    at the lower end, and its value is the larger magnitude of the two."""
    low = RANGE_LOW.search(text, max(0, anchor.start - 24), anchor.start)
    if low is None:
        return anchor
    lower = float(low.group(1))
    if lower <= 0:
        return anchor
    # "1.74x and 1.60x faster": the figure written first may be the larger one
    return Anchor(
        low.start(),
        anchor.end,
        max(lower, anchor.value),
        anchor.unit,
        True,
        min(lower, anchor.value),
    )


def drop_overlaps(anchors: list[Anchor]) -> list[Anchor]:
    kept: list[Anchor] = []
    for anchor in anchors:
        if not kept or anchor.start >= kept[-1].end:
            kept.append(anchor)
    return kept


def is_count(text: str, anchor: Anchor, lex: Lexicon) -> bool:
    return anchor.unit == "multiplier" and bool(
        lex.count_at.match(text, anchor.end, anchor.end + WINDOW)
    )


_BASELINE_NEXT = re.compile(r"[ \t]+")
_NUMBER_NEXT = re.compile(r"\s*[~\d]")


def read_anchor(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    """Find the direction words that turn a number into a comparison, after it or before it."""
    return (
        read_after(sentence, anchor, lex)
        or read_before(sentence, anchor, lex)
        or read_change_in_brackets(sentence, anchor, lex)
        or read_bare_multiplier(sentence, anchor, lex)
    )


def read_bare_multiplier(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    """ "MXFP8 delivers ~1.44x over BF16": a multiplier that no other words read and that its
    baseline follows at once is a speedup, as "1.44x speedup over BF16" is ("8x over 2 nodes"
    counts what a run spans)."""
    text, end = sentence.text, anchor.end
    if anchor.unit != "multiplier":
        return None
    if _ACHIEVED.search(text, max(0, anchor.start - 40), anchor.start) and _ALONE_AFTER.match(
        text, end
    ):
        # "MI355X GPU achieves 1.16X in Primus-TorchTitan": the ratio a system is said to
        # reach, against the baseline its section names
        sense = "better" if anchor.value >= 1 else "worse"
        return Reading(anchor, anchor.start, end, anchor.start, end, sense, "noun")
    if not (space := _BASELINE_NEXT.match(text, end)):
        return None
    marker = lex.marker_re.match(text, space.end())
    if marker is None or _NUMBER_NEXT.match(text, marker.end()):
        return None
    return Reading(anchor, anchor.start, end, anchor.start, end, "better", "noun")


# A verb of reaching a result right before a ratio, with at most an article or a hedge between
_ACHIEVED = re.compile(
    r"(?i)(?<![\w-])(?:achieve[sd]?|deliver(?:s|ed)?|show(?:s|ed)?|provide[sd]?|offer(?:s|ed)?"
    r"|reach(?:es|ed)?|attain(?:s|ed)?|yield(?:s|ed)?|demonstrate[sd]?|post(?:s|ed)?)"
    r"[ \t]+(?:an?[ \t]+|(?:about|around|approximately|nearly|roughly|over)[ \t]+)?~?[ \t]?$"
)
# What may follow such a ratio: the end of its clause, or the place or run it was reached in
_ALONE_AFTER = re.compile(
    r"[ \t]*(?:$|[.,;:)!]|(?:in|on|at|for|with|across|when|under|using)(?![\w-]))", re.I
)


def read_after(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    text, end = sentence.text, anchor.end
    limit = min(len(text), end + WINDOW)

    def reading(stop: int, sense: str | None, grammar: str, **parts) -> Reading | None:
        if sense is None:
            return None
        return Reading(anchor, anchor.start, stop, anchor.start, stop, sense, grammar, **parts)

    if anchor.unit != "fraction":
        if match := lex.comparative_at.match(text, end, limit):
            metric = lex.metric_at.match(text, match.end(), limit)
            found = reading(
                metric.end() if metric else match.end(),
                lex.comparative_sense.get(fold(match.group(1))),
                "adj",
                metric=metric_mention(metric, lex),
            )
            if found:
                # the ratio words stop at the comparative; the metric belongs to the claim only
                found.ratio_end = match.end()
            return found
        if match := lex.equative_at.match(text, end, limit):
            sense = lex.equative_sense.get(fold(match.group(1)))
            return reading(match.end(), sense, "as", marker_end=match.end(), marker_text="as")
        if match := lex.metric_noun_at.match(text, end, limit):
            sense = lex.noun_sense.get(fold(match.group(2)))
            return reading(match.end(), sense, "noun", metric=metric_mention(match, lex))
        if match := lex.noun_at.match(text, end, limit):
            metric = metric_mention(match, lex, "metric") if match.group("metric") else None
            return reading(
                match.end(),
                lex.noun_sense.get(fold(match.group("noun"))),
                "noun",
                metric=metric or modifier_metric(match, lex),
            )
        if anchor.unit == "multiplier" and (match := lex.metric_marker_at.match(text, end, limit)):
            return reading(match.end(), "quantity", "the", metric=metric_mention(match, lex))
    match = lex.quantity_at.match(text, end, limit)
    # "80% of the performance" compares with a whole; "33% of the total execution time" is
    # a share of one run, and a bare "31% the ..." is neither
    if (
        match
        and (anchor.unit != "percent" or fold(match.group(0)).startswith("of "))
        and not lex.share_words.intersection(fold(match.group(0)).split())
    ):
        return reading(match.end(), "quantity", "the", metric=metric_mention(match, lex))
    if match := lex.of_what_at.match(text, end, limit):
        metric = metric_before(sentence, anchor.start)
        found = reading(
            match.end(),
            "quantity",
            "of-what",
            metric=metric,
            marker_end=match.end(),
            marker_text="of what",
        )
        if found is None or metric is None:
            return None
        found.span_start = metric.start
        return found
    return None


def read_before(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    text, start = sentence.text, anchor.start
    if anchor.unit == "fraction":
        return None
    window_start = max(0, start - 40)
    if match := lex.noun_of_tail.search(text, window_start, start) or lex.noun_range_tail.search(
        text, window_start, start
    ):
        sense = lex.noun_sense.get(fold(match.group(1)))
        if sense is None:
            return None
        return Reading(
            anchor, match.start(), anchor.end, match.start(), anchor.end, sense, "noun-of"
        )
    by = lex.by_tail.search(text, window_start, start)
    if by is None:
        return None
    verbs = list(lex.verb_re.finditer(text, max(0, by.start() - 80), by.start()))
    if not verbs:
        return None
    verb = verbs[-1]
    sense = lex.verb_sense.get(fold(verb.group(0)))
    if sense is None:
        return None
    metrics = mentions_between(sentence.metrics, verb.end(), by.start())
    # "outperforms all other setups by ~6x": the verb's object is the baseline; "was beaten
    # by Gaudi2 by 2 times": the agent is the subject (sources/claims/quantitative.py)
    passive = lex.passive_re.search(text, max(0, verb.start() - 40), by.start())
    compares = fold(verb.group(0)) in lex.object_verbs and passive is None
    return Reading(
        anchor,
        verb.start(),
        anchor.end,
        verb.start(),
        anchor.end,
        sense,
        "by-passive" if passive is not None and passive.end() > verb.start() else "by",
        metrics[0] if metrics else None,
        marker_end=verb.end() if compares else None,
        marker_text=verb.group(0) if compares else None,
    )


# "reduce iteration-time from 13 sec to 9.5 sec on 512 GPUs (37%)": the bracketed number
# states the change the clause before it describes
FROM_TO = re.compile(
    r"(?<!\w)from\s{1,3}~?[0-9][^()]{0,40}?\s(?:to|->|→)\s{1,3}~?[0-9][^()]{0,60}$", re.IGNORECASE
)


def read_change_in_brackets(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    text, start = sentence.text, anchor.start
    if not text[max(0, start - 2) : start].rstrip().endswith("(") or not text[
        anchor.end : anchor.end + 2
    ].lstrip().startswith(")"):
        return None
    bracket = text.rfind("(", 0, start)
    change = FROM_TO.search(text, max(0, bracket - 120), bracket)
    if change is None:
        return None
    verbs = list(lex.verb_re.finditer(text, max(0, change.start() - 120), change.start()))
    if not verbs or lex.verb_sense.get(fold(verbs[-1].group(0))) is None:
        return None
    verb = verbs[-1]
    metrics = mentions_between(sentence.metrics, verb.end(), change.start())
    return Reading(
        anchor,
        anchor.start,
        anchor.end,
        anchor.start,
        anchor.end,
        "better",
        "change",
        metrics[0] if metrics else None,
    )


def modifier_metric(match: re.Match[str], lex: Lexicon) -> Mention | None:
    """The metric a word between a number and its noun names ("1.3x training speedup")."""
    word = match.group("modifier")
    metric = lex.modifier_metric.get(fold(word)) if word else None
    if not metric:
        return None
    return Mention(match.start("modifier"), match.end("modifier"), metric, word)


def metric_mention(
    match: re.Match[str] | None, lex: Lexicon, group: int | str = 1
) -> Mention | None:
    if match is None:
        return None
    canonical = lookup(lex.metric_of, match.group(group))
    if canonical is None:
        return None
    return Mention(match.start(group), match.end(group), canonical, match.group(group))


def metric_before(sentence: Sentence, position: int) -> Mention | None:
    # "costs half of what X does": the metric word stands right before the fraction.
    candidates = mentions_between(sentence.metrics, max(0, position - 12), position)
    return candidates[-1] if candidates else None
