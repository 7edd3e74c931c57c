"""The shared-warehouse benchmark runs end to end on a tiny corpus: both warehouses hold the
same measurements and every comparison has a positive ratio."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench import shared_warehouse
from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.slow

BENCH_TIMEOUT_S = 300
COMPARED = {
    "shared_first": "folder_first",
    "shared_rerun": "folder_rerun",
    "shared_read": "folder_read",
}


@pytest.fixture
def servers_available():
    missing = shared_warehouse.missing_requirement()
    if missing:
        pytest.skip(missing)


def test_the_bench_finds_the_same_measurements_in_both_warehouses(servers_available, tmp_path):
    # The Dask part starts a Prefect server and a cluster: a minute more, measured at full
    # size only.
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.shared_warehouse",
            "--pages",
            "5",
            "--repeats",
            "1",
            "--skip-dask",
            "--work",
            str(tmp_path / "work"),
            "--out",
            str(out),
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=BENCH_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr[-4000:]

    figures = json.loads(out.read_text(encoding="utf-8"))
    rows = {row["key"]: row for row in figures["rows"]}
    values = {row["values"] for row in rows.values()}
    assert len(values) == 1 and values.pop() > 0, rows
    stored = figures["details"]["stored"]
    assert stored["folder"]["total"] == pytest.approx(stored["shared"]["total"], rel=1e-9)
    for shared, folder in COMPARED.items():
        assert rows[shared]["baseline"] == folder
        assert rows[shared]["ratio"] > 0 and rows[folder]["seconds"] > 0, rows[shared]
    assert figures["details"]["shared_first"]["objects"] > 0  # the data went to S3
    assert figures["details"]["dask_skipped"] == "--skip-dask"
    assert "| first ingest, shared warehouse" in done.stdout  # the Markdown table
