"""Content-addressed archive of raw documents: bytes are kept before anything reads them."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def archive_path(archive: Path, sha256: str) -> Path:
    return archive / sha256[:2] / sha256


COPY_CHUNK_BYTES = 1 << 20
SIGHTINGS_FOLDER = "sightings"
SIGHTINGS_SUFFIX = ".sightings.jsonl"
# json.dumps(..., sort_keys=True) builds an encoder per call; a re-run logs every file.
_SIGHTING_JSON = json.JSONEncoder(sort_keys=True)


def store(archive: Path, data: bytes, record: dict) -> tuple[str, Path]:
    """Keep `data` under its sha256 and log `record` (where and when it was seen); both are
    on disk when this returns."""
    with Batch(archive) as batch:
        return batch.store(data, record)


@dataclass(frozen=True)
class Written:
    """Bytes written into a batch's archive, not yet logged nor made durable."""

    sha256: str
    path: Path
    touched: tuple[Path, ...]  # what the batch must sync: the file and its folder, if new


class Batch:
    """Many documents archived with one sync at the end instead of two fsyncs each, and their
    sightings logged in one file, `sightings/<UTC time>-<pid>-<random>.sightings.jsonl`, a line
    per document seen, written when the batch closes. (One file per batch, not one per
    document: a re-run of unchanged files then writes one file, not a line into each of a
    thousand files, which costs a read of each from disk once they left the page cache.)

    Nothing may read a document of the batch before the batch is closed: only then are its
    bytes known to be on disk."""

    def __init__(self, archive: Path) -> None:
        self.archive = archive
        self._touched: list[Path | str] = []
        self._sightings: list[str] = []

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, *_exc) -> None:
        if self._sightings:
            self._touched += _write_sightings(Path(self.archive), self._sightings)
            self._sightings = []
        _make_durable(self.archive, self._touched)
        self._touched = []

    def store(self, data: bytes, record: dict) -> tuple[str, Path]:
        return self.record(self.write(data), record)

    def write(self, data: bytes) -> Written:
        """Keep `data` under its sha256, to be made durable when the batch closes. Safe on
        any thread (hashing and writing release the GIL: threads archive files side by
        side); `record` then logs it, in the order the caller wants."""
        sha256 = sha256_of(data)
        path = archive_path(self.archive, sha256)
        if _archived_in_full(path, len(data)):
            return Written(sha256, path, ())
        _write_atomically(path, data)
        return Written(sha256, path, (path, path.parent))

    def write_file(self, source: Path) -> tuple[Written, int]:
        """Keep a file's bytes under their sha256, as `write` does, without holding them:
        they are hashed while copied, a chunk at a time, to a temporary file in the archive
        that then takes its name (or is dropped when those bytes are archived in full
        already). (written, size copied). Safe on any thread."""
        digest = hashlib.sha256()
        size = 0
        self.archive.mkdir(parents=True, exist_ok=True)
        temporary = self.archive / f".incoming.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            with _reading(source) as reading, temporary.open("wb") as writing:
                while chunk := _read_chunk(reading):
                    digest.update(chunk)
                    writing.write(chunk)
                    size += len(chunk)
            sha256 = digest.hexdigest()
            path = archive_path(self.archive, sha256)
            if _archived_in_full(path, size):
                return Written(sha256, path, ()), size
            path.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temporary, path)
            return Written(sha256, path, (path, path.parent)), size
        finally:
            temporary.unlink(missing_ok=True)

    def record(self, written: Written, record: dict) -> tuple[str, Path]:
        """Note a write of this batch and its sighting; (sha256, archived path)."""
        self._touched += written.touched
        self._log_sighting(written.sha256, record)
        return written.sha256, written.path

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
        self._log_sighting(sha256, record)
        return path

    def _log_sighting(self, sha256: str, record: dict) -> None:
        self._sightings.append(_SIGHTING_JSON.encode({**record, "document_sha256": sha256}))


def _archived_in_full(path: Path, size: int) -> bool:
    # A crash before a batch's sync can leave a short file under the name: write it again.
    return path.is_file() and path.stat().st_size == size


class UnreadableSource(OSError):
    """The file to archive could not be read (as opposed to the archive not written)."""

    @classmethod
    def of(cls, error: OSError) -> UnreadableSource:
        return cls(error.errno, error.strerror or str(error))


def _reading(source: Path):
    try:
        return source.open("rb")
    except OSError as error:
        raise UnreadableSource.of(error) from error


def _read_chunk(reading) -> bytes:
    try:
        return reading.read(COPY_CHUNK_BYTES)
    except OSError as error:
        raise UnreadableSource.of(error) from error


def _write_sightings(archive: Path, lines: list[str]) -> list[Path]:
    """Write a batch's sightings to a file of their own; the paths to make durable."""
    folder = archive / SIGHTINGS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")  # names sort in writing order
    path = folder / f"{stamp}-{os.getpid()}-{uuid.uuid4().hex[:8]}{SIGHTINGS_SUFFIX}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [path, folder]


def sightings(archive: Path, sha256: str) -> list[dict]:
    """Where and when the bytes `sha256` were seen, in the order the logs were written: the
    log beside the document that archives kept before the batch logs, then the batch logs."""
    beside = archive_path(archive, sha256).with_name(f"{sha256}{SIGHTINGS_SUFFIX}")
    # Every line beside the document is about it, whatever its own fields say (a fetch's
    # record was logged there before its sha256 was filled in).
    found = ([json.loads(line) for line in beside.read_text(encoding="utf-8").splitlines()]
             if beside.is_file() else [])
    for log in sorted((archive / SIGHTINGS_FOLDER).glob(f"*{SIGHTINGS_SUFFIX}")):
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("document_sha256") == sha256:
                found.append(record)
    return found


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Named for the thread too: two threads may archive the same bytes at once.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
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
