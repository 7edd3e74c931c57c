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
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

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
    duration_from_plain,
    fold_text,
    is_approximate_folded,
    number_and_rest,
    number_from_plain,
    parse_number,
    unit_factors,
    without_approximation,
)
from schemas.vocabulary import (
    DIMENSION_ROLES,
    METRIC_ROLES,
    classify_header,
    header_unit,
    read_vocab,
    vocabulary_signature,
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
_EMPTY_QUARANTINE = pl.DataFrame(schema=QUARANTINE_SCHEMA)


def empty_quarantine() -> pl.DataFrame:
    # One frame serves every caller: building an empty frame costs more than a page's rows.
    return _EMPTY_QUARANTINE


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


Lookups = dict[str, dict[str, pl.Expr]]


def _with_lookups(
    frame: pl.DataFrame, columns: tuple[str, ...], build: Callable[[], Lookups]
) -> pl.DataFrame:
    """`frame` with, for each of `columns`, the outputs `build()[column]` gives for it
    (expressions of that column alone), computed once per distinct value.

    Labels (models, platforms, precisions, ...) repeat on most rows of a page and across the
    pages of a source; their string functions cost far more than joining a few dozen results
    back, so results are kept between calls (see `_LabelCache`), and the expressions are
    built only for labels not seen before. The results are mapped onto the rows in one
    query (a join per column costs more)."""
    tables = _LABEL_CACHE.tables(build)
    return frame.with_columns(
        expression for column in columns for expression in tables.mapping(frame[column])
    )


class _LabelCache:
    """Outputs of label expressions per distinct label, kept while the vocabularies under
    schemas/vocab/ are unchanged (same sizes and modification times)."""

    def __init__(self) -> None:
        self._signature: tuple = ()
        self._tables: dict[tuple, _LookupTable] = {}

    def tables(self, build: Callable[[], Lookups]) -> _LookupTables:
        signature = vocabulary_signature()
        if signature != self._signature:
            self._signature, self._tables = signature, {}
        return _LookupTables(self._tables, build)


class _LookupTables:
    """The lookup tables of one `_with_lookups` call; `build` runs at most once, on a miss."""

    def __init__(self, tables: dict[tuple, _LookupTable], build: Callable[[], Lookups]):
        self._tables, self._build, self._built = tables, build, None

    def mapping(self, labels: pl.Series) -> list[pl.Expr]:
        """Expressions giving each output of `labels`' column from the known results."""
        table, distinct = self._table_for(labels)
        known = [label for label in distinct if label is not None]
        keys = pl.Series(known, dtype=labels.dtype)
        expressions = []
        for position, (name, dtype) in enumerate(list(table.schema.items())[1:]):
            values = pl.Series([table.outputs[label][position] for label in known], dtype=dtype)
            mapped = pl.col(labels.name).replace_strict(keys, values, default=None,
                                                        return_dtype=dtype)
            null_output = table.outputs[None][position] if None in distinct else None
            if null_output is not None:  # replace_strict leaves null labels null
                mapped = pl.when(pl.col(labels.name).is_null()).then(
                    pl.lit(null_output, dtype=dtype)
                ).otherwise(mapped)
            expressions.append(mapped.alias(name))
        return expressions

    def _table_for(self, labels: pl.Series) -> tuple[_LookupTable, list]:
        """The table of `labels`' column, holding every distinct label; and those labels."""
        key = (self._build.__qualname__, labels.name, labels.dtype)
        table = self._tables.setdefault(key, _LookupTable())
        if len(table.outputs) > table.MAX_LABELS:
            table.outputs.clear()  # hostile pages could otherwise grow a table without end
        distinct = labels.unique().to_list()
        missing = [label for label in distinct if label not in table.outputs]
        if missing or table.schema is None:
            if self._built is None:
                self._built = self._build()
            table.add(pl.Series(labels.name, missing, dtype=labels.dtype),
                      self._built[labels.name])
        return table, distinct


class _LookupTable:
    """Outputs of one label column's expressions, per label."""

    MAX_LABELS = 100_000

    def __init__(self) -> None:
        self.outputs: dict = {}
        self.schema: dict[str, pl.DataType] | None = None

    def add(self, labels: pl.Series, outputs: dict[str, pl.Expr]) -> None:
        computed = labels.to_frame().with_columns(**outputs)
        self.schema = dict(computed.schema)
        self.outputs.update((row[0], row[1:]) for row in computed.iter_rows())


_LABEL_CACHE = _LabelCache()


def _key(column: str) -> str:
    """Name of the temporary column holding `column`'s identity key (see `_identity`)."""
    return f"_key_{column}"


def _column_roles(cells: pl.DataFrame) -> pl.DataFrame:
    headers = cells.select(
        DOCUMENT, "table_index", "column_index", "column_name", "row_number"
    ).filter(pl.col("row_number") == 0).drop("row_number")
    # Pages of one source repeat the same few headers: each distinct header is read once.
    names = headers["column_name"].unique(maintain_order=True).to_list()
    roles = [classify_header(name) for name in names]
    lookup = pl.DataFrame(
        {
            "column_name": names,
            "role": [role.role if role else None for role in roles],
            "header_unit": [header_unit(name) for name in names],
        },
        schema={"column_name": pl.String, "role": pl.String, "header_unit": pl.String},
    )
    return headers.join(
        lookup, on="column_name", how="left", nulls_equal=True, maintain_order="left"
    ).select(DOCUMENT, "table_index", "column_index", "role", "header_unit")


def _blank(expr: pl.Expr) -> pl.Expr:
    """Null, or nothing but white space and invisible marks (no character outside them)."""
    return ~expr.str.contains(r"[^\s\u00a0\u200b\ufeff]").fill_null(False)


def _row_dimensions(data: pl.DataFrame) -> pl.DataFrame:
    dims = data.select(*ROW_KEY, "role", "raw_value").filter(
        pl.col("role").is_in(DIMENSION_ROLES)
    ).with_columns(
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


_UNIT_LABEL_ROLES = ("variant", "dataset", "model")


def _unit_label_outputs() -> Lookups:
    """`_unit_<role>`: the label folded when it is a rate unit, else null."""
    aliases = unit_factors().filter(pl.col("kind") == "rate")["alias"].to_list()
    lookups = {}
    for role in _UNIT_LABEL_ROLES:
        folded = fold_text(pl.col(role))
        lookups[role] = {f"_unit_{role}": pl.when(folded.is_in(aliases)).then(folded)}
    return lookups


def _cell_units(dimensions: pl.DataFrame) -> pl.DataFrame:
    """A dimension cell that is only a unit ('frames/s' under Variant) is the row's unit."""
    dimensions = _with_lookups(dimensions, _UNIT_LABEL_ROLES, _unit_label_outputs)
    # The model's unit wins over the dataset's, which wins over the variant's.
    units = [pl.col(f"_unit_{role}") for role in reversed(_UNIT_LABEL_ROLES)]
    return dimensions.with_columns(
        pl.coalesce(units).alias("cell_unit"),
        *(
            pl.when(pl.col(f"_unit_{role}").is_not_null()).then(None)
            .otherwise(pl.col(role)).alias(role)
            for role in _UNIT_LABEL_ROLES
        ),
    ).drop(f"_unit_{role}" for role in _UNIT_LABEL_ROLES)


def _note_units(data: pl.DataFrame, dimensions: pl.DataFrame) -> pl.DataFrame:
    """Units a table's footnote gives per subject ('PQM4Mv2 throughput measured in graphs/s')."""
    notes = data.select(DOCUMENT, "table_index", "table_note").filter(
        pl.col("table_note").is_not_null()
    ).unique()
    assignments = []
    for document, table_index, note in notes.iter_rows():
        rows = None  # most footnotes name no unit: the table's rows are looked up on a match
        for subject_key, unit in _note_mentions(note):
            if rows is None:
                rows = _note_candidates(dimensions, document, table_index)
            best = _best_row_for(subject_key, rows)
            if best is not None:
                assignments.append((document, table_index, best, unit))
    return pl.DataFrame(
        assignments,
        schema={DOCUMENT: pl.Int32, "table_index": pl.Int32, "row_number": pl.Int32,
                "note_unit": pl.String},
        orient="row",
    )


@lru_cache(maxsize=1024)
def _note_mentions(note: str) -> tuple[tuple[str, str], ...]:
    """(subject key, unit) of each 'X measured in U' of a footnote; pages of one source
    repeat the same footnotes, so each is searched once."""
    mentions = []
    for segment in note.split("|"):
        # Single spaces: runs of blanks made this search cubic and could leave a blank subject.
        match = _NOTE_UNIT.search(" ".join(segment.split()))
        if match is None:
            continue
        subject = fold_key(pl.lit(match.group("subject").split()[-1]))
        mentions.append((pl.select(subject).item(), match.group("unit").lower()))
    return tuple(mentions)


_NOTE_SUBJECT_ROLES = ("dataset", "model", "variant")


def _note_candidates(dimensions: pl.DataFrame, document: int, table_index: int) -> list[tuple]:
    """(row_number, keys of its labels) for each row of a table: what a footnote may name."""
    rows = dimensions.filter(
        (pl.col(DOCUMENT) == document) & (pl.col("table_index") == table_index)
    ).select(
        "row_number",
        *_NOTE_SUBJECT_ROLES,
        *(fold_key(pl.col(role)).alias(_key(role)) for role in _NOTE_SUBJECT_ROLES),
    )
    candidates = []
    for row in rows.iter_rows(named=True):
        keys = [row[_key(role)] for role in _NOTE_SUBJECT_ROLES if row[role]]
        candidates.append((row["row_number"], keys))
    return candidates


def _best_row_for(subject_key: str, rows: list[tuple]) -> int | None:
    scores: list[tuple[float, int]] = []
    for row_number, keys in rows:
        score = max(
            (difflib.SequenceMatcher(None, subject_key, key).ratio() for key in keys),
            default=0.0,
        )
        scores.append((score, row_number))
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


def _identity_key(column: str) -> dict[str, pl.Expr]:
    return {_key(column): fold_key(pl.col(column))}


_LABEL_COLUMNS = ("model", "framework", "sdk_version", "precision", "table_title", "variant",
                  "batch_size", "dataset", "division", "system")
_CANONICAL_COLUMNS = ("workload", "model_canonical", "framework_canonical")


def _label_outputs() -> Lookups:
    """Canonical forms and identity keys of each label column (see `_with_labels`)."""
    model_name, model_kind = canonical_model(pl.col("model"))
    sdk_version, sdk_pre = split_sdk(pl.col("sdk_version"))
    activation, weight = split_precision(pl.col("precision"))
    title_workload, _ = workload_and_phase(pl.col("table_title"))
    variant_workload, variant_phase = workload_and_phase(pl.col("variant"))
    return {
        "model": {"model_canonical": model_name, "model_item_kind": model_kind},
        "framework": {
            "framework_canonical": pl.coalesce(
                canonical_framework(pl.col("framework")),
                pl.col("framework").str.normalize("NFKC").str.strip_chars(),
            ),
        },
        "sdk_version": {"sdk": sdk_version, "sdk_prerelease": sdk_pre},
        "precision": {"activation_dtype": activation, "weight_dtype": weight,
                      **_identity_key("precision")},
        "table_title": {"_title_workload": title_workload},
        "variant": {"_variant_workload": variant_workload, "phase": variant_phase,
                    **_identity_key("variant")},
        "batch_size": {"batch_size_number": parse_number(pl.col("batch_size")),
                       **_identity_key("batch_size")},
        "dataset": _identity_key("dataset"),
        "division": _identity_key("division"),
        "system": _identity_key("system"),
    }


def _canonical_outputs() -> Lookups:
    return {column: _identity_key(column) for column in _CANONICAL_COLUMNS}


def _with_labels(metrics: pl.DataFrame) -> pl.DataFrame:
    """Canonical labels of each row, and the identity keys of its labels, each computed once
    per distinct label."""
    metrics = _with_lookups(metrics, _LABEL_COLUMNS, _label_outputs)
    metric_workload = (
        pl.when(pl.col("metric") == "latency").then(pl.lit("inference"))
        .when(pl.col("has_train_metric") | (pl.col("metric") == "time_to_train"))
        .then(pl.lit("training"))
        .when(pl.col("has_latency_metric")).then(pl.lit("inference"))
    )
    metrics = metrics.with_columns(
        workload=pl.coalesce("_title_workload", metric_workload, "_variant_workload"),
        unit_published=_published_unit(),
    )
    # Canonical names are known only now: their keys come from the same few distinct values.
    return _with_lookups(metrics, _CANONICAL_COLUMNS, _canonical_outputs)


def _canonical_value_steps(frame: pl.LazyFrame) -> pl.LazyFrame:
    """value, unit, published number and item kind of each row, from its raw text.

    Each step's columns are computed once and read by the next: the cell text is folded
    once for every parser that needs it."""
    units = unit_factors()
    unit = pl.col("unit_published")
    ordinals = read_vocab("ordinals.csv")
    metric = pl.col("metric")
    folded = pl.col("_folded")
    plain = pl.col("_plain")
    number = pl.col("published_number")
    unit_factor = pl.col("_unit_factor")
    score = pl.col("_score")
    value = (
        pl.when(metric == "throughput").then(number * unit_factor.fill_null(1.0))
        .when(metric == "latency").then(pl.col("_seconds") * 1000.0)
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(pl.col("_seconds"))
        .when(metric == "eval_metric").then(score.struct.field("number"))
        .when(metric == "ranking").then(pl.coalesce(pl.col("_place"), number))
    )
    canonical_unit = (
        pl.when(metric == "throughput").then(pl.lit("items/s"))
        .when(metric == "latency").then(pl.lit("ms"))
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(pl.lit("s"))
        .when(metric == "eval_metric").then(score.struct.field("rest"))
        .when(metric == "ranking").then(pl.lit("place"))
    )
    durations = metric.is_in(["latency", "time_to_train", "time_to_result"])
    # A parser whose result only one metric reads gets null text on the other rows, which
    # costs nothing to parse (a when/then computes every branch on every row).
    return (
        frame.with_columns(
            _folded=fold_text(pl.col("raw_value")),
            _score=number_and_rest(pl.when(metric == "eval_metric").then(pl.col("raw_value"))),
            unit_kind=unit.replace_strict(units["alias"], units["kind"], default=None),
            _unit_factor=unit.replace_strict(units["alias"], units["factor"], default=None),
            _unit_item=unit.replace_strict(units["alias"], units["item_kind"], default=None),
        )
        .with_columns(
            _plain=without_approximation(folded),
            approximate=is_approximate_folded(folded),
            _place=pl.when(metric == "ranking").then(folded).replace_strict(
                ordinals["word"], ordinals["place"], default=None
            ).cast(pl.Float64),
        )
        .with_columns(published_number=number_from_plain(plain))
        .with_columns(_seconds=duration_from_plain(
            pl.when(durations).then(plain), number * unit_factor
        ))
        .with_columns(
            value=value,
            unit=canonical_unit,
            item_kind=pl.when(metric == "throughput").then(
                pl.coalesce(pl.col("_unit_item"), pl.col("model_item_kind"), pl.lit("items"))
            ),
        )
    )


def _check_rules() -> list[tuple[pl.Expr, str, pl.Expr]]:
    """(condition, check, reason) in order of precedence: a row fails its first check."""
    metric = pl.col("metric")
    raw = pl.col("raw_value")
    folded = pl.col("_folded")  # fold_text of raw_value, see _canonical_value_steps
    expected_kind = (
        pl.when(metric == "throughput").then(pl.lit("rate"))
        .when(metric.is_in(["latency", "time_to_train", "time_to_result"])).then(pl.lit("duration"))
    )
    return [
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


def _check() -> pl.Expr:
    """The first check each row fails, null when the row is sound."""
    check: pl.Expr = pl.lit(None, dtype=pl.String)
    for condition, name, _message in reversed(_check_rules()):
        check = pl.when(condition.fill_null(False)).then(pl.lit(name)).otherwise(check)
    return check


def _reason() -> pl.Expr:
    """Why a row failed its check; built only for failed rows, as most rows need none."""
    reason: pl.Expr = pl.lit(None, dtype=pl.String)
    for _condition, name, message in reversed(_check_rules()):
        reason = pl.when(pl.col("check") == name).then(message).otherwise(reason)
    return reason


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


def _identity_steps(frame: pl.LazyFrame) -> pl.LazyFrame:
    """A readable natural key: the row's identifying cells, canonical, plus workload and metric.

    The same text as `identity_parts` joined by '|', from the keys `_with_labels` folded."""
    pieces: list[pl.Expr] = []
    for role, column in IDENTITY_PARTS:
        pieces += [pl.lit(f"{role}="), pl.col(_key(column)).fill_null(""), pl.lit("|")]
    return frame.with_columns(
        row_identity=pl.concat_str([*pieces, pl.lit("metric="), pl.col("metric")])
    )


def _with_occurrences(frame: pl.DataFrame) -> pl.DataFrame:
    """Two rows with the same identity on one page are told apart by their order.

    Ranking every row by its identity text is slow, and identities are almost always
    distinct: a row whose identity hash no other row of its page has cannot share its
    identity, so only the rows with a shared hash are ranked (among themselves, as the
    rows sharing an identity all share its hash)."""
    shared = frame.select(
        pl.len().over(DOCUMENT, pl.col("row_identity").hash()) > 1
    ).to_series()
    if not shared.any():
        return frame
    positions = shared.arg_true()
    candidates = frame.select(DOCUMENT, "row_number", "row_identity").filter(shared)
    ranked = candidates.select(
        "row_identity",
        ordinal=pl.col("row_number").rank("ordinal").over(DOCUMENT, "row_identity"),
    )
    # Few rows: their new identities are built in Python.
    renamed = pl.Series([
        f"{identity}|occurrence={ordinal}" if ordinal > 1 and identity is not None else identity
        for identity, ordinal in ranked.iter_rows()
    ], dtype=pl.String)
    return frame.with_columns(frame["row_identity"].clone().scatter(positions, renamed))


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
    present = [index for index, (cells, _context) in enumerate(documents) if cells.height]
    if not present:
        return [NormalizedDocument(_empty_measurements(), empty_quarantine()) for _ in documents]
    cells = pl.concat([documents[index][0] for index in present])
    heights = [documents[index][0].height for index in present]
    cells = cells.with_columns(_document_indexes(present, heights))
    good, quarantine = _normalize_frame(cells)
    # The context is the same on every row of a document: joined once, not added per document.
    contexts = _context_frame([(index, documents[index][1]) for index in present])
    good = _with_context(good, contexts).select(DOCUMENT, *MEASUREMENT_COLUMNS)
    quarantine = _with_context(quarantine, contexts).select(DOCUMENT, *QUARANTINE_SCHEMA)
    measurements = _split_by_document(good, len(documents))
    quarantined = _split_by_document(quarantine, len(documents))
    return [
        NormalizedDocument(
            measurements[index] if cells.height else _empty_measurements(),
            quarantined[index],
        )
        for index, (cells, _context) in enumerate(documents)
    ]


def _document_indexes(indexes: list[int], heights: list[int]) -> pl.Series:
    """The DOCUMENT column: each document's index repeated once per row of its cells."""
    repeated = pl.lit(pl.Series(indexes, dtype=pl.Int32)).repeat_by(pl.Series(heights))
    return pl.select(repeated.explode().alias(DOCUMENT)).to_series()


def _context_columns(context: DocumentContext) -> dict[str, str | None]:
    return {
        "source_id": context.source_id,
        "source_url": context.source_url,
        "document_sha256": context.document_sha256,
        "document_title": context.document_title,
        "captured_at": context.captured_at,
        "parser_version": context.parser_version,
    }


def _context_frame(contexts: list[tuple[int, DocumentContext]]) -> pl.DataFrame:
    rows = [{DOCUMENT: index, **_context_columns(context)} for index, context in contexts]
    names = _context_columns(contexts[0][1])
    return pl.DataFrame(rows, schema={DOCUMENT: pl.Int32, **dict.fromkeys(names, pl.String)})


def _with_context(frame: pl.DataFrame, contexts: pl.DataFrame) -> pl.DataFrame:
    return frame.join(contexts, on=DOCUMENT, how="left", maintain_order="left")


def _split_by_document(frame: pl.DataFrame, count: int) -> list[pl.DataFrame]:
    """The rows of documents 0 .. count - 1 without the DOCUMENT column, each in its order.

    Rows are stably sorted by document, then sliced: slices share the frame's memory."""
    if not frame[DOCUMENT].is_sorted():
        frame = frame.sort(DOCUMENT, maintain_order=True)
    indexes = pl.Series(range(count), dtype=pl.Int32)
    starts = frame[DOCUMENT].search_sorted(indexes, side="left").to_list()
    ends = frame[DOCUMENT].search_sorted(indexes, side="right").to_list()
    body = frame.drop(DOCUMENT)
    return [body.slice(start, end - start) for start, end in zip(starts, ends, strict=True)]


def _normalize_frame(cells: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(measurements, quarantine) of cells from one or more documents, each row keeping the
    index of its document; the document's context columns are left to the caller."""
    roles = _column_roles(cells)
    data = cells.filter(pl.col("row_number") > 0).join(
        roles, on=[DOCUMENT, "table_index", "column_index"], how="left", maintain_order="left"
    )
    dimensions = _cell_units(_row_dimensions(data))
    note_units = _note_units(data, dimensions)
    table_metrics = data.group_by(DOCUMENT, "table_index").agg(
        pl.col("role").is_in(["time_to_train"]).any().alias("has_train_metric"),
        pl.col("role").is_in(["latency"]).any().alias("has_latency_metric"),
    )
    metrics = (
        data.filter(pl.col("role").is_in(METRIC_ROLES) & ~_blank(pl.col("raw_value")))
        .rename({"role": "metric"})
        .join(dimensions, on=ROW_KEY, how="left", maintain_order="left")
        .join(note_units, on=ROW_KEY, how="left", maintain_order="left")
        .join(table_metrics, on=[DOCUMENT, "table_index"], how="left", maintain_order="left")
    )
    platforms = resolve_platforms(metrics["platform"])
    metrics = metrics.join(platforms, on="platform", how="left", maintain_order="left")
    metrics = _with_labels(metrics)
    metrics = (
        _canonical_value_steps(metrics.lazy())
        .with_columns(check=_check())
        .with_columns(
            value_per_accelerator=pl.when(
                (pl.col("metric") == "throughput") & (pl.col("accelerator_count") > 0)
            ).then(pl.col("value") / pl.col("accelerator_count")),
        )
        .pipe(_identity_steps)
        .collect()
        .pipe(_with_occurrences)
    )
    good = metrics.filter(pl.col("check").is_null())
    bad = metrics.filter(pl.col("check").is_not_null()).with_columns(reason=_reason())
    quarantine = _quarantine_rows(bad, data)
    unknown = _unknown_columns(cells, roles)
    return good.select(DOCUMENT, *_OWN_MEASUREMENT_COLUMNS), pl.concat([quarantine, unknown])


_CONTEXT_QUARANTINE_COLUMNS = ("document_sha256", "source_id")
# The quarantine columns normalization fills; the context's come from the caller.
_OWN_QUARANTINE_SCHEMA = {
    name: dtype for name, dtype in QUARANTINE_SCHEMA.items()
    if name not in _CONTEXT_QUARANTINE_COLUMNS
}


def _quarantine_rows(bad: pl.DataFrame, data: pl.DataFrame) -> pl.DataFrame:
    if bad.height == 0:
        return _empty_document_quarantine()
    # The raw rows of failed rows only: each costs a JSON encoding in Python.
    failed_rows = data.join(bad.select(ROW_KEY).unique(), on=ROW_KEY, how="semi",
                            maintain_order="left")
    raw_rows = _raw_rows(failed_rows)
    return (
        bad.join(raw_rows, on=ROW_KEY, how="left", maintain_order="left")
        .with_columns(stage=pl.lit("normalize"))
        .select(DOCUMENT, *_OWN_QUARANTINE_SCHEMA)
        .cast(_OWN_QUARANTINE_SCHEMA)
    )


def _empty_document_quarantine() -> pl.DataFrame:
    return pl.DataFrame(schema={DOCUMENT: pl.Int32, **_OWN_QUARANTINE_SCHEMA})


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
    ).select(DOCUMENT, *_OWN_QUARANTINE_SCHEMA).cast(_OWN_QUARANTINE_SCHEMA)


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
_CONTEXT_COLUMNS = ("source_id", "source_url", "document_sha256", "document_title",
                    "captured_at", "parser_version")
# The measurement columns normalization fills; the context's come from the caller.
_OWN_MEASUREMENT_COLUMNS = [name for name in MEASUREMENT_COLUMNS if name not in _CONTEXT_COLUMNS]


def _empty_measurements() -> pl.DataFrame:
    from schemas.measurements import MEASUREMENT_DTYPES

    return pl.DataFrame(schema=MEASUREMENT_DTYPES)
