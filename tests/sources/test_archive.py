"""The archive and the file index: bytes kept before anything reads them, unchanged files not
read twice, and an edit seen even when it keeps the file's size and modification time."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest
import zstandard

from perfledger.flows import pipeline
from perfledger.sources import archive, file_index
from perfledger.sources.file_index import INDEX_NAME
from perfledger.warehouse import lake
from tests.conftest import BLOG_MLPERF_V2, JULY_2023

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
        return [
            row[0]
            for row in connection.execute(
                "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
                "AND system = 'Bow Pod16' AND metric = 'throughput' AND workload = 'training' "
                "AND framework = 'TensorFlow1' ORDER BY value"
            ).fetchall()
        ]


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
    plain = archive.archive_path(tmp_path, sha256)
    plain.parent.mkdir(parents=True)
    plain.write_bytes(data[:100])  # a crash before the batch's sync, before compression

    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "x"}) is None
        assert batch.store(data, {"location": "x"}) == (
            sha256,
            archive.compressed_path(tmp_path, sha256),
        )
    assert archive.read(tmp_path, sha256) == data
    assert archive.stored_path(tmp_path, sha256) == archive.compressed_path(tmp_path, sha256)


def test_a_text_page_is_stored_compressed_and_read_back_byte_for_byte(tmp_path):
    data = JULY_2023.read_bytes()
    with archive.Batch(tmp_path) as batch:
        sha256, stored = batch.store(data, {"location": "page"})
    assert sha256 == archive.sha256_of(data)
    assert stored == tmp_path / sha256[:2] / f"{sha256}.zst"
    assert not archive.archive_path(tmp_path, sha256).exists()
    assert stored.stat().st_size < len(data) / 3
    assert archive.read(tmp_path, sha256) == data
    # A standard zstd frame that records the original size; the trailer after it is a
    # skippable frame, so the zstd tool reads the file too.
    frame = stored.read_bytes()
    assert zstandard.frame_content_size(frame) == len(data)
    reader = zstandard.ZstdDecompressor().stream_reader(frame, read_across_frames=True)
    assert reader.read() == data
    # Stored once: the same bytes again are only sighted.
    with archive.Batch(tmp_path) as batch:
        assert batch.write(data).touched == ()
        assert batch.sight(sha256, len(data), {"location": "again"}) == str(stored)
    assert [s["location"] for s in archive.sightings(tmp_path, sha256)] == ["page", "again"]


def test_a_plain_file_of_an_archive_written_before_compression_still_reads(tmp_path):
    data = JULY_2023.read_bytes()
    sha256 = archive.sha256_of(data)
    plain = archive.archive_path(tmp_path, sha256)
    plain.parent.mkdir(parents=True)
    plain.write_bytes(data)  # as the archive kept every document before

    assert archive.stored_path(tmp_path, sha256) == plain
    assert archive.read(tmp_path, sha256) == data
    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "x"}) == str(plain)
        written = batch.write(data)
        assert (written.path, written.touched) == (plain, ())  # not written a second time
        assert batch.write_file(JULY_2023) == (written, len(data))
    assert not archive.compressed_path(tmp_path, sha256).exists()
    plain.write_bytes(data.replace(b"44,059", b"45,100"))  # the check on read still holds
    with pytest.raises(OSError, match="corrupt"):
        archive.read(tmp_path, sha256)


@pytest.mark.parametrize("cut", ["empty", "header only", "half", "no trailer", "one byte short"])
def test_a_compressed_file_cut_short_is_found_and_written_again(tmp_path, cut):
    data = JULY_2023.read_bytes()
    with archive.Batch(tmp_path) as batch:
        sha256, stored = batch.store(data, {"location": "x"})
    whole = stored.read_bytes()
    kept = {
        "empty": 0,
        "header only": 100,
        "half": len(whole) // 2,
        "no trailer": len(whole) - 16,
        "one byte short": len(whole) - 1,
    }[cut]
    stored.write_bytes(whole[:kept])  # a crash before the batch's sync: the tail never landed

    assert archive.stored_path(tmp_path, sha256) == stored
    with pytest.raises(OSError, match=f"archived document {sha256} is corrupt"):
        archive.read(tmp_path, sha256)
    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "y"}) is None
        assert batch.store(data, {"location": "y"}) == (sha256, stored)
    assert stored.read_bytes() == whole
    assert archive.read(tmp_path, sha256) == data


def test_a_frame_whose_bytes_changed_is_reported_corrupt(tmp_path):
    data = JULY_2023.read_bytes()
    sha256, stored = archive.store(tmp_path, data, {})
    frame = bytearray(stored.read_bytes())
    frame[len(frame) // 2] ^= 0xFF
    stored.write_bytes(bytes(frame))
    with pytest.raises(OSError, match="corrupt"):
        archive.read(tmp_path, sha256)


def test_bytes_compression_would_not_shrink_are_stored_plain(tmp_path):
    # Already compressed bytes (a gzip download, an image, a PDF) and a tiny body.
    packed = gzip.compress(JULY_2023.read_bytes() + BLOG_MLPERF_V2.read_bytes())
    with archive.Batch(tmp_path) as batch:
        packed_sha256, packed_path = batch.store(packed, {"location": "page.txt.gz"})
        tiny_sha256, tiny_path = batch.store(b"OK", {"location": "tiny"})
    assert packed_path == archive.archive_path(tmp_path, packed_sha256)
    assert tiny_path == archive.archive_path(tmp_path, tiny_sha256)
    assert packed_path.read_bytes() == packed and tiny_path.read_bytes() == b"OK"
    assert archive.read(tmp_path, packed_sha256) == packed
    assert archive.read(tmp_path, tiny_sha256) == b"OK"
    with archive.Batch(tmp_path) as batch:
        assert batch.sight(packed_sha256, len(packed), {}) == str(packed_path)
    source = tmp_path / "page.txt.gz"
    source.write_bytes(packed)
    with archive.Batch(tmp_path / "streamed") as batch:
        written, size = batch.write_file(source)
    assert (written.path, size) == (
        archive.archive_path(tmp_path / "streamed", packed_sha256),
        len(packed),
    )
    assert written.path.read_bytes() == packed


def test_a_missing_document_is_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        archive.read(tmp_path, "ab" * 32)
    assert archive.stored_path(tmp_path, "ab" * 32) is None


def test_a_large_file_is_compressed_as_it_streams_not_held(tmp_path):
    # 20 MB of text logs: each line of the July 2023 page under a run number of its own.
    lines = JULY_2023.read_bytes().splitlines(keepends=True)
    source = tmp_path / "result_0.txt"
    with source.open("wb") as writing:
        written_bytes, run = 0, 0
        while written_bytes < 20_000_000:
            for line in lines:
                written_bytes += writing.write(b"%d " % run + line)
            run += 1
    data = source.read_bytes()
    sha256 = archive.sha256_of(data)
    size = len(data)
    del data

    tracemalloc.start()
    try:
        with archive.Batch(tmp_path / "archive") as batch:
            written, copied = batch.write_file(source)
            batch.record(written, {"location": str(source)})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # a few chunks of a megabyte, never the 20 MB
    assert (written.sha256, copied) == (sha256, size)
    assert written.path == archive.compressed_path(tmp_path / "archive", sha256)
    assert written.path.stat().st_size < size / 10
    assert archive.read(tmp_path / "archive", sha256) == source.read_bytes()
    assert not list((tmp_path / "archive").rglob("*.tmp"))
    with archive.Batch(tmp_path / "archive") as batch:
        assert batch.sight(sha256, size, {}) == str(written.path)


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
        json.dumps({"location": "older", "document_sha256": None}) + "\n", encoding="utf-8"
    )
    with archive.Batch(tmp_path) as batch:
        assert batch.sight(sha256, len(data), {"location": "second"}) == str(stored)
    assert [s["location"] for s in archive.sightings(tmp_path, sha256)] == [
        "older",
        "first",
        "second",
    ]


def test_threads_compress_side_by_side(tmp_path):
    # The archiving threads share a batch; each compresses with a zstd context of its own.
    pages = [JULY_2023.read_bytes().replace(b"44,059", b"%d" % n) for n in range(40)]
    with archive.Batch(tmp_path) as batch, ThreadPoolExecutor(4) as threads:
        written = list(threads.map(batch.write, pages))
    assert all(w.path.name.endswith(".zst") for w in written)
    assert [archive.read(tmp_path, w.sha256) for w in written] == pages
