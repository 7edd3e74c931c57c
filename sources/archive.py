"""Content-addressed archive of raw documents: bytes are kept before anything reads them."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def archive_path(archive: Path, sha256: str) -> Path:
    return archive / sha256[:2] / sha256


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def store(archive: Path, data: bytes, record: dict) -> tuple[str, Path]:
    """Keep `data` under its sha256 and append `record` (where and when it was seen) beside it."""
    sha256 = sha256_of(data)
    path = archive_path(archive, sha256)
    if not path.exists():
        _write_atomically(path, data)
    sightings = path.with_name(f"{sha256}.sightings.jsonl")
    with sightings.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return sha256, path


def read(archive: Path, sha256: str) -> bytes:
    data = archive_path(archive, sha256).read_bytes()
    if sha256_of(data) != sha256:
        raise OSError(f"archived document {sha256} is corrupt: its bytes no longer match")
    return data
