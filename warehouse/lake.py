"""Open the DuckLake warehouse: extensions from the installed wheels, migrations, views, locking."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import importlib.util
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb

from warehouse import sql

LAKE = "lake"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
VIEWS_DIR = Path(__file__).resolve().parent / "views"
# DuckDB's extension file name differs from the wheel's for the SQLite scanner.
_EXTENSIONS = {"sqlite": "sqlite_scanner", "ducklake": "ducklake"}


class WarehouseError(RuntimeError):
    """A warehouse problem a user can act on; the message says what to do."""


def default_warehouse_dir() -> Path:
    configured = os.environ.get("PERFLEDGER_WAREHOUSE")
    if configured:
        return Path(configured).expanduser()
    data_home = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return data_home / "perfledger" / "warehouse"


def catalog_path(warehouse: Path) -> Path:
    return warehouse / "catalog.sqlite"


def data_path(warehouse: Path) -> Path:
    return warehouse / "data"


def archive_dir(warehouse: Path) -> Path:
    return warehouse / "archive"


def _extension_dir(warehouse: Path, platform: str | None = None) -> Path:
    """Copy the extension binaries shipped in the duckdb-extension-* wheels where DuckDB looks.

    `platform` is DuckDB's name for this machine; asking for it takes a connection of its
    own, which a caller holding one can spare."""
    target = warehouse / "extensions" / f"v{duckdb.__version__}" / (platform or _platform())
    target.mkdir(parents=True, exist_ok=True)
    for wheel_name, extension_name in _EXTENSIONS.items():
        destination = target / f"{extension_name}.duckdb_extension"
        if destination.exists():
            continue
        source = _installed_extension(wheel_name)
        temporary = destination.with_suffix(f".tmp{os.getpid()}")
        shutil.copyfile(source, temporary)
        os.replace(temporary, destination)
    return warehouse / "extensions"


@functools.cache
def _installed_extension(wheel_name: str) -> Path:
    """The extension binary inside its installed duckdb-extension-* package."""
    spec = importlib.util.find_spec(f"duckdb_extension_{wheel_name}")
    if spec is None or spec.origin is None:
        raise WarehouseError(
            f"the package duckdb-extension-{wheel_name}=={duckdb.__version__} is not "
            "installed; install the project's locked requirements"
        )
    return (
        Path(spec.origin).parent / "extensions" / f"v{duckdb.__version__}"
        / f"{wheel_name}.duckdb_extension"
    )


def _load_installed(connection: duckdb.DuckDBPyConnection, wheel_name: str,
                    extension_name: str) -> None:
    """LOAD the binary of the installed package itself, never a copy others could write to.

    DuckDB finds an extension's entry point by its file name, so a binary whose package
    names it differently is loaded through a link (or copy) in a private folder."""
    source = _installed_extension(wheel_name)
    if source.name == f"{extension_name}.duckdb_extension":
        connection.execute(f"LOAD '{sql.text(str(source))}'")
        return
    with tempfile.TemporaryDirectory(prefix="perfledger-extension-") as private:
        target = Path(private) / f"{extension_name}.duckdb_extension"
        try:
            os.link(source, target)
        except OSError:  # another file system
            shutil.copyfile(source, target)
        connection.execute(f"LOAD '{sql.text(str(target))}'")


@functools.cache
def _platform() -> str:
    # A connection of its own: duckdb's module-level one is shared by every thread, and two
    # threads opening the warehouse at once read each other's results from it.
    with duckdb.connect() as connection:
        return connection.execute("PRAGMA platform").fetchone()[0]


def connect(
    warehouse: Path,
    *,
    read_only: bool = False,
    snapshot_version: int | None = None,
    snapshot_time: str | None = None,
    views: bool = True,
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB session with the warehouse attached as `lake` and selected.

    `views=False` leaves out the public views, which the load stage never reads (creating
    them costs a tenth of a second per open)."""
    warehouse = Path(warehouse)
    if read_only and not catalog_path(warehouse).exists():
        raise WarehouseError(
            f"no warehouse at {warehouse}: run `perfledger ingest` first or pass --warehouse"
        )
    warehouse.mkdir(parents=True, exist_ok=True)
    data_path(warehouse).mkdir(exist_ok=True)
    # A reader loads the copies in the warehouse's extension folder; a writer loads the
    # installed binaries, and copies them there afterwards for the readers.
    extensions = _extension_dir(warehouse) if read_only else warehouse / "extensions"
    connection = duckdb.connect(
        config={
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "extension_directory": str(extensions),
            # Checking an extension's signature hashes its 35 MB: half a second per open.
            # A writer runs only the project's own SQL and loads the binaries from the
            # installed packages (as trusted as the Python code running now), never from the
            # warehouse's copies;
            # a reader, which runs users' SQL, keeps the check.
            "allow_unsigned_extensions": not read_only,
            # DuckDB's default, stated because the load stage relies on it: a table made from
            # the staged rows keeps their order (see load._define_keys).
            "preserve_insertion_order": True,
        }
    )
    for wheel_name, extension_name in _EXTENSIONS.items():
        if read_only:
            connection.execute(f"LOAD {extension_name}")
        else:
            _load_installed(connection, wheel_name, extension_name)
    if not read_only:
        _extension_dir(warehouse, connection.execute("PRAGMA platform").fetchone()[0])
    # The catalog keeps the data folder it was created with; the data files' paths are
    # relative to it, and the warehouse's data folder is the one beside its catalog, so a
    # warehouse moved or copied elsewhere opens there.
    options = [f"DATA_PATH '{sql.text(str(data_path(warehouse)))}/'", "OVERRIDE_DATA_PATH true"]
    if read_only:
        options.append("READ_ONLY")
    else:
        options.append("DATA_INLINING_ROW_LIMIT 0")
    if snapshot_version is not None:
        options.append(f"SNAPSHOT_VERSION {int(snapshot_version)}")
    if snapshot_time is not None:
        options.append(f"SNAPSHOT_TIME '{sql.text(snapshot_time)}'")
    try:
        connection.execute(
            f"ATTACH 'ducklake:sqlite:{sql.text(str(catalog_path(warehouse)))}' AS {LAKE} "
            f"({', '.join(options)})"
        )
    except duckdb.Error as error:
        connection.close()
        raise WarehouseError(f"cannot open the warehouse at {warehouse}: {error}") from error
    connection.execute(f"USE {LAKE}")
    if not read_only:
        migrate(connection)
    elif snapshot_version is None and snapshot_time is None:
        _require_migrated(connection, warehouse)
    past = snapshot_version is not None or snapshot_time is not None
    if views:
        create_views(connection, skip_missing_tables=past)
    return connection


@functools.cache
def _migration_files() -> list[Path]:
    """The numbered .sql files in the order they apply; they ship with the code."""
    return sorted(MIGRATIONS_DIR.glob("*.sql"))


def migrate(connection: duckdb.DuckDBPyConnection) -> list[str]:
    """Apply the numbered .sql files not applied yet, each recorded, in one transaction each."""
    try:
        applied = {row[0] for row in connection.execute(
            "SELECT name FROM schema_migrations").fetchall()}
    except duckdb.CatalogException:  # a new warehouse (asking first spares every run a DDL)
        connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR, applied_at TIMESTAMPTZ)"
        )
        applied = set()
    done = []
    for path in _migration_files():
        if path.name in applied:
            continue
        connection.execute("BEGIN")
        connection.execute(path.read_text(encoding="utf-8"))
        # Literals, not query parameters: binding one makes duckdb import pandas and numpy.
        connection.execute(
            f"INSERT INTO schema_migrations VALUES ('{sql.text(path.name)}', now())")
        connection.execute(
            f"CALL {LAKE}.set_commit_message('perfledger', '{sql.text(f'migration {path.name}')}')"
        )
        connection.execute("COMMIT")
        done.append(path.name)
    return done


def _require_migrated(connection: duckdb.DuckDBPyConnection, warehouse: Path) -> None:
    """A reader cannot migrate; say what to run instead of failing on a missing table."""
    try:
        applied = {row[0] for row in connection.execute(
            "SELECT name FROM schema_migrations").fetchall()}
    except duckdb.Error:
        applied = set()
    pending = [path.name for path in _migration_files() if path.name not in applied]
    if pending:
        connection.close()
        raise WarehouseError(
            f"the warehouse at {warehouse} predates this version of perfledger "
            f"({', '.join(pending)} not applied); run `perfledger ingest` once to migrate it"
        )


def create_views(
    connection: duckdb.DuckDBPyConnection, *, skip_missing_tables: bool = False
) -> None:
    """Create the public views as temporary views over the attached (possibly past) tables.

    At a past snapshot, a table created by a later migration does not exist yet; the views
    over it are left out rather than failing every query of that time.
    """
    for path in sorted(VIEWS_DIR.glob("*.sql")):
        try:
            connection.execute(path.read_text(encoding="utf-8"))
        except duckdb.CatalogException:
            if not skip_missing_tables:
                raise


@contextlib.contextmanager
def writer_lock(warehouse: Path, wait_s: float = 0.0) -> Iterator[None]:
    """One writer at a time: a second ingest waits up to `wait_s`, then stops with a message."""
    warehouse.mkdir(parents=True, exist_ok=True)
    path = warehouse / ".writer.lock"
    with path.open("a+") as handle:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    raise WarehouseError(
                        f"another ingest is writing to {warehouse} ({holder}); "
                        "wait for it to finish or pass --wait SECONDS"
                    ) from None
                time.sleep(0.2)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
