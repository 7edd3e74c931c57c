"""Claims that two systems perform alike ("FP8 matches BF16 throughput", "FP8 performs
identical to BF16"): a ratio of 1.0, kind "parity", when the sentence names both sides and the
metric is a performance metric (from the sentence, else the paragraph or section before)."""

from __future__ import annotations

import re
from functools import cache

from perfledger.schemas.claims import load_claim_vocab
from perfledger.sources.claims.lexicon import Lexicon, build_alternation, fold, reported_metric
from perfledger.sources.claims.mentions import find_mentions, lookup
from perfledger.sources.claims.models import context_model
from perfledger.sources.claims.parties import (
    context_subject,
    own_subject,
    resolve_phrase,
    with_full_name,
)
from perfledger.sources.claims.phrases import Phrase, name_like, phrase_after
from perfledger.sources.claims.qualifiers import find_negation, find_qualifiers
from perfledger.sources.claims.records import Context, Draft, Resolution, Sentence
from perfledger.sources.claims.resolution import resolve_model, score

# "matches the speed of", "matches the throughput of": the metric the parity is about
METRIC_OF = re.compile(r"\s{1,3}the\s{1,3}([\w/ -]{1,40}?)\s{1,3}of(?=\s)", re.IGNORECASE)
METRIC_REACH = 40  # characters after the baseline where its metric may stand
PASSIVE = re.compile(
    r"(?<!\w)(?:is|are|was|were|be|been|being|get|gets|got)\s{1,3}$", re.IGNORECASE
)


@cache
def parity_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    table = load_claim_vocab()["parity"]
    verbs = build_alternation(table["verbs"])
    copulas = build_alternation(table["copulas"])
    phrases = build_alternation(table["phrases"])
    verb = re.compile(rf"(?<!\w)(?:{verbs})(?!\w)(?!\s{{1,3}}or\b)", re.IGNORECASE)
    phrase = re.compile(
        rf"(?<!\w)(?:{copulas})\s{{1,3}}(?:\w+ly\s{{1,3}})?(?:{phrases})(?!\w)", re.IGNORECASE
    )
    either = re.compile(rf"(?<!\w)(?:{verbs}|{phrases})(?!\w)", re.IGNORECASE)
    return verb, phrase, either


def extract_parity(sentence: Sentence, context: Context, lex: Lexicon) -> list[Draft]:
    verb, phrase, either = parity_patterns()
    text = sentence.text
    if not either.search(text):
        return []
    drafts = []
    for match in list(verb.finditer(text)) + list(phrase.finditer(text)):
        draft = read_parity(sentence, match, match.re is verb, context, lex)
        if draft is not None:
            drafts.append(draft)
    return drafts


def read_parity(
    sentence: Sentence, match: re.Match[str], by_verb: bool, context: Context, lex: Lexicon
) -> Draft | None:
    text = sentence.text
    if find_negation(sentence, match.start(), lex) or PASSIVE.search(text, 0, match.start()):
        return None
    # "SageAttention matches the speed of FlashAttention3-FP8": the metric comes first
    framed = METRIC_OF.match(text, match.end()) if by_verb else None
    framed_metric = lookup(lex.metric_of, framed.group(1)) if framed is not None else None
    if framed is not None and framed_metric:
        return read_framed_parity(sentence, match, framed.end(), framed_metric, context, lex)
    baseline = phrase_after(text, match.end(), lex)
    if (
        baseline is None
        or baseline.kind != "name"
        or not any(name_like(word) for word in baseline.text.split())
    ):
        return None
    metric = None
    if by_verb:
        # "FP8 matches BF16 throughput": the metric closes the baseline's phrase
        metric = metric_at(text, baseline.start, baseline.end + METRIC_REACH, lex)
        if metric is None or metric.start > baseline.end + 2:
            return None
        baseline = phrase_after(text, match.end(), lex, metric.start)
        if baseline is None or baseline.kind != "name":
            return None
        metric_name, tag = metric.canonical, ""
    else:
        found = metric_at(text, baseline.end, baseline.end + METRIC_REACH, lex)
        metric_name, tag = (found.canonical, "") if found else context_metric(context, lex)
    return parity_draft(sentence, match, baseline, metric_name, tag, context, lex)


def read_framed_parity(
    sentence: Sentence,
    match: re.Match[str],
    baseline_start: int,
    metric_name: str,
    context: Context,
    lex: Lexicon,
) -> Draft | None:
    baseline = phrase_after(sentence.text, baseline_start, lex)
    if baseline is None or baseline.kind != "name":
        return None
    return parity_draft(sentence, match, baseline, metric_name, "", context, lex)


def parity_draft(
    sentence: Sentence,
    match: re.Match[str],
    baseline: Phrase,
    metric_name: str | None,
    tag: str,
    context: Context,
    lex: Lexicon,
) -> Draft | None:
    text = sentence.text
    if metric_name is None or metric_name in lex.not_performance:
        return None
    subject, subject_tag, phrase = own_subject(sentence, match.start(), lex)
    if subject is None:
        subject, subject_tag = context_subject(
            phrase, sentence, match.start(), lex, context.discourse
        )
    if subject is None:
        return None
    base = with_full_name(resolve_phrase(text, baseline, lex), context, lex)
    subject = with_full_name(subject, context, lex)
    if fold(base.canonical) == fold(subject.canonical):
        return None
    model, task, model_tag = resolve_model(sentence, match.start(), context, lex)
    known = True
    if model is None:
        model, known, model_tag = context_model(text, match.start(), lex, context)
    resolution = Resolution(
        subject=subject,
        baseline=base,
        baseline_kind="system",
        metric=reported_metric(metric_name, lex),
        model=model,
        model_known=known,
        task=task,
    )
    tags = [subject_tag, tag, model_tag]
    return Draft(
        start=match.start(),
        end=match.end(),
        resolution=resolution,
        form="parity" + "".join(t for t in tags if t),
        qualifier=find_qualifiers(sentence, None, lex, []),
        ratio=1.0,
        ratio_text=text[match.start() : match.end()],
        kind="parity",
        direction="better",
        confidence=score(0.8, 0.1 if tag else 0.0),
    )


def metric_at(text: str, start: int, end: int, lex: Lexicon):
    found = [m for m in find_mentions(lex.metric_re, lex.metric_of, text[:end]) if m.start >= start]
    return found[0] if found else None


def context_metric(context: Context, lex: Lexicon) -> tuple[str | None, str]:
    """The metric the paragraph, then the section, spoke of last ("P99 TTFT for ...")."""
    discourse = context.discourse
    if discourse is None:
        return None, ""
    for text in discourse.current_before() + discourse.previous_sentences():
        found = [
            m
            for m in find_mentions(lex.metric_re, lex.metric_of, text)
            if m.canonical in lex.speed_metrics or m.canonical in lex.not_performance
        ]
        if found:
            return found[0].canonical, "+metric-previous"
    return None, ""
