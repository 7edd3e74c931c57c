"""The per-document budget: size refused before parsing, time and memory bounded while reading."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows import budget, pipeline, readers
from perfledger.flows.budget import Budget, BudgetExceeded, run_within_budget
from perfledger.flows.cli import main
from perfledger.sources import archive
from perfledger.warehouse import lake
from tests.reliability import jobs
from tests.reliability.hostile import (
    GOOD_PAGE,
    GOOD_VALUES,
    HTML_PAGE,
    PROJECT_ROOT,
    big_page,
    html_page,
    html_table,
    slow_markdown,
)

WORKER = Budget(timeout_s=1.0, isolate_above_bytes=0, memory_mb=4096)
IN_PROCESS = Budget(timeout_s=1.0, isolate_above_bytes=10**9)


def write_documents(folder: Path, documents: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(GOOD_PAGE, folder / "good-page.txt")
    for name, data in documents.items():
        (folder / name).write_bytes(data)
    return folder


def failure_of(summary: pipeline.IngestSummary) -> str:
    (failure,) = summary.failures
    return failure.message


def test_a_document_over_the_size_budget_is_archived_unread(tmp_path, monkeypatch):
    monkeypatch.setenv(budget.MAX_BYTES_ENV, "100_000")
    big = html_page(html_table([("ResNet-50 v1.5", "Bow Pod16", "1,000")]) + "<p>x</p>" * 20_000)
    folder = write_documents(tmp_path / "documents", {"big.html": big.encode()})
    summary = pipeline.ingest([str(folder)], tmp_path / "warehouse")
    assert summary.total("values_added") == GOOD_VALUES
    assert f"over the 100,000-byte budget ({budget.MAX_BYTES_ENV})" in failure_of(summary)
    stored = archive.read(lake.archive_dir(tmp_path / "warehouse"), archive.sha256_of(big.encode()))
    assert stored == big.encode()


@pytest.mark.parametrize("isolate_above", ["1_000_000", "1"], ids=["in-process", "worker"])
def test_a_document_out_of_time_is_stopped_and_the_run_goes_on(
    tmp_path, monkeypatch, isolate_above
):
    monkeypatch.setenv(budget.TIMEOUT_ENV, "0.5")
    monkeypatch.setenv(budget.ISOLATE_ENV, isolate_above)
    slow = slow_markdown(4_000)  # about 5 s of work
    folder = write_documents(tmp_path / "documents", {"slow.md": slow})
    os.utime(folder / "good-page.txt", (time.time() + 60,) * 2)  # read after the slow page
    started = time.monotonic()
    summary = pipeline.ingest([str(folder)], tmp_path / "warehouse")
    assert time.monotonic() - started < 30
    assert f"longer than its 0.5 s budget ({budget.TIMEOUT_ENV})" in failure_of(summary)
    assert summary.total("values_added") == GOOD_VALUES


def on_a_task_thread(threads: set[str]):
    """A prepare stage as Prefect's thread task runner runs it: pipeline.prepare on a worker
    thread (flows/ingest.py, prepare_task), where no SIGALRM timer can be armed."""

    def prepare_stage(document, known, current, warehouse):
        def prepare():
            threads.add(threading.current_thread().name)
            return pipeline.prepare(document, known, current, warehouse)

        with ThreadPoolExecutor(1, thread_name_prefix="task-runner") as pool:
            return pool.submit(prepare).result()

    return prepare_stage


def test_budgets_hold_for_documents_read_on_a_task_thread(tmp_path, monkeypatch):
    """Under Prefect's thread task runner a slow page still fails at its time budget and a
    big one at its size budget; the run goes on. On the main thread, with these settings,
    the slow page would be read in this process under a timer."""
    # Long enough for the good page on a loaded machine; the slow one takes some 4 s.
    monkeypatch.setenv(budget.TIMEOUT_ENV, "1.5")
    monkeypatch.setenv(budget.ISOLATE_ENV, "1_000_000")
    monkeypatch.setenv(budget.MAX_BYTES_ENV, "1_000_000")
    big = html_page(html_table([("ResNet-50 v1.5", "Bow Pod16", "1,000")]) + "<p>x</p>" * 150_000)
    folder = write_documents(
        tmp_path / "documents", {"slow.md": slow_markdown(4_000), "big.html": big.encode()}
    )
    os.utime(folder / "good-page.txt", (time.time() + 60,) * 2)  # read after the others
    threads: set[str] = set()
    started = time.monotonic()
    summary = pipeline.ingest(
        [str(folder)], tmp_path / "warehouse", prepare_stage=on_a_task_thread(threads)
    )
    assert time.monotonic() - started < 30
    assert threads and all(name.startswith("task-runner") for name in threads), threads
    failures = {Path(f.message.split(": ", 1)[0]).name: f.message for f in summary.failures}
    assert sorted(failures) == ["big.html", "slow.md"]
    assert f"longer than its 1.5 s budget ({budget.TIMEOUT_ENV})" in failures["slow.md"]
    assert f"over the 1,000,000-byte budget ({budget.MAX_BYTES_ENV})" in failures["big.html"]
    assert summary.total("values_added") == GOOD_VALUES


def ingest_on_a_task_thread(folder: str, warehouse: str, answers) -> None:
    """In a daemonic process (a Dask worker's, say): ingest with prepare on a task thread,
    and send back the failures and how long it took."""
    started = time.monotonic()
    summary = pipeline.ingest([folder], Path(warehouse), prepare_stage=on_a_task_thread(set()))
    answers.put((time.monotonic() - started, [failure.message for failure in summary.failures]))


def test_the_time_budget_holds_on_a_task_thread_of_a_daemonic_process(tmp_path, monkeypatch):
    monkeypatch.setenv(budget.TIMEOUT_ENV, "1.5")  # see the test above
    folder = write_documents(tmp_path / "documents", {"slow.md": slow_markdown(4_000)})
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    process = context.Process(
        target=ingest_on_a_task_thread,
        daemon=True,
        args=(str(folder), str(tmp_path / "warehouse"), answers),
    )
    process.start()
    try:
        seconds, failures = answers.get(timeout=300)
    finally:
        process.join(30)
    assert [Path(message.split(": ", 1)[0]).name for message in failures] == ["slow.md"]
    assert f"longer than its 1.5 s budget ({budget.TIMEOUT_ENV})" in failures[0]
    assert seconds < 30


def recorded(function, calls: list[str], name: str):
    """`function`, noting `name` in `calls` each time it is called."""

    def called(*args):
        calls.append(name)
        return function(*args)

    return called


@pytest.mark.parametrize("path", ["worker", "readers"])
def test_a_document_over_the_memory_budget_fails_alone(tmp_path, monkeypatch, path):
    """A document whose reading needs more memory than PERFLEDGER_DOCUMENT_MEMORY_MB fails
    with that reason and the others load, whether it is read in the one worker of a small
    run (`worker`) or by the readers of a large run (flows/readers.py, `readers`). A
    worker's imports hold about 175 MB; reading this 20 MB table, about 850 MB."""
    monkeypatch.setenv(budget.MEMORY_ENV, "450")
    monkeypatch.setenv(budget.ISOLATE_ENV, "1")  # every document is read in a worker
    if path == "readers":
        monkeypatch.setenv(readers.READERS_ENV, "2")
        monkeypatch.setattr(readers, "PARALLEL_FROM", 2)
    paths: list[str] = []
    monkeypatch.setattr(readers, "_read_here", recorded(readers._read_here, paths, "worker"))
    monkeypatch.setattr(
        readers, "_read_in_workers", recorded(readers._read_in_workers, paths, "readers")
    )
    folder = write_documents(
        tmp_path / "documents", {"table.html": big_page(0, table_rows=300_000)}
    )
    shutil.copy(HTML_PAGE, folder / "results.html")
    summary = pipeline.ingest([str(folder)], tmp_path / "warehouse")
    budget.stop_workers()
    assert [failure.message for failure in summary.failures] == [
        f"{folder / 'table.html'}: reading the document needed more than its 450 MB memory "
        f"budget ({budget.MEMORY_ENV}) and was stopped; it is archived but was not parsed"
    ]
    assert summary.total("values_added") == 2 * GOOD_VALUES
    assert paths == [path]


def test_a_budget_set_wrong_stops_the_run_with_a_clear_message(tmp_path):
    result = CliRunner().invoke(
        main,
        ["ingest", str(GOOD_PAGE), "--warehouse", str(tmp_path / "warehouse")],
        env={budget.TIMEOUT_ENV: "a minute"},
    )
    assert result.exit_code == 2
    assert "PERFLEDGER_DOCUMENT_TIMEOUT_S must be a number, not 'a minute'" in result.output


def test_the_timer_interrupts_a_backtracking_regular_expression():
    started = time.monotonic()
    with pytest.raises(BudgetExceeded, match=budget.TIMEOUT_ENV):
        run_within_budget(jobs.backtrack, 40_000, size=1, budget=IN_PROCESS)
    assert time.monotonic() - started < 5


def test_the_worker_is_killed_at_the_deadline_and_replaced():
    first = run_within_budget(jobs.process_id, size=1, budget=WORKER)
    with pytest.raises(BudgetExceeded, match=budget.TIMEOUT_ENV):
        run_within_budget(jobs.backtrack, 40_000, size=1, budget=WORKER)
    assert run_within_budget(jobs.process_id, size=1, budget=WORKER) != first


def test_the_worker_is_stopped_past_its_memory_budget():
    tight = Budget(timeout_s=30, isolate_above_bytes=0, memory_mb=800)
    with pytest.raises(BudgetExceeded, match=budget.MEMORY_ENV):
        run_within_budget(jobs.hold_memory, 1_500, 20, size=1, budget=tight)
    assert run_within_budget(jobs.hold_memory, 10, 0, size=1, budget=tight) == 10 * 2**20


def test_a_worker_that_dies_fails_the_document_not_the_run():
    with pytest.raises(BudgetExceeded, match="exited with status 3"):
        run_within_budget(jobs.die, size=1, budget=WORKER)
    with pytest.raises(ValueError, match="a parser bug"):  # errors come back as they are
        run_within_budget(jobs.fail, "a parser bug", size=1, budget=WORKER)


def test_a_script_without_a_main_guard_runs_once(tmp_path):
    """'spawn' re-runs an unguarded main script in the worker unless it is kept from it."""
    script = tmp_path / "script.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(PROJECT_ROOT)!r})\n"
        "print('script body', flush=True)\n"
        "from flows.budget import Budget, run_within_budget\n"
        "from tests.reliability import jobs\n"
        "print(run_within_budget(jobs.process_id, size=1, budget=Budget(isolate_above_bytes=0)))\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("script body") == 1


def measure(
    tmp_path: Path, page: bytes, env: dict | None = None, others: tuple[Path, ...] = ()
) -> dict:
    """Ingest `page` (and `others`, read after it) in a process of its own: the outcome and
    the peak memory of the run and of its document worker."""
    (tmp_path / "page.html").write_bytes(page)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.reliability.measure",
            str(tmp_path / "warehouse"),
            str(tmp_path / "page.html"),
            *map(str, others),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=PROJECT_ROOT,
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_a_50_mb_page_is_refused_unread_without_a_memory_blow_up(tmp_path):
    outcome = measure(tmp_path, big_page(50 * 2**20))
    assert outcome["statuses"] == ["failed"]
    assert "over the 50,000,000-byte budget" in outcome["failures"][0]
    assert outcome["peak_mb"] < 1_000
    assert outcome["worker_peak_mb"] == 0  # nothing was parsed


@pytest.mark.parametrize("spans", [False, True], ids=["plain", "with-spans"])
def test_only_a_page_that_may_span_cells_pays_for_a_worker(tmp_path, spans):
    """A 300 KB page over the isolation size is read in process unless a cell may span rows
    or columns, which can make its memory grow with its tables' area."""
    rows = 4_000
    page = big_page(0, table_rows=rows)
    if spans:
        page = page.replace(b"<td>Bow Pod16</td>", b'<td colspan="1">Bow Pod16</td>', 1)
    assert 250_000 < len(page) < 16 * 250_000
    outcome = measure(tmp_path, page)
    assert (outcome["statuses"], outcome["values_added"]) == (["new"], rows)
    assert (outcome["worker_peak_mb"] > 0) == spans


def test_a_page_just_under_50_mb_parses_within_the_budget(tmp_path):
    outcome = measure(tmp_path, big_page(49_900_000))
    assert (outcome["statuses"], outcome["values_added"]) == (["new"], 3)
    assert outcome["seconds"] < 30
    assert outcome["peak_mb"] < 1_000 and outcome["worker_peak_mb"] < 1_500


def test_a_46_mb_table_over_its_time_budget_fails_alone(tmp_path):
    """700,000 rows of one table, the heaviest page the size budget lets through: reading it
    takes about 10 s of CPU here (35 s to load), far past a 2 s budget, so the one right
    outcome is that its worker is stopped at the deadline and it fails with the time reason,
    while the page read with it loads. (It loading instead would mean the deadline did not
    hold.) Its memory stays within the budget's while it is read."""
    outcome = measure(
        tmp_path, big_page(0, table_rows=700_000), {budget.TIMEOUT_ENV: "2"}, others=(GOOD_PAGE,)
    )
    assert outcome["statuses"] == ["failed", "new"]
    assert outcome["values_added"] == GOOD_VALUES
    (failure,) = outcome["failures"]
    assert failure.endswith(
        "page.html: reading the document took longer than its 2 s budget "
        f"({budget.TIMEOUT_ENV}) and was stopped; it is archived but was "
        "not parsed"
    ), failure
    assert outcome["worker_peak_mb"] > 0  # it was read in a worker, which was stopped
    assert outcome["worker_peak_mb"] <= Budget().memory_mb + 512  # read every 0.1 s
    assert outcome["peak_mb"] < 4_000
