"""The archive and the file index: bytes kept before anything reads them, unchanged files not
read twice, and an edit seen even when it keeps the file's size and modification time."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from flows import pipeline
from sources import archive, file_index
from sources.file_index import INDEX_NAME
from tests.conftest import JULY_2023
from warehouse import lake

A_WEEK_AGO_NS = 7 * 24 * 3600 * 10**9


@pytest.fixture(autouse=True)
def settled_at_once(monkeypatch):
    """Files count as settled as soon as written; the real delay is tested on its own."""
    monkeypatch.setattr(file_index, "SETTLED_NS", 0)


def settled_copy(folder, source=JULY_2023):
    """A copy of the July 2023 page last modified a week ago, as a scraped folder's files are."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / "performance-results.txt"
    shutil.copyfile(source, copy)
    stat = copy.stat()
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns - A_WEEK_AGO_NS))
    return copy


def bow_pod16_resnet_values(warehouse) -> list[float]:
    with lake.connect(warehouse, read_only=True) as connection:
        return [row[0] for row in connection.execute(
            "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
            "AND system = 'Bow Pod16' AND metric = 'throughput' AND workload = 'training' "
            "AND framework = 'TensorFlow1' ORDER BY value").fetchall()]


def test_an_unchanged_file_is_sighted_again_without_being_read(tmp_path):
    page = settled_copy(tmp_path / "pages")
    warehouse = tmp_path / "warehouse"
    first = pipeline.ingest([str(page)], warehouse)
    assert first.total("values_added") == 358
    sha256 = archive.sha256_of(page.read_bytes())
    index = json.loads((warehouse / INDEX_NAME).read_text())
    assert index[os.path.abspath(page)][1] == sha256

    again = pipeline.ingest([str(page)], warehouse)
    assert again.count_status("unchanged") == 1
    sightings = archive.sightings(lake.archive_dir(warehouse), sha256)
    assert [s["location"] for s in sightings] == [str(page), str(page)]
    assert all(s["document_sha256"] == sha256 for s in sightings)
    # One log per run, not a line appended to a file per document.
    logs = list((lake.archive_dir(warehouse) / "sightings").iterdir())
    assert len(logs) == 2


def test_an_edit_that_keeps_size_and_mtime_is_still_read(tmp_path):
    page = settled_copy(tmp_path / "pages")
    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(page)], warehouse)
    assert 44059.0 in bow_pod16_resnet_values(warehouse)

    before = page.stat()
    page.write_bytes(page.read_bytes().replace(b"44,059", b"45,100"))  # same length
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert page.stat().st_size == before.st_size
    assert page.stat().st_mtime_ns == before.st_mtime_ns

    edited = pipeline.ingest([str(page)], warehouse)
    (document,) = edited.runs[0].documents
    # Read and archived; not applied, since its capture time (the mtime) is not newer.
    assert document.status == "stale"
    assert document.document_sha256 == archive.sha256_of(page.read_bytes())
    assert archive.read(lake.archive_dir(warehouse), document.document_sha256) == page.read_bytes()

    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))  # republished later
    republished = pipeline.ingest([str(page)], warehouse)
    assert republished.total("values_changed") == 1
    values = bow_pod16_resnet_values(warehouse)
    assert 45100.0 in values and 44059.0 not in values


def test_a_short_file_left_by_a_crash_is_written_again(tmp_path):
    data = JULY_2023.read_bytes()
    sha256 = archive.sha256_of(data)
    stored = archive.archive_path(tmp_path, sha256)
    stored.parent.mkdir(parents=True)
    stored.write_bytes(data[:100])  # a crash before the batch's sync

    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "x"}) is None
        assert batch.store(data, {"location": "x"}) == (sha256, stored)
    assert archive.read(tmp_path, sha256) == data


def test_a_lost_or_corrupt_index_only_costs_a_read(tmp_path):
    page = settled_copy(tmp_path / "pages")
    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(page)], warehouse)
    (warehouse / INDEX_NAME).write_text("{not json")
    again = pipeline.ingest([str(page)], warehouse)
    assert again.count_status("unchanged") == 1
    assert bow_pod16_resnet_values(warehouse).count(44059.0) == 1


def test_a_file_written_just_before_the_run_is_read_again_next_time(tmp_path, monkeypatch):
    monkeypatch.setattr(file_index, "SETTLED_NS", 3600 * 10**9)
    page = settled_copy(tmp_path / "pages")  # its ctime is now, whatever its mtime says
    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(page)], warehouse)
    assert not (warehouse / INDEX_NAME).exists()
    assert pipeline.ingest([str(page)], warehouse).count_status("unchanged") == 1


def test_sightings_read_the_batch_logs_and_the_older_log_beside_a_document(tmp_path):
    data = JULY_2023.read_bytes()
    with archive.Batch(tmp_path) as batch:
        sha256, stored = batch.store(data, {"location": "first"})
        batch.store(b"another page", {"location": "elsewhere"})
    # An archive written before the batch logs kept a log beside the document, and a
    # fetch's line there named no sha256.
    stored.with_name(f"{sha256}.sightings.jsonl").write_text(
        json.dumps({"location": "older", "document_sha256": None}) + "\n", encoding="utf-8")
    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "second"}) == str(stored)
    assert [s["location"] for s in archive.sightings(tmp_path, sha256)] == [
        "older", "first", "second"]
