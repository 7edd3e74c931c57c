"""The labels a table's context states: its caption, headings, section paragraphs, page title
and (the accelerator only) the page's earlier prose; see schemas/table_context.py."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from perfledger.schemas.chip_counts import counts_no_run
from perfledger.schemas.chip_vocabulary import KIND_RANK
from perfledger.schemas.context_datasets import dataset_of_context
from perfledger.schemas.context_parts import (
    counts_of_chips,
    precisions_of_chips,
    precisions_of_parts,
    quantized_precision,
    reads_as_prose,
)
from perfledger.schemas.context_words import joins_two_figures, without_names, without_ratings
from perfledger.schemas.folding import fold_words, without_brackets
from perfledger.schemas.found import Found
from perfledger.schemas.header_reading import first_role, read_header, role_matches, statistic_of
from perfledger.schemas.label_mappings import NO_MAPPINGS, LabelMappings
from perfledger.schemas.labels import (
    framework_alone,
    framework_in_brackets,
    framework_of_backend,
    framework_of_run,
    listed_batch,
    stated_batch,
    workload_phase,
)
from perfledger.schemas.platform_mentions import (
    PlatformMention,
    count_of_all_chips,
    find_mentions,
)
from perfledger.schemas.precisions import (
    find_precisions,
)
from perfledger.schemas.row_labels import platform_label
from perfledger.schemas.scored_datasets import metric_of_scored_name
from perfledger.schemas.table_context import ContextText, TableContext
from perfledger.schemas.thread_counts import threads_stated
from perfledger.schemas.units import Unit, metric_of_unit, unit_in_header
from perfledger.schemas.unknown_chips import read_hardware

_PERCENTILES = ("p25", "p50", "p75", "p90", "p95", "p99", "p99.9")
# Metrics a heading, caption or paragraph may give the numbers of a table under it.
_CONTEXT_METRICS = (
    "throughput",
    "latency",
    "time_to_train",
    "time_to_result",
    "accuracy",
    "loss",
    "speedup",
    "scaling_efficiency",
    "other",
)


def context_labels(
    context: TableContext,
    mappings: LabelMappings = NO_MAPPINGS,
    names: frozenset[str] = frozenset(),
) -> dict[str, Found]:
    """The first platform, count, precision, metric, unit, percentile and workload the
    table's context states, each with where it came from. Hardware no vocabulary knows
    takes the user's mapping of it (`perfledger map-label platform`), if any. `names` are
    words the table's headers use as names of what it compares ("PPL" beside "TRT-8"): no
    metric in its context either."""
    found: dict[str, Found] = {}
    # A table under a heading naming a setting alone ("### Effective Batch Size") lists that
    # setting: what farther texts name ("... to achieve its maximum throughput") is no metric
    # of its numbers; its own caption, nearer, may name one.
    lists_setting = _names_a_setting(
        next((t.text for t in context.texts if t.source == "heading"), "")
    )
    stated_class = None  # the one class of device the nearest text naming one names
    for text in context.texts:
        labels = _labels_of(text.text, text.source)
        if stated_class is None and "platform" not in found and not _HOST_LINE.match(text.text):
            stated_class = _one_device_class(text.text)
        if "unit" in found:  # the units of kinds are those of the text stating the unit
            labels = tuple(label for label in labels if label[0] != "unit_of_kind")
        if text.source == "note":  # the note under a table: its hardware and precision only
            labels = tuple(label for label in labels if label[0] in _NOTE_LABELS)
        elif "metric" not in found and (not lists_setting or text.source == "caption"):
            labels = _with_metric(labels, _without_words(text.text, names), text.source)
        for name, value in labels:
            if name in ("platform", "count") and value.names_device and mappings:
                value = platform_label(value.text, mappings) or value
            if name == "platform" and _of_another_class(value.text, stated_class):
                continue  # "our own Mac i5 CPU" farther up than "On a single GPU, ... 12ms"
            if name == "count":
                platform = found.get("platform")
                if platform is not None and value.accelerator not in (
                    None,
                    platform.value.accelerator,
                ):
                    # a count stated for another chip; the text may state one for this chip
                    # too ("2 * A10, 20G / 2 * A800, 80G")
                    value = _count_for(text.text, text.source, platform.value.accelerator)
                    if value is None:
                        continue
            if name == "unit" and _unit_of_another_metric(found.get("metric"), value, text):
                continue  # the figure a nearer text names, not the one this unit measures
            if name == "metric" and _metric_of_another_unit(found.get("unit"), value, text):
                continue  # "p50 μs" in the heading: a farther paragraph's "accuracy" is not it
            if name == "metric" and "metric" not in found and _names_a_mode(text.text, value):
                found["metric"] = Found(value, text.source, as_mode=True)
            found.setdefault(name, Found(value, text.source))
    for text in context.repeated if "metric" not in found else ():
        labels = tuple(label for label in _labels_of(text, "paragraph") if label[0] == "unit")
        for name, value in _with_metric(labels, _without_words(text, names), "paragraph"):
            found.setdefault(name, Found(value, "repeated"))
        if "metric" in found:
            break
    if "unit" not in found and context.page_unit is not None:
        found["unit"] = Found(context.page_unit, "page")
    metric, unit = found.get("metric"), found.get("unit")
    if metric is None and unit is not None and unit.source in ("heading", "caption"):
        # "Microbenchmark results (e2e_pipelined p50 μs)" over columns named after the kernels
        # compared: what the unit measures is what the columns give
        measured = metric_of_unit(unit.value)
        if measured not in (None, "other"):
            found["metric"] = Found(measured, unit.source)
    if metric is not None and unit is not None and (metric.as_mode or _in_passing(metric)):
        # "High-Throughput (flat)" over a section of "All µs/call": the unit stated is more
        # specific than the name of the mode measured; so is "round trip times in `μs`" than
        # a paragraph's "difference" said in passing (Vollo's IO page)
        measured = metric_of_unit(unit.value)
        if measured is not None and measured != metric.value:
            found["metric"] = Found(measured, unit.source)
    quantized = quantized_precision(context)
    if quantized is not None:
        found["precision:quantized"] = quantized
    parts = precisions_of_parts(context)
    if parts is not None:
        found["precision_of_part"] = parts
    of_chips = precisions_of_chips(context)
    if of_chips is not None:
        found["precision_of_chip"] = of_chips
    counts = counts_of_chips(context)
    if counts is not None:
        found["count_of_chip"] = counts
    for device_class in DEVICE_CLASSES:
        of_class = _platform_of_class(context, device_class)
        if of_class is not None:
            found[f"platform:{device_class}"] = of_class
    _prefer_listed_accelerator(context, found)
    _take_platform_of_section_class(context, found)
    if "platform" not in found:
        # "### Results: CPU-only": the earlier prose's chip of that class, never another's
        named_class = _nearest_device_class(context)
        for index, text in enumerate(() if _setups_disagree(context.prose) else context.prose):
            mention = read_hardware(without_names(text), "prose")
            if mention is not None and _of_another_class(mention.text, stated_class):
                continue  # as above, in the earlier sections' prose
            if named_class is not None and mention is not None:
                mention = _chip_of_class(text, "paragraph", named_class)
            if mention is not None and mention.accelerator is not None:
                mention = _accelerator_listed_after(context.prose, index, mention) or mention
                mention = _chip_of_section_class(context, text, mention)
                if mention.count is None:
                    mention = _with_count_listed_near(context.prose, index, mention)
                found["platform"] = Found(mention, "paragraph")
                if mention.count is not None:
                    found.setdefault("count", Found(mention, "paragraph"))
                break
    elif "count" not in found:
        _take_count_of_listed_chip(context, found)
    return found


# A setup's "CPU: 128 core Intel(R) Xeon(R) CPU" line: the host, no class of device run on.
_HOST_LINE = re.compile(r"(?i)^\W{0,3}(?:host |system )?(?:cpus?|processors?|处理器)\s*[:：]")
# A class of device named as a word ("On a single GPU", "Mac i5 CPU").
_DEVICE_CLASS_WORD = re.compile(r"(?<![A-Za-z0-9])(GPU|CPU|NPU|TPU)s?(?![A-Za-z0-9])")


@lru_cache(maxsize=16_384)
def _one_device_class(text: str) -> str | None:
    """The class of device a text names, where it names one and no other."""
    named = {match.group(1) for match in _DEVICE_CLASS_WORD.finditer(text)}
    return named.pop() if len(named) == 1 else None


def _of_another_class(chip_text: str, stated_class: str | None) -> bool:
    """Whether a chip's text names a class of device other than the one a nearer text says
    the runs used: that chip ran something else."""
    named = _one_device_class(chip_text) if stated_class is not None else None
    return named is not None and named != stated_class


@lru_cache(maxsize=4_096)
def _names_a_setting(heading: str) -> bool:
    """Whether a heading names a setting and nothing else, without its value ("Effective Batch
    Size"; not "Batch size 8", the section of the runs at one size)."""
    if read_header(heading).kind != "config" or any(c.isdigit() for c in heading):
        return False
    core = _ASIDE_AT_END.sub("", fold_words(heading)).rstrip(" :.")
    ends = [end for _start, end, rule in role_matches(core) if rule.kind == "config"]
    # The setting must be what the heading names, its last words: "Random node sampler" names
    # a sampler, which "node" only describes; "Node count" names the setting.
    return not ends or _SETTING_TAIL.fullmatch(core[max(ends) :]) is not None


_ASIDE_AT_END = re.compile(r"\s*\([^()]*\)\s*[:.]?\s*$")
# Words after a setting's own word that still name it: "Node count", "Input length".
_SETTING_TAIL = re.compile(
    r"(?:\s+(?:counts?|numbers?|lengths?|sizes?|len|num|values?|settings?|config(?:uration)?s?))?"
)


# "N times" in prose compares only before a comparative ("2.5 times faster") or states a
# unit ("in times"); otherwise it counts repeats ("run 10 times").
_TIMES_COMPARING = re.compile(
    r"\bin\s+times\b|\btimes\s+(?:the|as|more|less|fewer|over|than|that|faster|slower|higher|"
    r"lower|better|worse|larger|smaller|greater|bigger|quicker|speed ?up|[a-z]+er)\b",
    re.IGNORECASE,
)


def _counts_repeats(text: str, unit: Unit) -> bool:
    """Whether a paragraph's ratio unit is its "times" counting how often a run was made."""
    return unit.kind == "ratio" and unit.alias == "times" and not _TIMES_COMPARING.search(text)


# An item of a list of the setup: "机器、加速卡型号: R200", "- Accelerator: 8x A100".
# The value is what follows the item's first colon.
_SETUP_ITEM = re.compile(r"^(?=\W{0,3}[^:：\n]{1,40}[:：]\s*\S)[^:：]*[:：](?P<value>.*)", re.S)


_MEASURED_ON = re.compile(
    r"\b(?:measured|tested|benchmarked|executed|evaluated) (?:on|with)\b", re.I
)


def _setups_disagree(prose: tuple[str, ...]) -> bool:
    """Whether the page's earlier prose lists setups of different chips of one class (a
    section per vendor, each "加速卡型号: ..."): none of them is the setup of a table that
    names none. A host CPU listed beside the accelerator is no other setup."""
    chips: dict[bool, set[str]] = {}  # by class: a CPU (or a laptop's chip) or not
    for text in prose:
        item = _SETUP_ITEM.match(text)
        # An item's value is a label: "NVIDIA_A100-SXM4-40GB" names its chip there; a sentence
        # saying what a backend was measured on ("CUDA backend is measured on a V100") too
        mention = (
            read_hardware(item.group("value"), "label")
            if item is not None
            else read_hardware(text, "prose")
            if _MEASURED_ON.search(text)
            else None
        )
        if mention is not None and mention.accelerator is not None:
            # of one class: a Xeon and an Apple M2 Ultra are two hosts' setups
            chips.setdefault(mention.rank in DEVICE_CLASSES["cpu"], set()).add(mention.accelerator)
    return any(len(named) > 1 for named in chips.values())


def _take_count_of_listed_chip(context: TableContext, found: dict[str, Found]) -> None:
    """The count of the context's chip that the page's setup list gives by name a few items
    from the chip's own item ("accelerator_model_name: NVIDIA Jetson AGX Orin 64G",
    "accelerators_per_node: 1"), where the nearer texts name the chip without its count."""
    platform = found["platform"].value
    if platform.accelerator is None:
        return
    if not any(_NAMED_COUNT.match(text) for text in context.prose):
        return  # no item gives a count by name: most pages
    for index, text in enumerate(context.prose):
        if len(text) > _LIST_ITEM_CHARS:
            continue
        listed = read_hardware(without_names(text), "prose")
        if listed is None or listed.accelerator != platform.accelerator:
            continue
        counted = _with_count_listed_near(context.prose, index, listed)
        if counted.count is not None:
            found["count"] = Found(
                replace(platform, count=counted.count, count_stated=True), "paragraph"
            )
        return


# A setup written as a list, one item a line ("- Tesla V100-SXM2-16GB x 8", "- InfiniBand
# 100 Gb/sec", "- Intel(R) Xeon(R) Gold 5118 CPU"): its items are short, and the accelerator
# of the run stands a few items from the host CPU the machine also has.
_LIST_ITEM_CHARS = 160
_LIST_ITEMS_APART = 4
_HOST_ITEMS_APART = 8  # the server's items (model, OS, kernel) may stand between the two


def _accelerator_listed_after(
    texts: tuple[str, ...], index: int, mention: PlatformMention
) -> PlatformMention | None:
    """The accelerator a setup list names a few items from the host CPU `mention` found in
    texts[index] (texts nearest first, so farther items come after it); None when the CPU
    stands alone, in prose or in a list of no accelerator. A table of the machine's CPU says
    so in its heading (see `_take_platform_of_section_class`)."""
    if mention.rank != KIND_RANK["cpu"] or len(texts[index]) > _LIST_ITEM_CHARS:
        return None
    for text in texts[index + 1 : index + 1 + _HOST_ITEMS_APART]:
        if len(text) > _LIST_ITEM_CHARS:
            return None
        listed = read_hardware(without_names(text), "label")  # "- NVIDIA A100 GPUs": a setup
        if listed is not None and listed.accelerator is not None:
            return listed if listed.rank == KIND_RANK["accelerator"] else None
    return None


# A setup item giving a count of devices by name: "accelerators_per_node: 8", "GPUs: 4".
_NAMED_COUNT = re.compile(r"^([^:]{1,60}):\s*(\d{1,5})$")


def _with_count_listed_near(
    texts: tuple[str, ...], index: int, mention: PlatformMention
) -> PlatformMention:
    """`mention`, found in a setup list item (texts[index], "accelerator_model_name: AMD
    Instinct MI300X"), with the count of devices the one item a few places from it gives by
    name ("accelerators_per_node: 8"): a system described item by item states its chip and
    their number apart. Unchanged when no item, or more than one, gives a count."""
    if len(texts[index]) > _LIST_ITEM_CHARS:
        return mention
    near = texts[max(0, index - _LIST_ITEMS_APART) : index + 1 + _LIST_ITEMS_APART]
    counts = set()
    for text in near:
        named = _NAMED_COUNT.match(text)
        if (
            named
            and int(named.group(2)) > 0
            and read_header(named.group(1)).role == "accelerator_count"
        ):
            counts.add(int(named.group(2)))
    if len(counts) != 1:
        return mention
    return replace(mention, count=counts.pop(), count_stated=True)


def _prefer_listed_accelerator(context: TableContext, found: dict[str, Found]) -> None:
    """A host CPU the nearest paragraph of the table's sections names, in a setup list that
    names the accelerator a few items on, gives way to that accelerator and its count."""
    platform = found.get("platform")
    if platform is None or platform.source != "paragraph":
        return
    paragraphs = tuple(text.text for text in context.texts if text.source == "paragraph")
    index = next(
        (
            at
            for at, text in enumerate(paragraphs)
            if any(name == "platform" for name, _value in _labels_of(text, "paragraph"))
        ),
        None,
    )
    if index is None:
        return
    listed = _accelerator_listed_after(paragraphs, index, platform.value)
    if listed is None:
        return
    found["platform"] = Found(listed, "paragraph")
    count = found.get("count")
    if listed.count is not None:
        found["count"] = Found(listed, "paragraph")
    elif count is not None and count.value.accelerator == platform.value.accelerator:
        found.pop("count")


def _without_words(text: str, words: frozenset[str]) -> str:
    return _words_pattern(words).sub(" ", text) if words else text


@lru_cache(maxsize=256)
def _words_pattern(words: frozenset[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.I)


_BEFORE_METRIC = ("platform", "count", "precision")  # the labels `_labels_of` gives first
# What a brief note under a table states (table_context.py): hardware, precision, threads.
_NOTE_LABELS = (*_BEFORE_METRIC, "threads")


def _with_metric(
    labels: tuple[tuple[str, Any], ...], text: str, source: str
) -> tuple[tuple[str, Any], ...]:
    """A context text's labels (`_labels_of`) with the metric it names, in its place among
    them: after the hardware and the precision. A heading or caption naming a scored dataset
    alone ("### MMLU") names its score."""
    if source in ("paragraph", "note"):
        text = _without_reported_results(text)
    elif joins_two_figures(fold_words(text)):  # "Quality and performance": neither one's
        return labels
    # "p50 µs, speedup vs deepgemm in parens": the figure in brackets is that metric's, not
    # the one the cells state first
    if _NAMES_BRACKETS.search(text):
        text = _BRACKETED_FIGURE_NAMED.sub(" ", text)
    metric = metric_named_in(without_names(text))
    if metric is None and source in ("caption", "heading"):
        metric = metric_of_scored_name(text)
    if metric is None:
        return labels
    at = sum(1 for name, _value in labels if name in _BEFORE_METRIC)
    return (*labels[:at], ("metric", metric), *labels[at:])


# The clause naming what a table's cells give in brackets beside their figure.
_BRACKETED_FIGURE_NAMED = re.compile(
    r"[^,;.:()]*\b(?:in|within) (?:parens|parenthes[ie]s|brackets)\b", re.IGNORECASE
)
# Tried from every position, the clause pattern rescans each run of words: over a long
# paragraph that is quadratic, so it runs only on a text that names brackets at all.
_NAMES_BRACKETS = re.compile(r"\b(?:in|within) (?:paren|bracket)", re.IGNORECASE)


def _in_passing(metric: Found) -> bool:
    """Whether a metric is the catch-all "other" that a paragraph's word named ("how it
    scales with difference sizes"): any unit the context states says more."""
    return metric.value == "other" and metric.source in ("paragraph", "note", "repeated")


# Prose says "efficiency" in passing ("brings greater efficiency", "inference efficiency"): in
# a sentence only a qualified "scaling efficiency" or "parallel efficiency" names that metric.
_PASSING_EFFICIENCY = re.compile(r"(?<![Ss]caling )(?<![Pp]arallel )\b[Ee]fficiency\b")
# Prose says "scaling" of what grows ("data scaling", "scaling laws"): only a scaling
# efficiency or factor, or a weak or strong scaling, names that metric.
_PASSING_SCALING = re.compile(
    r"(?<![Ww]eak )(?<![Ss]trong )(?<![Ll]inear )\b[Ss]caling\b(?! (?:efficiency|factor))"
)
# "a high-quality sparse mixture of experts model": a compound adjective praising a model
# names no accuracy of the numbers that follow.
_PASSING_QUALITY = re.compile(r"\b(?:[Hh]igh|[Hh]igher|[Ll]ow|[Ll]ower|[Tt]op|[Bb]est)-quality\b")
# "a significant improvement from 2T to 2.5T checkpoint": a change between two points a
# sentence explains in passing, no speedup the numbers of a table measure.
_PASSING_CHANGE = re.compile(
    r"\b(?:improvements?|gains?|boosts?|increases?|jumps?)\s+(?:from|between)\s+\S+\s+(?:to|and)\s+\S+"
)
# A figure and the words after it ("87.3 top-1 accuracy", "58.7 box AP", "+2.7 mIoU").
_FIGURE_AND_WORDS = re.compile(
    r"(?<![\w.])[+-]?\d+(?:\.\d+)?\s*(?:%|x|×)?\s+((?:[\w@-]+\s+){0,2}[\w@-]+)"
)


@lru_cache(maxsize=16_384)
def _without_reported_results(text: str) -> str:
    """A paragraph without what it says of results in passing: a metric stated with a figure
    of its own ("image classification (87.3 top-1 accuracy on ImageNet-1K)") is a result the
    sentence reports, not what a table's numbers below measure; nor is "greater efficiency",
    nor "data scaling"."""
    text = _PASSING_QUALITY.sub(" ", _PASSING_EFFICIENCY.sub(" ", text))
    text = _PASSING_CHANGE.sub(" ", _PASSING_SCALING.sub(" ", text))
    spans = [
        match.span()
        for match in _FIGURE_AND_WORDS.finditer(text)
        if metric_named_in(match.group(1)) is not None
    ]
    for start, end in reversed(spans):
        text = f"{text[:start]} {text[end:]}"
    return text


def _chip_of_section_class(
    context: TableContext, text: str, mention: PlatformMention
) -> PlatformMention:
    """The chip of the class the table's section says its runs used ("## CPU-only
    performance") that a paragraph names beside another ("a Ryzen-7950X system with an
    RTX-4080 GPU"), else the chip the paragraph gives."""
    nearest = next((text for text in context.texts if text.source in ("caption", "heading")), None)
    named_class = _section_device_class(nearest.text) if nearest is not None else None
    if named_class is None:
        return mention
    of_class = _chip_of_class(text, "paragraph", named_class)
    return of_class if of_class is not None else mention


def _nearest_device_class(context: TableContext) -> str | None:
    """The class of device the nearest caption or heading names alone ("### CPU")."""
    nearest = next((text for text in context.texts if text.source in ("caption", "heading")), None)
    return _section_device_class(nearest.text) if nearest is not None else None


def _take_platform_of_section_class(context: TableContext, found: dict[str, Found]) -> None:
    """A table under a heading naming only a class of device ("### CPU", "### GPU(CUDA)")
    ran on the context's chip of that class: the CPU of "A800, Intel Xeon Platinum 8358 CPU",
    not its GPU."""
    named_class = _nearest_device_class(context)
    of_class = found.get(f"platform:{named_class}") if named_class else None
    platform = found.get("platform")
    if of_class is None or platform is None:
        return
    if of_class.value.accelerator == platform.value.accelerator:
        return
    found["platform"] = of_class
    if of_class.value.count_stated:
        found["count"] = of_class
    else:
        found.pop("count", None)  # the count stated for the other chip


# "CPU-only performance", "GPU only inference": a section of runs on that class of device alone
_CLASS_ONLY = re.compile(r"(?<![a-z0-9])([a-z]+) only(?![a-z0-9])")


@lru_cache(maxsize=16_384)
def _section_device_class(text: str) -> str | None:
    """The class of device a heading names alone ("### CPU") or says its runs used alone
    ("## CPU-only performance")."""
    named = bare_device_class(text)
    if named is not None:
        return named
    only = _CLASS_ONLY.search(fold_words(without_brackets(text)))
    return device_class(only.group(1)) if only is not None else None


def _unit_of_another_metric(metric: Found | None, unit: Any, text: ContextText) -> bool:
    """Whether a unit a text farther than the one naming the metric states measures another
    metric ("TPS" in a paragraph on throughput, beside "P-EAGLE (acceptance length)")."""
    if metric is None or metric.source == text.source or metric.as_mode or _in_passing(metric):
        return False  # a mode's name, or a word said in passing, yields to a unit (below)
    measured = metric_of_unit(unit)
    return measured is not None and measured != metric.value


def _metric_of_another_unit(unit: Found | None, metric: Any, text: ContextText) -> bool:
    """Whether a metric a text farther than the one stating the unit names is measured in
    another unit ("accuracy" in the page's opening paragraph, under a heading of "p50 μs")."""
    if unit is None or unit.source == text.source:
        return False
    measured = metric_of_unit(unit.value)
    return measured is not None and measured != metric


@lru_cache(maxsize=16_384)
def bare_device_class(text: str) -> str | None:
    """The class of device a heading or a platform cell names when it names nothing else
    ("CPU", "GPU(Metal)")."""
    bare = fold_words(without_brackets(text)).strip()
    if not bare or " " in bare:
        return None
    return device_class(bare)


# What stands between two chips named as alternatives: "MI350X/MI355X", "H100 or H200".
_ALTERNATIVE = re.compile(r"\s*/\s*|\s+or\s+", re.I)


def _names_chips_as_alternatives(text: str) -> bool:
    """Whether `text` names two chips as alternatives ("... on AMD Instinct MI350X/MI355X
    with Eagle3"): a family of runs, not the one chip a table under it ran on; a nearer or
    farther text naming one chip ("Kimi-K2.5 results use AMD Instinct MI355X") says which."""
    chips = [m for m in find_mentions(text) if m.accelerator is not None]
    return any(
        first.accelerator != second.accelerator
        and _ALTERNATIVE.fullmatch(text[first.end : second.start])
        for first, second in zip(chips, chips[1:], strict=False)
    )


@lru_cache(maxsize=65_536)
def _labels_of(text: str, source: str) -> tuple[tuple[str, Any], ...]:
    """(label, value) of every label one context text states but its metric (see
    `_with_metric`); pages of one site repeat their headings, so each is read once."""
    if source == "link":
        return _link_labels(text)
    found: list[tuple[str, Any]] = []
    written, text, listed = text, without_names(text), listed_batch(text)  # "BATCH_SIZE=1, ..."
    # "NeoChip X2 (16 chips)": hardware of its own, known or not, which no chip named
    # farther away (an earlier paragraph's "DGX A100") may stand in for.
    prose = reads_as_prose(text, source)
    mention = read_hardware(text, "prose" if prose else "label")
    if mention is not None:
        if mention.accelerator is not None and not _names_chips_as_alternatives(text):
            found.append(("platform", mention))
        if mention.count is not None and not (
            source == "paragraph" and counts_no_run(fold_words(text), text[: mention.start])
        ):
            found.append(("count", count_of_all_chips(text, mention, prose)))
    precisions = find_precisions(without_ratings(text))
    if precisions:
        found.append(("precision", precisions[0]))
    if source != "title":
        unit = unit_in_header(text)
        if unit is not None and source == "paragraph" and _counts_repeats(text, unit):
            unit = None  # "We've run experiments 10 times repeatedly": no ratio of the table's
        if unit is not None:
            found.append(("unit", unit))
            of_kinds = units_of_kinds(text) if source != "heading" else {}
            if len(of_kinds) > 1:
                found.append(("unit_of_kind", of_kinds))
        # A paragraph's "50%" is a share or a gain ("提升了超过50%"), not the median it is
        # in a header ("Latency 50% (ms)")
        statistic = statistic_of(_PERCENTAGE.sub(" ", text) if source == "paragraph" else text)
        # "(p99 values)"; "average", "max" say too little in prose, but not as a label of
        # their own above the table ("**mean**:" over Vollo's round trips, "**p99**:" below)
        if statistic in _PERCENTILES or (statistic and _LABEL_ALONE.fullmatch(text)):
            found.append(("statistic", statistic))
    if source in ("caption", "heading", "paragraph", "note"):
        threads = threads_stated(text)  # "CPU 线程数设为 1", "Executed with 4 threads on ..."
        if threads is not None:
            found.append(("threads", threads))
    # "Cityscapes" heading a table, the line above it listing its run ("* Aishell2, FP16, ...")
    if (dataset := dataset_of_context(text, source)) is not None:
        found.append(("dataset", dataset))
    if source in ("caption", "heading"):
        workload, _ = workload_phase(text)
        if workload is not None:
            found.append(("workload", workload))
        # "FP32 batch size = 128 各框架吞吐率": the batch size of every value under it (a
        # paragraph's batch sizes are often another run's: "bsz = 224 would run out of memory")
        batch = stated_batch(text) or listed
        if batch is not None:
            found.append(("batch", batch))
        # "0.5B (vLLM)"; "TensorRT" over a device matrix's sections
        if (
            framework := framework_in_brackets(text)
            or framework_alone(text)
            or framework_of_backend(text)
        ) is not None:
            found.append(("framework", framework))
    elif source == "paragraph" and (listed or "batch" in written.lower()):
        # "This is a benchmark sample for the batch size = 1 case.", "batch size = 1，…，测试硬件为
        # A100", "We tested the following networks ... with batch size = 1": a sentence on what a benchmark, evaluation or test (测试) ran, or one listing
        # its settings ("Batch size=2, Precision=bf16, ..."), states the batch of its values
        batch = listed or next(
            (
                stated
                for sentence in _SENTENCES.split(written)  # "for batch_size=1": no file's name
                if _BENCHMARK_RUN.search(sentence) and (stated := stated_batch(sentence))
            ),
            None,
        )
        if batch is not None:
            found.append(("batch", batch))
    if source == "paragraph" and mention is not None and (ran := framework_of_run(written)):
        found.append(("framework", ran))  # "tested on ascend 910* with mindspore 2.5.0"
    return tuple(found)


_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_BENCHMARK_RUN = re.compile(
    r"(?i)\bbenchmark(?:s|ed|ing)?\b|\bevaluat(?:ion|ed|ing)\b|\btested\b|测试|評測|评测|以下|如下"
    r"|\b(?:numbers|results) (?:below|above)\b|\bbelow (?:numbers|results)\b|\ball \w+ numbers\b"
)


_PERCENTAGE = re.compile(r"\d+(?:\.\d+)? ?%")
_LABEL_ALONE = re.compile(r"\W{0,3}[A-Za-z]{2,10}\W{0,3}")  # one word, marked or not
# Where a sentence of the context ends or a clause of it stands apart: each may state a unit.
_ASIDE = re.compile(r"\([^)]*\)?|`[^`]*`")
_CLAUSE_ENDS = re.compile(r"(?<=[.!?;:])\s+|;|,\s|\s[\u2014\u2013-]\s|\sand\s|\u3002|\uff1b|\uff0c")


@lru_cache(maxsize=16_384)
def units_of_kinds(text: str) -> dict[str, Unit]:
    """The first unit each clause of a context text states, by its kind, where they are of
    more than one kind ("Per-stage median µs (...). Compute-bound throughout; tok/s ~linear
    in GPU count": µs for its times, tok/s for its rates); the unit of the text as a whole
    is its last."""
    of_kinds: dict[str, Unit] = {}
    for clause in _CLAUSE_ENDS.split(text):
        if not clause.strip():
            continue
        # "median µs (compute = ...": the unit closes the clause once its aside is set apart
        unit = unit_in_header(clause) or unit_in_header(_ASIDE.sub(" ", clause))
        if unit is not None:
            of_kinds.setdefault(unit.kind, unit)
    return of_kinds if len(of_kinds) > 1 else {}


# A file name, a path, a link or an identifier written in prose ("train_llama3_8b_h100_fp8.sh",
# "configs/h100/llama.yaml"): what it holds names a file, not the setup of a result.
def _link_labels(targets: str) -> tuple[tuple[str, Any], ...]:
    """The device the model files a table links to are built for, when they name one and the
    same chip ("…/hailo8/cas_vit_m.hef", "…/hailo8/cas_vit_s.hef"); several name none."""
    chips = {}
    for target in targets.splitlines():
        mention = read_hardware(target, "label")
        if mention is not None and mention.accelerator is not None and not mention.names_device:
            chips.setdefault(mention.accelerator, mention)
    if len(chips) != 1:
        return ()
    (mention,) = chips.values()
    return (("platform", replace(mention, count=None, count_stated=False)),)


# Device classes a column header may name without naming a chip ("GPU 耗时(ms)", "CPU
# latency"), each with the ranks of the chips of that class (schemas/chip_vocabulary.py),
# the one preferred first: a phone's "CPU time" ran on its SoC's cores ("Kirin 980,
# Mali-G76") where no CPU of its own is named.
DEVICE_CLASSES = {"cpu": (0, 1), "accelerator": (2,)}
_DEVICE_CLASS_WORDS = (
    # Software that runs on one class only names it too: oneDNN (MKLDNN) a CPU, TensorRT and
    # CUDA an NVIDIA GPU.
    (
        "cpu",
        re.compile(r"(?<![a-z0-9])(?:cpus?|processors?|处理器|mkl ?dnn|onednn)(?![a-z0-9])"),
    ),
    (
        "accelerator",
        re.compile(
            r"(?<![a-z0-9])(?:gpus?|npus?|tpus?|xpus?|hpus?|ipus?"
            r"|accelerators?|显卡|加速卡|tensorrt|cuda)(?![a-z0-9])"
        ),
    ),
)


_PER_DEVICE = re.compile(r"(?:/|\bper) ?[a-z]+")
# "Max. GPU memory" beside "Max. CPU memory": where a run kept its data, both sides of one
# run on one system, not the device class a column's numbers were measured on.
_DEVICE_MEMORY = re.compile(
    r"(?<![a-z0-9])(?:cpu|gpu|npu|host|device|accelerator) (?:memory|mem|ram)(?![a-z0-9])"
)


@lru_cache(maxsize=16_384)
def device_class(header: str) -> str | None:
    """The class of device a header names without naming a chip: "GPU 耗时(ms)" an
    accelerator, "CPU 耗时(ms)" a CPU; None for both or neither."""
    folded = _PER_DEVICE.sub(" ", fold_words(header))  # "TFLOPS / GPU" is per device
    folded = _DEVICE_MEMORY.sub(" ", folded)
    named = [name for name, pattern in _DEVICE_CLASS_WORDS if pattern.search(folded)]
    return named[0] if len(named) == 1 else None


def _platform_of_class(context: TableContext, device_class: str) -> Found | None:
    """The nearest context text's chip of a class ("- Intel(R) Xeon(R) Gold 6271C" for the
    CPU columns, "- 硬件：NVIDIA Tesla V100 单卡" for the GPU columns of one table), with the
    count it states for that chip."""
    for text in context.texts:
        mention = _chip_of_class(text.text, text.source, device_class)
        if mention is not None:
            return Found(mention, text.source)
    return None


@lru_cache(maxsize=65_536)
def _chip_of_class(text: str, source: str, device_class: str) -> PlatformMention | None:
    """The chip of a class one context text names, the preferred rank first; texts repeat
    from table to table of a page."""
    ranks = DEVICE_CLASSES[device_class]
    of_class = [
        mention
        for mention in find_mentions(without_names(text), reads_as_prose(text, source))
        if mention.accelerator is not None and mention.rank in ranks
    ]
    return min(of_class, key=lambda m: ranks.index(m.rank)) if of_class else None


def _count_for(text: str, source: str, accelerator: str | None) -> PlatformMention | None:
    """The count a context text states for `accelerator`, among the chips it names."""
    return next(
        (
            mention
            for mention in find_mentions(text, prose=reads_as_prose(text, source))
            if mention.accelerator == accelerator and mention.count_stated
        ),
        None,
    )


# A metric word as the second half of a degree compound names a kind of kernel, mode or
# engine ("High-Throughput (flat)", "low-latency kernels", "Max-Throughput"), not what the
# numbers under it measure.
_MODE_COMPOUNDS = {
    "throughput": re.compile(r"\b(?:high|max|maximum|peak)[- ]throughput\b", re.I),
    "latency": re.compile(r"\b(?:low|min|minimum|ultra[- ]low)[- ]latency\b", re.I),
}


@lru_cache(maxsize=65_536)
def _names_a_mode(text: str, metric: str) -> bool:
    """Whether every mention of `metric` in `text` is a mode's name ("High-Throughput")."""
    compound = _MODE_COMPOUNDS.get(metric)
    if compound is None or compound.search(text) is None:
        return False
    return metric_named_in(compound.sub(" ", text)) != metric


# A score's abbreviation that is also an English word ("mAP" and "map"): in a heading or a
# sentence only the abbreviation's own spelling names the score ("Unstructured target data
# map" names none). Header cells are short and name their column; they read as before.
_WORDS_NOT_SCORES = re.compile(r"\b(?:[Mm]ap|MAp)\b")


@lru_cache(maxsize=16_384)
def metric_named_in(text: str) -> str | None:
    """The first metric a heading, caption or paragraph names ("Throughput Measurements",
    "FP8 Accuracy"). A comparison word used as a verb ("the setup that can gain the fastest
    speed", "to boost throughput") names no speedup."""
    folded = fold_words(_WORDS_NOT_SCORES.sub(" ", text))
    return first_role(_VERB_USE.sub(" ", folded), "metric", _CONTEXT_METRICS)


# "can gain", "to boost": a verb after a modal or "to"; the nouns ("a 2x gain") name a speedup.
_VERB_USE = re.compile(
    r"(?<![a-z0-9])(?:to|can|could|may|might|will|would|should|must|help|helps)"
    r" (?:further |also |greatly |significantly )?(?:gain|boost|improve|increase)(?![a-z0-9])"
)
