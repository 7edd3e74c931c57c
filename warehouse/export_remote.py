"""An export onto object storage (s3://BUCKET/PREFIX), where a shared warehouse's BI tools
read it: the files `export_warehouse` writes, made in a local temporary folder and put under
the prefix.

Object storage has no folder to swap in one step, so the order keeps a reader safe: the new
files go up first, manifest.json (which lists every file with its sha256) next, and only
then are the files of an older export that the new manifest does not list removed. A reader
that starts from manifest.json finds every file it names. Only an empty prefix or one
holding a perfledger export is written to, never a prefix of other files.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from perfledger.sources.object_store import ObjectStore
from perfledger.warehouse.export import (
    MANIFEST,
    ExportError,
    export_warehouse,
    is_export_manifest,
)


def is_remote_target(target: str | Path) -> bool:
    return str(target).startswith("s3://")


def export_to(
    warehouse: Path,
    target: str | Path,
    fmt: str,
    as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> dict:
    """Every public view exported to a folder or, written s3://BUCKET/PREFIX, onto object
    storage."""
    if is_remote_target(target):
        return export_to_object_store(warehouse, str(target), fmt, as_of, progress)
    return export_warehouse(warehouse, Path(target), fmt, as_of, progress)


def export_to_object_store(
    warehouse: Path,
    url: str,
    fmt: str,
    as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> dict:
    store = ObjectStore(url)
    existing = set(store.names())
    _check_replaceable(store, existing)
    with tempfile.TemporaryDirectory(prefix="perfledger-export-") as scratch:
        local = Path(scratch) / "export"
        manifest = export_warehouse(warehouse, local, fmt, as_of, progress)
        files = sorted(
            path.relative_to(local).as_posix() for path in local.rglob("*") if path.is_file()
        )
        written = [name for name in files if name != MANIFEST]
        for name in written:
            store.put_file(name, local / name)
        store.put_file(MANIFEST, local / MANIFEST)
    stale = sorted(existing - set(files))
    store.delete(stale)
    progress(f"put {len(files)} file(s) on {store.url}; removed {len(stale)} of the older export")
    return manifest


def _check_replaceable(store: ObjectStore, existing: set[str]) -> None:
    if not existing:
        return
    if not is_export_manifest(store.get(MANIFEST)):
        raise ExportError(
            f"{store.url} holds objects and no perfledger export; choose a new or empty prefix"
        )
