"""`perfledger doctor`: check the installation and the warehouse, and say what to fix."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
import duckdb

from perfledger.flows import settings
from perfledger.flows.cli_common import resolve_warehouse, warehouse_option
from perfledger.warehouse import compaction, lake, location


@click.command()
@warehouse_option
def doctor(warehouse):
    """Check the installation and the warehouse, and say what to fix; exit 1 on a problem.

    Reads only: a path that holds no warehouse is reported, never created."""
    warehouse = resolve_warehouse(warehouse)
    problems: list[str] = []

    def report(label: str, text: str, problem: bool = False) -> None:
        if problem:
            problems.append(label)
            text = f"PROBLEM: {text}"
        click.echo(f"{label + ':':<13}{text}")

    report("python", sys.version.split()[0])
    report("duckdb", duckdb.__version__)
    report("warehouse", str(warehouse))
    report("prefect api", os.environ.get("PREFECT_API_URL") or "none (stages run in-process)")
    schedule = _merge_schedule(report)
    if _extensions_installed(report):
        _check_warehouse(warehouse, schedule, report)
    if problems:
        click.echo(
            f"{len(problems)} problem{'s' if len(problems) > 1 else ''} found "
            f"({', '.join(problems)}): see PROBLEM above"
        )
        sys.exit(1)
    click.echo("no problem found")


def _merge_schedule(report) -> str | None:
    try:
        every = settings.merge_every()
    except ValueError as error:
        report("settings", str(error), problem=True)
        return None
    if every == 0:
        return f"ingest never merges small ones: {compaction.EVERY_ENV}=0"
    return f"ingest merges small ones every {every} snapshots"


def _extensions_installed(report) -> bool:
    try:
        lake.installed_extensions()
    except lake.ExtensionError as error:
        report("extensions", str(error), problem=True)
        return False
    return True


def _check_warehouse(warehouse: Path, schedule: str | None, report) -> None:
    try:
        lake.require_warehouse(warehouse)
    except lake.WarehouseError:
        report(
            "warehouse",
            f"no warehouse at {warehouse} (no {lake.catalog_path(warehouse).name} "
            "there): check the path, --warehouse and $PERFLEDGER_WAREHOUSE; "
            "`perfledger ingest` creates a warehouse",
            problem=True,
        )
        return
    try:
        connection = lake.connect(warehouse, read_only=True, views=False, require_migrated=False)
    except lake.ExtensionError as error:
        report("extensions", str(error), problem=True)
        return
    except lake.WarehouseError as error:
        restore = (
            ""
            if location.shared(warehouse) is not None
            else f"; if the file is damaged, restore {lake.catalog_path(warehouse)} from a "
            "backup of the warehouse"
        )
        report("catalog", f"{error}{restore}", problem=True)
        return
    try:
        report("extensions", f"ok (installed, and the copies in {lake.extensions_root()} load)")
        _check_catalog(connection, report)
        _check_data_files(connection, warehouse, schedule, report)
    finally:
        connection.close()


def _check_catalog(connection: duckdb.DuckDBPyConnection, report) -> None:
    tables = lake.table_count(connection)
    applied = lake.applied_migrations(connection)
    pending = lake.pending_migrations(connection)
    shipped = {path.name for path in lake.MIGRATIONS_DIR.glob("*.sql")}
    unknown = sorted(applied - shipped)
    if pending:
        report(
            "catalog",
            f"{len(pending)} migration(s) of this perfledger not applied "
            f"({', '.join(pending)}): `perfledger compact` applies them (as does any "
            "`perfledger ingest`), then every command reads the warehouse",
            problem=True,
        )
    elif unknown:
        report(
            "catalog",
            f"applied migrations this perfledger does not know "
            f"({', '.join(unknown)}): a newer perfledger wrote this warehouse; upgrade "
            "perfledger before using it",
            problem=True,
        )
    else:
        report("catalog", f"ok ({tables} tables, {len(applied)} migrations applied)")


def _check_data_files(
    connection: duckdb.DuckDBPyConnection, warehouse: Path, schedule: str | None, report
) -> None:
    if (shared := location.shared(warehouse)) is not None:
        files, broken = location.data_file_problems(connection, shared)
        where = shared.lake_data
    else:
        files = lake.data_files(connection, warehouse)
        broken = [
            (file, problem)
            for file in files
            if (problem := lake.data_file_problem(file)) is not None
        ]
        where = None
    current = sum(file.current for file in files)
    kept = f", {len(files) - current} kept for time travel" if len(files) > current else ""
    if not broken:
        merging = f"; {schedule}" if schedule else ""
        report(
            "data files",
            f"{current} live{kept}, all present and readable{merging}; "
            "`perfledger compact` merges them now",
        )
        return
    report("data files", f"{current} live{kept}: {len(broken)} missing or unreadable", problem=True)
    for file, problem in broken:
        shown = f"{where}{file.path}" if where else _shown(file.path, warehouse)
        click.echo(f"  {shown}: {problem} ({_role(file)})")
    click.echo("  what to do: " + _remedy([file for file, _ in broken], where or warehouse))


def _shown(path: Path, warehouse: Path) -> str:
    try:
        return str(path.relative_to(warehouse))
    except ValueError:
        return str(path)


def _role(file: lake.DataFile) -> str:
    kind = "" if file.kind == "data" else "deleted rows of "
    if file.current:
        return f"{kind}table {file.table}, current data"
    return (
        f"{kind}table {file.table}, read only as of snapshots {file.first_snapshot} "
        f"to {file.last_snapshot}"
    )


def _remedy(files: list[lake.DataFile], warehouse: Path | str) -> str:
    tables = ", ".join(sorted({file.table for file in files}))
    if any(file.current for file in files):
        effect = f"every query reading {tables} fails until then"
    else:
        effect = (
            "only time travel to those snapshots fails (--as-of, diff, the history "
            "views); the current data is whole"
        )
    pages = (
        f"{lake.archive_dir(warehouse)} keeps a copy of every page read"
        if isinstance(warehouse, Path)
        else "the bucket's archive/ keeps every page read"
    )
    return (
        f"copy the files back from a backup of the warehouse, to the same paths under "
        f"{warehouse}; {effect}. No perfledger command re-creates a lost data file "
        "(`perfledger reprocess` reads the stored values first); without a backup, "
        f"ingest the pages again into a new warehouse (--warehouse NEW); {pages}."
    )


COMMAND = doctor
