"""Where a warehouse is: a folder (the default), or shared by several machines.

A folder holds everything: the SQLite catalog, the Parquet data, the raw archive. A shared
warehouse is a PostgreSQL catalog plus a data path on object storage, named by one value:

    postgres://[USER@]HOST[:PORT]/DBNAME?data=s3://BUCKET/PREFIX[&schema=NAME][&sslmode=...]

or by a small TOML file (`--warehouse team.toml`) in DuckLake's own terms:

    catalog = "postgres:dbname=perfledger host=db.internal port=5432 user=perfledger"
    data = "s3://team-bucket/perfledger/"
    schema = "main"                    # optional: DuckLake's METADATA_SCHEMA
    local = "/var/lib/perfledger/team" # optional: this machine's folder (see below)

Both become `ATTACH 'ducklake:postgres:<catalog>' AS lake (DATA_PATH '<data>', ...)`.
Credentials never appear in either: a password in one is refused. PostgreSQL takes them from
libpq's own sources (PGPASSWORD, PGPASSFILE or ~/.pgpass, PGSSL*, a service file) and S3 from
the AWS_* variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
AWS_REGION or AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL), made into a
temporary DuckDB secret that lives in the session's memory only; without AWS keys in the
environment DuckDB's own (persistent) secrets apply.

Each machine keeps a local folder for its side of a shared warehouse: the copies of the
DuckDB extensions, its copies of the raw archive (on the bucket under archive/, see
sources/remote_archive.py) and of the settings files (under settings/, see
warehouse/shared_settings.py), and `location.toml` naming the shared catalog and data (no
credential). Every
function that takes a warehouse folder takes that folder: the CLI resolves the location to
it (`resolve`), and `lake.connect` and `lake.writer_lock` turn to this module when the
folder holds a `location.toml`. By default the folder is
$XDG_DATA_HOME/perfledger/shared/<host>-<port>-<dbname>-<hash of the location>.

One writer at a time holds a PostgreSQL advisory lock (`writer_lock`): DuckLake's own
conflict checks let two transactions that each read "document not stored yet" both insert
it, so they do not give an ingest's read-then-write the guarantee it needs.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, LiteralString
from urllib.parse import parse_qsl, unquote, urlsplit

import duckdb

from perfledger.sources.object_store import store_at
from perfledger.warehouse import lake, sql
from perfledger.warehouse.single_row import single_value

if TYPE_CHECKING:  # imported where a shared warehouse needs it
    import psycopg

LOCATION_FILE = "location.toml"
# The extensions a shared warehouse needs (wheel name: DuckDB's name); httpfs only for data
# on object storage.
_CATALOG_EXTENSIONS = {"ducklake": "ducklake", "postgres_scanner": "postgres_scanner"}
_OBJECT_STORE_EXTENSIONS = {"httpfs": "httpfs"}
_URL_SCHEMES = ("postgres://", "postgresql://")
_DATA_SCHEMES = ("s3://",)
# libpq connection keywords a URL may carry besides host, port, user and dbname; the
# password is never one of them.
_LIBPQ_OPTIONS = frozenset(
    {
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "sslcrl",
        "passfile",
        "connect_timeout",
        "application_name",
        "target_session_attrs",
        "options",
        "service",
        "gssencmode",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
    }
)
_SECRET_KEYWORDS = frozenset({"password", "sslpassword"})
_KEYWORD = re.compile(r"\s*([A-Za-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s']*)")
# The lock is per catalog database (PostgreSQL's advisory locks are), named by the schema
# holding DuckLake's tables, so every machine takes the same one however it spells the host.
_LOCK_NAMESPACE = b"perfledger writer\0"
# Whether this session holds an advisory lock on a bigint key, by the key's high and low
# halves (pg_locks lists such a lock as classid, objid and objsubid 1).
_LOCK_HELD: LiteralString = (
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND pid = pg_backend_pid() AND objsubid = 1 AND classid = %s::bigint::oid "
    "AND objid = %s::bigint::oid)"
)
_LOCK_SESSION_SETTINGS: tuple[LiteralString, ...] = (
    "SET idle_session_timeout = 0",
    "SET tcp_keepalives_idle = 30",
    "SET tcp_keepalives_interval = 10",
    "SET tcp_keepalives_count = 3",
)


class LocationError(lake.WarehouseError):
    """A warehouse location that cannot be read; the message says how to write it."""


@dataclass(frozen=True)
class SharedLocation:
    """A PostgreSQL catalog (libpq keywords, no password) and the data path it records."""

    catalog: dict[str, str]
    data: str  # the warehouse's prefix (s3://BUCKET/PREFIX/ or a folder); ends in "/"
    schema: str | None = None

    # Under the prefix, as in a warehouse folder: DuckLake's Parquet files in data/, the raw
    # archive in archive/. Apart, since DuckLake deletes any file in its data path that its
    # catalog does not name (ducklake_delete_orphaned_files, run by `compact`).
    @property
    def lake_data(self) -> str:
        return f"{self.data}data/"

    @property
    def archive(self) -> str:
        return f"{self.data}archive/"

    @property
    def conninfo(self) -> str:
        """The libpq connection string: what DuckLake's `ducklake:postgres:` and psycopg take."""
        return " ".join(f"{key}={_quoted(value)}" for key, value in self.catalog.items())

    def display(self) -> str:
        """The location as a user writes it, for messages: nothing secret is in it."""
        host = self.catalog.get("host", "")
        if ":" in host:
            host = f"[{host}]"
        port = f":{self.catalog['port']}" if "port" in self.catalog else ""
        user = f"{self.catalog['user']}@" if "user" in self.catalog else ""
        query = f"?data={self.data.rstrip('/')}"
        if self.schema:
            query += f"&schema={self.schema}"
        return f"postgres://{user}{host}{port}/{self.catalog.get('dbname', '')}{query}"

    def identity(self) -> str:
        """What names one warehouse: where its catalog and data are, not who connects."""
        parts = [self.catalog.get(key, "") for key in ("host", "port", "dbname", "service")]
        return "\0".join([*parts, self.schema or "", self.data])

    def default_local_dir(self) -> Path:
        data_home = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
        name = "-".join(
            part
            for part in (
                self.catalog.get("host") or self.catalog.get("service") or "local",
                self.catalog.get("port", ""),
                self.catalog.get("dbname", ""),
                self.schema or "",
            )
            if part
        )
        digest = hashlib.sha256(self.identity().encode()).hexdigest()[:10]
        return data_home / "perfledger" / "shared" / f"{_safe(name)}-{digest}"

    @property
    def settings(self) -> str:
        """Where the settings kept beside a catalog live (warehouse/shared_settings.py)."""
        return f"{self.data}settings/"

    def lock_key(self, purpose: bytes = b"") -> int:
        """The advisory lock of the warehouse's writer; `purpose` names another lock of it."""
        digest = hashlib.sha256(_LOCK_NAMESPACE + purpose + (self.schema or "").encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)

    def file_text(self) -> str:
        lines = [
            "# This folder is this machine's side of a shared perfledger warehouse: the",
            "# catalog and data named below, the raw archive of the pages read here, and",
            "# the extension copies. No credential is kept here (see warehouse/location.py).",
            f"location = {_toml_string(self.display())}",
            f"catalog = {_toml_string('postgres:' + self.conninfo)}",
            f"data = {_toml_string(self.data)}",
        ]
        if self.schema:
            lines.append(f"schema = {_toml_string(self.schema)}")
        return "\n".join(lines) + "\n"


def is_location_text(value: str) -> bool:
    """True for a value naming a shared warehouse (a URL or a .toml file), not a folder."""
    return value.startswith(_URL_SCHEMES) or value.endswith(".toml")


def resolve(value: str | os.PathLike) -> Path:
    """The local folder for a --warehouse value: a folder as given; for a shared location,
    this machine's folder for it, with its `location.toml` written."""
    if isinstance(value, Path) or not is_location_text(str(value)):
        return Path(value).expanduser()
    text = str(value)
    if text.startswith(_URL_SCHEMES):
        location, local = parse_url(text), None
    else:
        location, local = parse_file(Path(text).expanduser())
    folder = local or location.default_local_dir()
    _write_location(folder, location)
    return folder


def shared(warehouse: Path) -> SharedLocation | None:
    """The shared location a warehouse folder stands for, or None for a folder warehouse."""
    path = Path(warehouse) / LOCATION_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise lake.WarehouseError(f"cannot read {path}: {error.strerror or error}") from None
    location, _local = _from_table(_toml(text, path), path)
    return location


def archive_url(warehouse: Path) -> str | None:
    """Where a shared warehouse keeps its raw archive (s3://BUCKET/PREFIX/archive/, or a
    folder every machine mounts); None for a folder warehouse, whose archive is its own."""
    location = shared(Path(warehouse))
    return None if location is None else location.archive


def parse_url(url: str) -> SharedLocation:
    """postgres://[USER@]HOST[:PORT]/DBNAME?data=s3://BUCKET/PREFIX[&schema=..][&sslmode=..]"""
    example = "postgres://HOST:5432/DBNAME?data=s3://BUCKET/PREFIX"
    try:
        parts = urlsplit(url)
        port = parts.port
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError as error:
        raise LocationError(
            f"cannot read the warehouse location ({error}): write it as {example}"
        ) from None
    if parts.password is not None:
        raise LocationError(
            "the warehouse location holds a password: remove it and set PGPASSWORD (or use "
            "~/.pgpass) instead, so that it is never written down or shown"
        )
    catalog: dict[str, str] = {}
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or "/" in dbname:
        raise LocationError(
            f"the warehouse location {_without_secrets(url)} names no "
            f"database: write it as {example}"
        )
    catalog["dbname"] = dbname
    if parts.hostname:
        catalog["host"] = unquote(parts.hostname)
    if port is not None:
        catalog["port"] = str(port)
    if parts.username:
        catalog["user"] = unquote(parts.username)
    options = dict(query)
    if len(options) != len(query):
        raise LocationError(f"the warehouse location {_without_secrets(url)} repeats a parameter")
    data = options.pop("data", None)
    schema = options.pop("schema", None) or None
    for key, value in options.items():
        if key in _SECRET_KEYWORDS:
            raise LocationError(
                f"the warehouse location holds a {key}: remove it and set it in the "
                "environment (PGPASSWORD, ~/.pgpass) instead"
            )
        if key not in _LIBPQ_OPTIONS:
            raise LocationError(
                f"the warehouse location has an unknown parameter {key!r}: it takes data=, "
                f"schema= and the libpq options {', '.join(sorted(_LIBPQ_OPTIONS))}"
            )
        catalog[key] = value
    return SharedLocation(catalog, _data_path(data, _without_secrets(url)), _schema(schema))


def parse_file(path: Path) -> tuple[SharedLocation, Path | None]:
    """A TOML file naming `catalog` (DuckLake's `postgres:` form or a postgres:// URL), `data`,
    and optionally `schema` and `local`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise LocationError(f"cannot read {path}: {error.strerror or error}") from None
    return _from_table(_toml(text, path), path)


def _from_table(table: dict, path: Path) -> tuple[SharedLocation, Path | None]:
    catalog = table.get("catalog")
    if not isinstance(catalog, str) or not catalog.strip():
        raise LocationError(
            f'{path} names no catalog: write catalog = "postgres:dbname=DB host=HOST" and '
            'data = "s3://BUCKET/PREFIX/"'
        )
    local = table.get("local")
    local_dir = Path(local).expanduser() if isinstance(local, str) and local else None
    if catalog.startswith(_URL_SCHEMES):
        url = parse_url(catalog)
        data = table.get("data") or url.data
        return (
            SharedLocation(
                url.catalog, _data_path(data, str(path)), _schema(table.get("schema") or url.schema)
            ),
            local_dir,
        )
    if catalog.startswith("ducklake:"):
        catalog = catalog.removeprefix("ducklake:")
    if not catalog.startswith("postgres:"):
        raise LocationError(
            f"{path}: the catalog {catalog.split(':')[0]!r} is not supported; a shared "
            'warehouse\'s catalog is PostgreSQL: catalog = "postgres:dbname=DB host=HOST"'
        )
    keywords = parse_conninfo(catalog.removeprefix("postgres:"), str(path))
    return (
        SharedLocation(
            keywords, _data_path(table.get("data"), str(path)), _schema(table.get("schema"))
        ),
        local_dir,
    )


def parse_conninfo(text: str, where: str) -> dict[str, str]:
    """libpq's `key=value key='quoted value'` form, refusing a password."""
    keywords: dict[str, str] = {}
    position = 0
    text = text.strip()
    while position < len(text):
        match = _KEYWORD.match(text, position)
        if match is None:
            raise LocationError(
                f"{where}: cannot read the catalog's connection string near "
                f"{text[position : position + 20]!r}"
            )
        key, value = match.group(1).lower(), match.group(2)
        if value.startswith("'"):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        if key in _SECRET_KEYWORDS:
            raise LocationError(
                f"{where}: the catalog's connection string holds a {key}: remove it and set "
                "PGPASSWORD (or use ~/.pgpass) instead, so that it is never written down"
            )
        keywords[key] = value
        position = match.end()
        while position < len(text) and text[position].isspace():
            position += 1
    if "dbname" not in keywords and "service" not in keywords:
        raise LocationError(f"{where}: the catalog's connection string names no dbname")
    return keywords


def connect(
    warehouse: Path,
    location: SharedLocation,
    *,
    read_only: bool = False,
    snapshot_version: int | None = None,
    snapshot_time: str | None = None,
    views: bool = True,
    require_migrated: bool = True,
) -> duckdb.DuckDBPyConnection:
    """`lake.connect` for a shared warehouse: the same session, attached to PostgreSQL and
    the object store instead of the folder's SQLite catalog and data."""
    extensions = dict(_CATALOG_EXTENSIONS)
    if location.data.startswith(_DATA_SCHEMES):
        extensions.update(_OBJECT_STORE_EXTENSIONS)
    with lake._creating(warehouse):
        warehouse.mkdir(parents=True, exist_ok=True)
        # As for a folder: a reader loads the checked copies, a writer the installed binaries.
        extension_dir = (
            _extension_dir(warehouse, extensions) if read_only else lake.extensions_root()
        )
    connection = duckdb.connect(
        config={
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "extension_directory": str(extension_dir),
            "allow_unsigned_extensions": not read_only,
            "preserve_insertion_order": True,
        }
    )
    try:
        for wheel_name, extension_name in extensions.items():
            lake._load(connection, warehouse, read_only, wheel_name, extension_name)
        if not read_only:
            with lake._creating(warehouse):
                _extension_dir(
                    warehouse, extensions, single_value(connection.execute("PRAGMA platform"))
                )
        _create_secrets(connection, location)
        if "httpfs" in extensions.values():
            _ride_out_object_store_faults(connection)
        if not read_only:
            _end_writer_with_its_catalog_sessions(connection)
        connection.execute(
            f"ATTACH '{sql.text(attach_target(location, read_only))}' AS {lake.LAKE} "
            f"({', '.join(attach_options(location, read_only, snapshot_version, snapshot_time))})"
        )
        connection.execute(f"USE {lake.LAKE}")
        # In the try: a new warehouse's migrations are its first writes to the object store,
        # and a store that fails them is named as a catalog that fails the attach is.
        if not read_only:
            lake.migrate(connection)
        elif snapshot_version is None and snapshot_time is None and require_migrated:
            lake._require_migrated(connection, location.display())
        if views:
            lake.create_views(
                connection,
                skip_missing_tables=snapshot_version is not None or snapshot_time is not None,
            )
    except duckdb.Error as error:
        connection.close()
        raise _open_error(location, read_only, error) from None
    except BaseException:
        connection.close()
        raise
    return connection


def attach_target(location: SharedLocation, read_only: bool = False) -> str:
    """`ducklake:postgres:<libpq keywords>`; a reader's sessions are read-only on the server
    too, so that no SQL reaching the catalog through the scanner can change it."""
    keywords = dict(location.catalog)
    if read_only:
        options = keywords.get("options", "")
        keywords["options"] = f"{options} -c default_transaction_read_only=on".strip()
    return "ducklake:postgres:" + SharedLocation(keywords, location.data).conninfo


def attach_options(
    location: SharedLocation,
    read_only: bool,
    snapshot_version: int | None = None,
    snapshot_time: str | None = None,
) -> list[str]:
    options = [f"DATA_PATH '{sql.text(location.lake_data)}'"]
    if location.schema:
        options.append(f"METADATA_SCHEMA '{sql.text(location.schema)}'")
    if read_only:
        options.append("READ_ONLY")
    else:
        options.append("DATA_INLINING_ROW_LIMIT 0")
    if snapshot_version is not None:
        options.append(f"SNAPSHOT_VERSION {int(snapshot_version)}")
    if snapshot_time is not None:
        options.append(f"SNAPSHOT_TIME '{sql.text(snapshot_time)}'")
    return options


def s3_secret_options(
    location: SharedLocation, environ: dict[str, str] | None = None
) -> dict[str, str] | None:
    """The options of the DuckDB S3 secret made from the AWS_* variables, or None where they
    hold no key (DuckDB's own secrets then apply). Values for the statement only: never
    logged."""
    env = os.environ if environ is None else environ
    if not location.data.startswith("s3://") or not env.get("AWS_ACCESS_KEY_ID"):
        return None
    bucket = location.data.removeprefix("s3://").split("/", 1)[0]
    options = {
        "TYPE": "s3",
        "KEY_ID": env["AWS_ACCESS_KEY_ID"],
        "SECRET": env.get("AWS_SECRET_ACCESS_KEY", ""),
        "REGION": env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
        "SCOPE": f"s3://{bucket}",
    }
    if env.get("AWS_SESSION_TOKEN"):
        options["SESSION_TOKEN"] = env["AWS_SESSION_TOKEN"]
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    if endpoint:
        parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        options["ENDPOINT"] = parts.netloc
        options["USE_SSL"] = "false" if parts.scheme == "http" else "true"
        # S3 APIs other than AWS's (MinIO, Ceph, moto) are addressed by path.
        options["URL_STYLE"] = env.get("PERFLEDGER_S3_URL_STYLE", "path")
    return options


def _create_secrets(connection: duckdb.DuckDBPyConnection, location: SharedLocation) -> None:
    options = s3_secret_options(location)
    if options is None:
        return
    listed = ", ".join(
        f"{key} {value}" if key in ("TYPE", "USE_SSL") else f"{key} '{sql.text(value)}'"
        for key, value in options.items()
    )
    try:
        connection.execute(f"CREATE OR REPLACE TEMPORARY SECRET perfledger_s3 ({listed})")
    except duckdb.Error as error:
        # The statement holds the keys: only DuckDB's first line, which names none, is shown.
        raise lake.WarehouseError(
            f"cannot make a DuckDB S3 secret from the AWS_* variables: {lake.first_line(error)}"
        ) from None


def _open_error(
    location: SharedLocation, read_only: bool, error: duckdb.Error
) -> lake.WarehouseError:
    reason = lake.first_line(error)
    if read_only and (
        "read-only" in reason.lower()
        or "read only" in reason.lower()
        or "does not exist" in reason.lower()
    ):
        return lake.WarehouseError(
            f"no warehouse at {location.display()} ({reason}): run `perfledger ingest "
            "--warehouse ...` first"
        )
    return lake.WarehouseError(
        f"cannot open the warehouse at {location.display()}: {reason}. Check that PostgreSQL "
        "answers there and its credentials are in the environment (PGUSER, PGPASSWORD or "
        "~/.pgpass), and the object store's in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and "
        "AWS_ENDPOINT_URL"
    )


@contextlib.contextmanager
def writer_lock(
    location: SharedLocation,
    wait_s: float = 0.0,
    waiting: Callable[[str], None] = lambda message: None,
) -> Iterator[Callable[[], None]]:
    """One writer at a time across machines: a PostgreSQL session-level advisory lock on the
    catalog database, held on a connection of its own for the whole run; a second ingest
    waits up to `wait_s`, then stops naming the holder. The lock goes with its session, so a
    writer that dies (or whose machine does) frees it. Yields a check that raises
    WarehouseError once the lock is gone (its session ended by a server restart, say)."""
    key = location.lock_key()

    def busy(session: psycopg.Connection) -> str:
        return (
            f"another ingest is writing to {location.display()} "
            f"({_lock_holder(session, key)}); wait for it to finish or pass --wait SECONDS"
        )

    holder_name = f"perfledger writer on {socket.gethostname()} pid {os.getpid()}"[:63]

    # The session sits idle for the whole run: never ended for that, and ended within about a
    # minute of its machine vanishing (the server's keepalives), so that a writer whose
    # machine died holds the lock no longer than that.
    def waits(session: psycopg.Connection) -> None:
        waiting(
            f"another ingest is writing to {location.display()} "
            f"({_lock_holder(session, key)}): waiting up to {wait_s:g} s for it to finish"
        )

    with _advisory_lock(
        location, key, holder_name, wait_s, "the writer lock", busy, _LOCK_SESSION_SETTINGS, waits
    ) as session:
        import psycopg

        def still_held() -> None:
            try:
                held = single_value(
                    session.execute(_LOCK_HELD, [(key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF])
                )
            except psycopg.Error as error:
                raise lake.WarehouseError(
                    f"this run lost the writer lock of {location.display()} (its session "
                    f"ended: {lake.first_line(error)}); nothing of it was committed: run it "
                    "again"
                ) from None
            if not held:
                raise lake.WarehouseError(
                    f"this run no longer holds the writer lock of {location.display()}; "
                    "nothing of it was committed: run it again"
                )

        yield still_held


@contextlib.contextmanager
def _advisory_lock(
    location: SharedLocation,
    key: int,
    session_name: str,
    wait_s: float,
    what: str,
    busy: Callable[[psycopg.Connection], str],
    settings: tuple[LiteralString, ...] = (),
    waits: Callable[[psycopg.Connection], None] = lambda session: None,
) -> Iterator[psycopg.Connection]:
    """A session-level advisory lock `key` on the catalog database, on a psycopg session of
    its own named `session_name`, tried until `wait_s` runs out (then WarehouseError with
    `busy(session)`); yields the session, and frees the lock when done. The lock goes with
    its session."""
    try:
        import psycopg
    except ImportError:
        raise lake.WarehouseError(
            f"a shared warehouse's {what.removeprefix('the ')} needs the package psycopg: "
            "install the project's locked requirements"
        ) from None
    try:
        session = psycopg.connect(location.conninfo, autocommit=True, application_name=session_name)
    except psycopg.Error as error:
        raise lake.WarehouseError(
            f"cannot reach the catalog of {location.display()} to take {what}: "
            f"{lake.first_line(error)}"
        ) from None
    with session:
        for setting in settings:
            with contextlib.suppress(psycopg.Error):
                session.execute(setting)
        deadline = time.monotonic() + wait_s
        told = False
        while not single_value(session.execute("SELECT pg_try_advisory_lock(%s)", [key])):
            if time.monotonic() >= deadline:
                raise lake.WarehouseError(busy(session))
            if not told:
                waits(session)  # once, when a wait begins
                told = True
            time.sleep(0.2)
        try:
            yield session
        finally:
            with contextlib.suppress(psycopg.Error):
                session.execute("SELECT pg_advisory_unlock(%s)", [key])


def _lock_holder(session: psycopg.Connection, key: int) -> str:
    """Who holds the lock, as PostgreSQL knows it (a bigint key is split in two)."""
    high, low = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF
    try:
        row = session.execute(
            """SELECT a.application_name, a.client_addr::text, a.backend_start
               FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
               WHERE l.locktype = 'advisory' AND l.granted AND l.database = (
                   SELECT oid FROM pg_database WHERE datname = current_database())
                 AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.objsubid = 1""",
            [high, low],
        ).fetchone()
    except Exception:  # a role that may not read pg_stat_activity: say less
        row = None
    if not row:
        return "another process"
    name, address, started = row
    where = f" from {address}" if address else ""
    return f"{name or 'a session'}{where}, connected since {started:%Y-%m-%d %H:%M:%S %Z}"


def _extension_dir(
    warehouse: Path, extensions: dict[str, str], platform: str | None = None
) -> Path:
    """As lake._extension_dir, for the shared warehouse's extensions."""
    root = lake.extensions_root()
    target = root / f"v{duckdb.__version__}" / (platform or lake._platform())
    target.mkdir(parents=True, exist_ok=True)
    for wheel_name, extension_name in extensions.items():
        destination = target / f"{extension_name}.duckdb_extension"
        if destination.exists():
            continue
        temporary = destination.with_suffix(f".tmp{os.getpid()}")
        temporary.write_bytes(lake._installed_extension(wheel_name).read_bytes())
        os.replace(temporary, destination)
    return root


def _write_location(folder: Path, location: SharedLocation) -> None:
    text = location.file_text()
    path = folder / LOCATION_FILE
    with lake._creating(folder):
        folder.mkdir(parents=True, exist_ok=True)
        try:
            if path.read_text(encoding="utf-8") == text:
                return
            existing = shared(folder)
        except FileNotFoundError:
            existing = None
        if existing is not None and existing.identity() != location.identity():
            raise LocationError(
                f"{folder} already belongs to the shared warehouse {existing.display()}; "
                f"name another folder for {location.display()} (local = ... in a .toml file)"
            )
        temporary = path.with_suffix(f".tmp{os.getpid()}")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)


def _data_path(data, where: str) -> str:
    if not isinstance(data, str) or not data.strip():
        raise LocationError(
            f"{where} names no data path: add data=s3://BUCKET/PREFIX (the Parquet files of "
            "a shared warehouse live on object storage)"
        )
    data = data.strip()
    if not data.startswith(_DATA_SCHEMES) and not data.startswith("/"):
        raise LocationError(
            f"{where}: the data path {data!r} is neither s3://BUCKET/PREFIX nor an absolute "
            "folder every machine mounts"
        )
    if data.startswith("s3://") and not data.removeprefix("s3://").split("/")[0]:
        raise LocationError(f"{where}: the data path {data!r} names no bucket")
    return data.rstrip("/") + "/"


def _schema(schema) -> str | None:
    if schema is None or schema == "":
        return None
    if not isinstance(schema, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", schema):
        raise LocationError(f"the schema {schema!r} is not a plain SQL name")
    return schema


def _toml(text: str, path: Path) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LocationError(f"cannot read {path}: {error}") from None


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _quoted(value: str) -> str:
    if value and not re.search(r"[\s'\\]", value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "warehouse"


def _without_secrets(url: str) -> str:
    return re.sub(r"//[^/@]*@", "//", url)


def _ride_out_object_store_faults(connection: duckdb.DuckDBPyConnection) -> None:
    """Retry each object store request for about six seconds: S3 answers 500 or 503 now and
    then, and for a while when it is busy. DuckDB's default (3 retries, 0.5 s in all) gives
    up on a store that stumbles for a second, failing the whole run; a store that stays down
    still fails it, a few seconds later, with DuckDB's own message. Waits between attempts:
    none, then 0.2 s doubling (0.2, 0.4, 0.8, 1.6, 3.2)."""
    for setting in ("http_retries = 6", "http_retry_wait_ms = 200", "http_retry_backoff = 2"):
        connection.execute(f"SET {setting}")


def _end_writer_with_its_catalog_sessions(connection: duckdb.DuckDBPyConnection) -> None:
    """A writer's catalog sessions fail when their server goes away, rather than being
    replaced. The writer lock lives in a session of its own on the same server (see
    `writer_lock`): a restart ends it too, and another ingest may take the lock at once.
    The PostgreSQL scanner's pool would otherwise check each session it hands out with a
    query and quietly open a new one in place of a dead one, and the run would commit
    without the lock. Without the check, the run's next catalog statement fails instead, and
    its transaction with it: nothing of the run reaches the catalog. A reader takes no lock,
    and keeps the check."""
    connection.execute("SET pg_pool_health_check_query = ''")


def data_file_problems(
    connection: duckdb.DuckDBPyConnection, location: SharedLocation
) -> tuple[list[lake.DataFile], list[tuple[lake.DataFile, str]]]:
    """Every file the catalog refers to (its path relative to the data path), and those the
    object store lacks or holds at another size than the catalog records."""
    stored = store_at(location.lake_data).sizes()
    files, broken = [], []
    for table, kind, path, size, first, last in lake.catalog_file_rows(
        connection, location.lake_data
    ):
        relative = path.removeprefix(location.lake_data)
        file = lake.DataFile(table, kind, Path(relative), size, first, last)
        files.append(file)
        found = stored.get(relative)
        if found is None:
            broken.append((file, "missing"))
        elif found != size:
            broken.append((file, f"{found:,} bytes where the catalog records {size:,}"))
    return files, broken


@contextlib.contextmanager
def settings_lock(location: SharedLocation, wait_s: float = 60.0) -> Iterator[None]:
    """One machine at a time edits the settings of a shared warehouse (a PostgreSQL
    advisory lock of its own, so that an edit never waits for a long ingest)."""

    def busy(_session: psycopg.Connection) -> str:
        return (
            f"another machine has been editing the settings of {location.display()} "
            f"for {wait_s:.0f} s; try again"
        )

    with _advisory_lock(
        location,
        location.lock_key(b"settings\0"),
        "perfledger settings",
        wait_s,
        "the settings lock",
        busy,
    ):
        yield
