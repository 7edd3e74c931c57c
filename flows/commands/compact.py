"""`perfledger compact`: merge the warehouse's small data files now."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.warehouse import compaction, lake


@click.command()
@warehouse_option
@click.option(
    "--wait",
    "wait_s",
    type=float,
    default=0.0,
    show_default=True,
    help="Seconds to wait for another run holding the warehouse.",
)
def compact(warehouse, wait_s):
    """Merge the warehouse's small data files now; every snapshot answers as before.

    Ingest merges them on its own every $PERFLEDGER_COMPACT_EVERY snapshots (64 by
    default; 0 never)."""
    warehouse = resolve_warehouse(warehouse)
    try:
        lake.require_warehouse(warehouse)  # a folder's catalog, or a shared warehouse's
    except lake.WarehouseError as error:
        fail(str(error))
    try:
        with lake.writer_lock(
            warehouse, wait_s, waiting=lambda message: click.echo(f"  {message}", err=True)
        ):
            connection = lake.connect(warehouse, views=False)
            try:
                merged = compaction.compact(connection, "compaction (perfledger compact)")
            finally:
                connection.close()
    except lake.WarehouseError as error:
        fail(str(error))
    removed = (
        f"; deleted {merged.files_removed} data files no snapshot needs (replaced "
        "by an earlier merge, or left by a run that never committed)"
        if merged.files_removed
        else ""
    )
    click.echo(f"merged {merged.files_merged} data files into {merged.files_written}{removed}")


COMMAND = compact
