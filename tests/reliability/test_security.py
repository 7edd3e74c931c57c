"""Nothing in a page, nor any ad-hoc SQL, reads, writes, fetches or runs past the warehouse."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from perfledger.flows import mlperf_stage, pipeline
from perfledger.flows.cli import main
from perfledger.sources import archive
from perfledger.sources.mlperf.tree import read_results_tree
from perfledger.warehouse import lake, query
from tests.reliability.hostile import PASSWD, PROJECT_ROOT, ROWS, html_page, html_table

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


@pytest.fixture(scope="module")
def secret_csv(tmp_path_factory) -> Path:
    """A CSV file outside the warehouse, which DuckDB would read by its name alone."""
    path = tmp_path_factory.mktemp("private") / "secret.csv"
    path.write_text(f"secret\n{SECRET}\n", encoding="utf-8")
    return path


def statement_refused(kind: str) -> str:
    """The statement check's refusal (warehouse/query.py, check_read_only)."""
    return (
        f"`perfledger sql` only reads, but the SQL holds a {kind} statement; the "
        "warehouse is changed only by `perfledger ingest`"
    )


def function_refused(name: str) -> str:
    """The function check's refusal (warehouse/query.py, check_functions)."""
    return (
        f"`perfledger sql` does not run {name}: ad-hoc SQL reads the warehouse's views "
        "and tables, never other files, and never changes them"
    )


def file_refused(path: object) -> str:
    """DuckDB's refusal once the session is locked down (warehouse/query.py, lock_down)."""
    return (
        f'Permission Error: Cannot access file "{path}" - file system operations are '
        "disabled by configuration"
    )


def warehouse_state(warehouse: Path) -> tuple:
    """What any write would change: the last snapshot, each table's rows, every file (the
    catalog's bytes included). Read from the catalog directly, never through DuckLake."""
    catalog = lake.catalog_path(warehouse)
    with contextlib.closing(sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)) as database:
        snapshots = database.execute(
            "SELECT count(*), max(snapshot_id) FROM ducklake_snapshot"
        ).fetchall()
        rows = database.execute(
            "SELECT t.table_name, s.record_count FROM ducklake_table_stats s "
            "JOIN ducklake_table t USING (table_id) WHERE t.end_snapshot IS NULL "
            "ORDER BY 1"
        ).fetchall()
    files = sorted(
        (path.relative_to(warehouse).as_posix(), path.stat().st_size)
        for path in warehouse.rglob("*")
        if path.is_file()
    )
    return snapshots, rows, archive.sha256_of(catalog.read_bytes()), files


# Each case with the refusal of the one guard that stops it first; with that guard gone, the
# case would either run or be stopped by another guard with another message.
AD_HOC_SQL = [
    (f"SELECT * FROM read_csv('{PASSWD}')", file_refused(PASSWD)),
    (f"SELECT * FROM read_text('{PASSWD}')", file_refused(PASSWD)),
    (f"SELECT * FROM read_blob('{PASSWD}')", file_refused(PASSWD)),
    (
        f"SELECT content FROM read_text('{PASSWD}') UNION ALL SELECT model FROM measurements",
        file_refused(PASSWD),
    ),
    ("SELECT * FROM glob('/etc/*')", file_refused("/etc/*")),
    # Locked down, DuckDB no longer reads a quoted path as a file: it is a table name.
    (f"SELECT * FROM '{PASSWD}'", f"Catalog Error: Table with name {PASSWD} does not exist!"),
    ("SELECT * FROM '{csv}'", file_refused("{csv}")),
    ("SELECT * FROM sqlite_scan('{secret}', 'visits')", function_refused("sqlite_scan")),
    ("SELECT * FROM sqlite_attach('{secret}')", function_refused("sqlite_attach")),
    (
        "SELECT * FROM query('SELECT * FROM sqlite_scan(''{secret}'', ''visits'')')",
        function_refused("query"),
    ),
    (
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))",
        function_refused("json_execute_serialized_sql"),
    ),
    (
        "EXPLAIN ANALYZE SELECT * FROM sqlite_scan('{secret}', 'visits')",
        function_refused("sqlite_scan"),
    ),
    (
        "SELECT * FROM ducklake_cleanup_old_files('lake', cleanup_all => true)",
        function_refused("ducklake_cleanup_old_files"),
    ),
    ("COPY (SELECT * FROM measurements) TO '{outside}'", statement_refused("COPY")),
    ("ATTACH '{outside}' AS other", statement_refused("ATTACH")),
    ("INSTALL httpfs", statement_refused("LOAD")),  # DuckDB's type for INSTALL too
    ("LOAD httpfs", statement_refused("LOAD")),
    ("SET enable_external_access = true", statement_refused("SET")),
    ("CREATE TABLE lake.main.x AS SELECT 1", statement_refused("CREATE")),
]


@pytest.mark.parametrize(("sql", "refusal"), AD_HOC_SQL)
def test_ad_hoc_sql_cannot_reach_past_the_warehouse(
    demo_warehouse, secret_database, secret_csv, tmp_path, sql, refusal
):
    outside = tmp_path / "copied.csv"
    names = {"secret": secret_database, "outside": outside, "csv": secret_csv}
    sql, refusal = sql.format(**names), refusal.format(**names)
    before = warehouse_state(demo_warehouse)
    result = run_cli("sql", sql, "--warehouse", str(demo_warehouse), "--format", "csv")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: "), result.output
    assert refusal in result.output
    assert PASSWD.read_text(encoding="utf-8").splitlines()[0] not in result.output
    assert SECRET not in result.output
    assert not outside.exists()
    assert warehouse_state(demo_warehouse) == before


# What the locked-down session refuses by itself, should a statement pass the checks above.
LOCKED_SESSION = [
    (f"SELECT * FROM read_csv('{PASSWD}')", file_refused(PASSWD)),
    (f"SELECT * FROM read_text('{PASSWD}')", file_refused(PASSWD)),
    ("SELECT * FROM glob('/etc/*')", file_refused("/etc/*")),
    ("SELECT * FROM '{csv}'", file_refused("{csv}")),
    ("COPY (SELECT * FROM measurements) TO '{outside}'", file_refused("{outside}")),
    ("ATTACH '{outside}' AS other", file_refused("{outside}")),
    (
        "LOAD httpfs",
        "Permission Error: Loading external extensions is disabled through configuration",
    ),
    (
        "SET enable_external_access = true",
        "Cannot change configuration option "
        '"enable_external_access" - the configuration has '
        "been locked",
    ),
    (
        "CREATE TABLE lake.main.x AS SELECT 1",
        'Cannot execute statement of type "CREATE" on '
        'database "lake" which is attached in read-only '
        "mode!",
    ),
]


@pytest.mark.parametrize(("sql", "refusal"), LOCKED_SESSION)
def test_the_ad_hoc_session_is_locked_behind_the_checks(
    demo_warehouse, secret_csv, tmp_path, sql, refusal
):
    outside = tmp_path / "copied.csv"
    names = {"outside": outside, "csv": secret_csv}
    sql, refusal = sql.format(**names), refusal.format(**names)
    before = warehouse_state(demo_warehouse)
    connection = query.open_for_queries(demo_warehouse)
    try:
        with pytest.raises(duckdb.Error) as refused:
            connection.execute(sql)
    finally:
        connection.close()
    assert refusal in str(refused.value)
    assert not outside.exists()
    assert warehouse_state(demo_warehouse) == before


def test_the_shell_is_locked_down_as_well(demo_warehouse, secret_database):
    script = (
        f"SELECT * FROM read_text('{PASSWD}');\n"
        f"SELECT * FROM sqlite_scan('{secret_database}', 'visits');\n"
    )
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


def test_a_crafted_results_tree_manifest_writes_nothing_outside(tmp_path, monkeypatch):
    """An MLPerf unit is read back from the archive by laying out the files its manifest
    names under a temporary folder. A manifest that names an absolute path, climbs out with
    `..` or names no archived file must write nothing anywhere else: the temporary folders
    are made under `scratch/temporary` here, so every place such a name would reach lies
    inside this test's folder, where the test looks."""
    temporary = tmp_path / "scratch" / "temporary"
    temporary.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    warehouse = tmp_path / "warehouse"
    payload = tmp_path / "payload.txt"
    payload.write_text("#!/bin/sh\necho owned\n", encoding="utf-8")
    pipeline.ingest([str(payload)], warehouse)  # now archived, under a known sha256
    sha256 = archive.sha256_of(payload.read_bytes())
    target = tmp_path / "outside" / "owned.sh"
    kept = "Graphcore/results/bow_pod16/resnet/result_0.txt"
    files = {
        kept: sha256,  # the one name a manifest may give: inside its folder, archived
        str(target): sha256,  # absolute: it would replace the folder
        "../beside.sh": sha256,  # beside the unit's folder, in `temporary`
        "../../escape.sh": sha256,  # in `scratch`
        "../../../escape.sh": sha256,  # in this test's folder
        "Graphcore/../../climbed.sh": sha256,  # out through a folder of its own
        "Graphcore/systems/x.json": "../../../../etc/passwd",  # no sha256: out of the archive
    }
    manifest = {
        "manifest": 2,
        "kind": "training",
        "round": "4.0",
        "files": files,
        "sizes": {name: 22 for name in files},
        "unreadable": {},
        "left_out": [],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    added = run_cli(
        "add-source",
        "https://example.invalid/results",
        "--name",
        "results-tree",
        "--layout",
        "mlperf_tree",
        "--warehouse",
        str(warehouse),
    )
    assert added.exit_code == 0, added.output
    laid_out: list[tuple[Path, set[str]]] = []

    def spy(folder: Path, *args):
        laid_out.append(
            (
                folder,
                {
                    path.relative_to(folder).as_posix()
                    for path in folder.rglob("*")
                    if path.is_file()
                },
            )
        )
        return read_results_tree(folder, *args)

    monkeypatch.setattr(mlperf_stage, "read_results_tree", spy)
    before = files_outside(tmp_path, warehouse)
    result = run_cli(
        "ingest",
        str(tmp_path / "manifest.json"),
        "--source",
        "results-tree",
        "--warehouse",
        str(warehouse),
    )
    assert "documents read:      1 (1 new" in result.output, result.output
    # The unit was laid out where the test looks, with the one file it may name, and only it.
    ((folder, names),) = laid_out
    assert folder.parent == temporary
    assert names == {kept}
    assert not target.exists()
    for climbed in (
        temporary / "beside.sh",
        temporary / "climbed.sh",
        tmp_path / "scratch" / "escape.sh",
        tmp_path / "escape.sh",
    ):
        assert not climbed.exists(), climbed
    assert files_outside(tmp_path, warehouse) == before
    assert list(temporary.iterdir()) == []  # and the temporary folder is gone


WAREHOUSE_LAYOUT = (
    "archive/",
    "data/",
    "extensions/",
    "catalog.sqlite",
    ".writer.lock",
    ".file-index.json",
)
ARCHIVE_NAME = re.compile(
    r"archive/([0-9a-f]{2}/[0-9a-f]{64}(\.zst)?|sightings/[0-9]{8}T[0-9]{6}"
    r"\.[0-9]{6}Z-[0-9]+-[0-9a-f]{8}\.sightings\.jsonl)"
)


def test_page_names_and_text_stay_text(tmp_path):
    """Shell syntax and SQL in a page's name or text is never run, and the run writes only
    the warehouse's own files: archive entries named by sha256, data files, the catalog."""
    documents = tmp_path / "documents"
    documents.mkdir()
    names = [
        "$(touch ran).html",
        "`touch ran2`.html",
        "a'; DROP TABLE documents; --.html",
        "line\nbreak.html",
        "x..%2f..%2fescape.html",
    ]
    for name in names:
        (documents / name).write_text(
            html_page("<p>$(touch ran) `touch ran`</p>" + html_table(ROWS)), encoding="utf-8"
        )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "perfledger",
            "ingest",
            str(documents),
            "--warehouse",
            str(tmp_path / "warehouse"),
        ],
        cwd=documents,
        capture_output=True,
        text=True,
        timeout=300,
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


def test_ad_hoc_sql_reads_nothing_in_duckdbs_temporary_folder(
    demo_warehouse, tmp_path, monkeypatch
):
    """DuckDB lets a locked session open files in its temporary folder, `.tmp` in the
    current folder by default: there, anything may lie. The session spills to a private
    folder of its own instead, and `.tmp` is as closed as any other folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".tmp").mkdir()
    planted = tmp_path / ".tmp" / "x.csv"
    planted.write_text(f"secret\n{SECRET}\n", encoding="utf-8")
    for sql in (
        f"SELECT * FROM read_csv('{planted}')",
        f"SELECT * FROM glob('{tmp_path}/.tmp/*')",
        "SELECT * FROM glob('.tmp/*')",
    ):
        result = run_cli("sql", sql, "--warehouse", str(demo_warehouse), "--format", "csv")
        assert result.exit_code == 2, result.output
        assert "Permission Error" in result.output
        assert SECRET not in result.output and "x.csv" not in result.output.split("\n", 1)[1]
    result = run_cli(
        "shell", "--warehouse", str(demo_warehouse), stdin=f"SELECT * FROM read_csv('{planted}');\n"
    )
    assert SECRET not in result.output


def test_a_symbolic_link_inside_an_ingested_folder_is_not_followed(tmp_path):
    """`ln -s /etc/shadow d/s.txt; perfledger ingest d` archived the linked file byte for
    byte (onto the bucket, for a shared warehouse). A link in a folder, to a file or to a
    folder, is a failed document that says so, and nothing it points at is read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "shadow"
    secret.write_text(f"root:{SECRET}:19000:0:99999:7:::\n", encoding="utf-8")
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "page.html").write_text(html_page(html_table(ROWS)), encoding="utf-8")
    (folder / "s.txt").symlink_to(secret)
    (folder / "up").symlink_to(outside, target_is_directory=True)
    warehouse = tmp_path / "warehouse"
    summary = pipeline.ingest([str(folder)], warehouse)
    failed = sorted(document.message for document in summary.failures)
    assert failed == [
        f"{folder / 's.txt'} is a symbolic link: links inside a folder are not followed",
        f"{folder / 'up'} is a symbolic link: links inside a folder are not followed",
    ]
    assert summary.count_status("new") == 1
    store = lake.archive_dir(warehouse)
    assert archive.stored_path(store, archive.sha256_of(secret.read_bytes())) is None
    archived = [path for path in store.rglob("*.zst")]
    assert len(archived) == 1  # the page alone


MARKUP_PAGE = """<html><head><title>Results</title></head><body><h1>Training results</h1>
<table><tr><th>Model</th><th>Platform</th><th>Precision</th><th>Training throughput
(images/sec)</th></tr>
<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>Bow Pod16</td><td>FP16</td><td>44059</td></tr>
<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>Bow Pod64</td><td>FP16</td><td>153205</td></tr>
</table></body></html>"""


def test_markup_a_page_publishes_stays_text_in_the_report(tmp_path):
    """A model named `<script>alert(1)</script>` (escaped in its page, so a cell's text) is
    shown in the report's tables and charts as text, never as markup that would run."""
    page = tmp_path / "results.html"
    page.write_text(MARKUP_PAGE, encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(page)], warehouse)
    result = run_cli("report", str(tmp_path / "report.html"), "--warehouse", str(warehouse))
    assert result.exit_code == 0, result.output
    html_page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<td>&lt;script&gt;alert(1)&lt;/script&gt; · training · fp16/fp16</td>" in html_page
    assert "<script" not in html_page


def test_links_in_an_mlperf_results_tree_are_not_followed(tmp_path):
    """A result file, a scaling.json and a system description that are symbolic links to
    files outside the tree: a unit archives none of them, and a tree read in place says
    each link is not followed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "result.txt"
    secret.write_text(
        f':::MLLOG {{"key": "submission_org", "value": "{SECRET}"}}\n', encoding="utf-8"
    )
    (outside / "scaling.json").write_text('{"scaling_factor": 0.5}', encoding="utf-8")
    tree = tmp_path / "training_results_v2.0"
    shutil.copytree(PROJECT_ROOT / "tests" / "fixtures" / "mlperf" / "training_results_v2.0", tree)
    resnet = tree / "Acme" / "results" / "pod16-tf-closed" / "resnet"
    (resnet / "result_5.txt").symlink_to(secret)
    (resnet / "scaling.json").symlink_to(outside / "scaling.json")
    in_place = read_results_tree(tree)
    reasons = {p.path.rsplit("/", 1)[-1]: p.reason for p in in_place.problems}
    assert reasons["result_5.txt"].startswith(
        "the result file is a symbolic link; links are not followed"
    )
    assert reasons["scaling.json"].startswith("not a regular file (links are not followed)")

    warehouse = tmp_path / "warehouse"
    pipeline.ingest([str(tree)], warehouse)
    store = lake.archive_dir(warehouse)
    for linked in (secret, outside / "scaling.json"):
        assert archive.stored_path(store, archive.sha256_of(linked.read_bytes())) is None
    assert query.run_sql(
        warehouse, "SELECT count(*) FROM lake.main.mlperf_runs WHERE run_name = 'result_5'"
    )[1] == [(0,)]
