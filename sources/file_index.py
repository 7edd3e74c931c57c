"""Each local file's sha256 remembered by its stat signature, so that an unchanged file is
not read and hashed again on the next run (as git's index does for a working tree).

A signature is (size, mtime, ctime, inode, device) in nanoseconds. A file is remembered only
when it was last modified well before it was hashed: a write within the file system's
timestamp resolution of the hashing could otherwise leave the signature unchanged. The
index is a cache: losing it, or a stale entry, costs a read and nothing else.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

INDEX_NAME = ".file-index.json"
SETTLED_NS = 2_000_000_000  # modified at least this long before hashing


def _signature(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]


class FileIndex:
    def __init__(self, path: Path, entries: dict[str, list]) -> None:
        self.path = path
        self._entries = entries
        self._changed = False

    @classmethod
    def load(cls, folder: Path) -> FileIndex:
        path = folder / INDEX_NAME
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entries = {}
        return cls(path, entries if isinstance(entries, dict) else {})

    def sha256_of(self, file: Path, stat: os.stat_result) -> str | None:
        """The sha256 read last time, when the file has not changed since."""
        entry = self._entries.get(os.path.abspath(file))
        if isinstance(entry, list) and len(entry) == 2 and entry[0] == _signature(stat):
            return entry[1]
        return None

    def remember(self, file: Path, stat: os.stat_result, sha256: str) -> None:
        settled = time.time_ns() - SETTLED_NS
        if stat.st_mtime_ns < settled and stat.st_ctime_ns < settled:
            self._entries[os.path.abspath(file)] = [_signature(stat), sha256]
            self._changed = True

    def save(self) -> None:
        if not self._changed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f"{INDEX_NAME}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(self._entries), encoding="utf-8")
        os.replace(temporary, self.path)
        self._changed = False
