"""Curated views, the data dictionary and `perfledger shell`, on the demo and on an edited page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from perfledger.flows import pipeline
from perfledger.warehouse import query
from perfledger.warehouse.dictionary import (
    describe_views,
    render_markdown,
    undescribed,
    view_comment,
    view_files,
)
from tests.conftest import JULY_2023, PROJECT_ROOT

CURATED = [
    "latest_measurements",
    "measurement_history",
    "comparable_throughput",
    "sdk_progression",
    "mlperf_results",
]
BLANK = "\u00a0"  # how the captured page writes an empty cell
BOW_POD16_TF1 = "Bow Pod16\nSDK 3.0\nTensorFlow1\nImageNet2012\n3,520\n16.16\n44,059\n"
BOW_POD16_PYTORCH = "Bow Pod16\nSDK 3.3\nPyTorch\nImageNet2012\n16,384\n16.16\n38,036\n"
BOW_POD64_PYTORCH = "Bow Pod64\nSDK 3.2\nPyTorch\nImageNet2012\n16,384\n16.16\n109,232\n"


_CONNECTIONS: dict[tuple[Path, str | None], duckdb.DuckDBPyConnection] = {}


def rows(warehouse: Path, sql: str, as_of: str | None = None) -> list[tuple]:
    """Read-only query results; one connection per warehouse and snapshot, as opening costs."""
    query.check_read_only(sql)
    key = (warehouse, as_of)
    if key not in _CONNECTIONS:
        _CONNECTIONS[key] = query.open_read_only(warehouse, as_of)
    return _CONNECTIONS[key].execute(sql).fetchall()


@pytest.fixture(scope="module", autouse=True)
def close_connections():
    yield
    while _CONNECTIONS:
        _CONNECTIONS.popitem()[1].close()


def edit_page(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def edited_versions(page: str) -> list[str]:
    """Three versions of the July 2023 page as a later capture could show them.

    The second re-publishes Bow Pod16 TF1 with SDK 3.1 and a new number, adds a row that
    differs only by its SDK (3.2), and corrects Bow Pod64 PyTorch without an SDK change;
    the third empties the Bow Pod16 PyTorch cell, so that value is removed.
    """
    second = edit_page(
        page,
        BOW_POD16_TF1,
        (
            "Bow Pod16\nSDK 3.1\nTensorFlow1\nImageNet2012\n3,520\n16.16\n46,120\n"
            f"ResNet-50 v1.5\n{BLANK}\nBow Pod16\nSDK 3.2\nTensorFlow1\nImageNet2012\n3,520\n16.16\n"
            "47,000\n"
        ),
    )
    second = edit_page(second, BOW_POD64_PYTORCH, BOW_POD64_PYTORCH.replace("109,232", "110,000"))
    third = edit_page(second, BOW_POD16_PYTORCH, BOW_POD16_PYTORCH.replace("38,036", BLANK))
    return [page, second, third]


@pytest.fixture(scope="session")
def history_warehouse(tmp_path_factory) -> tuple[Path, list[int]]:
    """A warehouse that read three versions of one page; returns it and its three snapshots."""
    root = tmp_path_factory.mktemp("history")
    page_file = root / "pages" / "results.txt"
    page_file.parent.mkdir()
    warehouse = root / "warehouse"
    snapshots = []
    for month, text in enumerate(edited_versions(JULY_2023.read_text(encoding="utf-8")), start=1):
        page_file.write_text(text, encoding="utf-8")
        stamp = 1_700_000_000 + month * 86_400  # each capture newer than the one before
        os.utime(page_file, (stamp, stamp))
        summary = pipeline.ingest([str(page_file)], warehouse)
        snapshots.append(summary.runs[-1].snapshot_id)
    return warehouse, snapshots


def test_curated_views_are_public(demo_warehouse):
    views = {
        row[0]
        for row in rows(demo_warehouse, "SELECT view_name FROM duckdb_views() WHERE temporary")
    }
    assert set(CURATED) | {"measurements", "quarantine", "document_versions"} <= views


def test_latest_measurements_are_the_measurements(demo_warehouse):
    sql = """SELECT count(*) FROM (
        SELECT * FROM latest_measurements EXCEPT ALL SELECT * FROM measurements)"""
    assert rows(demo_warehouse, "SELECT count(*) FROM latest_measurements") == [(358,)]
    assert rows(demo_warehouse, sql) == [(0,)]


def test_comparable_throughput_ranks_resnet50_training(demo_warehouse):
    ranked = rows(
        demo_warehouse,
        """
        SELECT system, rank, value_per_accelerator, throughput, framework_canonical,
               systems_compared, rows_for_system
        FROM comparable_throughput
        WHERE model_canonical = 'ResNet-50 v1.5' AND workload = 'training'
          AND activation_dtype = 'fp16' AND weight_dtype = 'fp16'
        ORDER BY rank""",
    )
    # Each system's best row; Bow Pod16, Bow Pod64, IPU-M2000 and IPU-POD16 also list PyTorch.
    assert ranked == [
        ("Bow Pod16", 1, 44_059 / 16, 44_059.0, "TensorFlow 1", 7, 2),
        ("Bow Pod64", 2, 153_205 / 64, 153_205.0, "TensorFlow 1", 7, 2),
        ("IPU-M2000", 3, 7_864 / 4, 7_864.0, "TensorFlow 1", 7, 2),
        ("IPU-POD16", 4, 30_690 / 16, 30_690.0, "TensorFlow 1", 7, 2),
        ("IPU-POD64", 5, 108_566 / 64, 108_566.0, "TensorFlow 1", 7, 1),
        ("IPU-POD128", 6, 205_006 / 128, 205_006.0, "TensorFlow 1", 7, 1),
        ("IPU-POD256", 7, 365_040 / 256, 365_040.0, "TensorFlow 1", 7, 1),
    ]
    assert ranked[0][2] == 2753.6875 and ranked[1][2] == 2393.828125 and ranked[2][2] == 1966


def test_comparable_throughput_has_one_row_per_system_and_group(demo_warehouse):
    duplicates = rows(
        demo_warehouse,
        """
        SELECT count(*) FROM (
            SELECT 1 FROM comparable_throughput
            GROUP BY model_canonical, variant, workload, phase, dataset, item_kind,
                     activation_dtype, weight_dtype, vendor, system
            HAVING count(*) > 1)""",
    )
    best = rows(
        demo_warehouse,
        """
        SELECT count(*) FROM comparable_throughput
        WHERE rank = 1 AND ratio_to_best <> 1 OR rank > systems_compared""",
    )
    assert duplicates == [(0,)]
    assert best == [(0,)]


def test_mlperf_results_lists_time_to_train(demo_warehouse):
    results = rows(
        demo_warehouse,
        """
        SELECT division, model_canonical, system, accelerator_count, framework_canonical,
               time_to_train_minutes, time_to_train_seconds, mlperf_id
        FROM mlperf_results ORDER BY mlperf_id""",
    )
    assert len(results) == 11
    assert (
        "Closed",
        "ResNet-50 v1.5",
        "Bow Pod16",
        16,
        "TensorFlow",
        19.64,
        1178.4,
        "2.0-2047",
    ) in results
    assert ("Open", "RNN-T", "Bow Pod64", 64, "PopART", 109.36, 6561.6, "2.0-2125") in results
    assert {row[0] for row in results} == {"Closed", "Open"}
    assert all(row[7] for row in results)


def test_measurement_history_of_the_demo_is_one_version_each(demo_warehouse):
    (last_values_snapshot,) = rows(
        demo_warehouse,
        """
        SELECT max(valid_from_snapshot) FROM measurement_history""",
    )[0]
    summary = rows(
        demo_warehouse,
        """
        SELECT version, change, valid_to_snapshot, ended_by, is_current, count(*),
               count(DISTINCT measurement_key), min(valid_from_snapshot)
        FROM measurement_history GROUP BY ALL""",
    )
    assert summary == [(1, "added", None, None, True, 358, 358, last_values_snapshot)]


def test_sdk_progression_of_the_demo_is_empty(demo_warehouse):
    # Each row identity of the demo page is published with one SDK only.
    assert rows(demo_warehouse, "SELECT count(*) FROM sdk_progression") == [(0,)]


def test_measurement_history_follows_a_value_across_versions(history_warehouse):
    warehouse, (first, second, third) = history_warehouse
    history = rows(
        warehouse,
        """
        SELECT framework_canonical, sdk, value, version, change, valid_from_snapshot,
               valid_to_snapshot, ended_by, is_current
        FROM measurement_history
        WHERE system = 'Bow Pod16' AND model_canonical = 'ResNet-50 v1.5'
          AND workload = 'training' AND metric = 'throughput'
        ORDER BY framework_canonical, sdk""",
    )
    assert history == [
        ("PyTorch", "3.3", 38036.0, 1, "added", first, third, "removed", False),
        ("TensorFlow 1", "3.0", 44059.0, 1, "added", first, second, "changed", False),
        ("TensorFlow 1", "3.1", 46120.0, 2, "changed", second, None, None, True),
        ("TensorFlow 1", "3.2", 47000.0, 1, "added", second, None, None, True),
    ]


def test_measurement_history_times_follow_the_snapshots(history_warehouse):
    warehouse, (first, second, _) = history_warehouse
    mismatched = rows(
        warehouse,
        """
        SELECT count(*) FROM measurement_history h
        JOIN lake.snapshots() s ON s.snapshot_id = h.valid_from_snapshot
        WHERE s.snapshot_time <> h.valid_from_time""",
    )
    ended = rows(
        warehouse,
        """
        SELECT count(*) FROM measurement_history
        WHERE valid_to_snapshot IS NOT NULL AND valid_to_time IS NULL""",
    )
    assert mismatched == [(0,)] and ended == [(0,)]


def test_measurement_history_as_of_an_earlier_snapshot(history_warehouse):
    warehouse, (first, _, _) = history_warehouse
    summary = rows(
        warehouse,
        """
        SELECT count(*), count(valid_to_snapshot), max(valid_from_snapshot), bool_and(is_current)
        FROM measurement_history""",
        as_of=str(first),
    )
    assert summary == [(358, 0, first, True)]


def test_sdk_progression_across_snapshots_and_rows(history_warehouse):
    warehouse, (first, second, _) = history_warehouse
    progression = rows(
        warehouse,
        """
        SELECT system, framework_canonical, sdk_step, sdk, value, previous_sdk,
               round(pct_change, 6), improved, sdks_compared, valid_from_snapshot
        FROM sdk_progression ORDER BY system, sdk_step""",
    )
    assert progression == [
        ("Bow Pod16", "TensorFlow 1", 1, "3.0", 44059.0, None, None, None, 3, first),
        (
            "Bow Pod16",
            "TensorFlow 1",
            2,
            "3.1",
            46120.0,
            "3.0",
            round(100 * (46120 - 44059) / 44059, 6),
            True,
            3,
            second,
        ),
        (
            "Bow Pod16",
            "TensorFlow 1",
            3,
            "3.2",
            47000.0,
            "3.1",
            round(100 * (47000 - 46120) / 46120, 6),
            True,
            3,
            second,
        ),
    ]


def test_sdk_progression_sorts_versions_as_numbers(demo_warehouse):
    connection = query.open_read_only(demo_warehouse)
    try:
        order = connection.execute("""
            SELECT list(sdk ORDER BY list_transform(
                string_split(regexp_extract(sdk, '^[0-9]+(\\.[0-9]+)*'), '.'),
                part -> TRY_CAST(part AS INTEGER)))
            FROM (VALUES ('3.10'), ('3.9'), ('2.5.1'), ('10.0')) v(sdk)""").fetchone()[0]
    finally:
        connection.close()
    assert order == ["2.5.1", "3.9", "3.10", "10.0"]


def test_every_column_of_every_public_view_is_described(demo_warehouse):
    connection = query.open_read_only(demo_warehouse)
    try:
        docs = describe_views(connection)
    finally:
        connection.close()
    missing = undescribed(docs)
    assert missing == [], f"describe in the view file or a schema Field: {', '.join(missing)}"
    assert all(doc.description for doc in docs)
    markdown = render_markdown(docs)
    for view in CURATED:
        assert f"## {view}" in markdown


def test_view_files_lead_with_a_comment():
    files = view_files()
    for view in CURATED:
        assert view_comment(files[view].read_text(encoding="utf-8")), view
    assert "claims" not in {
        path.stem.split("_", 1)[1] for path in files.values() if path.name.startswith("1")
    }


def run_cli(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "perfledger", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
    )


@pytest.mark.slow
def test_shell_reads_statements_from_stdin(demo_warehouse):
    done = run_cli(
        "shell",
        "--warehouse",
        str(demo_warehouse),
        stdin="SELECT count(*)\n  FROM measurements;\n.tables\n.quit\nSELECT 1;\n",
    )
    assert done.returncode == 0, done.stderr
    assert "358" in done.stdout.split()
    assert "comparable_throughput" in done.stdout.split()


@pytest.mark.slow
def test_shell_refuses_writes_and_reports_failure(demo_warehouse):
    done = run_cli(
        "shell",
        "--warehouse",
        str(demo_warehouse),
        "--format",
        "json",
        stdin="DELETE FROM measurements;\nSELECT count(*) AS n FROM measurements",
    )
    assert done.returncode == 1
    assert "DELETE" in done.stderr
    assert '"n": 358' in done.stdout


@pytest.mark.slow
def test_print_setup_attaches_the_warehouse_in_plain_duckdb(demo_warehouse):
    done = run_cli("shell", "--warehouse", str(demo_warehouse), "--print-setup")
    assert done.returncode == 0, done.stderr
    assert f"ATTACH 'ducklake:sqlite:{demo_warehouse}/catalog.sqlite' AS lake" in done.stdout
    assert "READ_ONLY" in done.stdout
    connection = duckdb.connect()
    try:
        connection.execute(done.stdout)
        assert connection.execute("SELECT count(*) FROM measurements").fetchone() == (358,)
        assert connection.execute("SELECT count(*) FROM mlperf_results").fetchone() == (11,)
    finally:
        connection.close()
