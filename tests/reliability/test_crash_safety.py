"""A run killed at any point leaves the warehouse whole; concurrent runs and readers are safe."""

from __future__ import annotations

import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from perfledger.flows import budget, pipeline
from perfledger.sources import archive
from perfledger.warehouse import compaction, lake, query
from tests.reliability.hostile import (
    GOOD_PAGE,
    GOOD_VALUES,
    HTML_PAGE,
    MARKDOWN_PAGE,
    PROJECT_ROOT,
)

NEW_VALUES = 2 * GOOD_VALUES  # the HTML and Markdown renderings of the results page


@pytest.fixture
def warehouse(tmp_path) -> Path:
    """A warehouse holding one run: the results page, 358 values."""
    folder = tmp_path / "warehouse"
    summary = pipeline.ingest([str(GOOD_PAGE)], folder)
    assert summary.total("values_added") == GOOD_VALUES
    return folder


@pytest.fixture
def new_pages(tmp_path) -> Path:
    """Two new sources for the run that gets killed."""
    folder = tmp_path / "new-pages"
    folder.mkdir()
    shutil.copy(HTML_PAGE, folder / "page-html.html")
    shutil.copy(MARKDOWN_PAGE, folder / "page-markdown.md")
    return folder


def start_ingest(
    warehouse: Path, *targets: str, env: dict | None = None, options: tuple[str, ...] = ()
) -> subprocess.Popen:
    """`perfledger ingest` in a process group of its own, so a kill reaches all of it."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "perfledger",
            "ingest",
            *targets,
            "--warehouse",
            str(warehouse),
            "--quiet",
            *options,
        ],
        cwd=PROJECT_ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for_line(process: subprocess.Popen, text: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.5)
        line = process.stderr.readline() if ready else ""
        if text in line:
            return
        if not line and process.poll() is not None:
            break
    kill(process)
    raise AssertionError(f"never printed {text!r}")


def kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


def values(warehouse: Path) -> list[tuple]:
    return query.run_sql(
        warehouse,
        "SELECT source_id, measurement_key, value, raw_value FROM measurements ORDER BY ALL",
    )[1]


def last_snapshot(warehouse: Path) -> int:
    return query.run_sql(warehouse, "SELECT max(snapshot_id) FROM lake.snapshots()")[1][0][0]


def catalog_is_sound(warehouse: Path) -> bool:
    with sqlite3.connect(lake.catalog_path(warehouse)) as catalog:
        return catalog.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def archived(warehouse: Path, path: Path) -> bool:
    data = path.read_bytes()
    try:
        return archive.read(lake.archive_dir(warehouse), archive.sha256_of(data)) == data
    except OSError:
        return False


@pytest.mark.parametrize("point", ["collected", "load"])
def test_a_run_killed_at_a_stage_leaves_the_last_snapshot_exactly(warehouse, new_pages, point):
    before, snapshot = values(warehouse), last_snapshot(warehouse)
    process = start_ingest(warehouse, str(new_pages), env={budget.PAUSE_ENV: point})
    wait_for_line(process, f"paused at {point}")
    kill(process)
    assert catalog_is_sound(warehouse)
    assert (values(warehouse), last_snapshot(warehouse)) == (before, snapshot)
    assert all(archived(warehouse, page) for page in new_pages.iterdir())
    after = pipeline.ingest([str(new_pages)], warehouse)  # the lock died with the process
    assert after.total("values_added") == NEW_VALUES
    assert len(values(warehouse)) == GOOD_VALUES + NEW_VALUES


@pytest.mark.slow
def test_a_run_killed_at_any_moment_is_all_or_nothing(warehouse, new_pages):
    """Kills land while the run stages and writes its transaction (found by watching for
    its staging folder), a little later each time; the warehouse shows either the last
    snapshot exactly or the whole new run, never part of it."""
    before, snapshot = values(warehouse), last_snapshot(warehouse)
    outcomes = []
    for delay in (0.0, 0.1, 0.3, 0.8):
        left_behind = set(warehouse.glob(".staging-*"))  # by the runs killed before
        process = start_ingest(warehouse, str(new_pages))
        while process.poll() is None and not set(warehouse.glob(".staging-*")) - left_behind:
            time.sleep(0.005)
        time.sleep(delay)
        kill(process)
        assert catalog_is_sound(warehouse)
        now = values(warehouse)
        if now == before:
            assert last_snapshot(warehouse) == snapshot
            outcomes.append("before")
            continue
        # the whole run committed: every value of both new pages, the old ones untouched
        assert [row for row in now if row[0] == before[0][0]] == before
        assert len(now) == GOOD_VALUES + NEW_VALUES
        assert last_snapshot(warehouse) == snapshot + 1
        outcomes.append("after")
        break
    assert "before" in outcomes
    final = pipeline.ingest([str(new_pages)], warehouse)
    assert len(values(warehouse)) == GOOD_VALUES + NEW_VALUES
    assert final.count_status("failed") == 0


def _orphaned_files(warehouse: Path) -> list[str]:
    """Data files on disk that no snapshot refers to, whatever their age."""
    connection = lake.connect(warehouse, views=False)
    try:
        return [
            row[0]
            for row in connection.execute(
                "SELECT * FROM ducklake_delete_orphaned_files('lake', dry_run => true, "
                "older_than => now() + INTERVAL 1 DAY)"
            ).fetchall()
        ]
    finally:
        connection.close()


def test_a_run_killed_while_it_merges_keeps_its_commit_and_every_snapshot(warehouse, new_pages):
    before, snapshot = values(warehouse), last_snapshot(warehouse)
    assert _orphaned_files(warehouse) == []
    process = start_ingest(
        warehouse, str(new_pages), env={budget.PAUSE_ENV: "merge", compaction.EVERY_ENV: "1"}
    )
    wait_for_line(process, "paused at merge")
    kill(process)

    assert catalog_is_sound(warehouse)
    # The run committed before its merge began: its values are there, the merge is not.
    assert last_snapshot(warehouse) == snapshot + 1
    now = values(warehouse)
    assert len(now) == GOOD_VALUES + NEW_VALUES
    assert [row for row in now if row[0] == before[0][0]] == before
    assert (
        query.run_sql(
            warehouse,
            "SELECT source_id, measurement_key, value, raw_value FROM measurements ORDER BY ALL",
            str(snapshot),
        )[1]
        == before
    )
    # The merge's files were written, never committed: the next merge leaves them a day,
    # then deletes them.
    orphans = _orphaned_files(warehouse)
    assert orphans and all(Path(name).exists() for name in orphans)
    connection = lake.connect(warehouse, views=False)
    try:
        compaction.compact(connection)
    finally:
        connection.close()
    assert all(Path(name).exists() for name in orphans)
    two_days_ago = time.time() - 2 * 86400
    for name in orphans:
        os.utime(name, (two_days_ago, two_days_ago))
    connection = lake.connect(warehouse, views=False)
    try:
        assert compaction.compact(connection).files_removed >= len(orphans)
    finally:
        connection.close()
    assert not any(Path(name).exists() for name in orphans)
    assert values(warehouse) == now
    assert (
        query.run_sql(
            warehouse,
            "SELECT source_id, measurement_key, value, raw_value FROM measurements ORDER BY ALL",
            str(snapshot),
        )[1]
        == before
    )


def test_two_ingests_at_once_one_writes_and_the_other_waits_or_stops(warehouse, new_pages):
    first = start_ingest(
        warehouse,
        str(new_pages),
        env={budget.PAUSE_ENV: "collected", budget.PAUSE_SECONDS_ENV: "6"},
    )
    wait_for_line(first, "paused at collected")
    refused = start_ingest(warehouse, str(GOOD_PAGE))
    waiting = start_ingest(warehouse, str(GOOD_PAGE), options=("--wait", "120"))
    _, refusal = refused.communicate(timeout=120)
    assert refused.returncode == 2
    assert f"another ingest is writing to {warehouse}" in refusal
    assert "--wait SECONDS" in refusal
    assert first.wait(120) == 0
    waited_out, waited_err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, waited_err
    assert "1 unchanged" in waited_out  # it ran after the first one, against its snapshot
    assert catalog_is_sound(warehouse)
    assert len(values(warehouse)) == GOOD_VALUES + NEW_VALUES


READING = (
    "SELECT (SELECT max(snapshot_id) FROM lake.snapshots()), "
    "(SELECT count(*) FROM lake.snapshots()), (SELECT count(*) FROM measurements), "
    "(SELECT count(DISTINCT source_id) FROM measurements), "
    "(SELECT count(*) FROM lake.main.runs), (SELECT count(*) FROM lake.main.documents)"
)


def reading(warehouse: Path) -> tuple:
    """(last snapshot, snapshots, values, sources, runs, documents), as one query sees them."""
    return query.run_sql(warehouse, READING)[1][0]


def test_a_reader_during_a_write_sees_one_snapshot_whole(warehouse, new_pages):
    """Readers that query all through a run see the last committed snapshot exactly, then,
    once the run commits, its snapshot exactly: never a run half written, never one snapshot
    and then an older one. The run waits with everything staged, right before its
    transaction, until both readers have read then."""
    before = reading(warehouse)
    last, snapshots, values_before, sources, runs, documents = before
    after = (
        last + 1,
        snapshots + 1,
        values_before + NEW_VALUES,
        sources + 2,
        runs + 1,
        documents + 2,
    )
    gate = warehouse.parent / "paused"
    gate.touch()
    writer = start_ingest(
        warehouse,
        str(new_pages),
        env={
            budget.PAUSE_ENV: "load",
            budget.PAUSE_WHILE_ENV: str(gate),
            budget.PAUSE_SECONDS_ENV: "120",
            compaction.EVERY_ENV: "0",
        },
    )
    seen: list[list[tuple]] = [[], []]
    errors: list[str] = []

    def read_while_writing(readings: list[tuple]) -> None:
        while True:
            running = writer.poll() is None
            try:
                readings.append(reading(warehouse))
            except Exception as error:  # any failure to read is a finding
                errors.append(str(error))
            if not running:  # this reading began once the writer had exited
                return

    readers = [threading.Thread(target=read_while_writing, args=(readings,)) for readings in seen]
    for reader in readers:
        reader.start()
    try:
        wait_for_line(writer, "paused at load")
        assert reading(warehouse) == before  # the run is staged whole, not yet committed
        read_so_far = [len(readings) for readings in seen]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and any(
            len(readings) <= count for readings, count in zip(seen, read_so_far, strict=True)
        ):
            time.sleep(0.05)  # each reader reads once more while the run is paused
    finally:
        gate.unlink(missing_ok=True)
        for reader in readers:
            reader.join(180)
    assert writer.wait(30) == 0, writer.stderr.read()
    assert errors == []
    assert reading(warehouse) == after
    for readings in seen:
        assert set(readings) <= {before, after}, readings
        assert readings[0] == before and readings[-1] == after, readings
        assert readings == sorted(readings), readings  # never back to the older snapshot
    for snapshot, _, count, *_ in {*seen[0], *seen[1]}:
        assert query.run_sql(warehouse, "SELECT count(*) FROM measurements", str(snapshot))[1] == [
            (count,)
        ]
    assert catalog_is_sound(warehouse)
