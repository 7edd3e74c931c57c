"""`perfledger doctor` finds what breaks a warehouse, says what to do, and creates nothing;
every command ends a path it cannot use in one line, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.warehouse import lake
from tests.conftest import JULY_2023

SOURCE = "graphcore-performance-results"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A warehouse holding one page; each test works on a copy of it."""
    warehouse = tmp_path_factory.mktemp("doctor") / "warehouse"
    pipeline.ingest(
        [str(JULY_2023)], warehouse, source_name=SOURCE, captured_at="2023-07-31T00:00:00Z"
    )
    return warehouse


@pytest.fixture
def copy(built, tmp_path) -> Path:
    target = tmp_path / "warehouse"
    shutil.copytree(built, target)
    return target


def doctor(warehouse: Path):
    return CliRunner().invoke(main, ["doctor", "--warehouse", str(warehouse)])


def _files(warehouse: Path) -> list[lake.DataFile]:
    connection = lake.connect(warehouse, read_only=True, views=False)
    try:
        return lake.data_files(connection, warehouse)
    finally:
        connection.close()


def test_a_whole_warehouse_is_ok(copy):
    result = doctor(copy)
    assert result.exit_code == 0, result.output
    assert "extensions:  ok" in result.output
    assert "catalog:     ok (" in result.output and "migrations applied)" in result.output
    assert "all present and readable" in result.output
    assert result.output.endswith("no problem found\n")


def test_the_catalog_files_are_the_ones_ducklake_reads(copy):
    connection = lake.connect(copy, read_only=True, views=False)
    try:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'lake'"
            ).fetchall()
        ]
        listed = {
            Path(row[0])
            for table in tables
            for row in connection.execute(
                f"SELECT data_file FROM ducklake_list_files('lake', '{table}')"
            ).fetchall()
        }
        files = lake.data_files(connection, copy)
    finally:
        connection.close()
    assert {file.path for file in files if file.current} == listed
    assert all(lake.data_file_problem(file) is None for file in files)


def test_a_deleted_data_file_is_named_with_its_table_and_the_way_out(copy):
    (values,) = [f for f in _files(copy) if f.table == "measurement_values" and f.current]
    values.path.unlink()

    result = doctor(copy)

    assert result.exit_code == 1, result.output
    relative = values.path.relative_to(copy)
    assert f"  {relative}: missing (table measurement_values, current data)" in result.output
    assert "copy the files back from a backup of the warehouse" in result.output
    assert "every query reading measurement_values fails until then" in result.output
    assert "ingest the pages again into a new warehouse" in result.output
    assert "1 problem found (data files)" in result.output


def test_a_file_cut_short_or_overwritten_is_unreadable(copy):
    cells, documents = (
        next(f for f in _files(copy) if f.table == name) for name in ("cells", "documents")
    )
    cells.path.write_bytes(cells.path.read_bytes()[:100])
    data = bytearray(documents.path.read_bytes())
    data[-4:] = b"XXXX"
    documents.path.write_bytes(bytes(data))

    result = doctor(copy)

    assert result.exit_code == 1, result.output
    assert (
        f"{cells.path.relative_to(copy)}: 100 bytes where the catalog records "
        f"{cells.size:,} (table cells, current data)" in result.output
    )
    assert f"{documents.path.relative_to(copy)}: not a whole Parquet file" in result.output


def test_a_lost_file_that_only_past_snapshots_read_is_told_apart(copy):
    connection = lake.connect(copy, views=False)  # a later run replaced every row of it
    try:
        connection.execute("DELETE FROM cells")
    finally:
        connection.close()
    (past,) = [f for f in _files(copy) if f.table == "cells"]
    assert not past.current
    past.path.unlink()

    result = doctor(copy)

    assert result.exit_code == 1, result.output
    assert (
        f"(table cells, read only as of snapshots {past.first_snapshot} to {past.last_snapshot})"
    ) in result.output
    assert "the current data is whole" in result.output


def test_pending_migrations_are_reported_and_not_applied(copy):
    connection = lake.connect(copy, views=False)
    try:
        connection.execute("DELETE FROM schema_migrations WHERE name = '011_mlperf_inference.sql'")
    finally:
        connection.close()

    result = doctor(copy)

    assert result.exit_code == 1, result.output
    assert (
        "catalog:     PROBLEM: 1 migration(s) of this perfledger not applied "
        "(011_mlperf_inference.sql): `perfledger compact` applies them"
    ) in result.output
    assert "data files:  " in result.output  # the files are checked all the same
    assert doctor(copy).exit_code == 1  # doctor itself migrated nothing


def test_an_extension_copy_that_does_not_load_is_named_with_the_fix(copy, tmp_path, monkeypatch):
    # The copies are the installation's, shared by its warehouses: this test breaks its own.
    # (Copied, never loaded here: cutting a file this process has mapped would crash it.)
    monkeypatch.setenv(lake.EXTENSIONS_ENV, str(tmp_path / "installation-extensions"))
    lake._extension_dir(copy)
    (extension,) = lake.extensions_root().rglob("ducklake.duckdb_extension")
    extension.write_bytes(extension.read_bytes()[:1000])

    result = doctor(copy)
    assert result.exit_code == 1, result.output
    assert "extensions:  PROBLEM: the DuckDB extension ducklake does not load" in result.output
    assert f"delete the folder {lake.extensions_root()}" in result.output
    # Every reader says the same in one line, where it ended in a traceback.
    query = CliRunner().invoke(main, ["sql", "SELECT 1", "--warehouse", str(copy)])
    assert query.exit_code == 2 and isinstance(query.exception, SystemExit), query.output
    assert "the DuckDB extension ducklake does not load" in query.output

    shutil.rmtree(lake.extensions_root())  # the fix the message gives
    assert doctor(copy).exit_code == 0


def test_doctor_on_a_mistyped_path_creates_nothing(tmp_path):
    missing = tmp_path / "wherehouse"
    result = doctor(missing)
    assert result.exit_code == 1, result.output
    assert f"PROBLEM: no warehouse at {missing}" in result.output
    assert not missing.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert doctor(empty).exit_code == 1
    assert list(empty.iterdir()) == []


READERS = [
    ["sql", "SELECT 1"],
    ["snapshots"],
    ["diff"],
    ["quarantine"],
    ["labels"],
    ["claims"],
    ["reconcile"],
    ["shell", "--print-setup"],
    ["compact"],
    ["reprocess"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda command: command[0])
def test_commands_on_a_missing_warehouse_say_so_and_create_nothing(command, tmp_path):
    missing = tmp_path / "nowhere"
    result = CliRunner().invoke(main, [*command, "--warehouse", str(missing)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert f"error: no warehouse at {missing}" in result.output
    assert not missing.exists()


@pytest.mark.parametrize(
    "place", ["/proc/perfledger-x", "/sys/perfledger-x", "/dev/null/perfledger-x"]
)
@pytest.mark.parametrize(
    "command",
    [
        ["ingest"],
        ["doctor"],
        ["reprocess"],
        ["sql", "SELECT 1"],
        ["snapshots"],
        ["diff"],
        ["quarantine"],
    ],
    ids=lambda command: command[0],
)
def test_a_path_no_warehouse_can_be_made_in_ends_in_one_line(command, place):
    if not Path(place).parent.exists():
        pytest.skip(f"{Path(place).parent} does not exist here")
    result = CliRunner().invoke(main, [*command, "--warehouse", place])
    assert isinstance(result.exception, SystemExit), result.exception  # not a traceback
    assert result.exit_code == (1 if command == ["doctor"] else 2), result.output
    errors = [line for line in result.output.splitlines() if "error:" in line or "PROBLEM:" in line]
    assert len(errors) == 1, result.output
    if command == ["ingest"]:
        assert f"cannot write a warehouse at {place}: " in errors[0]
        assert errors[0].endswith("pass --warehouse with a folder you can write to")
    else:
        assert f"no warehouse at {place}" in errors[0]
