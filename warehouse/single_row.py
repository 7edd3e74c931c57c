"""The row of a query that always returns exactly one: an aggregate, a setting, a PRAGMA,
a lookup of a snapshot known to exist. DuckDB's and psycopg's `fetchone` say None for
a query without rows; these say why instead."""

from __future__ import annotations

from typing import Any, Protocol


class _Result(Protocol):
    def fetchone(self) -> tuple[Any, ...] | None: ...


def single_row(result: _Result) -> tuple[Any, ...]:
    row = result.fetchone()
    if row is None:
        raise LookupError("a query that returns one row returned none")
    return row


def single_value(result: _Result) -> Any:
    """The first column of the one row."""
    return single_row(result)[0]
