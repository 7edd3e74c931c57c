"""Normalization takes shortcuts for the usual page: each must give what the general way gives.

Plain numbers skip the full parsers, keys are packed into integers and used as array
indexes, labels are looked up in tables kept between calls. Each test forces the general
way and compares every output column, row for row.
"""

from __future__ import annotations

import random

import polars as pl
import pytest

from schemas import normalize
from schemas.normalize import (
    DocumentContext,
    NormalizedDocument,
    normalize_cells,
    normalize_documents,
)
from sources.layouts.text_capture import parse_text_capture
from tests.conftest import JANUARY_2022, JULY_2023, read_page
from tests.sources.layout_checks import CONTEXT


@pytest.fixture(scope="module")
def pages() -> list[pl.DataFrame]:
    return [parse_text_capture(read_page(page)).cells for page in (JULY_2023, JANUARY_2022)]


def contexts(count: int) -> list[DocumentContext]:
    return [DocumentContext(f"source-{n}", f"https://example.com/{n}", f"{n:064d}", None,
                            "2024-01-01T00:00:00Z", "test/1") for n in range(count)]


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
    odd = ["N/A", "16.32", "~1,200", "1.2k", "12¹", "23h 43m", "", "\u00a0", "frames/s",
           "Quantum Pod9", "fp13", "-5", "2nd", "0.5 MAE", "１２", "1,2345", "12 ms"]
    values = [rng.choice(odd) if row and rng.random() < 0.2 else value
              for row, value in zip(cells["row_number"], cells["raw_value"], strict=True)]
    return cells.with_columns(raw_value=pl.Series(values, dtype=pl.String))


@pytest.fixture(scope="module")
def documents(pages) -> list[tuple[pl.DataFrame, DocumentContext]]:
    frames = [*pages, spoiled(pages[0], 1), spoiled(pages[1], 2), pages[0].clear()]
    return list(zip(frames, contexts(len(frames)), strict=True))


def test_without_packed_keys_the_joins_and_ranks_give_the_same(documents, monkeypatch):
    expected = normalize_documents(documents)
    monkeypatch.setattr(normalize._Keys, "packed", lambda self, columns: None)
    assert_same(normalize_documents(documents), expected)


def test_keys_too_spread_for_arrays_give_the_same(documents):
    expected = normalize_documents(documents)
    spread = [(cells.with_columns(pl.col("table_index") * 1_000_000, pl.col("row_number") * 1_000,
                                  pl.col("column_index") * 1_000), context)
              for cells, context in documents]
    restore = [pl.col("table_index") // 1_000_000, pl.col("row_number") // 1_000]
    for one, other in zip(normalize_documents(spread), expected, strict=True):
        measurements = one.measurements.with_columns(*restore, pl.col("column_index") // 1_000)
        assert measurements.equals(other.measurements)
        assert one.quarantine.with_columns(*restore).equals(other.quarantine)


def test_a_column_with_two_headers_counts_its_cells_twice(pages):
    cells = pages[0]
    header = cells.filter(
        (pl.col("row_number") == 0) & pl.col("column_name").str.starts_with("Throughput")
    ).head(1)
    table, column = header.row(0, named=True)["table_index"], header["column_index"].item()
    alone = normalize_cells(cells, CONTEXT).measurements
    twice = normalize_cells(pl.concat([cells, header]), CONTEXT).measurements
    in_column = (pl.col("table_index") == table) & (pl.col("column_index") == column)
    assert alone.filter(in_column).height > 0
    assert twice.height == alone.height + alone.filter(in_column).height
    assert twice.filter(~in_column).equals(alone.filter(~in_column))


def test_label_tables_emptied_on_the_way_give_the_same(documents, monkeypatch):
    expected = normalize_documents(documents)
    monkeypatch.setattr(normalize, "_LABEL_CACHE", normalize._LabelCache())
    monkeypatch.setattr(normalize._LookupTable, "MAX_LABELS", 5)
    assert_same(normalize_documents(documents), expected)
    assert_same([normalize_cells(*document) for document in documents], expected)


def test_each_document_alone_gives_what_it_gives_among_others(documents):
    together = normalize_documents(documents)
    assert_same([normalize_cells(*document) for document in documents], together)


def plain_numbers(seed: int) -> list[str]:
    rng = random.Random(seed)
    numbers = ["0", "00012", "1,234", "1,234,567.891", "12.5", "999", "1000", "7.0", "0.000"]
    for _ in range(300):
        digits = str(rng.randint(0, 10 ** rng.randint(1, 30)))
        if rng.random() < 0.5 and len(digits) > 3:
            head = len(digits) % 3 or 3
            digits = ",".join([digits[:head]] + [digits[i:i + 3]
                                                  for i in range(head, len(digits), 3)])
        if rng.random() < 0.5:
            digits += "." + str(rng.randint(0, 10 ** rng.randint(1, 8)))
        numbers.append(digits)
    numbers.append("9" * 400)
    return numbers


def test_plain_numbers_read_as_the_full_parsers_read_them():
    texts = plain_numbers(7)
    metrics = ["throughput", "latency", "time_to_train", "time_to_result"]
    factors = [None, 1.0, 60.0, 0.001, 3600.0]
    frame = pl.DataFrame({
        "raw_value": texts,
        "metric": [metrics[n % len(metrics)] for n in range(len(texts))],
        "_unit_factor": [factors[n % len(factors)] for n in range(len(texts))],
    }, schema={"raw_value": pl.String, "metric": pl.String, "_unit_factor": pl.Float64})
    assert frame.select(pl.col("raw_value").str.contains(normalize._PLAIN_NUMBER).all()).item()
    plain = frame.select(normalize._plain_readings()).select(normalize._READINGS)
    parsed = normalize._readings(frame)
    assert plain.schema == parsed.schema
    assert plain.equals(parsed)


@pytest.mark.parametrize("text", ["1,2345", "12,34", "1 234", ".5", "5.", "１２", "12¹", "-5",
                                  "+5", "1e5", "12 ", " 12", "12k", "~12", "1,234.", "٣"])
def test_numbers_that_are_not_plain_go_to_the_full_parsers(text):
    assert not pl.select(pl.lit(text).str.contains(normalize._PLAIN_NUMBER)).item()


def test_table_flags_without_packed_keys_give_the_same(documents, monkeypatch):
    frame = documents[0][0].with_columns(_document=pl.lit(0, dtype=pl.Int32))
    roles = normalize._column_roles(frame)
    metrics = normalize._metric_cells(normalize._data_cells(frame, roles), roles)
    monkeypatch.setattr(normalize._Keys, "packed", lambda self, columns: None)
    found = normalize._metric_cells(normalize._data_cells(frame, roles), roles)
    assert found.select("has_train_metric", "has_latency_metric").equals(
        metrics.select("has_train_metric", "has_latency_metric"))
    assert metrics["has_train_metric"].any() and metrics["has_latency_metric"].any()


def cells_of(rows: list[list[str]]) -> pl.DataFrame:
    """One table: the first row is the header."""
    return pl.DataFrame(
        [{"table_index": 0, "table_title": "Results", "table_note": None, "row_number": row,
          "column_index": column, "column_name": rows[0][column], "raw_value": value,
          "line_number": 1 + row * len(rows[0]) + column}
         for row, values in enumerate(rows) for column, value in enumerate(values)],
        schema={"table_index": pl.Int32, "table_title": pl.String, "table_note": pl.String,
                "row_number": pl.Int32, "column_index": pl.Int32, "column_name": pl.String,
                "raw_value": pl.String, "line_number": pl.Int32},
    )


def test_of_two_cells_of_one_role_in_a_row_the_first_counts():
    header = ["Model", "Platform", "Model", "Throughput (items/sec)"]
    cells = cells_of([header, ["BERT", "Bow Pod16", "GPT-2", "100"]])
    assert normalize_cells(cells, CONTEXT).measurements["model"].to_list() == ["BERT"]
    shuffled = cells.reverse()  # the order of the cells, not of the columns, decides
    assert normalize_cells(shuffled, CONTEXT).measurements["model"].to_list() == ["GPT-2"]
