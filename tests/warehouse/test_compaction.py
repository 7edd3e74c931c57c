"""Merging small data files: fewer files, the same answers at every snapshot."""

from __future__ import annotations

import os
import shutil
import time

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.warehouse import compaction, lake, query
from tests.conftest import JULY_2023

SOURCE = "graphcore-performance-results"
RESNET_POD16_TF1 = (
    "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
    "AND system = 'Bow Pod16' AND framework = 'TensorFlow1' AND metric = 'throughput'"
)


def _live_files(warehouse, table: str) -> int:
    connection = lake.connect(warehouse, read_only=True, views=False)
    try:
        return connection.execute(
            f"SELECT count(*) FROM ducklake_list_files('lake', '{table}')"
        ).fetchone()[0]
    finally:
        connection.close()


def _compaction_snapshots(warehouse) -> list[int]:
    _columns, rows = query.snapshots(warehouse)
    return [row[0] for row in rows if (row[2] or "").startswith("compaction")]


def _versions(warehouse, tmp_path, count: int, monkeypatch, every: int) -> list[int]:
    """`count` runs of the July 2023 page, its ResNet-50 / Bow Pod16 / TF1 figure raised by
    one in each; the snapshot of each run."""
    monkeypatch.setenv(compaction.EVERY_ENV, str(every))
    original = JULY_2023.read_text(encoding="utf-8")
    assert original.count("ImageNet2012\n3,520\n16.16\n44,059\n") == 1
    snapshots = []
    for index in range(count):
        page = tmp_path / f"v{index}.txt"
        page.write_text(
            original.replace(
                "ImageNet2012\n3,520\n16.16\n44,059\n",
                f"ImageNet2012\n3,520\n16.16\n44,{59 + index:03d}\n",
            ),
            encoding="utf-8",
        )
        summary = pipeline.ingest(
            [str(page)],
            warehouse,
            source_name=SOURCE,
            captured_at=f"2023-08-{index + 1:02d}T00:00:00Z",
        )
        snapshots.append(summary.runs[0].snapshot_id)
    return snapshots


def test_compact_merges_files_and_every_snapshot_answers_as_before(
    warehouse, tmp_path, monkeypatch
):
    snapshots = _versions(warehouse, tmp_path, 4, monkeypatch, every=0)
    assert _compaction_snapshots(warehouse) == []
    before = {s: query.run_sql(warehouse, RESNET_POD16_TF1, str(s))[1] for s in snapshots}
    assert before == {
        snapshots[0]: [(44059.0,)],
        snapshots[1]: [(44060.0,)],
        snapshots[2]: [(44061.0,)],
        snapshots[3]: [(44062.0,)],
    }
    diff_before = query.diff(warehouse, snapshots[0], snapshots[3])[1]
    history = (
        "SELECT version, change, valid_from_snapshot, valid_to_snapshot, ended_by, value "
        "FROM measurement_history WHERE model_canonical = 'ResNet-50 v1.5' "
        "AND system = 'Bow Pod16' AND framework = 'TensorFlow1' ORDER BY version"
    )
    history_before = query.run_sql(warehouse, history)[1]
    assert [row[-1] for row in history_before] == [44059.0, 44060.0, 44061.0, 44062.0]
    runs_files = _live_files(warehouse, "run_documents")
    assert runs_files == 4

    result = CliRunner().invoke(main, ["compact", "--warehouse", str(warehouse)])

    assert result.exit_code == 0, result.output
    assert result.output.startswith("merged ")
    assert _live_files(warehouse, "run_documents") == 1
    assert {s: query.run_sql(warehouse, RESNET_POD16_TF1, str(s))[1] for s in snapshots} == before
    assert query.run_sql(warehouse, RESNET_POD16_TF1)[1] == [(44062.0,)]
    assert query.diff(warehouse, snapshots[0], snapshots[3])[1] == diff_before
    assert query.run_sql(warehouse, history)[1] == history_before  # the change feed too
    assert len(_compaction_snapshots(warehouse)) == 1


def test_ingest_merges_once_every_n_snapshots(warehouse, tmp_path, monkeypatch):
    snapshots = _versions(warehouse, tmp_path, 4, monkeypatch, every=2)
    merges = _compaction_snapshots(warehouse)
    due = [s for s in snapshots if s % 2 == 0]
    # Each merge is a snapshot of its own, right after the run that was due.
    assert merges == [s + 1 for s in due] and merges
    assert _live_files(warehouse, "run_documents") < len(snapshots)
    assert query.run_sql(warehouse, RESNET_POD16_TF1, str(snapshots[0]))[1] == [(44059.0,)]
    assert query.run_sql(warehouse, RESNET_POD16_TF1)[1] == [(44062.0,)]


def test_a_merge_every_value_that_is_not_a_whole_number_stops_the_ingest(warehouse, monkeypatch):
    monkeypatch.setenv(compaction.EVERY_ENV, "weekly")
    with pytest.raises(
        ValueError, match="PERFLEDGER_COMPACT_EVERY must be a whole number of snapshots"
    ):
        pipeline.ingest([str(JULY_2023)], warehouse)
    assert not lake.catalog_path(warehouse).exists()


def test_compact_without_a_warehouse_says_so(tmp_path):
    result = CliRunner().invoke(main, ["compact", "--warehouse", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert "no warehouse at" in result.output
    assert not (tmp_path / "none").exists()


def test_compact_deletes_files_no_commit_refers_to_once_a_day_old(warehouse, tmp_path, monkeypatch):
    _versions(warehouse, tmp_path, 1, monkeypatch, every=0)
    cells = lake.data_path(warehouse) / "main" / "cells"
    (stored,) = cells.glob("*.parquet")
    # What a run killed before its commit leaves: a data file the catalog never heard of.
    orphan_old, orphan_new = cells / "ducklake-killed-run.parquet", cells / "ducklake-now.parquet"
    shutil.copyfile(stored, orphan_old)
    shutil.copyfile(stored, orphan_new)
    two_days_ago = time.time() - 2 * 86400
    os.utime(orphan_old, (two_days_ago, two_days_ago))

    result = CliRunner().invoke(main, ["compact", "--warehouse", str(warehouse)])

    assert result.exit_code == 0, result.output
    assert "deleted 1 data files no snapshot needs" in result.output
    assert not orphan_old.exists()
    assert orphan_new.exists() and stored.exists()  # a writer's file may be this young
    assert query.run_sql(warehouse, RESNET_POD16_TF1)[1] == [(44059.0,)]


def test_doctor_counts_the_live_data_files_and_names_a_bad_merge_setting(
    warehouse, tmp_path, monkeypatch
):
    _versions(warehouse, tmp_path, 2, monkeypatch, every=0)
    tables = (
        "cells",
        "documents",
        "document_revisions",
        "measurement_values",
        "runs",
        "run_documents",
        "schema_migrations",
    )
    at_least = sum(_live_files(warehouse, table) for table in tables)

    result = CliRunner().invoke(main, ["doctor", "--warehouse", str(warehouse)])

    assert result.exit_code == 0, result.output
    reported = int(result.output.split("data files: ")[1].split()[0])
    assert reported >= at_least >= 2 * 5  # each run wrote a file into five of them at least
    assert "ingest never merges small ones: PERFLEDGER_COMPACT_EVERY=0" in result.output
    monkeypatch.setenv(compaction.EVERY_ENV, "-3")
    result = CliRunner().invoke(main, ["doctor", "--warehouse", str(warehouse)])
    assert result.exit_code == 1
    assert (
        "PROBLEM: PERFLEDGER_COMPACT_EVERY must be 0 or more: a whole number of snapshots"
        in result.output
    )
