"""Python values into DuckDB statements as bound parameters, frames as temporary Parquet files.

A value goes into a statement as a parameter: the text names it (`$name`) and the value is
passed beside it (`connection.execute(text, {"name": value})`), never quoted into the text.
What cannot be a parameter is a name (a table, a column, a view): those come from the code's
own fixed sets (`checked_name`), and a column is quoted as a name (`identifier`). A view
cannot hold a parameter: a frame's view reads its file's path from a session variable, set
with the path as a parameter.

Binding a Python parameter other than None makes duckdb import pandas and numpy when they are
installed: 0.3 s and 75 to 85 MB of peak memory, once per process. The user's install
(requirements.lock) holds neither; only the test and bench installs (requirements-test.lock,
the `bench` extra) pay that. Without them duckdb looks for pandas (and fails) twice for each
statement with parameters and once more for each value of a list, some 0.08 ms each: a run
binds a few dozen statements (a few milliseconds), and lists go in as one text (`text_in`).
Registering an Arrow table would make duckdb import pyarrow.dataset (30 ms): frames go in as
temporary Parquet files instead.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import polars as pl


def text(value: str) -> str:
    """`value` made safe inside single quotes: DuckDB's strings escape nothing but a quote.
    For SQL text a person runs (`perfledger shell --print-setup`) and statements that take no
    parameter (ATTACH, LOAD); a statement the code runs passes its values as parameters."""
    return value.replace("'", "''")


def literal(value: str) -> str:
    return f"'{text(value)}'"


def identifier(name: str) -> str:
    """A column's name quoted as a name (never a value): `"name"`, its quotes doubled."""
    return '"' + name.replace('"', '""') + '"'


def identifiers(names: Iterable[str]) -> str:
    return ", ".join(identifier(name) for name in names)


def checked_name(name: str, allowed: Iterable[str]) -> str:
    """`name` (a table or view written into SQL text), refused unless one of `allowed`."""
    if name not in set(allowed):
        raise ValueError(f"{name!r} is not one of the names this statement may use")
    return name


@dataclass(frozen=True)
class Fragment:
    """SQL text (a relation, what follows FROM, or a condition) and the parameters it names:
    a statement using it passes `parameters` along with its own."""

    text: str
    parameters: dict[str, object] = field(default_factory=dict)


def parameters(*fragments: Fragment | None, **values: object) -> dict[str, object] | None:
    """The parameters of a statement using `fragments`, plus `values`; None for none (duckdb
    then binds nothing)."""
    merged: dict[str, object] = {}
    for given in [*(f.parameters for f in fragments if f is not None), values]:
        for name, value in given.items():
            if name in merged and merged[name] != value:
                raise ValueError(f"two values for the parameter ${name}")
            merged[name] = value
    return merged or None


def parquet(name: str, paths: str | list[str], *, union_by_name: bool = False) -> Fragment:
    """The Parquet file(s) at `paths` as a relation, their paths the parameter `$name`."""
    options = ", union_by_name = true" if union_by_name else ""
    return Fragment(f"read_parquet(${name}{options})", {name: paths})


@contextlib.contextmanager
def frame_view(connection, name: str, frame: pl.DataFrame) -> Iterator[str]:
    """`frame` as the temporary view `name`, read from a Parquet file (a small one costs 2
    or 3 ms)."""
    descriptor, path = tempfile.mkstemp(prefix="perfledger-rows-", suffix=".parquet")
    os.close(descriptor)
    try:
        # Parquet stores a column of nulls only as integers; as text it casts to any type.
        frame.with_columns(pl.col(pl.Null).cast(pl.String)).write_parquet(
            path, compression="uncompressed", statistics=False)
        # A view cannot hold a parameter: the path is bound into a variable of the session
        # (DuckDB's SET VARIABLE) that the view reads each time a statement uses it.
        variable = f"{name}_path"
        connection.execute(f"SET VARIABLE {variable} = $path", {"path": path})
        connection.execute(f"CREATE OR REPLACE TEMP VIEW {name} AS "
                           f"SELECT * FROM read_parquet(getvariable('{variable}'))")
        try:
            yield name
        finally:
            connection.execute(f"DROP VIEW IF EXISTS {name}")
            connection.execute(f"RESET VARIABLE {variable}")
    finally:
        os.unlink(path)


# Longer lists go through a Parquet file, as when they were literals, which cost tens of
# megabytes to parse and plan (a run of 15,000 new pages: 80 MB for its sources alone).
LIST_PARAMETER_LIMIT = 1000
# A shorter list is passed as one text, its values joined by the unit separator, which no
# source id, URL or sha256 holds (a list holding it goes by the view): without pandas, duckdb
# looks for it again for each value of a list parameter, 0.08 ms a value (a list of 200
# sources: 17 ms, where its literal took 1.5 ms and the one text takes 1.1 ms).
SEPARATOR = "\x1f"


@contextlib.contextmanager
def text_in(connection, column: str, values: list[str], name: str) -> Iterator[Fragment]:
    """A condition that `column` is one of `values`, and its parameters: compared with the
    values passed as the parameter `$name` when they are few (a constant once bound, as a
    literal list was, with the same plan), read from the temporary view `name` when many."""
    if not values:
        yield Fragment(f"{column} = ANY([]::VARCHAR[])")
        return
    if len(values) <= LIST_PARAMETER_LIMIT and not any(SEPARATOR in value for value in values):
        yield Fragment(f"{column} = ANY(string_split(${name}, chr(31)))",
                       {name: SEPARATOR.join(values)})
        return
    frame = pl.DataFrame({"value": values}, schema={"value": pl.String})
    with frame_view(connection, name, frame) as view:
        yield Fragment(f"{column} IN (SELECT value FROM {view})")
