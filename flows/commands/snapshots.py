"""`perfledger snapshots`: the warehouse's snapshots, with the run each one recorded."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import render
from perfledger.warehouse import lake, query


@click.command()
@warehouse_option
@format_option
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Also the snapshots of the warehouse's creation and schema migrations.",
)
def snapshots(warehouse, fmt, everything):
    """List the snapshots of ingest runs and merges: run, trigger, documents, value counts.

    A run that changed nothing writes no snapshot. The ids are the ones `--as-of` and
    `perfledger diff` take; the warehouse's creation and its schema migrations have
    snapshots of their own (the first ones), listed with --all."""
    try:
        columns, rows, hidden = query.snapshot_listing(resolve_warehouse(warehouse), everything)
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))
    if hidden and fmt == "table":
        click.echo(
            f"({hidden} snapshot{'s' if hidden > 1 else ''} of the warehouse's creation "
            "and schema migrations not shown: --all lists them)",
            err=True,
        )


COMMAND = snapshots
