"""Which metric and unit a value's row gives it: a unit or metric-name column beside the value
("Tokens/s", "F1 Score"), and a row label naming a figure derived from the others
("Speedup" under rows of latencies) or a statistic of the values beside it ("P99")."""

from __future__ import annotations

import re

import polars as pl

from perfledger.schemas.cell_reading import strip_footnotes
from perfledger.schemas.column_metrics import QUALITY_METRICS
from perfledger.schemas.folding import clean_text
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.row_labels import ROW_KEY, TABLE_KEY, UNIT_FIELDS, unit_fields
from perfledger.schemas.table_plans import header_reading
from perfledger.schemas.units import unit_named


def with_annotations(
    cells: pl.DataFrame, results: pl.DataFrame, mappings: LabelMappings
) -> pl.DataFrame:
    """Each value's metric and row unit where a unit or metric-name column beside it says
    them per row ("Tokens/s", "F1 Score"); a metric still unknown is the context's."""
    annotated = results.filter(pl.col("annotation").is_not_null())
    if annotated.height:
        texts = cells.select(
            *TABLE_KEY,
            "vrow",
            pl.col("vcol").alias("annotation"),
            pl.col("raw_value").alias("_annotation_text"),
        )
        results = results.join(
            texts, on=[*ROW_KEY, "annotation"], how="left", maintain_order="left"
        )
        distinct = results.get_column("_annotation_text").drop_nulls().unique().to_list()
        said = pl.DataFrame(
            [(text, *_annotation(text, mappings)) for text in distinct],
            schema={
                "_annotation_text": pl.String,
                "_named_metric": pl.String,
                **{f"a_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
            },
            orient="row",
        )
        results = results.join(said, on="_annotation_text", how="left", maintain_order="left")
        unit_column = pl.col("annotation_role").is_in(["unit", "metric_name"])
        has_unit = unit_column & pl.col("a_alias").is_not_null()
        # A row named by a setting of the run ("Output sequence length", "Input sequence
        # length" beside latencies, as GenAI-Perf prints them) holds figures of the load,
        # no result: neither its own metric nor the context's.
        setting_row = (pl.col("annotation_role") == "metric_name") & (
            pl.col("_named_metric") == _SETTING
        )
        names_metric = (
            (pl.col("annotation_role") == "metric_name")
            & pl.col("_named_metric").is_not_null()
            & ~setting_row
        )
        # A metric name no vocabulary knows ("spearman@cosine", "Mean Diff") is a quality
        # score of the family the table's context names ("Model Accuracy"), else another
        # figure.
        unknown_name = (
            (pl.col("annotation_role") == "metric_name")
            & pl.col("_named_metric").is_null()
            & pl.col("_annotation_text").is_not_null()
            & (pl.col("metric").is_null() | (pl.col("metric") == "eval_metric"))
        )
        quality_context = pl.col("x_metric").is_in(["accuracy", "loss"])
        results = _named_by_metric(results)
        results = results.with_columns(
            *(
                pl.when(has_unit)
                .then(pl.col(f"a_{name}"))
                .otherwise(pl.col(f"r_{name}"))
                .alias(f"r_{name}")
                for name in UNIT_FIELDS
            ),
            pl.when(setting_row)
            .then(pl.lit(None, dtype=pl.String))
            .when(names_metric)
            .then(pl.col("_named_metric"))
            .when(pl.col("metric").is_null() & has_unit)
            .then(_metric_of_unit_kind("a_kind"))
            .when(unknown_name)
            .then(pl.when(quality_context).then(pl.col("x_metric")).otherwise(pl.lit("other")))
            .otherwise(pl.col("metric"))
            .alias("metric"),
            pl.when(names_metric)
            .then(pl.lit("row"))
            .when(pl.col("metric").is_null() & has_unit)
            .then(pl.lit("column"))
            .when(unknown_name)
            .then(pl.when(quality_context).then(pl.col("x_metric_source")).otherwise(pl.lit("row")))
            .otherwise(pl.col("metric_source"))
            .alias("metric_source"),
            setting_row.fill_null(False).alias("_setting_row"),
        ).drop("_annotation_text", "_named_metric", *(f"a_{name}" for name in UNIT_FIELDS))
    else:
        results = results.with_columns(_setting_row=pl.lit(False))
    # A column headed as holding results ("Performance", "性能") takes no accuracy nor loss
    # from its context (schemas/table_plans.py, _speed_metric).
    told_from_quality = pl.col("h_results").fill_null(False) & pl.col("x_metric").is_in(
        QUALITY_METRICS
    )
    from_context = ~told_from_quality & ~pl.col("_setting_row")
    return results.with_columns(
        pl.coalesce("metric", pl.when(from_context).then("x_metric")).alias("metric"),
        pl.coalesce("metric_source", pl.when(from_context).then("x_metric_source")).alias(
            "metric_source"
        ),
    ).drop("_setting_row")


def _named_by_metric(results: pl.DataFrame) -> pl.DataFrame:
    """A row named only by the metric its first column gives ("Training Speed", "Qwen3-0.6B
    Switch Time") keeps that name as the label of each of its values, those of a column
    naming its own metric ("Improvement") too: it is what tells the row from its
    neighbours."""
    names = (
        results.filter(
            (pl.col("annotation_role") == "metric_name") & pl.col("_annotation_text").is_not_null()
        )
        .group_by(ROW_KEY)
        .agg(pl.col("_annotation_text").first().alias("_row_name"))
    )
    if names.height == 0:
        return results
    return (
        results.join(names, on=ROW_KEY, how="left", maintain_order="left")
        .with_columns(pl.coalesce("row_label", "_row_name").alias("row_label"))
        .drop("_row_name")
    )


_DERIVED_METRICS = ("speedup", "scaling_efficiency")


def with_row_metrics(results: pl.DataFrame, mappings: LabelMappings) -> pl.DataFrame:
    """A row whose label names a figure derived from the others ("Speedup" under rows of
    latencies) holds that figure, not its columns' metric, nor their unit. A row whose label
    is a statistic alone ("Mean", "P99"), in a table whose rows name two statistics or more,
    holds that statistic of its columns' metrics ("TTFT (ms)" above rows Mean, Median, P99)."""
    if "row_label" not in results.columns or results.height == 0:
        return results
    # Row labels are nearly one per row; the parts they join (" / ") are fewer, and each is
    # read once, as its words: the same name with or without a footnote mark is read once,
    # and a part without a letter (an id "2.0-2084", a number) names no figure.
    labels = results.get_column("row_label").drop_nulls().unique()
    parts = labels.str.split(" / ").explode().unique().to_list()
    words = {part: _words_of_part(part, mappings) for part in parts}
    read = {text: header_reading(text, mappings) for text in set(words.values()) if text}
    readings = {part: read[text] for part, text in words.items() if text}
    derived_parts = {
        part: reading.role
        for part, reading in readings.items()
        if reading.kind == "metric"
        and reading.role in _DERIVED_METRICS
        and _STATED_MULTIPLE.search(part) is None
    }
    statistic_parts = {
        part: reading.statistic
        for part, reading in readings.items()
        if reading.kind == "statistic" and reading.statistic is not None
    }
    sizes = [part for part, reading in readings.items() if reading.role == "model_size"]
    if sizes:
        # "# Activated Params | 21B | 72B" among rows of scores: what each model is, a row of
        # its configuration, no score
        results = results.filter(
            ~(pl.col("row_label").is_in(sizes) & (pl.col("metric") == "accuracy")).fill_null(False)
        )
    if derived_parts:
        results = _with_derived_metrics(results, _row_labels_naming(labels, derived_parts))
    if statistic_parts:
        results = _with_row_statistics(results, _row_labels_naming(labels, statistic_parts))
    return results


# A remark stating a multiple ("16x speedup" in a Notes column beside RTFx and CER): the figure
# the row's values make, said in passing; it names no metric of the row's values.
_STATED_MULTIPLE = re.compile(r"\d\s*[x\u00d7](?![a-z])", re.IGNORECASE)


def _words_of_part(part: str, mappings: LabelMappings) -> str | None:
    """What of a row label's part to read for the figure it names: the part as the user
    mapped it, else without its footnote marks; None where no letter is left."""
    if mappings.get("column", part):
        return part
    words = strip_footnotes(part)
    return words if any(map(str.isalpha, words)) else None


def _row_labels_naming(labels: pl.Series, named: dict[str, str]) -> pl.DataFrame:
    """(row label, what its first part in `named` names) of each label that has one."""
    found = [
        (label, name)
        for label in labels.to_list()
        for name in [next((named[part] for part in label.split(" / ") if part in named), None)]
        if name is not None
    ]
    return pl.DataFrame(found, schema={"row_label": pl.String, "_named": pl.String}, orient="row")


def _with_derived_metrics(results: pl.DataFrame, said: pl.DataFrame) -> pl.DataFrame:
    if said.height == 0:
        return results
    results = results.join(said, on="row_label", how="left", maintain_order="left")
    named = pl.col("_named").is_not_null()
    column_unit_fits = pl.col("h_kind").is_in(["ratio", "percent"]).fill_null(True)
    return results.with_columns(
        pl.when(named).then(pl.col("_named")).otherwise(pl.col("metric")).alias("metric"),
        pl.when(named)
        .then(pl.lit("row"))
        .otherwise(pl.col("metric_source"))
        .alias("metric_source"),
        *(
            pl.when(named & ~column_unit_fits)
            .then(pl.lit(None, dtype=dtype))
            .otherwise(pl.col(f"h_{name}"))
            .alias(f"h_{name}")
            for name, dtype in UNIT_FIELDS.items()
        ),
    ).drop("_named")


def _with_row_statistics(results: pl.DataFrame, said: pl.DataFrame) -> pl.DataFrame:
    """The statistic each row's label names, where its column names none. Only in a table
    whose rows name two statistics or more: a lone "Average" row under rows of models is a
    figure across them, not a statistic of each row's runs."""
    if said.height == 0:
        return results
    results = results.join(said, on="row_label", how="left", maintain_order="left")
    enumerated = pl.col("_named").drop_nulls().n_unique().over(TABLE_KEY) >= 2
    return results.with_columns(
        pl.coalesce("statistic", pl.when(enumerated).then(pl.col("_named"))).alias("statistic")
    ).drop("_named")


def _annotation(text: str, mappings: LabelMappings) -> tuple:
    """(the metric a metric-name cell names, the unit a unit cell is or a metric-name cell
    states: "Time to first token (ms)")."""
    cleaned = clean_text(text)
    unit = unit_named(cleaned) if cleaned else None
    named = header_reading(cleaned, mappings) if cleaned else None
    metric = None
    if named is not None and named.kind == "metric":
        metric = named.role if named.role not in ("eval_metric", "ranking") else "other"
        unit = unit or named.unit
    elif named is not None and named.kind == "config" and unit is None:
        metric = _SETTING
    return (metric, *unit_fields(unit))


_SETTING = "\x00setting"  # what `_annotation` says of a metric-name cell naming a setting


def _metric_of_unit_kind(column: str) -> pl.Expr:
    kind = pl.col(column)
    return (
        pl.when(kind == "rate")
        .then(pl.lit("throughput"))
        .when(kind == "duration")
        .then(pl.lit("latency"))
        .when(kind == "ratio")
        .then(pl.lit("speedup"))
        .otherwise(pl.lit("other"))
    )
