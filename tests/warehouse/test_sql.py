"""Python values passed to DuckDB statements as parameters read back as the same values."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from warehouse import sql

HOSTILE = ["it's 23h 43m", "", "'; DROP TABLE runs; --", "$name", "a\"b"]


def test_a_row_of_parameters_reads_back_as_its_values():
    row = [*HOSTILE, 16, True, False, None]
    placeholders = ", ".join("?" for _ in row)
    assert duckdb.connect().execute(f"SELECT {placeholders}", row).fetchone() == tuple(row)


def test_fragments_carry_their_parameters_and_refuse_two_values_for_one_name():
    rows = sql.Fragment("(SELECT $a AS a)", {"a": "it's"})
    more = sql.Fragment("(SELECT $b AS b)", {"b": 2})
    given = sql.parameters(rows, None, more, c=None)
    assert given == {"a": "it's", "b": 2, "c": None}
    text = f"SELECT a, b, $c FROM {rows.text} POSITIONAL JOIN {more.text}"
    assert duckdb.connect().execute(text, given).fetchone() == ("it's", 2, None)
    assert sql.parameters(sql.Fragment("t")) is None
    with pytest.raises(ValueError, match=r"\$a"):
        sql.parameters(rows, a="other")


def test_a_name_outside_the_fixed_set_is_refused_and_identifiers_are_quoted_as_names():
    assert sql.checked_name("cells", {"cells", "runs"}) == "cells"
    with pytest.raises(ValueError, match="not one of"):
        sql.checked_name("cells; DROP TABLE runs", {"cells"})
    connection = duckdb.connect()
    quoted = 'a"b'
    connection.execute(f"CREATE TABLE t ({sql.identifier(quoted)} INTEGER, c INTEGER)")
    assert [column[0] for column in connection.execute(
        f"SELECT {sql.identifiers([quoted, 'c'])} FROM t LIMIT 0").description] == [quoted, "c"]


def test_a_parquet_file_with_a_quote_in_its_path_is_read_through_its_parameter(tmp_path):
    path = tmp_path / "it's a part.parquet"
    pl.DataFrame({"x": [1, 2]}).write_parquet(path)
    rows = sql.parquet("part", [str(path), str(path)], union_by_name=True)
    assert "it's" not in rows.text
    assert duckdb.connect().execute(f"SELECT sum(x) FROM {rows.text}",
                                    sql.parameters(rows)).fetchone() == (6,)


def test_a_frame_view_reads_back_its_frame_and_is_dropped_after():
    connection = duckdb.connect()
    frame = pl.DataFrame({"text": HOSTILE, "nothing": [None] * len(HOSTILE)})
    with sql.frame_view(connection, "_rows", frame) as view:
        assert connection.execute(f"SELECT text, nothing FROM {view}").fetchall() == [
            (text, None) for text in HOSTILE]
        assert connection.execute("SELECT temporary FROM duckdb_views() WHERE view_name = "
                                  "'_rows'").fetchall() == [(True,)]
    assert connection.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = '_rows'"
                              ).fetchone() == (0,)


@pytest.mark.parametrize("limit", [sql.LIST_PARAMETER_LIMIT, 2])
def test_a_long_list_of_texts_is_read_from_a_view_with_the_same_answer(monkeypatch, limit):
    monkeypatch.setattr(sql, "LIST_PARAMETER_LIMIT", limit)  # 2: the three values go by a view
    connection = duckdb.connect()
    connection.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), ('d')) v(x)")
    with sql.text_in(connection, "x", ["a", "c", "it's"], "_wanted") as condition:
        assert ("SELECT value FROM _wanted" in condition.text) == (limit == 2)
        assert "it's" not in condition.text  # a parameter, or a row of the view
        assert connection.execute(f"SELECT x FROM t WHERE {condition.text} ORDER BY x",
                                  sql.parameters(condition)).fetchall() == [("a",), ("c",)]
    assert connection.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = '_wanted'"
                              ).fetchone() == (0,)


@pytest.mark.parametrize("values", [[], ["a"], ["it's", "a\x1fb", "c"]])
def test_an_empty_list_or_one_holding_the_separator_gives_the_same_answer(values):
    connection = duckdb.connect()
    connection.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('a'), ('a\x1fb'), ('b')) v(x)")
    with sql.text_in(connection, "x", values, "_wanted") as condition:
        assert ("SELECT value FROM _wanted" in condition.text) == (len(values) == 3)
        found = connection.execute(f"SELECT x FROM t WHERE {condition.text} ORDER BY x",
                                   sql.parameters(condition)).fetchall()
    assert found == sorted((x,) for x in {"a", "a\x1fb", "b"} & set(values))
