"""Read-only access for people: ad-hoc SQL, snapshots, diffs, all against the attached lake."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb

from warehouse import lake

QUERIES_DIR = Path(__file__).resolve().parent / "queries"
READ_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


class ReadOnlyViolation(ValueError):
    """The SQL would write; `perfledger sql` only reads."""


def query_text(name: str) -> str:
    return (QUERIES_DIR / f"{name}.sql").read_text(encoding="utf-8")


def resolve_as_of(warehouse: Path, as_of: str | None) -> dict:
    """'7' -> snapshot version 7; anything else is read as a timestamp."""
    if as_of is None:
        return {}
    if re.fullmatch(r"\d+", as_of.strip()):
        return {"snapshot_version": int(as_of)}
    return {"snapshot_time": as_of.strip()}


def open_read_only(warehouse: Path, as_of: str | None = None) -> duckdb.DuckDBPyConnection:
    return lake.connect(warehouse, read_only=True, **resolve_as_of(warehouse, as_of))


def check_read_only(sql: str) -> None:
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as error:
        raise ValueError(f"cannot parse the SQL: {error}") from error
    if not statements:
        raise ValueError("no SQL statement given")
    for statement in statements:
        if statement.type not in READ_STATEMENTS:
            raise ReadOnlyViolation(
                f"`perfledger sql` only reads, but the SQL holds a {statement.type.name} "
                "statement; the warehouse is changed only by `perfledger ingest`"
            )


def run_sql(warehouse: Path, sql: str, as_of: str | None = None) -> tuple[list[str], list[tuple]]:
    check_read_only(sql)
    connection = open_read_only(warehouse, as_of)
    try:
        statements = duckdb.extract_statements(sql)
        result = None
        for statement in statements:
            result = connection.execute(statement)
        columns = [d[0] for d in result.description] if result.description else []
        return columns, result.fetchall() if columns else []
    finally:
        connection.close()


def snapshots(warehouse: Path) -> tuple[list[str], list[tuple]]:
    connection = open_read_only(warehouse)
    try:
        result = connection.execute(query_text("snapshots"))
        return [d[0] for d in result.description], result.fetchall()
    finally:
        connection.close()


def ingest_snapshot_ids(
    connection: duckdb.DuckDBPyConnection, *, changed_only: bool = False
) -> list[int]:
    """Snapshots written by ingest runs, oldest first; optionally only those that changed values."""
    condition = (
        "AND r.values_added + r.values_changed + r.values_removed > 0" if changed_only else ""
    )
    rows = connection.execute(
        f"""SELECT s.snapshot_id FROM lake.snapshots() s
            JOIN lake.main.runs r
              ON r.run_id = json_extract_string(s.commit_extra_info, '$.run_id')
            WHERE true {condition} ORDER BY 1"""
    ).fetchall()
    return [row[0] for row in rows]


def diff(
    warehouse: Path, from_version: int | None = None, to_version: int | None = None
) -> tuple[list[str], list[tuple], int, int]:
    """Changes between two snapshots.

    By default: the last run that changed any value, against the run before it, so that
    re-runs that found nothing new do not hide the latest change.
    """
    connection = open_read_only(warehouse)
    try:
        runs = ingest_snapshot_ids(connection)
        if to_version is None:
            changed = ingest_snapshot_ids(connection, changed_only=True)
            if not runs:
                raise ValueError("the warehouse has no ingest run yet")
            to_version = changed[-1] if changed else runs[-1]
        if from_version is None:
            earlier = [s for s in runs if s < to_version]
            from_version = earlier[-1] if earlier else _first_snapshot(connection)
        sql = query_text("diff").format(from_version=int(from_version), to_version=int(to_version))
        result = connection.execute(sql)
        return [d[0] for d in result.description], result.fetchall(), from_version, to_version
    finally:
        connection.close()


def _first_snapshot(connection: duckdb.DuckDBPyConnection) -> int:
    """The last snapshot before any data: the state the first run started from."""
    runs = ingest_snapshot_ids(connection)
    return (runs[0] - 1) if runs else 0
