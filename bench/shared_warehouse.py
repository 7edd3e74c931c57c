"""What a shared warehouse and a Dask cluster cost an ingest, against baselines of the same run.

    python -m bench.shared_warehouse [--pages 200] [--work DIR] [--out FILE] [--repeats 3]
                                     [--skip-dask]

One seeded corpus (bench/generate.py) is ingested by `perfledger ingest`, each time in a child
process of its own and timed from outside (interpreter start and imports included):

1. into a folder warehouse and into a shared warehouse (DuckLake catalog in a throwaway
   PostgreSQL, Parquet on moto's S3 API), each time a new one; then again into the first of
   each with nothing changed. The shared figures are ratios against the folder's, and both
   warehouses must hold, as `perfledger sql` reads them back, the measurements (and the sum
   of their values) the first ingest added;
2. through a Prefect server, with the default task runner (threads, in the flow's own
   process) and on a Dask cluster (`dask scheduler` and two `dask worker` processes, one
   thread each): PERFLEDGER_TASK_RUNNER only takes effect in a flow run, so both go through
   the same Prefect API and differ in the runner alone. Each runner first ingests one page
   into a scratch warehouse, so that neither pays the server's first flow run or the
   workers' imports inside its figure; both must load what the folder warehouse holds.

Each timed ingest runs --repeats times, the two sides of a comparison in turns, and the
fastest run counts.

The machine is shared with other work, so only ratios between runs of the same invocation are
compared. Every server (PostgreSQL, moto in a thread of this process, Prefect, the Dask
scheduler and workers) listens on 127.0.0.1, is started here and stopped at the end, even on
failure; every child process runs under a timeout, in a process group of its own, so that
the document readers it starts die with it.

Where the shared warehouse's time goes is read from PostgreSQL's pg_stat_database (time its
sessions spent executing statements, transactions) and from the requests moto served.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import os
import platform
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench.generate import generate

PROJECT_ROOT = Path(__file__).resolve().parents[1]
INGEST_TIMEOUT_S = 1800
QUERY_TIMEOUT_S = 300
SERVER_START_S = 180
STOP_S = 15
# Settings of the developer's own machine that would steer a child away from what this run
# gives it (another Prefect API, warehouse, reader count, S3 endpoint or PostgreSQL role).
DROPPED_ENV_PREFIXES = ("PREFECT_", "PERFLEDGER_", "DASK_", "AWS_", "PG")
# The sum makes the query read every value: a count alone is answered from the catalog's
# statistics, without a data file.
STORED_SQL = "SELECT count(*) AS measurements, sum(value) AS total FROM measurements"
_SUMMARY = re.compile(
    r"documents read:\s+(\d+) \((\d+) new, (\d+) unchanged.*?"
    r"values added:\s+(\d+)",
    re.S,
)
_ANSI_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # werkzeug colours a request line by its status
_REQUEST = re.compile(r"^(GET|PUT|POST|HEAD|DELETE) (\S+)")
# What a request reached: a table's data files (DATA_PATH/<schema>/<table>/) or the raw
# archive of the pages, which a shared warehouse keeps beside its data.
_STORED_KIND = re.compile(r"/data/[^/]+/([^/]+)/|/(archive)/")


# ---- results ----------------------------------------------------------------------------------


@dataclass
class Ingest:
    seconds: float
    documents: int
    new: int
    unchanged: int
    values_added: int


@dataclass
class Stored:
    """What a warehouse holds, as `perfledger sql` reads it back, and how long that took."""

    measurements: int
    total: float
    seconds: float


@dataclass
class Row:
    key: str
    label: str
    seconds: float
    values: int | None = None
    baseline: str | None = None  # the key of the row this one is a ratio against
    note: str = ""


@dataclass
class Report:
    pages: int
    rows: list[Row] = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row

    def row(self, key: str) -> Row:
        return next(row for row in self.rows if row.key == key)

    def ratio(self, row: Row) -> float | None:
        if row.baseline is None:
            return None
        return row.seconds / self.row(row.baseline).seconds

    def as_json(self) -> dict:
        return {
            "pages": self.pages,
            "machine": describe_machine(),
            "rows": [{**asdict(row), "ratio": self.ratio(row)} for row in self.rows],
            "details": self.details,
        }


# ---- child processes --------------------------------------------------------------------------


class ProcessGroup:
    """Long-running children (servers, workers), each in a session of its own so that a
    stop reaches whatever it started too; all stopped on leaving, however that happens."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def __enter__(self) -> ProcessGroup:
        return self

    def __exit__(self, *_exc) -> None:
        while self.started:
            stop_process_group(self.started.pop())

    def start(
        self, command: list[str], env: dict[str, str], log_file: Path, cwd: Path = PROJECT_ROOT
    ) -> subprocess.Popen:
        cwd.mkdir(parents=True, exist_ok=True)
        with log_file.open("wb") as handle:
            process = subprocess.Popen(
                command,
                env=env,
                cwd=cwd,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.started.append(process)
        return process


def stop_process_group(process: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=STOP_S)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # children that outlived their leader


def run_bounded(command: list[str], env: dict[str, str], timeout_s: float) -> tuple[str, float]:
    """(stdout, wall seconds) of a command that must succeed within `timeout_s`."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        env=env,
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        stop_process_group(process)
        raise RuntimeError(f"{' '.join(command)}: not done within {timeout_s} s") from None
    except BaseException:
        stop_process_group(process)
        raise
    elapsed = time.perf_counter() - started
    if process.returncode:
        raise RuntimeError(
            f"{' '.join(command)} exited with {process.returncode}:\n{out[-2000:]}\n{err[-4000:]}"
        )
    return out, elapsed


def clean_env(work: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(DROPPED_ENV_PREFIXES)
    }
    return {
        **env,
        "PREFECT_HOME": str(work / "prefect-home"),
        "XDG_DATA_HOME": str(work / "xdg-data"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])
        ),
        **extra,
    }


def perfledger(*args: str) -> list[str]:
    return [sys.executable, "-m", "perfledger", *args]


def ingest(pages: Path, warehouse: str, env: dict[str, str]) -> Ingest:
    out, seconds = run_bounded(
        perfledger("ingest", str(pages), "--warehouse", warehouse, "--quiet"), env, INGEST_TIMEOUT_S
    )
    return parse_summary(out, seconds)


def parse_summary(out: str, seconds: float) -> Ingest:
    found = _SUMMARY.search(out)
    if found is None:
        raise RuntimeError(f"no ingest summary in:\n{out[-2000:]}")
    documents, new, unchanged, added = map(int, found.groups())
    return Ingest(seconds, documents, new, unchanged, added)


def read_stored(warehouse: str, env: dict[str, str]) -> Stored:
    out, seconds = run_bounded(
        perfledger("sql", STORED_SQL, "--warehouse", warehouse, "--format", "csv"),
        env,
        QUERY_TIMEOUT_S,
    )
    measurements, total = out.strip().splitlines()[-1].split(",")
    return Stored(int(measurements), float(total or 0), seconds)


def wait_until(check, budget_s: float, what: str, log_file: Path | None = None):
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.25)
    tail = log_file.read_text(errors="replace")[-3000:] if log_file and log_file.exists() else ""
    raise RuntimeError(f"{what}: not within {budget_s} s\n{tail}")


# ---- the shared warehouse's servers -----------------------------------------------------------


def missing_requirement() -> str | None:
    """Why the shared warehouse cannot be measured on this machine, or None."""
    from tests.servers import INSTALL_HINT, postgres_bin

    if postgres_bin() is None:
        return INSTALL_HINT
    if os.geteuid() == 0:  # initdb and postgres refuse root: the server runs as `postgres`
        if not shutil.which("runuser"):
            return "running as root without runuser: cannot start PostgreSQL"
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return (
                "running as root and there is no `postgres` user to run PostgreSQL as "
                "(apt-get install postgresql creates it)"
            )
    for module in ("moto.server", "boto3"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is missing: install moto[server] and boto3 (requirements-test.lock)"
    return None


class S3Requests(logging.Handler):
    """Counts the requests moto serves, by method and by what they reached, from the request
    log its server writes (moto keeps no count of its own)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        line = str(record.args[0]) if record.args else record.getMessage()
        request = _REQUEST.match(_ANSI_STYLE.sub("", line))
        if request is None:
            return
        method, path = request.groups()
        self.counts[f"s3 {method}"] += 1
        kind = _STORED_KIND.search(path)
        if kind:
            self.counts[f"s3 {method} {kind.group(1) or kind.group(2)}"] += 1

    def snapshot(self) -> dict[str, int]:
        return dict(self.counts)


@dataclass
class S3Service:
    env: dict[str, str]  # the AWS_* variables that reach it
    client: object  # boto3's S3 client
    requests: S3Requests
    bucket: str


@contextlib.contextmanager
def moto_s3(bucket: str):
    """moto's S3 API on 127.0.0.1 in a thread of this process, as the tests' fixtures start
    it (tests/shared_warehouse_fixtures.py), with a bucket."""
    import secrets

    import boto3
    from moto.server import ThreadedMotoServer

    requests = S3Requests()
    werkzeug_log = logging.getLogger("werkzeug")
    level, propagate = werkzeug_log.level, werkzeug_log.propagate
    werkzeug_log.setLevel(logging.INFO)
    werkzeug_log.addHandler(requests)
    werkzeug_log.propagate = False  # a line per request would bury the bench's own output
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        env = {
            "AWS_ACCESS_KEY_ID": f"AKIA{secrets.token_hex(8).upper()}",
            "AWS_SECRET_ACCESS_KEY": secrets.token_hex(20),
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ENDPOINT_URL": f"http://{host}:{port}",
        }
        client = boto3.client(
            "s3",
            endpoint_url=env["AWS_ENDPOINT_URL"],
            region_name="us-east-1",
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        )
        client.create_bucket(Bucket=bucket)
        yield S3Service(env, client, requests, bucket)
    finally:
        server.stop()
        werkzeug_log.removeHandler(requests)
        werkzeug_log.setLevel(level)
        werkzeug_log.propagate = propagate


@contextlib.contextmanager
def postgres_server():
    from tests.servers import Postgres, postgres_bin

    server = Postgres(postgres_bin())
    try:
        server.start()
        yield server
    finally:
        server.stop()


def catalog_activity(server, database: str) -> dict:
    """The catalog database's counters once no session is connected to it any more: a
    session's statistics reach pg_stat_database when its server process exits."""
    import psycopg

    with psycopg.connect(
        host=str(server.root), port=server.port, user="postgres", dbname="postgres", autocommit=True
    ) as session:
        wait_until(
            lambda: session.execute(
                "SELECT count(*) = 0 FROM pg_stat_activity WHERE datname = %s", (database,)
            ).fetchone()[0],
            30,
            "catalog sessions to end",
        )
        row = session.execute(
            "SELECT xact_commit + xact_rollback, active_time, sessions, "
            "tup_inserted + tup_updated + tup_deleted, tup_returned "
            "FROM pg_stat_database WHERE datname = %s",
            (database,),
        ).fetchone()
    transactions, active_ms, sessions, written, returned = row
    return {
        "transactions": transactions,
        "active_s": active_ms / 1000,
        "sessions": sessions,
        "rows_written": written,
        "rows_returned": returned,
    }


def stored_objects(client, bucket: str, prefix: str) -> dict:
    objects = size = 0
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            objects += 1
            size += item["Size"]
    return {"objects": objects, "mb": size / 1e6}


def difference(after: dict, before: dict) -> dict:
    """`after` less `before`, leaving out the request counts that did not move."""
    changes = {key: after[key] - before.get(key, 0) for key in after}
    return {key: value for key, value in changes.items() if value or not key.startswith("s3 ")}


# ---- 1. folder warehouse against shared warehouse ---------------------------------------------


@dataclass
class SharedTarget:
    """One shared warehouse of this run (its own catalog database and data prefix) and what
    it takes to watch it."""

    location: str
    env: dict[str, str]
    server: object  # tests.servers.Postgres
    database: str
    s3: S3Service
    prefix: str

    def observe(self) -> dict:
        return {**catalog_activity(self.server, self.database), **self.s3.requests.snapshot()}

    def stored_objects(self) -> dict:
        return stored_objects(self.s3.client, self.s3.bucket, self.prefix)


def new_shared_target(server, s3: S3Service, work: Path, prefix: str) -> SharedTarget:
    from tests.servers import ROLE

    database = server.new_database()
    return SharedTarget(
        f"postgres://127.0.0.1:{server.port}/{database}?data=s3://{s3.bucket}/{prefix}",
        clean_env(work, PGUSER=ROLE, PGPASSWORD=server.password, **s3.env),
        server,
        database,
        s3,
        prefix,
    )


def observed(target: SharedTarget, action):
    """(what `action()` returns, what it cost the catalog database and the S3 API)."""
    before = target.observe()
    result = action()
    return result, difference(target.observe(), before)


def alternate(first, second, times: int) -> tuple[list, list]:
    """`first(i)` and `second(i)` taken in turns: load from the machine's other work then
    falls on both alike rather than on whichever ran while it peaked."""
    firsts, seconds = [], []
    for attempt in range(times):
        firsts.append(first(attempt))
        seconds.append(second(attempt))
    return firsts, seconds


def fastest_observed(runs: list[tuple[Ingest, dict]]) -> tuple[Ingest, dict]:
    return min(runs, key=lambda observed_run: observed_run[0].seconds)


def fastest(runs: list[Ingest]) -> Ingest:
    return min(runs, key=lambda run: run.seconds)


def measure_storage(report: Report, work: Path, pages: Path, repeats: int) -> None:
    from tests.servers import BUCKET

    local_env = clean_env(work)
    folders = [str(work / f"folder-warehouse-{attempt}") for attempt in range(repeats)]
    log("starting PostgreSQL and moto's S3")
    with postgres_server() as server, moto_s3(BUCKET) as s3:
        log(
            f"PostgreSQL on 127.0.0.1:{server.port} ({server.root}), S3 on "
            f"{s3.env['AWS_ENDPOINT_URL']}"
        )
        targets = [
            new_shared_target(server, s3, work, f"bench-{attempt}") for attempt in range(repeats)
        ]
        log(f"first ingests, folder and shared in turns ({repeats} of each)")
        local_firsts, shared_firsts = alternate(
            lambda attempt: ingest(pages, folders[attempt], local_env),
            lambda attempt: observed(
                targets[attempt],
                lambda: ingest(pages, targets[attempt].location, targets[attempt].env),
            ),
            repeats,
        )
        log(f"re-runs with nothing changed, in turns ({repeats} of each)")
        local_reruns, shared_reruns = alternate(
            lambda _: ingest(pages, folders[0], local_env),
            lambda _: observed(
                targets[0], lambda: ingest(pages, targets[0].location, targets[0].env)
            ),
            repeats,
        )
        log("reading every measurement back from each warehouse")
        local_stored = read_stored(folders[0], local_env)
        shared_stored, read_activity = observed(
            targets[0], lambda: read_stored(targets[0].location, targets[0].env)
        )
        objects = targets[0].stored_objects()
    runs = {
        "folder_first": local_firsts,
        "shared_first": [run for run, _ in shared_firsts],
        "folder_rerun": local_reruns,
        "shared_rerun": [run for run, _ in shared_reruns],
    }
    check_storage(runs, local_stored, shared_stored)
    shared_first, first_activity = fastest_observed(shared_firsts)
    shared_rerun, rerun_activity = fastest_observed(shared_reruns)
    report.details |= {
        "seconds": {key: [run.seconds for run in found] for key, found in runs.items()},
        "shared_first": {**first_activity, **objects},
        "shared_rerun": rerun_activity,
        "shared_read": read_activity,
        "stored": {"folder": asdict(local_stored), "shared": asdict(shared_stored)},
    }
    add_storage_rows(
        report,
        (fastest(local_firsts), shared_first),
        (fastest(local_reruns), shared_rerun),
        (local_stored, shared_stored),
        repeats,
    )


def check_storage(runs: dict[str, list[Ingest]], local: Stored, shared: Stored) -> None:
    """Every first ingest added what both warehouses hold, and every re-run loaded nothing."""
    added = {run.values_added for key in ("folder_first", "shared_first") for run in runs[key]}
    if added != {local.measurements} or shared.measurements != local.measurements:
        raise RuntimeError(
            f"the warehouses disagree on the measurements: added {added}, "
            f"folder holds {local.measurements}, shared {shared.measurements}"
        )
    if not math.isclose(local.total, shared.total, rel_tol=1e-9):
        raise RuntimeError(
            f"the warehouses' values differ: sum {local.total} in the folder, "
            f"{shared.total} in the shared warehouse"
        )
    for rerun in runs["folder_rerun"] + runs["shared_rerun"]:
        if rerun.new or rerun.values_added or rerun.unchanged != rerun.documents:
            raise RuntimeError(f"a re-run of unchanged pages loaded something: {rerun}")


def add_storage_rows(
    report: Report,
    firsts: tuple[Ingest, Ingest],
    reruns: tuple[Ingest, Ingest],
    stored: tuple[Stored, Stored],
    repeats: int,
) -> None:
    best = f"fastest of {repeats}"
    values = stored[0].measurements
    report.add(
        Row("folder_first", "first ingest, folder warehouse", firsts[0].seconds, values, note=best)
    )
    report.add(
        Row(
            "shared_first",
            "first ingest, shared warehouse (PostgreSQL + S3)",
            firsts[1].seconds,
            stored[1].measurements,
            "folder_first",
            best,
        )
    )
    report.add(
        Row(
            "folder_rerun",
            "re-run, nothing changed, folder warehouse",
            reruns[0].seconds,
            values,
            note=f"{best}; {reruns[0].unchanged} documents unchanged",
        )
    )
    report.add(
        Row(
            "shared_rerun",
            "re-run, nothing changed, shared warehouse",
            reruns[1].seconds,
            stored[1].measurements,
            "folder_rerun",
            f"{best}; {reruns[1].unchanged} documents unchanged",
        )
    )
    report.add(
        Row(
            "folder_read",
            "`perfledger sql` count(*), sum(value), folder warehouse",
            stored[0].seconds,
            values,
            note="one run",
        )
    )
    report.add(
        Row(
            "shared_read",
            "`perfledger sql` count(*), sum(value), shared warehouse",
            stored[1].seconds,
            stored[1].measurements,
            "folder_read",
            "one run",
        )
    )


# ---- 2. in-process task runner against a Dask cluster -----------------------------------------


def dask_missing() -> str | None:
    try:
        import distributed  # noqa: F401
        import prefect_dask  # noqa: F401
    except ImportError:
        return "prefect-dask and dask[distributed] are not installed (extra: dask)"
    return None


def start_prefect_server(processes: ProcessGroup, work: Path) -> str:
    """A Prefect server on a free 127.0.0.1 port; its API URL once it answers."""
    from tests.servers import free_port

    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    log_file = work / "prefect-server.log"
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
        clean_env(work, PREFECT_UI_ENABLED="false"),
        log_file,
    )
    wait_until(
        lambda: process.poll() is not None or api_healthy(api_url),
        SERVER_START_S,
        "prefect server start",
        log_file,
    )
    if process.poll() is not None:
        raise RuntimeError(f"prefect server exited:\n{log_file.read_text(errors='replace')}")
    return api_url


def api_healthy(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=5) as response:
            return json.loads(response.read()) is True
    except (urllib.error.URLError, OSError, ValueError):
        return False


def start_dask_cluster(processes: ProcessGroup, work: Path) -> str:
    """`dask scheduler` and two single-threaded `dask worker`s, each working in a folder of
    its own (as tests/flows/test_dask_cluster.py starts them); the scheduler's address once
    both workers are in."""
    from distributed import Client

    root = work / "dask"
    scheduler_file = root / "scheduler.json"
    scheduler_log = root / "scheduler.log"
    root.mkdir(parents=True, exist_ok=True)
    scheduler = processes.start(
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
        clean_env(root / "scheduler"),
        scheduler_log,
        root / "scheduler",
    )
    wait_until(
        lambda: scheduler_file.exists() or scheduler.poll() is not None,
        SERVER_START_S,
        "dask scheduler start",
        scheduler_log,
    )
    if scheduler.poll() is not None:
        raise RuntimeError(f"dask scheduler exited:\n{scheduler_log.read_text()[-3000:]}")
    for name in ("worker-a", "worker-b"):
        folder = root / name
        processes.start(
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
            clean_env(folder),
            root / f"{name}.log",
            folder,
        )
    with Client(scheduler_file=str(scheduler_file), timeout=SERVER_START_S) as client:
        client.wait_for_workers(2, timeout=SERVER_START_S)
        return client.scheduler.address


def measure_task_runners(
    report: Report, work: Path, pages: Path, warm_up: Path, repeats: int
) -> None:
    with ProcessGroup() as processes:
        log("starting a Prefect server and a Dask cluster (scheduler, two workers)")
        api_url = start_prefect_server(processes, work)
        address = start_dask_cluster(processes, work)
        log(f"Prefect API at {api_url}, Dask scheduler at {address}")
        envs = {
            name: clean_env(work, PREFECT_API_URL=api_url, PERFLEDGER_TASK_RUNNER=setting)
            for name, setting in (("threads", "threads"), ("dask", address))
        }
        log("warm-up flow runs of one page on each task runner")
        for name, env in envs.items():
            ingest(warm_up, str(work / f"warm-up-{name}"), env)
        log(f"flow runs, threads and Dask in turns ({repeats} of each)")
        threads_runs, dask_runs = alternate(
            lambda attempt: ingest(pages, str(work / f"flow-threads-{attempt}"), envs["threads"]),
            lambda attempt: ingest(pages, str(work / f"flow-dask-{attempt}"), envs["dask"]),
            repeats,
        )
        stored = {
            name: read_stored(str(work / f"flow-{name}-0"), env) for name, env in envs.items()
        }
    check_task_runners(report, threads_runs + dask_runs, stored)
    report.details["seconds"] |= {
        "flow_threads": [run.seconds for run in threads_runs],
        "flow_dask": [run.seconds for run in dask_runs],
    }
    add_task_runner_rows(
        report, fastest(threads_runs), fastest(dask_runs), stored["dask"].measurements, repeats
    )


def check_task_runners(report: Report, runs: list[Ingest], stored: dict[str, Stored]) -> None:
    """Every flow run added, and each runner's warehouse holds, what the folder warehouse
    of part 1 holds."""
    expected = report.details["stored"]["folder"]
    added = {run.values_added for run in runs}
    held = {found.measurements for found in stored.values()}
    if added | held != {expected["measurements"]}:
        raise RuntimeError(
            f"the task runners' warehouses disagree: added {added}, hold {held}, "
            f"the folder warehouse {expected['measurements']}"
        )
    for name, found in stored.items():
        if not math.isclose(found.total, expected["total"], rel_tol=1e-9):
            raise RuntimeError(
                f"the {name} runner's values differ: sum {found.total}, "
                f"the folder warehouse's {expected['total']}"
            )


def add_task_runner_rows(
    report: Report, threads: Ingest, dask: Ingest, values: int, repeats: int
) -> None:
    plain = report.row("folder_first").seconds
    report.add(
        Row(
            "flow_threads",
            "flow run, default task runner (threads, in process)",
            threads.seconds,
            values,
            note=f"fastest of {repeats}; {threads.seconds / plain:.2f}x the folder "
            "ingest without Prefect",
        )
    )
    report.add(
        Row(
            "flow_dask",
            "flow run, Dask cluster (scheduler + 2 workers)",
            dask.seconds,
            values,
            "flow_threads",
            note=f"fastest of {repeats}; {dask.seconds / plain:.2f}x the folder "
            "ingest without Prefect",
        )
    )


# ---- output -----------------------------------------------------------------------------------


def render(report: Report) -> str:
    lines = [
        "| measurement | seconds | ratio | against | values | note |",
        "|---|---:|---:|---|---:|---|",
    ]
    for row in report.rows:
        ratio = report.ratio(row)
        against = report.row(row.baseline).label if row.baseline else "(baseline)"
        values = f"{row.values:,}" if row.values is not None else ""
        lines.append(
            f"| {row.label} | {row.seconds:.2f} | "
            f"{'1.00' if ratio is None else f'{ratio:.2f}'} | {against} | {values} | "
            f"{row.note} |"
        )
    return "\n".join(lines)


def render_details(report: Report) -> str:
    lines = []
    for key, title in (
        ("shared_first", "shared first ingest"),
        ("shared_rerun", "shared re-run"),
        ("shared_read", "shared read-back query"),
    ):
        facts = report.details.get(key)
        if not facts:
            continue
        wall = report.row(key).seconds
        stored = (
            f"; {facts['objects']} objects, {facts['mb']:.1f} MB on S3"
            if "objects" in facts
            else ""
        )
        lines.append(
            f"- {title}: PostgreSQL executed statements for {facts['active_s']:.2f} s "
            f"({facts['active_s'] / wall:.0%} of the wall time) in "
            f"{facts['transactions']} transactions over {facts['sessions']} sessions, "
            f"{facts['rows_written']:,} catalog rows written; S3 requests: "
            f"{describe_requests(facts)}{stored}"
        )
    return "\n".join(lines)


def describe_requests(facts: dict, tables: int = 4) -> str:
    """'GET 24, PUT 3 (GET measurement_values 12, ...)': by method, then what they reached
    most often (a table's data files, or the archive)."""
    counts = {name[3:]: count for name, count in facts.items() if name.startswith("s3 ") and count}
    methods = [f"{name} {count}" for name, count in sorted(counts.items()) if " " not in name]
    busiest = sorted(
        ((count, name) for name, count in counts.items() if " " in name), reverse=True
    )[:tables]
    if not methods:
        return "none"
    detail = ", ".join(f"{name} {count}" for count, name in busiest)
    return ", ".join(methods) + (f" ({detail})" if detail else "")


def describe_machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, Python {platform.python_version()}"
    )


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def stop_on_sigterm() -> None:
    """A SIGTERM (a CI job's timeout) unwinds like an error, so every server still stops."""

    def leave(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, leave)


def main(argv: list[str] | None = None) -> Report:
    parser = argparse.ArgumentParser(
        prog="python -m bench.shared_warehouse", description=__doc__.split("\n", 1)[0]
    )
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="runs of each timed ingest, taken in turns; the fastest counts",
    )
    parser.add_argument("--work", type=Path, help="keep the corpus and warehouses here")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON")
    parser.add_argument(
        "--skip-dask", action="store_true", help="measure the folder and shared warehouses only"
    )
    args = parser.parse_args(argv)
    if args.pages < 1 or args.repeats < 1:
        parser.error("--pages and --repeats take a number from 1 up")
    missing = missing_requirement()
    if missing:
        raise SystemExit(f"cannot measure a shared warehouse here: {missing}")
    dask_reason = "--skip-dask" if args.skip_dask else dask_missing()
    work = args.work or Path(tempfile.mkdtemp(prefix="perfledger-shared-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    report = Report(args.pages)
    stop_on_sigterm()
    try:
        log(f"generating {args.pages} pages")
        generate(args.pages, args.seed, work / "corpus", "html")
        generate(1, args.seed + 1, work / "warm-up", "html")
        measure_storage(report, work, work / "corpus" / "pages", args.repeats)
        if dask_reason is None:
            measure_task_runners(
                report, work, work / "corpus" / "pages", work / "warm-up" / "pages", args.repeats
            )
        else:
            report.details["dask_skipped"] = dask_reason
        log("done, every server stopped")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(render(report))
    print()
    print(render_details(report))
    if "dask_skipped" in report.details:
        print(f"\nDask cluster not measured: {report.details['dask_skipped']}")
    print(f"\n{args.pages} generated HTML pages; machine: {describe_machine()}")
    if args.out:
        args.out.write_text(json.dumps(report.as_json(), indent=2), encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
