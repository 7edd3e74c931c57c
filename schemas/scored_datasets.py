"""The metric of a value that nothing around it names, given by the benchmark it was scored on.

A dataset that is a quality evaluation, never a workload run for speed ("MMLU", "GSM8K",
"HumanEval": schemas/vocab/scored_datasets.csv), names what its numbers are: a value whose
column, row and context name no metric, but whose row or section row names such a dataset,
or whose column is headed by its name alone ("| Model | MMLU | GSM8K |"), is its score. A
dataset also run for speed (ImageNet, ShareGPT) says nothing of the kind.
"""

from __future__ import annotations

import re
from functools import cache

import polars as pl

from perfledger.schemas.identities import canonical_dataset, dataset_named
from perfledger.schemas.vocabulary import read_vocab


@cache
def _scored() -> dict[str, str]:
    return {
        row["dataset"]: row["metric"]
        for row in read_vocab("scored_datasets.csv").iter_rows(named=True)
    }


def _metric_of_dataset(text: str) -> str | None:
    return _scored().get(canonical_dataset(text) or "")


def names_scored_dataset(header: str) -> bool:
    """Whether a header names a scored dataset and nothing else ("MMLU", "MT-bench")."""
    return metric_of_scored_name(header) is not None


def metric_of_scored_name(text: str) -> str | None:
    """The metric of the scored dataset a header, heading or caption names and nothing else
    ("MMLU", "GSM8K"; "### MMLU" over the columns of its subjects: "Average | STEM |
    Humanities"): "Arc A770" names a chip, not the ARC benchmark. The number of examples
    the model was shown is a setting of the evaluation, not part of its name ("MMLU
    (5-shot)", "C-Eval / 5-shot", "0-shot HumanEval"), nor is the split it was scored on
    ("MMMU val", "DocVQA test", "MathVista mini", "MMB dev(en)")."""
    found = _scored().get(dataset_named(text) or "")
    if found is None and _SHOTS.search(text):
        text = _SHOTS.sub(" ", text)
        found = _scored().get(dataset_named(text) or "")
    if found is None and _SPLIT.search(text):
        found = _scored().get(dataset_named(_SPLIT.sub("", text)) or "")
    return found


# "5-shot", "(0-shot)", "/ 3 shots", "zero-shot", "few-shot": how many examples an evaluation
# showed, before or after the dataset's name
_SHOTS = re.compile(r"(?i)(?:^|[\s/,(\[]+)(?:\d{1,3}|zero|one|few)[- ]?shots?(?:[)\]]|[\s/,]+|$)")


# "val", "test", "test-dev", "mini", "dev(en)": the split of a dataset a score was taken on,
# after its name
_SPLIT = re.compile(
    r"(?i)[\s_/]+(?:val(?:idation)?|test(?:[- ]?(?:dev|std|mini))?|dev|mini|testmini)"
    r"(?:\s*\((?:en|zh|cn)\))?\s*$"
)


# where a metric named in passing comes from: the page's prose, not the table's own labels
_PROSE = ("paragraph", "note", "repeated")


def with_scored_metric(results: pl.DataFrame) -> pl.DataFrame:
    """`results` with the metric of each value that has none taken from the scored dataset its
    row or its column's header names; `metric_source` says which. A column headed by a scored
    dataset's name alone also says more than a metric the prose around the table names in
    passing ("improves the inference speed, first-token latency, memory usage" above MiniCPM-V's
    table of OCRBench and MMMU scores)."""
    unknown = pl.col("metric").is_null()
    in_prose = pl.col("metric_source").is_in(_PROSE).fill_null(False)
    if not results.select((unknown | in_prose).any()).item():
        return results
    lacking = results.filter(unknown | in_prose)
    sections = "s_dataset" in results.columns
    named = ["dataset", "s_dataset"] if sections else ["dataset"]
    datasets = lacking.select(pl.concat([pl.col(name) for name in named]).drop_nulls().unique())
    datasets = datasets.to_series().to_list()
    headers = lacking.get_column("column_name").drop_nulls().unique().to_list()
    by_dataset = {text: _metric_of_dataset(text) for text in datasets}
    by_header = {text: metric_of_scored_name(text) for text in headers}
    # the row's dataset, else its section row's ("MMLU (shuffle 1k)" over rows "1", "2"...)
    of_row = pl.coalesce(
        pl.col(name).replace_strict(by_dataset, default=None, return_dtype=pl.String)
        for name in named
    )
    of_column = pl.col("column_name").replace_strict(
        by_header, default=None, return_dtype=pl.String
    )
    column_says = in_prose & of_column.is_not_null()
    return results.with_columns(
        pl.when(unknown)
        .then(pl.coalesce(of_row, of_column))
        .when(column_says)
        .then(of_column)
        .otherwise("metric")
        .alias("metric"),
        pl.when(unknown & of_row.is_not_null())
        .then(pl.lit("dataset"))
        .when((unknown | column_says) & of_column.is_not_null())
        .then(pl.lit("column"))
        .otherwise("metric_source")
        .alias("metric_source"),
    )
