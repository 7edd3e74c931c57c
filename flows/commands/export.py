"""`perfledger export`: every public view to Parquet, CSV or one DuckDB file."""

from __future__ import annotations

import json
from pathlib import Path

import click

from flows.cli_common import fail, resolve_warehouse, warehouse_option
from warehouse import lake
from warehouse.export import FORMATS, ExportError, export_warehouse


@click.command("export")
@click.argument("target", type=click.Path(path_type=Path))
@warehouse_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="parquet", show_default=True,
              help="parquet (hive-partitioned by vendor and metric), csv, or one duckdb file.")
@click.option("--as-of", "as_of", default=None, help="Snapshot id or timestamp to export.")
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def export(target, warehouse, fmt, as_of, as_json):
    """Write every public view to folder TARGET, with manifest.json; replaces an older export."""
    progress = lambda message: click.echo(f"  {message}", err=True)  # noqa: E731
    try:
        manifest = export_warehouse(resolve_warehouse(warehouse), target, fmt, as_of, progress)
    except (ExportError, lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except Exception as error:  # DuckDB's own errors name what failed
        fail(f"export failed: {error}")
    if as_json:
        click.echo(json.dumps(manifest, indent=1, ensure_ascii=False))
        return
    rows = sum(view["rows"] for view in manifest["views"].values())
    click.echo(
        f"exported {len(manifest['views'])} views ({rows} rows) from snapshot "
        f"{manifest['snapshot_id']} ({manifest['snapshot_time']}) as {fmt} to {target.absolute()}"
    )


COMMAND = export
