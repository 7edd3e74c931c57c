"""Parsed cells -> canonical measurements, with every value that does not fit set apart.

One measurement per published metric cell. Dimension cells of the same row (model, platform,
precision, ...) become its context; units come from the cell, the table's footnote or the
header, in that order of precedence. Rows that cannot be read with certainty get a `check`
and a `reason` and leave through the quarantine frame instead of the measurement frame.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TypeVar

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


# How the outputs of a label column are computed: from a frame holding the column's distinct
# labels, a frame of the output columns, one row per label. An output may bear the label
# column's own name: it then replaces the label (with its cleaned form, say).
LabelOutputs = Callable[[pl.DataFrame], pl.DataFrame]
Lookups = dict[str, LabelOutputs]


def _with_lookups(
    frame: pl.DataFrame, columns: tuple[str, ...], build: Callable[[], Lookups]
) -> pl.DataFrame:
    """`frame` with, for each of `columns`, the outputs `build()[column]` gives for it
    (functions of that column alone), computed once per distinct value.

    Labels (models, platforms, precisions, ...) repeat on most rows of a page and across the
    pages of a source; their string functions cost far more than looking a few dozen
    results up, so results are kept between calls (see `_LabelCache`), and the outputs are
    computed only for labels not seen before. Each row gets the position of its label
    among the known ones, and every output of the column is taken at that position."""
    tables = _LABEL_CACHE.tables(build)
    return frame.with_columns(
        [output for column in columns for output in tables.outputs_for(frame[column])]
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

    def outputs_for(self, labels: pl.Series) -> list[pl.Series]:
        """Each output of `labels`' column, row by row."""
        key = (self._build.__qualname__, labels.name, labels.dtype)
        table = self._tables.setdefault(key, _LookupTable())
        positions = table.positions(labels)
        if table.schema is None or positions.has_nulls():  # a label not seen before
            missing = labels.filter(positions.is_null()).unique()
            if len(table) + missing.len() > table.MAX_LABELS:
                table.clear()  # hostile pages could otherwise grow a table without end
                missing = labels.unique()
            if self._built is None:
                self._built = self._build()
            table.add(missing, self._built[labels.name])
            positions = table.positions(labels)
        return table.values()[positions].get_columns()


class _LookupTable:
    """Outputs of one label column, one row per known label, kept in the order labels were
    added; the null label's outputs apart."""

    MAX_LABELS = 20_000

    def __init__(self) -> None:
        self.schema: dict[str, pl.DataType] | None = None
        self.clear()

    def __len__(self) -> int:
        return len(self._positions) + (self._null_outputs is not None)

    def add(self, labels: pl.Series, outputs: LabelOutputs) -> None:
        """Outputs of `labels`, labels not in the table (the null label among them)."""
        computed = outputs(labels.to_frame())
        self.schema = dict(computed.schema)
        nulls = labels.is_null()
        if nulls.any():
            self._null_outputs = computed.filter(nulls)
        for label in labels.filter(~nulls).to_list():
            self._positions[label] = len(self._positions)
        known = computed.filter(~nulls)
        self._outputs = known if self._outputs is None else pl.concat(
            [self._outputs, known], rechunk=True
        )
        self._lookup = None

    def clear(self) -> None:
        self._positions: dict[str, int] = {}
        self._outputs: pl.DataFrame | None = None
        self._null_outputs: pl.DataFrame | None = None
        self._lookup: tuple[pl.Enum, pl.DataFrame] | None = None

    def positions(self, labels: pl.Series) -> pl.Series:
        """Where each label's outputs stand in `values()`; null for a label not known.

        The known labels are the categories of an enum: casting to it finds each label's
        position faster than a join or `replace_strict` does."""
        known, _values = self._built()
        positions = labels.cast(known, strict=False).to_physical().cast(pl.UInt32)
        if self._null_outputs is not None and labels.has_nulls():
            positions.scatter(labels.is_null().arg_true(), len(self._positions))
        return positions

    def values(self) -> pl.DataFrame:
        """The outputs, one row per known label, in the order of `positions`."""
        return self._built()[1]

    def _built(self) -> tuple[pl.Enum, pl.DataFrame]:
        if self._lookup is None:
            values = self._outputs if self._outputs is not None else pl.DataFrame(
                schema=self.schema
            )
            if self._null_outputs is not None:  # the null label's row comes last
                values = pl.concat([values, self._null_outputs], rechunk=True)
            self._lookup = (pl.Enum(list(self._positions)), values)
        return self._lookup


_LABEL_CACHE = _LabelCache()


def _key(column: str) -> str:
    """Name of the temporary column holding `column`'s identity key (see `_identity_steps`)."""
    return f"_key_{column}"


# The frames of a chunk are small: polars' in-memory engine runs them sooner than the
# streaming one it may otherwise choose.
_ENGINE = "in-memory"
_T = TypeVar("_T")


def _per_vocabulary(build: Callable[[], _T]) -> Callable[[], _T]:
    """`build` whose result is kept while the vocabularies under schemas/vocab/ are unchanged:
    expressions and lookups built from them cost more than the rows of a page."""
    kept: list = []

    @functools.wraps(build)
    def kept_build() -> _T:
        signature = vocabulary_signature()
        if not kept or kept[0] != signature:
            kept[:] = [signature, build()]
        return kept[1]

    return kept_build


@lru_cache(maxsize=4096)
def _header_reading(name: str) -> tuple[str | None, str | None]:
    """(role, unit) a header gives its column; pages of one source repeat the same headers."""
    role = classify_header(name)
    return (role.role if role else None), header_unit(name)


def _column_roles(cells: pl.DataFrame) -> pl.DataFrame:
    headers = cells.select(
        DOCUMENT, "table_index", "column_index", "column_name", "row_number"
    ).filter(pl.col("row_number") == 0).drop("row_number")
    names = headers["column_name"].unique(maintain_order=True).to_list()
    readings = [_header_reading(name) for name in names]
    lookup = pl.DataFrame(
        {
            "column_name": names,
            "role": [role for role, _unit in readings],
            "header_unit": [unit for _role, unit in readings],
        },
        schema={"column_name": pl.String, "role": pl.String, "header_unit": pl.String},
    )
    return headers.join(
        lookup, on="column_name", how="left", nulls_equal=True, maintain_order="left"
    ).select(
        DOCUMENT, "table_index", "column_index", "role", "header_unit",
        # What each role means for the cells below, worked out once per column.
        _dimension=pl.col("role").replace_strict(
            DIMENSION_ROLES, range(len(DIMENSION_ROLES)), default=None, return_dtype=pl.Int64
        ),
        _is_metric=pl.col("role").is_in(METRIC_ROLES),
    )


_COLUMN_KEY = [DOCUMENT, "table_index", "column_index"]
_TABLE_KEY = [DOCUMENT, "table_index"]


class _Keys:
    """Integer keys of the cells' columns, tables and rows: one integer per distinct
    combination of key values (null when one of them is null), as joins, rankings and
    look-ups on one integer cost less than on several columns.

    Each key packs its columns' values, less their least value, in mixed radix: its
    values are below `size`, a number that tells whether the key can index an array."""

    def __init__(self, cells: pl.DataFrame) -> None:
        self._ranges = {
            name: (cells[name].min(), cells[name].max()) for name in ROW_KEY + ["column_index"]
        }

    def packed(self, columns: list[str]) -> tuple[pl.Expr, int] | None:
        """(key expression, size), or None when there are too many combinations for an
        integer."""
        key, size = None, 1
        for name in columns:
            low, high = self._ranges[name]
            span = 1 if low is None else high - low + 1
            part = pl.col(name).cast(pl.Int64)
            if low:
                part = part - low
            key = part if key is None else key * span + part
            size *= span
        return (key, size) if size < 2**62 else None


def _data_cells(cells: pl.DataFrame, roles: pl.DataFrame) -> pl.DataFrame:
    """The cells, each with `_role` (its column's row in `roles`, null when its column has
    no header), the `_dimension` and `_is_metric` of that role, and, below the headers,
    `_row` (its row's index among the frame's rows, null when a key is missing: such a
    row matches none). Header cells (row 0) stay, so that the cells are not copied: each
    use leaves them out.

    A column with several headers (hostile pages) repeats its cells, once per header."""
    keys = _Keys(cells)
    data = _with_role_positions(cells, roles, keys)
    meanings = roles.select("_dimension", "_is_metric")[data["_role"]]
    return data.hstack(meanings.get_columns()).with_columns(
        _row=pl.when(pl.col("row_number") > 0).then(_row_index(data, keys)),
    )


def _with_role_positions(cells: pl.DataFrame, roles: pl.DataFrame, keys: _Keys) -> pl.DataFrame:
    """`cells` with `_role`; an array indexed by column key finds it when each column has
    one header and the keys are few, else a join does."""
    packed = keys.packed(_COLUMN_KEY)
    if packed is not None:
        key, size = packed
        headers = roles.select(key).to_series()
        present = headers.is_not_null()
        if size <= 4 * cells.height + 4096 and headers.filter(present).n_unique() == present.sum():
            role_at = pl.repeat(None, size, dtype=pl.UInt32, eager=True)
            role_at.scatter(headers.filter(present), present.arg_true())
            return cells.with_columns(_role=role_at.gather(cells.select(key).to_series()))
        on, cells_on, roles_on = "_column", key.alias("_column"), key.alias("_column")
    else:
        on, cells_on, roles_on = _COLUMN_KEY, pl.col(_COLUMN_KEY), pl.col(_COLUMN_KEY)
    indexed = roles.select(roles_on, pl.int_range(pl.len(), dtype=pl.UInt32).alias("_role"))
    joined = cells.select(cells_on).join(indexed, on=on, how="left", maintain_order="left")
    if joined.height == cells.height:
        return cells.with_columns(joined["_role"])
    # Several headers for one column: its cells are repeated, once per header.
    if on == _COLUMN_KEY:
        return cells.join(indexed, on=on, how="left", maintain_order="left")
    return cells.with_columns(cells_on).join(
        indexed, on=on, how="left", maintain_order="left"
    ).drop(on)


def _row_index(data: pl.DataFrame, keys: _Keys) -> pl.Expr:
    """An integer per distinct row key: the packed key when its values are few enough to
    index arrays, else its rank."""
    packed = keys.packed(ROW_KEY)
    if packed is None:
        present = pl.all_horizontal(pl.col(ROW_KEY).is_not_null())
        return pl.when(present).then(pl.struct(ROW_KEY)).rank("dense").cast(pl.Int64) - 1
    key, size = packed
    if size <= data.height + 4096:
        return key
    return key.rank("dense").cast(pl.Int64) - 1


def _blank(expr: pl.Expr) -> pl.Expr:
    """Null, or nothing but white space and invisible marks (no character outside them)."""
    return ~expr.str.contains(r"[^\s\u00a0\u200b\ufeff]").fill_null(False)


_DIMENSIONS = len(DIMENSION_ROLES)


def _dimension_cells(data: pl.DataFrame) -> pl.Series:
    """Where, in `data`, the first cell of each dimension role of each row is: the cell of
    role number d of row r is at `_dimension_cells(data)[r * _DIMENSIONS + d]` (null when
    the row has none). A role's cells are cleaned by `_dimension_outputs`."""
    rows = data["_row"].max()
    slots = data.select(
        (pl.col("_row") * _DIMENSIONS + pl.col("_dimension")).alias("_slot"),
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("_cell"),
    ).filter(pl.col("_slot").is_not_null())
    if slots["_slot"].n_unique() < slots.height:  # two cells of one role in a row: the first
        slots = slots.filter(pl.col("_slot").is_first_distinct())
    cells = pl.repeat(None, 0 if rows is None else (rows + 1) * _DIMENSIONS, dtype=pl.UInt32,
                      eager=True)
    cells.scatter(slots["_slot"], slots["_cell"])
    return cells


def _row_dimensions(
    data: pl.DataFrame, dimension_cells: pl.Series, rows: pl.Series, roles: tuple[str, ...]
) -> list[pl.Series]:
    """For each of `rows` (`_row` values), the first cell of each of `roles`, as published.

    The cells of every role are taken in one go, role after role, then cut apart."""
    slots = rows.cast(pl.Int64) * _DIMENSIONS
    wanted = pl.concat([slots + DIMENSION_ROLES.index(role) for role in roles])
    cells = data["raw_value"].gather(dimension_cells.gather(wanted))
    count = rows.len()
    return [cells.slice(place * count, count).alias(role) for place, role in enumerate(roles)]


def _note_units(data: pl.DataFrame, dimension_cells: pl.Series) -> pl.DataFrame:
    """Units a table's footnote gives per subject ('PQM4Mv2 throughput measured in graphs/s')."""
    assignments = []
    if _some_note_names_a_unit(data["table_note"]):
        notes = data.select(DOCUMENT, "table_index", "table_note", "row_number").filter(
            pl.col("table_note").is_not_null() & (pl.col("row_number") > 0)
        ).drop("row_number").unique(maintain_order=True)
        for document, table_index, note in notes.iter_rows():
            rows = None  # most footnotes name no unit: the table's rows are looked up on a match
            for subject_key, unit in _note_mentions(note):
                if rows is None:
                    rows = _note_candidates(data, dimension_cells, document, table_index)
                best = _best_row_for(subject_key, rows)
                if best is not None:
                    assignments.append((document, table_index, best, unit))
    return pl.DataFrame(
        assignments,
        schema={DOCUMENT: pl.Int32, "table_index": pl.Int32, "row_number": pl.Int32,
                "note_unit": pl.String},
        orient="row",
    )


def _some_note_names_a_unit(notes: pl.Series) -> bool:
    """Whether any of `notes` says 'X measured in U'. The cells of a table repeat its
    footnote: each run of equal notes is read once."""
    distinct = notes.filter(notes.ne_missing(notes.shift())).drop_nulls().unique()
    return any(_note_mentions(note) for note in distinct)


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


def _note_candidates(
    data: pl.DataFrame, dimension_cells: pl.Series, document: int, table_index: int
) -> list[tuple]:
    """(row_number, keys of its labels) for each row of a table that has a dimension cell:
    what a footnote may name. Labels that are units are no labels (see `_cell_unit`)."""
    rows = data.filter(
        (pl.col(DOCUMENT) == document) & (pl.col("table_index") == table_index)
        & pl.col("_row").is_not_null() & pl.col("_dimension").is_not_null()
    ).select("_row", "row_number").unique("_row", maintain_order=True)
    labels = pl.DataFrame(
        _row_dimensions(data, dimension_cells, rows["_row"], _NOTE_SUBJECT_ROLES)
    )
    labels = _with_lookups(labels, _NOTE_SUBJECT_ROLES, _label_outputs).select(
        *_NOTE_SUBJECT_ROLES,
        *(fold_key(pl.col(role)).alias(_key(role)) for role in _NOTE_SUBJECT_ROLES),
    )
    candidates = []
    for row_number, row in zip(rows["row_number"], labels.iter_rows(named=True), strict=True):
        keys = [row[_key(role)] for role in _NOTE_SUBJECT_ROLES if row[role]]
        candidates.append((row_number, keys))
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


@_per_vocabulary
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


# The label columns of a metric row: its dimensions, as published, and its table's title.
_LABEL_COLUMNS = (*DIMENSION_ROLES, "table_title")
# A cell under these that is only a unit ('frames/s' under Variant) is the row's unit.
_UNIT_LABEL_ROLES = ("variant", "dataset", "model")


def _label_outputs() -> Lookups:
    """Per label column (see `_with_labels`), from its labels: the label cleaned, its
    canonical forms and the identity keys of both."""
    lookups: Lookups = {role: _dimension_outputs(role) for role in DIMENSION_ROLES}
    title_workload, _ = workload_and_phase(pl.col("table_title"))
    lookups["table_title"] = _expressions(
        _title_workload=title_workload, _key_title_workload=fold_key(title_workload)
    )
    return lookups


def _expressions(**outputs: pl.Expr) -> LabelOutputs:
    return lambda labels: labels.select(**outputs)


def _dimension_outputs(role: str) -> LabelOutputs:
    """The cell as published, stripped (null when blank, or when it is only a unit), and
    what is derived from it."""
    label = pl.col(role)
    cleaned = pl.when(_blank(label)).then(None).otherwise(label.str.strip_chars(" \u00a0\t"))
    unit = _cell_unit(role)
    derived = _derived_outputs(role)

    def outputs(labels: pl.DataFrame) -> pl.DataFrame:
        frame = labels.select(cleaned.alias(role))
        if unit is not None:
            frame = frame.with_columns(unit).with_columns(
                pl.when(pl.col(unit.meta.output_name()).is_not_null()).then(None)
                .otherwise(label).alias(role)
            )
        if role == "platform":
            frame = frame.join(resolve_platforms(frame[role]), on=role, how="left",
                               maintain_order="left")
        return frame.with_columns(**derived)

    return outputs


def _cell_unit(role: str) -> pl.Expr | None:
    """`_unit_<role>`: the label folded when it is a rate unit, else null."""
    if role not in _UNIT_LABEL_ROLES:
        return None
    aliases = unit_factors().filter(pl.col("kind") == "rate")["alias"].to_list()
    folded = fold_text(pl.col(role))
    return pl.when(folded.is_in(aliases)).then(folded).alias(f"_unit_{role}")


def _derived_outputs(role: str) -> dict[str, pl.Expr]:
    """Canonical forms and identity keys of a dimension's cleaned labels."""
    label = pl.col(role)
    if role == "model":
        name, kind = canonical_model(label)
        return {"model_canonical": name, "model_item_kind": kind,
                _key("model_canonical"): fold_key(name)}
    if role == "framework":
        name = pl.coalesce(
            canonical_framework(label), label.str.normalize("NFKC").str.strip_chars()
        )
        return {"framework_canonical": name, _key("framework_canonical"): fold_key(name)}
    if role == "sdk_version":
        version, prerelease = split_sdk(label)
        return {"sdk": version, "sdk_prerelease": prerelease}
    if role == "precision":
        activation, weight = split_precision(label)
        return {"activation_dtype": activation, "weight_dtype": weight,
                **_identity_key("precision")}
    if role == "variant":
        workload, phase = workload_and_phase(label)
        return {"_variant_workload": workload, "phase": phase,
                "_key_variant_workload": fold_key(workload), **_identity_key("variant")}
    if role == "batch_size":
        return {"batch_size_number": parse_number(label), **_identity_key("batch_size")}
    if role == "platform":
        return _identity_key("system")
    if role in ("dataset", "division"):
        return _identity_key(role)
    return {}


def _with_labels(metrics: pl.DataFrame) -> pl.DataFrame:
    """Canonical labels of each row, and the identity keys of its labels, each computed once
    per distinct label; the row's unit when one of its labels is one."""
    metrics = _with_lookups(metrics, _LABEL_COLUMNS, _label_outputs)
    # The model's unit wins over the dataset's, which wins over the variant's.
    units = [pl.col(f"_unit_{role}") for role in reversed(_UNIT_LABEL_ROLES)]
    return metrics.with_columns(cell_unit=pl.coalesce(units))


def _workload_and_unit() -> list[pl.Expr]:
    return [
        pl.coalesce("_title_workload", _metric_workload(), "_variant_workload").alias("workload"),
        # The key of the first workload found is the first key found: keys of null are null.
        pl.coalesce(
            "_key_title_workload", _metric_workload(keys=True), "_key_variant_workload"
        ).alias("_key_workload"),
        _published_unit().alias("unit_published"),
    ]


def _metric_workload(keys: bool = False) -> pl.Expr:
    """The workload the row's metric, or its table's metrics, imply; or its identity key."""

    def named(workload: str) -> pl.Expr:
        return pl.lit(_folded_key(workload) if keys else workload)

    return (
        pl.when(pl.col("metric") == "latency").then(named("inference"))
        .when(pl.col("has_train_metric") | (pl.col("metric") == "time_to_train"))
        .then(named("training"))
        .when(pl.col("has_latency_metric")).then(named("inference"))
    )


@lru_cache(maxsize=8)
def _folded_key(text: str) -> str:
    return pl.select(fold_key(pl.lit(text))).item()


# Metrics whose plain numbers `_plain_readings` reads; a ranking or score has its own rules.
_PLAIN_METRICS = ("throughput", "latency", "time_to_train", "time_to_result")
# Digits and thousands commas in ASCII: text that folding leaves as it is, with no
# approximation prefix, no suffix and no unit, so its number is the text without commas.
_PLAIN_NUMBER = r"^(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?$"
# The columns `_readings` gives each row from its raw text.
_READINGS = ("_folded", "approximate", "published_number", "_seconds", "_score_number",
             "_score_rest", "_place")


def _with_readings(metrics: pl.DataFrame) -> pl.DataFrame:
    """Each row's workload and published unit, and what its raw text reads as (see
    `_READINGS`).

    Nearly every cell holds a plain number: every row is first read as one by
    `_plain_readings`, which gives what the full parsers (`_readings`) give such a cell,
    and only the other rows are then parsed."""
    metrics = (
        metrics.lazy()
        .with_columns(_workload_and_unit())
        .with_columns(
            *_unit_columns(),
            _plain=pl.col("raw_value").str.contains(_PLAIN_NUMBER)
            & pl.col("metric").is_in(_PLAIN_METRICS),
        )
        .with_columns(_plain_readings())
        .collect(engine=_ENGINE)
    )
    parse = metrics["_plain"].not_()
    if not parse.any():
        return metrics
    positions = parse.arg_true()
    parsed = _readings(metrics.select("metric", "raw_value", "_unit_factor").filter(parse))
    return metrics.with_columns(
        metrics[name].clone().scatter(positions, parsed[name]) for name in _READINGS
    )


@_per_vocabulary
def _unit_columns() -> list[pl.Expr]:
    units = unit_factors()
    unit = pl.col("unit_published")
    return [
        unit.replace_strict(units["alias"], units[column], default=None).alias(name)
        for name, column in (("unit_kind", "kind"), ("_unit_factor", "factor"),
                             ("_unit_item", "item_kind"))
    ]


def _plain_readings() -> list[pl.Expr]:
    """`_READINGS` of a plain number (see `_PLAIN_NUMBER`) of a `_PLAIN_METRICS` row."""
    number = pl.col("raw_value").str.replace_all(",", "", literal=True).cast(
        pl.Float64, strict=False
    )
    return [
        pl.col("raw_value").alias("_folded"),
        pl.lit(False).alias("approximate"),
        number.alias("published_number"),
        # No duration unit nor clock reading: a bare number, in the header's unit.
        (number * pl.col("_unit_factor")).alias("_seconds"),
        pl.lit(None, dtype=pl.Float64).alias("_score_number"),
        pl.lit(None, dtype=pl.String).alias("_score_rest"),
        pl.lit(None, dtype=pl.Float64).alias("_place"),
    ]


def _readings(frame: pl.DataFrame) -> pl.DataFrame:
    """`_READINGS` of any row, by the full parsers.

    Each step's columns are computed once and read by the next: the cell text is folded
    once for every parser that needs it."""
    folding, reading, numbers, durations = _reading_steps()
    return (
        frame.lazy().with_columns(folding).with_columns(reading).with_columns(numbers)
        .with_columns(durations).select(_READINGS).collect(engine=_ENGINE)
    )


@_per_vocabulary
def _reading_steps() -> tuple[list[pl.Expr], ...]:
    ordinals = read_vocab("ordinals.csv")
    metric = pl.col("metric")
    folded = pl.col("_folded")
    plain = pl.col("_plain")
    number = pl.col("published_number")
    durations = metric.is_in(["latency", "time_to_train", "time_to_result"])
    score = number_and_rest(pl.when(metric == "eval_metric").then(pl.col("raw_value")))
    # A parser whose result only one metric reads gets null text on the other rows, which
    # costs little to parse (a when/then computes every branch on every row).
    return (
        [fold_text(pl.col("raw_value")).alias("_folded"), score.alias("_score")],
        [
            without_approximation(folded).alias("_plain"),
            is_approximate_folded(folded).alias("approximate"),
            pl.when(metric == "ranking").then(folded).replace_strict(
                ordinals["word"], ordinals["place"], default=None
            ).cast(pl.Float64).alias("_place"),
            pl.col("_score").struct.field("number").alias("_score_number"),
            pl.col("_score").struct.field("rest").alias("_score_rest"),
        ],
        [number_from_plain(plain).alias("published_number")],
        [duration_from_plain(
            pl.when(durations).then(plain), number * pl.col("_unit_factor")
        ).alias("_seconds")],
    )


@_per_vocabulary
def _value_columns() -> list[pl.Expr]:
    metric = pl.col("metric")
    number = pl.col("published_number")
    value = (
        pl.when(metric == "throughput").then(number * pl.col("_unit_factor").fill_null(1.0))
        .when(metric == "latency").then(pl.col("_seconds") * 1000.0)
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(pl.col("_seconds"))
        .when(metric == "eval_metric").then(pl.col("_score_number"))
        .when(metric == "ranking").then(pl.coalesce(pl.col("_place"), number))
    )
    canonical_unit = (
        pl.when(metric == "throughput").then(pl.lit("items/s"))
        .when(metric == "latency").then(pl.lit("ms"))
        .when(metric.is_in(["time_to_train", "time_to_result"])).then(pl.lit("s"))
        .when(metric == "eval_metric").then(pl.col("_score_rest"))
        .when(metric == "ranking").then(pl.lit("place"))
    )
    return [
        value.alias("value"),
        canonical_unit.alias("unit"),
        pl.when(metric == "throughput").then(
            pl.coalesce(pl.col("_unit_item"), pl.col("model_item_kind"), pl.lit("items"))
        ).alias("item_kind"),
    ]


def _check_rules() -> list[tuple[pl.Expr, str, pl.Expr]]:
    """(condition, check, reason) in order of precedence: a row fails its first check."""
    metric = pl.col("metric")
    raw = pl.col("raw_value")
    folded = pl.col("_folded")  # fold_text of raw_value, see _reading_steps
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


@cache
def _check() -> pl.Expr:
    """The first check each row fails, null when the row is sound."""
    check: pl.Expr = pl.lit(None, dtype=pl.String)
    for condition, name, _message in reversed(_check_rules()):
        check = pl.when(condition.fill_null(False)).then(pl.lit(name)).otherwise(check)
    return check


@cache
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
    template = "|".join(f"{role}={{}}" for role, _column in IDENTITY_PARTS) + "|metric={}"
    keys = [pl.col(_key(column)).fill_null("") for _role, column in IDENTITY_PARTS]
    return frame.with_columns(row_identity=pl.format(template, *keys, pl.col("metric")))


def _with_occurrences(frame: pl.DataFrame) -> pl.DataFrame:
    """Two rows with the same identity on one page are told apart by their order.

    Ranking every row by its identity text is slow, and identities are almost always
    distinct: a row whose identity hash no other row of its page has cannot share its
    identity, so only the rows with a shared hash are ranked (among themselves, as the
    rows sharing an identity all share its hash)."""
    # A hash of the identity and the document: rows of one identity on a page share it.
    shared = (frame["row_identity"].hash() ^ frame[DOCUMENT].cast(pl.UInt64)).is_duplicated()
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
    # One chunk per column: polars copies a frame of many chunks on each eager query.
    cells = pl.concat([documents[index][0] for index in present], rechunk=True)
    heights = [documents[index][0].height for index in present]
    cells = cells.with_columns(_document_indexes(present, heights))
    good, quarantine = _normalize_frame(cells)
    # The context is the same on every row of a document: one row per document, taken by
    # each row at its document's index.
    contexts = _context_frame([context for _cells, context in documents])
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


def _context_frame(contexts: list[DocumentContext]) -> pl.DataFrame:
    rows = [_context_columns(context) for context in contexts]
    return pl.DataFrame(rows, schema=dict.fromkeys(_context_columns(contexts[0]), pl.String))


def _with_context(frame: pl.DataFrame, contexts: pl.DataFrame) -> pl.DataFrame:
    """`frame` with the context columns of each row's document (`contexts` has one row per
    document, in the order of their indexes)."""
    return frame.hstack(contexts[frame[DOCUMENT]].get_columns())


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
    data = _data_cells(cells, roles)
    dimension_cells = _dimension_cells(data)
    note_units = _note_units(data, dimension_cells)
    metrics = _metric_cells(data, roles)
    # Each metric cell takes the dimensions of its row.
    metrics = _with_labels(metrics.hstack(
        _row_dimensions(data, dimension_cells, metrics["_row"], DIMENSION_ROLES)
    ))
    if note_units.height:
        metrics = metrics.join(note_units, on=ROW_KEY, how="left", maintain_order="left")
    else:
        metrics = metrics.with_columns(note_unit=pl.lit(None, dtype=pl.String))
    metrics = (
        _with_readings(metrics).lazy()
        .with_columns(_value_columns())
        .with_columns(check=_check())
        .with_columns(
            value_per_accelerator=pl.when(
                (pl.col("metric") == "throughput") & (pl.col("accelerator_count") > 0)
            ).then(pl.col("value") / pl.col("accelerator_count")),
        )
        .pipe(_identity_steps)
        .collect(engine=_ENGINE)
        .pipe(_with_occurrences)
    )
    failed = metrics["check"].is_not_null()
    good = metrics.select(DOCUMENT, *_OWN_MEASUREMENT_COLUMNS)
    if not failed.any():  # the usual case: nothing to set apart
        quarantine = _empty_document_quarantine()
    else:
        good = good.filter(~failed)
        bad = metrics.filter(failed).with_columns(reason=_reason())
        quarantine = _quarantine_rows(bad, data)
    unknown = _unknown_columns(cells, roles)
    return good, pl.concat([quarantine, unknown])


_METRIC_CELL_COLUMNS = (DOCUMENT, "table_index", "table_title", "row_number", "column_index",
                        "column_name", "raw_value", "line_number", "_role", "_row")


def _metric_cells(data: pl.DataFrame, roles: pl.DataFrame) -> pl.DataFrame:
    """The cells below the headers in metric columns that hold something, with their role
    (`metric`), their header's unit, and whether their table has a time-to-train or a
    latency cell (blank or not)."""
    cells = data.select(pl.col("_is_metric") & (pl.col("row_number") > 0)).to_series()
    metrics = data.select(_METRIC_CELL_COLUMNS)[cells.arg_true()]
    role = roles.select(pl.col("role").alias("metric"), "header_unit")[metrics["_role"]]
    metrics = metrics.hstack(role.get_columns())
    return metrics.with_columns(
        _in_tables_with(metrics, "time_to_train").alias("has_train_metric"),
        _in_tables_with(metrics, "latency").alias("has_latency_metric"),
    ).filter(~_blank(pl.col("raw_value")))


def _in_tables_with(metrics: pl.DataFrame, metric: str) -> pl.Expr:
    """Whether each row's table has a cell of `metric` (a missing key matches no table)."""
    packed = _Keys(metrics).packed(_TABLE_KEY)
    if packed is None:
        found = (pl.col("metric") == metric).any().over(_TABLE_KEY)
        return pl.col("table_index").is_not_null() & found
    table = packed[0]
    tables = metrics.filter(pl.col("metric") == metric).select(table.unique()).to_series()
    return table.is_in(tables.implode()).fill_null(False)


_CONTEXT_QUARANTINE_COLUMNS = ("document_sha256", "source_id")
# The quarantine columns normalization fills; the context's come from the caller.
_OWN_QUARANTINE_SCHEMA = {
    name: dtype for name, dtype in QUARANTINE_SCHEMA.items()
    if name not in _CONTEXT_QUARANTINE_COLUMNS
}


def _quarantine_rows(bad: pl.DataFrame, data: pl.DataFrame) -> pl.DataFrame:
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
