"""The tables of a chunk of documents read into values with their labels, at once.

Per table, in Python: which way round it reads (schemas/table_orientation.py) and what
each column is (schemas/table_plans.py), with what its context says
(schemas/context_labels.py). Per
distinct label cell, in Python: what it says (schemas/row_labels.py), and per row what its
table's context adds (schemas/row_context.py). Per cell, with polars:
everything else, since a page's cells number in the hundreds and a chunk's in the tens of
thousands, and a Python step per cell would cost more than the rest of the run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import polars as pl

from perfledger.schemas.cell_reading import COUNTED_CHIP_CELL, VALUE_NAME
from perfledger.schemas.chip_precisions import chip_precisions, with_chip_precisions
from perfledger.schemas.column_types import frame_of_rows
from perfledger.schemas.definition_tables import defined_headers
from perfledger.schemas.group_settings import with_group_batches
from perfledger.schemas.header_datasets import datasets_of_headers
from perfledger.schemas.header_reading import HeaderReading, read_header
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.named_cells import NAMED_NUMBER, names_its_metric
from perfledger.schemas.number_locale import COMMA_ONLY, POINT_ONLY, page_mark
from perfledger.schemas.placeholders import PLACEHOLDER_WORDS
from perfledger.schemas.precisions import states_dtype
from perfledger.schemas.result_columns import RESULT_COLUMN_SCHEMA, result_records
from perfledger.schemas.row_context import with_context_labels
from perfledger.schemas.row_groups import continued_groups, dittos_filled, sub_items_joined
from perfledger.schemas.row_labels import (
    CONTRIBUTION_SCHEMA,
    ROW_KEY,
    SECTION_SCHEMA,
    TABLE_KEY,
    UNIT_FIELDS,
    contribution,
    rows_frame,
)
from perfledger.schemas.row_metrics import with_annotations, with_row_metrics
from perfledger.schemas.scored_datasets import with_scored_metric
from perfledger.schemas.section_rows import sections
from perfledger.schemas.setup_tables import RESULT_KINDS, SETUP_COLUMNS, mostly_text, setup_tables
from perfledger.schemas.spanned_labels import joined_spans
from perfledger.schemas.table_context import TableContext, paragraphs_of, table_contexts
from perfledger.schemas.table_orientation import HeaderRow, Oriented, names_header, oriented
from perfledger.schemas.table_plans import (
    ColumnStats,
    TablePlan,
    TableShape,
    header_reading,
    plan_table,
)
from perfledger.schemas.table_subject import NOTHING, TableSubject, table_subject
from perfledger.schemas.units import (
    TRAILING_UNIT,
    is_byte_size,
    measures_time_or_rate,
    unit_named,
)
from perfledger.schemas.value_reading import read_values, shifted_precision

NOTE_MATCH_RATIO = 0.8  # how alike a footnote's subject and a row's label must be
_LANGUAGE_PARAGRAPHS = 200  # of a page's prose read to tell its language
_TABLE = TABLE_KEY
_ROW = ROW_KEY
_COLUMN = [*TABLE_KEY, "vcol"]
_PUBLISHED_ROW = [*TABLE_KEY, "row_number"]  # a row as published, whichever way it is read
_BLANK = r"^[\s\u00a0\u200b\ufeff]*$"
# A cell starting with a number, or with a score after its name ("top1：78.48%", "Acc@1=76.1",
# as schemas/cell_reading.py reads them): a setting's whole number ("bs=8") is no score. A
# bound in words ("Up to ~1.3x") starts a number too: its column holds figures, set apart.
_NUMERIC_START = (
    r"^\s*(?:(?i:up to|at least|at most|more than|less than)\s+)?"
    r"(?:[~\u2248<>\u2264\u2265]?\s*[+\u2212-]?(?:\d|[.,]\d)"  # \u2212: the minus sign
    rf"|{VALUE_NAME}\s?[:=\uff1a]\s*[~+-]?\d+(?:[.,]\d|\s?%))"
)
_PLACEHOLDER = rf"(?i)^\s*(?:{PLACEHOLDER_WORDS})\s*$"
# A duration written in parts ("46m12s", "1h 05m"): a number with units of time after it.
_IN_PARTS = r"^\s*~?\d+\s*(?:d|h|hrs?|m|mins?)\s*\d+(?:\.\d+)?\s*(?:h|m|mins?|s|secs?)?\s*$"
# A calendar date, maybe with its time ("2023-11-27 21:42:38", "2024/03/05"): it starts with
# digits but is when a run was made, never a value.
_DATE = (
    r"^\s*(?:19|20)\d{2}(?:-(?:0?[1-9]|1[0-2])-|/(?:0?[1-9]|1[0-2])/|\.(?:0?[1-9]|1[0-2])\.)"
    r"(?:0?[1-9]|[12]\d|3[01])"
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?\s*$"
)
# A file's name ("320_320_eyenix_model_v1.onnx", "yolov5s-640.rknn") under a download link: it
# may start with digits but is what to fetch, never a value. Its stem holds a letter or an
# underscore ("1.e5" is a number); its extension starts with a letter.
_FILE_NAME = r"^\s*[\w+-]*[_A-Za-z][\w+-]*(?:\.[\w+-]+)*\.[A-Za-z][A-Za-z0-9]{1,9}\s*$"
_UNIT_CANDIDATE_CHARS = 24  # a cell longer than this is no unit
_WIDTH_IN_BITS = r"(?i)^\s*\d{1,2}[ -]?bits?\b"
# The dtypes a row's precision cell or its other label cells give (schemas/row_labels.py).
_ROW_PRECISIONS = ("rq_act", "rq_wt", "fq_act", "fq_wt")


@dataclass
class ChunkReading:
    values: pl.DataFrame | None  # one row per value that reads, with every label field
    problems: list[tuple[int, dict]]  # (document, quarantine fields) per cell that did not


@dataclass(frozen=True)
class DocumentPlans:
    """What `read_chunk` decides of one document's tables before reading their cells: the
    tables read turned around, and the plan and subject of each table holding results."""

    turned: tuple[int, ...]
    plans: dict[int, TablePlan]
    subjects: dict[int, TableSubject]


class _Page(NamedTuple):
    """What planning reads of a document's context (see normalize.DocumentContext)."""

    outline: pl.DataFrame | None
    document_title: str | None
    language: str | None
    source_id: str | None


class _Readings:
    """Header readings numbered, so that frames refer to them by a small integer."""

    def __init__(self) -> None:
        self.readings: list[HeaderReading] = []
        self._ids: dict[int, int] = {}
        self._by_value: dict[HeaderReading, int] = {}

    def id_of(self, reading: HeaderReading) -> int:
        # By identity first: a header's reading is memoized, so one text gives one object,
        # and hashing a reading costs far more than its id. Plans made in reader processes
        # bring a copy per document: those are told apart by value, once per copy.
        found = self._ids.get(id(reading))
        if found is None:
            found = self._by_value.get(reading)
            if found is None:
                found = self._by_value[reading] = len(self.readings)
                self.readings.append(reading)
            self._ids[id(reading)] = found
        return found


def read_chunk(documents: list, mappings: LabelMappings) -> ChunkReading:
    """The values and problems of the tables of `documents` ((cells, DocumentContext) pairs);
    every row says which document it came from by its position. A document whose context
    carries its plans (`plan_document`, made where it was read) is not planned again."""
    present = [(index, cells) for index, (cells, _context) in enumerate(documents) if cells.height]
    if not present:
        return ChunkReading(None, [])
    planned = {
        index: context.plans
        for index, (_cells, context) in enumerate(documents)
        if getattr(context, "plans", None) is not None
    }
    # Whether a cell starts as a number only tells how a table reads and what its columns
    # are: documents planned where they were read need no more of it.
    to_plan = any(index not in planned for index, _cells in present)
    cells, headers = _oriented(_prepared(present, numeric=to_plan), mappings, planned)
    plans, subjects = _plans(cells, documents, mappings, planned, headers)
    if not plans:
        return ChunkReading(None, [])
    readings = _Readings()
    label_columns, result_columns = _column_frames(plans, subjects, readings, mappings)
    rows = _rows(cells, label_columns, plans, readings, mappings)
    return _values(cells, result_columns, rows, plans, mappings)


class PageToPlan(NamedTuple):
    """What `plan_documents` reads of one document: its cells and what its context says."""

    cells: pl.DataFrame
    outline: pl.DataFrame | None
    title: str | None
    language: str | None
    source_id: str | None


def plan_document(
    cells: pl.DataFrame,
    outline: pl.DataFrame | None,
    title: str | None,
    language: str | None,
    source_id: str | None,
    mappings: LabelMappings,
) -> DocumentPlans:
    """The plans `read_chunk` would make for one document's tables, made where the document
    is read: a reader process plans its pages while the chunk's process reads the values of
    the pages read before, rather than planning every table of a chunk itself."""
    return plan_documents([PageToPlan(cells, outline, title, language, source_id)], mappings)[0]


def plan_documents(pages: list[PageToPlan], mappings: LabelMappings) -> list[DocumentPlans]:
    """`plan_document` of each of `pages`, made together: each polars query runs once for
    all their tables, as `read_chunk` plans a chunk, rather than once per page."""
    present = [(index, page.cells) for index, page in enumerate(pages) if page.cells.height]
    if not present:
        return [DocumentPlans((), {}, {}) for _page in pages]
    prepared, headers = _oriented(_prepared(present), mappings, {})
    turned: dict[int, list[int]] = {}
    if "_corner" in prepared.columns:
        corners = prepared.filter(pl.col("_corner")).select("document", "table_index")
        for document, table in corners.iter_rows():
            turned.setdefault(document, []).append(table)
    plans, subjects = _plans(
        prepared,
        [
            (page.cells, _Page(page.outline, page.title, page.language, page.source_id))
            for page in pages
        ],
        mappings,
        {},
        headers,
    )
    made = [DocumentPlans(tuple(turned.get(index, ())), {}, {}) for index in range(len(pages))]
    for (document, table), plan in plans.items():
        # numbered as the one document planned, as `plan_document` numbers it
        shape = replace(plan.shape, document=0) if document else plan.shape
        made[document].plans[table] = replace(plan, shape=shape) if document else plan
        made[document].subjects[table] = subjects[(document, table)]
    return made


def _prepared(present: list[tuple[int, pl.DataFrame]], numeric: bool = True) -> pl.DataFrame:
    """The cells of the documents present, with their document's index, their shape and
    their place (`vrow`, `vcol`) as published. `numeric`: whether to say which cells start
    as a number (`_numeric`), which only planning reads."""
    raw = pl.col("raw_value")
    blank = raw.str.contains(_BLANK)
    starts = (
        {
            "_numeric": raw.str.contains(_NUMERIC_START)
            & ~raw.str.contains(_DATE)
            & ~raw.str.contains(f"{_FILE_NAME}|{COUNTED_CHIP_CELL}")
        }
        if numeric
        else {}
    )
    return (
        pl.concat([frame for _index, frame in present], rechunk=True)
        if len(present) > 1
        else present[0][1]
    ).with_columns(
        _document_indexes(present),
        _blank=blank,
        **starts,
        _filled=~blank & ~raw.str.contains(_PLACEHOLDER),
        # each cell where it stands read as published; `_oriented` moves those of the
        # tables it turns around
        vrow=pl.col("row_number"),
        vcol=pl.col("column_index"),
    )


def _document_indexes(present: list[tuple[int, pl.DataFrame]]) -> pl.Series | pl.Expr:
    """The `document` column: each document's index once per row of its cells."""
    if len(present) == 1:  # a document planned alone: its index, broadcast
        return pl.lit(present[0][0], dtype=pl.Int32).alias("document")
    indexes = pl.Series([index for index, _frame in present], dtype=pl.Int32)
    heights = pl.Series([frame.height for _index, frame in present])
    return pl.select(pl.lit(indexes).repeat_by(heights).explode().alias("document")).to_series()


# ---- which way round, and what each column is -------------------------------------------------


def _oriented(
    cells: pl.DataFrame, mappings: LabelMappings, planned: dict[int, DocumentPlans]
) -> Oriented:
    """`cells` with `vrow` and `vcol` (schemas/table_orientation.py); for a document
    `planned`, the tables its plans say are turned."""
    turned = [(document, table) for document, plans in planned.items() for table in plans.turned]
    return oriented(cells, mappings, turned, list(planned))


def _plans(
    cells: pl.DataFrame,
    documents: list,
    mappings: LabelMappings,
    planned: dict[int, DocumentPlans],
    headers: list[HeaderRow] | None = None,
) -> tuple[dict[tuple[int, int], TablePlan], dict[tuple[int, int], TableSubject]]:
    """The plan of each table holding a result column, and what the table is about where
    its rows and columns do not say (schemas/table_subject.py), in the documents' order;
    a document `planned` gives its own. `headers`: the header rows `_oriented` found."""
    if len(planned) == len(documents):
        return _planned(planned)
    unplanned = cells.filter(~pl.col("document").is_in(list(planned))) if planned else cells
    plans, subjects = _plans_of(unplanned, documents, mappings, headers)
    if not planned:
        return plans, subjects
    made, made_subjects = _planned(planned)
    order = sorted({*plans, *made})  # documents in order, then their tables
    return (
        {key: plans[key] if key in plans else made[key] for key in order},
        {key: subjects[key] if key in subjects else made_subjects[key] for key in order},
    )


def _planned(
    planned: dict[int, DocumentPlans],
) -> tuple[dict[tuple[int, int], TablePlan], dict[tuple[int, int], TableSubject]]:
    plans, subjects = {}, {}
    for document in sorted(planned):
        for table, plan in planned[document].plans.items():
            plans[(document, table)] = plan
            subjects[(document, table)] = planned[document].subjects[table]
    return plans, subjects


def _plans_of(
    cells: pl.DataFrame, documents: list, mappings: LabelMappings, headers: list[HeaderRow] | None
) -> tuple[dict[tuple[int, int], TablePlan], dict[tuple[int, int], TableSubject]]:
    shapes = _shapes(cells, headers)
    by_document: dict[int, list[TableShape]] = {}
    marks: dict[int, list[int]] = {}
    for shape in shapes:
        by_document.setdefault(shape.document, []).append(shape)
        counted = marks.setdefault(shape.document, [0, 0])
        counted[0] += sum(stats.point for stats in shape.stats)
        counted[1] += sum(stats.comma for stats in shape.stats)
    # Only a narrow table, or one of few numbers, may list settings: most chunks hold none.
    wide = frozenset(
        (shape.document, shape.table_index)
        for shape in shapes
        if len(shape.headers) > SETUP_COLUMNS and not shape.turned and mostly_text(shape.stats)
    )
    setups = (
        setup_tables(cells, mappings, wide)
        if wide or any(len(shape.headers) <= SETUP_COLUMNS for shape in shapes)
        else {}
    )
    defined = defined_headers(
        cells,
        {
            (shape.document, shape.table_index): tuple(
                text for text in shape.headers if header_reading(text, mappings).kind is None
            )
            for shape in shapes
        },
        lambda text: header_reading(text, mappings).kind in RESULT_KINDS,
    )
    plans, subjects = {}, {}
    for document, found in by_document.items():
        _cells, context = documents[document]
        contexts = table_contexts(
            context.outline,
            context.document_title,
            {shape.table_index: shape.title for shape in found},
            {table: rows for (at, table), rows in setups.items() if at == document},
            defined.get(document),
        )
        paragraphs = paragraphs_of(context.outline, _LANGUAGE_PARAGRAPHS)
        point, comma = marks.get(document, (0, 0))
        decimal = page_mark(point, comma, _language(context, mappings), paragraphs)
        for shape in found:
            if (document, shape.table_index) in setups:
                continue  # its numbers are settings, and its rows context of the tables near
            table_context = contexts.get(shape.table_index, _NO_CONTEXT)
            plan = plan_table(shape, table_context, decimal, mappings)
            if plan is not None:
                plans[(document, shape.table_index)] = plan
                subjects[(document, shape.table_index)] = table_subject(
                    table_context, shape.headers, context.source_id, shape.table_index, mappings
                )
    return plans, subjects


_NO_CONTEXT = TableContext(())


def _language(context, mappings: LabelMappings) -> str | None:
    """The page's language: the one its user recorded for its source, else its own."""
    mapped = mappings.get("source", context.source_id)
    return mapped["language"] if mapped and mapped.get("language") else context.language


def _shapes(cells: pl.DataFrame, published: list[HeaderRow] | None) -> list[TableShape]:
    """The shape of each table of `cells`; `published`, when given, its header row as
    published (no table of `cells` is turned around)."""
    headers = (
        _oriented_headers(cells)
        if published is None
        else [(row, False) for row in published]  # none turned
    )
    # "TTFT: 27.0s", "text:292": a figure after its name, matched once for both counts below
    body = cells.filter(pl.col("vrow") > 0).with_columns(
        _named_shape=pl.col("raw_value").str.contains(NAMED_NUMBER)
    )
    # The distinct texts alone: filtering the whole frame would copy every column of it.
    texts = set(
        cells.select(
            pl.col("raw_value")
            .filter(
                (pl.col("vrow") > 0)
                & pl.col("_filled")
                & ~pl.col("_numeric")
                & (pl.col("raw_value").str.len_chars() <= _UNIT_CANDIDATE_CHARS)
            )
            .unique()
        )
        .to_series()
        .to_list()
    )
    units = [text for text in texts if unit_named(text) is not None]
    # A width in bits starts as a number ("8-bit", "4-bit (G=32)") and is a precision label.
    widths = body.filter(
        pl.col("_numeric") & pl.col("raw_value").str.contains(_WIDTH_IN_BITS)
    ).get_column("raw_value")
    precisions = [text for text in {*texts, *widths} if states_dtype(text)]
    named = [
        text
        for text in body.filter(pl.col("_filled") & pl.col("_named_shape"))
        .get_column("raw_value")
        .unique()
        .to_list()
        if names_its_metric(text)
    ]
    # "~175 s", "40 fps": a number with a unit of time or rate after it; "46m12s" in parts
    trailing = pl.col("raw_value").str.extract(TRAILING_UNIT, 1)
    ends = body.filter(pl.col("_numeric")).select(trailing.unique()).to_series().to_list()
    measured = [text for text in ends if text and measures_time_or_rate(text)]
    sized = [text for text in ends if text and is_byte_size(text)]  # "9.23 GB"
    # Only a cell that starts as a number may show a decimal mark.
    numeric = pl.col("_numeric")
    stats = body.group_by(_COLUMN).agg(
        pl.col("_filled").sum().alias("filled"),
        (pl.col("_filled") & numeric).sum().alias("numeric"),
        (pl.col("_filled") & pl.col("raw_value").is_in(units)).sum().alias("units"),
        (numeric & pl.col("raw_value").str.contains(POINT_ONLY)).sum().alias("point"),
        (numeric & pl.col("raw_value").str.contains(COMMA_ONLY)).sum().alias("comma"),
        (pl.col("_filled") & pl.col("raw_value").is_in(named)).sum().alias("named"),
        (pl.col("_filled") & pl.col("raw_value").is_in(precisions)).sum().alias("precisions"),
        (numeric & pl.col("raw_value").str.strip_chars().is_in(["0", "1"])).sum().alias("flags"),
        (numeric & (pl.col("raw_value").str.strip_chars() == "0")).sum().alias("zeros"),
        (numeric & (trailing.is_in(measured) | pl.col("raw_value").str.contains(_IN_PARTS)))
        .sum()
        .alias("measured"),
        (numeric & trailing.is_in(sized)).sum().alias("sized"),
        pl.col("_named_shape").sum().alias("labelled"),
    )
    by_column = {(d, t, c): _column_stats(*counts) for d, t, c, *counts in stats.iter_rows()}
    shapes = []
    for (document, table, header, vcols, title, note), turned in headers:
        shapes.append(
            TableShape(
                document,
                table,
                title,
                note,
                tuple(header),
                tuple(by_column.get((document, table, column), ColumnStats()) for column in vcols),
                turned,
            )
        )
    return shapes


def _oriented_headers(cells: pl.DataFrame) -> list[tuple[HeaderRow, bool]]:
    """(header row, turned) of each table in the orientation read: a turned table's header
    is its first column, its corner blank."""
    corner = pl.col("_corner") if "_corner" in cells.columns else pl.lit(False)
    named = [text for text in cells.filter(corner)["raw_value"].unique() if names_header(text)]
    grouped = (
        cells.filter(pl.col("vrow") == 0)
        .group_by(_TABLE, maintain_order=True)
        .agg(
            pl.when(corner & ~pl.col("raw_value").is_in(named))
            .then(pl.lit(""))
            .otherwise(pl.col("raw_value"))
            .sort_by("vcol"),
            pl.col("vcol").sort().alias("vcols"),
            pl.col("table_title").first().alias("title"),
            pl.col("table_note").first().alias("note"),
            corner.any().alias("turned"),
        )
    )
    return [(HeaderRow(*fields[:-1]), bool(fields[-1])) for fields in grouped.iter_rows()]


@lru_cache(maxsize=4096)
def _column_stats(*counts: int) -> ColumnStats:
    return ColumnStats(*counts)  # columns repeat their counts


# ---- the columns' plans as frames -------------------------------------------------------------


def _column_frames(
    plans: dict[tuple[int, int], TablePlan],
    subjects: dict[tuple[int, int], TableSubject],
    readings: _Readings,
    mappings: LabelMappings,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(label columns with the id of their reading, result columns with their plan)."""
    labels, results = [], []
    for (document, table), plan in plans.items():
        for column in plan.columns:
            if column.role in ("label", "config", "reference"):
                labels.append((document, table, column.column, readings.id_of(column.reading)))
        results += result_records(
            document, table, plan, subjects.get((document, table), NOTHING), mappings
        )
    label_frame = frame_of_rows(
        labels,
        {"document": pl.Int32, "table_index": pl.Int32, "vcol": pl.Int32, "reading_id": pl.Int32},
    )
    return label_frame, frame_of_rows(results, RESULT_COLUMN_SCHEMA)


# ---- rows -------------------------------------------------------------------------------------


def _rows(
    cells: pl.DataFrame,
    label_columns: pl.DataFrame,
    plans: dict[tuple[int, int], TablePlan],
    readings: _Readings,
    mappings: LabelMappings,
) -> pl.DataFrame:
    """What each row's label cells, its section row and its table's footnote say of it."""
    label_cells = continued_groups(
        sub_items_joined(
            dittos_filled(
                cells.filter(pl.col("vrow") > 0).join(
                    label_columns, on=_COLUMN, how="inner", maintain_order="left"
                )
            )
        )
    )
    label_cells = joined_spans(label_cells, label_columns, readings.readings)
    pairs = label_cells.select("reading_id", "raw_value").unique().with_row_index("said", offset=0)
    said = frame_of_rows(
        [
            contribution(readings.readings[reading_id], raw, mappings)
            for _index, reading_id, raw in pairs.iter_rows()
        ],
        CONTRIBUTION_SCHEMA,
    )
    # In column order: a row takes a label from the first of its cells that states it.
    in_order = (
        label_cells.select(*_ROW, "vcol", "reading_id", "raw_value")
        .sort([*_ROW, "vcol"])
        .join(pairs, on=["reading_id", "raw_value"], how="left", maintain_order="left")
    )
    rows = rows_frame(in_order, said)
    rows = rows.rename({f"u_{name}": f"r_{name}" for name in UNIT_FIELDS})
    return with_context_labels(rows, plans)


# ---- values -------------------------------------------------------------------------------------


def _with_precision_column(plans: dict[tuple[int, int], TablePlan]) -> pl.DataFrame:
    """The tables with a column of precisions: only in them can a row's precision have
    shifted into a result column."""
    found = [
        (document, table)
        for (document, table), plan in plans.items()
        if any(
            column.role == "label" and column.reading.role == "precision" for column in plan.columns
        )
    ]
    return pl.DataFrame(
        found, schema={"document": pl.Int32, "table_index": pl.Int32}, orient="row"
    ).with_columns(_precision_column=pl.lit(True))


def _values(
    cells: pl.DataFrame,
    result_columns: pl.DataFrame,
    rows: pl.DataFrame,
    plans: dict[tuple[int, int], TablePlan],
    mappings: LabelMappings,
) -> ChunkReading:
    results = cells.filter((pl.col("vrow") > 0) & ~pl.col("_blank")).join(
        result_columns, on=_COLUMN, how="inner"
    )
    if results.height == 0:
        return ChunkReading(None, [])
    results = results.join(rows, on=_ROW, how="left").with_columns(
        # a setting's value heading the column ("8" under "Batch size") where the row states none
        pl.coalesce("batch_size", "hs_batch").alias("batch_size"),
        pl.coalesce("batch_size_number", "hs_batch_number").alias("batch_size_number"),
        _joined("settings", "hs_settings", "; "),
        # what a turned table's metric row says besides its metric ("Prefill token/s")
        _joined("variant", "h_variant", " / "),
    )
    results = with_group_batches(results, cells, plans, mappings)
    found = sections(cells)
    if found is not None:
        results = results.join(found, on=_PUBLISHED_ROW, how="left")
    else:
        results = results.with_columns(
            pl.lit(None, dtype=dtype).alias(name) for name, dtype in SECTION_SCHEMA.items()
        )
    results = with_chip_precisions(results, chip_precisions(plans))
    # A section row's variant ("6 experts V0.2.0") goes before what the row says of its own.
    results = results.with_columns(
        _joined("s_variant", "variant", " / ").alias("variant"),
        pl.coalesce("dataset", "s_dataset", datasets_of_headers(results)).alias("dataset"),
    )
    results = with_scored_metric(
        with_row_metrics(with_annotations(cells, results, mappings), mappings)
    ).with_columns(
        # A heading's or caption's dataset ("Cityscapes", "... and ShareGPT dataset:") says
        # what the values were measured on, not what they measure: it names no score.
        pl.coalesce("dataset", "x_dataset").alias("dataset")
    )
    # A cell of a column whose metric nothing names is read all the same: a unit in it may
    # name one ("5.7 hours", "8,395 ms"); the others are set apart below.
    # A result reading like a precision label ("16.32") is the row's precision shifted into
    # it only where the row's own cells give no precision: beside "16.16" it is a value.
    # In a table without a column of precisions, "8.32" is a value like its neighbours
    # ("8.33" GB): nothing could have shifted.
    results = results.join(
        _with_precision_column(plans), on=_TABLE, how="left", maintain_order="left"
    )
    looks_shifted = (
        pl.col("metric").ne_missing("eval_metric")
        & shifted_precision()
        & pl.all_horizontal(pl.col(name).is_null() for name in _ROW_PRECISIONS)
        & pl.col("_precision_column").fill_null(False)
    )
    # Each filter of the values copies all their columns: none where no cell looks shifted
    # (the usual case), and the values that read are filtered once.
    shifted_cells = results.select(looks_shifted & pl.col("metric").is_not_null()).to_series()
    results = results.drop("_precision_column")
    if shifted_cells.any() or shifted_cells.null_count():
        shifted = results.filter(shifted_cells)
        results = results.filter(~shifted_cells)
    else:
        shifted = results.clear()
    values = read_values(results, mappings)
    unknown = values.filter(pl.col("metric").is_null()).unique(
        ["document", "table_index", "row_number", "column_index"], keep="first", maintain_order=True
    )
    failed = values.filter(pl.col("metric").is_not_null() & pl.col("problem").is_not_null())
    values = values.filter(pl.col("metric").is_not_null() & pl.col("problem").is_null())
    problems = (
        _problems(cells, unknown.filter(pl.col("_filled")), "unknown_metric")
        + _problems(cells, shifted, "shifted_cells")
        + _problems(cells, failed, None)
        + _problems(cells, _second_figures(values, mappings), "second_value_not_read")
    )
    return ChunkReading(values, problems)


def _joined(first: str, second: str, separator: str) -> pl.Expr:
    """Two label fields as one, either alone when the other is null, null when both are;
    named as the first."""
    return (
        pl.concat_str(first, second, separator=separator, ignore_nulls=True)
        .replace("", None)
        .alias(first)
    )


def _second_figures(values: pl.DataFrame, mappings: LabelMappings) -> pl.DataFrame:
    """The values read (none with a problem) whose cell also holds a figure of a metric of
    its own beside them ("1.41s (1.16x speedup)"): that figure is no value read, and is set
    apart with the cell rather than left unsaid. A note without a metric ("$320", "thr=3") is
    the value's qualifier only, and so is a value's name ("top1", "Acc@1", "Top-1",
    "AP@0.5:0.95"), whose digits stand in a word."""
    # A colon between digits stands in a name too ("AP@0.5:0.95": AP over IoU 0.5 to 0.95).
    read = values.filter(
        pl.col("qualifier").str.contains(r"(?:^|[^\w@.:-]|(?:^|\D):)\d|(?:^|[^A-Za-z])-\d")
    )
    # Figures left where a unit would stand ("15.76 s · 153.9 · 66.5k"): no unit, more values.
    in_rest = values.filter(pl.col("rest").str.contains(_FIGURE_AFTER_SEPARATOR))
    if read.height == 0:
        return in_rest
    distinct = read.get_column("qualifier").unique().to_list()
    figures = [text for text in distinct if header_reading(text, mappings).kind == "metric"]
    named = read.filter(pl.col("qualifier").is_in(figures)).with_columns(
        pl.col("qualifier").alias("rest")
    )
    return pl.concat([named, in_rest]) if in_rest.height else named


_FIGURE_AFTER_SEPARATOR = r"(?:^|\s)[\u00b7|/;,]\s*[-+]?\d"


# ---- what did not read --------------------------------------------------------------------------


def _problems(
    cells: pl.DataFrame, failed: pl.DataFrame, check: str | None
) -> list[tuple[int, dict]]:
    """A quarantine entry per value that did not read, with its whole published row."""
    if failed.height == 0:
        return []
    keys = failed.select("document", "table_index", "row_number").unique()
    published = (
        cells.join(keys, on=["document", "table_index", "row_number"], how="semi")
        .sort("column_index")
        .group_by(["document", "table_index", "row_number"])
        .agg(pl.col("column_name"), pl.col("raw_value"))
    )
    raw_rows = {
        (d, t, r): json.dumps(dict(zip(names, values, strict=True)), ensure_ascii=False)
        for d, t, r, names, values in published.iter_rows()
    }
    found = []
    for row in failed.iter_rows(named=True):
        name = check or row["problem"]
        found.append(
            (
                row["document"],
                {
                    "check": name,
                    "reason": _reason(name, row),
                    "table_index": row["table_index"],
                    "table_title": row["table_title"],
                    "row_number": row["row_number"],
                    "column_name": row["column_name"],
                    "raw_value": row["raw_value"],
                    "raw_row": raw_rows.get(
                        (row["document"], row["table_index"], row["row_number"])
                    ),
                    "line_number": row["line_number"],
                },
            )
        )
    return found


def _reason(check: str, row: dict) -> str:
    metric, text = row.get("metric"), row["raw_value"]
    rest = row.get("rest")
    if check == "unknown_metric" and read_header(row["column_name"] or "").alternatives:
        return (
            f"column '{row['column_name']}' names more than one metric over one number and "
            "states no unit: which one it holds is ambiguous; teach it with "
            f'`perfledger map-label column "{row["column_name"]}" --set role=<metric>`'
        )
    if check == "unknown_metric":
        return (
            f"column '{row['column_name']}' names no metric and neither does its table; "
            f'teach it with `perfledger map-label column "{row["column_name"]}" --set '
            "role=<metric>`"
        )
    if check == "second_value_not_read":
        return (
            f"'{text}' holds a second figure, '{rest}', beside its {metric} value; the "
            f"{metric} value loaded, the second figure was not read as a value of its own"
        )
    if check == "shifted_cells":
        return f"{metric} '{text}' reads like a precision label: the row's cells look shifted"
    if check == "unknown_unit":
        return (
            f"unit '{rest}' of '{text}' is not in schemas/vocab/units.csv; teach it with "
            f'`perfledger map-label unit "{rest}" --set kind=...`'
        )
    if check == "unit_not_stated":
        return (
            f"{metric} '{text}' has no unit in its cell, its column, its row or above its "
            "table; it was not read rather than guessed"
        )
    if check == "unit_metric_mismatch":
        return (
            f"unit '{row.get('u_alias')}' is a {row.get('u_kind')}, which {metric} is not "
            "measured in"
        )
    return {
        "placeholder_value": f"no value published for {metric}: '{text}'",
        "ambiguous_number": (
            f"'{text}' reads two ways (a thousands separator or a decimal "
            "mark) and neither its column, its page nor the page's language "
            "says which; it was not read. Where the page's language is known, "
            "record it with `perfledger map-label source SOURCE_ID --set "
            "language=en` and run `perfledger reprocess`"
        ),
        "bound_value": f"'{text}' is a bound, not a value of {metric}",
        "range_value": f"'{text}' is a range, not one value of {metric}",
        "sum_value": f"'{text}' is a sum of parts, not one value of {metric}",
        "non_finite_value": f"{metric} '{text}' is not a finite number",
        "non_positive_value": f"{metric} must be positive, got '{text}'",
    }.get(check, f"cannot read '{text}' as a {metric} value")
