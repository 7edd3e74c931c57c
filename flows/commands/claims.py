"""`perfledger claims`: comparative claims from prose, optionally checked against measurements."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import render
from perfledger.warehouse import lake, query

TOLERANCE = 0.10  # a measured ratio within 10% below the claimed one still supports it
LIST_COLUMNS = ("claim_id, source_id, subject, baseline, model, metric, ratio, ratio_text, "
                "qualifier, is_qualitative, confidence, review_status, sentence")


@click.command()
@warehouse_option
@format_option
@click.option("--check", is_flag=True,
              help="Set each claim beside the measurements of both systems.")
@click.option("--source", default=None, help="Only claims from this source.")
def claims(warehouse, fmt, check, source):
    """List comparative claims found in page prose."""
    condition = "true"
    if source:
        condition = "source_id = '" + source.replace("'", "''") + "'"
    if check:
        sql_text = query.query_text("claim_check").format(
            tolerance=TOLERANCE, source_filter=condition.replace("source_id", "c.source_id"))
    else:
        sql_text = (f"SELECT {LIST_COLUMNS} FROM claims WHERE {condition} "
                    "ORDER BY source_id, claim_index")
    try:
        columns, rows = query.run_sql(resolve_warehouse(warehouse), sql_text)
    except lake.WarehouseError as error:
        fail(str(error))
    click.echo(render(columns, rows, fmt))


COMMAND = claims
