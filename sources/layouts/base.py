"""The contract every page layout fulfils: bytes in, located cells and page metadata out."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain, repeat

import polars as pl
from polars.datatypes import DataTypeClass

from perfledger.schemas.column_types import ColumnTypes

# One row per table cell, header cells included (row_number 0). Parsers build it with
# `cells_frame(...)` or `CellColumns` so that every layout hands the next stage the same
# typed frame.
CELL_SCHEMA: ColumnTypes = {
    "table_index": pl.Int32,  # 0-based order of the table in the document
    "table_title": pl.String,  # nearest heading above the table, as published (nullable)
    "table_note": pl.String,  # footnote text attached to the table (nullable)
    "row_number": pl.Int32,  # 0 = header row, 1.. = data rows in page order
    "column_index": pl.Int32,  # 0-based
    "column_name": pl.String,  # the header cell text of this column
    "raw_value": pl.String,  # the cell exactly as published; an empty cell keeps its text
    "line_number": pl.Int32,  # 1-based line of the source where the cell starts
}


def cells_frame(rows: list[tuple] | None = None) -> pl.DataFrame:
    """Build a cell frame from tuples ordered as CELL_SCHEMA's columns."""
    # Transposed to columns first: polars builds a frame from columns about twice as fast.
    columns = zip(*rows, strict=True) if rows else [[] for _ in CELL_SCHEMA]
    return pl.DataFrame(dict(zip(CELL_SCHEMA, map(list, columns), strict=True)), schema=CELL_SCHEMA)


class CellColumns:
    """A cell frame filled a row at a time but kept column by column: the values a row's
    cells share are repeated in C, and no per-cell tuple is built only to be transposed.

    A table's title, note and column names repeat in every cell: each is kept once, with a
    code per cell, and the frame's column is gathered from the distinct texts, so that its
    cells share one copy of the text (a page's notes, hundreds of characters repeated in
    each of its thousands of cells, would otherwise be copied into each, and into the bytes
    a reader process hands the run's process)."""

    _CODED = ("table_title", "table_note", "column_name")

    def __init__(self) -> None:
        self.columns: dict[str, list] = {name: [] for name in CELL_SCHEMA}
        self.texts: dict[str, list[str | None]] = {name: [] for name in self._CODED}

    def add_rows(
        self,
        table_index: int,
        table_note: str | None,
        column_names: list[str],
        row_titles: list[str | None],
        row_numbers: list[int],
        raw_values: list[str],
        line_numbers: list[int],
    ) -> None:
        """Rows of one table, each as wide as `column_names`: row i has row_titles[i] and
        row_numbers[i]; its cells are the next len(column_names) raw values and lines."""
        width = len(column_names)
        rows = len(row_numbers)
        count = rows * width
        columns = self.columns
        texts = self.texts
        columns["table_index"] += [table_index] * count
        titles = texts["table_title"]
        columns["table_title"] += _each_repeated(range(len(titles), len(titles) + rows), width)
        titles += row_titles
        notes = texts["table_note"]
        columns["table_note"] += [len(notes)] * count
        notes.append(table_note)
        columns["row_number"] += _each_repeated(row_numbers, width)
        columns["column_index"] += list(range(width)) * rows
        names = texts["column_name"]
        columns["column_name"] += list(range(len(names), len(names) + width)) * rows
        names += column_names
        columns["raw_value"] += raw_values
        columns["line_number"] += line_numbers

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame([self._series(name, dtype) for name, dtype in CELL_SCHEMA.items()])

    def rows(self) -> Iterator[tuple]:
        """The cells as tuples ordered as CELL_SCHEMA's columns."""
        return zip(*map(self._values, CELL_SCHEMA), strict=True)

    def _values(self, name: str) -> list:
        if name not in self.texts:
            return self.columns[name]
        return list(map(self.texts[name].__getitem__, self.columns[name]))

    def _series(self, name: str, dtype: pl.DataType | DataTypeClass) -> pl.Series:
        if name not in self.texts:
            return pl.Series(name, self.columns[name], dtype=dtype)
        codes = pl.Series(self.columns[name], dtype=pl.UInt32)
        # Indexing by a Series of indexes gathers in one call; Series.gather runs a query.
        return pl.Series(name, self.texts[name], dtype=dtype)[codes]


def _each_repeated(values: Iterable, times: int) -> Iterable:
    return chain.from_iterable(map(repeat, values, repeat(times)))  # no Python step per value


# The page's outline: its headings, paragraphs, table captions and tables in reading order,
# so that a value's labels can be taken from the heading above its table, the table's caption
# or the paragraph before it. Built with `outline_frame(...)`.
OUTLINE_SCHEMA: ColumnTypes = {
    "line_number": pl.Int32,  # 1-based line where the block starts
    "kind": pl.String,  # "heading", "paragraph", "caption", "table" or "links" (OUTLINE_KINDS)
    "level": pl.Int32,  # a heading's level, 1 (the page's title) to 6; null for other kinds
    "text": pl.String,  # the block as a reader sees it (markup gone); null for a table
    "table_index": pl.Int32,  # the table a "table", "caption" or "links" block is of; else null
}
# "links": the model files a table's cells link to, one a line (layouts/table_links.py)
OUTLINE_KINDS = ("heading", "paragraph", "caption", "table", "links")


def outline_frame(rows: list[tuple] | None = None) -> pl.DataFrame:
    """Build an outline frame from tuples ordered as OUTLINE_SCHEMA's columns."""
    columns = zip(*rows, strict=True) if rows else [[] for _ in OUTLINE_SCHEMA]
    return pl.DataFrame(
        dict(zip(OUTLINE_SCHEMA, map(list, columns), strict=True)), schema=OUTLINE_SCHEMA
    )


def outline_of(rows: list[tuple]) -> pl.DataFrame:
    """`outline_frame(rows)`, built from the rows as they are: polars takes the columns apart
    in Rust in a third of the time (0.06 ms for a page of 40 blocks), and a page's frame is
    built on every parse."""
    return pl.DataFrame(rows, schema=OUTLINE_SCHEMA, orient="row") if rows else outline_frame()


def as_caption(row: tuple, table_index: int) -> tuple:
    """An outline paragraph row made the caption of the table after it."""
    line, _kind, _level, text, _table = row
    return (line, "caption", None, text, table_index)


BOLD_LINE_LEVEL = 6  # a paragraph that is one bold run reads as the lowest heading


_EMPTY_OUTLINE = outline_frame()
# A BCP 47 language tag as pages declare it ("en", "de-DE", "pt_BR", "zh-Hant-TW").
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}")


def language_tag(value: str | None) -> str | None:
    """A declared language as a tag ("de-DE"), or None when `value` is no language tag (an
    empty lang="", a name such as "English", text made to look like one)."""
    if not value:
        return None
    value = value.strip()
    return value if _LANGUAGE_TAG.fullmatch(value) else None


@dataclass(frozen=True)
class ParseProblem:
    """Something a parser could not place: it becomes a quarantine row, never a silent drop."""

    check: str  # short machine name, e.g. "row_width_mismatch"
    reason: str  # a sentence a person can act on
    line_number: int | None = None
    table_index: int | None = None
    raw: str = ""  # the text concerned, as published


@dataclass(frozen=True)
class DocumentMetadata:
    title: str | None = None
    author: str | None = None
    published_date: str | None = None  # ISO date as stated by the page
    last_updated_date: str | None = None  # ISO date as stated by the page
    language: str | None = None  # the page's declared language ("en", "de-DE"), when it says


@dataclass
class ParsedDocument:
    """What a layout returns for one document version."""

    cells: pl.DataFrame
    metadata: DocumentMetadata = field(default_factory=DocumentMetadata)
    prose: list[tuple[int, str]] = field(default_factory=list)  # (line_number, paragraph)
    problems: list[ParseProblem] = field(default_factory=list)
    outline: pl.DataFrame = field(default_factory=lambda: _EMPTY_OUTLINE)

    @functools.cached_property
    def table_count(self) -> int:
        # Asked three times per document by the load stage. Counted in Python: polars'
        # n_unique hands the work to its thread pool and waits for it, about 0.2 ms a call in
        # a full run, where the readers keep both cores busy (a set of the column: 0.03 ms).
        return len(set(self.cells.get_column("table_index").to_list()))


@dataclass(frozen=True)
class Layout:
    """A page layout: `sniff` scores how well it fits (0 = not at all), `parse` reads it.

    `media_types` are what fetch asks servers for and keeps for this layout, each with its
    weight in the Accept header (1.0 the most wanted; None: kept when a server sends it, never
    asked for by name); `suffixes` are the file suffixes (".md") collect reads as this
    layout's pages, each with the media type it stands for. The layouts' registry
    (sources/layouts/__init__.py) gathers them, so a new layout declares them here only.

    `parse_utf8`, where a layout reads the page as UTF-8 bytes, is `parse` given the text's
    UTF-8 as well, when the page's bytes are just that: it spares encoding the text again."""

    name: str
    sniff: Callable[[bytes, str | None], float]
    parse: Callable[[str], ParsedDocument]
    media_types: Mapping[str, float | None] = field(default_factory=dict, compare=False)
    suffixes: Mapping[str, str] = field(default_factory=dict, compare=False)
    parse_utf8: Callable[[str, bytes], ParsedDocument] | None = field(default=None, compare=False)
