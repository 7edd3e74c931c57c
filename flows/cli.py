"""The `perfledger` command: thin wrappers that parse arguments and call flows or the warehouse."""

from __future__ import annotations

import sys

import click
import duckdb

from perfledger.flows.cli_common import (
    database_failure,
    example_query,
    fail,
    format_option,
    interrupted,
    max_width_option,
    require_sources,
    resolve_warehouse,
    version_option,
    warehouse_option,
)
from perfledger.flows.commands import CommandGroup
from perfledger.flows.output import render
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import lake, query, shared_settings


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@version_option
def main() -> None:
    """perfledger: vendor benchmark pages as a versioned SQL warehouse."""


@main.command()
@click.argument("targets", nargs=-1)
@warehouse_option
@click.option("--trigger", default="cli", show_default=True, help="Recorded with the snapshot.")
@click.option(
    "--wait",
    "wait_s",
    type=float,
    default=0.0,
    show_default=True,
    help="Seconds to wait for another ingest holding the warehouse.",
)
@click.option("--quiet", is_flag=True, help="Print only the summary.")
@click.option(
    "--source",
    "source_name",
    default=None,
    help="Fetch this registered source; with files, treat them as its versions.",
)
@click.option(
    "--captured-at",
    "captured_at",
    default=None,
    help="Capture time (ISO 8601) of the files given; default: their mtime.",
)
@click.option(
    "--round",
    "mlperf_round",
    default=None,
    metavar="X.Y",
    help="MLPerf round of a results tree whose logs and folders do not name it.",
)
def ingest(targets, warehouse, trigger, wait_s, quiet, source_name, captured_at, mlperf_round):
    """Read PATH_OR_URL ... (files, folders) or, with none, the bundled demo corpus."""
    from perfledger.flows.live_progress import tracker_for
    from perfledger.flows.runner import run_ingest, through_prefect

    warehouse = resolve_warehouse(warehouse)
    try:
        # A flow run logs through Prefect, whose lines a live display would garble.
        with tracker_for(quiet or through_prefect()) as tracker:
            summary = run_ingest(
                list(targets),
                warehouse,
                trigger=trigger,
                wait_s=wait_s,
                progress=_progress_lines(quiet),
                tracker=tracker,
                source_name=source_name,
                captured_at=captured_at,
                mlperf_round=mlperf_round,
            )
    except KeyboardInterrupt as interruption:
        interrupted(getattr(interruption, "summary", None))
    except (lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except ObjectStoreError as error:  # the raw pages could not be put on the bucket
        fail(
            f"the ingest stopped: {error}. Nothing of this run was committed; run the "
            "ingest again once the object store answers"
        )
    except duckdb.Error as error:  # the catalog or the object store failed mid-run
        fail(
            f"the ingest stopped: {database_failure(error)}. Each run is committed whole or "
            "not at all (`perfledger snapshots` lists those that were); run the ingest again "
            "once this is fixed"
        )
    click.echo(_summary_text(summary))
    if summary.failures and summary.documents_read == len(summary.failures):
        sys.exit(1)


def _progress_lines(quiet: bool):
    return (lambda message: None) if quiet else (lambda m: click.echo(f"  {m}", err=True))


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
            *summary.claim_counts()
        ),
        "snapshots:           "
        + (", ".join(str(run.snapshot_id) for run in summary.runs) or "none"),
        f"warehouse:           {summary.warehouse}",
    ]
    for failure in summary.failures:
        lines.append(f"failed: {failure.message}")
    # A next step only after a run that loaded something (a new document, a snapshot
    # written) and in which no document failed.
    if summary.count_status("new") and summary.runs and not summary.failures:
        lines.append(f'try:                 perfledger sql "{example_query()}"')
    return "\n".join(lines)


@main.command()
@click.argument("sql_text", metavar="QUERY")
@warehouse_option
@format_option
@click.option(
    "--as-of",
    "as_of",
    default=None,
    help="Snapshot id, or a time of ingest (ISO 8601, UTC unless it names a zone): "
    "answer as the warehouse stood then.",
)
@max_width_option
def sql(sql_text, warehouse, fmt, as_of, max_width):
    """Run one read-only SQL statement against the warehouse views (measurements, ...)."""
    _refuse_several_statements(sql_text)
    try:
        columns, rows = query.run_sql(resolve_warehouse(warehouse), sql_text, as_of)
    except (query.ReadOnlyViolation, lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except Exception as error:  # DuckDB's own errors name the problem in the SQL
        fail(f"query failed: {error}")
    click.echo(render(columns, rows, fmt, max_width=max_width))


def _refuse_several_statements(sql_text: str) -> None:
    """Only one result is printed, so a second statement would hide the first one's."""
    try:
        count = len(duckdb.extract_statements(sql_text))
    except duckdb.Error:
        return  # run_sql's read-only check says what cannot be parsed
    if count > 1:
        fail(
            f"`perfledger sql` runs one statement, and the SQL holds {count}: run them "
            "one at a time (or join them with UNION ALL or WITH into one)"
        )


@main.command()
@warehouse_option
@format_option
@click.option("--source", default=None, help="Only this source.")
def quarantine(warehouse, fmt, source):
    """List quarantined values with the stage, the check and the reason."""
    folder = resolve_warehouse(warehouse)
    try:
        columns, rows = query.run_query(folder, "quarantine_list", {"source": source})
        if source is not None and not rows:
            require_sources(folder, [source])
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


@main.command()
@format_option
@warehouse_option
def sources(fmt, warehouse):
    """List the registered sources (bundled and added) and the bundled captures of each."""
    from perfledger.flows.pipeline import registry_for

    folder = resolve_warehouse(warehouse)
    try:
        shared_settings.pull(folder)  # a shared warehouse's added sources are on its bucket
    except ObjectStoreError as error:
        fail(str(error))
    registry = registry_for(folder)
    rows = []
    for source in registry.sources.values():
        captures = [c for c in registry.captures if c.source == source.name]
        rows.append(
            (source.name, source.publisher, source.kind, source.schedule, source.url, len(captures))
        )
    click.echo(render(["name", "publisher", "kind", "schedule", "url", "captures"], rows, fmt))


if __name__ == "__main__":
    main()
