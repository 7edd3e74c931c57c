"""The servers of a shared warehouse, started once per test session and stopped at its end
(see tests/servers.py): nothing inside perfledger is mocked. Registered for every test
folder by tests/conftest.py."""

from __future__ import annotations

import os
import secrets
import time

import pytest

from tests.servers import BUCKET, INSTALL_HINT, ROLE, Postgres, Team, postgres_bin


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
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
    )
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
