"""A Prefect server of its own, started as a user starts one, for the tests that need one:
`prefect server start` on a free 127.0.0.1 port, and the processes started beside it."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
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

from tests.conftest import PROJECT_ROOT

SERVER_BUDGET_S = 60
TERMINAL = {"COMPLETED", "FAILED", "CRASHED", "CANCELLED"}  # a flow run's end states


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
