"""The Prefect ingest flow: the plain stages of flows.pipeline as coarse tasks, with artifacts."""

from __future__ import annotations

import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from prefect import State, flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture
from prefect.states import Completed, Failed
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from perfledger.flows import pipeline
from perfledger.flows.runner import TASK_RUNNER_ENV, task_runner_setting
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.sources.collect import CollectedDocument
from perfledger.warehouse import lake, location
from perfledger.warehouse.dry_run_copy import copy_for_dry_run
from perfledger.warehouse.load import DocumentLoad

# A page takes well under a second to parse; a result still missing after this long was lost
# (a Dask cluster whose workers all died, say), and waiting on would hang the whole run.
PREPARE_TIMEOUT_S = 600
RESULTS_KEY = "ingest-results"
SUMMARY_KEY = "ingest-summary"
# A dry run keeps its own artifact keys so it never shadows the latest real run's.
DRY_RUN_RESULTS_KEY = "ingest-dry-run-results"
DRY_RUN_SUMMARY_KEY = "ingest-dry-run-summary"


def task_runner_from_env() -> TaskRunner[PrefectFuture[Any]]:
    """Threads by default; `dask` for local worker processes; a Dask scheduler address.

    The casts widen each runner to the type `flow(task_runner=...)` declares: Prefect's
    TaskRunner is invariant in its future type, so its annotation admits none of its own
    runners, though any runner is accepted."""
    setting = task_runner_setting()
    if setting in ("", "threads"):
        return cast(
            TaskRunner[PrefectFuture[Any]], ThreadPoolTaskRunner(max_workers=os.cpu_count() or 2)
        )
    try:
        from prefect_dask.task_runners import DaskTaskRunner
    except ImportError as error:
        raise RuntimeError(
            f"{TASK_RUNNER_ENV}={setting} needs the packages prefect-dask and "
            "dask[distributed]; install them or unset the variable"
        ) from error
    if setting == "dask":
        # One single-threaded process per core: parsing holds the GIL, so threads would queue.
        return cast(
            TaskRunner[PrefectFuture[Any]],
            DaskTaskRunner(
                cluster_kwargs={
                    "processes": True,
                    "threads_per_worker": 1,
                    "dashboard_address": ":0",
                }
            ),
        )
    return cast(TaskRunner[PrefectFuture[Any]], DaskTaskRunner(address=setting))


class _NoEmptyTraceback(logging.Filter):
    """Prefect logs a task that returns a Failed state with `exc_info=True` though nothing
    was raised, which prints a stray "NoneType: None" under the line: the failure's reason
    is in the line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is None:
            record.exc_info = None
        return True


logging.getLogger("prefect.task_runs").addFilter(_NoEmptyTraceback())

# Reading files and fetching pages is where a retry can help; parsing the same bytes again cannot.
collect_task = task(name="collect", retries=2, retry_delay_seconds=[1, 5], cache_policy=NO_CACHE)(
    pipeline.collect
)


@task(
    name="parse-normalize-validate",
    cache_policy=NO_CACHE,
    task_run_name="prepare {document.source_id}",
)
def prepare_task(
    document: CollectedDocument,
    known: set[str],
    current: dict,
    warehouse: Path,
    mappings: LabelMappings | None = None,
) -> DocumentLoad | State:
    """pipeline.prepare for one document; a document that fails makes this task run Failed."""
    logger = get_run_logger()
    try:
        load = pipeline.prepare(document, known, current, warehouse, mappings=mappings)
    except Exception as error:  # a parser bug on one page must not cost the other sources
        logger.exception(
            "source %s, document %s: unexpected error", document.source_id, document.location
        )
        load = crashed_load(document, error)
    if load.status == "failed":
        logger.error(
            "source %s, document %s: failed: %s",
            document.source_id,
            document.location,
            load.message,
        )
        # The load still travels back as data: the run records the failure in the warehouse.
        return Failed(message=f"{document.source_id}: {load.message}", data=FailedDocument(load))
    logger.info(
        "source %s, document %s: %s%s",
        document.source_id,
        document.location,
        load.status,
        f" - {load.message}" if load.message else "",
    )
    return load


@dataclass
class FailedDocument:
    """A failed document's load as a Failed state's data; Prefect logs its one-line repr."""

    load: DocumentLoad

    def __repr__(self) -> str:
        return f"FailedDocument({self.load.source_id!r})"


def crashed_load(document: CollectedDocument, error: BaseException) -> DocumentLoad:
    reason = f"{type(error).__name__}: {error}"
    return DocumentLoad(
        source_id=document.source_id,
        source_url=document.source_url,
        document_sha256=document.document_sha256 or "",
        status="failed",
        message=f"{document.location}: {reason}",
        errors=[(document.location, "parse", reason)],
    )


class ParallelStages:
    """The collect and prepare stages handed to pipeline.ingest, run on the flow's task runner.

    pipeline.ingest asks for one document at a time; when it asks for the first document of
    a planned run, every document of that run is submitted at once with the same arguments,
    so a parallel task runner parses them side by side while the warehouse writes stay in
    the flow's process.
    """

    def __init__(self) -> None:
        self.batches: list[list[CollectedDocument]] = []
        self.pending: dict[int, tuple] = {}
        self.locations: dict[int, str] = {}
        # Read once by the flow, where the run pulled them (a shared warehouse's from its
        # bucket), and handed to every task: a worker elsewhere has no copy of its own.
        self.mappings: LabelMappings | None = None

    def mappings_of(self, warehouse: Path) -> LabelMappings:
        if self.mappings is None:
            self.mappings = pipeline.label_mappings(warehouse)
        return self.mappings

    def collect(self, targets, registry, warehouse, *options) -> list[CollectedDocument]:
        documents = collect_task(targets, registry, warehouse, *options)
        logger = get_run_logger()
        for document in documents:
            logger.info(
                "source %s, document %s: %s",
                document.source_id,
                document.location,
                document.error or f"collected, sha256 {document.document_sha256}",
            )
        self.batches = pipeline.plan_runs(documents)
        return documents

    def prepare(self, document, known, current, warehouse) -> DocumentLoad:
        if id(document) not in self.pending:
            self.submit_batch_of(document, known, current, warehouse)
        future, submitted_known, submitted_current = self.pending.pop(id(document), (None,) * 3)
        # Reuse the submitted run only if the loop passes the very objects it was submitted with.
        if future is not None and submitted_known is known and submitted_current is current:
            load = load_from(
                lambda: future.result(timeout=PREPARE_TIMEOUT_S, raise_on_failure=False), document
            )
        else:
            state = prepare_task(
                document, known, current, warehouse, self.mappings_of(warehouse), return_state=True
            )
            load = load_from(lambda: state.result(raise_on_failure=False), document)
        self.locations[id(load)] = document.location
        return load

    def submit_batch_of(self, document, known, current, warehouse) -> None:
        batch = next((b for b in self.batches if any(d is document for d in b)), [document])
        for member in batch:
            if id(member) not in self.pending:
                future = prepare_task.submit(
                    member, known, current, warehouse, self.mappings_of(warehouse)
                )
                self.pending[id(member)] = (future, known, current)


def load_from(result, document: CollectedDocument) -> DocumentLoad:
    """The DocumentLoad of a finished prepare run, whether it completed or failed."""
    try:
        value = result()
    except Exception as error:  # a task runner that lost the run, or the timeout
        value = error
    if isinstance(value, FailedDocument):
        return value.load
    if isinstance(value, DocumentLoad):
        return value
    return crashed_load(
        document,
        value if isinstance(value, BaseException) else RuntimeError(f"no result: {value!r}"),
    )


def split_source(source: str) -> tuple[list[str], str | None]:
    """(targets, source name): a path or URL is read as given, a bare name is fetched as
    registered, exactly as `perfledger ingest PATH_OR_URL` and `--source NAME` do."""
    if "/" in source or Path(source).exists():
        return [source], None
    return [], source


def run_trigger(trigger: str) -> str:
    """Name the deployment in the recorded trigger, so a snapshot says which schedule ran it."""
    from prefect.runtime import deployment

    name = deployment.name
    return f"{trigger}:ingest/{name}" if name and trigger == "prefect" else trigger


@flow(name="ingest", log_prints=False, task_runner=task_runner_from_env())
def ingest_flow(
    targets: list[str] | None = None,
    warehouse: str | None = None,
    trigger: str = "prefect",
    wait_s: float = 60.0,
    source_name: str | None = None,
    captured_at: str | None = None,
    source: str | None = None,
    dry_run: bool = False,
    mlperf_round: str | None = None,
    publish: bool = False,
) -> State:
    """Ingest files, folders, a registered source or the bundled demo corpus.

    `source`: a registered source's name (fetched), or a file, folder or URL.
    `dry_run`: parse, normalize and validate, report what would change, write nothing.
    `publish`: run the `publish` flow (the BI export) after a load.
    `mlperf_round`: the round of a results tree whose logs and folders do not name it.
    """
    logger = get_run_logger()
    # A folder, or a shared warehouse's location (postgres://...): this machine's folder for it.
    folder = location.resolve(warehouse) if warehouse else lake.default_warehouse_dir()
    chosen = list(targets or [])
    if source is not None:
        extra, named = split_source(source)
        chosen += extra
        source_name = named or source_name
    stages = ParallelStages()
    options = {
        "trigger": run_trigger(trigger),
        "wait_s": wait_s,
        "progress": logger.info,
        "collect_stage": stages.collect,
        "prepare_stage": stages.prepare,
        "source_name": source_name,
        "captured_at": captured_at,
        "mlperf_round": mlperf_round,
    }
    summary = ingest_into(chosen, folder, options, dry_run)
    publish_artifacts(summary, stages.locations, dry_run)
    message = summary_message(summary, dry_run)
    logger.info(message)
    if every_document_failed(summary):
        # Nothing was read: the run is red, so that an alert on failed runs fires.
        return Failed(message=message, data=summary)
    if publish and not dry_run:
        return publish_after(summary, message)
    return Completed(message=message, data=summary)


def every_document_failed(summary: pipeline.IngestSummary) -> bool:
    return bool(summary.documents_read) and len(summary.failures) == summary.documents_read


def ingest_into(
    targets: list[str], folder: Path, options: dict, dry_run: bool
) -> pipeline.IngestSummary:
    if not dry_run:
        return pipeline.ingest(targets, folder, **options)
    with tempfile.TemporaryDirectory(prefix="perfledger-dry-run-") as scratch:
        summary = pipeline.ingest(targets, copy_for_dry_run(folder, Path(scratch)), **options)
    summary.warehouse = folder
    return summary


def publish_after(summary: pipeline.IngestSummary, message: str) -> State:
    from perfledger.flows.publish import publish_flow

    state = publish_flow(warehouse=str(summary.warehouse), return_state=True)
    if not state.is_completed():
        return Failed(message=f"{message}; the export failed: {state.message}")
    return Completed(message=f"{message}; exported", data=summary)


def summary_message(summary: pipeline.IngestSummary, dry_run: bool) -> str:
    """The flow run's final message: what was (or would be) written, and what failed."""
    snapshots = ", ".join(str(run.snapshot_id) for run in summary.runs) or "none"
    values = (
        f"{summary.total('values_added')} added, {summary.total('values_changed')} "
        f"changed, {summary.total('values_removed')} removed, "
        f"{summary.total('values_quarantined')} quarantined"
    )
    if dry_run:
        text = (
            f"dry run, nothing written: {summary.documents_read} documents read, "
            f"would write {len(summary.runs)} snapshot(s) with values {values}"
        )
    else:
        text = f"{summary.documents_read} documents read, snapshots {snapshots}, values {values}"
    failures = summary.failures
    if failures:
        names = ", ".join(sorted({d.source_id for d in failures}))
        text += f"; {len(failures)} of {summary.documents_read} documents failed ({names})"
    return text


def document_name(location: str) -> str:
    return location if "://" in location else Path(location).name


def result_rows(summary: pipeline.IngestSummary, locations: dict[int, str]) -> list[dict]:
    """One row per document version read, for the per-source table artifact."""
    rows = []
    for run in summary.all_runs:
        for document in run.documents:
            location = locations.get(id(document), "")
            rows.append(
                {
                    "source": document.source_id,
                    "document": document_name(location) or document.source_url,
                    "sha256": document.document_sha256[:12],
                    "status": document.status,
                    "snapshot": run.snapshot_id,
                    "values added": document.counts.values_added,
                    "values changed": document.counts.values_changed,
                    "values removed": document.counts.values_removed,
                    "values quarantined": document.counts.values_quarantined,
                    "message": document.message,
                }
            )
    return rows


def summary_markdown(summary: pipeline.IngestSummary, dry_run: bool) -> str:
    heading = "Dry run (nothing written)" if dry_run else "Ingest"
    snapshot_word = "Snapshots a real run would write" if dry_run else "Snapshots written"
    lines = [
        f"# {heading}: `{summary.warehouse}`",
        "",
        f"{snapshot_word}: "
        + (
            ", ".join(f"**{run.snapshot_id}** (run `{run.run_id}`)" for run in summary.runs)
            or "none"
        ),
        "",
        "| documents | new | unchanged | older than stored | failed | tables | values added "
        "| changed | removed | quarantined |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| {summary.documents_read} | {summary.count_status('new')} "
        f"| {summary.count_status('unchanged')} | {summary.count_status('stale')} "
        f"| {len(summary.failures)} | {summary.tables_found} "
        f"| {summary.total('values_added')} | {summary.total('values_changed')} "
        f"| {summary.total('values_removed')} | {summary.total('values_quarantined')} |",
    ]
    if summary.failures:
        lines += ["", "Failed documents:", ""]
        lines += [f"* `{d.source_id}`: {d.message}" for d in summary.failures]
    return "\n".join(lines)


def publish_artifacts(
    summary: pipeline.IngestSummary, locations: dict[int, str], dry_run: bool
) -> None:
    results_key, summary_key = (
        (DRY_RUN_RESULTS_KEY, DRY_RUN_SUMMARY_KEY) if dry_run else (RESULTS_KEY, SUMMARY_KEY)
    )
    create_table_artifact(
        table=result_rows(summary, locations),
        key=results_key,
        description="Per document: status and the values it added, changed, removed or "
        "quarantined" + (" (dry run)" if dry_run else ""),
    )
    create_markdown_artifact(
        markdown=summary_markdown(summary, dry_run),
        key=summary_key,
        description="Snapshots and totals of the ingest" + (" (dry run)" if dry_run else ""),
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
