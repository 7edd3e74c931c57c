"""Open the DuckLake warehouse: extensions from the installed wheels, migrations, views, locking."""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import functools
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb

from perfledger.warehouse import sql
from perfledger.warehouse.single_row import single_value

LAKE = "lake"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
VIEWS_DIR = Path(__file__).resolve().parent / "views"
# DuckDB's extension file name differs from the wheel's for the SQLite scanner.
_EXTENSIONS = {"sqlite": "sqlite_scanner", "ducklake": "ducklake"}


class WarehouseError(RuntimeError):
    """A warehouse problem a user can act on; the message says what to do."""


class ExtensionError(WarehouseError):
    """A DuckDB extension the warehouse needs is not installed or does not load."""


def default_warehouse_dir() -> Path:
    configured = os.environ.get("PERFLEDGER_WAREHOUSE")
    if configured:
        from perfledger.warehouse import location  # a shared location: this machine's folder for it

        return location.resolve(configured)
    data_home = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return data_home / "perfledger" / "warehouse"


# DuckDB's PostgreSQL client names the statement that failed before the cause, verbatim:
# `Failed to execute query "SELECT ...\n FROM ...": server closed the connection ...`.
_FAILED_STATEMENT = re.compile(r'(Failed to (?:execute|prepare) query) ".*": ', re.DOTALL)


def first_line(error: BaseException) -> str:
    """An error's first line (DuckDB's and libpq's go on with hints and the statement),
    with the cause of a failed catalog statement in place of the statement's text, whose
    own first line would otherwise be all that is shown."""
    text = _FAILED_STATEMENT.sub(r"\1: ", str(error).strip())
    return (text.splitlines() or [type(error).__name__])[0]


def catalog_path(warehouse: Path) -> Path:
    return warehouse / "catalog.sqlite"


def require_warehouse(warehouse: Path) -> None:
    """Stop, naming the path, where there is no warehouse: reading never creates one."""
    from perfledger.warehouse import location

    if location.shared(warehouse) is not None:
        return  # a shared warehouse's catalog is asked as it is attached
    try:
        found = catalog_path(warehouse).is_file()
    except OSError:  # a path the system refuses to look into
        found = False
    if not found:
        raise WarehouseError(
            f"no warehouse at {warehouse}: run `perfledger ingest` first or pass --warehouse"
        )


@contextlib.contextmanager
def _creating(warehouse: Path) -> Iterator[None]:
    """A folder that cannot be made or written (/proc/x, /sys/x, a read-only disk) is named
    in a WarehouseError rather than a traceback."""
    try:
        yield
    except OSError as error:
        reason = error.strerror or str(error)
        raise WarehouseError(
            f"cannot write a warehouse at {warehouse}: {reason}"
            + (
                f" ({error.filename})"
                if error.filename and str(error.filename) != str(warehouse)
                else ""
            )
            + "; pass --warehouse with a folder you can write to"
        ) from None


def data_path(warehouse: Path) -> Path:
    return warehouse / "data"


def archive_dir(warehouse: Path) -> Path:
    return warehouse / "archive"


EXTENSIONS_ENV = "PERFLEDGER_EXTENSIONS_DIR"


def extensions_root() -> Path:
    """Where the copies of the installed extension binaries live, shared by every warehouse
    this installation opens (so a warehouse carries none, stays movable and opens offline:
    the copies are made again from the installed packages wherever it is opened). The
    installation's own folder when it can be written, else the user's cache;
    PERFLEDGER_EXTENSIONS_DIR names another."""
    configured = os.environ.get(EXTENSIONS_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    installation = Path(sys.prefix) / "share" / "perfledger" / "duckdb-extensions"
    try:
        installation.mkdir(parents=True, exist_ok=True)
        if os.access(installation, os.W_OK):
            return installation
    except OSError:
        pass
    return Path.home() / ".cache" / "perfledger" / "duckdb-extensions"


def _extension_dir(warehouse: Path, platform: str | None = None) -> Path:
    """Copy the extension binaries shipped in the duckdb-extension-* wheels where DuckDB looks.

    `platform` is DuckDB's name for this machine; asking for it takes a connection of its
    own, which a caller holding one can spare."""
    root = extensions_root()
    target = root / f"v{duckdb.__version__}" / (platform or _platform())
    target.mkdir(parents=True, exist_ok=True)
    for wheel_name, extension_name in _EXTENSIONS.items():
        destination = target / f"{extension_name}.duckdb_extension"
        if destination.exists():
            continue
        source = _installed_extension(wheel_name)
        temporary = destination.with_suffix(f".tmp{os.getpid()}")
        shutil.copyfile(source, temporary)
        os.replace(temporary, destination)
    return root


def installed_extensions() -> list[Path]:
    """The extension binaries of the installed duckdb-extension-* packages; an
    ExtensionError names a package that is missing."""
    paths = [_installed_extension(wheel_name) for wheel_name in _EXTENSIONS]
    for path in paths:
        if not path.is_file():
            raise ExtensionError(f"{path} is missing: reinstall the project's locked requirements")
    return paths


@functools.cache
def _installed_extension(wheel_name: str) -> Path:
    """The extension binary inside its installed duckdb-extension-* package."""
    spec = importlib.util.find_spec(f"duckdb_extension_{wheel_name}")
    if spec is None or spec.origin is None:
        raise ExtensionError(
            f"the package duckdb-extension-{wheel_name}=={duckdb.__version__} is not "
            "installed; install the project's locked requirements"
        )
    return (
        Path(spec.origin).parent
        / "extensions"
        / f"v{duckdb.__version__}"
        / f"{wheel_name}.duckdb_extension"
    )


def _load_installed(
    connection: duckdb.DuckDBPyConnection, wheel_name: str, extension_name: str
) -> None:
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


def _load(
    connection: duckdb.DuckDBPyConnection,
    warehouse: Path,
    read_only: bool,
    wheel_name: str,
    extension_name: str,
) -> None:
    """LOAD one extension: a reader the warehouse's checked copy, a writer the installed one.
    A copy that no longer loads (cut short, or from another DuckDB build) is named, with the
    fix: the copies are made again from the installed packages when missing."""
    try:
        if read_only:
            connection.execute(f"LOAD {extension_name}")
        else:
            _load_installed(connection, wheel_name, extension_name)
    except duckdb.Error as error:
        where = (
            f"the copy in {extensions_root()}"
            if read_only
            else f"the installed package duckdb-extension-{wheel_name}"
        )
        fix = (
            f"delete the folder {extensions_root()}: the next perfledger command "
            "copies the extensions again from the installed packages"
            if read_only
            else "reinstall the project's locked requirements"
        )
        raise ExtensionError(
            f"the DuckDB extension {extension_name} does not load from {where} "
            f"({first_line(error)}); {fix}"
        ) from None


@functools.cache
def _platform() -> str:
    # A connection of its own: duckdb's module-level one is shared by every thread, and two
    # threads opening the warehouse at once read each other's results from it.
    with duckdb.connect() as connection:
        return single_value(connection.execute("PRAGMA platform"))


def connect(
    warehouse: Path,
    *,
    read_only: bool = False,
    snapshot_version: int | None = None,
    snapshot_time: str | None = None,
    views: bool = True,
    require_migrated: bool = True,
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB session with the warehouse attached as `lake` and selected.

    `views=False` leaves out the public views, which the load stage never reads (creating
    them costs a tenth of a second per open). A reader never creates a warehouse: without
    one at `warehouse` it stops with a WarehouseError, as it does when migrations are
    pending, unless `require_migrated=False` (`perfledger doctor` reports them itself)."""
    warehouse = Path(warehouse)
    from perfledger.warehouse import location  # a PostgreSQL catalog with data on object storage

    if (shared := location.shared(warehouse)) is not None:
        return location.connect(
            warehouse,
            shared,
            read_only=read_only,
            views=views,
            snapshot_version=snapshot_version,
            snapshot_time=snapshot_time,
            require_migrated=require_migrated,
        )
    if read_only:
        require_warehouse(warehouse)
    with _creating(warehouse):
        warehouse.mkdir(parents=True, exist_ok=True)
        data_path(warehouse).mkdir(exist_ok=True)
        # A reader loads the copies in the warehouse's extension folder; a writer loads the
        # installed binaries, and copies them there afterwards for the readers.
        extensions = _extension_dir(warehouse) if read_only else extensions_root()
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
    try:
        for wheel_name, extension_name in _EXTENSIONS.items():
            _load(connection, warehouse, read_only, wheel_name, extension_name)
        if not read_only:
            with _creating(warehouse):
                _extension_dir(warehouse, single_value(connection.execute("PRAGMA platform")))
    except BaseException:
        connection.close()
        raise
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
    elif snapshot_version is None and snapshot_time is None and require_migrated:
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
    """Apply the numbered .sql files not applied yet, each recorded: in one transaction each,
    or all in one for a new warehouse."""
    try:
        applied = {
            row[0] for row in connection.execute("SELECT name FROM schema_migrations").fetchall()
        }
    except duckdb.CatalogException:  # a new warehouse (asking first spares every run a DDL)
        connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name VARCHAR, applied_at TIMESTAMPTZ)"
        )
        applied = set()
    pending = [path for path in _migration_files() if path.name not in applied]
    if not applied and len(pending) > 1 and _applied_together(connection, pending):
        return [path.name for path in pending]
    for path in pending:
        _apply(connection, [path], f"migration {path.name}")
    return [path.name for path in pending]


def _applied_together(connection: duckdb.DuckDBPyConnection, pending: list[Path]) -> bool:
    """Every migration of a new warehouse in one transaction: one catalog commit rather than
    one per file, which takes two thirds of the time to create a warehouse. Should the catalog
    refuse to take them together, nothing is applied and each is applied alone, as for a
    warehouse that has some."""
    try:
        _apply(connection, pending, f"migrations {pending[0].name} to {pending[-1].name}")
    except duckdb.Error:
        return False
    return True


def _apply(connection: duckdb.DuckDBPyConnection, paths: list[Path], message: str) -> None:
    """Apply `paths` and record each, in one transaction."""
    connection.execute("BEGIN")
    try:
        for path in paths:
            connection.execute(path.read_text(encoding="utf-8"))
            # Literals, not query parameters: binding one makes duckdb import pandas and numpy.
            connection.execute(
                f"INSERT INTO schema_migrations VALUES ('{sql.text(path.name)}', now())"
            )
        connection.execute(f"CALL {LAKE}.set_commit_message('perfledger', '{sql.text(message)}')")
        confirm_writer_lock()
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # the error to report is the one above
            connection.execute("ROLLBACK")
        raise


def applied_migrations(connection: duckdb.DuckDBPyConnection) -> set[str]:
    """The names of the migrations the attached warehouse records as applied."""
    try:
        return {
            row[0]
            for row in connection.execute(
                f"SELECT name FROM {LAKE}.main.schema_migrations"
            ).fetchall()
        }
    except duckdb.CatalogException:  # a new warehouse: no table yet
        return set()


def pending_migrations(connection: duckdb.DuckDBPyConnection) -> list[str]:
    """The migrations shipped with this version that the attached warehouse lacks."""
    applied = applied_migrations(connection)
    return [path.name for path in _migration_files() if path.name not in applied]


def _require_migrated(connection: duckdb.DuckDBPyConnection, warehouse: Path | str) -> None:
    """A reader cannot migrate; say what to run instead of failing on a missing table.
    `warehouse`: its folder, or how a shared warehouse is named."""
    pending = pending_migrations(connection)
    if pending:
        connection.close()
        raise WarehouseError(
            f"the warehouse at {warehouse} predates this version of perfledger "
            f"({', '.join(pending)} not applied); run `perfledger ingest` once to migrate it"
        )


def current_snapshot(connection: duckdb.DuckDBPyConnection) -> int:
    return single_value(connection.execute(f"SELECT id FROM {LAKE}.current_snapshot()"))


def table_count(connection: duckdb.DuckDBPyConnection) -> int:
    """The warehouse's tables, as the catalog lists them."""
    return single_value(
        connection.execute(
            f"SELECT count(*) FROM information_schema.tables WHERE table_catalog = '{LAKE}'"
        )
    )


def create_views(
    connection: duckdb.DuckDBPyConnection, *, skip_missing_tables: bool = False
) -> None:
    """Create the public views as temporary views over the attached (possibly past) tables.

    At a past snapshot, a table (or a column) created by a later migration does not exist
    yet; the views over it are left out rather than failing every query of that time.
    """
    for path in sorted(VIEWS_DIR.glob("*.sql")):
        try:
            connection.execute(path.read_text(encoding="utf-8"))
        except (duckdb.CatalogException, duckdb.BinderException):
            if not skip_missing_tables:
                raise


@contextlib.contextmanager
def writer_lock(
    warehouse: Path, wait_s: float = 0.0, waiting: Callable[[str], None] = lambda message: None
) -> Iterator[None]:
    """One writer at a time: a second ingest waits up to `wait_s` (saying so once to
    `waiting`), then stops with a message."""
    from perfledger.warehouse import location

    if (shared := location.shared(warehouse)) is not None:
        # A PostgreSQL advisory lock, which a server restart or a killed session takes away
        # while the run goes on: every commit asks first that it is still held.
        with location.writer_lock(shared, wait_s, waiting) as still_held:
            token = _LOCK_CHECK.set(still_held)
            try:
                yield
            finally:
                _LOCK_CHECK.reset(token)
        return
    path = warehouse / ".writer.lock"
    with _creating(warehouse):
        warehouse.mkdir(parents=True, exist_ok=True)
        handle = path.open("a+")
    with handle:
        deadline = time.monotonic() + wait_s
        told = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                if not told and wait_s > 0:
                    waiting(
                        f"another ingest is writing to {warehouse} ({holder}): waiting "
                        f"up to {wait_s:g} s for it to finish"
                    )
                    told = True
                if time.monotonic() >= deadline:
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


_LOCK_CHECK: contextvars.ContextVar[Callable[[], None]] = contextvars.ContextVar(
    "perfledger_writer_lock_check", default=lambda: None
)


def confirm_writer_lock() -> None:
    """Raise WarehouseError when this run's writer lock is no longer held (a folder's lock
    cannot be lost while its process lives); called right before a commit."""
    _LOCK_CHECK.get()()


@dataclass(frozen=True)
class DataFile:
    """A Parquet file the catalog refers to: of the current snapshot, or kept for time travel."""

    table: str
    kind: str  # "data" or "delete"
    path: Path
    size: int  # bytes, as the catalog records them
    first_snapshot: int
    last_snapshot: int | None  # the last snapshot that reads it; None: the current one too

    @property
    def current(self) -> bool:
        return self.last_snapshot is None


# Every data and delete file the catalog refers to, with its table: DuckLake's own tables in
# the catalog (https://ducklake.select/docs/stable/specification/tables/overview). A
# relative path is relative to its table's, that to its schema's, that to the data folder.
_CATALOG_FILES = """
WITH tables AS (
    SELECT table_id, table_name, path, path_is_relative, schema_id
    FROM {meta}.ducklake_table
    QUALIFY row_number() OVER (PARTITION BY table_id ORDER BY begin_snapshot DESC) = 1
), schemas AS (
    SELECT schema_id, path, path_is_relative
    FROM {meta}.ducklake_schema
    QUALIFY row_number() OVER (PARTITION BY schema_id ORDER BY begin_snapshot DESC) = 1
), files AS (
    SELECT table_id, 'data' AS kind, path, path_is_relative, file_size_bytes,
           begin_snapshot, end_snapshot
    FROM {meta}.ducklake_data_file
    UNION ALL
    SELECT table_id, 'delete', path, path_is_relative, file_size_bytes, begin_snapshot,
           end_snapshot
    FROM {meta}.ducklake_delete_file
)
SELECT t.table_name, f.kind,
       CASE WHEN NOT f.path_is_relative THEN f.path
            WHEN NOT t.path_is_relative THEN t.path || f.path
            WHEN NOT s.path_is_relative THEN s.path || t.path || f.path
            ELSE {data} || s.path || t.path || f.path END,
       f.file_size_bytes, f.begin_snapshot, f.end_snapshot - 1
FROM files AS f
JOIN tables AS t USING (table_id)
JOIN schemas AS s ON s.schema_id = t.schema_id
ORDER BY f.end_snapshot IS NOT NULL, t.table_name, f.kind, f.begin_snapshot, 3
"""


def data_files(connection: duckdb.DuckDBPyConnection, warehouse: Path) -> list[DataFile]:
    """Every file the attached warehouse's catalog refers to, current ones first."""
    return [
        DataFile(table, kind, Path(path), size, first, last)
        for table, kind, path, size, first, last in catalog_file_rows(
            connection, str(data_path(Path(warehouse))) + "/"
        )
    ]


def catalog_file_rows(connection: duckdb.DuckDBPyConnection, data: str) -> list[tuple]:
    """(table, kind, path, bytes, first snapshot, last snapshot) of every file the catalog
    refers to, a relative path read against the data path `data`."""
    return connection.execute(
        _CATALOG_FILES.format(meta=f"__ducklake_metadata_{LAKE}", data=sql.literal(data))
    ).fetchall()


def data_file_problem(file: DataFile) -> str | None:
    """What is wrong with a file on disk (missing, unreadable, of another size than the
    catalog records, not a whole Parquet file), or None. Reads its first and last bytes."""
    try:
        with file.path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size != file.size:
                return f"{size:,} bytes where the catalog records {file.size:,}"
            head = handle.read(4)
            handle.seek(max(size - 4, 0))
            tail = handle.read(4)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        return f"unreadable ({error.strerror or error})"
    if head != b"PAR1" or tail != b"PAR1":
        return "not a whole Parquet file"
    return None
