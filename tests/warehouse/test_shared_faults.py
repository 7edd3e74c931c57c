"""Faults against a shared warehouse: the object store answering 500s, slowly, or not at all,
and PostgreSQL restarted in the middle of a run.

The writer's S3 traffic goes through a proxy that injects the faults (tests/faulty_proxy.py);
the readers here talk to the S3 API directly, so they see what was really stored. A run either
succeeds through retries with the values a run without faults stores, or fails with a one-line
message and leaves the warehouse as it was: the same snapshots, the same answers.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

import pytest

from perfledger.warehouse import lake, location
from tests.conftest import JULY_2023
from tests.faulty_proxy import FaultyProxy
from tests.reliability.hostile import GOOD_VALUES
from tests.servers import BUCKET
from tests.warehouse.test_shared_warehouse import (
    RESNET_QUERY,
    comparable,
    snapshot_ids,
    wait_for_pause,
)

WRITER = "faulty"  # the machine whose object store requests go through the proxy
RESNET_THROUGHPUT = 44059.0  # ResNet-50 v1.5 training, Bow Pod16, SDK 3.0 (the demo corpus)
# DuckDB's own default gives up after 4 attempts of one request: a fault that outlasts them.
FAILED_REQUESTS = 5


@pytest.fixture
def proxy(s3):
    env, _client = s3
    with FaultyProxy(env["AWS_ENDPOINT_URL"].removeprefix("http://")) as running:
        yield running


@dataclass(frozen=True)
class Stored:
    """What a reader finds in a warehouse."""

    snapshots: list[tuple]
    count: int
    resnet: list[float]
    measurements: list[tuple]


def stored(where: str) -> Stored:
    """Read in this process (a machine of the team, see `team_env`), straight from S3."""
    with lake.connect(location.resolve(where), read_only=True) as reader:
        return Stored(
            snapshots=reader.execute(
                f"SELECT * FROM ducklake_snapshots('{lake.LAKE}') ORDER BY snapshot_id"
            ).fetchall(),
            count=reader.execute("SELECT count(*) FROM measurements").fetchone()[0],
            resnet=[row[4] for row in reader.execute(RESNET_QUERY).fetchall()],
            measurements=comparable(reader, "measurements"),
        )


def new_warehouse(team, prefix: str) -> str:
    return team.location(team.postgres.new_database(), prefix)


def start_ingest(
    team, proxy: FaultyProxy, where: str, *targets: str, **env: str
) -> subprocess.Popen:
    return team.start(
        WRITER,
        "ingest",
        *targets,
        "--warehouse",
        where,
        "--quiet",
        AWS_ENDPOINT_URL=proxy.endpoint,
        **env,
    )


def with_july_2023(team, prefix: str) -> tuple[str, Stored]:
    """A new shared warehouse holding the July 2023 results page, and what it stores."""
    where = new_warehouse(team, prefix)
    team.cli(WRITER, "ingest", str(JULY_2023), "--warehouse", where, "--quiet")
    return where, stored(where)


def paused_at_load(team, proxy: FaultyProxy, where: str, pause_s: str) -> subprocess.Popen:
    """An ingest of the demo corpus, once it pauses inside its lock right before committing."""
    ingest = start_ingest(
        team, proxy, where, PERFLEDGER_TEST_PAUSE_AT="load", PERFLEDGER_TEST_PAUSE_S=pause_s
    )
    wait_for_pause(ingest, "load")
    return ingest


def error_lines(stderr: str) -> list[str]:
    """What the ingest said on stderr, less the test-only pause notices."""
    return [
        line
        for line in stderr.splitlines()
        if line.strip() and not line.startswith("perfledger: paused at")
    ]


def advisory_locks(postgres, database: str) -> int:
    """Advisory locks held on the catalog database: the writer lock is the only one."""
    import psycopg

    with psycopg.connect(
        host=str(postgres.root),
        port=postgres.port,
        user="postgres",
        dbname=database,
        autocommit=True,
    ) as session:
        return session.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
        ).fetchone()[0]


def database_of(where: str) -> str:
    return location.parse_url(where).catalog["dbname"]


@pytest.mark.slow
def test_the_proxy_passes_signed_requests_through_and_injects_its_faults(s3, proxy, monkeypatch):
    """With moto checking signatures, every kind of request an S3 client makes passes: the
    Host header the client signed (the proxy's) reaches moto as it was sent."""
    import boto3
    import botocore.config
    import botocore.exceptions
    from moto import settings

    env, _client = s3
    iam = boto3.client(
        "iam",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
    )
    user = f"proxy-check-{time.monotonic_ns()}"
    iam.create_user(UserName=user)
    iam.put_user_policy(
        UserName=user,
        PolicyName="everything",
        PolicyDocument=(
            '{"Version": "2012-10-17", "Statement": '
            '[{"Effect": "Allow", "Action": "*", "Resource": "*"}]}'
        ),
    )
    key = iam.create_access_key(UserName=user)["AccessKey"]
    monkeypatch.setattr(settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)  # moto checks from now

    def client(secret: str):
        return boto3.client(
            "s3",
            endpoint_url=proxy.endpoint,
            region_name="us-east-1",
            aws_access_key_id=key["AccessKeyId"],
            aws_secret_access_key=secret,
            config=botocore.config.Config(retries={"total_max_attempts": 1}),
        )

    signed, body = client(key["SecretAccessKey"]), bytes(range(256)) * 64
    signed.put_object(Bucket=BUCKET, Key="proxy-check/whole", Body=body)
    assert signed.head_object(Bucket=BUCKET, Key="proxy-check/whole")["ContentLength"] == len(body)
    assert (
        signed.get_object(Bucket=BUCKET, Key="proxy-check/whole", Range="bytes=256-511")[
            "Body"
        ].read()
        == body[256:512]
    )
    upload = signed.create_multipart_upload(Bucket=BUCKET, Key="proxy-check/parts")
    part = signed.upload_part(
        Bucket=BUCKET, Key="proxy-check/parts", PartNumber=1, UploadId=upload["UploadId"], Body=body
    )
    signed.complete_multipart_upload(
        Bucket=BUCKET,
        Key="proxy-check/parts",
        UploadId=upload["UploadId"],
        MultipartUpload={"Parts": [{"ETag": part["ETag"], "PartNumber": 1}]},
    )
    assert signed.get_object(Bucket=BUCKET, Key="proxy-check/parts")["Body"].read() == body
    with pytest.raises(botocore.exceptions.ClientError, match="SignatureDoesNotMatch"):
        client("not-the-secret").get_object(Bucket=BUCKET, Key="proxy-check/whole")
    # moto checks the signed Host too: a request signed for the proxy that reaches moto with
    # moto's own address as its Host (sent there directly) is refused, as every request
    # would be if the proxy rewrote the header.
    elsewhere = client(key["SecretAccessKey"])
    elsewhere.meta.events.register(
        "before-send",
        lambda request, **_: setattr(
            request, "url", request.url.replace(proxy.endpoint, env["AWS_ENDPOINT_URL"])
        ),
    )
    with pytest.raises(botocore.exceptions.ClientError, match="SignatureDoesNotMatch"):
        elsewhere.get_object(Bucket=BUCKET, Key="proxy-check/whole")

    proxy.fail_next(1)
    with pytest.raises(botocore.exceptions.ClientError, match="InternalError") as failed:
        signed.get_object(Bucket=BUCKET, Key="proxy-check/whole")
    assert failed.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    assert signed.get_object(Bucket=BUCKET, Key="proxy-check/whole")["Body"].read() == body
    proxy.fail_for(60)
    for _attempt in range(3):
        with pytest.raises(botocore.exceptions.ClientError, match=r"\(500\)"):  # HEAD: no body
            signed.head_object(Bucket=BUCKET, Key="proxy-check/whole")
    proxy.heal()
    proxy.delay(0.2)
    started = time.monotonic()
    signed.head_object(Bucket=BUCKET, Key="proxy-check/whole")
    assert time.monotonic() - started >= 0.2
    proxy.go_down()
    with pytest.raises(botocore.exceptions.ConnectionClosedError):
        signed.delete_object(Bucket=BUCKET, Key="proxy-check/whole")
    proxy.heal()
    for name in ("whole", "parts"):
        signed.delete_object(Bucket=BUCKET, Key=f"proxy-check/{name}")
    assert (proxy.seen.failed, proxy.seen.dropped) == (4, 1)


@pytest.mark.slow
def test_an_object_store_answering_500s_for_a_while_costs_retries_not_the_run(
    team, team_env, shared_demo, proxy
):
    where = new_warehouse(team, "answering-500s")
    started = time.monotonic()
    ingest = paused_at_load(team, proxy, where, "0.5")
    proxy.fail_next(FAILED_REQUESTS)  # the first requests of the run's commit
    code, out, err = team.finish(ingest)
    assert code == 0, err
    failed = [request for request in proxy.seen.requests if request[3] == "fail"]
    assert len(failed) == FAILED_REQUESTS
    assert any(
        method == "PUT" and path.endswith(".parquet") for _at, method, path, _action in failed
    ), failed
    assert "5 new" in out
    faulted, clean = stored(where), stored(shared_demo)
    assert faulted.resnet == clean.resnet == [RESNET_THROUGHPUT]
    assert faulted.count == clean.count == GOOD_VALUES
    assert faulted.measurements == clean.measurements
    print(
        f"500s for the first {FAILED_REQUESTS} requests of a commit: "
        f"{time.monotonic() - started:.1f} s"
    )


@pytest.mark.slow
def test_a_slow_object_store_costs_time_not_the_run(team, team_env, proxy):
    where = new_warehouse(team, "slow")
    proxy.delay(0.1)
    started = time.monotonic()
    code, _out, err = team.finish(start_ingest(team, proxy, where, str(JULY_2023)))
    assert code == 0, err
    assert proxy.seen.forwarded >= 15 and proxy.seen.failed == proxy.seen.dropped == 0
    faulted = stored(where)
    assert faulted.resnet == [RESNET_THROUGHPUT] and faulted.count == GOOD_VALUES
    print(
        f"every answer 0.1 s late, {proxy.seen.forwarded} requests: "
        f"{time.monotonic() - started:.1f} s"
    )


@pytest.mark.slow
def test_an_object_store_down_for_the_whole_commit_fails_the_run_and_changes_nothing(
    team, team_env, proxy
):
    """The ingest pauses inside its lock before committing, and the store goes down then: the
    run's first Parquet write fails after its retries, and the catalog is never touched."""
    where, before = with_july_2023(team, "down")
    started = time.monotonic()
    ingest = paused_at_load(team, proxy, where, "0.5")
    proxy.go_down()
    code, out, err = team.finish(ingest)
    failed_after = time.monotonic() - started
    assert code == 2, out + err
    assert "Traceback" not in err
    [message] = error_lines(err)
    assert message.startswith("error: the ingest stopped: ") and "HTTP PUT" in message, message
    assert proxy.seen.dropped > 1  # retried before giving up
    assert stored(where) == before
    assert before.count == GOOD_VALUES and before.resnet == [RESNET_THROUGHPUT]

    proxy.heal()
    code, out, err = team.finish(start_ingest(team, proxy, where))
    assert code == 0, err
    assert "3 new" in out
    after = stored(where)
    assert after.snapshots[: len(before.snapshots)] == before.snapshots
    assert len(after.snapshots) > len(before.snapshots)
    assert after.count == GOOD_VALUES and after.resnet == [RESNET_THROUGHPUT]
    print(f"object store down: the run failed after {failed_after:.1f} s")


@pytest.mark.slow
def test_postgresql_restarted_while_a_writer_holds_the_lock_fails_that_run_alone(
    team, team_env, proxy
):
    """The ingest pauses inside its lock before committing while PostgreSQL restarts: the
    restart ends the lock's session with every other, so the run must not go on to commit
    through new catalog sessions as if it still held the lock."""
    where, before = with_july_2023(team, "catalog-restarted")
    ingest = paused_at_load(team, proxy, where, "2")
    started = time.monotonic()
    team.postgres.restart()
    restarted_in = time.monotonic() - started
    code, out, err = team.finish(ingest)
    assert code == 2, out + err
    assert "Traceback" not in err
    [message] = error_lines(err)
    assert message.startswith("error: the ingest stopped: ") and "connection" in message, message
    assert stored(where) == before
    assert advisory_locks(team.postgres, database_of(where)) == 0

    code, out, err = team.finish(start_ingest(team, proxy, where))  # no --wait: the lock is free
    assert code == 0, err
    assert "3 new" in out
    last_before = before.snapshots[-1][0]
    assert min(snapshot_ids(out)) > last_before
    assert advisory_locks(team.postgres, database_of(where)) == 0
    print(f"PostgreSQL restarted in {restarted_in:.1f} s while a writer held the lock")


def terminate_writer_lock_sessions(postgres, database: str) -> int:
    """End the writer lock's own session (named by location.writer_lock), and no other."""
    import psycopg

    with psycopg.connect(
        host=str(postgres.root),
        port=postgres.port,
        user="postgres",
        dbname=database,
        autocommit=True,
    ) as session:
        return session.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND application_name LIKE 'perfledger writer on %%'",
            [database],
        ).fetchone()[0]


@pytest.mark.slow
def test_a_run_whose_lock_session_ended_commits_nothing(team, team_env, proxy):
    """Only the lock's session ends (an operator's pg_terminate_backend) while the run's own
    catalog sessions live on: the run asks for its lock before committing, finds it gone,
    and commits nothing, so that no other writer can have been let in meanwhile."""
    where, before = with_july_2023(team, "lock-lost")
    ingest = paused_at_load(team, proxy, where, "2")
    assert terminate_writer_lock_sessions(team.postgres, database_of(where)) == 1
    code, out, err = team.finish(ingest)
    assert code == 2, out + err
    assert "Traceback" not in err
    [message] = error_lines(err)
    assert (
        "this run lost the writer lock of" in message and "nothing of it was committed" in message
    ), message
    assert stored(where) == before
    code, out, err = team.finish(start_ingest(team, proxy, where))  # the lock is free
    assert code == 0, err
    after = stored(where)
    assert len(after.snapshots) > len(before.snapshots) and after.count == GOOD_VALUES


@pytest.mark.slow
def test_an_object_store_down_while_the_pages_are_archived_fails_the_run_plainly(
    team, team_env, proxy
):
    """The raw pages go up before anything is written to the catalog: a store that is down
    then fails the run with a one-line message naming the object, and nothing changes."""
    where, before = with_july_2023(team, "archive-down")
    proxy.go_down(matching="/archive-down/archive/")
    try:
        code, out, err = team.finish(start_ingest(team, proxy, where))
    finally:
        proxy.heal()
    assert code == 2, out + err
    assert "Traceback" not in err
    [message] = error_lines(err)
    assert message.startswith("error: ") and f"s3://{BUCKET}/archive-down/archive/" in message, (
        message
    )
    assert stored(where) == before
