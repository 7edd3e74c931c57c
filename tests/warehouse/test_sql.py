"""Python values written into DuckDB statements as literals read back as the same values."""

from __future__ import annotations

import duckdb
import pytest

from perfledger.warehouse import sql


def test_a_row_of_literals_reads_back_as_its_values():
    row = ["it's 23h 43m", 16, True, False, None, "", "'; DROP TABLE runs; --"]
    assert duckdb.connect().execute(f"SELECT {sql.literals(row)}").fetchone() == tuple(row)


def test_a_value_without_a_literal_is_refused_rather_than_guessed():
    with pytest.raises(TypeError, match="float"):
        sql.literals([0.1])


def test_a_text_list_reads_back_as_its_texts():
    texts = ["a", "b'c", ""]
    assert duckdb.connect().execute(f"SELECT {sql.text_list(texts)}").fetchone() == (texts,)


@pytest.mark.parametrize("limit", [sql.LITERAL_LIST_LIMIT, 2])
def test_a_long_list_of_texts_is_read_from_a_view_with_the_same_answer(monkeypatch, limit):
    monkeypatch.setattr(sql, "LITERAL_LIST_LIMIT", limit)  # 2: the three values go by a view
    connection = duckdb.connect()
    connection.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), ('d')) v(x)")
    with sql.text_in(connection, "x", ["a", "c", "it's"], "_wanted") as condition:
        assert ("_wanted" in condition) == (limit == 2)
        assert connection.execute(f"SELECT x FROM t WHERE {condition} ORDER BY x").fetchall() == [
            ("a",),
            ("c",),
        ]
    assert connection.execute(
        "SELECT count(*) FROM duckdb_views() WHERE view_name = '_wanted'"
    ).fetchone() == (0,)
