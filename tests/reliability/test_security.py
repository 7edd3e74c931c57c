"""Nothing in a page, nor any ad-hoc SQL, reads, writes, fetches or runs past the warehouse."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from flows import pipeline
from flows.cli import main
from sources import archive
from tests.reliability.hostile import PASSWD, PROJECT_ROOT, ROWS, html_page, html_table
from warehouse import query

SECRET = "kept out of perfledger"


@pytest.fixture(scope="module")
def secret_database(tmp_path_factory) -> Path:
    """A SQLite file outside the warehouse, as a browser's history would be."""
    path = tmp_path_factory.mktemp("private") / "history.sqlite"
    with sqlite3.connect(path) as database:
        database.execute("CREATE TABLE visits (url TEXT)")
        database.execute("INSERT INTO visits VALUES (?)", [SECRET])
    return path


def run_cli(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.mark.parametrize("sql", [
    f"SELECT * FROM read_csv('{PASSWD}')",
    f"SELECT * FROM read_text('{PASSWD}')",
    f"SELECT * FROM read_blob('{PASSWD}')",
    f"SELECT content FROM read_text('{PASSWD}') UNION ALL SELECT model FROM measurements",
    "SELECT * FROM glob('/etc/*')",
    f"SELECT * FROM '{PASSWD}'",
    "SELECT * FROM sqlite_scan('{secret}', 'visits')",
    "SELECT * FROM sqlite_attach('{secret}')",
    "SELECT * FROM query('SELECT * FROM sqlite_scan(''{secret}'', ''visits'')')",
    "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
    "EXPLAIN ANALYZE SELECT * FROM sqlite_scan('{secret}', 'visits')",
    "SELECT * FROM ducklake_cleanup_old_files('lake', cleanup_all => true)",
    "COPY (SELECT * FROM measurements) TO '{outside}'",
    "ATTACH '{outside}' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "CREATE TABLE lake.main.x AS SELECT 1",
])
def test_ad_hoc_sql_cannot_reach_past_the_warehouse(demo_warehouse, secret_database, tmp_path,
                                                    sql):
    outside = tmp_path / "copied.csv"
    sql = sql.format(secret=secret_database, outside=outside)
    result = run_cli("sql", sql, "--warehouse", str(demo_warehouse), "--format", "csv")
    assert result.exit_code == 2, result.output
    assert "error:" in result.output
    assert PASSWD.read_text(encoding="utf-8").splitlines()[0] not in result.output
    assert SECRET not in result.output
    assert not outside.exists()


def test_the_shell_is_locked_down_as_well(demo_warehouse, secret_database):
    script = (f"SELECT * FROM read_text('{PASSWD}');\n"
              f"SELECT * FROM sqlite_scan('{secret_database}', 'visits');\n")
    result = run_cli("shell", "--warehouse", str(demo_warehouse), stdin=script)
    assert result.exit_code == 1
    assert "root:" not in result.output and SECRET not in result.output


def test_reading_the_warehouse_still_works(demo_warehouse):
    assert query.run_sql(demo_warehouse, "SELECT count(*) FROM measurements")[1] == [(358,)]
    history = query.run_sql(demo_warehouse, "SELECT count(*) FROM measurement_history")[1]
    assert history[0][0] >= 358
    snapshots = query.run_sql(demo_warehouse, "SELECT count(*) FROM lake.snapshots()")[1]
    assert snapshots[0][0] > 0
    explained = query.run_sql(demo_warehouse, "EXPLAIN SELECT * FROM measurements")[1]
    assert explained


def test_a_page_makes_no_request_and_reads_no_local_file(tmp_path, httpserver):
    """Every way a page can point elsewhere, aimed at a local server that counts requests."""
    url = httpserver.url_for("/canary")
    httpserver.expect_request("/canary").respond_with_data("canary")
    page = (
        f'<?xml version="1.0"?>\n<!DOCTYPE html [<!ENTITY remote SYSTEM "{url}">'
        f'<!ENTITY local SYSTEM "file://{PASSWD}">]>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:xi="http://www.w3.org/2001/XInclude">'
        f'<head><meta http-equiv="refresh" content="0; url={url}"/>'
        '<meta http-equiv="Content-Language" content="en"/>'
        f'<link rel="stylesheet" href="{url}"/><base href="{url}/"/>'
        f'<script src="{url}"></script><title>&remote; &local;</title></head><body>'
        f'<img src="{url}"/><iframe src="{url}"></iframe><iframe src="file://{PASSWD}"></iframe>'
        f'<object data="file://{PASSWD}"></object><xi:include href="file://{PASSWD}"/>'
        f'<xi:include href="{url}" parse="text"/>'
        + html_table([*ROWS, ("&remote;", "Bow Pod16", "1,000"), ("&local;", "Bow Pod16", "2,000")])
        + "</body></html>"
    )
    (tmp_path / "page.xhtml").write_text(page, encoding="utf-8")
    summary = pipeline.ingest([str(tmp_path / "page.xhtml")], tmp_path / "warehouse")
    assert summary.total("values_added") == len(ROWS) + 2
    assert httpserver.log == []
    texts = query.run_sql(tmp_path / "warehouse", "SELECT raw_value FROM lake.main.cells")[1]
    assert not any("root:" in text for (text,) in texts)


def files_outside(root: Path, warehouse: Path) -> set[Path]:
    return {path for path in root.rglob("*") if warehouse not in path.parents}


def test_a_crafted_results_tree_manifest_writes_nothing_outside(tmp_path):
    """An MLPerf results tree is read back from the archive into a temporary folder; a
    manifest naming an absolute path or a made-up file must not write anywhere else."""
    warehouse = tmp_path / "warehouse"
    payload = tmp_path / "payload.txt"
    payload.write_text("#!/bin/sh\necho owned\n", encoding="utf-8")
    pipeline.ingest([str(payload)], warehouse)  # now archived, under a known sha256
    target = tmp_path / "outside" / "owned.sh"
    manifest = {"round": "4.0", "files": {
        str(target): archive.sha256_of(payload.read_bytes()),
        "../../escape.sh": archive.sha256_of(payload.read_bytes()),
        "submitter/systems/x.json": "../../../../etc/passwd",
    }}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    added = run_cli("add-source", "https://example.invalid/results", "--name", "results-tree",
                    "--layout", "mlperf_tree", "--warehouse", str(warehouse))
    assert added.exit_code == 0, added.output
    before = files_outside(tmp_path, warehouse)
    result = run_cli("ingest", str(tmp_path / "manifest.json"), "--source", "results-tree",
                     "--warehouse", str(warehouse))
    assert "documents read:      1" in result.output, result.output
    assert not target.exists()
    assert files_outside(tmp_path, warehouse) == before


WAREHOUSE_LAYOUT = ("archive/", "data/", "extensions/", "catalog.sqlite", ".writer.lock",
                    ".file-index.json")
ARCHIVE_NAME = re.compile(r"archive/([0-9a-f]{2}/[0-9a-f]{64}(\.zst)?|sightings/[0-9]{8}T[0-9]{6}"
                          r"\.[0-9]{6}Z-[0-9]+-[0-9a-f]{8}\.sightings\.jsonl)")


def test_page_names_and_text_stay_text(tmp_path):
    """Shell syntax and SQL in a page's name or text is never run, and the run writes only
    the warehouse's own files: archive entries named by sha256, data files, the catalog."""
    documents = tmp_path / "documents"
    documents.mkdir()
    names = ["$(touch ran).html", "`touch ran2`.html", "a'; DROP TABLE documents; --.html",
             "line\nbreak.html", "x..%2f..%2fescape.html"]
    for name in names:
        (documents / name).write_text(
            html_page("<p>$(touch ran) `touch ran`</p>" + html_table(ROWS)), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "flows.cli", "ingest", str(documents), "--warehouse",
         str(tmp_path / "warehouse")],
        cwd=documents, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert f"documents read:      {len(names)} ({len(names)} new" in result.stdout
    assert sorted(path.name for path in documents.iterdir()) == sorted(names)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["documents", "warehouse"]
    for path in (tmp_path / "warehouse").rglob("*"):
        relative = path.relative_to(tmp_path / "warehouse").as_posix()
        assert path.is_dir() or relative.startswith(WAREHOUSE_LAYOUT), relative
        if relative.startswith("archive/") and path.is_file():
            # Named by content or by time, never by anything a page or its name says.
            assert ARCHIVE_NAME.fullmatch(relative), relative
