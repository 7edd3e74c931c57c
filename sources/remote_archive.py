"""A shared warehouse's raw archive on object storage: the files of the local archive, named
as there (`<sha256[:2]>/<sha256>.zst`, or without `.zst` where compression saved too
little), under `s3://BUCKET/PREFIX/archive/`.

A run uploads the documents it read before its snapshot is committed, so every document a
snapshot names is on the bucket; any machine (another analyst's `reprocess`, a Dask worker)
reads a document it lacks from there, checks its sha256, and keeps a copy in its own
archive folder when it can write there.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from perfledger.sources import archive
from perfledger.sources.object_store import FolderStore, ObjectStore, store_at

_STORES: dict[str, ObjectStore | FolderStore] = {}  # one client per URL and process


def store_for(url: str) -> ObjectStore | FolderStore:
    if url not in _STORES:
        _STORES[url] = store_at(url)
    return _STORES[url]


# Requests in flight at once: each file costs a look-up and maybe an upload, a round trip
# apiece, which side by side cost about one (a page's upload is small).
UPLOADS_AT_ONCE = 8


def upload(local: Path, url: str, sha256s: Iterable[str]) -> int:
    """Put the archived files of `sha256s` on the bucket where they are not yet, whole;
    how many were put. A file the local archive lacks is an error: it was archived by this
    run, before anything read it."""
    store = store_for(url)
    paths = []
    for sha256 in dict.fromkeys(sha256s):
        path = archive.stored_path(local, sha256)
        if path is None:
            raise FileNotFoundError(f"archived document {sha256} is not in {local}")
        paths.append(path)

    def put_if_missing(path: Path) -> bool:
        name = path.relative_to(local).as_posix()
        if store.size(name) == path.stat().st_size:
            return False
        store.put_file(name, path)
        return True

    if len(paths) < 2:
        return sum(map(put_if_missing, paths))
    with ThreadPoolExecutor(UPLOADS_AT_ONCE, thread_name_prefix="perfledger-upload") as pool:
        return sum(pool.map(put_if_missing, paths))


def read(local: Path, sha256: str, url: str | None) -> bytes:
    """The original bytes `sha256`: from the local archive, else (a shared warehouse) from
    the bucket, kept locally for next time where the folder can be written."""
    try:
        return archive.read(local, sha256)
    except FileNotFoundError:
        if url is None:
            raise
    store = store_for(url)
    for name, compressed in zip(archive.stored_names(sha256), (True, False), strict=True):
        stored = store.get(name)
        if stored is None:
            continue
        data = archive.original_bytes(stored, compressed, sha256)
        with contextlib.suppress(OSError):  # a worker that cannot write there reads anew
            archive.keep_stored(local, name, stored)
        return data
    raise FileNotFoundError(f"archived document {sha256} is neither in {local} nor on {store.url}")


def manifest_members(local: Path, sha256: str, url: str | None) -> list[str]:
    """The sha256 of every file an archived MLPerf unit's manifest names (see
    sources/mlperf/collect.py); the manifest is itself an archived document."""
    files = json.loads(read(local, sha256, url)).get("files", {})
    return [
        value
        for value in files.values()
        if isinstance(value, str)
        and re.fullmatch(r"[0-9a-f]{64}", value)
        and archive.stored_path(local, value) is not None
    ]
