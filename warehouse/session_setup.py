"""The SQL a plain DuckDB session runs to read a warehouse as `perfledger shell` does.

A script for a person to run (`perfledger shell --print-setup`), not a statement perfledger
runs: its paths are written into it as quoted literals, since a script has no parameters.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from warehouse import lake, query
from warehouse.sql import literal


def setup_sql(connection: duckdb.DuckDBPyConnection, warehouse: Path, as_of: str | None) -> str:
    """LOAD, ATTACH and view statements that give a plain DuckDB session the same surface."""
    warehouse = warehouse.absolute()
    extensions = extension_folder(connection)
    options = [f"DATA_PATH {literal(str(lake.data_path(warehouse)) + '/')}", "READ_ONLY"]
    options += [f"{key.upper()} {value if isinstance(value, int) else literal(value)}"
                for key, value in query.resolve_as_of(warehouse, as_of).items()]
    lines = [
        f"-- Attach the perfledger warehouse {warehouse} read-only (DuckDB {duckdb.__version__}).",
        "-- The extensions load from this installation's copies: nothing is downloaded.",
        "SET autoinstall_known_extensions = false;",
        "SET autoload_known_extensions = false;",
        f"LOAD {literal(str(extensions / 'sqlite_scanner.duckdb_extension'))};",
        f"LOAD {literal(str(extensions / 'ducklake.duckdb_extension'))};",
        f"ATTACH {literal('ducklake:sqlite:' + str(lake.catalog_path(warehouse)))} AS {lake.LAKE} "
        f"({', '.join(options)});",
        f"USE {lake.LAKE};",
    ]
    files = sorted(lake.VIEWS_DIR.glob("*.sql"))
    views = [path.read_text(encoding="utf-8").strip() for path in files]
    return "\n".join(lines) + "\n\n" + "\n\n".join(views)


def extension_folder(connection: duckdb.DuckDBPyConnection) -> Path:
    """Where the session loads extensions from: the installation's copies
    (lake.extensions_root()), v<version>/<platform>."""
    root, platform = connection.execute(query.query_text("extension_folder")).fetchone()
    return Path(root).absolute() / f"v{duckdb.__version__}" / platform
