"""Export every public view to Parquet, CSV or one DuckDB file, atomically and reproducibly."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from perfledger.warehouse import location, query, sql
from perfledger.warehouse.cell_text import inert
from perfledger.warehouse.dictionary import public_views, view_columns
from perfledger.warehouse.single_row import single_row, single_value

FORMATS = ("parquet", "csv", "duckdb")
PARTITION_COLUMNS = ("vendor", "metric")
DUCKDB_FILE = "perfledger.duckdb"
MANIFEST = "manifest.json"
GENERATOR = "perfledger export"
# Types an export reader may not know are written as text.
_PORTABLE_TYPES = {"JSON": "VARCHAR"}
_BATCH_ROWS = 10_000


class ExportError(RuntimeError):
    """The export cannot be written; the message says why."""


@dataclass
class ViewExport:
    name: str
    columns: list[tuple[str, str]]
    rows: int = 0
    partition_by: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)


def export_warehouse(
    warehouse: Path,
    target: Path,
    fmt: str,
    as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> dict:
    """Write every public view under `target`, replacing an older export there in one step."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    target = Path(target).absolute()
    check_replaceable(target)
    connection = query.open_read_only(warehouse, as_of)
    try:
        prepare_session(connection)
        snapshot_id, snapshot_time = snapshot_info(connection)
        staging = make_staging_dir(target)
        try:
            exports = write_views(connection, staging, fmt, progress)
            manifest = build_manifest(
                staging, exports, fmt, warehouse, as_of, snapshot_id, snapshot_time
            )
            write_manifest(staging, manifest)
            fsync_tree(staging)
            swap_into_place(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    finally:
        connection.close()
    return manifest


def check_replaceable(target: Path) -> None:
    """Only an empty folder or an earlier export may be replaced: never a user's own files."""
    if not target.exists():
        return
    if not target.is_dir():
        raise ExportError(f"{target} exists and is not a folder")
    if not any(target.iterdir()):
        return
    try:
        manifest = (target / MANIFEST).read_bytes()
    except OSError:
        manifest = None
    if not is_export_manifest(manifest):
        raise ExportError(
            f"{target} is not empty and holds no perfledger export; choose a new or empty folder"
        )


def is_export_manifest(text: bytes | None) -> bool:
    """Whether `text` is the manifest.json of a perfledger export (what may be replaced)."""
    try:
        manifest = json.loads(text or b"{}")
    except ValueError:
        return False
    return isinstance(manifest, dict) and manifest.get("generator") == GENERATOR


def make_staging_dir(target: Path) -> Path:
    """A hidden sibling of the target, on the same file system so a rename can publish it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:12]}"
    staging.mkdir()
    return staging


def prepare_session(connection: duckdb.DuckDBPyConnection) -> None:
    """One thread and UTC, so files hold the same bytes in the same order on every run."""
    connection.execute("SET threads = 1")
    connection.execute("SET TimeZone = 'UTC'")
    connection.execute("SET preserve_insertion_order = true")


def snapshot_info(connection: duckdb.DuckDBPyConnection) -> tuple[int, datetime]:
    """Id and commit time of the snapshot the connection reads."""
    snapshot_id, snapshot_time = single_row(
        connection.execute(
            "SELECT snapshot_id, snapshot_time FROM lake.snapshots() "
            "WHERE snapshot_id = (SELECT id FROM lake.current_snapshot())"
        )
    )
    return snapshot_id, snapshot_time


def write_views(
    connection: duckdb.DuckDBPyConnection,
    staging: Path,
    fmt: str,
    progress: Callable[[str], None],
) -> list[ViewExport]:
    writer = {"parquet": write_parquet, "csv": write_csv, "duckdb": write_duckdb_table}[fmt]
    if fmt == "duckdb":
        connection.execute(f"ATTACH '{sql.text(str(staging / DUCKDB_FILE))}' AS export_db")
    exports = []
    for view in public_views(connection):
        export = ViewExport(view, stable_columns(connection, view))
        export.rows = count_rows(connection, view)
        writer(connection, export, staging)
        progress(f"{view}: {export.rows} rows{_files_note(export)}")
        exports.append(export)
    if fmt == "duckdb":
        connection.execute("DETACH export_db")
    return exports


def _files_note(export: ViewExport) -> str:
    return f" in {len(export.files)} file(s)" if export.files else ""


def stable_columns(connection: duckdb.DuckDBPyConnection, view: str) -> list[tuple[str, str]]:
    """The view's columns in its own order, each with the type the export writes."""
    columns = view_columns(connection, view)
    return [(name, _PORTABLE_TYPES.get(dtype, dtype)) for name, dtype in columns]


def count_rows(connection: duckdb.DuckDBPyConnection, view: str) -> int:
    return single_value(connection.execute(f"SELECT count(*) FROM {_ident(view)}"))


def select_sql(export: ViewExport, as_text: bool = False) -> str:
    """Every column cast to its export type (or text), rows sorted on every column."""
    casts = ", ".join(
        f"CAST({_ident(name)} AS {'VARCHAR' if as_text else dtype}) AS {_ident(name)}"
        for name, dtype in export.columns
    )
    return f"SELECT {casts} FROM {_ident(export.name)} ORDER BY ALL"


def write_parquet(connection: duckdb.DuckDBPyConnection, export: ViewExport, staging: Path) -> None:
    """Hive-partitioned by vendor and metric where the view has them; one file otherwise."""
    folder = staging / export.name
    names = [name for name, _ in export.columns]
    export.partition_by = [c for c in PARTITION_COLUMNS if c in names] if export.rows else []
    if export.partition_by:
        options = (
            f"FORMAT parquet, PARTITION_BY ({', '.join(map(_ident, export.partition_by))}), "
            "WRITE_PARTITION_COLUMNS true"
        )
        destination = folder
    else:
        folder.mkdir()
        options = "FORMAT parquet"
        destination = folder / "data_0.parquet"
    connection.execute(f"COPY ({select_sql(export)}) TO '{sql.text(str(destination))}' ({options})")
    export.files = sorted(path for path in folder.rglob("*") if path.is_file())


def write_csv(connection: duckdb.DuckDBPyConnection, export: ViewExport, staging: Path) -> None:
    """One file per view; text that a spreadsheet would run as a formula is kept inert."""
    path = staging / f"{export.name}.csv"
    result = connection.execute(select_sql(export, as_text=True))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([name for name, _ in export.columns])
        while batch := result.fetchmany(_BATCH_ROWS):
            writer.writerows([inert(v) if v is not None else "" for v in row] for row in batch)
    export.files = [path]


def write_duckdb_table(
    connection: duckdb.DuckDBPyConnection, export: ViewExport, staging: Path
) -> None:
    """A plain table in the export database: readable with no extension loaded."""
    connection.execute(f"CREATE TABLE export_db.main.{_ident(export.name)} AS {select_sql(export)}")


def build_manifest(
    staging: Path,
    exports: list[ViewExport],
    fmt: str,
    warehouse: Path,
    as_of: str | None,
    snapshot_id: int,
    snapshot_time: datetime,
) -> dict:
    single_file = [staging / DUCKDB_FILE] if fmt == "duckdb" else []
    return {
        "generator": GENERATOR,
        "format": fmt,
        "snapshot_id": snapshot_id,
        "snapshot_time": snapshot_time.astimezone(UTC).isoformat(),
        "as_of": as_of,
        "warehouse": _warehouse_name(Path(warehouse)),
        "exported_at": datetime.now(UTC).isoformat(),
        "duckdb_version": duckdb.__version__,
        "files": [describe_file(staging, path) for path in single_file],
        "views": {
            export.name: {
                "rows": export.rows,
                "columns": [{"name": name, "type": dtype} for name, dtype in export.columns],
                "partition_by": export.partition_by,
                "files": [describe_file(staging, path) for path in export.files],
            }
            for export in exports
        },
    }


def _warehouse_name(warehouse: Path) -> str:
    """The folder, or a shared warehouse's location as its users write it (no credential)."""
    shared = location.shared(warehouse)
    return shared.display() if shared is not None else str(warehouse.absolute())


def describe_file(root: Path, path: Path) -> dict:
    return {
        "path": path.relative_to(root).as_posix(),
        "bytes": path.stat().st_size,
        "sha256": file_sha256(path),
    }


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def write_manifest(staging: Path, manifest: dict) -> None:
    text = json.dumps(manifest, indent=2, ensure_ascii=False, default=str)
    (staging / MANIFEST).write_text(text + "\n", encoding="utf-8")


def fsync_tree(root: Path) -> None:
    """Data reaches the disk before the rename publishes it."""
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_file():
            _fsync(path, os.O_RDONLY)
        else:
            _fsync(path, os.O_RDONLY | os.O_DIRECTORY)
    _fsync(root, os.O_RDONLY | os.O_DIRECTORY)


def _fsync(path: Path, flags: int) -> None:
    descriptor = os.open(path, flags)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def swap_into_place(staging: Path, target: Path) -> None:
    """Readers see the old export or the new one, never a partial one."""
    if target.exists():
        retired = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:12]}"
        os.rename(target, retired)
        os.rename(staging, target)
        _fsync(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        shutil.rmtree(retired)
    else:
        os.rename(staging, target)
        _fsync(target.parent, os.O_RDONLY | os.O_DIRECTORY)


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
