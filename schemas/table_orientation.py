"""Which way round each table of a chunk's cells reads, and its header row.

A table whose metrics stand in its first column ("Throughput (sequences/sec) | 3265.35 |
...") and whose header names none is read turned around: each cell is given the row and
column it stands in once turned (`vrow`, `vcol`). A page's header rows, a few cells each, are
grouped in Python; the first columns of the tables that may be turned, in one query.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

import polars as pl

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.row_labels import TABLE_KEY
from perfledger.schemas.table_plans import header_reading, names_base_metric, transposed

_TABLE = TABLE_KEY


class Oriented(NamedTuple):
    cells: pl.DataFrame  # with `vrow` and `vcol`
    # The header row of each table of the documents not planned, as a table's shape reads it,
    # when none of those tables is turned around (the header row is then read as published).
    headers: list[HeaderRow] | None


def oriented(
    cells: pl.DataFrame,
    mappings: LabelMappings,
    turned_before: list[tuple[int, int]],
    planned: list[int],
) -> Oriented:
    """`cells` with `vrow` and `vcol`: the row and column each cell stands in once every
    table whose metrics stand in its first column is turned around. The documents
    `planned` are not read again: `turned_before` gives their tables turned."""
    turned = list(turned_before)
    unplanned = cells.filter(~pl.col("document").is_in(planned)) if planned else cells
    headers = header_rows(unplanned)
    # Only a table whose header names no metric may be turned: its first column is read.
    candidates = [
        (document, table)
        for document, table, header, *_rest in headers
        if not _header_names_results(header, mappings)
    ]
    planned_turns = len(turned)
    if candidates:
        header_of = {(document, table): header for document, table, header, *_rest in headers}
        for document, table, first, numeric, row_numbers in _first_columns(cells, candidates):
            if len(first) != len(row_numbers):
                continue  # a row without a first cell: read as published
            if transposed(header_of[(document, table)], first, numeric, mappings):
                turned.append((document, table))
    read_as_published = headers if len(turned) == planned_turns else None
    if not turned:
        return Oriented(cells, headers)
    turned_frame = pl.DataFrame(
        turned, schema={"document": pl.Int32, "table_index": pl.Int32}, orient="row"
    ).with_columns(_turned=pl.lit(True))
    cells = cells.join(turned_frame, on=_TABLE, how="left", maintain_order="left")
    is_turned = pl.col("_turned").fill_null(False)
    oriented = cells.with_columns(
        vrow=pl.when(is_turned).then(pl.col("column_index")).otherwise(pl.col("row_number")),
        vcol=pl.when(is_turned).then(pl.col("row_number")).otherwise(pl.col("column_index")),
        # A turned table's top-left cell named the column of metric names ("Metric").
        _corner=is_turned & (pl.col("row_number") == 0) & (pl.col("column_index") == 0),
    ).drop("_turned")
    return Oriented(oriented, read_as_published)


# Settings whose values a header row may list, one a column ("GPU Number | 8 | 16 | 32",
# "num_threads | 1 | 2 | 3 | 4"); a corner naming another role ("Parameters | T-GCN (1GPU) |
# T-GCN (8GPU)") heads the first column.
_HEADER_SETTINGS = ("accelerator_count", "nodes", "batch_size", "sequence_length", "setting")


def names_header(corner: str) -> bool:
    """Whether a turned table's top-left cell names what its header cells are ("GPU Number |
    8 | 16 | 32" over rows of TGS and TFLOPS: GPU counts), not the column of metric names it
    stands over: the cells of its header row become the turned table's first column."""
    reading = read_header(corner)
    return reading.kind == "config" and reading.role in _HEADER_SETTINGS


def _first_columns(cells: pl.DataFrame, tables: list[tuple[int, int]]):
    """(document, table, first column's body cells, whether each row holding other cells
    starts a third at least of its filled ones with a number, those rows' numbers) of each of `tables`, rows in order: a
    table without such a row or without a first column gives lists of different lengths."""
    by_document: dict[int, list[int]] = {}
    for document, table in tables:
        by_document.setdefault(document, []).append(table)
    wanted = pl.any_horizontal(
        (pl.col("document") == document) & pl.col("table_index").is_in(indexes)
        for document, indexes in by_document.items()
    )
    others = pl.col("column_index") > 0
    numbers = pl.col("_numeric") & others
    rows = (
        cells.filter(wanted & (pl.col("row_number") > 0))
        .group_by([*_TABLE, "row_number"])
        .agg(
            pl.col("raw_value").filter(pl.col("column_index") == 0).alias("first"),
            # "Low Latency | Single-node | 16 (A3) | bfloat16 | Reduce ...": a row of words
            # with a number among them names a scenario, not the metric of its cells
            (numbers.any() & (numbers.sum() * 3 >= (pl.col("_filled") & others).sum())).alias(
                "numeric"
            ),
            others.any().alias("others"),
        )
        .sort("row_number")
    )
    return (
        rows.group_by(_TABLE)
        .agg(
            pl.col("first").list.explode(keep_nulls=False, empty_as_null=False),
            pl.col("numeric").filter(pl.col("others")),
            pl.col("row_number").filter(pl.col("others")),
        )
        .iter_rows()
    )


class HeaderRow(NamedTuple):
    document: int
    table_index: int
    headers: list[str]  # its cells, by column
    vcols: list[int]  # their columns
    title: str | None
    note: str | None


def header_rows(cells: pl.DataFrame) -> list[HeaderRow]:
    """The header row (row 0) of each table of `cells` as published, tables in the order
    the cells give them. A row of a few cells is grouped here rather than by a query."""
    found: dict[tuple[int, int], tuple[list[tuple[int, str]], str | None, str | None]] = {}
    row = cells.filter(pl.col("row_number") == 0)
    for document, table, column, text, title, note in zip(
        *(row.get_column(name).to_list() for name in _HEADER_FIELDS), strict=True
    ):
        entry = found.get((document, table))
        if entry is None:
            entry = found[(document, table)] = ([], title, note)
        entry[0].append((column, text))
    rows = []
    for (document, table), (placed, title, note) in found.items():
        placed.sort(key=itemgetter(0))
        columns = [column for column, _text in placed]
        if len(set(columns)) < len(columns):
            return _grouped_header_rows(row)  # two cells in one place: as the query orders them
        rows.append(HeaderRow(document, table, [text for _c, text in placed], columns, title, note))
    return rows


_HEADER_FIELDS = (
    "document",
    "table_index",
    "column_index",
    "raw_value",
    "table_title",
    "table_note",
)


def _grouped_header_rows(row: pl.DataFrame) -> list[HeaderRow]:
    grouped = row.group_by(_TABLE, maintain_order=True).agg(
        pl.col("raw_value").sort_by("column_index"),
        pl.col("column_index").sort(),
        pl.col("table_title").first(),
        pl.col("table_note").first(),
    )
    return [HeaderRow(*fields) for fields in grouped.iter_rows()]


def _header_names_results(header: list[str], mappings: LabelMappings) -> bool:
    return any(names_base_metric(header_reading(text, mappings)) for text in header[1:])
