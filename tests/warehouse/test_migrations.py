"""Migrations bring a warehouse made by an older perfledger up to date, its data kept."""

from __future__ import annotations

import hashlib

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
