"""Result columns whose headers name no metric, read by what surrounds them.

* Beside scores: a table of benchmark scores names each column after a task or a test set
  ("Average | Coursera | GSM | QuALITY | TOEFL"): some of those names are known scored
  datasets, the others are read as words of no role. When every result column whose metric
  the table states is a quality score, a column of plain numbers (no times, rates or sizes in
  its cells) under a bare name (no unit, no other role) or a statistic of them ("Average")
  scores too; one known column is not enough when the table also holds columns of other
  metrics, which then stay unread rather than guessed.
* Under a stated time: a table whose every result column is named by words of no role ("No
  Parallel | Weight Parallel | Activation Parallel", the variants compared), under a caption
  or paragraph stating the time or rate its figures are in ("time in milliseconds"), holds
  that metric in each column.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from perfledger.schemas.found import Found
from perfledger.schemas.scored_datasets import metric_of_scored_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from perfledger.schemas.column_plans import ColumnPlan, ColumnStats

_SCORE = "accuracy"


def with_sibling_scores(
    columns: list[ColumnPlan], stats: Sequence[ColumnStats]
) -> list[ColumnPlan]:
    results = [column for column in columns if column.role == "result"]
    stated = {column.metric.value for column in results if column.metric is not None}
    named = any(
        column.metric is not None and column.metric.source == "column" for column in results
    )
    if named and stated == {_SCORE}:
        statistics_only = False
    elif (
        not named
        and stated <= {_SCORE}
        and any(metric_of_scored_name(column.reading.text) for column in results)
    ):
        # "Average" beside "ARC | HellaSwag | MMLU", benchmarks scored by their accuracy:
        # their mean (a benchmark of a name no vocabulary knows beside them stays unread)
        statistics_only = True
    else:
        return columns
    return [
        replace(column, metric=Found(_SCORE, "column"))
        if _a_bare_name(column)
        and (not statistics_only or column.reading.kind == "statistic")
        and _plain_numbers(figures)
        else column
        for column, figures in zip(columns, stats, strict=True)
    ]


def _a_bare_name(column: ColumnPlan) -> bool:
    reading = column.reading
    return (
        column.role == "result"
        and column.metric is None
        and column.annotation is None
        and reading.unit is None
        and reading.platform is None
        and reading.precision is None
        and reading.kind in (None, "statistic")
        and reading.statistic in (None, "mean")  # "standard deviation": a spread, no score
        and not reading.alternatives
    )


def with_stated_metric(columns: list[ColumnPlan], context_metric: Found | None) -> list[ColumnPlan]:
    if context_metric is None or context_metric.value not in _TIMED:
        return columns
    results = [column for column in columns if column.role == "result"]
    if not results or not all(
        _a_bare_name(column) and column.reading.kind is None for column in results
    ):
        return columns
    return [
        replace(column, metric=context_metric) if column.role == "result" else column
        for column in columns
    ]


_TIMED = frozenset({"latency", "throughput"})


def _plain_numbers(figures: ColumnStats) -> bool:
    return figures.numeric > 0 and not (figures.measured or figures.sized or figures.named)
