"""`perfledger reprocess`: apply today's parser and vocabularies to the stored pages."""

from __future__ import annotations

import click
import duckdb

from perfledger.flows.cli_common import (
    database_failure,
    fail,
    resolve_warehouse,
    warehouse_option,
)
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import lake


@click.command()
@warehouse_option
@click.option("--source", "sources", multiple=True, help="Only this source (repeatable).")
@click.option("--wait", "wait_s", type=float, default=0.0, show_default=True,
              help="Seconds to wait for another run holding the warehouse.")
def reprocess(warehouse, sources, wait_s):
    """Re-read the archived current version of every source; nothing is fetched."""
    from perfledger.flows.pipeline import reprocess as run_reprocess

    try:
        summary = run_reprocess(resolve_warehouse(warehouse), source_names=list(sources),
                                wait_s=wait_s, progress=lambda m: click.echo(f"  {m}", err=True))
    except (lake.WarehouseError, ObjectStoreError) as error:
        fail(str(error))
    except duckdb.Error as error:  # the catalog or the object store failed mid-run
        fail(f"the reprocess stopped: {database_failure(error)}. Each run is committed whole "
             "or not at all; run it again once this is fixed")
    click.echo(
        f"documents re-read: {summary.documents_read} ({len(summary.failures)} failed); "
        f"values added "
        f"{summary.total('values_added')}, changed {summary.total('values_changed')}, removed "
        f"{summary.total('values_removed')}, quarantined {summary.total('values_quarantined')}"
    )


COMMAND = reprocess
