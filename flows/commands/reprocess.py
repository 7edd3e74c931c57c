"""`perfledger reprocess`: apply today's parser and vocabularies to the stored pages."""

from __future__ import annotations

import click
import duckdb

from perfledger.flows.cli_common import (
    database_failure,
    fail,
    interrupted,
    require_sources,
    resolve_warehouse,
    warehouse_option,
)
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import lake


@click.command()
@warehouse_option
@click.option("--source", "sources", multiple=True, help="Only this source (repeatable).")
@click.option(
    "--wait",
    "wait_s",
    type=float,
    default=0.0,
    show_default=True,
    help="Seconds to wait for another run holding the warehouse.",
)
def reprocess(warehouse, sources, wait_s):
    """Re-read the archived current version of every source; nothing is fetched."""
    from perfledger.flows.live_progress import tracker_for
    from perfledger.flows.pipeline import reprocess as run_reprocess

    folder = resolve_warehouse(warehouse)
    try:
        lake.require_warehouse(folder)
        require_sources(folder, sources)
        with tracker_for(quiet=False, reading="reading archived documents") as tracker:
            summary = run_reprocess(
                folder, source_names=list(sources), wait_s=wait_s, tracker=tracker
            )
    except KeyboardInterrupt as interruption:
        interrupted(getattr(interruption, "summary", None))
    except (lake.WarehouseError, ObjectStoreError) as error:
        fail(str(error))
    except duckdb.Error as error:  # the catalog or the object store failed mid-run
        fail(
            f"the reprocess stopped: {database_failure(error)}. Each run is committed whole "
            "or not at all; run it again once this is fixed"
        )
    click.echo(
        f"documents re-read: {summary.documents_read} ({len(summary.failures)} failed); "
        f"values added "
        f"{summary.total('values_added')}, changed {summary.total('values_changed')}, removed "
        f"{summary.total('values_removed')}, quarantined {summary.total('values_quarantined')}"
    )


COMMAND = reprocess
