"""Collecting files: which files a folder holds, in which order, and how each is described."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from perfledger.sources import archive, collect
from perfledger.sources.collect import collect_paths
from perfledger.sources.registry import Capture, Registry, Source
from tests.conftest import JANUARY_2022, JULY_2023


def tree_with_links(root: Path) -> Path:
    """A folder with nested folders, names that sort differently as text and as path parts,
    a linked file, a linked folder, a broken link, a hidden file and a sightings log."""
    pages = root / "pages"
    (pages / "a").mkdir(parents=True)
    (pages / "a-b").mkdir()
    (pages / "a" / "z.txt").write_bytes(JULY_2023.read_bytes())
    (pages / "a-b" / "y.txt").write_bytes(JANUARY_2022.read_bytes())
    (pages / "top.html").write_text("<html><body><p>Nothing here.</p></body></html>")
    (pages / ".hidden.txt").write_text("not a document")
    (pages / "x.sightings.jsonl").write_text("{}\n")
    outside = root / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "never.txt").write_text("a linked folder is not entered")
    (outside / "linked.txt").write_bytes(JULY_2023.read_bytes())
    (pages / "link-to-file.txt").symlink_to(outside / "linked.txt")
    (pages / "link-to-folder").symlink_to(outside / "deep", target_is_directory=True)
    (pages / "broken.txt").symlink_to(root / "missing.txt")
    for path in (*pages.rglob("*"), outside / "linked.txt"):
        if path.is_file():  # one capture time: the documents keep the listing's order
            os.utime(path, (1_700_000_000, 1_700_000_000))
    return pages


def listed_as_before(folder: Path) -> list[Path]:
    """What collecting a folder has always meant: sorted(rglob), files only, not hidden."""
    return [
        path
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and not path.name.startswith(".")
        and not path.name.endswith(".sightings.jsonl")
    ]


def test_a_folder_lists_the_files_rglob_lists_in_the_same_order(tmp_path):
    """Links are failed documents, neither read nor entered (last: a link's own time is
    when it was made)."""
    pages = tree_with_links(tmp_path)
    documents = collect_paths([pages], Registry(), tmp_path / "archive")
    assert [Path(d.location).relative_to(pages).as_posix() for d in documents] == [
        "a/z.txt",
        "a-b/y.txt",
        "top.html",
        "link-to-file.txt",
        "link-to-folder",
    ]
    assert [Path(d.location) for d in documents if not d.error] == [
        path for path in listed_as_before(pages) if not path.is_symlink()
    ]
    assert [d.error for d in documents if d.error] == [
        f"{pages / name} is a symbolic link: links inside a folder are not followed"
        for name in ("link-to-file.txt", "link-to-folder")
    ]
    page = next(d for d in documents if d.location.endswith("top.html"))
    assert (page.source_id, page.content_type) == ("file-top.html", "text/html")
    assert page.captured_at == "2023-11-14T22:13:20Z"


def test_a_linked_file_of_a_registered_capture_is_not_followed_either(tmp_path):
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "results.txt").symlink_to(JULY_2023)
    source = Source(name="vendor-results", url="https://example.com/results", layout="auto")
    registry = Registry(
        sources={source.name: source},
        captures=(
            Capture(
                path=JULY_2023.resolve(),
                source=source.name,
                captured_at="2023-07-31T00:00:00Z",
                content_type="text/plain",
            ),
        ),
    )
    (document,) = collect_paths([pages], registry, tmp_path / "archive")
    assert document.error == (
        f"{pages / 'results.txt'} is a symbolic link: links inside a folder are not followed"
    )
    assert document.document_sha256 is None


def test_a_folder_that_cannot_be_listed_is_a_failed_document(tmp_path, monkeypatch):
    pages = tmp_path / "pages"
    (pages / "locked").mkdir(parents=True)
    (pages / "page.txt").write_bytes(JULY_2023.read_bytes())
    listing = os.scandir

    def scandir(path):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return listing(path)

    monkeypatch.setattr(collect.os, "scandir", scandir)
    documents = collect_paths([pages], Registry(), tmp_path / "archive")
    failed = [d for d in documents if d.error]
    assert [d.error for d in failed] == [
        f"cannot list the folder {pages / 'locked'}: Permission denied"
    ]
    assert [d.location for d in documents if not d.error] == [str(pages / "page.txt")]


def test_files_archived_side_by_side_come_out_in_listing_order(tmp_path, monkeypatch):
    """Files are read, hashed and archived on threads: the documents, their sightings and a
    file that cannot be read keep the listing's order, and two threads writing the same
    bytes at once leave one whole archived copy."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for number in range(40):
        (pages / f"page-{number:02d}.txt").write_bytes(
            (JULY_2023 if number % 2 else JANUARY_2022).read_bytes()
        )
    unreadable = pages / "page-17.txt"
    read_bytes = Path.read_bytes

    def failing_read(path):
        if path == unreadable:
            raise PermissionError(13, "Permission denied")
        return read_bytes(path)

    monkeypatch.setattr(collect.Path, "read_bytes", failing_read)
    store = tmp_path / "archive"
    documents = collect_paths([pages], Registry(), store)

    assert [d.location for d in documents] == [str(path) for path in sorted(pages.iterdir())]
    assert [d.location for d in documents if d.error] == [str(unreadable)]
    assert documents[17].error == f"cannot read {unreadable}: Permission denied"
    for document in (d for d in documents if not d.error):
        assert archive.read(store, document.document_sha256) == read_bytes(Path(document.location))
        assert Path(document.archive_path) == archive.stored_path(store, document.document_sha256)
    (log,) = (store / archive.SIGHTINGS_FOLDER).iterdir()
    sighted = [json.loads(line)["location"] for line in log.read_text().splitlines()]
    assert sighted == [d.location for d in documents if not d.error]
    assert not [path for path in store.rglob("*.tmp")]


def test_a_large_file_is_archived_a_chunk_at_a_time_with_the_same_outcome(tmp_path, monkeypatch):
    """Files over IN_MEMORY_ARCHIVE_BYTES are hashed while copied, never held whole: the
    archive, the documents and their sha256 are those of reading them whole; a large file
    that cannot be read is a failed document, not a failed run."""
    monkeypatch.setattr(collect, "IN_MEMORY_ARCHIVE_BYTES", 1000)
    monkeypatch.setattr(archive, "COPY_CHUNK_BYTES", 512)
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a-small.txt").write_text("Nothing here.\n")
    for name in ("b-large.txt", "c-same-bytes.txt"):
        (pages / name).write_bytes(JULY_2023.read_bytes())
    (pages / "d-other.txt").write_bytes(JANUARY_2022.read_bytes())
    unreadable = pages / "e-unreadable.txt"
    unreadable.write_bytes(JANUARY_2022.read_bytes() * 2)
    path_open = Path.open

    def failing_open(path, *args, **kwargs):
        if path == unreadable:
            raise PermissionError(13, "Permission denied")
        return path_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", failing_open)
    streamed = []
    write_file = archive.Batch.write_file
    monkeypatch.setattr(
        archive.Batch,
        "write_file",
        lambda batch, path: streamed.append(path.name) or write_file(batch, path),
    )
    store = tmp_path / "archive"
    documents = collect_paths([pages], Registry(), store)

    assert sorted(streamed) == [
        "b-large.txt",
        "c-same-bytes.txt",
        "d-other.txt",
        "e-unreadable.txt",
    ]
    assert [d.location for d in documents] == [str(path) for path in sorted(pages.iterdir())]
    assert documents[-1].error == f"cannot read {unreadable}: Permission denied"
    for document in documents[:-1]:
        data = Path(document.location).read_bytes()
        assert document.document_sha256 == archive.sha256_of(data)
        assert document.byte_size == len(data)
        assert archive.read(store, document.document_sha256) == data
        assert Path(document.archive_path) == archive.stored_path(store, document.document_sha256)
    assert documents[1].document_sha256 == archive.sha256_of(JULY_2023.read_bytes())
    assert documents[1].archive_path == documents[2].archive_path
    assert len([path for path in store.glob("??/*") if path.is_file()]) == 3
    assert not [path for path in store.rglob("*.tmp")]


def test_a_pipe_or_device_named_as_a_file_is_a_failed_document_not_a_hang(tmp_path):
    """Reading a pipe without a writer never ends (nor does reading /dev/zero): neither a
    pipe nor a device is read. Within a folder, only regular files are documents, as before."""
    pages = tmp_path / "pages"
    pages.mkdir()
    pipe = pages / "pipe.html"
    os.mkfifo(pipe)
    device = pages / "device.txt"
    device.symlink_to("/dev/null")
    page = pages / "page.txt"
    page.write_bytes(JULY_2023.read_bytes())
    collected = []
    worker = threading.Thread(
        target=lambda: collected.extend(
            collect_paths([pipe, device, page], Registry(), tmp_path / "archive")
        ),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=30)
    if worker.is_alive():  # a writer's end of file lets the reader go before the test fails
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("collecting a pipe blocked")
    by_location = {d.location: d for d in collected}
    for path in (pipe, device):
        assert by_location[str(path)].error == (
            f"{path} is not a regular file (a pipe, socket or device): not read"
        )
    assert by_location[str(page)].error is None
    assert by_location[str(page)].document_sha256 == archive.sha256_of(JULY_2023.read_bytes())
    in_folder = collect_paths([pages], Registry(), tmp_path / "archive-2")
    assert [Path(d.location).name for d in in_folder] == ["page.txt"]
