"""History: two versions of one page, the exact diff, time travel, and re-runs that change nothing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.warehouse import query
from tests.conftest import JULY_2023

SOURCE = "graphcore-performance-results"
MINI_DALLE_POD64 = (
    "Mini DALL-E\n\u00a0\nBow Pod64\nSDK 3.3\nPyTorch\nCOCO 2017\n24,576\n16.16\n6,787\n"
)
ADDED_ROW = "ViT\nFine-Tuning\nBow Pod64\nSDK 3.3\nPyTorch\nImageNet1k\n2,040\n16.16\n30,112\n"
PIXEL = "tr?id=145304570664993"


def _edited_version(original: str) -> str:
    assert original.count(MINI_DALLE_POD64) == 1 and original.count(PIXEL) == 1
    edited = original.replace(
        "ImageNet2012\n3,520\n16.16\n44,059\n", "ImageNet2012\n3,520\n16.16\n45,100\n"
    )
    edited = edited.replace(MINI_DALLE_POD64, ADDED_ROW)
    return edited.replace(PIXEL, "tr?id=999999999999999")


@pytest.fixture
def two_versions(warehouse, tmp_path):
    original = JULY_2023.read_text(encoding="utf-8")
    first = tmp_path / "v1.txt"
    second = tmp_path / "v2.txt"
    first.write_text(original, encoding="utf-8")
    second.write_text(_edited_version(original), encoding="utf-8")
    one = pipeline.ingest(
        [str(first)], warehouse, source_name=SOURCE, captured_at="2023-07-31T00:00:00Z"
    )
    two = pipeline.ingest(
        [str(second)], warehouse, source_name=SOURCE, captured_at="2023-08-31T00:00:00Z"
    )
    return warehouse, one.runs[0].snapshot_id, two.runs[0].snapshot_id, second


def test_the_diff_names_each_change_with_its_row_identity(two_versions):
    warehouse, first, second, _ = two_versions
    columns, rows, start, end = query.diff(warehouse, first, second)
    changes = sorted(
        (r["change"], r["row_identity"], r["old_raw_value"], r["new_raw_value"])
        for r in (dict(zip(columns, row, strict=True)) for row in rows)
    )
    assert (start, end) == (first, second)
    assert changes == [
        (
            "added",
            "workload=training|model=vit|variant=finetuning|platform=bowpod64|framework=pytorch|"
            "dataset=imagenet1k|batch=2040|precision=1616|division=|metric=throughput",
            None,
            "30,112",
        ),
        (
            "changed",
            "workload=training|model=resnet50v15|variant=|platform=bowpod16|framework=tensorflow1|"
            "dataset=imagenet2012|batch=3520|precision=1616|division=|metric=throughput",
            "44,059",
            "45,100",
        ),
        (
            "removed",
            "workload=training|model=minidalle|variant=|platform=bowpod64|framework=pytorch|"
            "dataset=coco2017|batch=24576|precision=1616|division=|metric=throughput",
            "6,787",
            None,
        ),
    ]


def test_time_travel_answers_as_of_each_snapshot(two_versions):
    warehouse, first, second, _ = two_versions
    question = (
        "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
        "AND system = 'Bow Pod16' AND framework = 'TensorFlow1' AND metric = 'throughput'"
    )
    assert query.run_sql(warehouse, question, str(first))[1] == [(44059.0,)]
    assert query.run_sql(warehouse, question, str(second))[1] == [(45100.0,)]
    assert query.run_sql(warehouse, question)[1] == [(45100.0,)]
    counts = "SELECT count(*) FROM measurements"
    assert query.run_sql(warehouse, counts, str(first))[1] == [(358,)]
    assert query.run_sql(warehouse, counts, str(second))[1] == [(358,)]
    plain_ducklake = (
        "SELECT value FROM lake.main.measurement_values AT (VERSION => {}) "
        "WHERE raw_value IN ('44,059', '45,100')"
    )
    assert query.run_sql(warehouse, plain_ducklake.format(first))[1] == [(44059.0,)]


def test_a_changed_value_is_an_update_of_the_same_key(two_versions):
    warehouse, first, second, _ = two_versions
    rows = query.run_sql(
        warehouse,
        f"SELECT change_type, raw_value FROM lake.table_changes('measurement_values', "
        f"{second}, {second}) WHERE raw_value IN ('44,059', '45,100') ORDER BY change_type",
    )[1]
    assert rows == [("update_postimage", "45,100"), ("update_preimage", "44,059")]


def test_the_page_stated_date_did_not_move_so_the_revision_is_silent(two_versions):
    warehouse, *_ = two_versions
    rows = query.run_sql(
        warehouse,
        "SELECT values_added, values_changed, values_removed, stated_date::VARCHAR, "
        "silent_revision FROM revisions WHERE previous_sha256 IS NOT NULL",
    )[1]
    assert rows == [(1, 1, 1, "2023-07-04", True)]


def test_reingesting_the_newest_version_changes_nothing(two_versions):
    warehouse, _, second, second_file = two_versions
    again = pipeline.ingest(
        [str(second_file)], warehouse, source_name=SOURCE, captured_at="2023-09-30T00:00:00Z"
    )
    assert again.count_status("unchanged") == 1
    assert [again.total(n) for n in ("values_added", "values_changed", "values_removed")] == [
        0,
        0,
        0,
    ]


def test_new_bytes_with_the_same_data_change_no_value(warehouse, tmp_path):
    original = JULY_2023.read_text(encoding="utf-8")
    pixel_only = tmp_path / "pixel.txt"
    pixel_only.write_text(original.replace(PIXEL, "tr?id=1"), encoding="utf-8")
    pipeline.ingest(
        [str(JULY_2023)], warehouse, source_name=SOURCE, captured_at="2023-07-31T00:00:00Z"
    )
    second = pipeline.ingest(
        [str(pixel_only)], warehouse, source_name=SOURCE, captured_at="2023-08-01T00:00:00Z"
    )
    assert second.count_status("new") == 1
    assert [second.total(n) for n in ("values_added", "values_changed", "values_removed")] == [
        0,
        0,
        0,
    ]


def test_diff_from_the_command_line_as_json_and_csv(two_versions):
    warehouse, first, second, _ = two_versions
    runner = CliRunner()
    result = runner.invoke(
        main, ["diff", str(first), str(second), "--format", "json", "--warehouse", str(warehouse)]
    )
    assert result.exit_code == 0, result.output
    changes = sorted(
        (c["change"], c["old_value"], c["new_value"]) for c in json.loads(result.output)
    )
    assert changes == [
        ("added", None, 30112.0),
        ("changed", 44059.0, 45100.0),
        ("removed", 6787.0, None),
    ]
    csv_out = runner.invoke(
        main, ["diff", str(first), str(second), "--format", "csv", "--warehouse", str(warehouse)]
    ).output
    assert csv_out.splitlines()[0].startswith("change,source_id,row_identity,metric")
    assert len(csv_out.splitlines()) == 4


def test_a_version_captured_later_in_the_same_second_is_the_newer_one(warehouse, tmp_path):
    # The second version's capture time, to the millisecond as a fetch gives it, sorts
    # before the first's as text ('.' < 'Z'); compared as instants it is the newer one.
    original = JULY_2023.read_text(encoding="utf-8")
    first, second = tmp_path / "v1.txt", tmp_path / "v2.txt"
    first.write_text(original, encoding="utf-8")
    second.write_text(_edited_version(original), encoding="utf-8")
    pipeline.ingest([str(first)], warehouse, source_name=SOURCE, captured_at="2023-07-31T00:00:00Z")
    summary = pipeline.ingest(
        [str(second)], warehouse, source_name=SOURCE, captured_at="2023-07-31T00:00:00.250+00:00"
    )
    assert summary.count_status("new") == 1 and summary.total("values_changed") == 1
    assert query.run_sql(
        warehouse,
        (
            "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
            "AND system = 'Bow Pod16' AND framework = 'TensorFlow1' AND metric = 'throughput'"
        ),
    )[1] == [(45100.0,)]


def test_a_capture_time_that_is_not_iso_8601_stops_the_ingest_with_a_message(warehouse, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(JULY_2023.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["ingest", str(page), "--warehouse", str(warehouse), "--captured-at", "July 4 2023"]
    )
    assert result.exit_code == 2, result.output
    assert "--captured-at 'July 4 2023' is not an ISO 8601 date or time" in result.output
    assert "Traceback" not in result.output


def test_a_warehouse_moved_to_another_folder_opens_writes_and_travels_there(tmp_path):
    # DuckLake's catalog stores the folder its data files were written to; the warehouse's
    # own data folder is the one beside its catalog, wherever the folder was moved.
    original = JULY_2023.read_text(encoding="utf-8")
    first, second = tmp_path / "v1.txt", tmp_path / "v2.txt"
    first.write_text(original, encoding="utf-8")
    second.write_text(_edited_version(original), encoding="utf-8")
    before = tmp_path / "before"
    one = pipeline.ingest(
        [str(first)], before, source_name=SOURCE, captured_at="2023-07-31T00:00:00Z"
    )
    moved = tmp_path / "moved"
    before.rename(moved)
    question = (
        "SELECT value FROM measurements WHERE model_canonical = 'ResNet-50 v1.5' "
        "AND system = 'Bow Pod16' AND framework = 'TensorFlow1' AND metric = 'throughput'"
    )
    assert query.run_sql(moved, question)[1] == [(44059.0,)]
    pipeline.ingest([str(second)], moved, source_name=SOURCE, captured_at="2023-08-31T00:00:00Z")
    assert query.run_sql(moved, question)[1] == [(45100.0,)]
    assert query.run_sql(moved, question, str(one.runs[0].snapshot_id))[1] == [(44059.0,)]
    assert not before.exists()
    assert list((moved / "data").rglob("*.parquet"))


def test_a_snapshot_or_time_the_warehouse_lacks_is_named_in_a_message(two_versions):
    warehouse, first, second, _ = two_versions
    runner = CliRunner()

    def refused(*args):
        result = runner.invoke(main, [*args, "--warehouse", str(warehouse)])
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit), result.exception  # not a crash
        return result.output

    assert (
        f"no snapshot 99999 in the warehouse at {warehouse}: it has snapshots 0 to "
        f"{second}" in refused("diff", str(first), "99999")
    )
    assert "--as-of 99999: the warehouse at" in refused("sql", "SELECT 1", "--as-of", "99999")
    assert "--as-of 2001-01-01: the warehouse at" in refused(
        "sql", "SELECT 1", "--as-of", "2001-01-01"
    )
    assert "--as-of 'last tuesday' is not an ISO 8601 date or time" in refused(
        "sql", "SELECT 1", "--as-of", "last tuesday"
    )
    # A migration's snapshot, before the first ingest: named as such, never a binder error.
    migration = "1"  # the warehouse being created: none of its tables exists yet
    before = refused("sql", "SELECT count(*) FROM measurements", "--as-of", migration)
    assert (
        f"--as-of {migration}: that is before the first ingest, when the warehouse was "
        "being created or its schema migrated"
    ) in before
    assert f"the first ingest snapshot is {first}, written at " in before
    # A time with a zone is the same instant in UTC: the second snapshot was written today.
    result = runner.invoke(
        main,
        [
            "sql",
            "SELECT count(*) FROM measurements",
            "--as-of",
            "2099-01-01T02:00:00+02:00",
            "--format",
            "csv",
            "--warehouse",
            str(warehouse),
        ],
    )
    assert result.output.splitlines() == ["count_star()", "358"]


def test_an_empty_path_is_refused_rather_than_read_as_the_current_folder(warehouse):
    result = CliRunner().invoke(main, ["ingest", "", "--warehouse", str(warehouse)])
    assert result.exit_code == 2, result.output
    assert "an empty PATH_OR_URL was given" in result.output
    assert not (warehouse / "catalog.sqlite").exists()
