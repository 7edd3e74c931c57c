"""Content-addressed archive of raw documents: bytes are kept before anything reads them."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
from pathlib import Path


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def archive_path(archive: Path, sha256: str) -> Path:
    return archive / sha256[:2] / sha256


def store(archive: Path, data: bytes, record: dict) -> tuple[str, Path]:
    """Keep `data` under its sha256 and append `record` (where and when it was seen) beside
    it; both are on disk when this returns."""
    with Batch(archive) as batch:
        return batch.store(data, record)


class Batch:
    """Many documents archived with one sync at the end instead of two fsyncs each.

    Nothing may read a document of the batch before the batch is closed: only then are its
    bytes known to be on disk."""

    def __init__(self, archive: Path) -> None:
        self.archive = archive
        self._touched: list[Path | str] = []

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, *_exc) -> None:
        _make_durable(self.archive, self._touched)
        self._touched = []

    def store(self, data: bytes, record: dict) -> tuple[str, Path]:
        sha256 = sha256_of(data)
        path = archive_path(self.archive, sha256)
        # A crash before the batch's sync can leave a short file under the name: write again.
        if not path.is_file() or path.stat().st_size != len(data):
            _write_atomically(path, data)
            self._touched += [path, path.parent]
        self._append_sighting(path, record)
        return sha256, path

    def sight(self, sha256: str, size: int, record: dict) -> str | None:
        """Record one more sighting of bytes already archived; None when they are not there
        (in full), and the caller must store them."""
        # Text paths and os calls: a re-run sights every file, and pathlib's objects cost
        # more than the system calls themselves.
        path = os.path.join(self.archive, sha256[:2], sha256)
        try:
            if os.stat(path).st_size != size:
                return None
        except OSError:
            return None
        self._append_sighting(path, record)
        return path

    def _append_sighting(self, path: Path | str, record: dict) -> None:
        sightings = f"{path}.sightings.jsonl"
        line = (json.dumps(record, sort_keys=True) + "\n").encode("utf-8")
        descriptor = os.open(sightings, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            while line:
                line = line[os.write(descriptor, line):]
        finally:
            os.close(descriptor)
        self._touched.append(sightings)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _make_durable(archive: Path, paths: list[Path | str]) -> None:
    """One syncfs of the archive's file system where Linux offers it, else an fsync of each
    file and folder written."""
    if not paths or _syncfs(archive):
        return
    for path in dict.fromkeys(paths):
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _syncfs(folder: Path) -> bool:
    syncfs = getattr(_libc(), "syncfs", None)
    if syncfs is None:
        return False
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        return syncfs(descriptor) == 0
    finally:
        os.close(descriptor)


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def read(archive: Path, sha256: str) -> bytes:
    data = archive_path(archive, sha256).read_bytes()
    if sha256_of(data) != sha256:
        raise OSError(f"archived document {sha256} is corrupt: its bytes no longer match")
    return data
