"""The labels a table's context states: its caption, headings, section paragraphs, page title
and (the accelerator only) the page's earlier prose; see schemas/table_context.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import first_role, statistic_of
from perfledger.schemas.label_mappings import NO_MAPPINGS, LabelMappings
from perfledger.schemas.labels import workload_phase
from perfledger.schemas.platform_mentions import (
    PlatformMention,
    find_mentions,
)
from perfledger.schemas.precisions import find_precisions
from perfledger.schemas.row_labels import platform_label
from perfledger.schemas.table_context import TableContext
from perfledger.schemas.units import unit_in_header
from perfledger.schemas.unknown_chips import read_hardware

_PERCENTILES = ("p50", "p90", "p95", "p99", "p99.9")
# Metrics a heading, caption or paragraph may give the numbers of a table under it.
_CONTEXT_METRICS = ("throughput", "latency", "time_to_train", "time_to_result", "accuracy",
                    "loss", "speedup", "scaling_efficiency", "other")


@dataclass(frozen=True)
class Found:
    """A label and where it came from: row, section, column, caption, heading, paragraph or
    title."""

    value: object
    source: str


def context_labels(context: TableContext, mappings: LabelMappings = NO_MAPPINGS
                   ) -> dict[str, Found]:
    """The first platform, count, precision, metric, unit, percentile and workload the
    table's context states, each with where it came from. Hardware no vocabulary knows
    takes the user's mapping of it (`perfledger map-label platform`), if any."""
    found: dict[str, Found] = {}
    for text in context.texts:
        for name, value in _labels_of(text.text, text.source):
            if name in ("platform", "count") and value.names_device and mappings:
                value = platform_label(value.text, mappings) or value
            if name == "count":
                platform = found.get("platform")
                if platform is not None and value.accelerator not in (
                        None, platform.value.accelerator):
                    # a count stated for another chip; the text may state one for this chip
                    # too ("2 * A10, 20G / 2 * A800, 80G")
                    value = _count_for(text.text, text.source, platform.value.accelerator)
                    if value is None:
                        continue
            found.setdefault(name, Found(value, text.source))
    if "platform" not in found:
        for text in context.prose:
            mention = read_hardware(without_names(text), "prose")
            if mention is not None and mention.accelerator is not None:
                found["platform"] = Found(mention, "paragraph")
                if mention.count is not None:
                    found.setdefault("count", Found(mention, "paragraph"))
                break
    return found


@lru_cache(maxsize=65_536)
def _labels_of(text: str, source: str) -> tuple[tuple[str, object], ...]:
    """(label, value) of every label one context text states; pages of one site repeat their
    headings, so each is read once."""
    found: list[tuple[str, object]] = []
    text = without_names(text)
    # "NeoChip X2 (16 chips)": hardware of its own, known or not, which no chip named
    # farther away (an earlier paragraph's "DGX A100") may stand in for.
    mention = read_hardware(text, "prose" if source == "paragraph" else "label")
    if mention is not None:
        if mention.accelerator is not None:
            found.append(("platform", mention))
        if mention.count is not None:
            found.append(("count", mention))
    precisions = find_precisions(text)
    if precisions:
        found.append(("precision", precisions[0]))
    metric = metric_named_in(text)
    if metric is not None:
        found.append(("metric", metric))
    if source != "title":
        unit = unit_in_header(text)
        if unit is not None:
            found.append(("unit", unit))
        statistic = statistic_of(text)
        if statistic in _PERCENTILES:  # "(p99 values)"; "average", "max" say too little in prose
            found.append(("statistic", statistic))
    if source in ("caption", "heading"):
        workload, _ = workload_phase(text)
        if workload is not None:
            found.append(("workload", workload))
    return tuple(found)


# A file name, a path, a link or an identifier written in prose ("train_llama3_8b_h100_fp8.sh",
# "configs/h100/llama.yaml"): what it holds names a file, not the setup of a result.
_NAMES = re.compile(r"\S*[A-Za-z0-9]_[A-Za-z0-9]\S*|(?:https?://|www\.)\S+"
                    r"|\S+\.(?:sh|py|ipynb|ya?ml|json|txt|md|rst|cfg|toml|conf|log|csv|html?)\b")


@lru_cache(maxsize=65_536)
def without_names(text: str) -> str:
    return _NAMES.sub(" ", text) if ("_" in text or "/" in text or "." in text) else text


def _count_for(text: str, source: str, accelerator: str | None) -> PlatformMention | None:
    """The count a context text states for `accelerator`, among the chips it names."""
    return next((mention for mention in find_mentions(text, prose=source == "paragraph")
                 if mention.accelerator == accelerator and mention.count_stated), None)


@lru_cache(maxsize=16_384)
def metric_named_in(text: str) -> str | None:
    """The first metric a heading, caption or paragraph names ("Throughput Measurements",
    "FP8 Accuracy")."""
    return first_role(fold_words(text), "metric", _CONTEXT_METRICS)
