"""The labels a table's context states: its caption, headings, section paragraphs, page title
and (the accelerator only) the page's earlier prose; see schemas/table_context.py."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from schemas.folding import fold_words
from schemas.header_reading import role_matches, statistic_of
from schemas.labels import workload_phase
from schemas.platform_mentions import read_platform
from schemas.precisions import find_precisions
from schemas.table_context import ContextText, TableContext
from schemas.units import unit_in_header

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


def context_labels(context: TableContext) -> dict[str, Found]:
    """The first platform, count, precision, metric, unit and workload the table's context
    states, each with where it came from."""
    return dict(_context_labels(context))


@lru_cache(maxsize=4096)
def _context_labels(context: TableContext) -> tuple[tuple[str, Found], ...]:
    found: dict[str, Found] = {}
    for text in context.texts:
        _context_text(text, found, prose=text.source == "paragraph")
    if "platform" not in found:
        for text in context.prose:
            mention = read_platform(text.text, prose=True)
            if mention is not None and mention.accelerator is not None:
                found["platform"] = Found(mention, "paragraph")
                if mention.count is not None:
                    found.setdefault("count", Found(mention, "paragraph"))
                break
    return tuple(found.items())


def _context_text(text: ContextText, found: dict[str, Found], prose: bool) -> None:
    mention = read_platform(text.text, prose=prose)
    if mention is not None:
        if mention.accelerator is not None and "platform" not in found:
            found["platform"] = Found(mention, text.source)
        if mention.count is not None and "count" not in found and (
                "platform" not in found
                or mention.accelerator in (None, found["platform"].value.accelerator)):
            found["count"] = Found(mention, text.source)
    if "precision" not in found:
        precisions = find_precisions(text.text)
        if precisions:
            found["precision"] = Found(precisions[0], text.source)
    if "metric" not in found:
        metric = metric_named_in(text.text)
        if metric is not None:
            found["metric"] = Found(metric, text.source)
    if "unit" not in found and text.source != "title":
        unit = unit_in_header(text.text)
        if unit is not None:
            found["unit"] = Found(unit, text.source)
    if "statistic" not in found and text.source != "title":
        statistic = statistic_of(text.text)
        if statistic in _PERCENTILES:  # "(p99 values)"; "average", "max" say too little in prose
            found["statistic"] = Found(statistic, text.source)
    if "workload" not in found and text.source in ("caption", "heading"):
        workload, _ = workload_phase(text.text)
        if workload is not None:
            found["workload"] = Found(workload, text.source)


@lru_cache(maxsize=16_384)
def metric_named_in(text: str) -> str | None:
    """The first metric a heading, caption or paragraph names ("Throughput Measurements",
    "FP8 Accuracy")."""
    matches = sorted(role_matches(fold_words(text)), key=lambda found: found[0])
    for _start, _end, rule in matches:
        if rule.kind == "metric" and rule.role in _CONTEXT_METRICS:
            return rule.role
    return None
