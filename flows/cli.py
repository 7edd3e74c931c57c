"""The `perfledger` command: thin wrappers that parse arguments and call flows or the warehouse."""

from __future__ import annotations

import os
import sys

import click

from flows import settings
from flows.cli_common import EXAMPLE_QUERY, fail, format_option, resolve_warehouse, warehouse_option
from flows.commands import discovered_commands
from flows.output import render
from warehouse import compaction, lake, query


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """perfledger: vendor benchmark pages as a versioned SQL warehouse."""


@main.command()
@click.argument("targets", nargs=-1)
@warehouse_option
@click.option("--trigger", default="cli", show_default=True, help="Recorded with the snapshot.")
@click.option("--wait", "wait_s", type=float, default=0.0, show_default=True,
              help="Seconds to wait for another ingest holding the warehouse.")
@click.option("--quiet", is_flag=True, help="Print only the summary.")
@click.option("--source", "source_name", default=None,
              help="Fetch this registered source; with files, treat them as its versions.")
@click.option("--captured-at", "captured_at", default=None,
              help="Capture time (ISO 8601) of the files given; default: their mtime.")
@click.option("--round", "mlperf_round", default=None, metavar="X.Y",
              help="MLPerf round of a results tree whose logs and folders do not name it.")
def ingest(targets, warehouse, trigger, wait_s, quiet, source_name, captured_at, mlperf_round):
    """Read PATH_OR_URL ... (files, folders) or, with none, the bundled demo corpus."""
    from flows.runner import run_ingest

    warehouse = resolve_warehouse(warehouse)
    progress = (lambda message: None) if quiet else (lambda m: click.echo(f"  {m}", err=True))
    try:
        summary = run_ingest(list(targets), warehouse, trigger=trigger, wait_s=wait_s,
                             progress=progress, source_name=source_name,
                             captured_at=captured_at, mlperf_round=mlperf_round)
    except (lake.WarehouseError, ValueError) as error:
        fail(str(error))
    click.echo(_summary_text(summary))
    if summary.failures and summary.documents_read == len(summary.failures):
        sys.exit(1)


def _summary_text(summary) -> str:
    lines = [
        f"documents read:      {summary.documents_read} "
        f"({summary.count_status('new')} new, {summary.count_status('unchanged')} unchanged, "
        f"{summary.count_status('stale')} older than stored, {len(summary.failures)} failed)",
        f"tables found:        {summary.tables_found}",
        f"values added:        {summary.total('values_added')}",
        f"values changed:      {summary.total('values_changed')}",
        f"values removed:      {summary.total('values_removed')}",
        f"values quarantined:  {summary.total('values_quarantined')}",
        "claims found:        {} ({} claim-like sentences set aside)".format(
            *summary.claim_counts()),
        "snapshots:           "
        + (", ".join(str(run.snapshot_id) for run in summary.runs) or "none"),
        f"warehouse:           {summary.warehouse}",
    ]
    for failure in summary.failures:
        lines.append(f"failed: {failure.message}")
    lines.append(f'try:                 perfledger sql "{EXAMPLE_QUERY}"')
    return "\n".join(lines)


@main.command()
@click.argument("sql_text", metavar="QUERY")
@warehouse_option
@format_option
@click.option("--as-of", "as_of", default=None,
              help="Snapshot id or timestamp to answer as of.")
def sql(sql_text, warehouse, fmt, as_of):
    """Run read-only SQL against the warehouse views (measurements, quarantine, ...)."""
    try:
        columns, rows = query.run_sql(resolve_warehouse(warehouse), sql_text, as_of)
    except (query.ReadOnlyViolation, lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except Exception as error:  # DuckDB's own errors name the problem in the SQL
        fail(f"query failed: {error}")
    click.echo(render(columns, rows, fmt))


@main.command()
@warehouse_option
@format_option
def snapshots(warehouse, fmt):
    """List warehouse snapshots with the run, trigger and documents of each."""
    try:
        columns, rows = query.snapshots(resolve_warehouse(warehouse))
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


@main.command()
@click.argument("from_version", required=False, type=int)
@click.argument("to_version", required=False, type=int)
@warehouse_option
@format_option
def diff(from_version, to_version, warehouse, fmt):
    """Values added, removed and changed between two snapshots (default: the last run)."""
    try:
        columns, rows, start, end = query.diff(resolve_warehouse(warehouse), from_version, to_version)
    except (lake.WarehouseError, ValueError) as error:
        fail(str(error))
    if fmt == "table":
        click.echo(f"changes from snapshot {start} to {end}")
        columns, rows = _compact_diff(columns, rows)
        click.echo(render(columns, rows, fmt, max_width=90))
        return
    click.echo(render(columns, rows, fmt))


def _compact_diff(columns, rows):
    """For a terminal: the change, where, what, and old -> new as published."""
    index = {name: position for position, name in enumerate(columns)}
    compact = []
    for row in rows:
        old, new = row[index["old_raw_value"]], row[index["new_raw_value"]]
        identity = row[index["row_identity"]].replace("workload=", "").replace("|metric=", " | ")
        compact.append((row[index["change"]], row[index["source_id"]], identity,
                        f"{old if old is not None else '-'} -> {new if new is not None else '-'}"))
    return ["change", "source", "row identity | metric", "old -> new"], compact


@main.command()
@warehouse_option
@format_option
@click.option("--source", default=None, help="Only this source.")
def quarantine(warehouse, fmt, source):
    """List quarantined values with the stage, the check and the reason."""
    sql_text = (
        "SELECT source_id, stage, \"check\", reason, table_title, row_number, column_name, "
        "raw_value, line_number FROM quarantine"
    )
    if source:
        sql_text += " WHERE source_id = '" + source.replace("'", "''") + "'"
    sql_text += " ORDER BY source_id, table_index, row_number"
    try:
        columns, rows = query.run_sql(resolve_warehouse(warehouse), sql_text)
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


@main.command()
@format_option
@warehouse_option
def sources(fmt, warehouse):
    """List the registered sources (bundled and added) and the bundled captures of each."""
    from flows.pipeline import registry_for

    registry = registry_for(resolve_warehouse(warehouse))
    rows = []
    for source in registry.sources.values():
        captures = [c for c in registry.captures if c.source == source.name]
        rows.append((source.name, source.publisher, source.kind, source.schedule, source.url,
                     len(captures)))
    click.echo(render(["name", "publisher", "kind", "schedule", "url", "captures"], rows, fmt))


@main.command()
@warehouse_option
def doctor(warehouse):
    """Check the installation and the warehouse, and say what to fix."""
    import duckdb

    warehouse = resolve_warehouse(warehouse)
    problems = 0
    click.echo(f"python:     {sys.version.split()[0]}")
    click.echo(f"duckdb:     {duckdb.__version__}")
    click.echo(f"warehouse:  {warehouse}")
    click.echo(f"prefect api: {os.environ.get('PREFECT_API_URL') or 'none (stages run in-process)'}")
    try:
        connection = lake.connect(warehouse, read_only=lake.catalog_path(warehouse).exists())
        tables = connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake'"
        ).fetchone()[0]
        files = connection.execute(
            "SELECT coalesce(sum(file_count), 0) FROM ducklake_table_info('lake')"
        ).fetchone()[0]
        connection.close()
        click.echo(f"catalog:    ok ({tables} tables)")
        click.echo(f"data files: {files} live ({_merge_schedule()}; `perfledger compact` "
                   "merges them now)")
    except lake.WarehouseError as error:
        problems += 1
        click.echo(f"catalog:    PROBLEM: {error}")
    except ValueError as error:
        problems += 1
        click.echo(f"data files: PROBLEM: {error}")
    sys.exit(1 if problems else 0)


def _merge_schedule() -> str:
    every = settings.merge_every()
    if every == 0:
        return f"ingest never merges small ones: {compaction.EVERY_ENV}=0"
    return f"ingest merges small ones every {every} snapshots"


for _command in discovered_commands():
    main.add_command(_command)

if __name__ == "__main__":
    main()
