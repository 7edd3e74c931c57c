"""The quality target a training run must reach to count, kept as data per round, benchmark
and division in sources/mlperf/rules/training_targets.csv.

The result summarizer drops a run whose file fails the compliance check, and the checker's
configuration for the run's division and benchmark (mlcommons/logging compliance_checker/
training_<round>/<division>_<benchmark>.yaml) asks that at least one `eval_accuracy` lie
in a range (`ATLEAST_ONE_CHECK`): `v['value'] >= 0.759 and v['value'] < 1.0` is the row
`[0.759, 1.0)`. Mask R-CNN logs two values in one evaluation, BBOX and SEGM, each with its
range; Stable Diffusion logs FID and CLIP on lines of their own, one evaluation per
`samples_count`, which the checker joins (`aggregated_eval_accuracy`). The division and
benchmark are the log's own (`submission_division`, `submission_benchmark`), as the
checker picks its configuration by them.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from perfledger.sources.mlperf.mllog import EvalPoint

TARGETS = Path(__file__).resolve().parent / "rules" / "training_targets.csv"
COLUMNS = ["round", "benchmark", "division", "component", "interval", "global_batch_size", "source"]
_INTERVAL = re.compile(r"^([\[(])\s*(-inf|[0-9.]+)\s*,\s*(inf|[0-9.]+)\s*([\])])$")
_BATCH = re.compile(r"^(<|>=)(\d+)$")


@dataclass(frozen=True)
class Interval:
    low: float
    low_inclusive: bool
    high: float
    high_inclusive: bool
    text: str

    def contains(self, value: float | None) -> bool:
        if value is None or math.isnan(value):
            return False
        above = value >= self.low if self.low_inclusive else value > self.low
        below = value <= self.high if self.high_inclusive else value < self.high
        return above and below


@dataclass(frozen=True)
class QualityTarget:
    """Every component's range (the component '' for a single value) and where it is read."""

    ranges: tuple[tuple[str, Interval], ...]
    source: str

    @property
    def text(self) -> str:
        return " and ".join(
            f"eval_accuracy{'[' + name + ']' if name else ''} in {interval.text}"
            for name, interval in self.ranges
        )

    def reached(self, evals: list[EvalPoint]) -> bool:
        """Whether some evaluation has every component in its range."""
        return any(
            all(interval.contains(evaluation.get(name)) for name, interval in self.ranges)
            for evaluation in evaluations(evals)
        )


def evaluations(evals: list[EvalPoint]) -> list[dict[str, float]]:
    """Each evaluation as {component: value}: a single value under '', a dict's values under
    their names, and values named by a `metric` joined by their `samples_count`."""
    found: list[dict[str, float]] = []
    joined: dict[object, dict[str, float]] = {}
    for point in evals:
        if point.components:
            found.append(dict(point.components))
        elif point.metric is not None:
            joined.setdefault(point.samples_count, {})[point.metric] = point.value
        else:
            found.append({"": point.value})
    return found + list(joined.values())


def quality_target(
    mlperf_round: str | None, benchmark: str, division: str | None, global_batch_size: int | None
) -> QualityTarget | None:
    """The target of a run, or None where the rules hold none (a round or benchmark not in
    them, a division without a configuration)."""
    if mlperf_round is None or division is None:
        return None
    rows = [
        row
        for row in _rows().get((mlperf_round, benchmark, division.lower()), [])
        if _batch_applies(row["global_batch_size"], global_batch_size)
    ]
    if not rows:
        return None
    return QualityTarget(
        tuple((row["component"], _interval(row["interval"])) for row in rows), rows[0]["source"]
    )


def _batch_applies(condition: str, global_batch_size: int | None) -> bool:
    if not condition:
        return True
    written = _BATCH.match(condition)
    assert written is not None, condition  # training_targets.csv writes "<N" or ">=N"
    operator, size = written.groups()
    if global_batch_size is None:
        return False  # the range depends on a batch size the log does not state
    return global_batch_size < int(size) if operator == "<" else global_batch_size >= int(size)


def _interval(text: str) -> Interval:
    written = _INTERVAL.match(text)
    assert written is not None, text  # training_targets.csv writes intervals as "[0.712, 1.0)"
    opening, low, high, closing = written.groups()
    return Interval(float(low), opening == "[", float(high), closing == "]", text)


@cache
def _rows() -> dict[tuple[str, str, str], list[dict[str, str]]]:
    """The rules by (round, benchmark, division); a malformed row is a mistake in the
    project: raise."""
    with TARGETS.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames != COLUMNS:
            raise ValueError(f"{TARGETS.name}: columns {reader.fieldnames}, expected {COLUMNS}")
        rows: dict[tuple[str, str, str], list[dict[str, str]]] = {}
        for row in reader:
            if (
                not _INTERVAL.match(row["interval"])
                or row["global_batch_size"]
                and not _BATCH.match(row["global_batch_size"])
            ):
                raise ValueError(f"{TARGETS.name}: malformed row {row}")
            rows.setdefault((row["round"], row["benchmark"], row["division"]), []).append(row)
    return rows
