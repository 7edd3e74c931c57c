"""A throwaway copy of a warehouse folder for `ingest --dry-run`: what a run would change,
learnt by running it against the copy."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

from perfledger.warehouse import lake, location
from perfledger.warehouse.query import query_text

# Files of the warehouse folder that belong to the catalog or to the writer, never copied.
CATALOG_FILES = {
    "catalog.sqlite",
    "catalog.sqlite-wal",
    "catalog.sqlite-shm",
    "catalog.sqlite-journal",
    ".writer.lock",
}


def copy_for_dry_run(warehouse: Path, scratch: Path) -> Path:
    """A throwaway warehouse that reads like `warehouse`: the catalog copied, files linked.

    DuckLake never rewrites a Parquet file and the archive never rewrites a document, so
    linking them is safe; the copy writes its new files, archive entries and lock in its
    own folder, and the real warehouse is only read.
    """
    if (shared := location.shared(warehouse)) is not None:
        # Its catalog is a PostgreSQL database: no file to copy, and a copy of the folder
        # would name the real catalog and write to it.
        raise lake.WarehouseError(
            f"a dry run reads a copy of a warehouse folder's catalog; {shared.display()} is a "
            "shared warehouse, whose catalog cannot be copied: run without dry_run"
        )
    copy = scratch / "warehouse"
    copy.mkdir(parents=True)
    if not lake.catalog_path(warehouse).exists():
        return copy
    read_only = f"file:{lake.catalog_path(warehouse)}?mode=ro"
    with (
        contextlib.closing(sqlite3.connect(read_only, uri=True)) as original,
        contextlib.closing(sqlite3.connect(lake.catalog_path(copy))) as catalog,
    ):
        original.backup(catalog)  # a consistent copy even while an ingest writes
        with catalog:
            catalog.execute(query_text("catalog_data_path"), [f"{lake.data_path(copy)}/"])
    for path in warehouse.iterdir():
        # Settings beside the catalog (added sources, claim reviews) shape the run too.
        if path.is_file() and path.name not in CATALOG_FILES:
            shutil.copy2(path, copy / path.name)
    for folder in (lake.data_path(warehouse), lake.archive_dir(warehouse)):
        link_files(folder, copy / folder.name)
    return copy


def link_files(source: Path, target: Path) -> None:
    for path in source.rglob("*"):
        # A sightings log is appended to on every read: the copy starts its own.
        if path.is_file() and not path.name.endswith(".sightings.jsonl"):
            link = target / path.relative_to(source)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path.resolve())
