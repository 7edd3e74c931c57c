"""Python values written into DuckDB statements as literals read back as the same values."""

from __future__ import annotations

import duckdb
import pytest

from warehouse import sql


def test_a_row_of_literals_reads_back_as_its_values():
    row = ["it's 23h 43m", 16, True, False, None, "", "'; DROP TABLE runs; --"]
    assert duckdb.connect().execute(f"SELECT {sql.literals(row)}").fetchone() == tuple(row)


def test_a_value_without_a_literal_is_refused_rather_than_guessed():
    with pytest.raises(TypeError, match="float"):
        sql.literals([0.1])


def test_a_text_list_reads_back_as_its_texts():
    texts = ["a", "b'c", ""]
    assert duckdb.connect().execute(f"SELECT {sql.text_list(texts)}").fetchone() == (texts,)
