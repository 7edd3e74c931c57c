"""Extract comparative performance claims ("3.4x higher throughput than the A100") from prose.

Conversion rules. `ratio` is a multiplier in the subject's *better* direction: 2.0 means twice
as good as the baseline, 0.5 half as good, whatever the metric's unit. A metric is "lower is
better" when the vocabulary says so (latency, price, time_to_train, time_to_result, power).

* "Nx faster|better", "Nx <metric> advantage|gains|speedup|improvement" -> N;
  "Nx slower|worse" -> 1/N.
* "Nx higher|more|lower|less <metric>" -> N when the change is good for that metric
  ("16x lower latency" -> 16, "2.6x more images per second" -> 2.6), else 1/N
  ("3x lower throughput" -> 1/3). Without a metric the sense is unknown: rejected.
* "N% faster" -> 1 + N/100, a speed multiplier ("31% faster time-to-train" -> 1.31).
  "N% slower" -> 1/(1 + N/100), so "A is N% slower than B" == "B is N% faster than A"
  ("12% slower" -> 0.893); "N% worse" likewise. "N% improvement|better|gain",
  "improvements of N%", "beats X by N%" -> 1 + N/100.
* "N% more|higher <metric>" -> 1 + N/100 if higher is better, else 1/(1 + N/100).
* "N% less|lower <metric>", "reduced <metric> by N%": the metric is multiplied by 1 - N/100,
  so 1/(1 - N/100) when lower is better ("reduced time-to-train by 31%" -> 1.449) and
  1 - N/100 when higher is better; N >= 100 is rejected.
* Fractions or multiples of the baseline's quantity ("80% of the performance", "half the cost",
  "costs half of what X does", "2x the throughput of X"): the metric is multiplied by f, so the
  ratio is f when higher is better (0.8) and 1/f when lower is better ("half the cost" -> 2.0,
  metric price).
* "Nx <system>" ("8x A100 GPUs", "a 2x DGX A100 system") counts hardware: never a ratio; a
  counted baseline keeps its count in `baseline_count`.
* Ranges ("2-3x"), negated comparisons ("is not 2x faster", "no faster than") and claims whose
  sides cannot be told apart go to `rejected` with a reason instead of becoming rows.
* Word numbers come from the vocabulary ("twice" = 2, "an order of magnitude" = 10).
* Qualitative comparisons ("outperforms", "ahead of", "higher throughput than") have a null
  ratio and a direction. `ratio_text` always keeps the original words.

A claim's model may come from the nearest preceding heading; `method` then carries
"+model-heading". Other fallbacks are named the same way ("+subject-vendor", ...) and lower
`confidence`.

Most prose holds no claim: pages, paragraphs and sentences without any cue a claim needs (a
ratio number or word, a comparison verb, ...) are skipped before indexing; see
sources/claims/cues.py for why that never changes a result.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import polars as pl

from schemas.claims import (
    CLAIM_COLUMNS,
    MAX_RATIO,
    REJECTED_COLUMNS,
    load_claim_vocab,
    validate_claims,
    validate_rejected,
)
from sources.claims.cues import Cues, build_cues, may_hold_claim, may_hold_claim_loosely

WINDOW = 160  # characters searched around a claim for its parts; keeps every lookup bounded
CLAUSE_REACH = WINDOW * 2
SPACE = r"\s{1,3}"


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimResult:
    claims: pl.DataFrame  # validated by ClaimSchema (schemas.claims.validate_claims)
    rejected: pl.DataFrame  # line_number, sentence, check, reason


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    canonical: str
    text: str


@dataclass(frozen=True)
class Anchor:
    """A number that may carry a ratio: "3.4x", "31%", "half", "an order of magnitude"."""

    start: int
    end: int
    value: float
    unit: str  # "multiplier" | "percent" | "fraction"
    ends_range: bool = False  # preceded by "2-" / "2 to": the number ends a range


@dataclass
class Reading:
    """What the words around an anchor say about it."""

    anchor: Anchor
    span_start: int
    span_end: int
    ratio_start: int
    ratio_end: int
    sense: str  # better | worse | up | down | quantity
    grammar: str  # adj | noun | by | noun-of | the | of-what | as
    metric: Mention | None = None
    marker_end: int | None = None  # the reading already holds its baseline marker
    marker_text: str | None = None


@dataclass
class Resolution:
    """A claim's parts once subject, baseline, metric and model are resolved."""

    subject: Mention | None = None
    baseline: Mention | None = None
    baseline_kind: str | None = None
    baseline_count: int | None = None
    metric: str | None = None
    model: str | None = None
    task: str | None = None
    tags: list[str] = field(default_factory=list)
    penalty: float = 0.0


# A resolved baseline, the marker word that introduced it, and where that marker starts.
Baseline = tuple[Resolution, str | None, int | None]


@dataclass(frozen=True)
class Problem:
    check: str
    reason: str


class Mentions(list):
    """Mentions in text order, with their starts kept for bisection."""

    def __init__(self, items: Iterable[Mention] = ()) -> None:
        super().__init__(items)
        self.starts = [m.start for m in self]


@dataclass
class Sentence:
    """A sentence with every vocabulary mention located once, so lookups stay cheap."""

    text: str
    line_number: int
    systems: Mentions
    vendors: Mentions
    models: Mentions
    metrics: Mentions
    priors: Mentions
    breaks: list[int]  # clause boundaries (ends of breaker words / punctuation)
    strong_breaks: list[int]  # starts of breakers that also end a baseline
    anchors: list[Anchor]
    anchor_ends: list[int]
    qualifiers: list[str]  # context qualifiers, canonical, in order
    conditions: str | None


@dataclass(frozen=True)
class Context:
    """What the page says around a sentence: the current heading's model and task."""

    heading_model: str | None = None
    heading_task: str | None = None


# --- vocabulary ------------------------------------------------------------------------------


def fold(text: str) -> str:
    return " ".join(text.casefold().split())


def build_alternation(words: Iterable[str]) -> str:
    # Longest first so that "DGX A100 640GB" wins over "DGX A100" at the same start.
    ordered = sorted({w for w in words if w}, key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", SPACE) for w in ordered)


def compile_words(words: Iterable[str], suffix: str = "") -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{build_alternation(words)}){suffix}(?!\w)", re.IGNORECASE)


def invert(groups: Mapping[str, Iterable[str]]) -> dict[str, str]:
    return {fold(word): key for key, words in groups.items() for word in words}


@dataclass(frozen=True)
class Lexicon:
    vocab: Mapping
    system_re: re.Pattern[str]
    system_of: dict[str, str]
    vendor_re: re.Pattern[str]
    vendor_of: dict[str, str]
    model_re: re.Pattern[str]
    model_of: dict[str, str]
    metric_re: re.Pattern[str]
    metric_of: dict[str, str]
    prior_re: re.Pattern[str]
    breaker_re: re.Pattern[str]
    strong_re: re.Pattern[str]
    comparative_re: re.Pattern[str]
    comparative_at: re.Pattern[str]
    comparative_sense: dict[str, str]
    noun_at: re.Pattern[str]
    noun_sense: dict[str, str]
    metric_noun_at: re.Pattern[str]
    metric_at: re.Pattern[str]
    quantity_at: re.Pattern[str]
    of_what_at: re.Pattern[str]
    equative_at: re.Pattern[str]
    equative_sense: dict[str, str]
    verb_re: re.Pattern[str]
    verb_sense: dict[str, str]
    by_tail: re.Pattern[str]
    noun_of_tail: re.Pattern[str]
    count_at: re.Pattern[str]
    multiplier_re: re.Pattern[str]
    percent_re: re.Pattern[str]
    word_number_re: re.Pattern[str]
    word_number: dict[str, tuple[float, str]]
    prefix_tail: re.Pattern[str]
    prefix_of: dict[str, str]
    suffix_at: re.Pattern[str]
    suffix_of: dict[str, str]
    context_re: re.Pattern[str]
    context_of: dict[str, str]
    intensifier_tail: re.Pattern[str]
    intensifier_of: dict[str, str]
    marker_re: re.Pattern[str]
    adjacent_marker_at: re.Pattern[str]
    leading_re: re.Pattern[str]
    negation_re: re.Pattern[str]
    negation_exception_at: re.Pattern[str]
    qual_verb_re: re.Pattern[str]
    qual_ahead_re: re.Pattern[str]
    qual_noun_re: re.Pattern[str]
    qual_marker_re: re.Pattern[str]
    than_re: re.Pattern[str]
    framework_re: re.Pattern[str]
    framework_of: dict[str, str]
    precision_re: re.Pattern[str]
    precision_of: dict[str, str]
    batch_re: re.Pattern[str]
    task_at: re.Pattern[str]
    task_re: re.Pattern[str]
    task_of: dict[str, str]


def collect_aliases(table: Mapping) -> dict[str, list[str]]:
    return {name: list(entry.get("aliases", [])) + [name] for name, entry in table.items()}


def flatten(groups: Mapping[str, Iterable[str]]) -> list[str]:
    return [word for words in groups.values() for word in words]


def fold_keys(table: Mapping[str, str]) -> dict[str, str]:
    return {fold(key): value for key, value in table.items()}


def build_number_words(vocab: Mapping) -> dict[str, tuple[float, str]]:
    words: dict[str, tuple[float, str]] = {}
    for unit, table in vocab["number_words"].items():
        for word, value in table.items():
            words[fold(word)] = (float(value), unit)
    return words


def compile_at(pattern: str) -> re.Pattern[str]:
    """A pattern meant for `match` right after a position, so it never scans ahead."""
    return re.compile(pattern, re.IGNORECASE)


NUMBER = r"(?<![\w.,$€£])([0-9]{1,3}(?:,[0-9]{3}){1,3}|[0-9]{1,6}(?:\.[0-9]{1,4})?)"
POSSESSIVE = r"(?:'s|’s)?"


@cache
def load_lexicon() -> Lexicon:
    """Compile every vocabulary into anchored or bounded patterns, once per process."""
    vocab = load_claim_vocab()
    structure, directions = vocab["structure"], vocab["directions"]
    qualifiers, qualitative, conditions = (
        vocab["qualifiers"],
        vocab["qualitative"],
        vocab["conditions"],
    )
    systems = collect_aliases(vocab["systems"])
    models = collect_aliases(vocab["models"])
    metrics = {name: entry["words"] for name, entry in vocab["metrics"].items()}
    comparatives, nouns, vendors = directions["comparative"], directions["noun"], vocab["vendors"]
    metric_alt = build_alternation(flatten(metrics))
    noun_alt = build_alternation(flatten(nouns))
    prefix_alt = build_alternation(qualifiers["prefix"])
    vendor_alt = build_alternation(vendors)
    equative_alt = build_alternation(flatten(directions["equative"]))
    count_alt = build_alternation(flatten(systems) + structure["count_nouns"])
    breaker_alt = build_alternation(structure["clause_breakers"])
    strong_alt = build_alternation(structure["strong_breakers"])
    negation_alt = build_alternation(structure["negations"])
    batch_alt = build_alternation(conditions["batch_size"]["modifiers"])
    task_alt = build_alternation(flatten(vocab["tasks"]))
    suffix_alt = build_alternation(vocab["system_suffixes"]["words"])
    return Lexicon(
        vocab=vocab,
        system_re=compile_words(flatten(systems), rf"(?:[ -](?:{suffix_alt}))?"),
        system_of=invert(systems),
        vendor_re=compile_words(vendors, POSSESSIVE),
        vendor_of=vendor_keys(vendors),
        model_re=compile_words(flatten(models)),
        model_of=invert(models),
        metric_re=compile_words(flatten(metrics)),
        metric_of=invert(metrics),
        prior_re=compile_words(structure["prior_results"]),
        breaker_re=compile_at(rf"[,;:()\[\]–—]|(?<!\w)(?:{breaker_alt})(?!\w)"),
        strong_re=compile_at(rf"[;:]|(?<!\w)(?:{strong_alt})(?!\w)"),
        comparative_re=compile_words(flatten(comparatives)),
        comparative_at=compile_at(rf"{SPACE}({build_alternation(flatten(comparatives))})(?!\w)"),
        comparative_sense=invert(comparatives),
        noun_at=compile_at(rf"{SPACE}({noun_alt})(?!\w)"),
        noun_sense=invert(nouns),
        metric_noun_at=compile_at(rf"{SPACE}({metric_alt}){SPACE}({noun_alt})(?!\w)"),
        metric_at=compile_at(rf"{SPACE}(?:the{SPACE})?({metric_alt})(?!\w)"),
        quantity_at=compile_at(rf"{SPACE}(?:of{SPACE})?the{SPACE}({metric_alt})(?!\w)"),
        of_what_at=compile_at(rf"{SPACE}of{SPACE}what(?!\w)"),
        equative_at=compile_at(rf"{SPACE}as{SPACE}({equative_alt}){SPACE}as(?!\w)"),
        equative_sense=invert(directions["equative"]),
        verb_re=compile_words(flatten(directions["verb"]) + flatten(comparatives)),
        verb_sense=invert(directions["verb"]) | invert(comparatives),
        by_tail=compile_at(rf"(?<!\w)by{SPACE}(?:(?:{prefix_alt}){SPACE})?$"),
        noun_of_tail=compile_at(
            rf"(?<!\w)({noun_alt}){SPACE}of{SPACE}(?:(?:{prefix_alt}){SPACE})?$"
        ),
        count_at=compile_at(
            rf"{SPACE}(?:(?:{vendor_alt}){POSSESSIVE}{SPACE})?(?:{count_alt})(?!\w)"
        ),
        multiplier_re=compile_at(NUMBER + r"(?:\s?[x×X](?!\w)|-fold(?!\w)|\s{1,2}times(?!\w))"),
        percent_re=compile_at(NUMBER + r"\s?(?:%|percent(?!\w)|per\s?cent(?!\w))"),
        word_number_re=compile_words(flatten(vocab["number_words"])),
        word_number=build_number_words(vocab),
        prefix_tail=compile_at(rf"(?<!\w)({prefix_alt})\s{{0,3}}$"),
        prefix_of=fold_keys(qualifiers["prefix"]),
        suffix_at=compile_at(rf"{SPACE}({build_alternation(qualifiers['suffix'])})(?!\w)"),
        suffix_of=fold_keys(qualifiers["suffix"]),
        context_re=compile_words(qualifiers["context"]),
        context_of=fold_keys(qualifiers["context"]),
        intensifier_tail=compile_at(
            rf"(?<!\w)({build_alternation(qualifiers['intensifier'])}){SPACE}$"
        ),
        intensifier_of=fold_keys(qualifiers["intensifier"]),
        marker_re=compile_words(structure["baseline_markers"]),
        adjacent_marker_at=compile_at(
            rf"{SPACE}({build_alternation(structure['adjacent_markers'])})(?!\w)"
        ),
        leading_re=compile_words(structure["leading_markers"]),
        negation_re=compile_at(rf"(?<![\w’'])(?:{negation_alt})(?![\w’'])"),
        negation_exception_at=compile_words(structure["negation_exceptions"]),
        qual_verb_re=compile_words(qualitative["verbs"]),
        qual_ahead_re=compile_words(qualitative["ahead"]),
        qual_noun_re=compile_words(qualitative["advantage_nouns"]),
        qual_marker_re=compile_words(qualitative["advantage_markers"]),
        than_re=compile_words(["than"]),
        framework_re=compile_words(conditions["framework"]),
        framework_of=fold_keys(conditions["framework"]),
        precision_re=compile_words(conditions["precision"]),
        precision_of=fold_keys(conditions["precision"]),
        batch_re=compile_at(
            rf"(?<!\w)(?:(?:{batch_alt}){SPACE}){{0,2}}"
            rf"batch[\s-]sizes?(?:{SPACE}(?:of{SPACE})?[0-9]{{1,6}})?(?!\w)"
        ),
        task_at=compile_at(rf"[\s-]{{1,3}}({task_alt})(?!\w)"),
        task_re=compile_words(flatten(vocab["tasks"])),
        task_of=invert(vocab["tasks"]),
    )


def vendor_of(system: str) -> str | None:
    entry = load_claim_vocab()["systems"].get(system)
    return entry.get("vendor") if entry else None


def higher_is_better(metric: str) -> bool:
    return bool(load_claim_vocab()["metrics"][metric]["higher_is_better"])


# --- sentences -------------------------------------------------------------------------------

# Image-caption file names glued to the next sentence ("mlperf-improvementBaidu's ...").
SLUG = r"[a-z][a-z0-9]{1,30}(?:-[a-z0-9]{1,30}){1,8}(?=[A-Z][a-z])"
CAPTION_SLUG = re.compile(SLUG)
# (?<![.!?]): a match starts where a run of stops starts, so "....." is one scan, not one each.
SENTENCE_END = re.compile(
    r"(?<![.!?])[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9]|" + SLUG + ")"
)
ABBREVIATION = re.compile(r"(?<!\w)(?:[A-Za-z]|vs|e\.g|i\.e|etc|approx|Inc|Fig|No|Dr|Mr|Ms)$")


def split_sentences(paragraph: str) -> list[str]:
    """Split a paragraph into verbatim sentences, dropping glued caption slugs."""
    pieces: list[str] = []
    start = 0
    for match in SENTENCE_END.finditer(paragraph):
        if ABBREVIATION.search(paragraph, max(start, match.start() - 8), match.start()):
            continue
        pieces.append(paragraph[start : match.end()])
        start = match.end()
    pieces.append(paragraph[start:])
    sentences = []
    for piece in pieces:
        text = piece.strip()
        slug = CAPTION_SLUG.match(text)
        if slug:
            text = text[slug.end() :]
        if text:
            sentences.append(text)
    return sentences


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


def index_sentence(text: str, line_number: int, lex: Lexicon) -> Sentence:
    anchors = find_anchors(text, lex)
    return Sentence(
        text=text,
        line_number=line_number,
        systems=find_mentions(lex.system_re, lex.system_of, text),
        vendors=find_mentions(lex.vendor_re, lex.vendor_of, text),
        models=find_mentions(lex.model_re, lex.model_of, text),
        metrics=find_mentions(lex.metric_re, lex.metric_of, text),
        priors=Mentions(
            Mention(m.start(), m.end(), "prior_result", m.group(0))
            for m in lex.prior_re.finditer(text)
        ),
        breaks=[m.end() for m in lex.breaker_re.finditer(text)],
        strong_breaks=[m.start() for m in lex.strong_re.finditer(text)],
        anchors=anchors,
        anchor_ends=[a.end for a in anchors],
        qualifiers=find_context_qualifiers(text, lex),
        conditions=find_conditions(text, lex),
    )


def vendor_keys(vendors: Mapping[str, str]) -> dict[str, str]:
    # Possessives ("NVIDIA's") fold to their own key; map them to the same generic system.
    plain = {fold(k): v for k, v in vendors.items()}
    possessive = {f"{key}{mark}s": value for key, value in plain.items() for mark in "'’"}
    return plain | possessive


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


# --- anchors ---------------------------------------------------------------------------------

RANGE_TAIL = re.compile(r"[0-9](?:\.[0-9]{1,4})?\s?[x×%]?\s?(?:-|–|to)\s?$")


def find_anchors(text: str, lex: Lexicon) -> list[Anchor]:
    anchors = []
    for pattern, unit in ((lex.multiplier_re, "multiplier"), (lex.percent_re, "percent")):
        for match in pattern.finditer(text):
            value = float(match.group(1).replace(",", ""))
            in_range = bool(RANGE_TAIL.search(text, max(0, match.start() - 12), match.start()))
            anchors.append(Anchor(match.start(), match.end(), value, unit, in_range))
    for match in lex.word_number_re.finditer(text):
        value, unit = lex.word_number.get(fold(match.group(0)), (0.0, ""))
        if unit:
            anchors.append(Anchor(match.start(), match.end(), value, unit))
    return drop_overlaps(sorted(anchors, key=lambda a: (a.start, -a.end)))


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


def read_anchor(sentence: Sentence, anchor: Anchor, lex: Lexicon) -> Reading | None:
    """Find the direction words that turn a number into a comparison, after it or before it."""
    return read_after(sentence, anchor, lex) or read_before(sentence, anchor, lex)


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
            return reading(match.end(), lex.noun_sense.get(fold(match.group(1))), "noun")
    match = lex.quantity_at.match(text, end, limit)
    # "80% of the performance" is a share; a bare "31% the ..." is not
    if match and (anchor.unit != "percent" or fold(match.group(0)).startswith("of ")):
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
    if match := lex.noun_of_tail.search(text, window_start, start):
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
    return Reading(
        anchor,
        verb.start(),
        anchor.end,
        verb.start(),
        anchor.end,
        sense,
        "by",
        metrics[0] if metrics else None,
    )


def metric_mention(match: re.Match[str] | None, lex: Lexicon, group: int = 1) -> Mention | None:
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


# --- ratio -----------------------------------------------------------------------------------


def compute_ratio(value: float, unit: str, sense: str, better_high: bool) -> float | None:
    """Turn a number and its direction into a multiplier in the subject's better direction."""
    if value <= 0:
        return None
    if unit == "percent":
        share = value / 100.0
        if sense == "quantity":
            factor = share
        elif sense == "down":
            if share >= 1.0:
                return None
            factor = 1.0 - share
        else:
            factor = 1.0 + share
    else:
        factor = value
        if sense == "down":
            factor = 1.0 / value
    if sense == "better":
        return factor
    if sense == "worse":
        return 1.0 / factor
    return factor if better_high else 1.0 / factor


def ratio_kind(reading: Reading, text: str) -> str:
    unit, sense, grammar = reading.anchor.unit, reading.sense, reading.grammar
    if unit == "fraction" or (unit == "percent" and sense == "quantity"):
        return "fraction"
    if unit == "multiplier":
        return "multiplier"
    if sense == "better":
        word = fold(text[reading.ratio_start : reading.ratio_end]).rsplit(" ", 1)[-1]
        speed = grammar == "adj" and word in load_claim_vocab()["direction_speed"]["words"]
        return "percent_faster" if speed else "percent_improvement"
    return {"worse": "percent_slower", "up": "percent_more", "down": "percent_less"}[sense]


# --- resolution ------------------------------------------------------------------------------


def resolve_metric(
    sentence: Sentence, reading: Reading, limit: int, lex: Lexicon
) -> tuple[str | None, str]:
    """Pick the claim's metric: its own words, then its clause, then the sentence before it."""
    if reading.metric is not None:
        return reading.metric.canonical, ""
    word = fold(sentence.text[reading.ratio_start : reading.ratio_end].split()[-1])
    implied = lex.vocab["direction_metric"].get(word)
    if implied:
        return implied, ""
    before = mentions_between(
        sentence.metrics, clause_start(sentence, reading.span_start), reading.span_start
    )
    if before:
        return before[-1].canonical, "+metric-context"
    after_end = min(limit, clause_end(sentence, reading.span_end))
    after = mentions_between(sentence.metrics, reading.span_end, after_end)
    if after:
        return after[0].canonical, "+metric-context"
    earlier = mentions_between(
        sentence.metrics, max(0, reading.span_start - WINDOW), reading.span_start
    )
    if earlier:
        return earlier[-1].canonical, "+metric-context"
    if reading.sense in ("better", "worse"):
        return "performance", "+metric-default"
    return None, ""


def find_marker(
    sentence: Sentence, reading: Reading, limit: int, lex: Lexicon
) -> tuple[int, str] | None:
    """Locate the word that introduces the baseline ("than", "vs", "compared to", "of")."""
    if reading.marker_end is not None:
        return reading.marker_end, reading.marker_text or ""
    text = sentence.text
    if match := lex.adjacent_marker_at.match(text, reading.span_end, limit):
        return match.end(), match.group(1)
    end = min(limit, strong_end(sentence, reading.span_end), reading.span_end + WINDOW)
    for match in lex.marker_re.finditer(text, reading.span_end, end):
        if not quantifies(text, match.end(), lex):
            return match.end(), match.group(0)
    return None


def read_baseline_slot(sentence: Sentence, slot_start: int, lex: Lexicon) -> Resolution:
    """Name what follows a marker: a system, a vendor, or an earlier result of the subject."""
    end = min(strong_end(sentence, slot_start), slot_start + WINDOW)
    systems = mentions_between(sentence.systems, slot_start, end)
    priors = mentions_between(sentence.priors, slot_start, end)
    first_system = systems[0] if systems else None
    first_prior = priors[0] if priors else None
    if first_prior and (first_system is None or first_prior.start < first_system.start):
        return Resolution(
            baseline_kind="prior_result", baseline=first_prior, tags=["+baseline-prior"]
        )
    if first_system:
        count = count_before(sentence, first_system, lex)
        return Resolution(baseline=first_system, baseline_kind="system", baseline_count=count)
    vendors = mentions_between(sentence.vendors, slot_start, end)
    if vendors:
        return Resolution(
            baseline=vendors[0],
            baseline_kind="system",
            tags=["+baseline-vendor"],
            penalty=0.15,
        )
    return Resolution(tags=["+baseline-unknown"], penalty=0.15)


def count_before(sentence: Sentence, mention: Mention, lex: Lexicon) -> int | None:
    """The "8" of "8x A100 GPUs" when a baseline is a group of systems."""
    index = bisect.bisect_right(sentence.anchor_ends, mention.start) - 1
    if index < 0:
        return None
    anchor = sentence.anchors[index]
    match = lex.count_at.match(sentence.text, anchor.end, mention.end)
    if anchor.unit != "multiplier" or match is None or match.end() < mention.start:
        return None
    return int(anchor.value) if anchor.value.is_integer() and anchor.value >= 1 else None


def follows_marker(sentence: Sentence, mention: Mention, lex: Lexicon) -> bool:
    """A system a few words after "than"/"vs"/"compared to" is somebody's baseline."""
    text = sentence.text
    markers = list(lex.marker_re.finditer(text, max(0, mention.start - 40), mention.start))
    markers += lex.leading_re.finditer(text, max(0, mention.start - 40), mention.start)
    return any(
        len(text[m.end() : mention.start].split()) <= 4
        and not quantifies(text, m.end(), lex)
        # the marker's baseline is the first system after it, not this one
        and not mentions_between(sentence.systems, m.end(), mention.start)
        for m in markers
    )


def resolve_subject(
    sentence: Sentence,
    reading: Reading,
    marker_start: int | None,
    taken: set[Mention],
    shared: Mention | None,
    baseline_end: int | None,
    lex: Lexicon,
) -> tuple[Mention | None, str, float]:
    """The subject: before the claim in its clause, else between claim and marker, else nearby."""
    start, end = reading.span_start, reading.span_end

    def free(start: int, end: int) -> list[Mention]:
        found = mentions_between(sentence.systems, start, end)
        return [m for m in found if m not in taken and not follows_marker(sentence, m, lex)]

    before = free(clause_start(sentence, start), start)
    if before:
        return before[-1], "", 0.0
    after_end = marker_start if marker_start is not None else clause_end(sentence, end)
    between = free(end, max(end, after_end))
    if between:
        return between[0], "+subject-after", 0.05
    if shared is not None:
        return shared, "+subject-shared", 0.05
    earlier = free(max(0, start - WINDOW * 2), start)
    if earlier:
        return earlier[-1], "+subject-sentence", 0.1
    taken_vendors = {vendor_of(t.canonical) for t in taken}
    if baseline_end is not None:
        later = free(baseline_end, baseline_end + WINDOW)
        later = [m for m in later if vendor_of(m.canonical) not in taken_vendors]
        if later:
            return later[0], "+subject-later", 0.15
    nearby = mentions_between(sentence.vendors, max(0, start - WINDOW * 2), end + WINDOW * 2)
    vendors = [v for v in nearby if vendor_of(v.canonical) not in taken_vendors]
    if vendors:
        vendor = min(vendors, key=lambda v: abs(v.start - start))
        return vendor, "+subject-vendor", 0.25
    return None, "", 0.35


def resolve_model(
    sentence: Sentence, position: int, context: Context, lex: Lexicon
) -> tuple[str | None, str | None, str]:
    models = mentions_between(sentence.models, max(0, position - WINDOW * 2), position + WINDOW)
    families = {name: entry.get("family") for name, entry in lex.vocab["models"].items()}
    if models:
        nearest = min(models, key=lambda m: abs(m.start - position))
        task = read_task(sentence.text, nearest.end, lex)
        heading = context.heading_model
        if heading and families.get(heading) == nearest.canonical:
            return heading, task or context.heading_task, "+model-heading"
        if task is None and heading == nearest.canonical:
            task = context.heading_task
        return nearest.canonical, task, ""
    if context.heading_model:
        return context.heading_model, context.heading_task, "+model-heading"
    return None, None, ""


def read_task(text: str, position: int, lex: Lexicon) -> str | None:
    match = lex.task_at.match(text, position, position + 40)
    return lex.task_of.get(fold(match.group(1))) if match else None


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


# --- quantitative claims ---------------------------------------------------------------------


@dataclass
class Draft:
    """A claim before it becomes a row."""

    start: int
    end: int
    resolution: Resolution
    form: str
    qualifier: str | None
    ratio: float | None
    ratio_text: str | None
    kind: str | None
    direction: str
    confidence: float


def extract_quantitative(
    sentence: Sentence, context: Context, lex: Lexicon
) -> tuple[list[Draft], list[Problem], bool]:
    """Claims carried by numbers; also says whether the sentence held claim-like numbers."""
    text = sentence.text
    anchors = sentence.anchors
    problems: list[Problem] = []
    readings: list[Reading] = []
    numeric = False
    for anchor in anchors:
        if is_count(text, anchor, lex):
            continue
        reading = read_anchor(sentence, anchor, lex)
        if reading is None:
            continue
        numeric = True
        if anchor.ends_range:
            problems.append(
                Problem(
                    "ratio_range",
                    f"'{span(text, reading)}' ends a range of ratios; one ratio cannot be stated",
                )
            )
            continue
        readings.append(reading)
    drafts = resolve_readings(sentence, readings, context, lex, problems)
    return drafts, problems, numeric


def find_counts(sentence: Sentence, lex: Lexicon) -> list[str]:
    """The "2x DGX A100" of a sentence: numbers that count hardware."""
    text = sentence.text
    found = []
    for anchor in sentence.anchors:
        match = lex.count_at.match(text, anchor.end, anchor.end + WINDOW)
        if anchor.unit == "multiplier" and match:
            found.append(text[anchor.start : match.end()])
    return found


def span(text: str, reading: Reading) -> str:
    return text[reading.span_start : reading.span_end]


def resolve_readings(
    sentence: Sentence,
    readings: list[Reading],
    context: Context,
    lex: Lexicon,
    problems: list[Problem],
) -> list[Draft]:
    text = sentence.text
    limits = [read_prefix(text, r.span_start, lex)[0] for r in readings[1:]] + [len(text)]
    baselines: list[Baseline | None] = [None] * len(readings)
    # Right to left, so "60x higher throughput and 16x lower latency than X" shares X.
    for index in range(len(readings) - 1, -1, -1):
        baselines[index] = resolve_baseline(
            sentence, readings, index, limits[index], baselines, lex
        )
    drafts: list[Draft] = []
    previous_baseline: Mention | None = None
    previous_subject: Mention | None = None
    for index, reading in enumerate(readings):
        base, marker, marker_start = baselines[index]
        # an earlier claim's baseline ("than the A100 and 3x faster than ...") is not a subject
        taken = {m for m in (previous_baseline, base.baseline) if m is not None}
        previous_baseline = base.baseline or previous_baseline
        draft, problem = build_draft(
            sentence,
            reading,
            base,
            marker,
            marker_start,
            limits[index],
            taken,
            previous_subject,
            context,
            lex,
        )
        if problem:
            problems.append(problem)
            continue
        drafts.append(draft)
        previous_subject = draft.resolution.subject
    return drafts


def resolve_baseline(
    sentence: Sentence,
    readings: list[Reading],
    index: int,
    limit: int,
    done: list[Baseline | None],
    lex: Lexicon,
) -> tuple[Resolution, str | None, int | None]:
    reading = readings[index]
    marker = find_marker(sentence, reading, limit, lex)
    if marker is not None:
        marker_end, marker_text = marker
        resolution = read_baseline_slot(sentence, marker_end, lex)
        marker_start = marker_end - len(marker_text)
        return resolution, marker_text, marker_start
    if index + 1 < len(readings) and done[index + 1] is not None:
        gap = sentence.text[reading.span_end : readings[index + 1].span_start]
        shared, marker_text, _ = done[index + 1]
        has_baseline = shared.baseline is not None or shared.baseline_kind is not None
        if (
            has_baseline
            and len(gap.split()) <= 8
            and strong_end(sentence, reading.span_end) >= readings[index + 1].span_start
        ):
            copy = replace(
                shared, tags=[*shared.tags, "+baseline-shared"], penalty=shared.penalty + 0.05
            )
            return copy, marker_text, None
    return Resolution(), None, None


def build_draft(
    sentence: Sentence,
    reading: Reading,
    base: Resolution,
    marker: str | None,
    marker_start: int | None,
    limit: int,
    taken: set[Mention],
    shared_subject: Mention | None,
    context: Context,
    lex: Lexicon,
) -> tuple[Draft | None, Problem | None]:
    text = sentence.text
    claim = text[reading.span_start : reading.span_end]
    negation = find_negation(sentence, reading.span_start, lex)
    if negation:
        return None, Problem(
            "negated", f"'{negation}' before '{claim}' denies or weakens the comparison"
        )
    metric, metric_tag = resolve_metric(sentence, reading, limit, lex)
    if metric is None:
        return None, Problem(
            "needs_metric", f"'{claim}' names no metric, so its better direction is unknown"
        )
    ratio = compute_ratio(
        reading.anchor.value, reading.anchor.unit, reading.sense, higher_is_better(metric)
    )
    if ratio is None or ratio > MAX_RATIO or ratio < 1.0 / MAX_RATIO:
        return None, Problem("implausible_ratio", f"'{claim}' does not give a usable ratio")
    resolution = replace(base, metric=metric, tags=list(base.tags))
    excluded = taken | ({base.baseline} if base.baseline else set())
    subject, subject_tag, subject_penalty = resolve_subject(
        sentence,
        reading,
        marker_start,
        excluded,
        shared_subject,
        base.baseline.end if base.baseline else None,
        lex,
    )
    if subject is not None and (partner := find_coordinated(sentence, subject)):
        return None, Problem(
            "ambiguous_subject",
            f"'{claim}' is said of both {partner.canonical} and {subject.canonical}",
        )
    resolution.subject = subject
    if resolution.baseline is None and resolution.baseline_kind is None:
        resolution = find_unmarked_baseline(sentence, reading, subject, resolution, lex)
    problem = check_parties(claim, resolution)
    if problem:
        return None, problem
    model, task, model_tag = resolve_model(sentence, reading.anchor.start, context, lex)
    resolution.model, resolution.task = model, task
    start, prefix = read_prefix(text, reading.anchor.start, lex)
    end, suffix = read_suffix(text, reading.span_end, lex)
    tags = [subject_tag, *resolution.tags, metric_tag, model_tag]
    penalty = subject_penalty + resolution.penalty + (0.05 if metric_tag else 0.0)
    unit = {"multiplier": "x", "percent": "pct", "fraction": "fraction"}[reading.anchor.unit]
    return Draft(
        start=min(start, reading.span_start),
        end=max(end, reading.span_end),
        resolution=resolution,
        form=f"{unit}-{reading.grammar}"
        + (f"-{slug(marker)}" if marker and reading.marker_end is None else "")
        + "".join(t for t in tags if t),
        qualifier=find_qualifiers(sentence, prefix, lex, [suffix] if suffix else []),
        ratio=round(ratio, 6),
        ratio_text=text[reading.ratio_start : reading.ratio_end],
        kind=ratio_kind(reading, text),
        direction="better" if ratio >= 1.0 else "worse",
        confidence=score(0.95, penalty),
    ), None


def find_unmarked_baseline(
    sentence: Sentence,
    reading: Reading,
    subject: Mention | None,
    resolution: Resolution,
    lex: Lexicon,
) -> Resolution:
    """No "than"/"vs" after the claim: try "Compared to X, ..." then the only other system."""
    text = sentence.text
    window_start = max(0, reading.span_start - WINDOW * 2)
    for match in lex.leading_re.finditer(text, window_start, reading.span_start):
        slot = mentions_between(sentence.systems, match.end(), reading.span_start)
        slot = [m for m in slot if subject is None or m.canonical != subject.canonical]
        if slot:
            resolution.baseline, resolution.baseline_kind = slot[0], "system"
            resolution.tags.append("+baseline-leading")
            resolution.penalty += 0.05
            return resolution
    own = vendor_of(subject.canonical) if subject else None
    nearby = mentions_between(sentence.systems, window_start, reading.span_end + WINDOW * 2)
    others = {m.canonical: m for m in nearby if vendor_of(m.canonical) != own}
    if len(others) == 1:
        resolution.baseline = next(iter(others.values()))
        resolution.baseline_kind = "system"
        resolution.tags.append("+baseline-implicit")
        resolution.penalty += 0.15
    else:
        resolution.tags.append("+baseline-none")
        resolution.penalty += 0.1
    return resolution


COORDINATION = re.compile(r"\s{0,3}(?:,|&|and|or|,\s{0,3}and)\s{1,3}$", re.IGNORECASE)


def find_coordinated(sentence: Sentence, subject: Mention) -> Mention | None:
    """Another system joined to the subject by "and" ("Bow Pod16 and Bow Pod64 deliver ...")."""
    index = bisect.bisect_left(sentence.systems.starts, subject.start)
    if index <= 0 or index >= len(sentence.systems) or sentence.systems[index] != subject:
        return None
    partner = sentence.systems[index - 1]
    gap = sentence.text[partner.end : subject.start]
    if partner.canonical != subject.canonical and COORDINATION.match(gap):
        return partner
    return None


def check_parties(claim: str, resolution: Resolution) -> Problem | None:
    subject = resolution.subject
    baseline = resolution.baseline if resolution.baseline_kind == "system" else None
    if subject is None and baseline is None:
        return Problem(
            "no_system", f"'{claim}' compares, but no subject or baseline system is named"
        )
    if subject is not None and baseline is not None and subject.canonical == baseline.canonical:
        return Problem(
            "same_system",
            f"'{claim}' compares {subject.canonical} with itself; the sides cannot be told apart",
        )
    return None


def slug(marker: str) -> str:
    return "-".join(fold(marker).replace(".", "").split())


def score(base: float, penalty: float) -> float:
    return round(min(1.0, max(0.05, base - penalty)), 2)


# --- qualitative claims ----------------------------------------------------------------------


@dataclass(frozen=True)
class Trigger:
    start: int
    end: int
    slot_start: int  # where the baseline is named
    form: str
    metric: Mention | None = None


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


def quantifies(text: str, position: int, lex: Lexicon) -> bool:
    """ "more than 3 hours" quantifies; "faster than 8x A100 GPUs" still compares systems."""
    number = NUMBER_NEXT.match(text, position, position + 40)
    if number is None:
        return False
    count = lex.multiplier_re.match(text, number.end())
    return not (count and lex.count_at.match(text, count.end(), count.end() + WINDOW))


NUMBER_NEXT = re.compile(r"\s{0,3}(?=[$0-9])")


def extract_qualitative(
    sentence: Sentence, context: Context, lex: Lexicon
) -> tuple[list[Draft], list[Problem]]:
    drafts: list[Draft] = []
    problems: list[Problem] = []
    seen: set[tuple] = set()
    for trigger in find_triggers(sentence, lex):
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
        sentence, reading, trigger.start, {base.baseline}, None, base.baseline.end, lex
    )
    base.subject = subject
    if subject is not None and subject.canonical == base.baseline.canonical:
        return None, check_parties(claim, base)
    sense = qualitative_sense(text[trigger.start : trigger.end], lex)
    metric, metric_tag = resolve_qualitative_metric(sentence, trigger, base.baseline, lex)
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
    if trigger.metric is not None:
        return trigger.metric.canonical, ""
    after = mentions_between(sentence.metrics, baseline.end, clause_end(sentence, baseline.end))
    if after:
        return after[0].canonical, "+metric-context"
    return "performance", "+metric-default"


# --- rows ------------------------------------------------------------------------------------


def draft_row(sentence: Sentence, draft: Draft) -> dict:
    res = draft.resolution
    subject, baseline = res.subject, res.baseline
    is_prior = res.baseline_kind == "prior_result"
    return {
        "claim_index": 0,
        "line_number": sentence.line_number,
        "char_start": draft.start,
        "char_end": draft.end,
        "sentence": sentence.text,
        "claim_text": sentence.text[draft.start : draft.end],
        "subject": subject.canonical if subject else None,
        "subject_text": subject.text if subject else None,
        "baseline": None if is_prior or baseline is None else baseline.canonical,
        "baseline_text": baseline.text if baseline else None,
        "baseline_kind": res.baseline_kind if baseline else None,
        "baseline_count": None if is_prior else res.baseline_count,
        "model": res.model,
        "task": res.task,
        "metric": res.metric,
        "direction": draft.direction,
        "ratio": draft.ratio,
        "ratio_text": draft.ratio_text,
        "ratio_kind": draft.kind,
        "qualifier": draft.qualifier,
        "conditions": sentence.conditions,
        "is_qualitative": draft.ratio is None,
        "confidence": draft.confidence,
        "method": f"rule:{draft.form}",
    }


def extract_sentence(
    sentence: Sentence, context: Context, lex: Lexicon
) -> tuple[list[dict], list[Problem]]:
    drafts, problems, numeric = extract_quantitative(sentence, context, lex)
    if not drafts and not numeric:
        qualitative, more = extract_qualitative(sentence, context, lex)
        drafts, problems = qualitative, problems + more
    # A heading or caption naming hardware ("Training performance: NVIDIA DGX A100 (8x A100
    # 80GB)") states a setup; only a sentence's "8x" could be taken for a ratio.
    if (not drafts and not problems and _SENTENCE_END.search(sentence.text)
            and (counts := find_counts(sentence, lex))):
        words = ", ".join(f"'{c}'" for c in counts)
        problems.append(
            Problem("system_count", f"{words} counts hardware; it is not a ratio between systems")
        )
    return [draft_row(sentence, d) for d in drafts], problems


# --- page ------------------------------------------------------------------------------------

HEADING_END = re.compile(r"[.!?,;”\"]\s*$")
_SENTENCE_END = re.compile(r"[.!?][”\")\]]*\s*$")
MAX_SENTENCE_CHARS = 2_000  # far longer than any sentence a person writes


def too_long(text: str, lex: Lexicon) -> list[Problem]:
    """A claim-like "sentence" too long to read is set aside with a reason, never dropped."""
    if not (lex.multiplier_re.search(text) or lex.percent_re.search(text)
            or lex.comparative_re.search(text)):
        return []
    return [Problem("sentence_too_long",
                    f"a sentence of {len(text):,} characters is longer than the "
                    f"{MAX_SENTENCE_CHARS:,} the extractor reads; claims in it were not read")]


@cache
def load_cues() -> Cues:
    """The lexicon's cue words, so that text without any is skipped (see sources.claims.cues)."""
    lex = load_lexicon()
    vocab = lex.vocab
    qualitative = vocab["qualitative"]
    return build_cues(
        singles=(lex.multiplier_re, lex.percent_re, lex.word_number_re, lex.qual_verb_re,
                 lex.qual_ahead_re),
        pairs=((lex.qual_noun_re, lex.qual_marker_re), (lex.comparative_re, lex.than_re)),
        vocab={
            "single": flatten(vocab["number_words"]) + qualitative["verbs"]
            + qualitative["ahead"],
            "nouns": qualitative["advantage_nouns"],
            "markers": qualitative["advantage_markers"],
            "comparatives": flatten(vocab["directions"]["comparative"]),
        },
        long_text=MAX_SENTENCE_CHARS,
    )


def is_heading(paragraph: str) -> bool:
    words = paragraph.split()
    return 0 < len(words) <= 8 and len(paragraph) <= 80 and not HEADING_END.search(paragraph)


def read_heading(paragraph: str, lex: Lexicon) -> Context:
    models = find_mentions(lex.model_re, lex.model_of, paragraph)
    if not models:
        return Context()
    tasks = [lex.task_of.get(fold(m.group(0))) for m in lex.task_re.finditer(paragraph)]
    return Context(models[0].canonical, next((t for t in tasks if t), None))


def extract_claims(prose: list[tuple[int, str]], title: str | None = None) -> ClaimResult:
    """Turn a page's paragraphs (line_number, text), in page order, into claims and rejects."""
    cues = load_cues()
    paragraphs = [(number, text) for number, paragraph in prose if (text := (paragraph or "").strip())]
    if not may_hold_claim_loosely("\n".join(text for _, text in paragraphs), cues):
        # Most pages claim nothing; headings only matter to claims, so none need reading,
        # and a process that reads only such pages never compiles the lexicon (16 ms).
        return ClaimResult(build_claims_frame([]), build_rejected_frame([]))
    lex = load_lexicon()
    context = read_heading(title, lex) if title else Context()
    rows: list[dict] = []
    rejected: list[dict] = []
    for line_number, text in paragraphs:
        if may_hold_claim_loosely(text, cues):
            found, problems = read_paragraph(text, line_number, context, lex, cues)
            rows += found
            rejected += problems
        # every paragraph, claim or not, may be the heading that names the next claims' model
        if is_heading(text):
            context = read_heading(text, lex)
    return ClaimResult(build_claims_frame(rows), build_rejected_frame(rejected))


def read_paragraph(
    text: str, line_number: int, context: Context, lex: Lexicon, cues: Cues
) -> tuple[list[dict], list[dict]]:
    """Claim rows and reject rows of one paragraph's sentences."""
    rows: list[dict] = []
    rejected: list[dict] = []
    for sentence_text in split_sentences(text):
        if len(sentence_text) > MAX_SENTENCE_CHARS:
            # Every claim row repeats its sentence: thousands of claims in one endless
            # "sentence" would cost memory as their number times its length.
            found, problems = [], too_long(sentence_text, lex)
        elif not may_hold_claim(sentence_text, cues):
            continue
        else:
            sentence = index_sentence(sentence_text, line_number, lex)
            found, problems = extract_sentence(sentence, context, lex)
        rows += found
        rejected += [
            {
                "line_number": line_number,
                "sentence": sentence_text,
                "check": p.check,
                "reason": p.reason,
            }
            for p in problems
        ]
    return rows, rejected


def build_claims_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        # Most pages make no claim; an empty frame of the schema's own columns cannot fail
        # the check, which costs tens of milliseconds per page.
        return empty_frame("claims")
    for index, row in enumerate(rows):
        row["claim_index"] = index
    return validate_claims(pl.DataFrame(rows, schema=CLAIM_COLUMNS))


def build_rejected_frame(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        return empty_frame("rejected")
    unique = list({(r["line_number"], r["sentence"], r["check"]): r for r in rows}.values())
    return validate_rejected(pl.DataFrame(unique, schema=REJECTED_COLUMNS))


def empty_frame(kind: str) -> pl.DataFrame:
    # Building a typed empty frame takes ~0.2 ms; a clone of a kept one ~1 µs, and is the
    # caller's own, so changing it leaves the kept frame alone.
    return empty_frames()[kind].clone()


@cache
def empty_frames() -> dict[str, pl.DataFrame]:
    return {
        "claims": pl.DataFrame(schema=CLAIM_COLUMNS),
        "rejected": pl.DataFrame(schema=REJECTED_COLUMNS),
    }
