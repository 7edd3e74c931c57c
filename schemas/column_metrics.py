"""What a result column measures when its header names no metric of its own: the metric its
table's context names, unless the header's own words or unit say otherwise.

A header stating a unit of another dimension than the context's metric measures what its
unit measures ("Total duration (s)" under a caption on "higher output throughput" holds the
run's time, not a throughput). A statistic names the metric of the column to its left ("p99"
after "TTFT (ms)") only when it names nothing else: "Mean audio TTFP" beside "Req/s" is the
mean of a quantity of its own, named by its acronym."""

from __future__ import annotations

import re

from perfledger.schemas.folding import without_brackets
from perfledger.schemas.found import Found
from perfledger.schemas.header_reading import HeaderReading, read_header, reads_as_unknown
from perfledger.schemas.unit_choice import KINDS_FROM_AROUND
from perfledger.schemas.units import metric_of_unit

QUALITY_METRICS = ("accuracy", "loss")
# The units whose dimension says what a column measures: a rate, a time.
MEASURED_UNIT_KINDS = frozenset({"rate", "duration"})
# The metrics of a run's time or rate, whose share or change a percentage is.
_TIMED = ("throughput", "latency", "time_to_train", "time_to_result")
# An aside in brackets of a header ("(tokens/sec)", "(TFLOPS/s)"), its text the group.
BRACKETED_ASIDE = re.compile(r"[(\[]([^()\[\]]{1,80})[)\]]")
# A name written in capitals ("TTFP", "E2EL", "RTF"): an acronym, the name of a quantity.
_ACRONYM = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]{2,7}(?![\w-])")


def speed_metric(reading: HeaderReading, context_metric: Found | None) -> Found | None:
    """The context's metric for a column, except that a column headed as holding results
    ("Performance", "性能") is told from the model's quality: under "Performance & accuracy"
    it is no accuracy (its cells' units may name its metric; else it is quarantined). A
    header stating a rate or a time the context's metric is not measured in measures what
    its unit names; a time naming none by itself (seconds) is the time of the whole run. A
    percentage beside times or rates is a share or a change of them, another figure."""
    if (
        reading.kind == "result"
        and context_metric is not None
        and context_metric.value in QUALITY_METRICS
    ):
        return None
    unit = reading.unit
    if context_metric is None or unit is None:
        return context_metric
    if unit.kind == "percent" and context_metric.value in _TIMED:
        return Found("other", "column")  # "FP8 slope (% of BF16)" on a page of latencies
    if unit.kind not in MEASURED_UNIT_KINDS:
        return context_metric
    if unit.kind in KINDS_FROM_AROUND.get(context_metric.value, (unit.kind,)):
        return context_metric
    named = metric_of_unit(unit) or ("time_to_result" if unit.kind == "duration" else None)
    return Found(named, "column") if named is not None else context_metric


def names_its_own_quantity(reading: HeaderReading) -> bool:
    """Whether a statistic's header names, outside brackets, a quantity of its own by an
    acronym no vocabulary reads ("Mean audio TTFP"): it is no statistic of the column to its
    left. An acronym the vocabularies read ("GPU", "FP16") is no such name."""
    return any(
        reads_as_unknown(match.group(0))
        for match in _ACRONYM.finditer(without_brackets(reading.text or ""))
    )


def names_a_side(reading: HeaderReading) -> bool:
    """A header naming its metric by a rate or time unit alone, beside words of no role: one
    side of a comparison ("T-MAC (tokens/sec)", "FP16 (ms)"), whose unit the sides written
    after it share; or a metric measured on a chip it names ("Inference Time on V100 (ms)"),
    whose unit the columns headed by other chips after it share."""
    if reading.unit is None or reading.unit.kind not in MEASURED_UNIT_KINDS:
        return False
    if reading.platform is not None:
        return True
    words = BRACKETED_ASIDE.sub(" ", reading.text).strip()
    return bool(words) and read_header(words).kind is None


def takes_the_side(side: HeaderReading, reading: HeaderReading, unnamed: bool) -> bool:
    """Whether a result column written without a unit nor a metric measures what the side
    opened to its left does: where nothing else names its metric, or where both headers name
    a chip ("Inference Time on V100 (ms) | A100 | RTX4090 (TensorRT)")."""
    if reading.kind is not None or reading.unit is not None:
        return False
    return unnamed or (side.platform is not None and reading.platform is not None)
