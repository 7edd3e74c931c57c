"""End to end through the warehouse: demo ingest, re-runs, failures, read-only SQL, locking."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from perfledger.flows import pipeline
from perfledger.sources import archive
from perfledger.warehouse import lake, query
from tests.conftest import JULY_2023


def sql(warehouse, text, as_of=None):
    return query.run_sql(warehouse, text, as_of)[1]


def test_demo_ingest_answers_the_resnet_question(demo_warehouse):
    rows = sql(
        demo_warehouse,
        "SELECT platform, sdk_version, framework, value, unit FROM measurements "
        "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
        "AND workload = 'training' AND metric = 'throughput' ORDER BY value",
    )
    assert rows == [
        ("Bow Pod16", "SDK 3.3", "PyTorch", 38036.0, "items/s"),
        ("Bow Pod16", "SDK 3.0", "TensorFlow1", 44059.0, "items/s"),
    ]


def test_demo_ingest_keeps_lineage_for_every_value(demo_warehouse):
    (row,) = sql(
        demo_warehouse,
        "SELECT m.source_url, m.document_sha256, m.table_title, m.row_number, m.column_name, "
        "m.raw_value, m.parser_version, d.captured_at::DATE, d.archive_path "
        "FROM measurements m JOIN document_versions d USING (document_sha256) "
        "WHERE m.metric = 'time_to_train' AND m.system = 'Bow Pod16' "
        "AND m.model_canonical = 'ResNet-50 v1.5'",
    )
    url, sha256, title, row_number, column, raw, parser, captured, path = row
    assert url == "https://www.graphcore.ai/performance-results"
    assert sha256 == archive.sha256_of(JULY_2023.read_bytes())
    assert (title, row_number, column, raw) == (
        "MLPerf v2.0 Training Performance",
        1,
        "Time to Train (mins)",
        "19.64",
    )
    assert parser == "text_capture/1"
    assert str(captured) == "2023-07-31"
    assert Path(path) == archive.stored_path(lake.archive_dir(demo_warehouse), sha256)
    assert archive.sha256_of(archive.read(lake.archive_dir(demo_warehouse), sha256)) == sha256


def test_demo_history_is_two_snapshots_of_the_results_page(demo_warehouse):
    columns, rows = query.snapshots(demo_warehouse)
    runs = [dict(zip(columns, row, strict=True)) for row in rows if row[3]]
    assert [r["values_added"] for r in runs] == [0, 358]
    assert [r["documents_read"] for r in runs] == [4, 1]
    (versions,) = sql(
        demo_warehouse,
        "SELECT list(last_updated_date::VARCHAR ORDER BY captured_at) FROM document_versions "
        "WHERE source_id = 'graphcore-performance-results'",
    )
    assert versions == (["2022-01-25", "2023-07-04"],)
    first, second = runs[0]["snapshot_id"], runs[1]["snapshot_id"]
    assert sql(demo_warehouse, "SELECT count(*) FROM measurements", as_of=str(first)) == [(0,)]
    assert sql(demo_warehouse, "SELECT count(*) FROM measurements", as_of=str(second)) == [(358,)]


def test_ingesting_twice_changes_nothing(warehouse):
    first = pipeline.ingest([], warehouse)
    second = pipeline.ingest([], warehouse)
    assert first.total("values_added") == 358
    assert second.count_status("unchanged") == 5
    assert [second.total(n) for n in ("values_added", "values_changed", "values_removed")] == [
        0,
        0,
        0,
    ]
    assert sql(warehouse, "SELECT count(*), count(DISTINCT measurement_key) FROM measurements") == [
        (358, 358)
    ]
    assert sql(warehouse, "SELECT count(*) FROM document_versions") == [(5,)]
    # header and data cells of the seven tables: 9x3 + 9x65 + 10x38 + 10x12 + 9x63 + 9x2 + 10x72
    assert sql(warehouse, "SELECT count(*) FROM lake.main.cells") == [(2417,)]


def test_an_unreadable_file_is_named_and_the_others_still_load(warehouse, tmp_path):
    folder = tmp_path / "captures"
    folder.mkdir()
    shutil.copy(JULY_2023, folder / "results.txt")
    (folder / "broken.html").write_bytes(b"\x00\x01\x02PNG\x00binary")
    (folder / "empty.txt").write_bytes(b"")
    summary = pipeline.ingest([str(folder)], warehouse)
    failures = {os.path.basename(d.message.split(":")[0]): d.message for d in summary.failures}
    assert set(failures) == {"broken.html", "empty.txt"}
    assert "binary" in failures["broken.html"]
    assert "empty" in failures["empty.txt"]
    assert summary.total("values_added") == 358
    errors = sql(warehouse, "SELECT location, stage FROM lake.main.document_errors ORDER BY 1")
    assert [(os.path.basename(loc), stage) for loc, stage in errors] == [
        ("broken.html", "parse"),
        ("empty.txt", "parse"),
    ]


def test_a_missing_path_is_refused_before_anything_is_read_or_created(warehouse, tmp_path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(ValueError, match=f"^no such file or folder: {missing}; nothing was read$"):
        pipeline.ingest([str(JULY_2023), str(missing)], warehouse)
    assert not warehouse.exists()


def test_sql_only_reads(demo_warehouse):
    with pytest.raises(query.ReadOnlyViolation, match="DELETE"):
        query.run_sql(demo_warehouse, "DELETE FROM measurements")
    with pytest.raises(query.ReadOnlyViolation, match="CREATE"):
        query.run_sql(demo_warehouse, "SELECT 1; CREATE TABLE x AS SELECT 1")
    assert sql(demo_warehouse, "SELECT count(*) FROM measurements") == [(358,)]


def test_a_second_writer_stops_with_a_clear_message(warehouse):
    with (
        lake.writer_lock(warehouse),
        pytest.raises(lake.WarehouseError, match="another ingest is writing"),
    ):
        pipeline.ingest([], warehouse)


def test_a_run_that_fails_part_way_leaves_no_partial_snapshot(warehouse, monkeypatch):
    pipeline.ingest([str(JULY_2023)], warehouse, source_name="results")
    before = query.snapshots(warehouse)[1]
    edited = warehouse.parent / "edited.txt"
    edited.write_text(
        JULY_2023.read_text(encoding="utf-8").replace("44,059", "45,100"), encoding="utf-8"
    )
    from perfledger.warehouse import load

    def explode(connection, run_id, applied):
        raise RuntimeError("disk full")

    monkeypatch.setattr(load, "_record_revisions", explode)
    with pytest.raises(RuntimeError, match="disk full"):
        pipeline.ingest(
            [str(edited)], warehouse, source_name="results", captured_at="2099-01-01T00:00:00Z"
        )
    assert query.snapshots(warehouse)[1] == before
    assert sql(warehouse, "SELECT count(*) FROM measurements WHERE raw_value = '45,100'") == [(0,)]
    monkeypatch.undo()
    summary = pipeline.ingest(
        [str(edited)], warehouse, source_name="results", captured_at="2099-01-01T00:00:00Z"
    )
    assert summary.total("values_changed") == 1
    assert sql(warehouse, "SELECT count(*) FROM measurements WHERE raw_value = '45,100'") == [(1,)]


def test_a_new_version_without_values_keeps_the_stored_ones(warehouse):
    """An error page published in place of a results page: nothing is withdrawn."""
    first = pipeline.ingest(
        [str(JULY_2023)], warehouse, source_name="results", captured_at="2023-07-31T00:00:00Z"
    )
    assert first.total("values_added") == 358
    error_page = warehouse.parent / "unavailable.html"
    error_page.write_text(
        "<html><body><h1>Service unavailable</h1><p>Please try again later.</p></body></html>",
        encoding="utf-8",
    )
    second = pipeline.ingest(
        [str(error_page)], warehouse, source_name="results", captured_at="2023-08-31T00:00:00Z"
    )
    (document,) = second.runs[0].documents
    assert document.status == "failed"
    assert document.message == (
        f"{error_page}: no value found where the stored version has 358; stored values kept"
    )
    assert sql(warehouse, "SELECT count(*) FROM measurements WHERE source_id = 'results'") == [
        (358,)
    ]
    assert sql(
        warehouse,
        "SELECT raw_value, value FROM measurements WHERE source_id = 'results' "
        "AND table_title = 'MLPerf v2.0 Training Performance' "
        "AND row_number = 1 AND column_name = 'Time to Train (mins)'",
    ) == [("19.64", 1178.4)]
