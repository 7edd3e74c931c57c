"""A shared warehouse: a real PostgreSQL catalog and a real S3 API (moto) on 127.0.0.1.

The servers start once per session and stop at the end; nothing inside perfledger is mocked.
PostgreSQL checks a password (scram) given only in PGPASSWORD, and the S3 keys are given only
in AWS_*: a test then looks for both in everything the warehouse and the CLI wrote.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from perfledger.sources import archive
from perfledger.warehouse import lake, location
from tests.conftest import JULY_2023
from tests.reliability.hostile import GOOD_VALUES, HTML_PAGE
from tests.servers import BUCKET

RESNET_QUERY = (
    "SELECT model, platform, sdk_version, framework, value, unit FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput' AND sdk_version = 'SDK 3.0'"
)
# Columns that name a run or a machine's folder, which differ between two warehouses
# holding the same runs.
RUN_COLUMNS = ("run_id", "first_run_id", "archive_path")


# ---- the location, without servers --------------------------------------------------------


def test_a_url_names_the_catalog_and_data_in_duckdb_s_own_terms():
    shared = location.parse_url(
        "postgres://analyst@db.internal:5433/perfledger?data=s3://team/pl&sslmode=require"
    )
    assert (
        shared.conninfo == "dbname=perfledger host=db.internal port=5433 user=analyst "
        "sslmode=require"
    )
    assert location.attach_target(shared) == f"ducklake:postgres:{shared.conninfo}"
    # Under the prefix as in a folder: DuckLake's files in data/, the raw archive in archive/.
    assert location.attach_options(shared, read_only=False) == [
        "DATA_PATH 's3://team/pl/data/'",
        "DATA_INLINING_ROW_LIMIT 0",
    ]
    assert location.attach_options(shared, read_only=True, snapshot_version=3) == [
        "DATA_PATH 's3://team/pl/data/'",
        "READ_ONLY",
        "SNAPSHOT_VERSION 3",
    ]
    assert shared.archive == "s3://team/pl/archive/"
    # A reader's catalog sessions are read-only on the server too.
    assert "default_transaction_read_only=on" in location.attach_target(shared, read_only=True)
    assert shared.display() == "postgres://analyst@db.internal:5433/perfledger?data=s3://team/pl"


@pytest.mark.parametrize(
    "url, message",
    [
        ("postgres://analyst:hunter2@db/perfledger?data=s3://team/pl", "PGPASSWORD"),
        ("postgres://db/perfledger?data=s3://team/pl&password=hunter2", "environment"),
        ("postgres://db/perfledger", "no data path"),
        ("postgres://db/?data=s3://team/pl", "names no database"),
        ("postgres://db/perfledger?data=gs://team/pl", "neither s3://"),
        ("postgres://db/perfledger?data=s3://team/pl&colour=blue", "unknown parameter"),
    ],
)
def test_a_location_that_cannot_be_used_is_refused_saying_why(url, message):
    with pytest.raises(location.LocationError, match=message) as refused:
        location.parse_url(url)
    assert "hunter2" not in str(refused.value)


def test_a_toml_file_names_a_shared_warehouse_and_this_machine_s_folder(tmp_path):
    config = tmp_path / "team.toml"
    config.write_text(
        'catalog = "postgres:dbname=perfledger host=db.internal port=5432"\n'
        'data = "s3://team/perfledger"\nschema = "lake_meta"\n'
        f'local = "{tmp_path / "here"}"\n',
        encoding="utf-8",
    )
    folder = location.resolve(str(config))
    assert folder == tmp_path / "here"
    shared = location.shared(folder)
    assert shared.data == "s3://team/perfledger/" and shared.schema == "lake_meta"
    assert "METADATA_SCHEMA 'lake_meta'" in location.attach_options(shared, read_only=True)
    # The folder stays a shared warehouse's when named by itself.
    assert location.resolve(folder) == folder and location.shared(folder) == shared


def test_a_password_in_the_toml_file_is_refused(tmp_path):
    config = tmp_path / "team.toml"
    config.write_text(
        'catalog = "postgres:dbname=pl host=db password=hunter2"\ndata = "s3://team/pl"\n',
        encoding="utf-8",
    )
    with pytest.raises(location.LocationError, match="PGPASSWORD"):
        location.resolve(str(config))


def test_a_folder_stays_a_folder_warehouse(tmp_path):
    assert location.resolve(str(tmp_path / "warehouse")) == tmp_path / "warehouse"
    assert location.shared(tmp_path / "warehouse") is None


def test_the_s3_secret_comes_from_the_aws_variables_only():
    shared = location.parse_url("postgres://db/pl?data=s3://team/pl")
    assert location.s3_secret_options(shared, {}) is None
    options = location.s3_secret_options(
        shared,
        {
            "AWS_ACCESS_KEY_ID": "AKIA1",
            "AWS_SECRET_ACCESS_KEY": "s3cr3t",
            "AWS_REGION": "eu-west-1",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        },
    )
    assert options == {
        "TYPE": "s3",
        "KEY_ID": "AKIA1",
        "SECRET": "s3cr3t",
        "REGION": "eu-west-1",
        "SCOPE": "s3://team",
        "ENDPOINT": "127.0.0.1:9000",
        "USE_SSL": "false",
        "URL_STYLE": "path",
    }


def test_machines_spelling_the_host_differently_take_the_same_lock():
    one = location.parse_url("postgres://db.internal/pl?data=s3://team/pl")
    other = location.parse_url("postgres://10.0.0.5:5432/pl?data=s3://team/pl")
    assert one.lock_key() == other.lock_key()
    assert (
        location.parse_url("postgres://db/pl?data=s3://t/p&schema=b").lock_key() != one.lock_key()
    )


# ---- against the servers ------------------------------------------------------------------


@pytest.mark.slow
def test_the_demo_ingested_into_a_shared_warehouse_answers_a_real_value(team, shared_demo):
    out = team.cli("b", "sql", "--warehouse", shared_demo, RESNET_QUERY, "--format", "json")
    assert json.loads(out) == [
        {
            "model": "ResNet-50 v1.5",
            "platform": "Bow Pod16",
            "sdk_version": "SDK 3.0",
            "framework": "TensorFlow1",
            "value": 44059.0,
            "unit": "items/s",
        }
    ]


def bucket_keys(client, prefix: str) -> list[str]:
    return [
        item["Key"]
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
        for item in page.get("Contents", [])
    ]


@pytest.mark.slow
def test_the_data_is_parquet_objects_under_the_prefix(s3, shared_demo):
    _env, client = s3
    keys = bucket_keys(client, "demo/data/")
    assert any(key.startswith("demo/data/main/measurement_values/") for key in keys)
    assert keys and all(key.endswith(".parquet") for key in keys)
    body = client.get_object(Bucket=BUCKET, Key=keys[0])["Body"].read()
    assert body[:4] == body[-4:] == b"PAR1"
    assert {key.split("/")[1] for key in bucket_keys(client, "demo/")} == {"data", "archive"}


@pytest.mark.slow
def test_every_document_a_snapshot_names_is_on_the_bucket_as_archived(team, s3, shared_demo):
    """The raw archive is on the bucket, named as in a folder's archive, with the very bytes:
    the July 2023 results page is there under its sha256, and reads back as the capture."""
    _env, client = s3
    documents = json.loads(
        team.cli(
            "b",
            "sql",
            "--warehouse",
            shared_demo,
            "--format",
            "json",
            "SELECT document_sha256 FROM documents",
        )
    )
    archived = {key.removeprefix("demo/archive/") for key in bucket_keys(client, "demo/archive/")}
    named = {name.split("/")[1].removesuffix(".zst") for name in archived}
    assert {row["document_sha256"] for row in documents} <= named
    july = archive.sha256_of(JULY_2023.read_bytes())
    compressed, plain = archive.stored_names(july)
    name = compressed if compressed in archived else plain
    stored = client.get_object(Bucket=BUCKET, Key=f"demo/archive/{name}")["Body"].read()
    assert archive.original_bytes(stored, name == compressed, july) == JULY_2023.read_bytes()


@pytest.mark.slow
def test_a_machine_that_never_read_a_page_reprocesses_from_the_bucket(team):
    """Machine A ingests the July 2023 results page; machine D, with an empty folder,
    reprocesses it: D reads the page from the bucket, keeps a copy, and the warehouse
    answers as before."""
    where = team.location(team.postgres.new_database(), "reread")
    team.cli("a", "ingest", str(JULY_2023), "--warehouse", where, "--quiet")
    before = team.cli("d", "sql", "--warehouse", where, RESNET_QUERY, "--format", "json")
    assert [row["value"] for row in json.loads(before)] == [44059.0]
    out = team.cli("d", "reprocess", "--warehouse", where)
    assert out.startswith("documents re-read: 1 (0 failed); values added 0, changed 0"), out
    assert team.cli("d", "sql", "--warehouse", where, RESNET_QUERY, "--format", "json") == before
    kept = list((team.machines / "d" / "data").rglob("archive/??/*"))
    assert [path.name.removesuffix(".zst") for path in kept] == [
        archive.sha256_of(JULY_2023.read_bytes())
    ]


@pytest.mark.slow
def test_an_export_to_the_bucket_lists_every_file_it_put_there(team, s3, shared_demo):
    """`export s3://...` puts the files and manifest.json on the bucket; a second export
    (as CSV) replaces the first, leaving none of its files; a prefix of other objects is
    never written to."""
    _env, client = s3
    target = f"s3://{BUCKET}/exports/demo"
    out = team.cli("b", "export", target, "--warehouse", shared_demo, "--print", "json")
    manifest = json.loads(out)
    count = json.loads(
        team.cli(
            "b",
            "sql",
            "--warehouse",
            shared_demo,
            "--format",
            "json",
            "SELECT count(*) AS n FROM measurements",
        )
    )[0]["n"]
    assert manifest["views"]["measurements"]["rows"] == count
    listed = {file["path"] for view in manifest["views"].values() for file in view["files"]}
    keys = {key.removeprefix("exports/demo/") for key in bucket_keys(client, "exports/demo/")}
    assert listed and keys == listed | {"manifest.json"}
    team.cli("b", "export", target, "--warehouse", shared_demo, "--format", "csv")
    again = {key.removeprefix("exports/demo/") for key in bucket_keys(client, "exports/demo/")}
    assert "measurements.csv" in again and not any(key.endswith(".parquet") for key in again)
    client.put_object(Bucket=BUCKET, Key="elsewhere/notes.txt", Body=b"not an export")
    _code, _out, err = team.finish(
        team.start("b", "export", f"s3://{BUCKET}/elsewhere", "--warehouse", shared_demo)
    )
    assert "holds objects and no perfledger export" in err
    assert bucket_keys(client, "elsewhere/") == ["elsewhere/notes.txt"]


@pytest.mark.slow
def test_a_run_reads_from_the_bucket_what_its_machine_lost(team, shared_demo):
    """Machine E's ingest archives a page, puts it on the bucket, and pauses; its local copy
    is then deleted. The run reads the page from the bucket, and loads its values."""
    where = team.location(team.postgres.new_database(), "lost")
    paused = team.start(
        "e",
        "ingest",
        str(HTML_PAGE),
        "--warehouse",
        where,
        "--quiet",
        PERFLEDGER_TEST_PAUSE_AT="collected",
        PERFLEDGER_TEST_PAUSE_S="3",
    )
    wait_for_pause(paused)
    local = list((team.machines / "e" / "data").rglob("archive/??/*"))
    assert local
    for path in local:
        path.unlink()
    code, out, err = team.finish(paused)
    assert code == 0, err
    rows = json.loads(
        team.cli(
            "c",
            "sql",
            "--warehouse",
            where,
            "--format",
            "json",
            "SELECT count(*) AS n FROM measurements",
        )
    )
    assert rows == [{"n": GOOD_VALUES}]


@pytest.mark.slow
def test_as_of_an_earlier_snapshot_answers_as_the_warehouse_stood_then(team, shared_demo):
    snapshots = json.loads(
        team.cli("b", "snapshots", "--warehouse", shared_demo, "--format", "json")
    )
    first, last = snapshots[0]["snapshot_id"], snapshots[-1]["snapshot_id"]
    assert first < last
    then = json.loads(
        team.cli(
            "b",
            "sql",
            "--warehouse",
            shared_demo,
            "--as-of",
            str(first),
            RESNET_QUERY,
            "--format",
            "json",
        )
    )
    now = json.loads(
        team.cli(
            "b",
            "sql",
            "--warehouse",
            shared_demo,
            "--as-of",
            str(last),
            RESNET_QUERY,
            "--format",
            "json",
        )
    )
    assert then == [] and [row["value"] for row in now] == [44059.0]


def comparable(connection, view: str) -> list[tuple]:
    columns = [
        row[0]
        for row in connection.execute(f"DESCRIBE {view}").fetchall()
        if row[0] not in RUN_COLUMNS
    ]
    listed = ", ".join(f'"{column}"' for column in columns)
    return connection.execute(f"SELECT {listed} FROM {view} ORDER BY ALL").fetchall()


@pytest.mark.slow
def test_every_snapshot_answers_as_the_same_runs_on_a_folder_warehouse(
    team_env, shared_demo, demo_warehouse
):
    folder = location.resolve(shared_demo)
    with (
        lake.connect(folder, read_only=True, views=False) as shared,
        lake.connect(demo_warehouse, read_only=True, views=False) as local,
    ):
        from perfledger.warehouse.query import ingest_snapshot_ids

        shared_runs, local_runs = ingest_snapshot_ids(shared), ingest_snapshot_ids(local)
    assert len(shared_runs) == len(local_runs) >= 2
    for shared_version, local_version in zip(shared_runs, local_runs, strict=True):
        with (
            lake.connect(folder, read_only=True, snapshot_version=shared_version) as shared,
            lake.connect(demo_warehouse, read_only=True, snapshot_version=local_version) as local,
        ):
            for view in ("measurements", "claims", "quarantine", "documents"):
                assert comparable(shared, view) == comparable(local, view), (
                    f"{view} at snapshot {shared_version}"
                )


@pytest.mark.slow
def test_readers_on_other_machines_see_the_data_and_cannot_change_it(team_env, shared_demo):
    """Two reader sessions, each its own DuckDB, as two analysts' machines would open."""
    folder = location.resolve(shared_demo)
    with lake.connect(folder, read_only=True) as one, lake.connect(folder, read_only=True) as two:
        counts = [c.execute("SELECT count(*) FROM measurements").fetchone()[0] for c in (one, two)]
        assert counts[0] == counts[1] > 0
    from perfledger.warehouse import query

    with pytest.raises(query.ReadOnlyViolation, match="postgres_query"):
        query.run_sql(
            folder, "SELECT * FROM postgres_query('__ducklake_metadata_lake', 'SELECT 1')"
        )
    with pytest.raises(Exception, match="disabled by configuration"):
        query.run_sql(folder, f"SELECT * FROM read_parquet('s3://{BUCKET}/elsewhere/*.parquet')")


@pytest.mark.slow
def test_two_ingests_at_once_one_writes_the_other_waits_or_stops(team):
    """Machine A holds the writer lock (paused inside it); machine B's ingest without --wait
    stops naming A, and with --wait writes after A: both runs' values are there."""
    where = team.location(team.postgres.new_database(), "concurrent")
    started = time.monotonic()
    first = team.start(
        "a",
        "ingest",
        str(JULY_2023),
        "--warehouse",
        where,
        "--quiet",
        PERFLEDGER_TEST_PAUSE_AT="collected",
        PERFLEDGER_TEST_PAUSE_S="6",
    )
    wait_for_pause(first)
    code, _out, err = team.finish(
        team.start("b", "ingest", str(HTML_PAGE), "--warehouse", where, "--quiet")
    )
    assert code == 2
    assert f"another ingest is writing to {location.parse_url(where).display()}" in err
    assert "perfledger writer on" in err and "--wait SECONDS" in err
    waiting = team.start(
        "b", "ingest", str(HTML_PAGE), "--warehouse", where, "--quiet", "--wait", "120"
    )
    (first_code, first_out, first_err), (second_code, second_out, second_err) = (
        team.finish(first),
        team.finish(waiting),
    )
    assert first_code == 0, first_err
    assert second_code == 0, second_err
    first_snapshots, second_snapshots = snapshot_ids(first_out), snapshot_ids(second_out)
    assert max(first_snapshots) < min(second_snapshots)  # B wrote after A, not between
    rows = json.loads(
        team.cli(
            "c",
            "sql",
            "--warehouse",
            where,
            "--format",
            "json",
            "SELECT source_id, count(*) AS n FROM measurements GROUP BY ALL ORDER BY ALL",
        )
    )
    assert [row["n"] for row in rows] == [GOOD_VALUES, GOOD_VALUES]
    print(f"two concurrent ingests: {time.monotonic() - started:.1f} s")


@pytest.mark.slow
def test_a_writer_killed_while_holding_the_lock_frees_it_and_leaves_the_last_snapshot(
    team, shared_demo
):
    before = team.cli(
        "b",
        "sql",
        "--warehouse",
        shared_demo,
        "--format",
        "csv",
        "SELECT count(*) FROM measurements",
    )
    killed = team.start(
        "a",
        "ingest",
        str(HTML_PAGE),
        "--warehouse",
        shared_demo,
        "--quiet",
        PERFLEDGER_TEST_PAUSE_AT="collected",
        PERFLEDGER_TEST_PAUSE_S="60",
    )
    wait_for_pause(killed)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait(30)
    # The lock went with the killed writer's session: no stale lock to clear by hand.
    assert (
        team.cli(
            "b",
            "sql",
            "--warehouse",
            shared_demo,
            "--format",
            "csv",
            "SELECT count(*) FROM measurements",
        )
        == before
    )
    out = team.cli("b", "ingest", "--warehouse", shared_demo, "--quiet", "--wait", "20")
    assert "0 new, 5 unchanged" in out


@pytest.mark.slow
def test_compact_merges_the_objects_and_every_snapshot_answers_as_before(
    team, team_env, shared_demo
):
    from perfledger.warehouse.query import ingest_snapshot_ids

    folder = location.resolve(shared_demo)

    def answers() -> dict[int, list[tuple]]:
        with lake.connect(folder, read_only=True, views=False) as connection:
            versions = ingest_snapshot_ids(connection)
        found = {}
        for version in versions:
            with lake.connect(folder, read_only=True, snapshot_version=version) as connection:
                found[version] = comparable(connection, "measurements")
        return found

    before = answers()
    assert team.cli("b", "compact", "--warehouse", shared_demo).startswith("merged ")
    assert answers() == before


@pytest.mark.slow
def test_no_credential_is_written_to_the_catalog_the_objects_the_folders_or_the_output(
    team, s3, shared_demo
):
    _env, client = s3
    secrets_given = [
        team.env["PGPASSWORD"],
        team.env["AWS_SECRET_ACCESS_KEY"],
        team.env["AWS_ACCESS_KEY_ID"],
    ]
    database = shared_demo.split("/")[3].split("?")[0]
    written = [team.postgres.dump(database), *team.outputs]
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for item in page.get("Contents", []):
            written.append(
                client.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read().decode("latin-1")
            )
    for path in team.machines.rglob("*"):
        if path.is_file() and path.suffix != ".duckdb_extension":
            written.append(path.read_bytes().decode("latin-1"))
    assert "ducklake_snapshot" in written[0]  # the dump holds the catalog
    for secret in secrets_given:
        assert not any(secret in text for text in written)


def wait_for_pause(
    process: subprocess.Popen, point: str = "collected", timeout_s: float = 120
) -> None:
    """Until the ingest says it paused at `point` (inside the writer lock)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if f"paused at {point}" in line:
            return
        if not line and process.poll() is not None:
            break
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError(f"the ingest never paused at {point}: {process.communicate()}")


def snapshot_ids(summary: str) -> list[int]:
    line = next(line for line in summary.splitlines() if line.startswith("snapshots:"))
    return [int(part) for part in line.split(":", 1)[1].replace(",", " ").split()]


@pytest.mark.slow
def test_a_dry_run_refuses_a_shared_warehouse_rather_than_write_to_it(
    team_env, shared_demo, tmp_path
):
    from perfledger.warehouse.dry_run_copy import copy_for_dry_run

    with pytest.raises(lake.WarehouseError, match="shared warehouse, whose catalog cannot be"):
        copy_for_dry_run(location.resolve(shared_demo), tmp_path / "scratch")
    assert not (tmp_path / "scratch").exists()


@pytest.mark.slow
def test_diff_of_a_shared_warehouse_reads_as_on_a_folder_warehouse(
    team, shared_demo, demo_warehouse
):
    """The demo's last change (what the July 2023 results page added), both ways."""
    shared = team.cli("b", "diff", "--warehouse", shared_demo, "--format", "json")
    local = team.cli("b", "diff", "--warehouse", str(demo_warehouse), "--format", "json")
    assert json.loads(shared) == json.loads(local) != []


@pytest.mark.slow
def test_doctor_checks_every_data_file_of_a_shared_warehouse_on_its_bucket(team, s3):
    """Whole: every file the catalog names is on the bucket. One object deleted: doctor
    names it with its table and exits 1."""
    _env, client = s3
    where = team.location(team.postgres.new_database(), "checked")
    team.cli("a", "ingest", str(JULY_2023), "--warehouse", where, "--quiet")
    whole = team.cli("b", "doctor", "--warehouse", where)
    assert "all present and readable" in whole, whole
    [lost] = [key for key in bucket_keys(client, "checked/data/main/measurement_values/")]
    client.delete_object(Bucket=BUCKET, Key=lost)
    broken = team.cli("b", "doctor", "--warehouse", where, code=1)
    assert f"s3://{BUCKET}/{lost}: missing (table measurement_values, current data)" in broken


@pytest.mark.slow
def test_a_label_mapped_on_one_machine_applies_to_runs_on_another(team, s3):
    """Machine A maps a label no vocabulary knows; machine B, which never saw the mapping,
    reprocesses and gets the mapped values: the settings live on the bucket."""
    _env, client = s3
    where = team.location(team.postgres.new_database(), "mapped")
    team.cli("a", "ingest", str(JULY_2023), "--warehouse", where, "--quiet")
    team.cli(
        "a",
        "map-label",
        "model",
        "ResNet-50 v1.5",
        "--set",
        "model=ResNet-50 (mapped)",
        "--warehouse",
        where,
    )
    assert bucket_keys(client, "mapped/settings/") == ["mapped/settings/label-mappings.toml"]
    out = team.cli("b", "reprocess", "--warehouse", where)
    assert out.startswith("documents re-read: 1 (0 failed)"), out
    mapped = json.loads(
        team.cli(
            "b",
            "sql",
            "--warehouse",
            where,
            "--format",
            "json",
            "SELECT DISTINCT model_canonical FROM measurements WHERE model = 'ResNet-50 v1.5'",
        )
    )
    assert mapped == [{"model_canonical": "ResNet-50 (mapped)"}]
    team.cli(
        "b",
        "map-label",
        "model",
        "BERT Large",
        "--set",
        "model=BERT (mapped)",
        "--warehouse",
        where,
    )
    both = client.get_object(Bucket=BUCKET, Key="mapped/settings/label-mappings.toml")
    text = both["Body"].read().decode()
    assert "ResNet-50 (mapped)" in text and "BERT (mapped)" in text  # B added to A's edit
