"""How `perfledger` behaves as a command: Ctrl-C, mistyped paths and names, waits, progress
on a terminal and in a pipe, settings that cannot be honoured."""

from __future__ import annotations

import errno
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from perfledger.flows import budget, pipeline
from perfledger.flows.cli import main
from perfledger.flows.cli_common import database_failure
from perfledger.sources.collect import source_for_url
from perfledger.warehouse import query
from tests.conftest import JULY_2023, PROJECT_ROOT


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _as_a_shell_starts_it() -> None:
    # A test run in the background inherits SIGINT ignored, and Python then leaves it so.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def command(*args: str, env: dict | None = None) -> subprocess.Popen:
    """`perfledger ARGS` in a session of its own, its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "perfledger", *args],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_a_shell_starts_it,
    )


def wait_for_line(process: subprocess.Popen, text: str, timeout_s: float = 120) -> str:
    """What the process wrote on stderr from now until a line holding `text`. Read from
    the pipe itself: a buffered readline may hold the line back, unseen by select."""
    seen = b""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.5)
        chunk = os.read(process.stderr.fileno(), 65536) if ready else b""
        seen += chunk
        if text.encode() in seen:
            return seen.decode(errors="replace")
        if ready and not chunk:
            break
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError(f"never printed {text!r}:\n{seen.decode(errors='replace')}")


def snapshots(warehouse: Path) -> list[tuple]:
    return query.run_sql(warehouse, "SELECT snapshot_id FROM lake.snapshots() ORDER BY 1")[1]


# --- Ctrl-C --------------------------------------------------------------------------------


def test_ctrl_c_during_an_ingest_exits_130_saying_nothing_was_written(tmp_path):
    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(JULY_2023)], warehouse)
    before = snapshots(warehouse)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "copy.txt").write_bytes(JULY_2023.read_bytes() + b"\n")
    process = command(
        "ingest", str(pages), "--warehouse", str(warehouse), env={budget.PAUSE_ENV: "load"}
    )
    wait_for_line(process, "paused at load")
    os.kill(process.pid, signal.SIGINT)  # what Ctrl-C sends to the command
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, out + err
    assert "interrupted: nothing was written (each run is committed whole or not at all)" in err
    assert "Aborted!" not in err and "Traceback" not in err
    assert out == ""
    assert snapshots(warehouse) == before


def test_ctrl_c_after_a_run_committed_names_what_stays(tmp_path):
    """The demo corpus is two runs (two versions of one page): interrupted in the second,
    the first one's snapshot stays and is named."""
    warehouse = tmp_path / "warehouse"
    process = command(
        "ingest",
        "--warehouse",
        str(warehouse),
        "--quiet",
        env={budget.PAUSE_ENV: "load", budget.PAUSE_SECONDS_ENV: "5"},
    )
    wait_for_line(process, "paused at load")
    wait_for_line(process, "paused at load")  # the second run's
    os.kill(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    (first,) = [snapshot for (snapshot,) in snapshots(warehouse)][-1:]
    assert (
        f"interrupted: the run in progress wrote nothing; the runs committed before it "
        f"stay (snapshots {first})"
    ) in err


# --- names and paths that do not exist ------------------------------------------------------


def test_ingest_of_a_missing_path_exits_2_and_creates_nothing(tmp_path):
    warehouse = tmp_path / "warehouse"
    code, output = run("ingest", "/no/such/path", "--warehouse", str(warehouse))
    assert code == 2
    assert output == "error: no such file or folder: /no/such/path; nothing was read\n"
    assert not warehouse.exists()


@pytest.mark.parametrize(
    "arguments",
    [
        ["quarantine", "--source", "nosuch"],
        ["claims", "--source", "nosuch"],
        ["reprocess", "--source", "nosuch"],
    ],
)
def test_a_source_the_warehouse_never_read_is_refused_not_listed_empty(demo_warehouse, arguments):
    code, output = run(*arguments, "--warehouse", str(demo_warehouse))
    assert code == 2
    assert output.startswith(
        f"error: the warehouse at {demo_warehouse} has read no source named 'nosuch'"
    )


def test_a_known_source_without_quarantined_values_lists_an_empty_table(demo_warehouse):
    code, output = run(
        "quarantine",
        "--source",
        "graphcore-performance-results",
        "--warehouse",
        str(demo_warehouse),
    )
    assert code == 0 and "(0 rows)" in output


def test_an_as_of_past_any_snapshot_id_says_so(demo_warehouse):
    code, output = run(
        "sql", "SELECT 1", "--as-of", "99999999999999999999", "--warehouse", str(demo_warehouse)
    )
    assert code == 2
    assert output.startswith(
        f"error: --as-of 99999999999999999999: the warehouse at "
        f"{demo_warehouse} has no snapshot then"
    )
    assert "INT128" not in output and "cast" not in output


# --- URLs, settings, errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "host"),
    [("http://[::1]:9/results", "::1"), ("https://[::FFFF:127.0.0.1]/x", "::ffff:127.0.0.1")],
)
def test_an_ipv6_literal_url_is_refused_for_its_address(tmp_path, url, host):
    """Before, the host was read as "[" and the URL refused as not on its own allowed list."""
    assert source_for_url(url, pipeline.registry_for(tmp_path)).allowed_hosts == (host,)
    summary = pipeline.ingest([url], tmp_path / "warehouse")
    (failure,) = summary.failures
    assert "blocked_address" in failure.message and "loopback address" in failure.message


def test_a_task_runner_that_cannot_be_honoured_stops_the_ingest(tmp_path, monkeypatch):
    monkeypatch.setenv("PERFLEDGER_TASK_RUNNER", "bogus")
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    code, output = run("ingest", str(JULY_2023), "--warehouse", str(tmp_path / "warehouse"))
    assert code == 2
    assert (
        "error: PERFLEDGER_TASK_RUNNER must be 'threads', 'dask' or a Dask scheduler "
        "address such as tcp://scheduler:8786, not 'bogus'"
    ) in output
    assert not (tmp_path / "warehouse").exists()


def test_a_failed_catalog_statement_is_reported_by_its_cause():
    """DuckDB's PostgreSQL client puts the statement, verbatim and over many lines, before
    the cause: the one line shown is the cause, not the statement's first line."""
    error = duckdb.IOException(
        'Failed to execute query "\nSELECT snapshot_id, schema_version\nFROM '
        '"lake"."ducklake_snapshot"\nWHERE snapshot_id = 7": server closed the connection '
        "unexpectedly\n\tThis probably means the server terminated abnormally"
    )
    assert database_failure(error) == (
        "Failed to execute query: server closed the connection unexpectedly"
    )


# --- waiting and progress --------------------------------------------------------------------


def test_an_ingest_waiting_for_the_writer_lock_says_so(tmp_path):
    warehouse = tmp_path / "warehouse"
    holder = command(
        "ingest",
        str(JULY_2023),
        "--warehouse",
        str(warehouse),
        "--quiet",
        env={budget.PAUSE_ENV: "collected", budget.PAUSE_SECONDS_ENV: "8"},
    )
    wait_for_line(holder, "paused at collected")
    waiting = command("ingest", str(JULY_2023), "--warehouse", str(warehouse), "--wait", "120")
    seen = wait_for_line(waiting, "waiting up to 120 s")
    assert f"another ingest is writing to {warehouse} (pid {holder.pid})" in seen
    assert holder.wait(120) == 0
    out, _ = waiting.communicate(timeout=120)
    assert waiting.returncode == 0 and "1 unchanged" in out


def terminal_run(*args: str) -> tuple[int, str]:
    """`perfledger ARGS` with stdout and stderr on a pseudo-terminal, as a person runs it."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "perfledger", *args],
        cwd=PROJECT_ROOT,
        env={
            **os.environ,
            "PYTHONPATH": str(PROJECT_ROOT),
            "TERM": "xterm-256color",
            "COLUMNS": "120",
        },
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError as error:  # the terminal closed with the process
            if error.errno != errno.EIO:
                raise
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return process.wait(60), output.decode(errors="replace")


def test_a_long_ingest_on_a_terminal_shows_a_progress_bar_and_a_pipe_gets_lines(tmp_path):
    pages = tmp_path / "pages"
    pages.mkdir()
    for number in range(30):
        (pages / f"page-{number:02d}.txt").write_bytes(
            JULY_2023.read_bytes() + f"\n{number}\n".encode()
        )
    code, shown = terminal_run("ingest", str(pages), "--warehouse", str(tmp_path / "on-tty"))
    assert code == 0, shown
    assert "reading documents" in shown and "\x1b[" in shown  # drawn and redrawn in place
    assert "/30" in shown  # documents read out of all
    assert "values added:        10740" in shown
    assert "page-07.txt: new" not in shown  # no line per document on a terminal

    piped = subprocess.run(
        [
            sys.executable,
            "-m",
            "perfledger",
            "ingest",
            str(pages),
            "--warehouse",
            str(tmp_path / "piped"),
        ],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert piped.returncode == 0, piped.stderr
    assert "\x1b[" not in piped.stderr + piped.stdout and "reading documents" not in piped.stderr
    assert f"  {pages / 'page-07.txt'}: new - 7 tables, 358 values" in piped.stderr
