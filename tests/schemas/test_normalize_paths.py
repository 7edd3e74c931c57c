"""Normalization reads many documents at once: each must get what it would get alone."""

from __future__ import annotations

import random

import polars as pl
import pytest

from perfledger.schemas.normalize import (
    DocumentContext,
    NormalizedDocument,
    normalize_cells,
    normalize_documents,
)
from perfledger.sources.layouts.text_capture import parse_text_capture
from tests.conftest import JANUARY_2022, JULY_2023, read_page
from tests.sources.layout_checks import CONTEXT


@pytest.fixture(scope="module")
def pages() -> list[pl.DataFrame]:
    return [parse_text_capture(read_page(page)).cells for page in (JULY_2023, JANUARY_2022)]


def contexts(count: int) -> list[DocumentContext]:
    return [
        DocumentContext(
            f"source-{n}",
            f"https://example.com/{n}",
            f"{n:064d}",
            None,
            "2024-01-01T00:00:00Z",
            "test/1",
        )
        for n in range(count)
    ]


def assert_same(first: list[NormalizedDocument], second: list[NormalizedDocument]) -> None:
    assert len(first) == len(second)
    for one, other in zip(first, second, strict=True):
        assert one.measurements.schema == other.measurements.schema
        assert one.measurements.equals(other.measurements)
        assert one.quarantine.schema == other.quarantine.schema
        assert one.quarantine.equals(other.quarantine)


def spoiled(cells: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Cells with odd values here and there, so that quarantine and units are exercised."""
    rng = random.Random(seed)
    odd = [
        "N/A",
        "16.32",
        "~1,200",
        "1.2k",
        "12¹",
        "23h 43m",
        "",
        "\u00a0",
        "frames/s",
        "Quantum Pod9",
        "fp13",
        "-5",
        "2nd",
        "0.5 MAE",
        "１２",
        "1,2345",
        "12 ms",
        "1\u200b361",
    ]
    values = [
        rng.choice(odd) if row and rng.random() < 0.2 else value
        for row, value in zip(cells["row_number"], cells["raw_value"], strict=True)
    ]
    return cells.with_columns(raw_value=pl.Series(values, dtype=pl.String))


@pytest.fixture(scope="module")
def documents(pages) -> list[tuple[pl.DataFrame, DocumentContext]]:
    frames = [*pages, spoiled(pages[0], 1), spoiled(pages[1], 2), pages[0].clear()]
    return list(zip(frames, contexts(len(frames)), strict=True))


def test_each_document_alone_gives_what_it_gives_among_others(documents):
    together = normalize_documents(documents)
    assert together[2].quarantine.height > 0  # the spoiled pages do exercise the quarantine
    assert_same([normalize_cells(*document) for document in documents], together)


def test_the_order_of_the_documents_changes_nothing_of_each(documents):
    forward = normalize_documents(documents)
    backward = normalize_documents(list(reversed(documents)))
    assert_same(forward, list(reversed(backward)))


def cells_of(rows: list[list[str]]) -> pl.DataFrame:
    """One table: the first row is the header."""
    return pl.DataFrame(
        [
            {
                "table_index": 0,
                "table_title": "Results",
                "table_note": None,
                "row_number": row,
                "column_index": column,
                "column_name": rows[0][column],
                "raw_value": value,
                "line_number": 1 + row * len(rows[0]) + column,
            }
            for row, values in enumerate(rows)
            for column, value in enumerate(values)
        ],
        schema={
            "table_index": pl.Int32,
            "table_title": pl.String,
            "table_note": pl.String,
            "row_number": pl.Int32,
            "column_index": pl.Int32,
            "column_name": pl.String,
            "raw_value": pl.String,
            "line_number": pl.Int32,
        },
    )


def test_of_two_cells_of_one_role_in_a_row_the_first_column_counts():
    header = ["Model", "Platform", "Model", "Throughput (items/sec)"]
    cells = cells_of([header, ["BERT", "Bow Pod16", "GPT-2", "100"]])
    assert normalize_cells(cells, CONTEXT).measurements["model"].to_list() == ["BERT"]
    shuffled = cells.reverse()  # the order of the columns decides, not that of the cells
    assert normalize_cells(shuffled, CONTEXT).measurements["model"].to_list() == ["BERT"]
