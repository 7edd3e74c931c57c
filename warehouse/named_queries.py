"""The fixed statements of warehouse/queries/, run by name with their values as parameters.

A command of flows/ names a statement and passes its values (`$source`, `$tolerance`, ...);
it never writes SQL. Binding a value other than None makes duckdb import pandas and numpy
when they are installed (see warehouse/sql.py): not in the user's install.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from warehouse import query

# `perfledger claims --check` and the report's claims section: a measured ratio at most this
# fraction below the claimed one still supports the claim (claim_check.sql, $tolerance).
CLAIM_TOLERANCE = 0.10


def execute(connection: duckdb.DuckDBPyConnection, name: str,
            parameters: dict[str, object] | None = None) -> duckdb.DuckDBPyConnection:
    """Run warehouse/queries/<name>.sql with `parameters` (every `$name` it holds)."""
    return connection.execute(query.query_text(name), parameters)


def fetch(connection: duckdb.DuckDBPyConnection, name: str,
          parameters: dict[str, object] | None = None) -> tuple[list[str], list[tuple]]:
    """Columns and rows of a named query."""
    result = execute(connection, name, parameters)
    return [column[0] for column in result.description], result.fetchall()


def read(warehouse: Path, name: str,
         parameters: dict[str, object] | None = None) -> tuple[list[str], list[tuple]]:
    """Columns and rows of a named query over the warehouse, in a read-only session locked
    down as `perfledger sql`'s is (query.open_for_queries)."""
    connection = query.open_for_queries(warehouse)
    try:
        return fetch(connection, name, parameters)
    finally:
        connection.close()


def claim_check_parameters(source: str | None = None) -> dict[str, object]:
    """The parameters of claim_check.sql: the tolerance, and a source or None for all."""
    return {"tolerance": CLAIM_TOLERANCE, "source": source}
