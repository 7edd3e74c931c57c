"""A unit of an MLPerf results tree as one document version: its files archived one by one, a
manifest as its bytes.

The unit's version is the sha256 of its manifest (relative path -> sha256 and size of each
file, plus the round and where it was read), so an unchanged unit costs nothing on a re-run
and a file changed by its submitter makes a new version of its unit alone. Any past version
can be read again from the archive alone by laying its files out in a temporary folder.
"""

from __future__ import annotations

import json
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path

from perfledger.sources import remote_archive
from perfledger.sources.mlperf.inference.tree import round_from_summary
from perfledger.sources.mlperf.mllog import round_from_log_text
from perfledger.sources.mlperf.units import INFERENCE, TreeUnit, round_from_folders

LAYOUT = "mlperf_tree"
CONTENT_TYPE = "application/vnd.perfledger.mlperf-tree+json"
MANIFEST_VERSION = 2
LOG_HEAD_BYTES = 16 * 1024  # where a log names its round, if it does
TRAINING_LOG = re.compile(r"^result_.*\.txt$")
REPOSITORY = {"training": "training_results_v{}", "inference": "inference_results_v{}"}


def unit_round(unit: TreeUnit, given: str | None) -> tuple[str | None, str | None]:
    """(round, where it was read): the logs where they say it, else a folder of the path,
    else `given` (`perfledger ingest --round`)."""
    logged = _round_from_logs(unit)
    if logged:
        return logged, "logs"
    folder = round_from_folders(unit.files[0].parent) if unit.files else None
    if folder:
        return folder, "folder"
    if given:
        return given, "option"
    return None, None


def _round_from_logs(unit: TreeUnit) -> str | None:
    """What the unit's first log says: a training log's own keys, an inference summary's
    seeds (each round fixes its own)."""
    if unit.kind == INFERENCE:
        # The performance run's summary: an accuracy run's may not show the seeds.
        summaries = sorted(
            (f for f in unit.files if f.name == "mlperf_log_summary.txt"),
            key=lambda f: f.parent.parent.name != "performance",
        )
        for summary in summaries:
            found = round_from_summary(summary)
            if found:
                return found
        return None
    for file in unit.files:
        if TRAINING_LOG.match(file.name):
            try:
                with file.open("rb") as handle:
                    head = handle.read(LOG_HEAD_BYTES).decode("utf-8", "replace")
            except OSError:
                return None
            return round_from_log_text(head)
    return None


def unit_source_id(unit: TreeUnit, mlperf_round: str | None, prefix: str | None) -> str:
    """`mlperf-training-v2.0/Graphcore/bow_pod16/resnet`: the unit's folders, as submitted."""
    head = prefix or f"mlperf-{unit.kind}-" + (
        f"v{mlperf_round}" if mlperf_round else "unknown-round"
    )
    return "/".join([head, *(_plain(part) for part in unit.name_parts())])


def _plain(part: str) -> str:
    return re.sub(r"[\s/\\]+", "_", part.strip()) or "_"


def unit_source_url(unit: TreeUnit, mlperf_round: str | None) -> str:
    """The unit's folder in the official results repository, or on this machine."""
    if mlperf_round is None:
        return unit.folder.resolve().as_uri()
    repository = REPOSITORY[unit.kind].format(mlperf_round)
    inside = unit.folder.relative_to(unit.base).parts
    if unit.kind != INFERENCE:
        inside = inside[1:]  # the checkout folder itself ("training_results_v2.0")
    return f"https://github.com/mlcommons/{repository}/tree/main/" + "/".join(inside)


def manifest_bytes(
    unit: TreeUnit,
    mlperf_round: str | None,
    round_from: str | None,
    parts: dict[str, tuple[str, int]],
    unreadable: dict[str, str],
) -> bytes:
    """The unit's document: every file's sha256 and size, by the path that keeps its folders."""
    manifest = {
        "manifest": MANIFEST_VERSION,
        "kind": unit.kind,
        "round": mlperf_round,
        "round_from": round_from,
        "division": unit.division,
        "submitter": unit.submitter,
        "system_id": unit.system_id,
        "benchmark": unit.benchmark,
        "scenario": unit.scenario,
        "files": {relative: sha256 for relative, (sha256, _) in sorted(parts.items())},
        "sizes": {relative: size for relative, (_, size) in sorted(parts.items())},
        # Listed, not archived: no rule reads them (accuracy logs of GBs, compliance runs).
        "unreadable": dict(sorted(unreadable.items())),
        "left_out": sorted(unit.relative(file) for file in unit.left_out),
    }
    return json.dumps(manifest, sort_keys=True, indent=0).encode("utf-8")


def _is_sha256(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None


def read_manifest(store: Path, manifest_sha256: str, archive_url: str | None = None) -> dict:
    manifest = json.loads(remote_archive.read(store, manifest_sha256, archive_url))
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ValueError("the archived manifest of this results tree has no file list")
    manifest.setdefault("kind", "training")  # manifests written before inference was read
    manifest.setdefault("sizes", {})
    manifest.setdefault("unreadable", {})
    return manifest


@contextmanager
def materialized_tree(
    store: Path,
    manifest_sha256: str,
    max_file_bytes: int | None = None,
    archive_url: str | None = None,
):
    """Yield (folder, manifest, skipped): the archived files laid out again under a temporary
    folder (read from `archive_url` where `store` lacks them); `skipped` maps each file over
    `max_file_bytes` (archived, not laid out) to its size."""
    manifest = read_manifest(store, manifest_sha256, archive_url)
    skipped: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="perfledger-mlperf-") as folder:
        for relative, sha256 in manifest["files"].items():
            # A manifest never names a path outside its own folder, nor a file outside the
            # archive (an absolute path would replace the folder; a bad sha256 climb out).
            parts = Path(relative).parts
            if ".." in parts or Path(relative).is_absolute() or not _is_sha256(sha256):
                continue
            size = manifest["sizes"].get(relative)
            if max_file_bytes is not None and isinstance(size, int) and size > max_file_bytes:
                skipped[relative] = size
                continue
            target = Path(folder, *parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(remote_archive.read(store, sha256, archive_url))
        yield Path(folder), manifest, skipped
