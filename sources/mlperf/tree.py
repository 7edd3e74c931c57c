"""Read a checkout of an MLPerf Training results repository, or a part of one, into frames."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from schemas.mlperf import RUN_DTYPES, SCORE_DTYPES, SYSTEM_DTYPES
from schemas.vocabulary import read_vocab
from sources.mlperf.mllog import Problem, RunLog, read_result_file
from sources.mlperf.scoring import BenchmarkScore, RunTime, score_benchmark
from sources.mlperf.systems import (
    DIVISIONS,
    MAX_SYSTEM_BYTES,
    SystemDescription,
    read_system_file,
)

# Bounds on what one read may touch, whatever the tree holds.
MAX_DIRECTORY_ENTRIES = 20_000
MAX_SYSTEM_FILES = 2_000
MAX_RESULT_FILES = 50_000
SEARCH_DEPTH = 2  # a checkout root, or the folder that holds checkouts
ANCESTOR_DEPTH = 3  # a benchmark folder is results/<system>/<benchmark> under a submitter

_ROUND = re.compile(r"^training(?:_results)?_v(\d+\.\d+)$", re.I)
_RESULT_FILE = re.compile(r"^result_(\d+)\.txt$")
PROBLEM_COLUMNS = {"path": pl.String, "line_number": pl.Int32, "check": pl.String,
                   "reason": pl.String, "raw": pl.String}


@dataclass
class MlperfResults:
    """Official results read from a tree: systems, runs, scores and what could not be read."""

    root: Path
    systems: pl.DataFrame
    runs: pl.DataFrame
    scores: pl.DataFrame
    problems: list[Problem] = field(default_factory=list)
    digest: str = ""  # sha256 over every file read (path and bytes): the tree's version

    def problems_frame(self) -> pl.DataFrame:
        rows = [(p.path, p.line_number, p.check, p.reason, p.raw) for p in self.problems]
        return pl.DataFrame(rows, schema=PROBLEM_COLUMNS, orient="row")


@dataclass(frozen=True)
class SubmitterScope:
    """A submitter folder (<submitter>/systems, <submitter>/results) and the part to read."""

    folder: Path
    system_id: str | None = None  # only this results/<system_id>
    benchmark: str | None = None  # only this results/<system_id>/<benchmark>
    results: bool = True  # False when only systems/ was named


def is_results_tree(path: Path) -> bool:
    """True for a results checkout, a folder holding checkouts, or a part of a checkout."""
    return bool(find_submitters(Path(path)))


def find_submitters(path: Path) -> list[SubmitterScope]:
    """The submitter folders `path` is, holds (two levels down at most) or lies inside."""
    path = Path(path)
    if not path.is_dir():
        return []
    if _is_submitter_folder(path):
        return [SubmitterScope(path)]
    inside = _scope_inside(path)
    if inside is not None:
        return [inside]
    return [SubmitterScope(folder) for folder in _submitters_below(path)]


def _is_submitter_folder(path: Path) -> bool:
    return (path / "systems").is_dir() and (path / "results").is_dir()


def _scope_inside(path: Path) -> SubmitterScope | None:
    for ancestor in list(path.parents)[:ANCESTOR_DEPTH]:
        if not _is_submitter_folder(ancestor):
            continue
        parts = path.relative_to(ancestor).parts
        if parts[0] == "systems":
            return SubmitterScope(ancestor, results=False)
        if parts[0] == "results":
            return SubmitterScope(ancestor, *(list(parts[1:3]) + [None, None])[:2])
        return None
    return None


def _submitters_below(path: Path) -> list[Path]:
    found: list[Path] = []
    level = [path]
    seen = 0
    for _ in range(SEARCH_DEPTH):
        below: list[Path] = []
        for folder in level:
            for child in _child_folders(folder):
                seen += 1
                if seen > MAX_DIRECTORY_ENTRIES:
                    return found
                (found if _is_submitter_folder(child) else below).append(child)
        level = below
    return found


def _child_folders(folder: Path) -> list[Path]:
    # Symbolic links are not followed: a tree must not lead the reader out of itself.
    # scandir's entries know their type: no stat per file of a folder of pages.
    try:
        with os.scandir(folder) as entries:
            return sorted(Path(entry.path) for entry in entries
                          if entry.is_dir(follow_symlinks=False))
    except OSError:
        return []


def detect_round(folder: Path) -> str | None:
    """'.../training_results_v2.0/Graphcore' or '.../training_v2.0/...' -> '2.0'."""
    for part in reversed(Path(folder).resolve().parts):
        match = _ROUND.match(part)
        if match:
            return match.group(1)
    return None


def read_results_tree(path: Path, mlperf_round: str | None = None) -> MlperfResults:
    """Systems, runs and official scores of every submitter under `path`.

    `mlperf_round` overrides the round read from a folder name such as "training_v2.0".
    Nothing raises on bad input: unreadable files and lines become problems.
    """
    path = Path(path)
    reader = _TreeReader()
    scopes = find_submitters(path)
    if not scopes:
        reader.problems.append(Problem(
            "not_a_results_tree",
            "no <submitter>/systems and <submitter>/results folders here or two levels below",
            path=str(path),
        ))
    for scope in scopes:
        reader.read_scope(scope, mlperf_round or detect_round(scope.folder))
    return reader.to_results(path)


class _TreeReader:
    def __init__(self) -> None:
        self.systems: list[dict] = []
        self.runs: list[dict] = []
        self.scores: list[dict] = []
        self.problems: list[Problem] = []
        self.file_hashes: list[tuple[str, str]] = []
        self.result_files = 0
        self.models = read_benchmark_models()

    def read_scope(self, scope: SubmitterScope, mlperf_round: str | None) -> None:
        base = scope.folder.parent
        submitter = scope.folder.name
        described = self._read_systems(scope, base, submitter, mlperf_round)
        if not scope.results:
            return
        for system_folder in self._system_folders(scope):
            system = described.get(system_folder.name)
            if system is None:
                self._add_problem("missing_system_description",
                              f"no systems/{system_folder.name}.json for these results",
                              _relative(system_folder, base))
            for benchmark_folder in self._benchmark_folders(scope, system_folder):
                self._read_benchmark(benchmark_folder, base, submitter, system, mlperf_round)

    def _read_systems(
        self, scope: SubmitterScope, base: Path, submitter: str, mlperf_round: str | None
    ) -> dict[str, SystemDescription]:
        folder = scope.folder / "systems"
        if scope.system_id is not None:
            files = [folder / f"{scope.system_id}.json"]
            files = [file for file in files if file.is_file()]
        else:
            files = sorted(folder.glob("*.json"))[:MAX_SYSTEM_FILES]
        described: dict[str, SystemDescription] = {}
        for file in files:
            relative = _relative(file, base)
            description, problems = read_system_file(file)
            self._add_problems(problems, relative)
            self.file_hashes.append((relative, _file_sha256(file)))
            if description is None:
                continue
            described[description.system_id] = description
            self.systems.append(_build_system_row(description, mlperf_round, submitter, relative))
        return described

    def _system_folders(self, scope: SubmitterScope) -> list[Path]:
        folders = _child_folders(scope.folder / "results")
        if scope.system_id is not None:
            folders = [folder for folder in folders if folder.name == scope.system_id]
        return folders

    def _benchmark_folders(self, scope: SubmitterScope, system_folder: Path) -> list[Path]:
        folders = _child_folders(system_folder)
        if scope.benchmark is not None:
            folders = [folder for folder in folders if folder.name == scope.benchmark]
        return folders

    def _read_benchmark(
        self,
        folder: Path,
        base: Path,
        submitter: str,
        system: SystemDescription | None,
        mlperf_round: str | None,
    ) -> None:
        entries = itertools.islice(folder.iterdir(), MAX_DIRECTORY_ENTRIES)
        files = sorted(
            (file for file in entries if _RESULT_FILE.match(file.name)),
            key=lambda file: int(_RESULT_FILE.match(file.name).group(1)),
        )
        room = MAX_RESULT_FILES - self.result_files
        if len(files) > room:
            self._add_problem("too_many_files", f"stopped after {MAX_RESULT_FILES} result files",
                          _relative(folder, base))
            files = files[:max(room, 0)]
        self.result_files += len(files)
        key = {"mlperf_round": mlperf_round, "submitter": submitter,
               "system_id": folder.parent.name, "benchmark": folder.name}
        rows = [self._read_run(file, base, key) for file in files]
        score = score_benchmark(
            [RunTime(row["run_name"], row["minutes"], row["converged"]) for row in rows],
            folder.name, mlperf_round,
        )
        roles = dict.fromkeys(score.used, "used") | score.dropped
        for row in rows:
            row["score_role"] = roles.get(row["run_name"])
        self.runs.extend(rows)
        division = system.division if system else _read_logged_division(rows)
        self.scores.append(self._build_score_row(key, division, score, _relative(folder, base)))

    def _read_run(self, file: Path, base: Path, key: dict) -> dict:
        relative = _relative(file, base)
        run = read_result_file(file)
        self._add_problems(run.problems, relative)
        self.file_hashes.append((relative, run.sha256))
        return _build_run_row(run, key, file, relative)

    def _build_score_row(
        self, key: dict, division: str | None, score: BenchmarkScore, relative: str
    ) -> dict:
        model = self.models.get(key["benchmark"])
        if model is None:
            self._add_problem("unknown_benchmark",
                          f"benchmark '{key['benchmark']}' is not in "
                          "schemas/vocab/mlperf_benchmarks.csv", relative)
        if not score.valid:
            self._add_problem("invalid_score", score.reason or "invalid", relative)
        rule = score.rule
        return {
            **key,
            "division": division,
            "model_canonical": model,
            "score_minutes": score.score_minutes,
            "valid": score.valid,
            "reason": score.reason,
            "rule_id": rule.rule_id if rule else None,
            "rule_text": rule.text if rule else None,
            "runs_required": rule.required_runs if rule else None,
            "runs_found": score.runs_found,
            "runs_converged": score.runs_converged,
            "runs_non_converged": score.runs_non_converged,
            "runs_used": ", ".join(sorted(score.used, key=_run_sort_key)),
            "runs_dropped": ", ".join(
                f"{name} ({score.dropped[name]})"
                for name in sorted(score.dropped, key=_run_sort_key)
            ),
        }

    def _add_problems(self, problems: list[Problem], relative: str) -> None:
        for problem in problems:
            self.problems.append(Problem(problem.check, problem.reason, problem.line_number,
                                         problem.raw, relative))

    def _add_problem(self, check: str, reason: str, relative: str) -> None:
        self.problems.append(Problem(check, reason, path=relative))

    def to_results(self, root: Path) -> MlperfResults:
        listing = "\n".join(f"{path}\t{sha}" for path, sha in sorted(self.file_hashes))
        return MlperfResults(
            root=root,
            systems=pl.DataFrame(self.systems, schema=SYSTEM_DTYPES),
            runs=pl.DataFrame(self.runs, schema=RUN_DTYPES),
            scores=pl.DataFrame(self.scores, schema=SCORE_DTYPES),
            problems=self.problems,
            digest=hashlib.sha256(listing.encode("utf-8")).hexdigest(),
        )


def read_benchmark_models() -> dict[str, str]:
    """Benchmark name in the logs -> the model's canonical name (mlperf_benchmarks.csv)."""
    vocab = read_vocab("mlperf_benchmarks.csv")
    return dict(zip(vocab["benchmark"], vocab["model"], strict=True))


def _build_system_row(description: SystemDescription, mlperf_round: str | None, submitter: str,
                relative: str) -> dict:
    row = {name: getattr(description, name) for name in SYSTEM_DTYPES
           if hasattr(description, name)}
    return {**row, "mlperf_round": mlperf_round, "submitter": submitter, "path": relative}


def _build_run_row(run: RunLog, key: dict, file: Path, relative: str) -> dict:
    duration = run.duration_ms
    last_eval = run.evals[-1].value if run.evals else None
    return {
        **key,
        "run_name": file.stem,
        "run_index": int(_RESULT_FILE.match(file.name).group(1)),
        "path": relative,
        "sha256": run.sha256,
        "bytes_read": run.bytes_read,
        "run_start_ms": run.run_start_ms,
        "run_stop_ms": run.run_stop_ms,
        "minutes": duration / 60_000 if duration is not None else None,
        "status": run.status,
        "converged": run.converged,
        "score_role": None,
        "eval_count": len(run.evals),
        "last_eval_accuracy": last_eval,
        "global_batch_size": run.global_batch_size,
        **{f"submission_{name}": run.submission.get(name)
           for name in ("benchmark", "division", "org", "platform", "status")},
        "hyperparameters": json.dumps(run.hyperparameters, sort_keys=True, default=str),
        "problem_count": len(run.problems),
    }


def _read_logged_division(rows: list[dict]) -> str | None:
    logged = {(row["submission_division"] or "").lower() for row in rows}
    return next(iter(logged)) if len(logged) == 1 and logged <= set(DIVISIONS) else None


def _run_sort_key(name: str) -> tuple[int, str]:
    match = re.search(r"(\d+)$", name)
    return (int(match.group(1)) if match else -1, name)


def _relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def _file_sha256(path: Path, limit: int = MAX_SYSTEM_BYTES + 1) -> str:
    with path.open("rb") as handle:
        return hashlib.sha256(handle.read(limit)).hexdigest()
