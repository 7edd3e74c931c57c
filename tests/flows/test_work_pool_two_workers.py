"""Two machines, one warehouse: a Prefect process work pool served by two `prefect worker`
processes, each with its own working folder, Prefect home and temporary folder, running the
`ingest/one-source` deployment of flows/deployments.py for two different sources at the same
time against the same warehouse folder. The writer lock makes the second writer wait for the
first (the flow's `wait_s`); both loads land, each in its own whole snapshot."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from flows import pipeline
from tests.conftest import JULY_2023, PROJECT_ROOT
from tests.flows.test_deployment_e2e import (
    BOW_POD16_RESNET,
    TERMINAL,
    Processes,
    Server,
    call_api,
    clean_environment,
    free_port,
    log_tail,
    try_api,
    wait_for,
)
from warehouse import lake

pytestmark = pytest.mark.slow

POOL = "perfledger-machines"
MACHINES = ("machine-a", "machine-b")
SERVER_BUDGET_S = 60
WORKER_BUDGET_S = 60
RUN_BUDGET_S = 90
# Each run holds the writer lock at least this long once it has it (the test-only pause
# after collecting), so the other run, waiting for it, waits at least this long.
HOLD_S = 3
WAIT_S = 60  # the flow's wait_s: how long the second writer may wait
# The other source: a real page when this machine has them, else a bundled fixture page.
OTHER_PAGES = [
    Path("/work/shared/real-pages/pages/nvidia_dle_mxnet_rn50v1.5_README.md"),
    PROJECT_ROOT / "tests" / "fixtures" / "html" / "graphcore_performance_results_2023_07.html",
]
MEASUREMENTS = "SELECT * EXCLUDE (run_id) FROM measurements WHERE source_id = ? ORDER BY ALL"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    """`prefect server start` on a free 127.0.0.1 port, as test_deployment_e2e.py starts it."""
    home = tmp_path_factory.mktemp("prefect-server-home")
    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    env = clean_environment(home, api_url)
    processes = Processes()
    log = home / "server.log"
    try:
        process = processes.start([sys.executable, "-m", "prefect", "server", "start",
                                   "--host", "127.0.0.1", "--port", str(port)], env, log)
        wait_for(lambda: try_api(api_url, "/health") is True, SERVER_BUDGET_S,
                 "prefect server start", log, process)
        yield Server(api_url, env, home, processes)
    finally:
        processes.stop_all()


def start_machine(server: Server, folder: Path, name: str) -> tuple[subprocess.Popen, Path]:
    """`prefect worker start` of the process pool, working in a folder of its own: its own
    current folder, Prefect home and temporary folder (where each flow run's working folder
    is made), as a worker on another machine would have."""
    for part in ("prefect-home", "tmp"):
        (folder / part).mkdir(parents=True)
    env = {**server.env, "PREFECT_HOME": str(folder / "prefect-home"),
           "TMPDIR": str(folder / "tmp"), "PREFECT_WORKER_QUERY_SECONDS": "1",
           "PERFLEDGER_TEST_PAUSE_AT": "collected", "PERFLEDGER_TEST_PAUSE_S": str(HOLD_S)}
    log = folder / "worker.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "prefect", "worker", "start", "--pool", POOL,
             "--type", "process", "--name", name, "--limit", "1"],
            env=env, cwd=folder, stdout=handle, stderr=subprocess.STDOUT,
            start_new_session=True)
    server.processes.started.append(process)
    return process, log


def register_one_source(server: Server) -> str:
    """The process pool, and ingest/one-source of flows/deployments.py registered to it;
    returns the deployment's id."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import WorkPoolCreate
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.workers.process import ProcessWorker

    from flows.deployments import build_deployments

    with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
        with get_client(sync_client=True) as client:
            client.create_work_pool(WorkPoolCreate(
                name=POOL, type="process",
                base_job_template=ProcessWorker.get_default_base_job_template()))
        one_source = next(d for d in build_deployments() if d.name == "one-source")
        return str(one_source.apply(work_pool_name=POOL))


def pool_workers(server: Server) -> set[str]:
    found = try_api(server.api_url, f"/work_pools/{POOL}/workers/filter", {}) or []
    return {worker["name"] for worker in found}


def state_of(server: Server, flow_run_id: str) -> str | None:
    run = try_api(server.api_url, f"/flow_runs/{flow_run_id}") or {}
    return (run.get("state") or {}).get("type")


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_two_workers_run_one_source_at_once_and_the_second_writer_waits(server, tmp_path):
    warehouse = tmp_path / "shared-warehouse"
    pages = tmp_path / "pages"
    pages.mkdir()
    other_page = next(page for page in OTHER_PAGES if page.exists())
    sources = [shutil.copy2(JULY_2023, pages / JULY_2023.name),
               shutil.copy2(other_page, pages / other_page.name)]
    # What each source holds, read in process by the plain stages.
    reference = tmp_path / "reference"
    pipeline.ingest([str(path) for path in sources], reference)
    connection = lake.connect(reference, read_only=True)
    try:
        by_sha = dict(connection.execute(
            "SELECT document_sha256, source_id FROM run_documents").fetchall())
        expected = {source_id: connection.execute(MEASUREMENTS, [source_id]).fetchall()
                    for source_id in sorted(by_sha.values())}
    finally:
        connection.close()
    source_of = {path.name: by_sha[hashlib.sha256(path.read_bytes()).hexdigest()]
                 for path in sources}
    assert len(expected) == 2 and all(expected.values()), {k: len(v) for k, v in expected.items()}

    started = time.monotonic()
    deployment_id = register_one_source(server)
    machines = {name: start_machine(server, tmp_path / name, name) for name in MACHINES}
    logs = [log for _, log in machines.values()]
    try:
        for name, (process, log) in machines.items():
            wait_for(lambda name=name: name in pool_workers(server), WORKER_BUDGET_S,
                     f"worker {name} polling {POOL}", log, process)
        # Both runs requested at once, one source each, the same warehouse folder. The test
        # holds the writer lock until both are running, so that both reach the lock while it
        # is held, whichever machine is quicker to start its run: the one that gets it next
        # writes, and the other must wait for that one's commit.
        with lake.writer_lock(warehouse):
            runs = [call_api(server.api_url, f"/deployments/{deployment_id}/create_flow_run",
                             {"parameters": {"source": str(path), "warehouse": str(warehouse),
                                             "wait_s": WAIT_S}})["id"]
                    for path in sources]
            wait_for(lambda: all(state_of(server, run) == "RUNNING" for run in runs),
                     RUN_BUDGET_S, "both flow runs running", logs[0])
            time.sleep(1)  # from the run's start to its call of the lock: well under this

        def finished() -> list[dict] | None:
            found = [try_api(server.api_url, f"/flow_runs/{run}") for run in runs]
            done = all((run or {}).get("state", {}).get("type") in TERMINAL for run in found)
            return found if done else None

        flow_runs = wait_for(finished, RUN_BUDGET_S, "both flow runs finishing", logs[0])
    finally:
        for process, _ in machines.values():
            server.processes.stop(process)
    print(f"two one-source runs through the pool: {time.monotonic() - started:.1f} s")

    for run in flow_runs:
        assert run["state"]["type"] == "COMPLETED", (
            f"{run['state']}\n" + "\n".join(log_tail(log) for log in logs))
        assert run["state"]["message"].startswith("1 documents read, snapshots "), run["state"]
        assert "failed" not in run["state"]["message"]
    # Each machine ran one of them: a worker of limit 1 takes no second run while it runs one.
    ran = {name: [run["id"] for run in flow_runs if run["id"] in log.read_text(errors="replace")]
           for name, (_, log) in machines.items()}
    assert sorted(len(ids) for ids in ran.values()) == [1, 1], ran
    assert set(ran["machine-a"]) | set(ran["machine-b"]) == set(runs)

    connection = lake.connect(warehouse, read_only=True)
    try:
        writes = connection.execute(
            "SELECT d.source_id, r.started_at, r.finished_at, r.trigger FROM runs r "
            "JOIN run_documents d USING (run_id) ORDER BY r.started_at").fetchall()
        found = {source_id: connection.execute(MEASUREMENTS, [source_id]).fetchall()
                 for source_id in expected}
        total = connection.execute("SELECT count(*) FROM measurements").fetchone()[0]
        bow_pod16 = connection.execute(BOW_POD16_RESNET).fetchall()
    finally:
        connection.close()

    # Both sources' values, exactly those of the in-process run, and nothing else.
    assert found == expected
    assert len(found[source_of[JULY_2023.name]]) == 358
    assert total == sum(len(rows) for rows in expected.values())
    assert bow_pod16 == [(44059.0,)]
    # Two writes, one per source, each a run of its own, both by the deployment.
    assert [row[0] for row in writes] in (list(expected), list(expected)[::-1]), writes
    assert {row[3] for row in writes} == {"prefect:ingest/one-source"}
    # The second writer waited for the first: both flow runs were running before the first
    # began to write, and the second began to write only after the first's commit.
    (_, first_write, first_done, _), (second_source, second_write, _, _) = writes
    assert all(when(run["start_time"]) < first_write for run in flow_runs), (
        [run["start_time"] for run in flow_runs], first_write)
    assert second_write > first_done
    run_of = {Path(run["parameters"]["source"]).name: run for run in flow_runs}
    second = next(name for name, source_id in source_of.items() if source_id == second_source)
    first = next(name for name in run_of if name != second)
    snapshot = {name: int(run["state"]["message"].split("snapshots ")[1].split(",")[0])
                for name, run in run_of.items()}
    assert snapshot[first] < snapshot[second], snapshot
    assert (warehouse / ".writer.lock").read_text() == ""  # released
