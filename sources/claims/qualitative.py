"""Claims carried by words without a number ("outperforms", "ahead of", "higher throughput
than"): a direction and no ratio."""

from __future__ import annotations

from perfledger.sources.claims.anchors import metric_mention
from perfledger.sources.claims.lexicon import FROM_CONTEXT, Lexicon, fold
from perfledger.sources.claims.mentions import clause_end, mentions_between, strong_end
from perfledger.sources.claims.parts import Trigger
from perfledger.sources.claims.qualifiers import find_negation, find_qualifiers
from perfledger.sources.claims.records import (
    Anchor,
    Context,
    Draft,
    Mention,
    Problem,
    Reading,
    Sentence,
)
from perfledger.sources.claims.resolution import (
    check_parties,
    quantifies,
    read_baseline_slot,
    resolve_model,
    resolve_subject,
    score,
)


def find_triggers(sentence: Sentence, lex: Lexicon) -> list[Trigger]:
    """Words that compare without a number: "outperforms", "ahead of", "advantage over"."""
    text = sentence.text
    triggers = [
        Trigger(m.start(), m.end(), m.end(), "verb") for m in lex.qual_verb_re.finditer(text)
    ]
    triggers += [
        Trigger(m.start(), m.end(), m.end(), "ahead") for m in lex.qual_ahead_re.finditer(text)
    ]
    triggers += advantage_triggers(sentence, lex)
    triggers += comparative_triggers(sentence, lex)
    kept: list[Trigger] = []
    for trigger in sorted(triggers, key=lambda t: (t.start, -t.end)):
        if not kept or trigger.start >= kept[-1].end:
            kept.append(trigger)
    return kept


def advantage_triggers(sentence: Sentence, lex: Lexicon) -> list[Trigger]:
    text = sentence.text
    triggers = []
    for noun in lex.qual_noun_re.finditer(text):
        end = min(noun.end() + 60, strong_end(sentence, noun.end()))
        marker = lex.qual_marker_re.search(text, noun.end(), end)
        if marker is None:
            continue
        before = mentions_between(sentence.metrics, max(0, noun.start() - 30), noun.start())
        metric = before[-1] if before and not text[before[-1].end : noun.start()].strip() else None
        start = metric.start if metric else noun.start()
        triggers.append(Trigger(start, marker.end(), marker.end(), "advantage", metric))
    return triggers


def comparative_triggers(sentence: Sentence, lex: Lexicon) -> list[Trigger]:
    text = sentence.text
    triggers = []
    for match in lex.comparative_re.finditer(text):
        sense = lex.comparative_sense.get(fold(match.group(0)))
        metric = None
        if sense in ("up", "down"):
            found = lex.metric_at.match(text, match.end(), match.end() + 40)
            metric = metric_mention(found, lex)
            if metric is None:
                continue
        end = min(match.end() + 60, strong_end(sentence, match.end()))
        than = lex.than_re.search(text, match.end(), end)
        if than is None or quantifies(text, than.end(), lex):
            continue
        triggers.append(Trigger(match.start(), than.end(), than.end(), "than", metric))
    return triggers


def _triggers(sentence: Sentence, lex: Lexicon) -> list[Trigger]:
    """`find_triggers`, found once for the words of a sentence a page repeats (they depend on
    its words alone), and kept with their index."""
    if lex is not sentence.lex:
        return find_triggers(sentence, lex)
    index = sentence.index
    if index.triggers is None:
        index.triggers = find_triggers(sentence, lex)
    return index.triggers


def extract_qualitative(
    sentence: Sentence, context: Context, lex: Lexicon
) -> tuple[list[Draft], list[Problem]]:
    drafts: list[Draft] = []
    problems: list[Problem] = []
    seen: set[tuple] = set()
    for trigger in _triggers(sentence, lex):
        draft, problem = build_qualitative(sentence, trigger, context, lex)
        if problem:
            problems.append(problem)
            continue
        if draft is None:
            continue
        key = (
            draft.resolution.subject.canonical if draft.resolution.subject else None,
            draft.resolution.baseline.canonical if draft.resolution.baseline else None,
            draft.resolution.metric,
        )
        if key not in seen:
            seen.add(key)
            drafts.append(draft)
    return drafts, problems


def build_qualitative(
    sentence: Sentence, trigger: Trigger, context: Context, lex: Lexicon
) -> tuple[Draft | None, Problem | None]:
    text = sentence.text
    claim = text[trigger.start : trigger.end]
    base = read_baseline_slot(sentence, trigger.slot_start, lex)
    if base.baseline_kind != "system":
        if sentence.systems or sentence.vendors:
            return None, Problem("no_baseline", f"'{claim}' compares with no known system")
        return None, None
    baseline = base.baseline
    assert baseline is not None  # read_baseline_slot names the system of a "system" baseline
    negation = find_negation(sentence, trigger.start, lex)
    if negation:
        return None, Problem(
            "negated", f"'{negation}' before '{claim}' denies or weakens the comparison"
        )
    # subject resolution works on a claim span; the trigger words are that span here
    reading = Reading(
        Anchor(trigger.start, trigger.end, 0.0, "multiplier"),
        trigger.start,
        trigger.end,
        trigger.start,
        trigger.end,
        "better",
        "qual",
    )
    subject, subject_tag, subject_penalty = resolve_subject(
        sentence, reading, trigger.start, {baseline}, None, baseline.end, lex
    )
    base.subject = subject
    if subject is not None and subject.canonical == baseline.canonical:
        return None, check_parties(claim, base)
    sense = qualitative_sense(text[trigger.start : trigger.end], lex)
    metric, metric_tag = resolve_qualitative_metric(sentence, trigger, baseline, lex)
    base.metric = metric
    model, task, model_tag = resolve_model(sentence, trigger.start, context, lex)
    base.model, base.task = model, task
    intensifier = lex.intensifier_tail.search(text, max(0, trigger.start - 20), trigger.start)
    start = intensifier.start(1) if intensifier else trigger.start
    prefix = lex.intensifier_of.get(fold(intensifier.group(1))) if intensifier else None
    tags = [subject_tag, *base.tags, metric_tag, model_tag]
    return Draft(
        start=start,
        end=trigger.end,
        resolution=base,
        form=f"qual-{trigger.form}" + "".join(t for t in tags if t),
        qualifier=find_qualifiers(sentence, prefix, lex, []),
        ratio=None,
        ratio_text=None,
        kind=None,
        direction=sense,
        confidence=score(0.65, subject_penalty + base.penalty),
    ), None


def qualitative_sense(words: str, lex: Lexicon) -> str:
    for word in words.split():
        if lex.comparative_sense.get(fold(word)) == "worse":
            return "worse"
    return "better"


def resolve_qualitative_metric(
    sentence: Sentence, trigger: Trigger, baseline: Mention, lex: Lexicon
) -> tuple[str, str]:
    if trigger.metric is not None and trigger.metric.canonical != FROM_CONTEXT:
        return trigger.metric.canonical, ""
    after = [
        m
        for m in mentions_between(
            sentence.metrics, baseline.end, clause_end(sentence, baseline.end)
        )
        if m.canonical != FROM_CONTEXT
    ]
    if after:
        return after[0].canonical, "+metric-context"
    return "performance", "+metric-default"
