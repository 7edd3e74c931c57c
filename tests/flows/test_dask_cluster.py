"""The ingest flow's prepare tasks on a real Dask cluster: a `dask scheduler` and two
`dask worker` processes started from the command line (not a LocalCluster inside the flow),
each worker in its own working folder, standing in for machines sharing the warehouse's
file system. The values must be those of the in-process run; a worker killed mid-run must
cost nothing but time."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("prefect_dask")

from distributed import Client, get_task_stream  # noqa: E402
from prefect.client.orchestration import get_client  # noqa: E402
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId  # noqa: E402

from perfledger.flows import budget, ingest, pipeline  # noqa: E402
from perfledger.flows.ingest import TASK_RUNNER_ENV, ingest_flow, task_runner_from_env  # noqa: E402
from perfledger.warehouse import lake, location  # noqa: E402
from tests.conftest import CORPUS, PROJECT_ROOT  # noqa: E402
from tests.flows.prefect_servers import Processes, log_tail  # noqa: E402
from tests.servers import BUCKET  # noqa: E402

pytestmark = pytest.mark.slow

REAL_PAGES = Path("/work/shared/real-pages/pages")
# A few real pages of different kinds: Markdown tables, HTML tables, reStructuredText.
REAL_PAGE_NAMES = [
    "nvidia_dle_mxnet_rn50v1.5_README.md",
    "intel_itex_v2.15.0.1_gpu_performance.html",
    "mlcommons_inference_v4.1_nvidia_dgx_h100_summary.html",
    "bytedance_bytemlperf_ipu_graphcore_c600_README.md",
    "aws_neuron_nki_fused_mamba_tutorial.rst",
]
CLUSTER_BUDGET_S = 60
# A result lost with its worker fails the test in a minute instead of after ten.
PREPARE_TIMEOUT_S = 60
BOW_POD16_RESNET = (
    "SELECT value, sdk, framework FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput' AND framework = 'TensorFlow1'"
)
# Everything a run writes, but its id and times (new each run) and its trigger (the flow's
# "prefect", the plain stages' "cli").
COMPARED = {
    "measurements": "SELECT * EXCLUDE (run_id) FROM measurements ORDER BY ALL",
    "quarantine": "SELECT * EXCLUDE (run_id) FROM quarantine ORDER BY ALL",
    "run_documents": "SELECT * EXCLUDE (run_id) FROM run_documents ORDER BY ALL",
    "runs": "SELECT * EXCLUDE (run_id, started_at, finished_at, trigger) FROM runs ORDER BY ALL",
}


@dataclass
class Cluster:
    address: str
    scheduler_file: Path
    processes: Processes
    workers: dict[str, subprocess.Popen] = field(default_factory=dict)  # by worker name
    logs: dict[str, Path] = field(default_factory=dict)


def process_env(home: Path, extra: dict | None = None) -> dict:
    """This machine's environment without a developer's Prefect, Dask or perfledger settings:
    a worker learns the Prefect API from the task it runs. `extra`: a team's credentials."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PREFECT_", "PERFLEDGER_", "DASK_"))
    }
    env.update(extra or {})
    env.update(
        {
            "PREFECT_HOME": str(home),
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PYTHONPATH": os.pathsep.join(
                filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])
            ),
        }
    )
    return env


def start_in(
    processes: Processes, folder: Path, command: list[str], log: Path, extra_env: dict | None = None
) -> subprocess.Popen:
    """A process in its own session (so its children die with it), working in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as handle:
        process = subprocess.Popen(
            command,
            env=process_env(folder / "prefect-home", extra_env),
            cwd=folder,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    processes.started.append(process)
    return process


def wait_until(check, budget_s: float, what: str, logs: list[Path], poll_s: float = 0.2):
    """check()'s first true value within `budget_s`; else the test fails with the logs."""
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(poll_s)
    pytest.fail(
        f"{what}: not within {budget_s} s\n"
        + "\n".join(f"--- {log}\n{log_tail(log)}" for log in logs)
    )


def start_cluster(root: Path, worker_env: dict | None = None) -> Cluster:
    """`dask scheduler` on a free 127.0.0.1 port and two `dask worker`s pointed at its
    scheduler file, one single-threaded worker process each; returns once both are in.
    `worker_env`: what the workers' machines have in their environment besides."""
    processes = Processes()
    scheduler_file = root / "scheduler.json"
    scheduler_log = root / "scheduler.log"
    scheduler = start_in(
        processes,
        root / "scheduler",
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
        ],
        scheduler_log,
    )
    cluster = Cluster("", scheduler_file, processes)
    try:
        wait_until(
            lambda: scheduler_file.exists() or scheduler.poll() is not None,
            CLUSTER_BUDGET_S,
            "dask scheduler start",
            [scheduler_log],
        )
        assert scheduler.poll() is None, log_tail(scheduler_log)
        for name in ("worker-a", "worker-b"):
            folder = root / name  # each worker's own folder: a machine of its own
            cluster.logs[name] = root / f"{name}.log"
            cluster.workers[name] = start_in(
                processes,
                folder,
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    "--scheduler-file",
                    str(scheduler_file),
                    "--name",
                    name,
                    "--nthreads",
                    "1",
                    "--nworkers",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--local-directory",
                    str(folder / "dask"),
                ],
                cluster.logs[name],
                worker_env,
            )
        with Client(scheduler_file=str(scheduler_file), timeout=CLUSTER_BUDGET_S) as client:
            try:
                client.wait_for_workers(2, timeout=CLUSTER_BUDGET_S)
            except TimeoutError:
                pytest.fail(
                    "two dask workers did not connect\n"
                    + "\n".join(log_tail(log) for log in [scheduler_log, *cluster.logs.values()])
                )
            cluster.address = client.scheduler.address
    except BaseException:
        processes.stop_all()
        raise
    return cluster


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    cluster = start_cluster(tmp_path_factory.mktemp("dask-cluster"))
    try:
        yield cluster
    finally:
        cluster.processes.stop_all()


@pytest.fixture(scope="module")
def real_pages(tmp_path_factory) -> Path:
    """A folder of a few real pages (copied with their times: the capture time is a file's
    modification time)."""
    folder = tmp_path_factory.mktemp("real-pages")
    if not REAL_PAGES.is_dir():
        pytest.skip(f"no real pages at {REAL_PAGES}")
    for name in REAL_PAGE_NAMES:
        shutil.copy2(REAL_PAGES / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def real_pages_warehouse(real_pages, tmp_path_factory) -> Path:
    """The real pages ingested in process, by the plain stages: what the cluster must match."""
    folder = tmp_path_factory.mktemp("real-pages-warehouse")
    pipeline.ingest([str(real_pages)], folder)
    return folder


def read(warehouse: Path, *sql: str) -> list[list[tuple]]:
    """The rows of each query, on one read-only connection (opening one takes a second)."""
    connection = lake.connect(warehouse, read_only=True)
    try:
        return [connection.execute(text).fetchall() for text in sql]
    finally:
        connection.close()


def contents(warehouse: Path) -> dict[str, list[tuple]]:
    return dict(zip(COMPARED, read(warehouse, *COMPARED.values()), strict=True))


@pytest.fixture(scope="module")
def demo_contents(demo_warehouse) -> dict[str, list[tuple]]:
    return contents(demo_warehouse)


@pytest.fixture(scope="module")
def real_pages_contents(real_pages_warehouse) -> dict[str, list[tuple]]:
    found = contents(real_pages_warehouse)
    assert len(found["measurements"]) > 500  # the pages hold tables: something to compare
    return found


def prepare_task_states(flow_run_id) -> list[str]:
    """The final state of each prepare task run of the flow run, as the Prefect API has it."""
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
        )
    return sorted(run.state.type.value for run in runs if run.name.startswith("prepare"))


def worker_pids(cluster: Cluster) -> dict[str, int]:
    """The pid of each Dask worker process (the child of its nanny), by worker name."""
    with Client(scheduler_file=str(cluster.scheduler_file), timeout=30) as client:
        names = {
            address: info["name"] for address, info in client.scheduler_info()["workers"].items()
        }
        return {names[address]: pid for address, pid in client.run(os.getpid).items()}


def ingest_on_cluster(
    cluster: Cluster, targets: list[str], warehouse: Path, monkeypatch, during=None
):
    """The ingest flow, as test_ingest_flow.py runs it, with PERFLEDGER_TASK_RUNNER naming
    the cluster's scheduler; `during(client)` runs in a thread meanwhile. Returns the final
    state and (key, worker name) of each prepare task the scheduler saw finish."""
    monkeypatch.setattr(ingest, "PREPARE_TIMEOUT_S", PREPARE_TIMEOUT_S)
    monkeypatch.setenv(TASK_RUNNER_ENV, cluster.address)
    runner = task_runner_from_env()
    with (
        Client(scheduler_file=str(cluster.scheduler_file), timeout=30) as client,
        get_task_stream(client) as stream,
    ):
        watcher = threading.Thread(target=during, args=(client,), daemon=True) if during else None
        if watcher:
            watcher.start()
        state = ingest_flow.with_options(task_runner=runner)(
            targets=targets, warehouse=str(warehouse), return_state=True
        )
        if watcher:
            watcher.join(timeout=30)
        names = {
            address: info["name"] for address, info in client.scheduler_info()["workers"].items()
        }
    # A killed worker's address is no longer known: name it by its absence.
    prepared = [
        (record["key"], names.get(record["worker"], record["worker"]))
        for record in stream.data
        if "prepare" in str(record["key"])
    ]
    return state, prepared


def logged_documents(log: Path, since: int) -> set[str]:
    """The documents (file names) whose prepare task logged its outcome in this worker's
    output from the byte offset `since` on: Prefect prints a task run's log lines where the
    task runs, e.g. "Task run 'prepare S' - source S, document /path/name.txt: new - ..."."""
    with log.open("rb") as handle:
        handle.seek(since)
        lines = handle.read().decode(errors="replace").splitlines()
    return {
        Path(line.split(", document ", 1)[1].split(": ", 1)[0]).name
        for line in lines
        if "Task run 'prepare " in line and ", document " in line
    }


def log_sizes(cluster: Cluster) -> dict[str, int]:
    return {name: log.stat().st_size for name, log in cluster.logs.items()}


def assert_ran_on_the_workers(
    cluster: Cluster, prepared: list, documents: set[str], since: dict[str, int]
) -> None:
    """Every prepare task ran on one of the two workers, each worker ran some, and each
    document's outcome was logged by the worker process that parsed it."""
    pids = worker_pids(cluster)
    assert set(pids) == {"worker-a", "worker-b"}
    for name, pid in pids.items():
        # Each worker process belongs to the session of the `dask worker` command started.
        assert os.getpgid(pid) == cluster.workers[name].pid and pid != os.getpid()
    assert len(prepared) == len(documents), prepared  # one task per document, none twice
    assert {worker for _, worker in prepared} == {"worker-a", "worker-b"}, prepared
    logged = {name: logged_documents(log, since[name]) for name, log in cluster.logs.items()}
    assert logged["worker-a"] | logged["worker-b"] == documents, logged
    assert not logged["worker-a"] & logged["worker-b"], logged
    assert logged["worker-a"] and logged["worker-b"], logged


def test_demo_corpus_on_a_dask_cluster_gives_the_in_process_values(
    prefect_api, dask_cluster, demo_contents, tmp_path, monkeypatch
):
    since = log_sizes(dask_cluster)
    warehouse = tmp_path / "warehouse"
    started = time.monotonic()
    state, prepared = ingest_on_cluster(dask_cluster, [], warehouse, monkeypatch)
    print(f"demo corpus on the cluster: {time.monotonic() - started:.1f} s")

    assert state.is_completed(), state.message
    assert "5 documents read" in state.message and "358 added" in state.message, state.message
    assert "failed" not in state.message
    bow_pod16, count, triggers = read(
        warehouse,
        BOW_POD16_RESNET,
        "SELECT count(*) FROM measurements",
        "SELECT DISTINCT trigger FROM runs",
    )
    assert bow_pod16 == [(44059.0, "3.0", "TensorFlow1")]
    assert count == [(358,)] and triggers == [("prefect",)]
    assert contents(warehouse) == demo_contents
    assert prepare_task_states(state.state_details.flow_run_id) == ["COMPLETED"] * 5
    assert_ran_on_the_workers(dask_cluster, prepared, {p.name for p in CORPUS.glob("*.txt")}, since)


def test_real_pages_on_a_dask_cluster_give_the_in_process_values(
    prefect_api, dask_cluster, real_pages, real_pages_contents, tmp_path, monkeypatch
):
    since = log_sizes(dask_cluster)
    warehouse = tmp_path / "warehouse"
    started = time.monotonic()
    state, prepared = ingest_on_cluster(dask_cluster, [str(real_pages)], warehouse, monkeypatch)
    print(f"real pages on the cluster: {time.monotonic() - started:.1f} s")

    assert state.is_completed(), state.message
    assert f"{len(REAL_PAGE_NAMES)} documents read" in state.message, state.message
    assert "failed" not in state.message
    assert contents(warehouse) == real_pages_contents
    assert_ran_on_the_workers(dask_cluster, prepared, set(REAL_PAGE_NAMES), since)


def test_a_worker_killed_mid_task_costs_only_time(
    prefect_api, real_pages, real_pages_contents, tmp_path, monkeypatch
):
    """SIGKILL to one worker's whole process group (nanny, worker, its document reader) while
    it executes a prepare task: the scheduler hands the task to the other worker, the run
    completes with every value, and the warehouse holds one whole snapshot."""
    # A fresh cluster: a worker's first task takes seconds (imports, starting its document
    # reader), so the kill lands inside a task rather than between two.
    cluster = start_cluster(tmp_path / "cluster")
    killed: dict = {}

    def executing_prepare_tasks(dask_worker) -> list[str]:
        """Run on a worker (Client.run): the prepare tasks it is executing right now."""
        return [
            str(key)
            for key, task in dask_worker.state.tasks.items()
            if task.state == "executing" and "prepare" in str(key)
        ]

    def kill_the_first_busy_worker(client: Client) -> None:
        """SIGKILL the first worker seen executing a prepare task, asking the worker itself."""
        deadline = time.monotonic() + PREPARE_TIMEOUT_S
        while time.monotonic() < deadline:
            for address, keys in client.processing().items():
                if not any("prepare" in str(key) for key in keys):
                    continue
                executing = client.run(executing_prepare_tasks, workers=[address]).get(address)
                if executing:
                    name = client.scheduler_info()["workers"][address]["name"]
                    os.killpg(cluster.workers[name].pid, signal.SIGKILL)
                    killed.update(name=name, keys=executing, at=time.monotonic())
                    return
            time.sleep(0.05)

    warehouse = tmp_path / "warehouse"
    try:
        started = time.monotonic()
        state, prepared = ingest_on_cluster(
            cluster, [str(real_pages)], warehouse, monkeypatch, during=kill_the_first_busy_worker
        )
        print(
            f"killed {killed.get('name')} executing {killed.get('keys')} "
            f"{killed.get('at', started) - started:.1f} s into the run; "
            f"run {time.monotonic() - started:.1f} s"
        )
        assert killed, "no prepare task was seen on a worker to kill"
        assert cluster.workers[killed["name"]].poll() is not None  # it is gone
        survivor = ({"worker-a", "worker-b"} - {killed["name"]}).pop()
        logged = {name: logged_documents(log, 0) for name, log in cluster.logs.items()}
    finally:
        cluster.processes.stop_all()

    assert state.is_completed(), state.message
    assert f"{len(REAL_PAGE_NAMES)} documents read" in state.message, state.message
    assert "failed" not in state.message, state.message
    # The task the killed worker was executing was done again by the survivor (so were any it
    # had finished whose results died with it); every document was parsed to the end on one
    # worker or the other, and Prefect records each prepare task run as completed.
    assert killed["keys"] and {key for key, worker in prepared if worker == survivor} >= set(
        killed["keys"]
    ), (killed, prepared)
    assert logged["worker-a"] | logged["worker-b"] == set(REAL_PAGE_NAMES), logged
    assert prepare_task_states(state.state_details.flow_run_id) == (
        ["COMPLETED"] * len(REAL_PAGE_NAMES)
    )
    # The values of the in-process run, in one snapshot whose files are all there.
    assert contents(warehouse) == real_pages_contents
    connection = lake.connect(warehouse, read_only=True)
    try:
        runs = connection.execute("SELECT count(*) FROM runs").fetchall()
        problems = [lake.data_file_problem(f) for f in lake.data_files(connection, warehouse)]
    finally:
        connection.close()
    assert runs == [(1,)]
    assert not [problem for problem in problems if problem], problems
    assert (warehouse / ".writer.lock").read_text() == ""  # the writer lock was released


def test_workers_read_a_shared_warehouse_s_archive_from_its_bucket(
    prefect_api, team_env, s3, demo_contents, tmp_path, monkeypatch
):
    """The demo corpus into a shared warehouse (PostgreSQL, S3) on the cluster. The run puts
    the pages on the bucket and pauses; this machine's copies are then deleted, so the
    workers can read the pages only from the bucket (and keep them again where they can).
    The values are the in-process run's."""
    _env, client = s3
    where = team_env.location(team_env.postgres.new_database(), "dask")
    folder = location.resolve(where)
    cluster = start_cluster(tmp_path / "cluster", worker_env=team_env.env)
    monkeypatch.setenv(budget.PAUSE_ENV, "collected")
    monkeypatch.setenv(budget.PAUSE_SECONDS_ENV, "5")
    lost: list[Path] = []

    def lose_this_machine_s_copies(_client) -> None:
        """Once the five pages are on the bucket (the run then pauses), delete them here."""
        deadline = time.monotonic() + PREPARE_TIMEOUT_S
        while time.monotonic() < deadline:
            listed = client.list_objects_v2(Bucket=BUCKET, Prefix="dask/archive/")
            if listed.get("KeyCount", 0) >= 5:
                break
            time.sleep(0.1)
        for path in (folder / "archive").glob("??/*"):
            path.unlink()
            lost.append(path)

    try:
        state, prepared = ingest_on_cluster(
            cluster, [], where, monkeypatch, during=lose_this_machine_s_copies
        )
        pids = worker_pids(cluster)
    finally:
        cluster.processes.stop_all()
    assert state.is_completed(), state.message
    assert "5 documents read" in state.message and "358 added" in state.message, state.message
    assert len(lost) == 5 and all(path.exists() for path in lost)  # read back from the bucket
    assert {worker for _, worker in prepared} == {"worker-a", "worker-b"}, prepared
    assert set(pids) == {"worker-a", "worker-b"}
    assert contents(folder) == demo_contents


def test_perfledger_ingest_without_a_prefect_api_sends_its_work_to_the_cluster(
    dask_cluster, tmp_path
):
    """PERFLEDGER_TASK_RUNNER=tcp://... reaches the cluster from `perfledger ingest` with no
    Prefect API configured (a temporary Prefect server runs the flow); before, the variable
    was silently ignored and every page was read in process."""
    since = log_sizes(dask_cluster)
    warehouse = tmp_path / "warehouse"
    env = {**process_env(tmp_path / "prefect-home"), TASK_RUNNER_ENV: dask_cluster.address}
    done = subprocess.run(
        [sys.executable, "-m", "perfledger", "ingest", "--warehouse", str(warehouse)],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{TASK_RUNNER_ENV}={dask_cluster.address}: running as a Prefect flow" in done.stderr
    assert "values added:        358" in done.stdout
    logged = set().union(
        *(logged_documents(log, since[name]) for name, log in dask_cluster.logs.items())
    )
    assert logged == {path.name for path in CORPUS.iterdir() if path.suffix == ".txt"}, logged
