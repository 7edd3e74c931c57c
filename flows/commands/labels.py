"""`perfledger labels`: the labels perfledger kept as published but could not resolve."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import render
from perfledger.warehouse import lake, query


@click.command("labels")
@warehouse_option
@format_option
def labels(warehouse, fmt):
    """Labels kept as published but not resolved, with how many values each holds."""
    try:
        columns, rows = query.run_query(resolve_warehouse(warehouse), "unresolved_labels")
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


COMMAND = labels
