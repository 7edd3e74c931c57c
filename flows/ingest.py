"""The Prefect ingest flow: the plain stages of flows.pipeline, each run as a coarse task."""

from __future__ import annotations

from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows import pipeline
from warehouse import lake

# Reading files and fetching pages is where a retry can help; parsing the same bytes again cannot.
collect_task = task(pipeline.collect, name="collect", retries=2, retry_delay_seconds=[1, 5],
                    cache_policy=NO_CACHE)
prepare_task = task(pipeline.prepare, name="parse-normalize-validate", cache_policy=NO_CACHE,
                    task_run_name="prepare {document.source_id}")


@flow(name="ingest", log_prints=False)
def ingest_flow(
    targets: list[str] | None = None,
    warehouse: str | None = None,
    trigger: str = "prefect",
    wait_s: float = 60.0,
    source_name: str | None = None,
    captured_at: str | None = None,
) -> pipeline.IngestSummary:
    """Ingest files, folders or the bundled demo corpus into the warehouse."""
    logger = get_run_logger()
    folder = Path(warehouse) if warehouse else lake.default_warehouse_dir()
    return pipeline.ingest(
        targets or [], folder, trigger=trigger, wait_s=wait_s, progress=logger.info,
        collect_stage=collect_task, prepare_stage=prepare_task,
        source_name=source_name, captured_at=captured_at,
    )


def summary_record(summary: pipeline.IngestSummary) -> dict:
    return {
        "warehouse": str(summary.warehouse),
        "documents_read": summary.documents_read,
        "tables_found": summary.tables_found,
        "values_added": summary.total("values_added"),
        "values_changed": summary.total("values_changed"),
        "values_removed": summary.total("values_removed"),
        "values_quarantined": summary.total("values_quarantined"),
        "snapshots": [run.snapshot_id for run in summary.runs],
        "failures": [d.message for d in summary.failures],
    }
