"""An MLPerf results tree as one document version: every file archived, a manifest as its bytes.

The tree's version is the sha256 of its manifest (relative path -> sha256 of each file), so
an unchanged checkout costs nothing on a re-run, and any past version can be read again
from the archive alone by laying its files out in a temporary folder.
"""

from __future__ import annotations

import json
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path

from sources import archive
from sources.mlperf.tree import (
    MAX_RESULT_FILES,
    MAX_SYSTEM_FILES,
    detect_round,
    find_submitters,
)

LAYOUT = "mlperf_tree"
CONTENT_TYPE = "application/vnd.perfledger.mlperf-tree+json"
MAX_TREE_FILE_BYTES = 64 * 1024 * 1024  # a result log is a few MB; anything bigger is not one


def tree_files(path: Path) -> dict[str, Path]:
    """Files of the submitter scopes under `path`, keyed by a path that keeps the round folder."""
    files: dict[str, Path] = {}
    for scope in find_submitters(path):
        base = scope.folder.parent.parent
        systems = sorted((scope.folder / "systems").glob("*.json"))[:MAX_SYSTEM_FILES]
        results_root = scope.folder / "results"
        if scope.system_id:
            results_root = results_root / scope.system_id
            if scope.benchmark:
                results_root = results_root / scope.benchmark
        logs = (sorted(p for p in results_root.rglob("*.txt") if not p.is_symlink())
                if scope.results else [])
        for file in [*systems, *logs[:MAX_RESULT_FILES]]:
            if file.is_file() and file.stat().st_size <= MAX_TREE_FILE_BYTES:
                files[file.relative_to(base).as_posix()] = file
    return files


def archive_tree(path: Path, store: Path) -> tuple[str, Path, int, str | None]:
    """(manifest sha256, manifest path, bytes archived, round) after archiving every file."""
    files = tree_files(path)
    manifest: dict[str, object] = {"round": None, "files": {}}
    total = 0
    for relative, file in files.items():
        data = file.read_bytes()
        sha256, _ = archive.store(store, data, {"location": str(file), "tree": str(path)})
        manifest["files"][relative] = sha256
        total += len(data)
    rounds = {detect_round(scope.folder) for scope in find_submitters(path)}
    manifest["round"] = next(iter(rounds)) if len(rounds) == 1 else None
    body = json.dumps(manifest, sort_keys=True, indent=0).encode("utf-8")
    sha256, manifest_path = archive.store(store, body, {"location": str(path), "kind": LAYOUT})
    return sha256, manifest_path, total, manifest["round"]


def _is_sha256(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None


@contextmanager
def materialized_tree(store: Path, manifest_sha256: str):
    """Yield (folder, round): the archived files laid out again under a temporary folder."""
    manifest = json.loads(archive.read(store, manifest_sha256))
    with tempfile.TemporaryDirectory(prefix="perfledger-mlperf-") as folder:
        for relative, sha256 in manifest["files"].items():
            # A manifest never names a path outside its own folder, nor a file outside the
            # archive (an absolute path would replace the folder; a bad sha256 climb out).
            parts = Path(relative).parts
            if ".." in parts or Path(relative).is_absolute() or not _is_sha256(sha256):
                continue
            target = Path(folder, *parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(store, sha256))
        yield Path(folder), manifest.get("round")
