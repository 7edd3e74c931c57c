"""End to end: a real Prefect server, `perfledger worker`, `prefect deployment run` of each
deployment (ingest/daily, ingest/one-source, publish/on-demand)."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from perfledger.warehouse import lake
from tests.conftest import JULY_2023, PROJECT_ROOT

pytestmark = pytest.mark.slow

SERVER_BUDGET_S = 60
WORKER_BUDGET_S = 60
RUN_BUDGET_S = 120
TERMINAL = {"COMPLETED", "FAILED", "CRASHED", "CANCELLED"}
BOW_POD16_RESNET = (
    "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
    "AND system = 'Bow Pod16' AND workload = 'training' AND metric = 'throughput' "
    "AND framework = 'TensorFlow1'"
)


class Processes:
    """Every process the test starts, each in its own process group, stopped even on failure."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []
        atexit.register(self.stop_all)

    def start(self, command: list[str], env: dict, log: Path) -> subprocess.Popen:
        handle = log.open("wb")
        process = subprocess.Popen(
            command,
            env=env,
            cwd=PROJECT_ROOT,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()
        self.started.append(process)
        return process

    def stop(self, process: subprocess.Popen) -> None:
        if process in self.started:
            self.started.remove(process)
        # The group holds the flow-run children a worker spawns, not only the worker itself.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # children that outlived their leader

    def stop_all(self) -> None:
        while self.started:
            self.stop(self.started[-1])


@dataclass
class Server:
    api_url: str
    env: dict
    home: Path
    processes: Processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


BUSY_RETRIES = 10  # a server whose SQLite database is busy answers 503: ask again, as
# Prefect's own client does


def call_api(api_url: str, path: str, body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    for attempt in range(BUSY_RETRIES + 1):
        request = urllib.request.Request(
            f"{api_url}{path}",
            data=data,
            headers={"Content-Type": "application/json"},
            method="POST" if body is not None else "GET",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            if error.code != 503 or attempt == BUSY_RETRIES:
                raise
            time.sleep(1 + attempt)


def try_api(api_url: str, path: str, body: dict | None = None):
    try:
        return call_api(api_url, path, body)
    except (urllib.error.URLError, OSError, ValueError):
        return None


def log_tail(path: Path, size: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-size:]
    except OSError:
        return ""


def wait_for(check, budget_s: float, what: str, log: Path, process=None):
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        if process is not None and process.poll() is not None:
            pytest.fail(f"{what}: the process exited with {process.returncode}\n{log_tail(log)}")
        time.sleep(1)
    pytest.fail(f"{what}: not within {budget_s} s\n{log_tail(log)}")


def clean_environment(home: Path, api_url: str) -> dict:
    """This machine's environment without a developer's own Prefect settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PERFLEDGER_"))}
    env.update(
        {
            "PREFECT_HOME": str(home),
            "PREFECT_API_URL": api_url,
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_UI_ENABLED": "false",
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])
            ),
        }
    )
    return env


@contextlib.contextmanager
def running_prefect_server(home: Path) -> Iterator[Server]:
    """`prefect server start` on a free 127.0.0.1 port, with its home in `home`; stopped
    with every process started beside it."""
    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    env = clean_environment(home, api_url)
    processes = Processes()
    log = home / "server.log"
    try:
        process = processes.start(
            [
                sys.executable,
                "-m",
                "prefect",
                "server",
                "start",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            env,
            log,
        )
        wait_for(
            lambda: try_api(api_url, "/health") is True,
            SERVER_BUDGET_S,
            "prefect server start",
            log,
            process,
        )
        yield Server(api_url, env, home, processes)
    finally:
        processes.stop_all()


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory) -> Server:
    with running_prefect_server(tmp_path_factory.mktemp("prefect-home")) as server:
        yield server


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
            runs = (
                try_api(
                    server.api_url,
                    "/flow_runs/filter",
                    {"flow_runs": {"deployment_id": {"any_": [deployment["id"]]}}},
                )
                or []
            )
            return next(
                (run for run in runs if (run.get("state") or {}).get("type") in TERMINAL), None
            )

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
