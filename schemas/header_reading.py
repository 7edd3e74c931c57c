"""What a column header (or a row label of a transposed table) says about its cells.

A header is read by its parts, not by a prefix: its head noun gives the role ("Throughput
Inference Batch Size" is a batch size, "Time to train speedup" a speedup), and its other parts
give labels: a statistic ("Latency 99%"), a unit ("(ms)", "[ms]", "img/s"), a precision
("- mixed precision", "w/ BF16"), a platform ("B200 TP1 (FP4)", "MI300X Latency"). Roles are
data: schemas/vocab/headers.csv.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from perfledger.schemas.chip_counts import parallel_count
from perfledger.schemas.chip_vocabulary import word_start_of
from perfledger.schemas.folding import (
    WIDE_WORD_START,
    WORD_START,
    clean_text,
    fold_words,
    word_pattern,
)
from perfledger.schemas.platform_mentions import PlatformMention
from perfledger.schemas.precisions import Precision, precision_of_header
from perfledger.schemas.units import Unit, metric_of_unit, unit_in_header, unit_named
from perfledger.schemas.unknown_chips import read_hardware
from perfledger.schemas.vocabulary import read_vocab, word_alternatives

# Parts of a header that qualify its head noun rather than name it.
_QUALIFIERS = re.compile(r"\s[-\u2013\u2014]\s.*$|:\s.*$|\s(?:w/|with|for|at|on)\s.*$", re.I)
_BRACKETS = re.compile(r"[(\[][^()\[\]]{0,80}[)\]]")
# "batch_size_per_device", "gpu_num_per_node": a script's names join their words with "_"
_PER_DEVICE = re.compile(
    r"\s/\s?(?:gpu|chip|card|device|accelerator|node)s?\s*$"
    r"|(?<![a-z0-9])per[ _-](?:gpu|chip|card|device|accelerator|node)(?![a-z0-9])",
    re.I,
)
_NUMBER = re.compile(r"^[~<>]?\s*\d[\d,.\s]*[kmb]?$", re.I)
MAX_HEADER_CHARS = 300  # a header is read from this many characters of it; real ones are shorter
_COUNT_BEFORE = re.compile(r"\d ?(?:x ?)?$")
_LOOK_BEHIND = 16  # characters before a role word that the two patterns here look at
_PRECISION_WORD_BEFORE = re.compile(r"(?:mixed|full|half|single|reduced|low|high) $")
_DERIVED_METRICS = ("speedup", "scaling_efficiency")
_STATISTICS = (
    ("p99.9", r"99\.9 ?%|p ?99\.9|99\.9th"),
    ("p99", r"99 ?%|p ?99|99th(?: percentile)?"),
    ("p95", r"95 ?%|p ?95|95th(?: percentile)?"),
    ("p90", r"90 ?%|p ?90|90th(?: percentile)?"),
    ("p75", r"75 ?%|p ?75|75th(?: percentile)?"),
    ("p50", r"50 ?%|p ?50|50th(?: percentile)?|median"),
    ("p25", r"25 ?%|p ?25|25th(?: percentile)?"),
    ("std", r"std(?: ?dev)?|stdev|standard deviation"),
    ("mean", r"avg|average|ave|mean"),
    ("min", r"(?<!\d )min|minimum"),  # "~55 min": minutes, no minimum
    ("max", r"max|maximum"),
)


@dataclass(frozen=True)
class HeaderReading:
    text: str  # the header, cleaned
    kind: str | None  # metric, result, reference, metric_name, unit, config, label, text,
    #                   statistic (a statistic of the metric to its left), or None (unknown)
    role: str | None  # the metric, or the configuration or label it names
    statistic: str | None = None  # mean, p25-p99.9, std, min, max
    unit: Unit | None = None
    precision: Precision | None = None
    platform: PlatformMention | None = None
    is_number: bool = False  # the header is a number: a value of an axis ("250" epochs)
    # an accuracy that is a share: its numbers above 1 are percentages; a utilization whose
    # unit its word implies ("MFU"): its numbers all within 1 are fractions
    share: bool = False
    change: bool = False  # a comparison named as a gain: its percentages are changes (+45%)
    # A served model's latency stated without a unit: "per token" (TPOT, ITL) or "request"
    # (TTFT, E2E latency), whose unit the table's per-token latencies may show
    serving: str | None = None
    # "Latency/throughput" over one number and no unit: it names metrics, none of them its own
    alternatives: bool = False
    # "(average, std)": a bare number in brackets after a value is its standard deviation
    spread_named: bool = False
    parts: tuple[HeaderReading, ...] = ()  # "# Gaudi cards, Batch Size, Precision"

    @property
    def names_metric(self) -> bool:
        return self.kind == "metric"


@dataclass(frozen=True)
class _RoleRule:
    kind: str
    role: str | None
    pattern: re.Pattern[str]
    source: str  # the pattern's alternatives as headers.csv writes them


@cache
def _role_rules() -> tuple[_RoleRule, ...]:
    return tuple(
        _RoleRule(row["kind"], row["role"], word_pattern(row["pattern"]), row["pattern"])
        for row in read_vocab("headers.csv").iter_rows(named=True)
    )


@cache
def _any_role() -> re.Pattern[str]:
    """A match wherever some role rule matches: each rule's pattern is whole in itself."""
    rules = _role_rules()
    return re.compile(
        _start_of(rules) + "(?:" + "|".join(f"(?:{rule.pattern.pattern})" for rule in rules) + ")"
    )


def _start_of(rules: tuple[_RoleRule, ...]) -> str:
    """A zero-width test of where a match of one of `rules` may start: at a word's start (or
    a wide character's), on a character some match of theirs begins with (see
    `word_start_of`)."""
    boundary = (
        WORD_START
        if all(rule.pattern.pattern.startswith(f"{WORD_START}(?:") for rule in rules)
        else WIDE_WORD_START
    )
    return word_start_of([rule.source for rule in rules], boundary)


@cache
def _statistic_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (name, re.compile(rf"(?<![a-z0-9.])(?:{pattern})(?![a-z0-9])"))
        for name, pattern in _STATISTICS
    )


@cache
def _first_role_patterns(
    kind: str, roles: tuple[str, ...]
) -> tuple[re.Pattern[str], tuple[_RoleRule, ...]]:
    rules = tuple(rule for rule in _role_rules() if rule.kind == kind and rule.role in roles)
    if not rules:
        return re.compile(""), rules
    combined = "|".join(f"(?P<r{index}>{rule.pattern.pattern})" for index, rule in enumerate(rules))
    return re.compile(f"{_start_of(rules)}(?:{combined})"), rules


def first_role(folded: str, kind: str, roles: tuple[str, ...]) -> str | None:
    """The role of the first word of `folded` naming one of `roles` (of rules of `kind`):
    what `role_matches` sorted by place would give first, in one scan of the text."""
    pattern, rules = _first_role_patterns(kind, roles)
    match = pattern.search(folded)
    if match is None or match.lastgroup is None:  # no rule: the empty pattern names no group
        return None
    return rules[int(match.lastgroup[1:])].role


def role_matches(folded: str) -> list[tuple[int, int, _RoleRule]]:
    """(start, end, rule) of each role word of `folded`. A count written before a count word
    ("4 GPUs") makes it a value, and "precision" after a precision ("mixed precision") is
    that precision, not a role."""
    if _any_role().search(folded) is None:
        return []  # most texts (row labels) name no role: one scan, not one per rule
    found = []
    for rule in _role_rules():
        for match in rule.pattern.finditer(folded):
            before = folded[max(0, match.start() - _LOOK_BEHIND) : match.start()]
            if rule.role == "accelerator_count" and _COUNT_BEFORE.search(before):
                continue
            if rule.role == "precision" and _PRECISION_WORD_BEFORE.search(before):
                continue
            found.append((match.start(), match.end(), rule))
    return found


def _head_rule(matches: list[tuple[int, int, _RoleRule]]) -> _RoleRule | None:
    """The role of a header's head noun: the role word ending last, the longest of those.
    A speedup or scaling word wherever it stands makes the column that derived figure
    ("Throughput - speedup"), unless a longer role word holds it ("power efficiency")."""
    if not matches:
        return None
    derived = [
        found
        for found in matches
        if found[2].role in _DERIVED_METRICS
        and not any(
            other[0] <= found[0]
            and found[1] <= other[1]
            and other[1] - other[0] > found[1] - found[0]
            for other in matches
        )
    ]
    if derived:
        return derived[-1][2]
    return max(matches, key=lambda found: (found[1], found[1] - found[0]))[2]


def _core(cleaned: str) -> str:
    """The header without its per-device part ("Batch size / GPU") and bracketed text."""
    return _PER_DEVICE.sub(" ", _BRACKETS.sub(" ", cleaned)).strip() or cleaned


def _level_rule(core: str) -> _RoleRule | None:
    """The role of the deepest level of a multi-level header ("Mixed Precision / CUDA
    Graphs ON / Throughput Avg") that names one, read without its qualifying parts ("- TF32",
    ": FP32, BF16", "w/ AMP") unless those hold a derived figure ("Throughput - speedup")."""
    for level in reversed(core.split(" / ")):
        whole = role_matches(fold_words(level))
        head = _head_rule(role_matches(fold_words(_QUALIFIERS.sub("", level).strip() or level)))
        derived = _head_rule(whole)  # a derived figure no longer role word holds
        derived = derived if derived is not None and derived.role in _DERIVED_METRICS else None
        if derived is not None or head is not None:
            return derived or head
    return None


@cache
def _any_statistic() -> re.Pattern[str]:
    """A match wherever some statistic's pattern matches: most texts name none."""
    alternatives = "|".join(f"(?:{pattern})" for _name, pattern in _STATISTICS)
    return re.compile(rf"(?<![a-z0-9.])(?:{alternatives})(?![a-z0-9])")


def statistic_of(text: str) -> str | None:
    folded = fold_words(text)
    if _any_statistic().search(folded) is None:
        return None
    if names_spread_beside(folded):
        # "Latency ms (average, std)", "mean ± std": each value is the central figure, the
        # standard deviation written beside it its spread
        return "p50" if _statistic_pattern("p50").search(folded) else "mean"
    for name, pattern in _statistic_patterns():
        if pattern.search(folded):
            return name
    return None


def _statistic_pattern(name: str) -> re.Pattern[str]:
    return next(pattern for named, pattern in _statistic_patterns() if named == name)


def names_spread_beside(folded: str) -> bool:
    """Whether a folded header names the standard deviation beside a mean or median: its
    values are written with their spread, "12.4 (0.8)" or "12.4 ± 0.8"."""
    return _statistic_pattern("std").search(folded) is not None and (
        _statistic_pattern("mean").search(folded) is not None
        or _statistic_pattern("p50").search(folded) is not None
    )


# A header asking a yes-or-no question of the run ("是否精度对齐", "有无量化", "Whether
# converged"): its cells answer it, whatever metric its words name.
_YES_OR_NO = re.compile(r"(?:是否|有无|能否|whether )", re.I)


# Words joined in camel case ("BatchSize", "ImageSize"): a lower-case letter, then a capital
# starting a word of its own.
_CAMEL_JOIN = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")


@lru_cache(maxsize=16_384)
def read_header(text: str) -> HeaderReading:
    """How a column header reads; see the module's docstring."""
    reading = _read_header(text)
    if reading.kind is None and _CAMEL_JOIN.search(reading.text):
        # "BatchSize", "ImageSize": read as words apart where joined they name nothing, when
        # apart they name a setting or a metric ("TorchScript" is a name, not a script)
        apart = _read_header(_CAMEL_JOIN.sub(" ", reading.text))
        if apart.kind in ("config", "metric") and not _ends_a_name(reading.text):
            return replace(apart, text=reading.text)
    return reading


# A word joined in camel case ("CatBoost", "BatchSize").
_CAMEL_WORD = re.compile(r"[A-Za-z]*[a-z](?:[A-Z][a-z]+)+")


_FIRST_SEGMENT = re.compile(r"[A-Za-z][a-z]*")


def _ends_a_name(text: str) -> bool:
    """Whether a metric word apart is only part of a name joined in camel case ("CatBoost"
    is a library, no "boost" speedup; "TokensPerSecond" apart is a rate whole). A setting
    may be named in part ("NumParams")."""
    for word in _CAMEL_WORD.findall(text):
        first = _FIRST_SEGMENT.match(word)
        if first is not None and len(first.group(0)) < 3:
            continue  # "aAcc", "mAcc": a letter before the word abbreviates "all", "mean"
        folded = fold_words(_CAMEL_JOIN.sub(" ", word))
        matches = role_matches(folded)
        if any(rule.kind == "metric" for _start, _end, rule in matches) and not any(
            end - start == len(folded) for start, end, _rule in matches
        ):
            return True
    return False


def _read_header(text: str) -> HeaderReading:
    cleaned = clean_text(text)
    better_way = False
    if not cleaned.isascii():  # "Memory (GB/im) ↓": which way is better, no word of the header
        stripped = _BETTER_WAY.sub(" ", cleaned).strip()
        better_way, cleaned = stripped != cleaned, stripped or cleaned
    if not cleaned:
        return HeaderReading(cleaned, None, None)
    if len(cleaned) > MAX_HEADER_CHARS:  # no header is this long: it is read as its start
        return replace(_read_header(cleaned[:MAX_HEADER_CHARS]), text=cleaned)
    if _NUMBER.match(cleaned):
        return HeaderReading(cleaned, None, None, is_number=True)
    if _YES_OR_NO.match(cleaned):  # "是否精度对齐": whether the accuracy matched, no accuracy
        return HeaderReading(cleaned, "text", None)
    parts = _composite_parts(cleaned)
    if parts:
        return HeaderReading(cleaned, "config", None, parts=parts)
    stated = unit_in_header(cleaned)
    if stated is not None and stated.alias == fold_words(cleaned) and statistic_of(cleaned):
        stated = None  # "min" beside "mean" and "median": the minimum, not minutes
    elif stated is not None and stated.kind == "ratio" and _RATIO_WORD.fullmatch(cleaned):
        stated = None  # "Times" over "44.89s": the runs' times; the cells say their unit
    unit = stated or _implied_unit(fold_words(cleaned))
    # "MFU" over 0.68: a utilization whose unit only its word implies is a share, a
    # fraction where none of its column's numbers is above 1
    implied_share = stated is None and unit is not None and unit.kind == "percent"
    # "TPS/GPU", "Tokens/sec/chip": the device of a per-device unit is no role of the column.
    # "serving (num_prompts=1)": a setting in brackets is the run's, not the column's role.
    # "FPS@3 Cores", "Inference Time(ms)@3.2T": what follows "@" is the run's condition.
    whole = _SETTING_BRACKET.sub(" ", _without_unit(cleaned, unit)).strip()
    worded = _RUN_CONDITION.sub(" ", whole).strip() or whole
    unit = _per_device_figure(unit, worded)
    if unit is not None:  # "Per-GPU TFLOP/s": the device is the unit's, not a role
        worded = _PER_DEVICE.sub(" ", worded).strip()
    rule = _role_of(worded)
    if rule is None and worded != whole:
        # "Prec@1 on imagenet_val": a metric named with its "@k", no condition of the run
        # (only a metric: "A311D @4 threads" stays a column of values, not a setting).
        named = _role_of(whole)
        rule = named if named is not None and named.kind == "metric" else None
    if rule is not None and _IDENTIFIER.match(cleaned) and _VERSUS_FIRST.match(cleaned):
        rule = None  # "VS_LIST": a parameter's name in code, no ratio to a baseline
    alternatives = False
    if rule is not None and rule.kind == "label" and _COMPARED_SIDE.search(cleaned):
        rule = None  # "`Engine` (before)": the values of one side of a comparison, no label
    elif rule is not None and _names_alternatives(worded):
        rule = None  # "Latency/throughput" over one number: only its unit may say which
        alternatives = True
    platform = read_hardware(cleaned, "label")
    if rule is None and platform is not None and _COUNT_WORD.search(worded):
        # "Number of V100 GPUs", "# of H100 GPUs": a count of devices that names their chip
        # ("A100 GPUs" alone may head the results of A100s)
        counted = _role_of(_without(worded, platform))
        rule = counted if counted is not None and counted.role == "accelerator_count" else None
    statistic = statistic_of(_without(cleaned, platform))
    kind, role = (rule.kind, rule.role) if rule else (None, None)
    if _SCORED_BY.fullmatch(cleaned):
        # "Benchmark (Metric)" over "MMLU (EM)": each row a benchmark with what it scores
        # by, the columns beside its scores
        kind, role = "metric", "accuracy"
    if kind is None and unit is None and _COUNT_IN_CODE.fullmatch(fold_words(worded)):
        kind, role = "config", "setting"  # "num_promts": a count of the run, whatever it counts
    if kind is None and statistic is not None:
        kind = "statistic"
    # A header naming no role names its metric by its unit ("Tokens/Second", "(ms)"), and so
    # does one whose levels are a metric's unit over a part or setting of the run
    # ("Jetson AGX Orin (ms) / Full Pipeline"), and a word of results with a unit ("Speed
    # A100 TensorRT (ms)").
    named_by_unit = metric_of_unit(unit)
    if named_by_unit is not None and (
        kind in (None, "statistic")
        or (kind == "result" and role is None)
        or (kind in ("label", "config") and " / " in cleaned)
        # "GPU Memory(MB)": a count of devices is written without a unit; a device word
        # before a measure in bytes says whose memory it is
        or (role == "accelerator_count" and unit is not None and unit.kind == "other")
        # "System Memory (MB)": a name is written without a unit; a unit stated after a
        # label word says what of it is measured
        or (kind == "label" and stated is not None)
    ):
        kind, role = "metric", named_by_unit
    elif unit is not None and _measured_by_unit(kind, role, unit, _COUNT_WORD.search(worded)):
        # "Throughput iterations/s", "Images/sec at batch 32", "Time per 100 iterations
        # (s)": a rate or a time is measured, whatever setting it names.
        kind, role = "metric", named_by_unit or ("throughput" if unit.kind == "rate" else "latency")
    if kind is None and better_way and (unit is None or unit.kind == "percent"):
        # "Math↑", "False Positive Error↓": a figure with a better way and no other word or
        # unit of a measure is a score of the output's quality
        kind, role = "metric", "accuracy"
    if role in _WHOLE_RUN_TIMES and unit is not None and unit.per == "item":
        role = "latency"  # "train time (s/iter)": the time of one iteration, not to train
    if role == "latency" and unit is not None and unit.kind == "rate":
        role = "throughput"  # "prefill tok/s (TTFT)": a rate, whichever time it is taken over
    if role == "scaling_efficiency" and unit is not None and unit.canonical.endswith("/W"):
        role = "other"  # "Efficiency (tok/s/W)": the work done per watt, no scaling
    if kind == "metric" and role not in (None, "speedup", "other") and _DIFFERENCE.match(cleaned):
        role = "other"  # "Δ mean quality vs Original (%)": a difference of scores, no score
    if platform is None and role == "latency" and _PARALLEL_WORD.search(cleaned):
        platform = _served_by(cleaned)
    comparison = role in ("speedup", "scaling_efficiency")
    if comparison and unit is not None and unit.kind not in ("ratio", "percent"):
        unit = None  # "T/S Ratio to Eager": the rate compared, not the unit of the ratio
    return HeaderReading(
        text=cleaned,
        kind=kind,
        role=role,
        statistic=statistic,
        unit=unit,
        precision=precision_of_header(cleaned, comparison),
        platform=platform,
        share=(role == "accuracy" and unit is None and _names_a_share(fold_words(cleaned)))
        or (implied_share and unit is not None and unit.kind == "percent"),
        change=role == "speedup" and _names_a_change(fold_words(worded)),
        alternatives=alternatives and kind != "metric",
        spread_named=statistic is not None and names_spread_beside(fold_words(cleaned)),
        serving=_serving_latency(fold_words(worded))
        if role == "latency" and unit is None
        else None,
    )


# A header naming the difference of a figure from a baseline's: "Δ mean quality", "delta
# accuracy", "diff. latency".
_DIFFERENCE = re.compile(r"(?i)^\s*(?:\u0394|\u2206|delta\b|diff(?:erence)?\b\.?)")
# A name written as code: words joined by underscores ("VS_LIST", "num_kv_heads").
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$")
_VERSUS_FIRST = re.compile(r"(?i)^(?:vs|versus)_")
_BETTER_WAY = re.compile(r"\s*[↑↓⇑⇓⬆⬇]\s*")
_RATIO_WORD = re.compile(r"(?i)[a-z]{2,}")  # a ratio's unit written as a word
_WHOLE_RUN_TIMES = frozenset({"time_to_train", "time_to_result"})
_SCORED_BY = re.compile(
    r"(?i)\W{0,2}(?:benchmarks?|tasks?|evals?|evaluations?|tests?)\W{0,2} ?\(metrics?\)\W{0,2}"
)
# A count named as code names it, of something no rule names ("num_promts", "n_ctx").
_COUNT_IN_CODE = re.compile(r"(?:num|n) [a-z]{3,20}")
_COUNT_WORD = re.compile(r"(?i)(?:^|\s)(?:number|num|no\.|#|count)(?:\s|$)")


def _role_of(worded: str) -> _RoleRule | None:
    """The role rule that gives a header's words their role, if any does."""
    all_matches = role_matches(fold_words(worded))
    # "Percentage of theoretical peak FLOP/s": a reference word inside a longer role phrase
    # is that phrase's, a share measured against the reference, not the reference itself.
    reference = next(
        (
            rule
            for start, end, rule in all_matches
            if rule.kind == "reference"
            and not any(
                other[0] <= start and end <= other[1] and other[1] - other[0] > end - start
                for other in all_matches
            )
        ),
        None,
    )
    return reference or (_level_rule(_core(worded)) if worded else None) or _head_rule(all_matches)


_PARALLEL_WORD = re.compile(r"(?i)(?<![a-z])(?:tp|pp|ep)(?![a-z])")


def _served_by(text: str) -> PlatformMention | None:
    """The chips a latency's header gives by its parallel degrees ("Latency of TP-16, PP-1
    (ms)", "Latency of 8-way TP (ms)"): one copy of the model serves a request, split over
    all of them."""
    count = parallel_count(fold_words(text), whole=True)
    return None if count is None else PlatformMention(text=text, count=count, count_stated=True)


def _measured_by_unit(kind: str | None, role: str | None, unit: Unit, counted: object) -> bool:
    if unit.kind == "rate":
        return kind in (None, "statistic", "config", "text")
    if unit.kind == "duration":
        # "GPU-1 (s)": the time of a run on one GPU; "Number of GPUs (min)" stays a count
        devices = role == "accelerator_count" and not counted
        return kind in (None, "statistic", "text") or (
            kind == "config"
            and (role not in ("accelerator_count", "batch_size", "nodes") or devices)
        )
    return False


@cache
def _implied_units() -> tuple[tuple[re.Pattern[str], str, str | None], ...]:
    return tuple(
        (word_pattern(row["pattern"]), row["unit"], row["when"])
        for row in read_vocab("metric_units.csv").iter_rows(named=True)
    )


def _implied_unit(folded: str) -> Unit | None:
    """The unit a metric's own word implies where the header states none ("MFU": %)."""
    for pattern, unit, when in _implied_units():
        if not when and pattern.search(folded):
            return unit_named(unit)
    return None


@cache
def _accuracy_words() -> re.Pattern[str]:
    return next(rule.pattern for rule in _role_rules() if rule.role == "accuracy")


def _names_a_share(folded: str) -> bool:
    """An accuracy header whose every score word names a share ("Top-1 Acc", "Accuracy"),
    not another score ("Accuracy (mAP)")."""
    shares = [pattern for pattern, _unit, when in _implied_units() if when == "above 1"]
    words = [match.group(0) for match in _accuracy_words().finditer(folded)]
    return bool(words) and all(any(pattern.fullmatch(word) for pattern in shares) for word in words)


def _serving_latency(folded: str) -> str | None:
    """ "per token" for a header naming a served model's time per output token ("Median
    TPOT", "ITL"), "request" for one naming a request's ("Median TTFT", "E2E Latency")."""
    for kind in ("per token", "request"):
        if any(pattern.search(folded) for pattern, _unit, when in _implied_units() if when == kind):
            return kind
    return None


def _names_a_change(folded: str) -> bool:
    """A speedup header naming a gain ("TPS Gain", "Throughput Improvement"), whose
    percentages are increases over the baseline, not the ratio to it."""
    changes = [pattern for pattern, _unit, when in _implied_units() if when == "change"]
    return any(pattern.search(folded) for pattern in changes)


_DEVICE_WORD = re.compile(
    r"(?<![a-z0-9])(gpu|chip|card|device|accelerator|tpu|npu|xpu|hpu)s?"
    r"(?![a-z0-9])"
)


# A bracket naming one side of a before/after comparison ("`Engine` (before)", "Backend
# (baseline)"): the column holds that side's values, whatever its head word names.
_COMPARED_SIDE = re.compile(
    r"[(\[]\s*(?:before|after|baseline|optimi[sz]ed|original|old|new|previous|current)\s*[)\]]",
    re.I,
)


def _names_alternatives(worded: str) -> bool:
    """Whether a header joins two metrics of different roles with a slash ("Latency/
    throughput"), so that one number under it may be either."""
    sides = [side for side in worded.split("/") if side.strip()]
    if len(sides) < 2:
        return False
    roles = set()
    for side in sides:
        # a side's bracket qualifies its run ("吞吐量(单线程)": single-threaded), naming no role
        head = _head_rule(role_matches(fold_words(_core(side))))
        if head is not None and head.kind == "metric":
            roles.add(head.role)
    return len(roles) > 1


_SETTING_BRACKET = re.compile(r"[(\[][^()\[\]]{0,80}=[^()\[\]]{0,80}[)\]]")
# A condition after "@" that holds words ("@3 Cores", "@1.2GHz"); "mAP@0.5" and "pass@1" are
# a metric's own name.
_RUN_CONDITION = re.compile(r"\s?@\s?\d[^@]*[a-z][^@]*$", re.I)
_PER_DEVICE_WORD = re.compile(
    r"(?:\s/\s?|\bper[ -])(gpu|chip|card|device|accelerator|node)s?\b", re.I
)


def _per_device_figure(unit: Unit | None, worded: str) -> Unit | None:
    """A rate under a header saying per device ("Throughput per GPU (img/s)") is that
    device's, and so is a FLOP rate under a header naming one device ("GPU util. (TFLOPS/s)",
    "Per-GPU TFLOP/s"): img/s/GPU, TFLOP/s/GPU."""
    if unit is None or unit.kind not in ("rate", "other") or unit.per is not None:
        return unit
    device = _PER_DEVICE_WORD.search(worded)
    if device is None and unit.kind == "other" and unit.canonical.endswith("FLOP/s"):
        device = _DEVICE_WORD.search(fold_words(worded))
    if device is None:
        return unit
    shown = unit_named(f"{unit.alias}/{device.group(1).lower()}")
    return shown if shown is not None else unit


_DEVICE_TIME = re.compile(r"[ -]")


def _without_unit(text: str, unit: Unit | None) -> str:
    """`text` without the unit written in it when that unit has parts ("tokens/sec/chip",
    "GPU secs": a device's time, no count of devices)."""
    if unit is None:
        return text
    if "/" not in unit.alias and not (unit.kind == "duration" and _DEVICE_TIME.search(unit.alias)):
        return text
    parts = [r"\s+".join(map(re.escape, part.split())) for part in unit.alias.split("/")]
    pattern = r"\s*(?:/|\s+per\s+)\s*".join(parts)
    return re.sub(pattern, " ", text, count=1, flags=re.I).strip()


def _without(text: str, platform: PlatformMention | None) -> str:
    """`text` without the platform it names: "Max 1550" holds no statistic."""
    if platform is None or not platform.text:
        return text
    return text.replace(platform.text, " ")


def _composite_parts(cleaned: str) -> tuple[HeaderReading, ...]:
    """The parts of a header listing several settings, one per comma-separated part of
    each cell ("# Gaudi cards, Batch Size, Precision"); () unless every part names one."""
    if ", " not in cleaned or "(" in cleaned:
        return ()
    pieces = [piece.strip() for piece in cleaned.split(", ")]
    if len(pieces) < 2 or any(not piece for piece in pieces):
        return ()
    readings = tuple(read_header(piece) for piece in pieces)
    if all(reading.kind in ("config", "label") for reading in readings):
        return readings
    return ()


def names_quality_change(header: str) -> bool:
    """Whether a header names what a model's quality loses ("Accuracy loss", "精度损失")."""
    return word_alternatives("quality_changes.csv").search(fold_words(header)) is not None


def reads_as_unknown(word: str) -> bool:
    """Whether a word ("TTFP", "AL") reads as nothing the vocabularies know: no role, chip,
    precision or unit ("GPU", "FP16" and "TTFT" all read as something)."""
    reading = read_header(word)
    return (
        reading.kind is None
        and reading.platform is None
        and reading.precision is None
        and reading.unit is None
    )
