"""Checks shared by the layout tests: the measurements a page yields, and its rows of cells."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.normalize import DocumentContext, normalize_cells

CONTEXT = DocumentContext(
    source_id="graphcore-performance-results",
    source_url="https://www.graphcore.ai/performance-results",
    document_sha256="0" * 64,
    document_title="Performance Results",
    captured_at="2023-07-31T00:00:00Z",
    parser_version="test/1",
    language="en",  # the pages these tests read are English: "44,059" is 44059
)
COMPARED = ["row_identity", "metric", "value", "raw_value", "unit", "item_kind", "table_title"]


def measurements(cells: pl.DataFrame) -> pl.DataFrame:
    """The page's measurements in a layout-independent order; none may be quarantined."""
    normalized = normalize_cells(cells, CONTEXT)
    assert normalized.quarantine.height == 0, normalized.quarantine
    return normalized.measurements.select(COMPARED).sort(COMPARED)


def rows_of(cells: pl.DataFrame, table: int = 0) -> list[list[str]]:
    picked = cells.filter(pl.col("table_index") == table).sort("row_number", "column_index")
    return [
        group["raw_value"].to_list()
        for _, group in picked.group_by("row_number", maintain_order=True)
    ]
