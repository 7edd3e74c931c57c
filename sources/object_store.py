"""Objects under one prefix of an S3 bucket (AWS's, or any S3 API): where a shared
warehouse keeps its raw archive and its exports.

The credentials and the endpoint are those DuckDB's S3 secret takes for the warehouse's
data (warehouse/location.py): the AWS_* variables, else boto3's own chain (~/.aws, an
instance role). Each request is retried with backoff when the store answers 5xx, throttles
or times out, so a store that stumbles for a while costs time, not the run; one that stays
down makes the call raise `ObjectStoreError`, saying which object and why.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

URL_STYLE_ENV = "PERFLEDGER_S3_URL_STYLE"  # as the DuckDB secret: "path" (default) or "vhost"
# Attempts per request (the first one included), and how long one may take: a run against
# a store that is down gives up after about a minute rather than hanging.
MAX_ATTEMPTS = 6
CONNECT_TIMEOUT_S = 10
READ_TIMEOUT_S = 60


class ObjectStoreError(OSError):
    """An object could not be written or read, after the retries."""


def split_url(url: str) -> tuple[str, str]:
    """('bucket', 'prefix/') of 's3://bucket/prefix/'; the prefix ends in '/' or is ''."""
    if not url.startswith("s3://"):
        raise ValueError(f"not an s3:// URL: {url}")
    bucket, _, prefix = url.removeprefix("s3://").partition("/")
    if not bucket:
        raise ValueError(f"no bucket in {url}")
    prefix = prefix.strip("/")
    return bucket, f"{prefix}/" if prefix else ""


class ObjectStore:
    """The objects under `url` (s3://BUCKET/PREFIX/), named by their path below it."""

    def __init__(self, url: str) -> None:
        self.url = url if url.endswith("/") else f"{url}/"
        self.bucket, self.prefix = split_url(self.url)
        self._client = None
        self._making_client = threading.Lock()

    def key(self, relative: str) -> str:
        return self.prefix + relative.lstrip("/")

    def address(self, relative: str) -> str:
        return f"s3://{self.bucket}/{self.key(relative)}"

    @property
    def client(self):
        with self._making_client:  # boto3 sessions are not to be made on two threads at once
            if self._client is None:
                self._client = _client()
        return self._client

    def size(self, relative: str) -> int | None:
        """The object's size; None when there is none."""
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.key(relative))
        except Exception as error:
            if _is_missing(error):
                return None
            raise self._failed("cannot look up", relative, error) from None
        return int(head["ContentLength"])

    def put_file(self, relative: str, path: Path) -> None:
        """The file's bytes as the object; S3 makes it visible whole or not at all."""
        try:
            with path.open("rb") as body:
                self.client.put_object(Bucket=self.bucket, Key=self.key(relative), Body=body)
        except OSError:
            raise
        except Exception as error:
            raise self._failed("cannot write", relative, error) from None

    def get(self, relative: str) -> bytes | None:
        """The object's bytes; None when there is none."""
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self.key(relative))
            return answer["Body"].read()
        except Exception as error:
            if _is_missing(error):
                return None
            raise self._failed("cannot read", relative, error) from None

    def delete(self, relatives: list[str]) -> None:
        """Remove these objects (S3 takes up to 1,000 names a request)."""
        for start in range(0, len(relatives), 1000):
            batch = [{"Key": self.key(name)} for name in relatives[start : start + 1000]]
            try:
                answer = self.client.delete_objects(
                    Bucket=self.bucket, Delete={"Objects": batch, "Quiet": True}
                )
            except Exception as error:
                raise self._failed("cannot delete under", "", error) from None
            if answer.get("Errors"):
                first = answer["Errors"][0]
                raise ObjectStoreError(
                    f"cannot delete s3://{self.bucket}/{first['Key']}: "
                    f"{first.get('Message', first.get('Code'))}"
                )

    def names(self, relative_prefix: str = "") -> Iterator[str]:
        """The objects' names below `relative_prefix`, relative to this store's prefix."""
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.key(relative_prefix)
        )
        try:
            for page in pages:
                for item in page.get("Contents", []):
                    yield item["Key"][len(self.prefix) :]
        except Exception as error:
            raise self._failed("cannot list", relative_prefix, error) from None

    def sizes(self, relative_prefix: str = "") -> dict[str, int]:
        """Every object's size below `relative_prefix`, by its name (one request a 1,000)."""
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.key(relative_prefix)
        )
        try:
            return {
                item["Key"][len(self.prefix) :]: int(item["Size"])
                for page in pages
                for item in page.get("Contents", [])
            }
        except Exception as error:
            raise self._failed("cannot list", relative_prefix, error) from None

    def _failed(self, doing: str, relative: str, error: Exception) -> ObjectStoreError:
        # botocore's messages name the operation and the status; never a credential.
        return ObjectStoreError(f"{doing} {self.address(relative)}: {error}")


class FolderStore:
    """The same for a folder every machine mounts (a shared warehouse's data on NFS, say)."""

    def __init__(self, folder: str) -> None:
        self.url = folder if folder.endswith("/") else f"{folder}/"
        self.root = Path(self.url)

    def address(self, relative: str) -> str:
        return str(self.root / relative)

    def size(self, relative: str) -> int | None:
        try:
            return (self.root / relative).stat().st_size
        except FileNotFoundError:
            return None

    def put_file(self, relative: str, path: Path) -> None:
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        shutil.copyfile(path, temporary)
        with temporary.open("rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)

    def get(self, relative: str) -> bytes | None:
        try:
            return (self.root / relative).read_bytes()
        except FileNotFoundError:
            return None

    def names(self, relative_prefix: str = "") -> Iterator[str]:
        for path in sorted(self.root.glob(f"{relative_prefix}**/*")):
            if path.is_file():
                yield path.relative_to(self.root).as_posix()

    def sizes(self, relative_prefix: str = "") -> dict[str, int]:
        return {name: (self.root / name).stat().st_size for name in self.names(relative_prefix)}


def store_at(url: str) -> ObjectStore | FolderStore:
    """The objects under an s3:// URL or an absolute folder."""
    return FolderStore(url) if url.startswith("/") else ObjectStore(url)


def _client():
    # boto3 loads in about 0.3 s and 30 MB: only a shared warehouse's run pays for it.
    import boto3.session
    from botocore.config import Config

    style = "virtual" if os.environ.get(URL_STYLE_ENV) == "vhost" else "path"
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    config = Config(
        retries={"mode": "standard", "total_max_attempts": MAX_ATTEMPTS},
        connect_timeout=CONNECT_TIMEOUT_S,
        read_timeout=READ_TIMEOUT_S,
        s3={"addressing_style": style if endpoint else "auto"},
    )
    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint, region_name=region, config=config
    )


def _is_missing(error: Exception) -> bool:
    response = getattr(error, "response", None) or {}
    code = str(response.get("Error", {}).get("Code", ""))
    return code in {"404", "NoSuchKey", "NotFound"}
