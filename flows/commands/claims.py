"""`perfledger claims`: comparative claims from prose, optionally checked against measurements."""

from __future__ import annotations

import click

from flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from flows.output import render
from warehouse import lake, named_queries


@click.command()
@warehouse_option
@format_option
@click.option("--check", is_flag=True,
              help="Set each claim beside the measurements of both systems.")
@click.option("--source", default=None, help="Only claims from this source.")
def claims(warehouse, fmt, check, source):
    """List comparative claims found in page prose."""
    # claim_check.sql: each claim's verdict, with the tolerance of named_queries.CLAIM_TOLERANCE.
    name, parameters = (("claim_check", named_queries.claim_check_parameters(source or None))
                        if check else ("claims", {"source": source or None}))
    try:
        columns, rows = named_queries.read(resolve_warehouse(warehouse), name, parameters)
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


COMMAND = claims
