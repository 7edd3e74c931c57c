"""The per-document budget: size refused before parsing, time and memory bounded while reading."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from flows import budget, pipeline
from flows.budget import Budget, BudgetExceeded, run_within_budget
from flows.cli import main
from sources import archive
from tests.reliability import jobs
from tests.reliability.hostile import (
    GOOD_PAGE,
    GOOD_VALUES,
    PROJECT_ROOT,
    big_page,
    html_page,
    html_table,
    slow_markdown,
)
from warehouse import lake

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
    stored = archive.read(lake.archive_dir(tmp_path / "warehouse"),
                          archive.sha256_of(big.encode()))
    assert stored == big.encode()


@pytest.mark.parametrize("isolate_above", ["1_000_000", "1"], ids=["in-process", "worker"])
def test_a_document_out_of_time_is_stopped_and_the_run_goes_on(tmp_path, monkeypatch,
                                                               isolate_above):
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


def test_a_budget_set_wrong_stops_the_run_with_a_clear_message(tmp_path):
    result = CliRunner().invoke(main, ["ingest", str(GOOD_PAGE), "--warehouse",
                                       str(tmp_path / "warehouse")],
                                env={budget.TIMEOUT_ENV: "a minute"})
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
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("script body") == 1


def measure(tmp_path: Path, page: bytes, env: dict | None = None) -> dict:
    (tmp_path / "page.html").write_bytes(page)
    result = subprocess.run(
        [sys.executable, "-m", "tests.reliability.measure", str(tmp_path / "warehouse"),
         str(tmp_path / "page.html")],
        capture_output=True, text=True, timeout=600, cwd=PROJECT_ROOT,
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


def test_a_46_mb_table_loads_or_fails_alone_on_its_budget(tmp_path):
    """700,000 rows of one table, the heaviest page the size budget lets through (about
    35 s to load here), under a 10 s budget: it loads whole or fails with a reason."""
    outcome = measure(tmp_path, big_page(0, table_rows=700_000), {budget.TIMEOUT_ENV: "10"})
    if outcome["statuses"] == ["new"]:
        assert outcome["values_added"] == 700_000
    else:
        assert outcome["statuses"] == ["failed"]
        assert "longer than its 10 s budget" in outcome["failures"][0]
    assert outcome["worker_peak_mb"] <= Budget().memory_mb + 512  # read every 0.1 s
    assert outcome["peak_mb"] < 4_000
