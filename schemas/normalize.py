"""Parsed cells -> canonical measurements, with every value that does not fit set apart.

One measurement per published metric cell. Dimension cells of the same row (model, platform,
precision, ...) become its context; units come from the cell, the table's footnote or the
header, in that order of precedence. Rows that cannot be read with certainty get a `check`
and a `reason` and leave through the quarantine frame instead of the measurement frame.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass

import polars as pl

from schemas.labels import (
    canonical_framework,
    canonical_model,
    fold_key,
    resolve_platforms,
    split_precision,
    split_sdk,
    workload_and_phase,
)
from schemas.numbers import (
    fold_text,
    is_approximate,
    leading_number_and_rest,
    parse_duration_seconds,
    parse_number,
    unit_factors,
)
from schemas.vocabulary import (
    DIMENSION_ROLES,
    METRIC_ROLES,
    classify_header,
    header_unit,
    read_vocab,
)

NOTE_MATCH_RATIO = 0.8  # how alike a footnote's subject and a row's label must be
_NOTE_UNIT = re.compile(
    r"(?P<subject>[^|;]{1,80}?)\s+(?:throughput\s+)?(?:is\s+)?measured\s+in\s+(?P<unit>[\w/.-]{1,30})",
    re.I,
)
_PLACEHOLDER = r"^(?:-|\u2013|\u2014|n/?a|na|tbd|tba|none|null|\?|pending|coming soon)$"
_SHIFTED_PRECISION = r"^(?:8|16|32)\.(?:8|16|32)$"
# Rows of several documents are normalized together; this column says whose each row is.
DOCUMENT = "_document"
ROW_KEY = [DOCUMENT, "table_index", "row_number"]
IDENTITY_ROLES = ("model", "variant", "platform", "framework", "dataset", "batch_size",
                  "precision", "division")


@dataclass(frozen=True)
class DocumentContext:
    source_id: str
    source_url: str
    document_sha256: str
    document_title: str | None
    captured_at: str
    parser_version: str


@dataclass
class NormalizedDocument:
    measurements: pl.DataFrame
    quarantine: pl.DataFrame


QUARANTINE_SCHEMA: dict[str, pl.DataType] = {
    "document_sha256": pl.String,
    "source_id": pl.String,
    "stage": pl.String,
    "check": pl.String,
    "reason": pl.String,
    "table_index": pl.Int32,
    "table_title": pl.String,
    "row_number": pl.Int32,
    "column_name": pl.String,
    "raw_value": pl.String,
    "raw_row": pl.String,
    "line_number": pl.Int32,
}


def empty_quarantine() -> pl.DataFrame:
    return pl.DataFrame(schema=QUARANTINE_SCHEMA)


def quarantine_frame(
    frame: pl.DataFrame,
    *,
    document_sha256: str,
    source_id: str,
    stage: str,
    check: pl.Expr,
    reason: pl.Expr,
    raw_value: pl.Expr,
    line_number: pl.Expr,
) -> pl.DataFrame:
    """Rows set aside outside a table (claims, whole files): the table columns stay null."""
    columns = {name: pl.lit(None, dtype=dtype) for name, dtype in QUARANTINE_SCHEMA.items()}
    columns |= {
        "document_sha256": pl.lit(document_sha256),
        "source_id": pl.lit(source_id),
        "stage": pl.lit(stage),
        "check": check,
        "reason": reason,
        "raw_value": raw_value,
        "line_number": line_number,
    }
    return frame.select(**columns).cast(QUARANTINE_SCHEMA)


def _column_roles(cells: pl.DataFrame) -> pl.DataFrame:
    headers = cells.filter(pl.col("row_number") == 0).select(
        DOCUMENT, "table_index", "column_index", "column_name"
    )
    roles = []
    known: dict[str, tuple[str | None, str | None]] = {}
    for document, table_index, column_index, name in headers.iter_rows():
        if name not in known:
            role = classify_header(name)
            known[name] = (role.role if role else None, header_unit(name))
        roles.append((document, table_index, column_index, *known[name]))
    return pl.DataFrame(
        roles,
        schema={DOCUMENT: pl.Int32, "table_index": pl.Int32, "column_index": pl.Int32,
                "role": pl.String, "header_unit": pl.String},
        orient="row",
    )


def _blank(expr: pl.Expr) -> pl.Expr:
    return expr.str.replace_all(r"[\s\u00a0\u200b\ufeff]", "").fill_null("") == ""


def _row_dimensions(data: pl.DataFrame) -> pl.DataFrame:
    dims = data.filter(pl.col("role").is_in(DIMENSION_ROLES)).with_columns(
        pl.when(_blank(pl.col("raw_value"))).then(None).otherwise(
            pl.col("raw_value").str.strip_chars(" \u00a0\t")
        ).alias("value")
    )
    wide = dims.pivot(
        on="role", index=ROW_KEY, values="value", aggregate_function="first",
    ) if dims.height else pl.DataFrame(
        schema={DOCUMENT: pl.Int32, "table_index": pl.Int32, "row_number": pl.Int32}
    )
    missing = [role for role in DIMENSION_ROLES if role not in wide.columns]
    return wide.with_columns(pl.lit(None, dtype=pl.String).alias(role) for role in missing)


def _cell_units(dimensions: pl.DataFrame) -> pl.DataFrame:
    """A dimension cell that is only a unit ('frames/s' under Variant) is the row's unit."""
    aliases = unit_factors().filter(pl.col("kind") == "rate")["alias"].to_list()
    unit_expr = pl.lit(None, dtype=pl.String)
    cleared = {}
    for role in ("variant", "dataset", "model"):
        folded = fold_text(pl.col(role))
        is_unit = folded.is_in(aliases).fill_null(False)
        unit_expr = pl.when(is_unit).then(folded).otherwise(unit_expr)
        cleared[role] = pl.when(is_unit).then(None).otherwise(pl.col(role))
    return dimensions.with_columns(unit_expr.alias("cell_unit")).with_columns(**cleared)


def _note_units(data: pl.DataFrame, dimensions: pl.DataFrame) -> pl.DataFrame:
    """Units a table's footnote gives per subject ('PQM4Mv2 throughput measured in graphs/s')."""
    notes = data.filter(pl.col("table_note").is_not_null()).select(
        DOCUMENT, "table_index", "table_note"
    ).unique()
    assignments = []
    for document, table_index, note in notes.iter_rows():
        rows = None  # most footnotes name no unit: the table's rows are looked up on a match
        for segment in note.split("|"):
            # Single spaces: runs of blanks made this search cubic and could leave a blank subject.
            match = _NOTE_UNIT.search(" ".join(segment.split()))
            if match is None:
                continue
            subject = fold_key(pl.lit(match.group("subject").split()[-1]))
            subject_key = pl.select(subject).item()
            if rows is None:
                rows = dimensions.filter(
                    (pl.col(DOCUMENT) == document) & (pl.col("table_index") == table_index)
                )
            best = _best_row_for(subject_key, rows)
            if best is not None:
                assignments.append((document, table_index, best, match.group("unit").lower()))
    return pl.DataFrame(
        assignments,
        schema={DOCUMENT: pl.Int32, "table_index": pl.Int32, "row_number": pl.Int32,
                "note_unit": pl.String},
        orient="row",
    )


def _best_row_for(subject_key: str, rows: pl.DataFrame) -> int | None:
    scores: list[tuple[float, int]] = []
    for row in rows.iter_rows(named=True):
        labels = [row[role] for role in ("dataset", "model", "variant") if row[role]]
        keys = pl.select(fold_key(pl.Series(labels, dtype=pl.String))).to_series().to_list()
        score = max(
            (difflib.SequenceMatcher(None, subject_key, key).ratio() for key in keys),
            default=0.0,
        )
        scores.append((score, row["row_number"]))
    scores.sort(reverse=True)
    if not scores or scores[0][0] < NOTE_MATCH_RATIO:
        return None
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        return None  # two rows fit equally well: no unit rather than a guess
    return scores[0][1]


def _published_unit() -> pl.Expr:
    """Cell unit, then footnote unit, then header unit; a unit of the wrong kind is skipped."""
    units = unit_factors()

    def fits(unit: pl.Expr) -> pl.Expr:
        kind = unit.replace_strict(units["alias"], units["kind"], default=None)
        expected = pl.when(pl.col("metric") == "throughput").then(pl.lit("rate")).otherwise(
            pl.lit("duration")
        )
        return pl.when(kind == expected).then(unit)

    return pl.coalesce(
        fits(pl.col("cell_unit")),
        fits(pl.col("note_unit")),
        pl.col("header_unit").str.to_lowercase(),
    )


def _with_canonical_values(frame: pl.DataFrame) -> pl.DataFrame:
    units = unit_factors()
    unit = pl.col("unit_published")
    unit_kind = unit.replace_strict(units["alias"], units["kind"], default=None)
    unit_factor = unit.replace_strict(units["alias"], units["factor"], default=None)
    unit_item = unit.replace_strict(units["alias"], units["item_kind"], default=None)
    number = parse_number(pl.col("raw_value"))
    seconds = parse_duration_seconds(pl.col("raw_value"), unit_factor)
    score, score_unit = leading_number_and_rest(pl.col("raw_value"))
    ordinals = read_vocab("ordinals.csv")
    place = fold_text(pl.col("raw_value")).replace_strict(
        ordinals["word"], ordinals["place"], default=None
    ).cast(pl.Float64)
    metric = pl.col("metric")
    value = (
        pl.when(metric == "throughput").then(number * unit_factor.fill_null(1.0))
        .when(metric == "latency").then(seconds * 1000.0)
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(seconds)
        .when(metric == "eval_metric").then(score)
        .when(metric == "ranking").then(pl.coalesce(place, number))
    )
    canonical_unit = (
        pl.when(metric == "throughput").then(pl.lit("items/s"))
        .when(metric == "latency").then(pl.lit("ms"))
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(pl.lit("s"))
        .when(metric == "eval_metric").then(score_unit)
        .when(metric == "ranking").then(pl.lit("place"))
    )
    return frame.with_columns(
        value=value,
        unit=canonical_unit,
        published_number=number,
        approximate=is_approximate(pl.col("raw_value")),
        unit_kind=unit_kind,
        item_kind=pl.when(metric == "throughput").then(
            pl.coalesce(unit_item, pl.col("model_item_kind"), pl.lit("items"))
        ),
    )


def _with_checks(frame: pl.DataFrame) -> pl.DataFrame:
    """check/reason for the first problem of each row, null when the row is sound."""
    metric = pl.col("metric")
    raw = pl.col("raw_value")
    folded = fold_text(raw)
    expected_kind = (
        pl.when(metric == "throughput").then(pl.lit("rate"))
        .when(metric.is_in(["latency", "time_to_train", "time_to_result"])).then(pl.lit("duration"))
    )
    rules: list[tuple[pl.Expr, str, pl.Expr]] = [
        (
            folded.str.contains(_PLACEHOLDER),
            "placeholder_value",
            pl.format("no value published for {}: '{}'", metric, raw),
        ),
        (
            (metric != "ranking") & (metric != "eval_metric")
            & folded.str.contains(_SHIFTED_PRECISION),
            "shifted_cells",
            pl.format("{} '{}' reads like a precision label: the row's cells look shifted",
                      metric, raw),
        ),
        (
            pl.col("unit_published").is_not_null() & expected_kind.is_not_null()
            & pl.col("unit_kind").is_null(),
            "unknown_unit",
            pl.format("unit '{}' is not in schemas/vocab/units.csv", pl.col("unit_published")),
        ),
        (
            expected_kind.is_not_null() & pl.col("unit_kind").is_not_null()
            & (pl.col("unit_kind") != expected_kind),
            "unit_metric_mismatch",
            pl.format("unit '{}' is a {}, but {} needs a {}", pl.col("unit_published"),
                      pl.col("unit_kind"), metric, expected_kind),
        ),
        (
            pl.col("value").is_null(),
            "unparseable_value",
            pl.format("cannot read '{}' as a {} value", raw, metric),
        ),
        (
            pl.col("value").is_nan() | pl.col("value").is_infinite(),
            "non_finite_value",
            pl.format("{} '{}' is not a finite number", metric, raw),
        ),
        (
            (metric != "eval_metric") & (pl.col("value") <= 0),
            "non_positive_value",
            pl.format("{} must be positive, got '{}'", metric, raw),
        ),
        (
            pl.col("platform").is_null(),
            "missing_platform",
            pl.lit("the row names no platform, so its value cannot be compared"),
        ),
        (
            pl.col("system").is_null(),
            "unknown_platform",
            pl.format("platform '{}' is not in schemas/vocab/platforms.csv", pl.col("platform")),
        ),
        (
            pl.col("precision").is_not_null() & pl.col("activation_dtype").is_null(),
            "unknown_precision",
            pl.format("precision '{}' is not an X.Y label nor a known word",
                      pl.col("precision")),
        ),
    ]
    check: pl.Expr = pl.lit(None, dtype=pl.String)
    reason: pl.Expr = pl.lit(None, dtype=pl.String)
    for condition, name, message in reversed(rules):
        hit = condition.fill_null(False)
        check = pl.when(hit).then(pl.lit(name)).otherwise(check)
        reason = pl.when(hit).then(message).otherwise(reason)
    return frame.with_columns(check=check, reason=reason)


IDENTITY_PARTS = (
    ("workload", "workload"),
    ("model", "model_canonical"),
    ("variant", "variant"),
    ("platform", "system"),
    ("framework", "framework_canonical"),
    ("dataset", "dataset"),
    ("batch", "batch_size"),
    ("precision", "precision"),
    ("division", "division"),
)


def identity_parts() -> list[pl.Expr]:
    """The identifying cells of a measurement, folded: 'model=resnet50v15', 'platform=...'."""
    return [
        pl.format("{}={}", pl.lit(role), fold_key(pl.col(column)).fill_null(""))
        for role, column in IDENTITY_PARTS
    ]


def _identity(frame: pl.DataFrame) -> pl.DataFrame:
    """A readable natural key: the row's identifying cells, canonical, plus workload and metric."""
    identity = pl.concat_str(
        [*identity_parts(), pl.format("metric={}", pl.col("metric"))], separator="|"
    )
    frame = frame.with_columns(row_identity=identity)
    # Two rows with the same identity on one page are told apart by their order.
    ordinal = pl.col("row_number").rank("ordinal").over(DOCUMENT, "row_identity").cast(pl.Int32)
    return frame.with_columns(
        row_identity=pl.when(ordinal > 1)
        .then(pl.format("{}|occurrence={}", pl.col("row_identity"), ordinal))
        .otherwise(pl.col("row_identity"))
    )


def _raw_rows(data: pl.DataFrame) -> pl.DataFrame:
    grouped = data.group_by(ROW_KEY).agg(
        pl.col("column_name"), pl.col("raw_value")
    )
    return grouped.with_columns(
        raw_row=pl.struct("column_name", "raw_value").map_elements(
            lambda row: json.dumps(dict(zip(row["column_name"], row["raw_value"], strict=True)),
                                   ensure_ascii=False),
            return_dtype=pl.String,
        )
    ).select(*ROW_KEY, "raw_row")


def normalize_cells(cells: pl.DataFrame, context: DocumentContext) -> NormalizedDocument:
    """Turn one document's parsed cells into canonical measurements and quarantined values."""
    return normalize_documents([(cells, context)])[0]


def normalize_documents(
    documents: list[tuple[pl.DataFrame, DocumentContext]],
) -> list[NormalizedDocument]:
    """`normalize_cells` for several documents at once, in the order given.

    Each polars query and vocabulary lookup has a fixed cost of its own, larger than the work
    on one page's few hundred cells; running them once over many documents shares it out.
    Every row keeps the index of its document, and every key, join and ranking includes it,
    so the result for each document is the one it would get alone."""
    frames = [
        cells.with_columns(
            pl.lit(index, dtype=pl.Int32).alias(DOCUMENT),
            *(pl.lit(value, dtype=pl.String).alias(name)
              for name, value in _context_columns(context).items()),
        )
        for index, (cells, context) in enumerate(documents)
        if cells.height
    ]
    if not frames:
        return [NormalizedDocument(_empty_measurements(), empty_quarantine()) for _ in documents]
    good, quarantine = _normalize_frame(pl.concat(frames))
    measurements = good.partition_by(DOCUMENT, as_dict=True, include_key=False)
    quarantined = quarantine.partition_by(DOCUMENT, as_dict=True, include_key=False)
    return [
        NormalizedDocument(
            measurements.get((index,), good.drop(DOCUMENT).clear())
            if cells.height else _empty_measurements(),
            quarantined.get((index,), empty_quarantine()),
        )
        for index, (cells, _context) in enumerate(documents)
    ]


def _context_columns(context: DocumentContext) -> dict[str, str | None]:
    return {
        "source_id": context.source_id,
        "source_url": context.source_url,
        "document_sha256": context.document_sha256,
        "document_title": context.document_title,
        "captured_at": context.captured_at,
        "parser_version": context.parser_version,
    }


def _normalize_frame(cells: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(measurements, quarantine) of cells from one or more documents, each row keeping the
    index of its document."""
    roles = _column_roles(cells)
    data = cells.filter(pl.col("row_number") > 0).join(
        roles, on=[DOCUMENT, "table_index", "column_index"], how="left"
    )
    dimensions = _cell_units(_row_dimensions(data))
    note_units = _note_units(data, dimensions)
    metrics = (
        data.filter(pl.col("role").is_in(METRIC_ROLES))
        .filter(~_blank(pl.col("raw_value")))
        .rename({"role": "metric"})
        .join(dimensions, on=ROW_KEY, how="left")
        .join(note_units, on=ROW_KEY, how="left")
    )
    table_metrics = data.group_by(DOCUMENT, "table_index").agg(
        pl.col("role").is_in(["time_to_train"]).any().alias("has_train_metric"),
        pl.col("role").is_in(["latency"]).any().alias("has_latency_metric"),
    )
    metrics = metrics.join(table_metrics, on=[DOCUMENT, "table_index"], how="left")
    platforms = resolve_platforms(metrics["platform"])
    metrics = metrics.join(platforms, on="platform", how="left")

    model_name, model_kind = canonical_model(pl.col("model"))
    sdk_version, sdk_pre = split_sdk(pl.col("sdk_version"))
    activation, weight = split_precision(pl.col("precision"))
    title_workload, _ = workload_and_phase(pl.col("table_title"))
    variant_workload, variant_phase = workload_and_phase(pl.col("variant"))
    metric_workload = (
        pl.when(pl.col("metric") == "latency").then(pl.lit("inference"))
        .when(pl.col("has_train_metric") | (pl.col("metric") == "time_to_train"))
        .then(pl.lit("training"))
        .when(pl.col("has_latency_metric")).then(pl.lit("inference"))
    )
    metrics = metrics.with_columns(
        model_canonical=model_name,
        model_item_kind=model_kind,
        framework_canonical=pl.coalesce(
            canonical_framework(pl.col("framework")),
            pl.col("framework").str.normalize("NFKC").str.strip_chars(),
        ),
        sdk=sdk_version,
        sdk_prerelease=sdk_pre,
        activation_dtype=activation,
        weight_dtype=weight,
        workload=pl.coalesce(title_workload, metric_workload, variant_workload),
        phase=variant_phase,
        batch_size_number=parse_number(pl.col("batch_size")),
        unit_published=_published_unit(),
    )
    metrics = _with_checks(_with_canonical_values(metrics))
    metrics = metrics.with_columns(
        value_per_accelerator=pl.when(
            (pl.col("metric") == "throughput") & (pl.col("accelerator_count") > 0)
        ).then(pl.col("value") / pl.col("accelerator_count")),
    )
    metrics = _identity(metrics)
    good = metrics.filter(pl.col("check").is_null())
    bad = metrics.filter(pl.col("check").is_not_null())
    quarantine = _quarantine_rows(bad, data)
    unknown = _unknown_columns(cells, roles)
    return good.select(DOCUMENT, *MEASUREMENT_COLUMNS), pl.concat([quarantine, unknown])


def _quarantine_rows(bad: pl.DataFrame, data: pl.DataFrame) -> pl.DataFrame:
    if bad.height == 0:
        return _empty_document_quarantine()
    raw_rows = _raw_rows(data)
    return (
        bad.join(raw_rows, on=ROW_KEY, how="left")
        .with_columns(stage=pl.lit("normalize"))
        .select(DOCUMENT, *QUARANTINE_SCHEMA)
        .cast(QUARANTINE_SCHEMA)
    )


def _empty_document_quarantine() -> pl.DataFrame:
    return pl.DataFrame(schema={DOCUMENT: pl.Int32, **QUARANTINE_SCHEMA})


def _unknown_columns(cells: pl.DataFrame, roles: pl.DataFrame) -> pl.DataFrame:
    """A column whose header the vocabulary does not know: its cells are kept, flagged once."""
    unknown = roles.filter(pl.col("role").is_null())
    if unknown.height == 0:
        return _empty_document_quarantine()
    headers = cells.filter(pl.col("row_number") == 0).join(
        unknown, on=[DOCUMENT, "table_index", "column_index"], how="inner"
    )
    return headers.with_columns(
        stage=pl.lit("normalize"),
        check=pl.lit("unknown_column"),
        reason=pl.format(
            "column '{}' is not in schemas/vocab/columns.csv; its cells are kept in the cells "
            "table but give no measurement",
            pl.col("column_name"),
        ),
        raw_row=pl.lit(None, dtype=pl.String),
    ).select(DOCUMENT, *QUARANTINE_SCHEMA).cast(QUARANTINE_SCHEMA)


MEASUREMENT_COLUMNS = [
    "source_id",
    "source_url",
    "document_sha256",
    "document_title",
    "captured_at",
    "parser_version",
    "table_index",
    "table_title",
    "row_number",
    "column_index",
    "column_name",
    "line_number",
    "row_identity",
    "model",
    "model_canonical",
    "variant",
    "platform",
    "vendor",
    "system",
    "accelerator",
    "accelerator_count",
    "sdk_version",
    "sdk",
    "sdk_prerelease",
    "framework",
    "framework_canonical",
    "dataset",
    "batch_size",
    "batch_size_number",
    "precision",
    "activation_dtype",
    "weight_dtype",
    "division",
    "quality_target",
    "mlperf_id",
    "workload",
    "phase",
    "metric",
    "value",
    "unit",
    "item_kind",
    "value_per_accelerator",
    "published_number",
    "unit_published",
    "approximate",
    "raw_value",
]


def _empty_measurements() -> pl.DataFrame:
    from schemas.measurements import MEASUREMENT_DTYPES

    return pl.DataFrame(schema=MEASUREMENT_DTYPES)
