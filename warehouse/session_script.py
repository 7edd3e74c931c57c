"""The SQL script that gives a plain DuckDB session the surface `perfledger shell` has: the
installation's extensions, the warehouse attached read-only (as of a snapshot, if asked),
and the views. A script is text to paste, so its values are written as quoted literals."""

from __future__ import annotations

from pathlib import Path

import duckdb

from perfledger.warehouse import lake, query, sql
from perfledger.warehouse.single_row import single_value


def setup_sql(connection: duckdb.DuckDBPyConnection, warehouse: Path, as_of: str | None) -> str:
    """LOAD, ATTACH and view statements that give a plain DuckDB session the same surface."""
    warehouse = warehouse.absolute()
    extensions = extension_folder(connection)
    options = [f"DATA_PATH {sql.literal(str(lake.data_path(warehouse)) + '/')}", "READ_ONLY"]
    options += [
        f"{key.upper()} {value if isinstance(value, int) else sql.literal(value)}"
        for key, value in query.resolve_as_of(warehouse, as_of).items()
    ]
    lines = [
        f"-- Attach the perfledger warehouse {warehouse} read-only (DuckDB {duckdb.__version__}).",
        "-- The extensions load from this installation's copies: nothing is downloaded.",
        "SET autoinstall_known_extensions = false;",
        "SET autoload_known_extensions = false;",
        f"LOAD {sql.literal(str(extensions / 'sqlite_scanner.duckdb_extension'))};",
        f"LOAD {sql.literal(str(extensions / 'ducklake.duckdb_extension'))};",
        f"ATTACH {sql.literal('ducklake:sqlite:' + str(lake.catalog_path(warehouse)))} AS {lake.LAKE} "
        f"({', '.join(options)});",
        f"USE {lake.LAKE};",
    ]
    files = sorted(lake.VIEWS_DIR.glob("*.sql"))
    views = [path.read_text(encoding="utf-8").strip() for path in files]
    return "\n".join(lines) + "\n\n" + "\n\n".join(views)


def extension_folder(connection: duckdb.DuckDBPyConnection) -> Path:
    """Where the session loads extensions from: the installation's copies
    (lake.extensions_root()), v<version>/<platform>."""
    root = single_value(connection.execute("SELECT current_setting('extension_directory')"))
    platform = single_value(connection.execute("PRAGMA platform"))
    return Path(root).absolute() / f"v{duckdb.__version__}" / platform
