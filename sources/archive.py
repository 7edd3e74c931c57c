"""Content-addressed archive of raw documents: bytes are kept before anything reads them.

A document is kept under the sha256 of its original bytes, compressed with zstd in
`<archive>/<sha256[:2]>/<sha256>.zst` (MLPerf Training result logs in about a 35th of
their size, MLPerf Inference logs a third, HTML pages a fourth to a sixth), or as they are
in `<archive>/<sha256[:2]>/<sha256>` when compression would not save
COMPRESSION_MIN_SAVING of them (images, PDFs, tiny bodies), as every archive written
before compression kept them all. `read` returns the original bytes from either form; a
compressed file ends with a zstd skippable frame that records the original size, written
last, so that a file cut short by a crash is known without decompressing it and is written
again by the next store."""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import stat
import struct
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import zstandard


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def archive_path(archive: Path, sha256: str) -> Path:
    """Where the bytes `sha256` are kept uncompressed (see `stored_path` for either form)."""
    return archive / sha256[:2] / sha256


COMPRESSED_SUFFIX = ".zst"


def compressed_path(archive: Path, sha256: str) -> Path:
    return archive / sha256[:2] / f"{sha256}{COMPRESSED_SUFFIX}"


def stored_path(archive: Path, sha256: str) -> Path | None:
    """The file that holds the bytes `sha256`: the compressed one when it is whole, else the
    plain one, else a compressed one cut short (which `read` reports as corrupt); None when
    neither is there."""
    compressed = compressed_path(archive, sha256)
    if _original_size(str(compressed)) is not None:
        return compressed
    plain = archive_path(archive, sha256)
    if plain.is_file():
        return plain
    return compressed if compressed.is_file() else None


COPY_CHUNK_BYTES = 1 << 20
# zstd level 1: on one core about 1,100 MB/s on MLPerf text logs (35x smaller) and 350 MB/s
# on HTML pages (5.6x), the ratio of level 3 within 2% for 5-25% less time; it releases
# the GIL, so the archiving threads compress side by side. Bytes are stored plain unless
# compression saves at least COMPRESSION_MIN_SAVING of them.
COMPRESSION_LEVEL = 1
COMPRESSION_MIN_SAVING = 0.05
# The last 16 bytes of a compressed file: a zstd skippable frame (magic, length 8) holding
# the original size. zstd tools skip it; its absence says the file was cut short.
_TRAILER = struct.Struct("<IIQ")
_TRAILER_MAGIC = 0x184D2A5E
_TRAILER_LENGTH = 8
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
        """Keep `data` under its sha256 (compressed, unless that saves too little), to be made
        durable when the batch closes. Safe on any thread (hashing, compressing and writing
        release the GIL: threads archive files side by side); `record` then logs it, in the
        order the caller wants."""
        sha256 = sha256_of(data)
        if (kept := _archived_in_full(self.archive, sha256, len(data))) is not None:
            return Written(sha256, Path(kept), ())
        compressed = _compressed_or_none(data)
        if compressed is None:
            path = archive_path(self.archive, sha256)
            write_atomically(path, data)
        else:
            path = compressed_path(self.archive, sha256)
            write_atomically(path, compressed, _trailer(len(data)))
        return Written(sha256, path, (path, path.parent))

    def write_file(self, source: Path) -> tuple[Written, int]:
        """Keep a file's bytes under their sha256, as `write` does, without holding them:
        they are hashed while copied (compressed, unless its first chunk does not compress),
        a chunk at a time, to a temporary file in the archive that then takes its name (or
        is dropped when those bytes are archived in full already). (written, size copied).
        Safe on any thread."""
        digest = hashlib.sha256()
        size = 0
        self.archive.mkdir(parents=True, exist_ok=True)
        temporary = self.archive / f".incoming.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            with _reading(source) as reading, temporary.open("wb") as writing:
                chunk = _read_chunk(reading)
                compressing = (
                    _compressor().compressobj() if _compressed_or_none(chunk) is not None else None
                )
                while chunk:
                    digest.update(chunk)
                    writing.write(compressing.compress(chunk) if compressing else chunk)
                    size += len(chunk)
                    chunk = _read_chunk(reading)
                if compressing:
                    writing.write(compressing.flush())
                    writing.write(_trailer(size))
            sha256 = digest.hexdigest()
            if (kept := _archived_in_full(self.archive, sha256, size)) is not None:
                return Written(sha256, Path(kept), ()), size
            path = (compressed_path if compressing else archive_path)(self.archive, sha256)
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
        path = _archived_in_full(self.archive, sha256, size)
        if path is not None:
            self._log_sighting(sha256, record)
        return path

    def _log_sighting(self, sha256: str, record: dict) -> None:
        self._sightings.append(_SIGHTING_JSON.encode({**record, "document_sha256": sha256}))


def _archived_in_full(archive: Path, sha256: str, size: int) -> str | None:
    """The file keeping all `size` bytes of `sha256`, compressed or plain; None when neither
    does. A crash before a batch's sync can leave a short file under either name: it is
    written again."""
    plain = os.path.join(archive, sha256[:2], sha256)
    compressed = plain + COMPRESSED_SUFFIX
    if _original_size(compressed) == size:
        return compressed
    try:
        found = os.stat(plain)
    except OSError:
        return None
    return plain if stat.S_ISREG(found.st_mode) and found.st_size == size else None


def _original_size(compressed: str) -> int | None:
    """The original size a compressed file's trailer records; None when the file is not
    there or does not end with a trailer (cut short). One open and one read of 16 bytes."""
    try:
        descriptor = os.open(compressed, os.O_RDONLY)
    except OSError:
        return None
    try:
        length = os.fstat(descriptor).st_size
        if length < _TRAILER.size:
            return None
        trailer = os.pread(descriptor, _TRAILER.size, length - _TRAILER.size)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return _parsed_trailer(trailer)


def _trailer(size: int) -> bytes:
    return _TRAILER.pack(_TRAILER_MAGIC, _TRAILER_LENGTH, size)


def _parsed_trailer(trailer: bytes) -> int | None:
    if len(trailer) != _TRAILER.size:
        return None
    magic, length, size = _TRAILER.unpack(trailer)
    return size if (magic, length) == (_TRAILER_MAGIC, _TRAILER_LENGTH) else None


_per_thread = threading.local()  # zstd contexts are not to be shared between threads


def _compressor() -> zstandard.ZstdCompressor:
    compressor = getattr(_per_thread, "compressor", None)
    if compressor is None:
        compressor = _per_thread.compressor = zstandard.ZstdCompressor(
            level=COMPRESSION_LEVEL, write_checksum=True
        )
    return compressor


def _decompressor() -> zstandard.ZstdDecompressor:
    decompressor = getattr(_per_thread, "decompressor", None)
    if decompressor is None:
        decompressor = _per_thread.decompressor = zstandard.ZstdDecompressor()
    return decompressor


def _compressed_or_none(data: bytes) -> bytes | None:
    """`data` as one zstd frame (which records its size), or None when that would not save
    COMPRESSION_MIN_SAVING of it: the bytes are then kept as they are."""
    if not data:
        return None
    compressed = _compressor().compress(data)
    worth_it = len(compressed) + _TRAILER.size <= len(data) * (1 - COMPRESSION_MIN_SAVING)
    return compressed if worth_it else None


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
    found = (
        [json.loads(line) for line in beside.read_text(encoding="utf-8").splitlines()]
        if beside.is_file()
        else []
    )
    for log in sorted((archive / SIGHTINGS_FOLDER).glob(f"*{SIGHTINGS_SUFFIX}")):
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("document_sha256") == sha256:
                found.append(record)
    return found


def write_atomically(path: Path, *parts: bytes) -> None:
    """`parts` as the file `path`, whole or not at all (written aside, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Named for the thread too: two threads may archive the same bytes at once.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with temporary.open("wb") as writing:
        for part in parts:
            writing.write(part)
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
    """The original bytes `sha256`, from the compressed or the plain file; OSError when
    neither is there (FileNotFoundError) or what is there is not those bytes."""
    path = stored_path(archive, sha256)
    if path is None:
        plain = archive_path(archive, sha256)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(plain))
    return original_bytes(path.read_bytes(), path.name.endswith(COMPRESSED_SUFFIX), sha256)


def original_bytes(stored: bytes, compressed: bool, sha256: str) -> bytes:
    """The original bytes `sha256` from a stored file's content (compressed or plain);
    OSError when they are not those bytes."""
    data = _decompressed(stored, sha256) if compressed else stored
    if sha256_of(data) != sha256:
        raise OSError(f"archived document {sha256} is corrupt: its bytes no longer match")
    return data


def stored_names(sha256: str) -> tuple[str, str]:
    """(compressed, plain): the names, relative to an archive, the bytes `sha256` may have."""
    plain = f"{sha256[:2]}/{sha256}"
    return plain + COMPRESSED_SUFFIX, plain


def keep_stored(archive: Path, name: str, stored: bytes) -> Path:
    """A stored file's content, read from elsewhere (a shared warehouse's bucket), kept
    under `name` in this archive, whole or not at all."""
    path = archive / name
    write_atomically(path, stored)
    return path


def _decompressed(stored: bytes, sha256: str) -> bytes:
    """A compressed file's original bytes, checked against the size its trailer records (and
    the frame's checksum) before the caller checks their sha256."""
    size = _parsed_trailer(stored[-_TRAILER.size :])
    if size is None:
        raise OSError(f"archived document {sha256} is corrupt: its compressed file is cut short")
    frame = memoryview(stored)[: -_TRAILER.size]
    try:
        recorded = zstandard.frame_content_size(frame)  # -1: a frame written as it streamed
        if recorded not in (-1, size):
            raise OSError(
                f"archived document {sha256} is corrupt: its frame holds {recorded} "
                f"bytes, its trailer says {size}"
            )
        if recorded == size:
            data = _decompressor().decompress(frame)
        else:  # grown as it decodes, rather than sized by a number read from the file
            decompressing = _decompressor().decompressobj()
            data = decompressing.decompress(frame)
            if not decompressing.eof:
                raise OSError(f"archived document {sha256} is corrupt: its frame is cut short")
    except zstandard.ZstdError as error:
        raise OSError(f"archived document {sha256} is corrupt: {error}") from error
    if len(data) != size:
        raise OSError(f"archived document {sha256} is corrupt: {len(data)} bytes, not {size}")
    return data
