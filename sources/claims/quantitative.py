"""Claims carried by numbers ("3.4x higher throughput than the A100"): each reading of a
number resolved into a draft claim, or a problem saying why it cannot be one."""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import TypeGuard

from perfledger.schemas.claims import MAX_RATIO
from perfledger.schemas.labels import known_model, model_name
from perfledger.sources.claims.anchors import is_count, read_anchor
from perfledger.sources.claims.conditions import enabled_change
from perfledger.sources.claims.discourse import Discourse
from perfledger.sources.claims.lexicon import (
    Lexicon,
    fold,
    higher_is_better,
    is_generic,
    reported_metric,
    vendor_of,
)
from perfledger.sources.claims.mentions import mentions_between, strong_end
from perfledger.sources.claims.models import context_model
from perfledger.sources.claims.parties import (
    GENERIC_TAIL,
    VENDOR_WORDS,
    context_subject,
    distinguish,
    names_more,
    own_subject,
    phrase_baseline,
    resolve_phrase,
    resolve_text,
    with_full_name,
)
from perfledger.sources.claims.phrases import Phrase, name_like, phrase_after, phrase_words
from perfledger.sources.claims.qualifiers import (
    find_negation,
    find_qualifiers,
    read_prefix,
    read_suffix,
)
from perfledger.sources.claims.ratio import compute_ratio, ratio_kind
from perfledger.sources.claims.records import (
    WINDOW,
    Anchor,
    Baseline,
    Context,
    Draft,
    Mention,
    Problem,
    Reading,
    Resolution,
    Sentence,
)
from perfledger.sources.claims.resolution import (
    check_parties,
    find_marker,
    is_hardware,
    is_setting,
    quantifies,
    read_baseline_slot,
    resolve_metric,
    resolve_model,
    resolve_subject,
    score,
    vendor_subject,
)


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
        if reading is None and readings and coordinated(text, readings[-1], anchor, lex):
            # "speedups of 3.5x, 2.3x, and 2.6x", "9x ... over HF and 15x over Colossal-AI":
            # a number listed with a claim's says what that claim says
            last = readings[-1]
            reading = Reading(
                anchor,
                anchor.start,
                anchor.end,
                anchor.start,
                anchor.end,
                last.sense,
                last.grammar,
                last.metric,
            )
        if reading is None:
            continue
        numeric = True
        readings.append(reading)
    drafts = resolve_readings(sentence, readings, context, lex, problems)
    respectively(sentence, drafts, context, lex)
    return drafts, problems, numeric


LISTED = re.compile(r"\s{0,3},?\s{0,3}(?:(?:and|or)\s{1,3})?$", re.IGNORECASE)
JOINED = re.compile(r"(?:,|\band|\bor)\s{1,3}$", re.IGNORECASE)
SPACES = re.compile(r"\s{1,3}")
WHERE = re.compile(r"(?:in|on|for|at|during)\s", re.IGNORECASE)
RESPECTIVELY = re.compile(r"[\s,]{0,3}respectively(?!\w)", re.IGNORECASE)


def coordinated(text: str, last: Reading, anchor: Anchor, lex: Lexicon) -> bool:
    """Whether a number with no words of its own is listed with the claim before it: right
    after it ("3.5x, 2.3x, and 2.6x"), or joined to it and naming its own baseline ("and 15x
    over Colossal-AI") or its setting ("and 9.44x in prefill", ", 1.4× on L40S")."""
    if anchor.unit != last.anchor.unit or anchor.start - last.anchor.end > WINDOW:
        return False
    if LISTED.fullmatch(text, last.anchor.end, anchor.start):
        return True
    before = text[max(last.span_end, anchor.start - 8) : anchor.start]
    space = SPACES.match(text, anchor.end)
    # ... or naming only where it holds ("3.03x in decoding and 9.44x in prefill")
    return bool(JOINED.search(before)) and bool(
        space and (lex.marker_re.match(text, space.end()) or WHERE.match(text, space.end()))
    )


def respectively(sentence: Sentence, drafts: list[Draft], context: Context, lex: Lexicon) -> None:
    """ "speedups of 3.5x, 2.3x, and 2.6x respectively": the claims take, in order, the models
    the sentence before listed ("the ResNet, ViT, and Llama 2 models")."""
    if len(drafts) < 2 or not RESPECTIVELY.match(sentence.text, drafts[-1].end):
        return
    previous = context.discourse.current_before() if context.discourse is not None else []
    for text in previous[:1]:
        names = list(dict.fromkeys(m.group(0) for m in lex.model_shape_re.finditer(text)))
        if len(names) == len(drafts):
            for draft, name in zip(drafts, names, strict=True):
                draft.resolution.model = name
                draft.resolution.model_known = known_model(name)
                if known_model(name):
                    draft.resolution.model = model_name(name)[0]
                draft.form += "+model-respectively"


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
            sentence, readings, index, limits[index], baselines, lex, context.discourse
        )
    drafts: list[Draft] = []
    previous_baseline: Mention | None = None
    previous_subject: Mention | None = None
    earlier_baseline: Mention | None = None  # the baseline of the sentence's claim before
    earlier_kind: str | None = "system"
    for index, reading in enumerate(readings):
        resolved = baselines[index]
        assert resolved is not None  # every reading's baseline is resolved above
        base, marker, marker_start = resolved
        # an earlier claim's baseline ("than the A100 and 3x faster than ...") is not a subject
        taken = {m for m in (previous_baseline, base.baseline) if m is not None}
        previous_baseline = base.baseline or previous_baseline
        if previous_subject is not None and NEW_CLAUSE.search(
            text, readings[index - 1].span_end, reading.span_start
        ):
            previous_subject = None  # ", while TQ variants are 2.5x slower" has its own
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
            (earlier_baseline, earlier_kind) if earlier_baseline else None,
        )
        if problem:
            problems.append(problem)
            continue
        assert draft is not None  # build_draft gives a draft or the problem that stopped it
        drafts.append(draft)
        previous_subject = draft.resolution.subject
        if draft.resolution.baseline is not None:
            earlier_baseline = draft.resolution.baseline
            earlier_kind = draft.resolution.baseline_kind
    return drafts


FAR_SUBJECT = frozenset({"+subject-sentence", "+subject-later"})
NEW_CLAUSE = re.compile(r"[;:]|,\s{1,3}(?:while|whereas|but|although|though)(?!\w)", re.IGNORECASE)


def resolve_baseline(
    sentence: Sentence,
    readings: list[Reading],
    index: int,
    limit: int,
    done: list[Baseline | None],
    lex: Lexicon,
    discourse: Discourse | None,
) -> tuple[Resolution, str | None, int | None]:
    reading = readings[index]
    marker = find_marker(sentence, reading, limit, lex)
    if marker is not None:
        marker_end, marker_text = marker
        resolution = read_baseline_slot(sentence, marker_end, lex)
        if resolution.baseline is not None and counted(sentence, resolution.baseline):
            # "more than the linear 2x we would expect from using 2 GPUs": chips counted
            resolution = Resolution(tags=["+baseline-unknown"], penalty=0.15)
        vague = (
            resolution.baseline is not None
            and resolution.baseline_kind == "system"
            and (
                "+baseline-vendor" in resolution.tags
                or is_generic(resolution.baseline.canonical)
                or named_before(sentence, marker_end, resolution.baseline, lex)
            )
        )
        if resolution.baseline is None and resolution.baseline_kind is None or vague:
            # no vocabulary names what follows the marker, or only its vendor or its kind of
            # chip does ("than NVIDIA's B300", "previous-generation Hopper GPUs")
            found, tag = phrase_baseline(sentence, marker_end, lex, discourse)
            if found is not None and (
                not vague
                or (resolution.baseline is not None and names_more(found, resolution.baseline))
            ):
                resolution = Resolution(
                    baseline=found, baseline_kind="system", tags=[tag], penalty=0.1
                )
        marker_start = marker_end - len(marker_text)
        return resolution, marker_text, marker_start
    if index + 1 < len(readings) and (following := done[index + 1]) is not None:
        gap = sentence.text[reading.span_end : readings[index + 1].span_start]
        shared, marker_text, _ = following
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


def named_before(sentence: Sentence, marker_end: int, found: Mention, lex: Lexicon) -> bool:
    """Whether a name stands between a marker and the vocabulary's system after it ("over
    HuggingFace and 15x over Colossal-AI": the first baseline is HuggingFace)."""
    phrase = phrase_after(sentence.text, marker_end, lex)
    return (
        phrase is not None
        and phrase.kind == "name"
        and phrase.end <= found.start
        and any(name_like(word) for word in phrase.text.split())
    )


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
    earlier_baseline: tuple[Mention, str | None] | None = None,
) -> tuple[Draft | None, Problem | None]:
    text = sentence.text
    claim = text[reading.span_start : reading.span_end]
    negation = find_negation(sentence, reading.span_start, lex)
    if negation:
        return None, Problem(
            "negated", f"'{negation}' before '{claim}' denies or weakens the comparison"
        )
    spec = find_specification(sentence, reading, lex)
    if spec:
        return None, Problem(
            "spec_ratio", f"'{claim}' compares a specification ('{spec}'), not a measured result"
        )
    previous = context.discourse.current_before() if context.discourse is not None else ()
    metric, metric_tag = resolve_metric(sentence, reading, limit, lex, previous)
    if metric is None:
        return None, Problem(
            "needs_metric", f"'{claim}' names no metric, so its better direction is unknown"
        )
    if metric in lex.not_performance:
        return None, Problem(
            "not_performance",
            f"'{claim}' compares {metric.replace('_', ' ')}, which is no performance claim",
        )
    ratio = compute_ratio(
        reading.anchor.value, reading.anchor.unit, reading.sense, higher_is_better(metric)
    )
    metric = reported_metric(metric, lex)
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
    if subject is None:
        subject, subject_tag, subject_penalty = resolve_by_phrase(
            sentence, reading, excluded, context, lex
        )
    elif subject_tag in FAR_SUBJECT or is_generic(subject.canonical):
        # a system named away from the claim ("... than H100 on Llama 2 70B with vLLM"), or a
        # kind of chip ("The NVIDIA H200 Tensor Core GPU delivers"), yields to the name the
        # claim's own clause gives its subject
        start = read_prefix(text, reading.span_start, lex)[0]
        own, own_tag, _ = own_subject(sentence, start, lex)
        if (
            own is not None
            and own not in excluded
            and (subject_tag in FAR_SUBJECT or names_more(own, subject))
        ):
            subject, subject_tag, subject_penalty = own, own_tag, 0.1
    if subject is not None and (partner := find_coordinated(sentence, subject)):
        return None, Problem(
            "ambiguous_subject",
            f"'{claim}' is said of both {partner.canonical} and {subject.canonical}",
        )
    resolution.subject = subject
    if resolution.baseline is None and resolution.baseline_kind is None:
        resolution = find_unmarked_baseline(
            sentence,
            reading,
            subject,
            resolution,
            lex,
            context,
            earlier_baseline,
            "+subject-change" in subject_tag
            or "+subject-instrument" in subject_tag
            or names_technique(subject),
        )
    if reading.grammar == "by-passive":
        agent = passive_agent(sentence, reading, lex)
        if agent is not None and subject is not None:
            # "The A100 was beaten by Gaudi2 by 2 times": Gaudi2 against the A100
            resolution.subject, resolution.baseline = agent, subject
            resolution.baseline_kind = "system"
            subject = agent
    if (
        subject is not None
        and resolution.baseline is not None
        and subject.canonical == resolution.baseline.canonical
    ):
        told_apart = distinguish(sentence, subject, resolution.baseline)
        if told_apart is not None:
            resolution.subject, resolution.baseline = told_apart
    problem = check_parties(claim, resolution)
    if problem:
        return None, problem
    resolution.subject = with_full_name(resolution.subject, context, lex)
    if resolution.baseline_kind == "system":
        resolution.baseline = with_full_name(resolution.baseline, context, lex)
    model, task, model_tag = resolve_model(sentence, reading.anchor.start, context, lex)
    if model is None:
        model, resolution.model_known, model_tag = context_model(
            text, reading.anchor.start, lex, context
        )
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
        qualifier=find_qualifiers(
            sentence, prefix, lex, [q for q in (suffix, range_of(reading.anchor)) if q]
        ),
        ratio=round(ratio, 6),
        ratio_text=text[reading.ratio_start : reading.ratio_end],
        kind=ratio_kind(reading, text),
        direction="better" if ratio >= 1.0 else "worse",
        confidence=score(0.95, penalty),
    ), None


def passive_agent(sentence: Sentence, reading: Reading, lex: Lexicon) -> Mention | None:
    """Who does it in "X was beaten by Y by N x": the system or phrase after the first "by"."""
    text = sentence.text
    passive = lex.passive_re.search(text, max(0, reading.span_start - 40), reading.span_end)
    if passive is None:
        return None
    named = mentions_between(sentence.systems, passive.end(), reading.anchor.start)
    if named:
        return named[0]
    phrase = phrase_after(text, passive.end(), lex)
    if phrase is None or phrase.kind != "name" or phrase.end > reading.anchor.start:
        return None
    return resolve_phrase(text, phrase, lex)


def resolve_by_phrase(
    sentence: Sentence, reading: Reading, taken: set[Mention], context: Context, lex: Lexicon
) -> tuple[Mention | None, str, float]:
    """No vocabulary names the subject near the claim: its clause's own phrase, else the
    vendor named nearby, else the page around the sentence."""
    start = read_prefix(sentence.text, reading.span_start, lex)[0]
    discourse = context.discourse
    found, tag, phrase = own_subject(sentence, start, lex)
    if found is not None:
        return found, tag, 0.1
    if phrase is None or phrase.kind not in ("pronoun", "first_person", "generic"):
        vendor, tag, penalty = vendor_subject(sentence, reading, taken, lex)
        if vendor is not None:
            return vendor, tag, penalty
    found, tag = context_subject(phrase, sentence, start, lex, discourse)
    if found is not None and found not in taken:
        return found, tag, 0.2
    return None, "", 0.35


def find_specification(sentence: Sentence, reading: Reading, lex: Lexicon) -> str | None:
    """The words that make a ratio a specification's: a specification word in the claim or
    right before it ("the theoretical ... throughput"), or, for a ratio in brackets, a peak
    figure in the clause it comments ("2.9 TFLOPS of FP32 computations (3x speedup ...)")."""
    text = sentence.text
    word = lex.spec_word_re.search(text, max(0, reading.span_start - 30), reading.span_end)
    if word:
        return word.group(0)
    bracket = text.rfind("(", max(0, reading.span_start - 4), reading.span_start + 1)
    if bracket < 0:
        return None
    figures = list(lex.spec_figure_re.finditer(text, max(0, bracket - WINDOW), bracket))
    if figures and not BREAK_BETWEEN.search(text, figures[-1].end(), bracket):
        return figures[-1].group(0)
    return None


BREAK_BETWEEN = re.compile(r"[.;:]\s")


def range_of(anchor: Anchor) -> str | None:
    """ "range 14-24x": the qualifier of a ratio read off the top of a range."""
    if not anchor.ends_range or anchor.low is None:
        return None
    unit = {"multiplier": "x", "percent": "%"}.get(anchor.unit, "")
    low, high = sorted((anchor.low, anchor.value))
    return f"range {low:g}-{high:g}{unit}"


def find_unmarked_baseline(
    sentence: Sentence,
    reading: Reading,
    subject: Mention | None,
    resolution: Resolution,
    lex: Lexicon,
    context: Context,
    earlier: tuple[Mention, str | None] | None = None,
    change: bool = False,
) -> Resolution:
    """No "than"/"vs" after the claim: try "Compared to X, ..." then the only other system;
    then what the sentence and the page around it say (see `unnamed_baseline`)."""
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
    others = {
        m.canonical: m
        for m in nearby
        if vendor_of(m.canonical) != own
        and not a_setting(sentence, m)
        and not names_its_class(subject, m)
        and not (
            is_setting(sentence, m, lex) and not (subject is not None and is_hardware(subject))
        )
    }
    if len(others) == 1:
        resolution.baseline = next(iter(others.values()))
        resolution.baseline_kind = "system"
        resolution.tags.append("+baseline-implicit")
        resolution.penalty += 0.15
        return resolution
    found, kind, tag = unnamed_baseline(sentence, reading, subject, lex, context, earlier, change)
    if found is not None:
        resolution.baseline, resolution.baseline_kind = found, kind
        resolution.tags.append(tag)
        resolution.penalty += 0.15
    else:
        resolution.tags.append("+baseline-none")
        resolution.penalty += 0.1
    return resolution


def names_its_class(subject: Mention | None, mention: Mention) -> bool:
    """ "AMD Instinct MI355X GPU achieves 1.16X": the kind of chip right after the subject is
    the subject's own name, no other system."""
    return (
        subject is not None
        and is_generic(mention.canonical)
        and subject.start <= mention.start <= subject.end + 2
    )


INDEFINITE = re.compile(
    r"(?:^|\s)(?:a|an|one|single|a single|each|every|any|own|dedicated|separate|"
    r"[0-9][0-9,.]*[kKmM]?-?)\s{0,3}$",
    re.IGNORECASE,
)


def a_setting(sentence: Sentence, mention: Mention) -> bool:
    """ "on a single GPU": a kind of chip named with an indefinite article is where a result
    ran, not a system it is compared with."""
    before = sentence.text[max(0, mention.start - 40) : mention.start]
    return is_generic(mention.canonical) and bool(
        INDEFINITE.search(before[-14:]) or SETTING.search(before)
    )


def counted(sentence: Sentence, mention: Mention) -> bool:
    """ "2 GPUs", "a single GPU": a kind of chip counted is a setting, no baseline."""
    before = sentence.text[max(0, mention.start - 14) : mention.start]
    return is_generic(mention.canonical) and bool(INDEFINITE.search(before))


# "On more capable GPUs, you can expect ...": a kind of chip a result runs on
SETTING = re.compile(r"(?:^|\s)(?:on|across|using)\s(?:[a-z][a-z-]*\s){0,3}$", re.IGNORECASE)


def unnamed_baseline(
    sentence: Sentence,
    reading: Reading,
    subject: Mention | None,
    lex: Lexicon,
    context: Context,
    earlier: tuple[Mention, str | None] | None,
    change: bool,
) -> tuple[Mention | None, str | None, str]:
    """A baseline no vocabulary names: the phrase after "Compared to" opening the sentence,
    the baseline of the sentence's claim before this one, the phrase after a marker earlier
    in the sentence ("improvements over vLLM 0.15.0, e.g., 19% higher OTPS"), "the baseline"
    the paragraph named before, the one the list's lead-in names, and for a claim about a
    change ("This improved ...", "With tuning, we ...") the system without the change."""
    text = sentence.text
    discourse = context.discourse
    for match in lex.leading_re.finditer(text, 0, reading.span_start):
        phrase = phrase_after(text, match.end(), lex, reading.span_start)
        if usable(phrase, subject) and not quantifies(text, match.end(), lex):
            return resolve_phrase(text, phrase, lex), "system", "+baseline-leading"
    if earlier is not None:
        return earlier[0], earlier[1], "+baseline-shared"
    for match in lex.marker_re.finditer(text, 0, reading.span_start):
        phrase = phrase_after(text, match.end(), lex, reading.span_start)
        if usable(phrase, subject) and not quantifies(text, match.end(), lex):
            return resolve_phrase(text, phrase, lex), "system", "+baseline-before"
    words = fold(text[reading.span_start : reading.span_end])
    if discourse is not None and discourse.last_baseline and THE_BASELINE.search(words):
        return resolve_text(discourse.last_baseline, lex), "system", "+baseline-previous"
    if discourse is not None and (told := told_before(discourse, subject, lex)) is not None:
        return resolve_text(told, lex), "system", "+baseline-previous"
    if discourse is not None and (lead := discourse.lead_baseline()) is not None:
        return resolve_text(lead, lex), "system", "+baseline-lead-in"
    if discourse is not None and subject is not None:
        for one, other in discourse.comparisons(text):
            if shares_name(subject.text, one) and not shares_name(subject.text, other):
                return resolve_text(other, lex), "system", "+baseline-stated"
            if shares_name(subject.text, other) and not shares_name(subject.text, one):
                return resolve_text(one, lex), "system", "+baseline-stated"
    condition = WITHOUT.search(
        text, max(0, reading.span_start - CONDITION_REACH), reading.span_end + CONDITION_REACH
    )
    if condition is not None:
        # "5-7x slowdown without warm-up": the same system with it
        phrase = phrase_after(text, condition.end(), lex)
        reach = CLAUSE_END.search(text, phrase.end) if phrase is not None else None
        if (
            phrase is not None
            and phrase.kind == "name"
            and not lex.metric_re.search(
                text, condition.end(), min(phrase.end + 30, reach.start() if reach else len(text))
            )
        ):
            name = f"with {phrase.text}"
            return Mention(-1, -1, name, name, False), "counterpart", "+baseline-condition"
    if discourse is not None and (told := told_in_section(discourse, subject, lex)):
        return resolve_text(told, lex), "system", "+baseline-section"
    topic = discourse.topic if discourse is not None else None
    if (
        change
        and subject is not None
        and not (subject.known and topic and fold(subject.canonical) in fold(topic))
    ):
        # a change to the page's own system has the system without it as baseline; the
        # system itself ("we ... with vLLM" on a page about vLLM) is no change to anything
        name = f"without {subject.canonical}"
        if topic and not shares_name(topic, subject.canonical):
            name = f"{topic} without {subject.canonical}"  # "PyTorch TunableOp without tuning"
        elif topic and (rest := rest_of_topic(topic, subject.canonical)):
            name = f"{rest} without {subject.canonical}"  # "vLLM without Sleep Mode"
        return Mention(-1, -1, name, name, False), "counterpart", "+baseline-without"
    if subject is not None and (
        enabled := enabled_change(text, reading.span_start, reading.span_end, lex, subject.text)
    ):
        name = f"{subject.canonical} without {enabled}"  # "SGLang w/ torch.compile"
        return Mention(-1, -1, name, name, False), "counterpart", "+baseline-enabled"
    return None, "", ""


def names_technique(subject: Mention | None) -> bool:
    """ "Float8 rowwise training", "Block sparsity": a subject the page names as a technique
    applied, not as a system of its own."""
    if subject is None or subject.known:
        return False
    words = fold(subject.text).split()
    return bool(words) and words[-1] in phrase_words().change_heads


def rest_of_topic(topic: str, change: str) -> str | None:
    """What a page's topic names besides a change it holds ("vLLM" of "vLLM Sleep Mode")."""
    at = fold(topic).find(fold(change))
    if at < 0 or fold(topic) == fold(change):
        return None
    rest = " ".join((topic[:at] + " " + topic[at + len(change) :]).split())
    named = [
        word
        for word in rest.split()
        if name_like(word) and fold(word) not in GENERIC_TAIL and fold(word) not in VENDOR_WORDS
    ]
    return rest if named and rest.split()[-1] not in ("on", "of", "with", "for") else None


CLAUSE_END = re.compile(r"[,;:]")
WITHOUT = re.compile(r"(?<![\w-])without(?!\w)", re.IGNORECASE)
CONDITION_REACH = 80  # characters around a claim where "without X" conditions it


def shares_name(one: str, other: str) -> bool:
    return bool(name_words(one) & name_words(other))


def name_words(text: str) -> set[str]:
    """The words of a party's name that tell it apart (no articles or generic nouns)."""
    words = phrase_words()
    return {
        word
        for word in re.findall(r"[a-z0-9][a-z0-9.+-]*", fold(text))
        if word not in words.generic_heads
        and word not in words.determiners
        and word not in STOP_WORDS
    }


STOP_WORDS = frozenset(
    {
        "with",
        "without",
        "from",
        "on",
        "of",
        "the",
        "and",
        "or",
        "in",
        "for",
        "no",
        "to",
        "a",
        "an",
        "is",
        "are",
        "still",
        "vs",
        "than",
        "new",
    }
)


def told_in_section(discourse: Discourse, subject: Mention | None, lex: Lexicon) -> str | None:
    """A baseline a sentence of the section before states ("Figure 7: Latency overhead
    relative to BF16 ...")."""
    for sentence in discourse.previous_sentences():
        for pattern in (lex.leading_re,):  # "relative to BF16", not "more than AlltoAll"
            for match in pattern.finditer(sentence):
                phrase = phrase_after(sentence, match.end(), lex)
                if (
                    usable(phrase, subject)
                    and not quantifies(sentence, match.end(), lex)
                    and any(name_like(word) for word in phrase.text.split())
                ):
                    return phrase.text
    return None


def told_before(discourse: Discourse, subject: Mention | None, lex: Lexicon) -> str | None:
    """The baseline the paragraph gave before: its last claim's, or one a sentence of it
    states ("Figure 7: Latency overhead relative to BF16 for ... . TQ adds up to 60%
    slowdown")."""
    if discourse.block_baseline and (
        subject is None or fold(discourse.block_baseline) != fold(subject.text)
    ):
        return discourse.block_baseline
    for sentence in discourse.current_before():
        for pattern in (lex.leading_re, lex.marker_re):
            for match in pattern.finditer(sentence):
                phrase = phrase_after(sentence, match.end(), lex)
                if (
                    usable(phrase, subject)
                    and not quantifies(sentence, match.end(), lex)
                    and any(name_like(word) for word in phrase.text.split())
                ):
                    return phrase.text
    return None


THE_BASELINE = re.compile(r"(?<!\w)the baseline(?!\w)")


def usable(phrase: Phrase | None, subject: Mention | None) -> TypeGuard[Phrase]:
    return (
        phrase is not None
        and phrase.kind == "name"
        and (subject is None or fold(phrase.text) != fold(subject.text))
    )


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


def slug(marker: str) -> str:
    return "-".join(fold(marker).replace(".", "").split())
