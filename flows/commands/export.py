"""`perfledger export`: every public view to Parquet, CSV or one DuckDB file."""

from __future__ import annotations

import json
from pathlib import Path

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import lake
from perfledger.warehouse.export import FORMATS, ExportError
from perfledger.warehouse.export_remote import export_to, is_remote_target

PRINTED = ("table", "json")


@click.command("export")
@click.argument("target")
@warehouse_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="parquet",
    show_default=True,
    help="Format of the files written: parquet (hive-partitioned by vendor and "
    "metric), csv, or one duckdb file.",
)
@click.option("--as-of", "as_of", default=None, help="Snapshot id or timestamp to export.")
@click.option(
    "--print",
    "printed",
    type=click.Choice(PRINTED),
    default="table",
    show_default=True,
    help="What is printed once written: a summary line (table) or the manifest (json).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Deprecated: the same as --print json, which replaces it.",
)
def export(target, warehouse, fmt, as_of, printed, as_json):
    """Write every public view to folder TARGET (or s3://BUCKET/PREFIX), with manifest.json;
    replaces an older export.

    --format is the files' format; --print chooses what is printed (as the other commands'
    --format does)."""
    if as_json:
        click.echo("warning: --json is deprecated; use --print json", err=True)
        printed = "json"
    progress = lambda message: click.echo(f"  {message}", err=True)  # noqa: E731
    try:
        if not is_remote_target(target):
            target = Path(target).absolute()
        manifest = export_to(resolve_warehouse(warehouse), target, fmt, as_of, progress)
    except (ExportError, lake.WarehouseError, ValueError, ObjectStoreError) as error:
        fail(str(error))
    except Exception as error:  # DuckDB's own errors name what failed
        fail(f"export failed: {error}")
    if printed == "json":
        click.echo(json.dumps(manifest, indent=1, ensure_ascii=False))
        return
    rows = sum(view["rows"] for view in manifest["views"].values())
    click.echo(
        f"exported {len(manifest['views'])} views ({rows} rows) from snapshot "
        f"{manifest['snapshot_id']} ({manifest['snapshot_time']}) as {fmt} to {target}"
    )


COMMAND = export
