"""`perfledger claims`: comparative claims from prose, optionally checked against measurements."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import (
    fail,
    format_option,
    require_sources,
    resolve_warehouse,
    warehouse_option,
)
from perfledger.flows.output import render
from perfledger.warehouse import lake
from perfledger.warehouse.claim_check import checked_claims, listed_claims


@click.command()
@warehouse_option
@format_option
@click.option(
    "--check", is_flag=True, help="Set each claim beside the measurements of both systems."
)
@click.option("--source", default=None, help="Only claims from this source.")
def claims(warehouse, fmt, check, source):
    """List comparative claims found in page prose."""
    read = checked_claims if check else listed_claims
    folder = resolve_warehouse(warehouse)
    try:
        columns, rows = read(folder, source)
        if source is not None and not rows:
            require_sources(folder, [source])
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


COMMAND = claims
