"""A shared warehouse: a real PostgreSQL catalog and a real S3 API (moto) on 127.0.0.1.

The servers start once per session and stop at the end; nothing inside perfledger is mocked.
PostgreSQL checks a password (scram) given only in PGPASSWORD, and the S3 keys are given only
in AWS_*: a test then looks for both in everything the warehouse and the CLI wrote.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from perfledger.warehouse import lake, location
from tests.conftest import JULY_2023, PROJECT_ROOT
from tests.reliability.hostile import GOOD_VALUES, HTML_PAGE

ROLE = "analyst"
BUCKET = "perfledger-team"
RESNET_QUERY = (
    "SELECT model, platform, sdk_version, framework, value, unit FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput' AND sdk_version = 'SDK 3.0'"
)
INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: install them "
    "(Debian/Ubuntu: apt-get install postgresql) or set PERFLEDGER_PG_BIN to their folder"
)
# Columns that name a run or a machine's folder, which differ between two warehouses
# holding the same runs.
RUN_COLUMNS = ("run_id", "first_run_id", "archive_path")


# ---- the servers --------------------------------------------------------------------------


def postgres_bin() -> Path | None:
    candidates = [os.environ.get("PERFLEDGER_PG_BIN", "")]
    if shutil.which("pg_config"):
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            candidates.append(subprocess.run(["pg_config", "--bindir"], capture_output=True,
                                             text=True, check=True).stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if shutil.which("initdb"):
        candidates.append(str(Path(shutil.which("initdb")).parent))
    for folder in filter(None, candidates):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Postgres:
    """A throwaway PostgreSQL server: superuser `postgres` by trust on its own socket only,
    the role ROLE by password (scram) on 127.0.0.1."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.password = secrets.token_hex(16)
        self.port = free_port()
        # Not under pytest's 0700 temporary folder: the server's user must reach it.
        self.root = Path(tempfile.mkdtemp(prefix="perfledger-pg-"))
        self.as_server_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            if not shutil.which("runuser"):
                pytest.skip("running as root without runuser: cannot start PostgreSQL")
            try:
                shutil.chown(self.root, "postgres")
            except (LookupError, PermissionError):
                pytest.skip("running as root and there is no `postgres` user to run the "
                            "server as (apt-get install postgresql creates it)")
            self.as_server_user = ["runuser", "-u", "postgres", "--"]

    def run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_server_user, str(self.bindir / tool), *args],
                              capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{tool} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        data = self.root / "data"
        self.run("initdb", "-D", str(data), "-U", "postgres", "--auth-local=trust",
                 "--auth-host=scram-sha-256", "--no-sync")
        self.run("pg_ctl", "-D", str(data), "-l", str(self.root / "server.log"), "-w",
                 "-t", "60", "-o",
                 f"-p {self.port} -h 127.0.0.1 -k {self.root} -c fsync=off "
                 "-c full_page_writes=off -c synchronous_commit=off", "start")
        self.admin(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{self.password}'")

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError):
            self.run("pg_ctl", "-D", str(self.root / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(host=str(self.root), port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as session:
            session.execute(statement)

    def new_database(self) -> str:
        name = f"lake_{secrets.token_hex(4)}"
        self.admin(f"CREATE DATABASE {name} OWNER {ROLE}")
        return name

    def dump(self, database: str) -> str:
        """The whole catalog database as SQL text (pg_dump runs as any user)."""
        return subprocess.run(
            [str(self.bindir / "pg_dump"), "-h", str(self.root), "-p", str(self.port),
             "-U", "postgres", database], capture_output=True, text=True, check=True,
            timeout=120).stdout


@pytest.fixture(scope="session")
def postgres():
    bindir = postgres_bin()
    if bindir is None:
        pytest.skip(INSTALL_HINT)
    server = Postgres(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def s3():
    """moto's S3 API on 127.0.0.1 in a thread of this process, with a bucket; the keys are
    random, so that a test can look for them."""
    pytest.importorskip("moto.server", reason="moto[server] is in requirements-test.lock")
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {
        "AWS_ACCESS_KEY_ID": f"AKIA{secrets.token_hex(8).upper()}",
        "AWS_SECRET_ACCESS_KEY": secrets.token_hex(20),
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://{host}:{port}",
    }
    client = boto3.client(
        "s3", endpoint_url=env["AWS_ENDPOINT_URL"], region_name="us-east-1",
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"])
    client.create_bucket(Bucket=BUCKET)
    try:
        yield env, client
    finally:
        server.stop()


@pytest.fixture(scope="session")
def team(postgres, s3, tmp_path_factory):
    """What every machine of the team has in its environment, and a folder per machine."""
    aws, _client = s3
    env = {**aws, "PGUSER": ROLE, "PGPASSWORD": postgres.password}
    return Team(postgres, env, tmp_path_factory.mktemp("machines"))


class Team:
    def __init__(self, postgres: Postgres, env: dict[str, str], machines: Path):
        self.postgres = postgres
        self.env = env
        self.machines = machines
        self.outputs: list[str] = []  # everything the CLI printed, for the leak check

    def location(self, database: str, prefix: str) -> str:
        return (f"postgres://127.0.0.1:{self.postgres.port}/{database}"
                f"?data=s3://{BUCKET}/{prefix}")

    def machine_env(self, machine: str, **extra: str) -> dict[str, str]:
        """The environment of one machine: its own data folder (for this machine's side of
        a shared warehouse), no Prefect API (the CLI then runs in-process)."""
        home = self.machines / machine
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("PREFECT_", "PERFLEDGER_", "AWS_", "PG"))}
        return {**env, **self.env, "XDG_DATA_HOME": str(home / "data"),
                "PREFECT_HOME": str(home / "prefect"), **extra}

    def start(self, machine: str, *args: str, **extra: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "perfledger", *args], cwd=PROJECT_ROOT,
            env=self.machine_env(machine, **extra), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, start_new_session=True)

    def finish(self, process: subprocess.Popen, timeout_s: float = 240) -> tuple[int, str, str]:
        try:
            out, err = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        self.outputs += [out, err]
        return process.returncode, out, err

    def cli(self, machine: str, *args: str, code: int = 0) -> str:
        returncode, out, err = self.finish(self.start(machine, *args))
        assert returncode == code, f"perfledger {' '.join(args)}: {returncode}\n{out}\n{err}"
        return out


@pytest.fixture(scope="session")
def shared_demo(team):
    """The demo corpus ingested by `perfledger ingest` on machine A into a shared warehouse."""
    where = team.location(team.postgres.new_database(), "demo")
    started = time.monotonic()
    team.cli("a", "ingest", "--warehouse", where, "--quiet")
    print(f"shared demo ingest: {time.monotonic() - started:.1f} s")
    return where


@pytest.fixture
def team_env(team, monkeypatch, tmp_path):
    """This process as one more machine of the team (for in-process readers)."""
    for key in [k for k in os.environ if k.startswith(("AWS_", "PG"))]:
        monkeypatch.delenv(key)
    for key, value in team.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return team


# ---- the location, without servers --------------------------------------------------------


def test_a_url_names_the_catalog_and_data_in_duckdb_s_own_terms():
    shared = location.parse_url(
        "postgres://analyst@db.internal:5433/perfledger?data=s3://team/pl&sslmode=require")
    assert shared.conninfo == "dbname=perfledger host=db.internal port=5433 user=analyst " \
                              "sslmode=require"
    assert location.attach_target(shared) == f"ducklake:postgres:{shared.conninfo}"
    assert location.attach_options(shared, read_only=False) == [
        "DATA_PATH 's3://team/pl/'", "DATA_INLINING_ROW_LIMIT 0"]
    assert location.attach_options(shared, read_only=True, snapshot_version=3) == [
        "DATA_PATH 's3://team/pl/'", "READ_ONLY", "SNAPSHOT_VERSION 3"]
    # A reader's catalog sessions are read-only on the server too.
    assert "default_transaction_read_only=on" in location.attach_target(shared, read_only=True)
    assert shared.display() == \
        "postgres://analyst@db.internal:5433/perfledger?data=s3://team/pl"


@pytest.mark.parametrize("url, message", [
    ("postgres://analyst:hunter2@db/perfledger?data=s3://team/pl", "PGPASSWORD"),
    ("postgres://db/perfledger?data=s3://team/pl&password=hunter2", "environment"),
    ("postgres://db/perfledger", "no data path"),
    ("postgres://db/?data=s3://team/pl", "names no database"),
    ("postgres://db/perfledger?data=gs://team/pl", "neither s3://"),
    ("postgres://db/perfledger?data=s3://team/pl&colour=blue", "unknown parameter"),
])
def test_a_location_that_cannot_be_used_is_refused_saying_why(url, message):
    with pytest.raises(location.LocationError, match=message) as refused:
        location.parse_url(url)
    assert "hunter2" not in str(refused.value)


def test_a_toml_file_names_a_shared_warehouse_and_this_machine_s_folder(tmp_path):
    config = tmp_path / "team.toml"
    config.write_text(
        'catalog = "postgres:dbname=perfledger host=db.internal port=5432"\n'
        'data = "s3://team/perfledger"\nschema = "lake_meta"\n'
        f'local = "{tmp_path / "here"}"\n', encoding="utf-8")
    folder = location.resolve(str(config))
    assert folder == tmp_path / "here"
    shared = location.shared(folder)
    assert shared.data == "s3://team/perfledger/" and shared.schema == "lake_meta"
    assert "METADATA_SCHEMA 'lake_meta'" in location.attach_options(shared, read_only=True)
    # The folder stays a shared warehouse's when named by itself.
    assert location.resolve(folder) == folder and location.shared(folder) == shared


def test_a_password_in_the_toml_file_is_refused(tmp_path):
    config = tmp_path / "team.toml"
    config.write_text('catalog = "postgres:dbname=pl host=db password=hunter2"\n'
                      'data = "s3://team/pl"\n', encoding="utf-8")
    with pytest.raises(location.LocationError, match="PGPASSWORD"):
        location.resolve(str(config))


def test_a_folder_stays_a_folder_warehouse(tmp_path):
    assert location.resolve(str(tmp_path / "warehouse")) == tmp_path / "warehouse"
    assert location.shared(tmp_path / "warehouse") is None


def test_the_s3_secret_comes_from_the_aws_variables_only():
    shared = location.parse_url("postgres://db/pl?data=s3://team/pl")
    assert location.s3_secret_options(shared, {}) is None
    options = location.s3_secret_options(shared, {
        "AWS_ACCESS_KEY_ID": "AKIA1", "AWS_SECRET_ACCESS_KEY": "s3cr3t",
        "AWS_REGION": "eu-west-1", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000"})
    assert options == {"TYPE": "s3", "KEY_ID": "AKIA1", "SECRET": "s3cr3t",
                       "REGION": "eu-west-1", "SCOPE": "s3://team", "ENDPOINT": "127.0.0.1:9000",
                       "USE_SSL": "false", "URL_STYLE": "path"}


def test_machines_spelling_the_host_differently_take_the_same_lock():
    one = location.parse_url("postgres://db.internal/pl?data=s3://team/pl")
    other = location.parse_url("postgres://10.0.0.5:5432/pl?data=s3://team/pl")
    assert one.lock_key() == other.lock_key()
    assert location.parse_url("postgres://db/pl?data=s3://t/p&schema=b").lock_key() != \
        one.lock_key()


# ---- against the servers ------------------------------------------------------------------


@pytest.mark.slow
def test_the_demo_ingested_into_a_shared_warehouse_answers_a_real_value(team, shared_demo):
    out = team.cli("b", "sql", "--warehouse", shared_demo, RESNET_QUERY, "--format", "json")
    assert json.loads(out) == [{
        "model": "ResNet-50 v1.5", "platform": "Bow Pod16", "sdk_version": "SDK 3.0",
        "framework": "TensorFlow1", "value": 44059.0, "unit": "items/s"}]


@pytest.mark.slow
def test_the_data_is_parquet_objects_under_the_prefix(s3, shared_demo):
    _env, client = s3
    keys = [item["Key"] for page in client.get_paginator("list_objects_v2").paginate(
        Bucket=BUCKET, Prefix="demo/") for item in page.get("Contents", [])]
    assert any(key.startswith("demo/main/measurement_values/") for key in keys)
    assert keys and all(key.endswith(".parquet") for key in keys)
    body = client.get_object(Bucket=BUCKET, Key=keys[0])["Body"].read()
    assert body[:4] == body[-4:] == b"PAR1"


@pytest.mark.slow
def test_as_of_an_earlier_snapshot_answers_as_the_warehouse_stood_then(team, shared_demo):
    snapshots = json.loads(team.cli("b", "snapshots", "--warehouse", shared_demo,
                                    "--format", "json"))
    first, last = snapshots[0]["snapshot_id"], snapshots[-1]["snapshot_id"]
    assert first < last
    then = json.loads(team.cli("b", "sql", "--warehouse", shared_demo, "--as-of", str(first),
                               RESNET_QUERY, "--format", "json"))
    now = json.loads(team.cli("b", "sql", "--warehouse", shared_demo, "--as-of", str(last),
                              RESNET_QUERY, "--format", "json"))
    assert then == [] and [row["value"] for row in now] == [44059.0]


def comparable(connection, view: str) -> list[tuple]:
    columns = [row[0] for row in connection.execute(f"DESCRIBE {view}").fetchall()
               if row[0] not in RUN_COLUMNS]
    listed = ", ".join(f'"{column}"' for column in columns)
    return connection.execute(f"SELECT {listed} FROM {view} ORDER BY ALL").fetchall()


@pytest.mark.slow
def test_every_snapshot_answers_as_the_same_runs_on_a_folder_warehouse(
        team_env, shared_demo, demo_warehouse):
    folder = location.resolve(shared_demo)
    with lake.connect(folder, read_only=True, views=False) as shared, \
            lake.connect(demo_warehouse, read_only=True, views=False) as local:
        from perfledger.warehouse.query import ingest_snapshot_ids

        shared_runs, local_runs = ingest_snapshot_ids(shared), ingest_snapshot_ids(local)
    assert len(shared_runs) == len(local_runs) >= 2
    for shared_version, local_version in zip(shared_runs, local_runs, strict=True):
        with lake.connect(folder, read_only=True, snapshot_version=shared_version) as shared, \
                lake.connect(demo_warehouse, read_only=True,
                             snapshot_version=local_version) as local:
            for view in ("measurements", "claims", "quarantine", "documents"):
                assert comparable(shared, view) == comparable(local, view), \
                    f"{view} at snapshot {shared_version}"


@pytest.mark.slow
def test_readers_on_other_machines_see_the_data_and_cannot_change_it(team_env, shared_demo):
    """Two reader sessions, each its own DuckDB, as two analysts' machines would open."""
    folder = location.resolve(shared_demo)
    with lake.connect(folder, read_only=True) as one, lake.connect(folder, read_only=True) as two:
        counts = [c.execute("SELECT count(*) FROM measurements").fetchone()[0] for c in (one, two)]
        assert counts[0] == counts[1] > 0
    from perfledger.warehouse import query

    with pytest.raises(query.ReadOnlyViolation, match="postgres_query"):
        query.run_sql(folder, "SELECT * FROM postgres_query('__ducklake_metadata_lake', "
                              "'SELECT 1')")
    with pytest.raises(Exception, match="disabled by configuration"):
        query.run_sql(folder, f"SELECT * FROM read_parquet('s3://{BUCKET}/elsewhere/*.parquet')")


@pytest.mark.slow
def test_two_ingests_at_once_one_writes_the_other_waits_or_stops(team):
    """Machine A holds the writer lock (paused inside it); machine B's ingest without --wait
    stops naming A, and with --wait writes after A: both runs' values are there."""
    where = team.location(team.postgres.new_database(), "concurrent")
    started = time.monotonic()
    first = team.start("a", "ingest", str(JULY_2023), "--warehouse", where, "--quiet",
                       PERFLEDGER_TEST_PAUSE_AT="collected", PERFLEDGER_TEST_PAUSE_S="6")
    wait_for_pause(first)
    code, _out, err = team.finish(team.start("b", "ingest", str(HTML_PAGE), "--warehouse",
                                             where, "--quiet"))
    assert code == 2
    assert f"another ingest is writing to {location.parse_url(where).display()}" in err
    assert "perfledger writer on" in err and "--wait SECONDS" in err
    waiting = team.start("b", "ingest", str(HTML_PAGE), "--warehouse", where, "--quiet",
                         "--wait", "120")
    (first_code, first_out, first_err), (second_code, second_out, second_err) = (
        team.finish(first), team.finish(waiting))
    assert first_code == 0, first_err
    assert second_code == 0, second_err
    first_snapshots, second_snapshots = snapshot_ids(first_out), snapshot_ids(second_out)
    assert max(first_snapshots) < min(second_snapshots)  # B wrote after A, not between
    rows = json.loads(team.cli("c", "sql", "--warehouse", where, "--format", "json",
                               "SELECT source_id, count(*) AS n FROM measurements "
                               "GROUP BY ALL ORDER BY ALL"))
    assert [row["n"] for row in rows] == [GOOD_VALUES, GOOD_VALUES]
    print(f"two concurrent ingests: {time.monotonic() - started:.1f} s")


@pytest.mark.slow
def test_a_writer_killed_while_holding_the_lock_frees_it_and_leaves_the_last_snapshot(
        team, shared_demo):
    before = team.cli("b", "sql", "--warehouse", shared_demo, "--format", "csv",
                      "SELECT count(*) FROM measurements")
    killed = team.start("a", "ingest", str(HTML_PAGE), "--warehouse", shared_demo, "--quiet",
                        PERFLEDGER_TEST_PAUSE_AT="collected", PERFLEDGER_TEST_PAUSE_S="60")
    wait_for_pause(killed)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait(30)
    # The lock went with the killed writer's session: no stale lock to clear by hand.
    assert team.cli("b", "sql", "--warehouse", shared_demo, "--format", "csv",
                    "SELECT count(*) FROM measurements") == before
    out = team.cli("b", "ingest", "--warehouse", shared_demo, "--quiet", "--wait", "20")
    assert "0 new, 5 unchanged" in out


@pytest.mark.slow
def test_compact_merges_the_objects_and_every_snapshot_answers_as_before(
        team, team_env, shared_demo):
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
        team, s3, shared_demo):
    _env, client = s3
    secrets_given = [team.env["PGPASSWORD"], team.env["AWS_SECRET_ACCESS_KEY"],
                     team.env["AWS_ACCESS_KEY_ID"]]
    database = shared_demo.split("/")[3].split("?")[0]
    written = [team.postgres.dump(database), *team.outputs]
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for item in page.get("Contents", []):
            written.append(client.get_object(Bucket=BUCKET, Key=item["Key"])["Body"].read()
                           .decode("latin-1"))
    for path in team.machines.rglob("*"):
        if path.is_file() and path.suffix != ".duckdb_extension":
            written.append(path.read_bytes().decode("latin-1"))
    assert "ducklake_snapshot" in written[0]  # the dump holds the catalog
    for secret in secrets_given:
        assert not any(secret in text for text in written)


def wait_for_pause(process: subprocess.Popen, timeout_s: float = 120) -> None:
    """Until the ingest says it paused (inside the writer lock, after collecting)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if "paused at collected" in line:
            return
        if not line and process.poll() is not None:
            break
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError(f"the ingest never paused: {process.communicate()}")


def snapshot_ids(summary: str) -> list[int]:
    line = next(line for line in summary.splitlines() if line.startswith("snapshots:"))
    return [int(part) for part in line.split(":", 1)[1].replace(",", " ").split()]
