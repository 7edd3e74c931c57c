"""Python values into DuckDB statements without query parameters or Arrow tables.

Binding a Python query parameter makes duckdb import pandas and numpy (some 60 MB), and
registering an Arrow table makes it import pyarrow.dataset (30 ms): an ingest needs neither.
Values go in as quoted literals, frames as temporary Parquet files.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator

import polars as pl


def text(value: str) -> str:
    """`value` made safe inside single quotes: DuckDB's strings escape nothing but a quote."""
    return value.replace("'", "''")


def literal(value: str) -> str:
    return f"'{text(value)}'"


def literals(values: Iterable[str | int | bool | None]) -> str:
    """A row of literals: text quoted, numbers and truth values as they are, None as NULL."""
    return ", ".join(_literal_of(value) for value in values)


def _literal_of(value: str | int | bool | None) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return literal(value)
    raise TypeError(f"no SQL literal for a {type(value).__name__}")


def text_list(values: Iterable[str]) -> str:
    return f"[{', '.join(literal(value) for value in values)}]::VARCHAR[]"


@contextlib.contextmanager
def frame_view(connection, name: str, frame: pl.DataFrame) -> Iterator[str]:
    """`frame` as the temporary view `name`, read from a Parquet file (a small one costs 2
    or 3 ms)."""
    descriptor, path = tempfile.mkstemp(prefix="perfledger-rows-", suffix=".parquet")
    os.close(descriptor)
    try:
        # Parquet stores a column of nulls only as integers; as text it casts to any type.
        frame.with_columns(pl.col(pl.Null).cast(pl.String)).write_parquet(
            path, compression="uncompressed", statistics=False
        )
        connection.execute(
            f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT * FROM read_parquet({literal(path)})"
        )
        try:
            yield name
        finally:
            connection.execute(f"DROP VIEW IF EXISTS {name}")
    finally:
        os.unlink(path)


# Longer lists go through a Parquet file: a literal list of thousands of values costs tens of
# megabytes to parse and plan (a run of 15,000 new pages: 80 MB for its sources alone).
LITERAL_LIST_LIMIT = 1000


@contextlib.contextmanager
def text_in(connection, column: str, values: list[str], name: str) -> Iterator[str]:
    """A condition that `column` is one of `values`: compared with a literal list when it is
    short (which lets DuckLake skip the data files whose range misses every value), read
    from the temporary view `name` when it is long."""
    if len(values) <= LITERAL_LIST_LIMIT:
        yield f"{column} = ANY({text_list(values)})"
        return
    frame = pl.DataFrame({"value": values}, schema={"value": pl.String})
    with frame_view(connection, name, frame) as view:
        yield f"{column} IN (SELECT value FROM {view})"
