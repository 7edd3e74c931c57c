"""Two machines, one shared warehouse: a Prefect process work pool served by two
`prefect worker start --type process` processes, each with its own working folder, Prefect
home, temporary folder and perfledger data folder, and the team's credentials in its
environment. They run the `ingest/one-source` deployment of flows/deployments.py for two
different sources at the same time against one shared warehouse (a PostgreSQL catalog, data
and raw archive on S3). The writer lock (a PostgreSQL advisory lock) makes the second writer
wait for the first's commit (the flow's `wait_s`); both loads land, each in its own
snapshot, with the values an in-process ingest of the same pages gives."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psycopg
import pytest

from perfledger.flows import pipeline
from perfledger.sources import archive
from perfledger.warehouse import lake, location
from tests.conftest import JULY_2023
from tests.flows.prefect_servers import (
    TERMINAL,
    Server,
    call_api,
    log_tail,
    try_api,
    wait_for,
)
from tests.flows.test_dask_cluster import wait_until
from tests.reliability.hostile import GOOD_VALUES, HTML_PAGE

pytestmark = pytest.mark.slow

POOL = "perfledger-machines"
MACHINE_NAMES = ("machine-a", "machine-b")
# Two sources: the July 2023 results page as the bundled corpus holds it, and the same
# page saved as HTML, which perfledger reads as a source of its own.
PAGES = (JULY_2023, HTML_PAGE)
# Generous for a busy two-core machine: each is a bound on a failure, not a cost when green.
WORKER_BUDGET_S = 90
AT_LOCK_BUDGET_S = 90
RUN_BUDGET_S = 90
# Each run sleeps this long inside the writer lock (the test-only pause after collecting),
# so the other run's wait for it is long enough to be seen in PostgreSQL's lock table.
HOLD_S = 3
# The flow's wait_s: the test holds the lock until both runs wait for it, then each run
# holds it a few seconds; well over both on a busy machine.
WAIT_S = 180
TEST_SESSION = "perfledger two-worker test"
MEASUREMENTS = "SELECT * EXCLUDE (run_id) FROM measurements ORDER BY ALL"
BOW_POD16_RESNET_BY_SOURCE = (
    "SELECT source_id, value, unit FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput' AND sdk = '3.0' "
    "AND framework = 'TensorFlow1' ORDER BY source_id"
)


@dataclass
class Machine:
    name: str
    folder: Path
    process: subprocess.Popen
    log: Path

    @property
    def temporary_folder(self) -> Path:
        return self.folder / "tmp"

    @property
    def data_home(self) -> Path:
        return self.folder / "data"


@dataclass
class FlowRunProcess:
    """A flow run's process as seen while it waits for the writer lock."""

    pid: int
    parent_pid: int
    cwd: Path


def machine_environment(server: Server, credentials: dict, folder: Path) -> dict:
    """What a machine of the team has: the Prefect API, the team's credentials, and its own
    Prefect home, temporary folder (where the worker makes each flow run's working folder)
    and data folder (its side of the shared warehouse: extension copies, archive copies).
    Nothing of this machine's own Prefect, perfledger, AWS or PostgreSQL settings, and not
    the repository on PYTHONPATH: a worker runs the installed package."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PREFECT_", "PERFLEDGER_", "AWS_", "PG", "PYTHONPATH"))
    }
    return {
        **env,
        **credentials,
        "PREFECT_API_URL": server.api_url,
        "PREFECT_HOME": str(folder / "prefect-home"),
        "TMPDIR": str(folder / "tmp"),
        "XDG_DATA_HOME": str(folder / "data"),
        "PREFECT_WORKER_QUERY_SECONDS": "1",
        "PERFLEDGER_TEST_PAUSE_AT": "collected",
        "PERFLEDGER_TEST_PAUSE_S": str(HOLD_S),
    }


def start_machine(server: Server, credentials: dict, folder: Path, name: str) -> Machine:
    """`prefect worker start` for the pool, one flow run at a time. Its current folder is a
    folder of its own holding nothing else: with no storage named by the deployment, a
    process worker copies its current folder into each flow run's working folder."""
    for part in ("cwd", "prefect-home", "tmp", "data"):
        (folder / part).mkdir(parents=True)
    log = folder / "worker.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "prefect",
                "worker",
                "start",
                "--pool",
                POOL,
                "--type",
                "process",
                "--name",
                name,
                "--limit",
                "1",
            ],
            env=machine_environment(server, credentials, folder),
            cwd=folder / "cwd",
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server.processes.started.append(process)
    return Machine(name, folder, process, log)


def create_pool(server: Server) -> None:
    """The process pool, made before the workers start so that neither of them races the
    other to create it."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import WorkPoolCreate
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.workers.process import ProcessWorker

    with (
        temporary_settings(updates={PREFECT_API_URL: server.api_url}),
        get_client(sync_client=True) as client,
    ):
        client.create_work_pool(
            WorkPoolCreate(
                name=POOL,
                type="process",
                base_job_template=ProcessWorker.get_default_base_job_template(),
            )
        )


def register_one_source(server: Server) -> str:
    """ingest/one-source as flows/deployments.py builds it, registered to the pool; returns
    the deployment's id."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from perfledger.flows.deployments import build_deployments

    one_source = next(d for d in build_deployments() if d.name == "one-source")
    assert one_source.entrypoint == "perfledger.flows.ingest.ingest_flow"
    with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
        return str(one_source.apply(work_pool_name=POOL))


def pool_workers(server: Server) -> set[str]:
    found = try_api(server.api_url, f"/work_pools/{POOL}/workers/filter", {}) or []
    return {worker["name"] for worker in found}


def flow_run(server: Server, flow_run_id: str) -> dict:
    return try_api(server.api_url, f"/flow_runs/{flow_run_id}") or {}


def infrastructure_pid(run: dict) -> int | None:
    value = run.get("infrastructure_pid")
    return int(str(value).rsplit(":", 1)[-1]) if value else None


def process_seen(pid: int) -> FlowRunProcess:
    """A running process's parent and current folder, from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    # The command name (in parentheses) may hold spaces: the fields after it are plain.
    parent_pid = int(stat.rsplit(")", 1)[1].split()[1])
    return FlowRunProcess(pid, parent_pid, Path(os.readlink(f"/proc/{pid}/cwd")))


def writer_session_name(pid: int) -> str:
    """The application name location.writer_lock gives a writer's lock session."""
    return f"perfledger writer on {socket.gethostname()} pid {pid}"[:63]


def writer_sessions(catalog, key: int) -> dict[str, bool]:
    """Every perfledger writer's lock session on the catalog database, and whether it holds
    the writer lock (a bigint advisory lock, which PostgreSQL lists split in two)."""
    high, low = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF
    rows = catalog.execute(
        """SELECT a.application_name, bool_or(l.pid IS NOT NULL)
           FROM pg_stat_activity a
           LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
                AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.objsubid = 1
           WHERE a.datname = current_database()
             AND a.application_name LIKE 'perfledger writer on %%'
           GROUP BY a.pid, a.application_name""",
        [high, low],
    ).fetchall()
    return dict(rows)


def reference_measurements(folder: Path) -> list[tuple]:
    """Both pages ingested in this process by the plain stages into a folder warehouse."""
    pipeline.ingest([str(page) for page in PAGES], folder)
    with lake.connect(folder, read_only=True) as connection:
        return connection.execute(MEASUREMENTS).fetchall()


def stop_unfinished_flow_runs(server: Server, runs: list[str]) -> None:
    """A flow run's process leads a session of its own (the worker isolates it), and a
    stopped worker leaves it running: one that has not finished is killed here, by the
    process id its worker reported."""
    for flow_run_id in runs:
        run = flow_run(server, flow_run_id)
        pid = infrastructure_pid(run)
        if pid is None or (run.get("state") or {}).get("type") in TERMINAL:
            continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_two_workers_ingest_two_sources_at_once_and_the_second_writer_waits(
    prefect_server, team_env, tmp_path
):
    server = prefect_server
    where = team_env.location(team_env.postgres.new_database(), "two-workers")
    shared = location.parse_url(where)
    started = time.monotonic()
    create_pool(server)
    machines = [
        start_machine(server, team_env.env, tmp_path / name, name) for name in MACHINE_NAMES
    ]
    logs = [machine.log for machine in machines]
    runs: list[str] = []
    try:
        deployment_id = register_one_source(server)
        # Done here, while the workers start, to spend their start-up time.
        expected = reference_measurements(tmp_path / "reference")
        for machine in machines:
            wait_for(
                lambda machine=machine: machine.name in pool_workers(server),
                WORKER_BUDGET_S,
                f"worker {machine.name} polling {POOL}",
                machine.log,
                machine.process,
            )
        workers_up = time.monotonic()

        with psycopg.connect(
            shared.conninfo, autocommit=True, application_name=TEST_SESSION
        ) as catalog:
            # The test holds the writer lock until both runs wait for it, so that both reach
            # it while it is held, however long either machine takes to start its run: the
            # one that gets it next writes, and the other must wait for that one's commit.
            catalog.execute("SELECT pg_advisory_lock(%s)", [shared.lock_key()])
            runs = [
                call_api(
                    server.api_url,
                    f"/deployments/{deployment_id}/create_flow_run",
                    {"parameters": {"source": str(page), "warehouse": where, "wait_s": WAIT_S}},
                )["id"]
                for page in PAGES
            ]

            def both_at_the_lock() -> list[int] | None:
                pids = [infrastructure_pid(flow_run(server, run)) for run in runs]
                if None in pids:
                    return None
                names = writer_sessions(catalog, shared.lock_key())
                waiting = all(names.get(writer_session_name(pid)) is False for pid in pids)
                return pids if waiting and len(names) == 2 else None

            run_pids = wait_until(
                both_at_the_lock,
                AT_LOCK_BUDGET_S,
                "both flow runs waiting for the writer lock",
                logs,
            )
            seen = [process_seen(pid) for pid in run_pids]
            both_waiting = time.monotonic()
            catalog.execute("SELECT pg_advisory_unlock(%s)", [shared.lock_key()])

            def one_writes_while_the_other_waits() -> tuple[int, int] | None:
                names = writer_sessions(catalog, shared.lock_key())
                state = [names.get(writer_session_name(pid)) for pid in run_pids]
                if state == [True, False]:
                    return run_pids[0], run_pids[1]
                if state == [False, True]:
                    return run_pids[1], run_pids[0]
                return None

            holder_pid, waiter_pid = wait_until(
                one_writes_while_the_other_waits,
                RUN_BUDGET_S,
                "one run holding the lock, one waiting",
                logs,
            )

        def finished() -> list[dict] | None:
            found = [flow_run(server, run) for run in runs]
            done = all((run.get("state") or {}).get("type") in TERMINAL for run in found)
            return found if done else None

        flow_runs = wait_until(finished, RUN_BUDGET_S, "both flow runs finishing", logs)
    finally:
        stop_unfinished_flow_runs(server, runs)
        for machine in machines:
            server.processes.stop(machine.process)
    finished_at = time.monotonic()
    print(
        f"workers up {workers_up - started:.1f} s; both runs at the lock "
        f"{both_waiting - workers_up:.1f} s later; both runs done "
        f"{finished_at - both_waiting:.1f} s after that; {finished_at - started:.1f} s in all"
    )

    worker_logs = "\n".join(f"--- {log}\n{log_tail(log)}" for log in logs)
    for run in flow_runs:
        assert run["state"]["type"] == "COMPLETED", f"{run['state']}\n{worker_logs}"
        assert run["state"]["message"].startswith("1 documents read, snapshots "), run["state"]
        assert f"values {GOOD_VALUES} added, 0 changed" in run["state"]["message"], run["state"]
        assert "failed" not in run["state"]["message"]

    # Each run's process was the child of a different worker, working in a folder in that
    # worker's temporary folder; each worker's output shows its own run beginning and
    # pausing, and not the other's (both workers may have tried to take the same run: the
    # server gives it to one of them).
    by_worker = {machine.process.pid: machine for machine in machines}
    ran_on = [by_worker.get(process.parent_pid) for process in seen]
    assert None not in ran_on, (seen, list(by_worker))
    assert {machine.name for machine in ran_on} == set(MACHINE_NAMES), seen
    beginning = {run["id"]: f"Beginning flow run '{run['name']}'" for run in flow_runs}
    for run_id, process, machine in zip(runs, seen, ran_on, strict=True):
        assert process.cwd.is_relative_to(machine.temporary_folder), (process, machine.folder)
        output = machine.log.read_text(errors="replace")
        assert output.count("perfledger: paused at collected") == 1, output
        assert [line for line in beginning.values() if line in output] == [beginning[run_id]]

    # The snapshots are in the order the writers held the lock, and the second writer began
    # only once the first had committed: it waited while the first held the lock.
    snapshot_of = {
        pid: int(run["state"]["message"].split("snapshots ")[1].split(",")[0])
        for pid, run in zip(run_pids, flow_runs, strict=True)
    }
    assert snapshot_of[holder_pid] < snapshot_of[waiter_pid], snapshot_of
    page_of = {
        pid: Path(run["parameters"]["source"]) for pid, run in zip(run_pids, flow_runs, strict=True)
    }

    folder = location.resolve(where)
    with lake.connect(folder, read_only=True) as connection:
        writes = connection.execute(
            "SELECT d.document_sha256, r.started_at, r.finished_at, r.trigger "
            "FROM runs r JOIN run_documents d USING (run_id) ORDER BY r.started_at"
        ).fetchall()
        found = connection.execute(MEASUREMENTS).fetchall()
        bow_pod16 = connection.execute(BOW_POD16_RESNET_BY_SOURCE).fetchall()
        sources = connection.execute(
            "SELECT source_id, count(*) FROM measurements GROUP BY ALL ORDER BY ALL"
        ).fetchall()

    sha256_of = {pid: archive.sha256_of(page.read_bytes()) for pid, page in page_of.items()}
    assert [row[0] for row in writes] == [sha256_of[holder_pid], sha256_of[waiter_pid]], writes
    (_, _, first_done, _), (_, second_began, _, _) = writes
    assert second_began > first_done, writes
    # Both flow runs had started before the first write began: they overlapped.
    assert all(when(run["start_time"]) < writes[0][1] for run in flow_runs), (
        [run["start_time"] for run in flow_runs],
        writes[0][1],
    )
    assert {row[3] for row in writes} == {"prefect:ingest/one-source"}

    # Both sources' values, exactly those of the in-process ingest of the same pages.
    assert found == expected
    assert sources == [
        ("file-graphcore_performance_results_2023_07.html", GOOD_VALUES),
        ("graphcore-performance-results", GOOD_VALUES),
    ]
    assert bow_pod16 == [
        ("file-graphcore_performance_results_2023_07.html", 44059.0, "items/s"),
        ("graphcore-performance-results", 44059.0, "items/s"),
    ]

    # Each machine kept a copy of the page it read, and only that one, in its own folder.
    for process, machine in zip(seen, ran_on, strict=True):
        kept = {path.name.removesuffix(".zst") for path in machine.data_home.rglob("archive/??/*")}
        assert kept == {sha256_of[process.pid]}, (machine.name, kept)

    # The lock was released: a writer takes it at once.
    with lake.writer_lock(folder, wait_s=0):
        pass
