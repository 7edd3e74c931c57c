"""End to end: a real Prefect server, `perfledger worker`, `prefect deployment run` of each
deployment (ingest/daily, ingest/one-source, publish/on-demand)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from perfledger.warehouse import lake
from tests.conftest import JULY_2023, PROJECT_ROOT
from tests.flows.prefect_servers import (
    TERMINAL,
    Server,
    call_api,
    log_tail,
    running_prefect_server,
    try_api,
    wait_for,
)

pytestmark = pytest.mark.slow

WORKER_BUDGET_S = 60
RUN_BUDGET_S = 120
BOW_POD16_RESNET = (
    "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
    "AND system = 'Bow Pod16' AND workload = 'training' AND metric = 'throughput' "
    "AND framework = 'TensorFlow1'"
)


def run_deployment(server: Server, name: str, env: dict, **parameters: str) -> str:
    """`prefect deployment run NAME [--param KEY=VALUE ...]`, as a person would type it;
    returns the flow run id."""
    params = [f"--param={key}={value}" for key, value in parameters.items()]
    result = subprocess.run(
        [sys.executable, "-m", "prefect", "deployment", "run", name, *params],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    match = re.search(r"UUID: ([0-9a-f-]{36})", result.stdout)
    assert match, result.stdout
    return match.group(1)


def finished_state(server: Server, flow_run_id: str, log: Path) -> dict:
    def state():
        run = try_api(server.api_url, f"/flow_runs/{flow_run_id}")
        current = (run or {}).get("state") or {}
        return current if current.get("type") in TERMINAL else None

    return wait_for(state, RUN_BUDGET_S, f"flow run {flow_run_id}", log)


def artifacts(server: Server, **conditions) -> list[dict]:
    return call_api(server.api_url, "/artifacts/filter", {"artifacts": conditions})


def test_daily_deployment_runs_from_the_prefect_cli(prefect_server: Server, tmp_path: Path):
    warehouse = tmp_path / "warehouse"
    env = {
        **prefect_server.env,
        "PERFLEDGER_WAREHOUSE": str(warehouse),
        "PREFECT_RUNNER_POLL_FREQUENCY": "2",
    }
    log = tmp_path / "worker.log"
    worker = prefect_server.processes.start(
        [sys.executable, "-m", "perfledger", "worker"], env, log
    )
    try:
        wait_for(
            lambda: try_api(prefect_server.api_url, "/deployments/name/ingest/daily"),
            WORKER_BUDGET_S,
            "perfledger worker registering ingest/daily",
            log,
            worker,
        )
        flow_run_id = run_deployment(prefect_server, "ingest/daily", env)
        state = finished_state(prefect_server, flow_run_id, log)
    finally:
        prefect_server.processes.stop(worker)

    assert state["type"] == "COMPLETED", f"{state}\n{log_tail(log)}"
    assert "snapshots" in state["message"] and "358 added" in state["message"]
    connection = lake.connect(warehouse, read_only=True)
    try:
        assert connection.execute("SELECT count(*) FROM measurements").fetchone()[0] == 358
        assert connection.execute(BOW_POD16_RESNET).fetchall() == [(44059.0,)]
        trigger = connection.execute("SELECT DISTINCT trigger FROM runs").fetchall()
    finally:
        connection.close()
    assert trigger == [("prefect:ingest/daily",)]

    run_artifacts = {
        a["key"]: a for a in artifacts(prefect_server, flow_run_id={"any_": [flow_run_id]})
    }
    assert set(run_artifacts) == {"ingest-results", "ingest-summary"}
    rows = run_artifacts["ingest-results"]["data"]
    rows = json.loads(rows) if isinstance(rows, str) else rows
    assert sum(row["values added"] for row in rows) == 358
    assert {row["status"] for row in rows} == {"new"}
    assert "Snapshots written" in run_artifacts["ingest-summary"]["data"]

    published = artifacts(prefect_server, key={"any_": ["publish-summary"]})
    assert len(published) == 1
    manifest = json.loads((warehouse.parent / "export" / "manifest.json").read_text())
    assert manifest["views"]["measurements"]["rows"] == 358


def test_one_source_and_on_demand_deployments_run_from_the_prefect_cli(
    prefect_server: Server, tmp_path: Path
):
    """ingest/one-source with a file for its `source`, then publish/on-demand of what it
    loaded into a folder given as `target`: one worker serves both."""
    warehouse = tmp_path / "warehouse"
    export = tmp_path / "bi"
    env = {
        **prefect_server.env,
        "PERFLEDGER_WAREHOUSE": str(warehouse),
        "PREFECT_RUNNER_POLL_FREQUENCY": "2",
    }
    log = tmp_path / "worker.log"
    worker = prefect_server.processes.start(
        [sys.executable, "-m", "perfledger", "worker"], env, log
    )
    try:
        for name in ("ingest/one-source", "publish/on-demand"):
            wait_for(
                lambda name=name: try_api(prefect_server.api_url, f"/deployments/name/{name}"),
                WORKER_BUDGET_S,
                f"perfledger worker registering {name}",
                log,
                worker,
            )
        ingest_run = run_deployment(prefect_server, "ingest/one-source", env, source=str(JULY_2023))
        ingested = finished_state(prefect_server, ingest_run, log)
        publish_run = run_deployment(prefect_server, "publish/on-demand", env, target=str(export))
        published = finished_state(prefect_server, publish_run, log)
    finally:
        prefect_server.processes.stop(worker)

    assert ingested["type"] == "COMPLETED", f"{ingested}\n{log_tail(log)}"
    assert ingested["message"].startswith("1 documents read, snapshots "), ingested["message"]
    assert "358 added" in ingested["message"] and "exported" not in ingested["message"]
    connection = lake.connect(warehouse, read_only=True)
    try:
        assert connection.execute("SELECT count(*) FROM measurements").fetchone()[0] == 358
        assert connection.execute(BOW_POD16_RESNET).fetchall() == [(44059.0,)]
        trigger = connection.execute("SELECT DISTINCT trigger FROM runs").fetchall()
    finally:
        connection.close()
    assert trigger == [("prefect:ingest/one-source",)]
    rows = {a["key"]: a for a in artifacts(prefect_server, flow_run_id={"any_": [ingest_run]})}[
        "ingest-results"
    ]["data"]
    rows = json.loads(rows) if isinstance(rows, str) else rows
    assert [(row["document"], row["status"], row["values added"]) for row in rows] == [
        (JULY_2023.name, "new", 358)
    ]

    assert published["type"] == "COMPLETED", f"{published}\n{log_tail(log)}"
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["views"]["measurements"]["rows"] == 358
    assert not (warehouse.parent / "export").exists()  # the target given, not the default
    assert [a["key"] for a in artifacts(prefect_server, flow_run_id={"any_": [publish_run]})] == [
        "publish-summary"
    ]


def test_the_daily_schedule_runs_without_a_manual_trigger(tmp_path: Path):
    """Prefect's scheduler creates the runs of ingest/daily and the worker runs them: with
    the schedule every ten seconds (a cron of six fields, the last one seconds), a run is
    scheduled, started and completed with nobody asking for it. (With sqlalchemy 2.1 the server's scheduler failed on every loop, "Can't
    evaluate bulk DML statement", and no scheduled run was ever created.)"""
    warehouse = tmp_path / "warehouse"
    (tmp_path / "prefect-home").mkdir()
    with running_prefect_server(tmp_path / "prefect-home") as server:
        env = {
            **server.env,
            "PERFLEDGER_WAREHOUSE": str(warehouse),
            "PERFLEDGER_DAILY_CRON": "* * * * * */10",
            "PREFECT_RUNNER_POLL_FREQUENCY": "2",
        }
        log = tmp_path / "worker.log"
        worker = server.processes.start([sys.executable, "-m", "perfledger", "worker"], env, log)
        deployment = wait_for(
            lambda: try_api(server.api_url, "/deployments/name/ingest/daily"),
            WORKER_BUDGET_S,
            "perfledger worker registering ingest/daily",
            log,
            worker,
        )

        def scheduled_run_finished():
            # The first run the schedule made, once it ends: on a busy machine the next one
            # (ten seconds later) may end too, with nothing left to add.
            runs = (
                try_api(
                    server.api_url,
                    "/flow_runs/filter",
                    {
                        "flow_runs": {"deployment_id": {"any_": [deployment["id"]]}},
                        "sort": "EXPECTED_START_TIME_ASC",
                        "limit": 1,
                    },
                )
                or []
            )
            first = runs[0] if runs else None
            return first if first and (first.get("state") or {}).get("type") in TERMINAL else None

        # The next scheduled run (ten seconds away at most), then its run of about 15 s.
        run = wait_for(
            scheduled_run_finished,
            60 + RUN_BUDGET_S,
            "a scheduled run of ingest/daily",
            log,
            worker,
        )
        server_log = log_tail(server.home / "server.log", 200_000)

    assert run["auto_scheduled"] is True, run
    assert run["state"]["type"] == "COMPLETED", f"{run['state']}\n{log_tail(log)}"
    assert "358 added" in run["state"]["message"]
    assert "Can't evaluate bulk DML statement" not in server_log
    connection = lake.connect(warehouse, read_only=True)
    try:
        assert connection.execute("SELECT count(*) FROM measurements").fetchone()[0] == 358
        assert connection.execute("SELECT DISTINCT trigger FROM runs").fetchall() == [
            ("prefect:ingest/daily",)
        ]
    finally:
        connection.close()
