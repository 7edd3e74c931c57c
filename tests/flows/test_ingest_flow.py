"""The Prefect ingest and publish flows against a temporary Prefect server (one per session)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

import polars as pl
import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    FlowRunFilter,
    FlowRunFilterId,
)
from prefect.task_runners import ThreadPoolTaskRunner

from perfledger.flows import ingest, pipeline
from perfledger.flows.ingest import TASK_RUNNER_ENV, ingest_flow, split_source, task_runner_from_env
from perfledger.warehouse import lake
from tests.conftest import CORPUS, JANUARY_2022, JULY_2023

BOW_POD16_RESNET = (
    "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
    "AND system = 'Bow Pod16' AND workload = 'training' AND metric = 'throughput' "
    "AND framework = 'TensorFlow1'"
)


def query(warehouse: Path, sql: str) -> list[tuple]:
    connection = lake.connect(warehouse, read_only=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def stored_values(warehouse: Path) -> set[tuple]:
    return set(query(warehouse, "SELECT measurement_key, content_hash FROM measurement_values"))


def run_artifacts(flow_run_id) -> dict[str, object]:
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]))
        )
    return {artifact.key: artifact for artifact in found}


def table_rows(artifact) -> list[dict]:
    return json.loads(artifact.data) if isinstance(artifact.data, str) else artifact.data


def task_states(flow_run_id) -> dict[str, str]:
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
        )
    return {run.name: run.state.type.value for run in runs if run.name.startswith("prepare")}


def folder_listing(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_demo_corpus_through_the_flow_matches_the_plain_stages(
    prefect_api, demo_warehouse, tmp_path
):
    warehouse = tmp_path / "warehouse"
    state = ingest_flow(warehouse=str(warehouse), publish=True, return_state=True)

    assert state.is_completed(), state.message
    summary = state.result()
    snapshots = [run.snapshot_id for run in summary.runs]
    assert len(snapshots) == 2
    assert f"snapshots {snapshots[0]}, {snapshots[1]}" in state.message
    assert query(warehouse, "SELECT count(*) FROM measurements") == [(358,)]
    assert query(warehouse, BOW_POD16_RESNET) == [(44059.0,)]
    assert stored_values(warehouse) == stored_values(demo_warehouse)

    artifacts = run_artifacts(state.state_details.flow_run_id)
    assert set(artifacts) == {"ingest-results", "ingest-summary"}
    rows = table_rows(artifacts["ingest-results"])
    assert [(r["source"], r["status"], r["values added"]) for r in rows] == [
        ("graphcore-blog-mk2-benchmarks", "new", 0),
        ("press-graphcore-mlperf-v1", "new", 0),
        ("graphcore-performance-results", "new", 0),
        ("graphcore-blog-mlperf-v2", "new", 0),
        ("graphcore-performance-results", "new", 358),
    ]
    assert rows[-1]["document"] == JULY_2023.name and rows[-1]["snapshot"] == snapshots[1]
    markdown = artifacts["ingest-summary"].data
    assert f"**{snapshots[0]}**" in markdown and f"**{snapshots[1]}**" in markdown
    manifest = json.loads((tmp_path / "export" / "manifest.json").read_text())
    assert manifest["views"]["measurements"]["rows"] == 358
    assert manifest["snapshot_id"] >= snapshots[1]


def test_a_failing_document_fails_its_task_and_the_rest_still_loads(prefect_api, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "good.txt").write_bytes(JULY_2023.read_bytes())
    (folder / "garbage.bin").write_bytes(bytes(range(256)) * 40)
    warehouse = tmp_path / "warehouse"

    state = ingest_flow(targets=[str(folder)], warehouse=str(warehouse), return_state=True)

    assert state.is_completed()
    assert "1 of 2 documents failed (file-garbage.bin)" in state.message
    flow_run_id = state.state_details.flow_run_id
    assert task_states(flow_run_id) == {
        "prepare file-garbage.bin": "FAILED",
        "prepare file-good.txt": "COMPLETED",
    }
    assert query(warehouse, "SELECT count(*) FROM measurements") == [(358,)]
    assert query(warehouse, "SELECT source_id, status FROM run_documents ORDER BY 1") == [
        ("file-garbage.bin", "failed"),
        ("file-good.txt", "new"),
    ]
    rows = {r["source"]: r for r in table_rows(run_artifacts(flow_run_id)["ingest-results"])}
    assert rows["file-garbage.bin"]["status"] == "failed"
    assert "binary" in rows["file-garbage.bin"]["message"]
    assert rows["file-good.txt"]["values added"] == 358


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.text.append(logging.Formatter().format(record))


@pytest.fixture
def task_run_log():
    """What Prefect's task-run logger prints, tracebacks included."""
    records = _Records()
    logger = logging.getLogger("prefect.task_runs")
    logger.addHandler(records)
    yield records.text
    logger.removeHandler(records)


def test_a_run_whose_every_document_failed_ends_failed(prefect_api, tmp_path, task_run_log):
    """A fetch that fails is the run's only document: the flow run is Failed (an alert on
    failed runs fires), its message and artifact say why, and its log has no stray
    "NoneType: None" line."""
    url = "https://127.0.0.1:9/results"  # refused before any request: a loopback address
    warehouse = tmp_path / "warehouse"
    state = ingest_flow(targets=[url], warehouse=str(warehouse), return_state=True)

    assert state.is_failed(), state.message
    assert state.message.endswith("1 of 1 documents failed (url-127-0-0-1-9-results)")
    summary = state.result(raise_on_failure=False)
    assert (summary.documents_read, len(summary.failures)) == (1, 1)
    assert "loopback" in summary.failures[0].message
    rows = table_rows(run_artifacts(state.state_details.flow_run_id)["ingest-results"])
    assert [(row["source"], row["status"]) for row in rows] == [
        ("url-127-0-0-1-9-results", "failed")
    ]
    log = "\n".join(task_run_log)
    assert "loopback" in log and "NoneType: None" not in log


def test_the_cli_through_prefect_gets_the_summary_of_a_failed_run(
    prefect_api, tmp_path, monkeypatch
):
    from prefect.settings import PREFECT_API_URL

    from perfledger.flows.runner import run_ingest

    monkeypatch.setenv("PREFECT_API_URL", PREFECT_API_URL.value())
    summary = run_ingest(
        ["https://127.0.0.1:9/results"],
        tmp_path / "warehouse",
        trigger="cli",
        wait_s=0,
        progress=lambda message: None,
    )
    assert (summary.documents_read, len(summary.failures)) == (1, 1)


def test_dry_run_reports_what_would_change_and_writes_nothing(prefect_api, tmp_path):
    warehouse = tmp_path / "warehouse"
    first = ingest_flow(targets=[str(JANUARY_2022)], warehouse=str(warehouse), return_state=True)
    assert first.is_completed()
    before = folder_listing(warehouse)

    # The one-source deployment's parameters: a path here, as the tests never reach the network.
    state = ingest_flow(
        source=str(CORPUS), warehouse=str(warehouse), dry_run=True, return_state=True
    )

    assert state.is_completed()
    assert state.message.startswith("dry run, nothing written")
    assert "358 added" in state.message
    assert folder_listing(warehouse) == before
    assert query(warehouse, "SELECT count(*) FROM measurements") == [(0,)]
    artifacts = run_artifacts(state.state_details.flow_run_id)
    assert set(artifacts) == {"ingest-dry-run-results", "ingest-dry-run-summary"}
    rows = table_rows(artifacts["ingest-dry-run-results"])
    by_document = {r["document"]: (r["status"], r["values added"]) for r in rows}
    assert by_document[JANUARY_2022.name] == ("unchanged", 0)
    assert by_document[JULY_2023.name] == ("new", 358)


def test_dry_run_on_a_missing_warehouse_creates_nothing(prefect_api, tmp_path):
    warehouse = tmp_path / "nothing-here"
    state = ingest_flow(
        targets=[str(JULY_2023)], warehouse=str(warehouse), dry_run=True, return_state=True
    )
    assert state.is_completed() and "358 added" in state.message
    assert not warehouse.exists()


def test_dask_task_runner_parses_in_worker_processes_with_the_same_results(
    prefect_api, demo_warehouse, tmp_path, monkeypatch
):
    pytest.importorskip("prefect_dask")
    from distributed import Client, LocalCluster, get_task_stream

    # A result lost with its worker fails the test in minutes instead of hanging the session.
    monkeypatch.setattr(ingest, "PREPARE_TIMEOUT_S", 180)
    warehouse = tmp_path / "warehouse"
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            local_directory=str(tmp_path / "dask"),
        ) as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(2, timeout=120)
        monkeypatch.setenv(TASK_RUNNER_ENV, cluster.scheduler_address)
        runner = task_runner_from_env()
        with get_task_stream(client) as stream:
            state = ingest_flow.with_options(task_runner=runner)(
                warehouse=str(warehouse), return_state=True
            )
        worker_pids = set(client.run(os.getpid).values())

    assert state.is_completed(), state.message
    assert stored_values(warehouse) == stored_values(demo_warehouse)
    assert query(warehouse, BOW_POD16_RESNET) == [(44059.0,)]
    assert len(stream.data) == 5  # one prepare task per document, each on a worker
    assert worker_pids and os.getpid() not in worker_pids


def test_task_runner_setting(monkeypatch):
    monkeypatch.delenv(TASK_RUNNER_ENV, raising=False)
    assert isinstance(task_runner_from_env(), ThreadPoolTaskRunner)
    monkeypatch.setenv(TASK_RUNNER_ENV, "many-threads")
    with pytest.raises(ValueError, match="Dask scheduler address"):
        task_runner_from_env()


def test_one_source_is_a_registered_name_or_a_path_or_url():
    assert split_source("graphcore-performance-results") == ([], "graphcore-performance-results")
    assert split_source(str(JULY_2023)) == ([str(JULY_2023)], None)
    assert split_source("https://www.graphcore.ai/performance-results") == (
        ["https://www.graphcore.ai/performance-results"],
        None,
    )


def test_a_prepare_task_elsewhere_applies_the_mappings_the_run_hands_it(tmp_path):
    """A task on another machine (here: a warehouse folder with no mapping file) normalizes
    with the label mappings the flow read and handed it, as the run's own machine would."""
    from perfledger.schemas.label_mappings import append_mapping, mapping_path, read_mappings

    taught = tmp_path / "taught"
    append_mapping(mapping_path(taught), "model", "ResNet-50 v1.5", {"model": "ResNet-50 (mapped)"})
    elsewhere = tmp_path / "elsewhere"
    [document] = pipeline.collect([str(JULY_2023)], pipeline.registry_for(elsewhere), elsewhere)
    handed = pipeline.prepare(
        document, set(), {}, elsewhere, mappings=read_mappings(mapping_path(taught))
    )
    unmapped = pipeline.prepare(document, set(), {}, elsewhere)
    resnet = pl.col("model") == "ResNet-50 v1.5"
    assert handed.measurements.filter(resnet)["model_canonical"].unique().to_list() == [
        "ResNet-50 (mapped)"
    ]
    assert unmapped.measurements.filter(resnet)["model_canonical"].unique().to_list() == [
        "ResNet-50 v1.5"
    ]
