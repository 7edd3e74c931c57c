"""A claim's parties resolved from its sentence: its metric, the marker and slot of its
baseline, its subject, its model and task; whether the parties can be told apart; and the
confidence the fallbacks taken leave."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from perfledger.schemas.claims import load_claim_vocab
from perfledger.sources.claims.lexicon import FROM_CONTEXT, Lexicon, fold, is_generic, vendor_of
from perfledger.sources.claims.mentions import (
    clause_end,
    clause_start,
    find_mentions,
    mentions_between,
    strong_end,
)
from perfledger.sources.claims.phrases import phrase_words
from perfledger.sources.claims.records import (
    WINDOW,
    Context,
    Mention,
    Problem,
    Reading,
    Resolution,
    Sentence,
)


def resolve_metric(
    sentence: Sentence,
    reading: Reading,
    limit: int,
    lex: Lexicon,
    previous: Sequence[str] = (),
) -> tuple[str | None, str]:
    """Pick the claim's metric: its own words, then its clause, then the sentence before it,
    then the sentences before it in its paragraph (`previous`, nearest first). A speed word
    ("faster", "speedup") takes only a metric of speed; a word that names its metric only
    through the sentence ("efficiency") takes the sentence's other metric."""
    words = sentence.text[reading.ratio_start : reading.ratio_end].split()
    word = fold(words[-1]) if words else ""
    speed = word in lex.vocab["direction_speed"]["words"]

    def fits(mention: Mention) -> bool:
        # a metric taken from around the claim is one a performance claim can be about
        return (
            mention.canonical != FROM_CONTEXT
            and mention.canonical not in lex.not_performance
            and (not speed or mention.canonical in lex.speed_metrics)
        )

    own = reading.metric
    if (
        own is not None
        and own.canonical != FROM_CONTEXT
        and (not speed or own.canonical in lex.speed_metrics)
        and not (own.canonical == "performance" and named_before(sentence, reading, lex))
    ):
        return own.canonical, ""
    implied = lex.vocab["direction_metric"].get(word)
    if implied:
        return implied, ""
    before = [
        m
        for m in mentions_between(
            sentence.metrics, clause_start(sentence, reading.span_start), reading.span_start
        )
        if fits(m)
    ]
    if before:
        return before[-1].canonical, "+metric-context"
    if word in lex.vocab["size_comparatives"]["words"]:
        return "capacity", "+metric-size"
    after_end = min(limit, clause_end(sentence, reading.span_end))
    after = [m for m in mentions_between(sentence.metrics, reading.span_end, after_end) if fits(m)]
    if after:
        return after[0].canonical, "+metric-context"
    if speed or reading.grammar == "by":
        # "Train MoE LLMs 12x faster", "speeds up training by 3-5x": the time training takes
        # ("MXFP8 training achieved 1.28x speedup" names a technique, not what was sped up)
        start = clause_start(sentence, reading.span_start)
        if TRAINING.search(sentence.text, reading.ratio_start, after_end) or TRAINING_FIRST.match(
            sentence.text, start
        ):
            return "time_to_train", "+metric-training"
    earlier = [
        m
        for m in mentions_between(
            sentence.metrics, max(0, reading.span_start - WINDOW), reading.span_start
        )
        if fits(m)
    ]
    if earlier:
        return earlier[-1].canonical, "+metric-context"
    if own is not None and own.canonical == FROM_CONTEXT:
        return lex.vocab["metric_from_context"]["default"], "+metric-default"
    # "an extra 3x saving", "5x faster": the sentence before says of what; a size word
    # ("3x smaller") does not compare performance unless its own sentence says so
    if reading.grammar != "adj" or reading.sense in ("better", "worse"):
        for text in previous:
            found = [m for m in find_mentions(lex.metric_re, lex.metric_of, text) if fits(m)]
            if found:
                return found[0].canonical, "+metric-previous"
    if reading.sense in ("better", "worse"):
        return "performance", "+metric-default"
    return None, ""


def named_before(sentence: Sentence, reading: Reading, lex: Lexicon) -> bool:
    """ "TTFT achieved a 6-14x performance speedup": the clause names what the general word
    "performance" stands for before it."""
    start = clause_start(sentence, reading.span_start)
    verbs = phrase_words().predicates
    for mention in mentions_between(sentence.metrics, start, reading.span_start):
        if mention.canonical in ("performance", FROM_CONTEXT):
            continue
        after = NEXT_WORD.match(sentence.text, mention.end)
        # the metric is what the clause is about: its subject, right before the verb
        if mention.canonical in lex.speed_metrics and after and after.group(1).casefold() in verbs:
            return True
    return False


TRAINING = re.compile(
    r"(?<![\w-])(?:train|trains|training|fine-tun(?:e|es|ing)|finetun(?:e|es|ing))(?![\w-])",
    re.IGNORECASE,
)
TRAINING_FIRST = re.compile(r"\W{0,4}(?:train|fine-tune|finetune)(?![\w-])", re.IGNORECASE)
NEXT_WORD = re.compile(r"\W{0,4}(\w+)")


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
    # "... at over 10x lower cost, compared to existing RLHF systems": a comparison closing
    # the sentence holds for every claim before it in the sentence
    stop = min(limit, strong_end(sentence, reading.span_end))
    closing = CLOSING_MARKER.search(text, reading.span_end, stop)
    if closing and not quantifies(text, closing.end(), lex):
        return closing.end(), closing.group(1)
    return None


CLOSING_MARKER = re.compile(
    r",\s{1,3}(compared\s(?:to|with)|relative\sto|versus|vs\.?)(?!\w)", re.IGNORECASE
)


def read_baseline_slot(sentence: Sentence, slot_start: int, lex: Lexicon) -> Resolution:
    """Name what follows a marker: a system, a vendor, or an earlier result of the subject."""
    end = min(strong_end(sentence, slot_start), slot_start + WINDOW)
    systems = mentions_between(sentence.systems, slot_start, end)
    priors = mentions_between(sentence.priors, slot_start, end)
    first_system = systems[0] if systems else None
    first_prior = priors[0] if priors else None
    if (
        first_prior
        and first_system is not None
        and NAME_GAP.match(sentence.text, first_prior.end, first_system.start)
    ):
        first_prior = None  # "the previous generation ND A100 v4": the system it names
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


NAME_GAP = re.compile(r"(?:\s{1,3}[\w-]+){0,2}\s{1,3}$")


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
    leading = list(lex.leading_re.finditer(text, max(0, mention.start - 40), mention.start))
    return any(
        len(text[m.end() : mention.start].split()) <= 4
        and (
            not quantifies(text, m.end(), lex)
            # "Compared to 10.31 tokens/s in llama.cpp, ...": a result of the baseline
            or m in leading
            and MEASURED_IN.fullmatch(text, m.end(), mention.start) is not None
        )
        # the marker's baseline is the first system after it, not this one
        and not mentions_between(sentence.systems, m.end(), mention.start)
        for m in markers + leading
    )


MEASURED_IN = re.compile(
    r"\s{1,3}~?[0-9][0-9,.]*\s?\S{1,16}\s{1,3}(?:in|on|from|of|with|by|for)\s{1,3}(?:the\s{1,3})?",
    re.IGNORECASE,
)


# "on a H100 SXM 80GB", "at 2k H100 GPU scale", "on A100 & H100": hardware named as where a
# claim was measured. "on Blackwell vs. Hopper" names it as a side of the comparison instead.
SETTING_BEFORE = re.compile(
    r"(?<!\w)(?:on|at)\s{1,3}(?:(?:a|an|the|single|one|[0-9][0-9,.]*[kK]?|[\w-]{1,12}\s{0,2}&)"
    r"\s{1,3}){0,3}$",
    re.IGNORECASE,
)


def is_hardware(mention: Mention) -> bool:
    """A known party other than the software the claim vocabulary names (vLLM, SGLang, ...)."""
    entry = load_claim_vocab()["systems"].get(mention.canonical)
    if entry is None:
        return mention.known
    return bool(entry.get("vendor") or entry.get("generic"))


def is_setting(sentence: Sentence, mention: Mention, lex: Lexicon) -> bool:
    text = sentence.text
    if SETTING_BEFORE.search(text, max(0, mention.start - 40), mention.start) is None:
        return False
    after = lex.marker_re.search(text, mention.end, mention.end + 16)
    return after is None or bool(text[mention.end : after.start()].strip(" \t,.-"))


def resolve_subject(
    sentence: Sentence,
    reading: Reading,
    marker_start: int | None,
    taken: set[Mention],
    shared: Mention | None,
    baseline_end: int | None,
    lex: Lexicon,
) -> tuple[Mention | None, str, float]:
    """The subject: before the claim in its clause, else between claim and marker, else nearby
    (a vendor named nearby is `vendor_subject`'s, tried after the claim's own phrase)."""
    start, end = reading.span_start, reading.span_end

    def free(start: int, end: int, named: bool = False) -> list[Mention]:
        found = mentions_between(sentence.systems, start, end)
        # away from the claim's own clause, a kind of chip ("on a single GPU") is a setting,
        # and so is the hardware a claim was measured on ("... compared to vLLM on a H100")
        return [
            m
            for m in found
            if m not in taken
            and not follows_marker(sentence, m, lex)
            and not (named and (is_generic(m.canonical) or setting(m)))
        ]

    def setting(mention: Mention) -> bool:
        # hardware compared with hardware ("on the IPU-M2000 ... vs A100") is a side
        return is_setting(sentence, mention, lex) and not any(map(is_hardware, taken))

    before = free(clause_start(sentence, start), start)
    if before:
        return before[-1], "", 0.0
    after_end = marker_start if marker_start is not None else clause_end(sentence, end)
    between = free(end, max(end, after_end), named=True)
    if between:
        return between[0], "+subject-after", 0.05
    if shared is not None:
        return shared, "+subject-shared", 0.05
    earlier = free(max(0, start - WINDOW * 2), start, named=True)
    if earlier:
        return earlier[-1], "+subject-sentence", 0.1
    taken_vendors = {vendor_of(t.canonical) for t in taken}
    if baseline_end is not None:
        later = free(baseline_end, baseline_end + WINDOW, named=True)
        later = [m for m in later if vendor_of(m.canonical) not in taken_vendors]
        if later:
            return later[0], "+subject-later", 0.15
    return None, "", 0.35


def vendor_subject(
    sentence: Sentence, reading: Reading, taken: set[Mention], lex: Lexicon
) -> tuple[Mention | None, str, float]:
    """A vendor named near a claim that names no system stands for its generic part; one
    named right after "than" or "vs" ("x2.21 faster than Nvidia A100") is a baseline's."""
    start, end = reading.span_start, reading.span_end
    taken_vendors = {vendor_of(t.canonical) for t in taken}
    nearby = mentions_between(sentence.vendors, max(0, start - WINDOW * 2), end + WINDOW * 2)
    vendors = [
        v
        for v in nearby
        if vendor_of(v.canonical) not in taken_vendors and not follows_marker(sentence, v, lex)
    ]
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


def quantifies(text: str, position: int, lex: Lexicon) -> bool:
    """ "more than 3 hours" quantifies; "faster than 8x A100 GPUs" still compares systems."""
    number = NUMBER_NEXT.match(text, position, position + 40)
    if number is None:
        return False
    count = lex.multiplier_re.match(text, number.end())
    return not (count and lex.count_at.match(text, count.end(), count.end() + WINDOW))


NUMBER_NEXT = re.compile(r"\s{0,3}~?(?=[$0-9])")


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


def score(base: float, penalty: float) -> float:
    return round(min(1.0, max(0.05, base - penalty)), 2)
