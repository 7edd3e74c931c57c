"""`perfledger dictionary`: every public view and column, described, as Markdown or JSON."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click
import duckdb

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.warehouse import lake, query
from perfledger.warehouse.dictionary import describe_views, render_json, render_markdown


@click.command("dictionary")
@warehouse_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
    help="Output format.",
)
def dictionary(warehouse, fmt):
    """Describe every public view and each of its columns, with types."""
    warehouse = resolve_warehouse(warehouse)
    try:
        docs = describe_with(warehouse)
    except lake.WarehouseError as error:
        fail(str(error))
    except duckdb.Error as error:  # e.g. a view over a table that a newer migration adds
        fail(f"cannot open the warehouse views ({error}); run `perfledger ingest` to migrate")
    if fmt == "json":
        click.echo(json.dumps(render_json(docs), indent=1, ensure_ascii=False))
    else:
        click.echo(render_markdown(docs), nl=False)


def describe_with(warehouse: Path):
    """Column types come from the views themselves; an empty warehouse serves when none exists."""
    if lake.catalog_path(warehouse).exists():
        connection = query.open_read_only(warehouse)
        try:
            return describe_views(connection)
        finally:
            connection.close()
    with tempfile.TemporaryDirectory(prefix="perfledger-dictionary-") as scratch:
        connection = lake.connect(Path(scratch))
        try:
            return describe_views(connection)
        finally:
            connection.close()


COMMAND = dictionary
