"""Options and helpers shared by every `perfledger` command."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path
from typing import NoReturn

import click

from perfledger.flows.location_option import WarehouseLocation
from perfledger.flows.output import FORMATS, MAX_WIDTH
from perfledger.warehouse import lake
from perfledger.warehouse.query import query_text

WAREHOUSE_HELP = (
    "Warehouse folder, or a shared warehouse: postgres://HOST/DB?data=s3://BUCKET/PREFIX "
    "or a .toml file (default: $PERFLEDGER_WAREHOUSE or "
    "~/.local/share/perfledger/warehouse)."
)


def warehouse_option(function):
    return click.option(
        "--warehouse",
        "warehouse",
        type=WarehouseLocation(),  # a folder, or postgres://...?data=s3://... or a .toml
        envvar="PERFLEDGER_WAREHOUSE",
        default=None,
        help=WAREHOUSE_HELP,
    )(function)


def format_option(function):
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="table",
        show_default=True,
        help="Output format.",
    )(function)


def max_width_option(function):
    return click.option(
        "--max-width",
        "max_width",
        type=click.IntRange(min=0),
        default=MAX_WIDTH,
        show_default=True,
        help="Longest table cell in characters; a longer one is cut and ends in \u2026 "
        "(0: never cut). CSV and JSON are never cut.",
    )(function)


def installed_version() -> str:
    """The version of the installed `perfledger` distribution."""
    try:
        return metadata.version("perfledger")
    except metadata.PackageNotFoundError:
        return "unknown (perfledger is not installed; run `pip install -e .`)"


def _print_version(context: click.Context, _option, given: bool) -> None:
    if given and not context.resilient_parsing:
        click.echo(f"perfledger {installed_version()}")
        context.exit()


def version_option(function):
    return click.option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_print_version,
        help="Print the installed version and exit.",
    )(function)


def resolve_warehouse(path: Path | None) -> Path:
    return path if path is not None else lake.default_warehouse_dir()


def fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def require_sources(warehouse: Path, sources) -> None:
    """Stop (exit 2) on a --source NAME the warehouse has never read: an empty answer would
    look like a source without rows."""
    from perfledger.warehouse.query import run_query

    for name in sources:
        if not run_query(warehouse, "source_read", {"source": name})[1][0][0]:
            fail(
                f"the warehouse at {warehouse} has read no source named '{name}'; "
                '`perfledger sql "SELECT DISTINCT source_id FROM document_versions"` '
                "lists those it has"
            )


def interrupted(summary=None) -> NoReturn:
    """Ctrl-C: say what was written, and exit 130 as a shell expects of an interrupted
    command. Each run is committed whole or not at all, so the run in progress wrote
    nothing; `summary` holds the runs committed before it, if any."""
    committed = [run.snapshot_id for run in summary.runs] if summary is not None else []
    if committed:
        snapshots = ", ".join(str(snapshot) for snapshot in committed)
        click.echo(
            f"interrupted: the run in progress wrote nothing; the runs committed "
            f"before it stay (snapshots {snapshots})",
            err=True,
        )
    elif summary is not None:
        click.echo(
            "interrupted: nothing was written (each run is committed whole or not at all)", err=True
        )
    else:
        click.echo(
            "interrupted: the run in progress wrote nothing (each run is committed "
            "whole or not at all; `perfledger snapshots` lists those that were)",
            err=True,
        )
    sys.exit(130)


def example_query() -> str:
    """The query `ingest` suggests after loading a new document (warehouse/queries/
    example.sql, less its comment line), on one line; read only when it is shown."""
    return " ".join(query_text("example").split("\n", 1)[1].split())


def database_failure(error: BaseException) -> str:
    """The first line of the DuckDB error a failure started with. One raised while cleaning
    up after another (a ROLLBACK on a connection the server closed, a statement in a
    transaction already aborted) names only a consequence; the cause is the error it was
    raised while handling."""
    import duckdb

    cause, seen = error, {id(error)}
    while (
        isinstance(earlier := cause.__cause__ or cause.__context__, duckdb.Error)
        and id(earlier) not in seen
    ):
        cause = earlier
        seen.add(id(cause))
    return lake.first_line(cause)
