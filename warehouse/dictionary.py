"""Data dictionary of the public views, built from the view files and the pandera schemas."""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from perfledger import schemas
from perfledger.warehouse.lake import VIEWS_DIR

if TYPE_CHECKING:
    import pandera.polars as pa

# Columns of core views that no pandera schema models (they come from run bookkeeping).
BOOKKEEPING_COLUMNS = {
    "measurement_key": "The value's natural key: md5 of the source and row_identity",
    "stage": "Pipeline stage that set the value aside: parse, normalize or validate",
    "check": "Short name of the check that failed",
    "reason": "Why the value did not fit, in words a reader can act on",
    "raw_row": "The whole published row as JSON",
    "run_id": "Run that wrote the row",
    "title": "Title the page states",
    "author": "Author the page states",
    "published_date": "Publication date the page states",
    "last_updated_date": "Last-updated date the page states",
    "language": "Language the page declares (its lang attribute or front matter), if any",
    "content_type": "Media type the page was captured with",
    "byte_size": "Size of the captured bytes",
    "layout": "Page layout the parser recognised",
    "tables_found": "Tables the parser found in the document",
    "cells_found": "Table cells the parser found in the document",
    "archive_path": "Where the captured bytes are kept in the warehouse archive (<sha256>.zst: zstd-compressed, named by the sha256 of the bytes as captured; plain <sha256> when compressing saves little)",
    "first_run_id": "Run that first read this document version",
    "previous_sha256": "sha256 of the source's previous version; NULL for the first",
    "stated_date": "Date the page states (last updated, else published)",
    "previous_stated_date": "Date the previous version stated",
    "values_added": "Values that appeared with this version",
    "values_changed": "Values this version changed",
    "values_removed": "Values that disappeared with this version",
    "data_changed": "True when the version changed any value",
    "silent_revision": "True when the data changed but the stated date did not",
}

_VIEW_NAME = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?TEMP(?:ORARY)?\s+VIEW\s+\"?(\w+)", re.I)
# A select-list line ending in a comment: `expression AS name,  -- description`.
_COLUMN_COMMENT = re.compile(r"(?:^|[^\w\"])\"?(\w+)\"?\s*,?\s*--\s*(.+?)\s*$")


@dataclass
class ColumnDoc:
    name: str
    type: str
    description: str | None


@dataclass
class ViewDoc:
    name: str
    file: str
    description: str
    columns: list[ColumnDoc] = field(default_factory=list)


def schema_models() -> list[type[pa.DataFrameModel]]:
    """Every pandera model in the schemas package; the measurement model first, as it wins.

    pandera is imported here, not with the module: the `perfledger` command loads every
    command's module, an ingest's too, and pandera with pandas costs a process about 70 MB."""
    import pandera.polars as pa

    from perfledger.schemas.measurement_schema import MeasurementSchema

    models: list[type[pa.DataFrameModel]] = [MeasurementSchema]
    for module_info in sorted(pkgutil.iter_modules(schemas.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{schemas.__name__}.{module_info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, pa.DataFrameModel)
                and value is not pa.DataFrameModel
                and value not in models
            ):
                models.append(value)
    return models


def schema_descriptions() -> dict[str, str]:
    """Column name -> description from the pandera Field descriptions."""
    descriptions: dict[str, str] = {}
    for model in schema_models():
        for name, column in model.to_schema().columns.items():
            if column.description and name not in descriptions:
                descriptions[name] = column.description
    return descriptions


def view_files(views_dir: Path = VIEWS_DIR) -> dict[str, Path]:
    """View name -> the .sql file that creates it."""
    found = {}
    for path in sorted(views_dir.glob("*.sql")):
        match = _VIEW_NAME.search(path.read_text(encoding="utf-8"))
        if match:
            found[match.group(1)] = path
    return found


def view_comment(sql: str) -> str:
    """The leading `-- ` lines of a view file, joined into one paragraph."""
    lines = []
    for line in sql.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line.removeprefix("--").strip())
    return " ".join(line for line in lines if line)


def column_comments(sql: str) -> dict[str, str]:
    """Column name -> the trailing comment of the select-list line that defines it."""
    comments = {}
    for line in sql.splitlines():
        match = _COLUMN_COMMENT.search(line)
        if match and not line.lstrip().startswith("--"):
            comments[match.group(1)] = match.group(2)
    return comments


def public_views(connection: duckdb.DuckDBPyConnection) -> list[str]:
    rows = connection.execute(
        "SELECT view_name FROM duckdb_views() WHERE temporary AND NOT internal ORDER BY view_name"
    ).fetchall()
    return [row[0] for row in rows]


def view_columns(connection: duckdb.DuckDBPyConnection, view: str) -> list[tuple[str, str]]:
    """(name, DuckDB type) of each column of a view, in the view's order."""
    rows = connection.execute(f'DESCRIBE "{view}"').fetchall()
    return [(row[0], row[1]) for row in rows]


def describe_views(connection: duckdb.DuckDBPyConnection) -> list[ViewDoc]:
    """Every public view with its comment and each column's type and description."""
    files = view_files()
    from_schemas = schema_descriptions()
    docs = []
    for view in public_views(connection):
        path = files.get(view)
        sql = path.read_text(encoding="utf-8") if path else ""
        from_sql = column_comments(sql)
        columns = [
            ColumnDoc(name, dtype, describe_column(name, from_sql, from_schemas))
            for name, dtype in view_columns(connection, view)
        ]
        docs.append(ViewDoc(view, path.name if path else "", view_comment(sql), columns))
    return docs


def describe_column(
    name: str, from_sql: dict[str, str], from_schemas: dict[str, str]
) -> str | None:
    """The view file's own comment first, then the schema's Field, then run bookkeeping."""
    return from_sql.get(name) or from_schemas.get(name) or BOOKKEEPING_COLUMNS.get(name)


def undescribed(docs: list[ViewDoc]) -> list[str]:
    """`view.column` for every column the dictionary cannot describe."""
    return [f"{doc.name}.{c.name}" for doc in docs for c in doc.columns if not c.description]


def render_markdown(docs: list[ViewDoc]) -> str:
    lines = ["# perfledger data dictionary", ""]
    lines += [f"* [{doc.name}](#{doc.name})" for doc in docs]
    for doc in docs:
        lines += ["", f"## {doc.name}", "", doc.description or "(no description)", ""]
        if doc.file:
            lines += [f"Defined in `warehouse/views/{doc.file}`.", ""]
        lines += ["| column | type | description |", "| --- | --- | --- |"]
        lines += [
            f"| {c.name} | {c.type} | {_cell(c.description or 'UNDESCRIBED')} |"
            for c in doc.columns
        ]
    return "\n".join(lines) + "\n"


def render_json(docs: list[ViewDoc]) -> list[dict]:
    return [
        {
            "view": doc.name,
            "file": doc.file,
            "description": doc.description,
            "columns": [c.__dict__ for c in doc.columns],
        }
        for doc in docs
    ]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
