"""`perfledger export`: every view to Parquet, CSV or DuckDB, reproducibly and atomically."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest

from perfledger.warehouse import export as export_module
from perfledger.warehouse import query
from perfledger.warehouse.dictionary import public_views
from perfledger.warehouse.export import ExportError, export_warehouse, file_sha256
from tests.conftest import PROJECT_ROOT


@pytest.fixture(scope="module")
def demo_views(demo_warehouse) -> dict[str, pl.DataFrame]:
    """Every public view of the demo warehouse as a frame, read straight from the views."""
    connection = query.open_read_only(demo_warehouse)
    try:
        return {
            view: connection.execute(f'SELECT * FROM "{view}"').pl()
            for view in public_views(connection)
        }
    finally:
        connection.close()


@pytest.fixture(scope="module")
def parquet_exports(demo_warehouse, tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("parquet-exports")
    first, second = root / "first", root / "second"
    export_warehouse(demo_warehouse, first, "parquet")
    export_warehouse(demo_warehouse, second, "parquet")
    return first, second


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def in_utc(frame: pl.DataFrame) -> pl.DataFrame:
    """Same instants, one zone name: the session's local zone does not matter."""
    return frame.with_columns(pl.col(pl.Datetime(time_zone="*")).dt.convert_time_zone("UTC"))


def sorted_frame(frame: pl.DataFrame) -> pl.DataFrame:
    return in_utc(frame).sort(frame.columns, nulls_last=True)


def data_files(folder: Path) -> dict[str, bytes]:
    files = [p for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "manifest.json"]
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in files}


def test_parquet_export_reads_back_as_the_views(parquet_exports, demo_views):
    folder, _ = parquet_exports
    manifest = manifest_of(folder)
    assert set(manifest["views"]) == set(demo_views)
    for view, expected in demo_views.items():
        written = pl.read_parquet(folder / view / "**" / "*.parquet", hive_partitioning=False)
        assert written.columns == expected.columns, view
        assert in_utc(written).schema == in_utc(expected).schema, view
        assert sorted_frame(written).equals(sorted_frame(expected)), view
        assert manifest["views"][view]["rows"] == expected.height


def test_parquet_export_is_partitioned_by_vendor_and_metric(parquet_exports):
    folder, _ = parquet_exports
    manifest = manifest_of(folder)
    assert manifest["views"]["measurements"]["partition_by"] == ["vendor", "metric"]
    assert manifest["views"]["comparable_throughput"]["partition_by"] == ["vendor"]
    assert manifest["views"]["document_versions"]["partition_by"] == []
    assert (folder / "measurements" / "vendor=Graphcore" / "metric=throughput").is_dir()
    throughput = pl.read_parquet(
        folder / "measurements" / "vendor=Graphcore" / "metric=throughput" / "*.parquet"
    )
    assert set(throughput["metric"]) == {"throughput"}


def test_manifest_names_snapshot_types_and_checksums(parquet_exports, demo_warehouse):
    folder, _ = parquet_exports
    manifest = manifest_of(folder)
    (snapshot,) = query.run_sql(demo_warehouse, "SELECT max(snapshot_id) FROM lake.snapshots()")[1]
    assert manifest["snapshot_id"] == snapshot[0]
    assert manifest["snapshot_time"] and manifest["warehouse"] == str(demo_warehouse)
    columns = manifest["views"]["mlperf_results"]["columns"]
    assert columns[:2] == [
        {"name": "mlperf_id", "type": "VARCHAR"},
        {"name": "division", "type": "VARCHAR"},
    ]
    listed = {f["path"]: f for view in manifest["views"].values() for f in view["files"]}
    assert set(listed) == set(data_files(folder))
    for path, described in listed.items():
        assert described["sha256"] == file_sha256(folder / path)


def test_exporting_twice_writes_identical_data_files(parquet_exports):
    first, second = parquet_exports
    assert data_files(first) == data_files(second)
    without_time = [
        {k: v for k, v in manifest_of(f).items() if k not in ("exported_at",)}
        for f in (first, second)
    ]
    assert without_time[0]["views"] == without_time[1]["views"]


def test_csv_export_one_file_per_view_with_inert_formulas(demo_warehouse, demo_views, tmp_path):
    folder = tmp_path / "csv"
    export_warehouse(demo_warehouse, folder, "csv")
    again = tmp_path / "csv-again"
    export_warehouse(demo_warehouse, again, "csv")
    assert sorted(data_files(folder)) == sorted(f"{view}.csv" for view in demo_views)
    assert data_files(folder) == data_files(again)
    with (folder / "mlperf_results.csv").open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    assert len(records) == 11
    assert list(records[0]) == demo_views["mlperf_results"].columns
    rnnt = next(r for r in records if r["model_canonical"] == "RNN-T")
    # The page prints "-" for RNN-T's quality target; a spreadsheet must not read a formula.
    assert rnnt["quality_target"] == "'-"
    assert rnnt["time_to_train_minutes"] == "109.36"


def test_duckdb_export_opens_without_any_extension(demo_warehouse, demo_views, tmp_path):
    folder = tmp_path / "db"
    manifest = export_warehouse(demo_warehouse, folder, "duckdb")
    assert [f["path"] for f in manifest["files"]] == ["perfledger.duckdb"]
    connection = duckdb.connect(str(folder / "perfledger.duckdb"), read_only=True)
    try:
        loaded = {
            row[0]
            for row in connection.execute(
                "SELECT extension_name FROM duckdb_extensions() WHERE loaded"
            ).fetchall()
        }
        assert not {"ducklake", "sqlite_scanner"} & loaded
        tables = {row[0] for row in connection.execute("SHOW TABLES").fetchall()}
        assert tables == set(demo_views)
        for view, expected in demo_views.items():
            written = connection.execute(f'SELECT * FROM "{view}"').pl()
            assert sorted_frame(written).equals(sorted_frame(expected)), view
    finally:
        connection.close()


def test_export_as_of_an_earlier_snapshot(demo_warehouse, tmp_path):
    (before_values,) = query.run_sql(
        demo_warehouse, "SELECT min(valid_from_snapshot) - 1 FROM measurement_history"
    )[1]
    manifest = export_warehouse(
        demo_warehouse, tmp_path / "old", "csv", as_of=str(before_values[0])
    )
    assert manifest["snapshot_id"] == before_values[0]
    assert manifest["views"]["measurements"]["rows"] == 0


def test_export_replaces_an_older_export_and_leaves_no_scratch(demo_warehouse, tmp_path):
    folder = tmp_path / "out"
    export_warehouse(demo_warehouse, folder, "csv")
    export_warehouse(demo_warehouse, folder, "parquet")
    assert manifest_of(folder)["format"] == "parquet"
    assert not list(folder.glob("*.csv"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_export_refuses_a_folder_that_is_not_an_export(demo_warehouse, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(ExportError, match="holds no perfledger export"):
        export_warehouse(demo_warehouse, folder, "csv")
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_a_failed_export_leaves_the_previous_one_whole(demo_warehouse, tmp_path, monkeypatch):
    folder = tmp_path / "out"
    export_warehouse(demo_warehouse, folder, "csv")
    before = data_files(folder)
    monkeypatch.setattr(export_module, "write_csv", _failing_after(2))
    with pytest.raises(OSError, match="disk full"):
        export_warehouse(demo_warehouse, folder, "csv")
    assert data_files(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def _failing_after(views: int):
    original = export_module.write_csv
    calls = []

    def write_csv(connection, export, staging):
        calls.append(export.name)
        if len(calls) > views:
            raise OSError("disk full")
        original(connection, export, staging)

    return write_csv


@pytest.mark.slow
def test_export_command_shows_progress_per_view(demo_warehouse, demo_views, tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "perfledger",
            "export",
            str(tmp_path / "out"),
            "--format",
            "csv",
            "--warehouse",
            str(demo_warehouse),
            "--print",
            "json",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    progress = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    assert len(progress) == len(demo_views)
    assert any(line.startswith("measurements: 358 rows") for line in progress)
    assert json.loads(done.stdout)["views"]["measurements"]["rows"] == 358
