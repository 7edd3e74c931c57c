"""`perfledger reconcile`: vendor-page values beside their official MLPerf counterparts."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import render
from perfledger.warehouse import lake, query


@click.command("reconcile")
@warehouse_option
@format_option
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Also list the MLPerf rows of pages that no official value pairs with.",
)
def reconcile(warehouse, fmt, show_all):
    """Each vendor-page value with an official MLPerf counterpart: both numbers, the
    difference and the rule that paired them (view official_reconciliation)."""
    try:
        columns, rows = query.run_query(
            resolve_warehouse(warehouse), "reconciliation", {"everything": show_all}
        )
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


COMMAND = reconcile
