"""Migrations bring a warehouse made by an older perfledger up to date, its data kept."""

from __future__ import annotations

import hashlib

import duckdb
import pytest

from perfledger.flows import pipeline
from perfledger.sources.capture_time import instant
from perfledger.warehouse import lake
from perfledger.warehouse.load import current_versions
from tests.conftest import JANUARY_2022, JULY_2023

SOURCE = "graphcore-performance-results"


def _sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _as_made_before_revisions(warehouse) -> None:
    """What a warehouse made before document_revisions existed holds: no revision rows."""
    connection = lake.connect(warehouse, views=False)
    try:
        connection.execute("DELETE FROM document_revisions")
        connection.execute(
            "DELETE FROM schema_migrations WHERE name = '007_revisions_backfill.sql'"
        )
    finally:
        connection.close()


def test_versions_applied_before_revisions_existed_get_their_revision_rows(warehouse):
    pipeline.ingest([], warehouse)
    _as_made_before_revisions(warehouse)

    connection = lake.connect(warehouse, views=False)  # applies 007 again
    try:
        rows = connection.execute(
            "SELECT document_sha256, previous_sha256, values_added, data_changed "
            "FROM document_revisions WHERE source_id = ? ORDER BY captured_at",
            [SOURCE],
        ).fetchall()
        current = current_versions(connection)
    finally:
        connection.close()

    january, july = _sha256(JANUARY_2022), _sha256(JULY_2023)
    # What changed between the versions was not recorded then: unknown, not zero.
    assert rows == [(january, None, None, None), (july, january, None, None)]
    assert current[SOURCE].document_sha256 == july
    assert current[SOURCE].captured_s == instant("2023-07-31T00:00:00Z")
    assert len(current) == 4  # every bundled source has its current version


def test_a_backfilled_warehouse_reads_nothing_again(warehouse):
    pipeline.ingest([], warehouse)
    _as_made_before_revisions(warehouse)

    again = pipeline.ingest([], warehouse)

    statuses = {(d.source_id, d.status) for run in again.all_runs for d in run.documents}
    assert statuses == {
        (SOURCE, "unchanged"),
        ("graphcore-blog-mk2-benchmarks", "unchanged"),
        ("graphcore-blog-mlperf-v2", "unchanged"),
        ("press-graphcore-mlperf-v1", "unchanged"),
    }
    assert again.total("values_added") == 0
    assert again.runs == []  # runs that changed nothing write no snapshot


def test_revisions_written_since_are_not_written_twice(warehouse):
    pipeline.ingest([], warehouse)
    connection = lake.connect(warehouse, views=False)
    try:
        before = connection.execute("SELECT count(*) FROM document_revisions").fetchone()[0]
        connection.execute(
            "DELETE FROM schema_migrations WHERE name = '007_revisions_backfill.sql'"
        )
    finally:
        connection.close()

    connection = lake.connect(warehouse, views=False)
    try:
        after = connection.execute("SELECT count(*) FROM document_revisions").fetchone()[0]
    finally:
        connection.close()
    assert before == after == 5  # four first versions and July 2023's


def test_a_new_warehouse_takes_every_migration_in_one_snapshot(tmp_path):
    connection = lake.connect(tmp_path / "warehouse", views=False)
    try:
        applied = lake.applied_migrations(connection)
        messages = [
            row[0]
            for row in connection.execute(
                "SELECT commit_message FROM ducklake_snapshots('lake') WHERE commit_message "
                "LIKE 'migration%'"
            ).fetchall()
        ]
    finally:
        connection.close()
    shipped = [path.name for path in lake._migration_files()]
    assert sorted(applied) == shipped
    assert messages == [f"migrations {shipped[0]} to {shipped[-1]}"]


def test_migrations_the_catalog_refuses_together_are_applied_one_by_one(tmp_path, monkeypatch):
    """Should a new warehouse's migrations fail as one transaction, none of them is kept
    from it; each is then applied alone, and one that fails alone fails the open with its
    own error, the ones before it applied."""
    failing = tmp_path / "900_fails.sql"
    failing.write_text("SELECT * FROM a_table_no_migration_made;\n", encoding="utf-8")
    shipped = lake._migration_files()
    monkeypatch.setattr(lake, "_migration_files", lambda: [*shipped, failing])
    with pytest.raises(duckdb.Error, match="a_table_no_migration_made"):
        lake.connect(tmp_path / "warehouse", views=False)
    monkeypatch.setattr(lake, "_migration_files", lambda: shipped)
    connection = lake.connect(tmp_path / "warehouse", views=False)
    try:
        applied = lake.applied_migrations(connection)
        one_by_one = connection.execute(
            "SELECT count(*) FROM ducklake_snapshots('lake') WHERE commit_message LIKE "
            "'migration %'"
        ).fetchone()
    finally:
        connection.close()
    assert sorted(applied) == [path.name for path in shipped]
    assert one_by_one == (len(shipped),)
