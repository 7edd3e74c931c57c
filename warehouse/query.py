"""Read-only access for people: ad-hoc SQL, snapshots, diffs, all against the attached lake."""

from __future__ import annotations

import atexit
import functools
import json
import re
import shutil
import tempfile
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import duckdb

from perfledger.sources.capture_time import checked
from perfledger.warehouse import lake, location
from perfledger.warehouse.single_row import single_value
from perfledger.warehouse.sql import literal

QUERIES_DIR = Path(__file__).resolve().parent / "queries"
READ_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


# Functions ad-hoc SQL may not call. The SQLite scanner opens any path with its own I/O, past
# DuckDB's file-system lock; query() and friends run SQL given as text, out of the checks'
# sight; DuckLake's maintenance functions rewrite or delete the warehouse's files.
_REFUSED_PREFIXES = ("sqlite_", "postgres_")  # postgres_: a shared warehouse's catalog
_REFUSED_FUNCTIONS = frozenset({"query", "query_table", "json_execute_serialized_sql"})
_DUCKLAKE_MAINTENANCE = frozenset(
    {
        "add_data_files",
        "cleanup_old_files",
        "delete_orphaned_files",
        "expire_snapshots",
        "flush_inlined_data",
        "merge_adjacent_files",
        "rewrite_data_files",
        "set_commit_message",
        "set_option",
    }
)
_EXPLAIN_PREFIX = re.compile(r"^\s*EXPLAIN\s+(?:ANALY[SZ]E\s+)?(?:\([^)]*\)\s*)?", re.I)


def json_ready(value):
    """A query result value as JSON and CSV writers take it: dates as ISO text, decimals as floats."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


class ReadOnlyViolation(ValueError):
    """The SQL would write, or reach past the warehouse; `perfledger sql` only reads it."""


def query_text(name: str) -> str:
    return (QUERIES_DIR / f"{name}.sql").read_text(encoding="utf-8")


def run_query(
    warehouse: Path, name: str, parameters: dict | None = None, as_of: str | None = None
) -> tuple[list[str], list[tuple]]:
    """One of the fixed queries in warehouse/queries/, its values bound as parameters."""
    connection = open_read_only(warehouse, as_of)
    try:
        result = connection.execute(query_text(name), parameters or None)
        return [d[0] for d in result.description], result.fetchall()
    finally:
        connection.close()


def resolve_as_of(warehouse: Path, as_of: str | None) -> dict:
    """'7' -> snapshot version 7; anything else must be an ISO 8601 time (UTC unless it
    names a zone)."""
    if as_of is None:
        return {}
    if re.fullmatch(r"\d+", as_of.strip()):
        if int(as_of) >= 2**63:  # DuckLake's snapshot ids are BIGINT
            raise lake.WarehouseError(
                f"--as-of {as_of.strip()}: the warehouse at {warehouse} "
                "has no snapshot then (`perfledger snapshots` lists them)"
            )
        return {"snapshot_version": int(as_of)}
    try:
        return {"snapshot_time": checked(as_of, "--as-of")}
    except ValueError as error:
        raise ValueError(
            f"{error}, nor a snapshot id (`perfledger snapshots` lists them)"
        ) from None


def open_read_only(warehouse: Path, as_of: str | None = None) -> duckdb.DuckDBPyConnection:
    past = resolve_as_of(warehouse, as_of)
    try:
        connection = lake.connect(warehouse, read_only=True, **past)
    except duckdb.Error:
        if as_of is None:
            raise
        # A snapshot of the warehouse's creation or of a schema migration: the views name
        # columns a later migration added, and no run had loaded anything yet.
        refusal = _before_first_ingest(warehouse, as_of, past)
        if refusal is None:
            raise
        raise refusal from None
    except lake.WarehouseError as error:
        if as_of is None or "No snapshot found" not in str(error):
            raise
        if "snapshot_time" not in past:
            raise lake.WarehouseError(
                f"--as-of {as_of}: the warehouse at {warehouse} has no snapshot then "
                "(`perfledger snapshots` lists them)"
            ) from None
        # A time before the warehouse existed: say which time --as-of means, when the first
        # ingest wrote its snapshot, and where the time a page was captured is kept.
        with lake.connect(warehouse, read_only=True, views=False) as connection:
            first = (ingest_snapshot_ids(connection) or [0])[0]
            written = single_value(
                connection.execute(
                    "SELECT snapshot_time FROM lake.snapshots() WHERE snapshot_id = ?", [first]
                )
            )
        raise lake.WarehouseError(
            f"--as-of {as_of}: the warehouse at {warehouse} has no snapshot then. --as-of is "
            "a time of ingest (when `perfledger ingest` wrote a snapshot), and the first "
            f"snapshot ({first}) was written at {written.astimezone(UTC).isoformat()}; the "
            "time a page was captured is the column captured_at, e.g. "
            f"WHERE captured_at <= '{past['snapshot_time']}'"
        ) from None
    if as_of is not None and not _has_view(connection, "measurements"):
        # A snapshot whose tables lack columns later migrations added leaves the views over
        # them out (lake.create_views): before the first ingest, that is every view.
        connection.close()
        refusal = _before_first_ingest(warehouse, as_of, past)
        if refusal is not None:
            raise refusal
        connection = lake.connect(warehouse, read_only=True, **past)
    return connection


def _has_view(connection: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(
        single_value(
            connection.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [name])
        )
    )


def _before_first_ingest(warehouse: Path, as_of: str, past: dict) -> lake.WarehouseError | None:
    """The refusal of an --as-of before the first ingest snapshot; None for a later one."""
    with lake.connect(warehouse, read_only=True, views=False) as connection:
        runs = ingest_snapshot_ids(connection)
        if not runs:
            return lake.WarehouseError(
                f"--as-of {as_of}: no ingest has written a snapshot in {warehouse} yet"
            )
        written = single_value(
            connection.execute(
                "SELECT snapshot_time FROM lake.snapshots() WHERE snapshot_id = ?", [runs[0]]
            )
        )
    version, moment = past.get("snapshot_version"), past.get("snapshot_time")
    if version is not None and version >= runs[0]:
        return None
    if moment is not None and datetime.fromisoformat(moment) >= written:
        return None
    return lake.WarehouseError(
        f"--as-of {as_of}: that is before the first ingest, when the warehouse was being "
        "created or its schema migrated (`perfledger snapshots --all` lists those snapshots) "
        f"and held no data; the first ingest snapshot is {runs[0]}, written at "
        f"{written.astimezone(UTC).isoformat()}"
    )


def open_for_queries(warehouse: Path, as_of: str | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only session for ad-hoc SQL, locked down once the warehouse is attached."""
    connection = open_read_only(warehouse, as_of)
    try:
        lock_down(connection, warehouse)
    except BaseException:
        connection.close()
        raise
    return connection


def lock_down(connection: duckdb.DuckDBPyConnection, warehouse: Path) -> None:
    """DuckDB may then open no file but the warehouse's own (no read_csv('/etc/passwd'), COPY
    TO, ATTACH, INSTALL or LOAD), and no setting can be changed back."""
    data = lake.data_path(Path(warehouse))
    folders = sorted({f"{data}/", f"{data.resolve()}/"})
    if (shared := location.shared(Path(warehouse))) is not None:
        folders = [shared.lake_data]  # a shared warehouse's data: s3://BUCKET/PREFIX/data/
    listed = ", ".join("'" + folder.replace("'", "''") + "'" for folder in folders)
    # DuckDB lets a locked session read its temporary folder, by default `.tmp` in the
    # current folder, where anything may lie: it is a private empty one instead.
    spill = _private_spill_folder().replace("'", "''")
    connection.execute(f"SET temp_directory = '{spill}'")
    connection.execute(f"SET allowed_directories = [{listed}]")
    connection.execute("SET enable_external_access = false")
    connection.execute("SET lock_configuration = true")


@functools.cache
def _private_spill_folder() -> str:
    """A folder of this process's own (mode 0700, empty) for DuckDB to spill large queries
    to, removed when the process ends."""
    folder = tempfile.mkdtemp(prefix="perfledger-sql-spill-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


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
        check_functions(statement.query)


def check_functions(sql: str) -> None:
    """Refuse a statement calling a function that reaches past the warehouse (see above)."""
    refused = sorted(name for name in called_functions(sql) if _is_refused(name))
    if refused:
        raise ReadOnlyViolation(
            f"`perfledger sql` does not run {', '.join(refused)}: ad-hoc SQL reads the "
            "warehouse's views and tables, never other files, and never changes them"
        )


def called_functions(sql: str) -> set[str]:
    """Names of every function a SELECT (or the SELECT an EXPLAIN shows) calls."""
    inner = _EXPLAIN_PREFIX.sub("", sql, count=1)
    with duckdb.connect() as parser:
        # A literal, not a query parameter: binding one imports pandas and numpy, which cost
        # `perfledger sql` half a second at every start.
        serialized = single_value(parser.execute(f"SELECT json_serialize_sql({literal(inner)})"))
    tree = json.loads(serialized)
    if tree.get("error"):
        raise ReadOnlyViolation(f"cannot check the SQL: {tree.get('error_message')}")
    names: set[str] = set()
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if isinstance(node.get("function_name"), str):
                names.add(node["function_name"].lower())
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return names


def _is_refused(name: str) -> bool:
    return (
        name.startswith(_REFUSED_PREFIXES)
        or name in _REFUSED_FUNCTIONS
        or name.removeprefix("ducklake_") in _DUCKLAKE_MAINTENANCE
    )


def run_sql(warehouse: Path, sql: str, as_of: str | None = None) -> tuple[list[str], list[tuple]]:
    check_read_only(sql)
    connection = open_for_queries(warehouse, as_of)
    try:
        # check_read_only refused SQL without a statement; the last one's result is shown.
        *before, last = duckdb.extract_statements(sql)
        for statement in before:
            connection.execute(statement)
        result = connection.execute(last)
        columns = [d[0] for d in result.description] if result.description else []
        return columns, result.fetchall() if columns else []
    finally:
        connection.close()


def snapshots(warehouse: Path, everything: bool = False) -> tuple[list[str], list[tuple]]:
    """The snapshots of runs and merges; with `everything`, those of the warehouse's
    creation and schema migrations too."""
    columns, rows, _hidden = snapshot_listing(warehouse, everything)
    return columns, rows


def snapshot_listing(
    warehouse: Path, everything: bool = False
) -> tuple[list[str], list[tuple], int]:
    """`snapshots`, and how many snapshots it left out."""
    connection = open_read_only(warehouse)
    try:
        result = connection.execute(query_text("snapshots"), {"everything": everything})
        columns, rows = [d[0] for d in result.description], result.fetchall()
        total = single_value(connection.execute("SELECT count(*) FROM lake.snapshots()"))
        return columns, rows, total - len(rows)
    finally:
        connection.close()


def _require_snapshots(
    connection: duckdb.DuckDBPyConnection, warehouse: Path, *versions: int
) -> None:
    existing = {
        row[0] for row in connection.execute("SELECT snapshot_id FROM lake.snapshots()").fetchall()
    }
    missing = [str(version) for version in versions if version not in existing]
    if missing:
        raise ValueError(
            f"no snapshot {', '.join(missing)} in the warehouse at {warehouse}: it has "
            f"snapshots {min(existing)} to {max(existing)} (`perfledger snapshots` lists them)"
        )


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
        # Only the versions a user gave need checking: the others are read from the runs.
        given = [version for version in (from_version, to_version) if version is not None]
        if given:
            _require_snapshots(connection, warehouse, *given)
        runs = ingest_snapshot_ids(connection)
        if to_version is None:
            changed = ingest_snapshot_ids(connection, changed_only=True)
            if not runs:
                raise ValueError("the warehouse has no ingest run yet")
            to_version = changed[-1] if changed else runs[-1]
        if from_version is None:
            earlier = [s for s in runs if s < to_version]
            from_version = earlier[-1] if earlier else _first_snapshot(runs)
        sql = query_text("diff").format(from_version=int(from_version), to_version=int(to_version))
        result = connection.execute(sql)
        return [d[0] for d in result.description], result.fetchall(), from_version, to_version
    finally:
        connection.close()


def _first_snapshot(runs: list[int]) -> int:
    """The last snapshot before any data: the state the first run started from."""
    return (runs[0] - 1) if runs else 0
