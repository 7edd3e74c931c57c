"""Real servers for the shared-warehouse tests and the bench, on 127.0.0.1: a throwaway
PostgreSQL (Debian's postgresql binaries) and moto's S3 API; the machines of a team, each
with its own folder, running the installed command."""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

ROLE = "analyst"
BUCKET = "perfledger-team"
INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: install them "
    "(Debian/Ubuntu: apt-get install postgresql) or set PERFLEDGER_PG_BIN to their folder"
)


def postgres_bin() -> Path | None:
    candidates = [os.environ.get("PERFLEDGER_PG_BIN", "")]
    if shutil.which("pg_config"):
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            candidates.append(
                subprocess.run(
                    ["pg_config", "--bindir"], capture_output=True, text=True, check=True
                ).stdout.strip()
            )
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if shutil.which("initdb"):
        candidates.append(str(Path(shutil.which("initdb")).parent))
    for folder in filter(None, candidates):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Postgres:
    """A throwaway PostgreSQL server: superuser `postgres` by trust on its own socket only,
    the role ROLE by password (scram) on 127.0.0.1."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.password = secrets.token_hex(16)
        self.port = free_port()
        # Not under pytest's 0700 temporary folder: the server's user must reach it.
        self.root = Path(tempfile.mkdtemp(prefix="perfledger-pg-"))
        self.as_server_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            if not shutil.which("runuser"):
                pytest.skip("running as root without runuser: cannot start PostgreSQL")
            try:
                shutil.chown(self.root, "postgres")
            except (LookupError, PermissionError):
                pytest.skip(
                    "running as root and there is no `postgres` user to run the "
                    "server as (apt-get install postgresql creates it)"
                )
            self.as_server_user = ["runuser", "-u", "postgres", "--"]

    def run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_server_user, str(self.bindir / tool), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode:
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        data = self.root / "data"
        self.run(
            "initdb",
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "--no-sync",
        )
        self.run(
            "pg_ctl",
            "-D",
            str(data),
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port} -h 127.0.0.1 -k {self.root} -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off",
            "start",
        )
        self.admin(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{self.password}'")

    def restart(self) -> None:
        """Stop the server as an operator would (fast: every session ended, transactions
        rolled back) and start it again on the same port and data; returns once it answers.
        The log file is named again so that the server's output never holds pg_ctl's pipe."""
        self.run(
            "pg_ctl",
            "-D",
            str(self.root / "data"),
            "-l",
            str(self.root / "server.log"),
            "-m",
            "fast",
            "-w",
            "-t",
            "60",
            "restart",
        )

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError):
            self.run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(
            host=str(self.root), port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as session:
            session.execute(statement)

    def new_database(self) -> str:
        name = f"lake_{secrets.token_hex(4)}"
        self.admin(f"CREATE DATABASE {name} OWNER {ROLE}")
        return name

    def dump(self, database: str) -> str:
        """The whole catalog database as SQL text (pg_dump runs as any user)."""
        return subprocess.run(
            [
                str(self.bindir / "pg_dump"),
                "-h",
                str(self.root),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                database,
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout


class Team:
    def __init__(self, postgres: Postgres, env: dict[str, str], machines: Path):
        self.postgres = postgres
        self.env = env
        self.machines = machines
        self.outputs: list[str] = []  # everything the CLI printed, for the leak check

    def location(self, database: str, prefix: str) -> str:
        return f"postgres://127.0.0.1:{self.postgres.port}/{database}?data=s3://{BUCKET}/{prefix}"

    def machine_env(self, machine: str, **extra: str) -> dict[str, str]:
        """The environment of one machine: its own data folder (for this machine's side of
        a shared warehouse), no Prefect API (the CLI then runs in-process)."""
        home = self.machines / machine
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PREFECT_", "PERFLEDGER_", "AWS_", "PG"))
        }
        return {
            **env,
            **self.env,
            "XDG_DATA_HOME": str(home / "data"),
            "PREFECT_HOME": str(home / "prefect"),
            **extra,
        }

    def start(self, machine: str, *args: str, **extra: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "perfledger", *args],
            cwd=PROJECT_ROOT,
            env=self.machine_env(machine, **extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def finish(self, process: subprocess.Popen, timeout_s: float = 240) -> tuple[int, str, str]:
        try:
            out, err = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        self.outputs += [out, err]
        return process.returncode, out, err

    def cli(self, machine: str, *args: str, code: int = 0) -> str:
        returncode, out, err = self.finish(self.start(machine, *args))
        assert returncode == code, f"perfledger {' '.join(args)}: {returncode}\n{out}\n{err}"
        return out
