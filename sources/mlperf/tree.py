"""Read a checkout of an MLPerf Training results repository, or a part of one, into frames.

It reads a tree as MLCommons' result summarizer does (mlcommons/logging,
mlperf_logging/result_summarizer/result_summarizer.py, commit d4a66d8): every
`results/<system>/<benchmark>/result_*.txt` is a run (its `glob`, also the package checker's,
package_checker.py commit 6191db6), a `scaling.json` beside them scales the score, and the
round's rules (sources/mlperf/rules/, see scoring.py) give the runs required and dropped.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from perfledger.schemas.mlperf import RUN_DTYPES, SCORE_DTYPES, SYSTEM_DTYPES
from perfledger.schemas.vocabulary import read_vocab
from perfledger.sources.mlperf.mllog import (
    Problem,
    RunLog,
    normalize_round,
    read_result_file,
    round_from_log_text,
)
from perfledger.sources.mlperf.scoring import (
    BenchmarkScore,
    RunTime,
    canonical_benchmark,
    find_round_rule,
    is_valid_scaling_factor,
    round_key,
    score_benchmark,
)
from perfledger.sources.mlperf.systems import (
    DIVISIONS,
    MAX_SYSTEM_BYTES,
    SystemDescription,
    read_system_file,
)
from perfledger.sources.mlperf.targets import quality_target
from perfledger.sources.mlperf.training_power import (
    POWER_FOLDER,
    PowerLogError,
    has_power,
    run_energy,
)

# Bounds on what one read may touch, whatever the tree holds.
MAX_DIRECTORY_ENTRIES = 20_000
MAX_SYSTEM_FILES = 2_000
MAX_RESULT_FILES = 50_000
SEARCH_DEPTH = 2  # a checkout root, or the folder that holds checkouts
ANCESTOR_DEPTH = 3  # a benchmark folder is results/<system>/<benchmark> under a submitter

ROUND_LOG_FILES = 3  # result files whose head round_of_tree reads, at most
LOG_HEAD_BYTES = 16 * 1024
MAX_SCALING_BYTES = 64 * 1024
SCALING_FILE = "scaling.json"

_ROUND = re.compile(r"^training(?:_results)?_v(\d+\.\d+)(?:\.\d+)?$", re.I)
# The summarizer's and the package checker's glob, `result_*.txt`, as a name pattern.
_RESULT_FILE = re.compile(r"^result_.*\.txt\Z", re.S)
_NUMBERS = re.compile(r"\d+")
PROBLEM_COLUMNS = {
    "path": pl.String,
    "line_number": pl.Int32,
    "check": pl.String,
    "reason": pl.String,
    "raw": pl.String,
}


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


def find_submitters(path: Path, depth: int = SEARCH_DEPTH) -> list[SubmitterScope]:
    """The submitter folders `path` is, holds (`depth` levels down at most) or lies inside."""
    path = Path(path)
    if not path.is_dir():
        return []
    if _is_submitter_folder(path):
        return [SubmitterScope(path)]
    inside = _scope_inside(path)
    if inside is not None:
        return [inside]
    return [SubmitterScope(folder) for folder in _submitters_below(path, depth)]


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
            system_id, benchmark = (list(parts[1:3]) + [None, None])[:2]
            return SubmitterScope(ancestor, system_id, benchmark)
        return None
    return None


def _submitters_below(path: Path, depth: int) -> list[Path]:
    found: list[Path] = []
    level = [path]
    seen = 0
    for _ in range(depth):
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
            return sorted(
                Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return []


def detect_round(folder: Path) -> str | None:
    """'.../training_results_v2.0/Graphcore' or '.../training_v2.0/...' -> '2.0'."""
    for part in reversed(Path(folder).resolve().parts):
        match = _ROUND.match(part)
        if match:
            return match.group(1)
    return None


def round_of_tree(path: Path) -> str | None:
    """The round of the tree at `path`, cheaply, for a step that runs before the tree is read.

    First the folder names: an ancestor of `path` (or `path`) named like
    `training_results_v2.0` or `training_v2.0`, else the one round the submitter folders
    below it name. Then the first LOG_HEAD_BYTES of at most ROUND_LOG_FILES result files
    (round_from_log_text). None when neither says it, or the submitter folders name several.
    """
    path = Path(path)
    named = detect_round(path)
    if named:
        return named
    scopes = find_submitters(path)
    rounds = {detect_round(scope.folder) for scope in scopes} - {None}
    if len(rounds) == 1:
        return rounds.pop()
    if rounds:
        return None  # several rounds below: no one round for the whole
    return _round_from_logs(scopes)


def _round_from_logs(scopes: list[SubmitterScope]) -> str | None:
    files = itertools.islice(
        (file for scope in scopes for file in _scope_result_files(scope)), ROUND_LOG_FILES
    )
    for file in files:
        try:
            with file.open("rb") as handle:
                head = handle.read(LOG_HEAD_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        found = round_from_log_text(head)
        if found:
            return found
    return None


def _scope_result_files(scope: SubmitterScope) -> Iterator[Path]:
    """The result files of a scope, folder by folder, read lazily."""
    if not scope.results:
        return
    for system in _child_folders(scope.folder / "results"):
        if scope.system_id is not None and system.name != scope.system_id:
            continue
        for benchmark in _child_folders(system):
            if scope.benchmark is not None and benchmark.name != scope.benchmark:
                continue
            for entry in _entries(benchmark):
                if _RESULT_FILE.match(entry.name) and entry.is_file(follow_symlinks=False):
                    yield Path(entry.path)


def scope_round(scope: SubmitterScope, given: str | None = None) -> tuple[str | None, str | None]:
    """(round, where it was read) for one submitter scope: `given` if the caller names it,
    else the logs where they say it, else a folder of the path; (None, None) otherwise."""
    if given:
        return normalize_round(given) or given, "given"
    logged = _round_from_logs([scope])
    if logged:
        return logged, "logs"
    named = detect_round(scope.folder)
    if named:
        return named, "folder"
    return None, None


UNKNOWN_ROUND_REASON = (
    "the round is named neither in the logs nor in a folder of the path (training_results_v2.0"
    " or training_v2.0); give it with `perfledger ingest --round 2.0` (read_results_tree(path,"
    " mlperf_round='2.0')): without it no score can be computed"
)


def read_results_tree(path: Path, mlperf_round: str | None = None) -> MlperfResults:
    """Systems, runs and official scores of every submitter under `path`.

    The round is `mlperf_round` when given; else what the logs say (round_from_log_text),
    else a folder of the path named like training_results_v2.0 or training_v2.0; else None,
    with an `unknown_round` problem, and no score. Nothing raises on bad input: unreadable
    files and lines become problems.
    """
    path = Path(path)
    reader = _TreeReader()
    scopes = find_submitters(path)
    if not scopes:
        reader.problems.append(
            Problem(
                "not_a_results_tree",
                "no <submitter>/systems and <submitter>/results folders here or two levels below",
                path=str(path),
            )
        )
    for scope in scopes:
        found, how = scope_round(scope, mlperf_round)
        if found is None:
            reader._add_problem("unknown_round", UNKNOWN_ROUND_REASON, scope.folder.name)
        elif how == "logs":
            named = detect_round(scope.folder)
            if named and named != found:
                reader._add_problem(
                    "round_mismatch",
                    f"the logs say round v{found}, the folder v{named}; the logs' round is used",
                    scope.folder.name,
                )
        reader.read_scope(scope, found)
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
                self._add_problem(
                    "missing_system_description",
                    f"no systems/{system_folder.name}.json for these results",
                    _relative(system_folder, base),
                )
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
        entries = _entries(folder)
        files = sorted(
            (entry for entry in entries if _RESULT_FILE.match(entry.name)),
            key=lambda entry: run_sort_key(entry.name),
        )
        self._report_misnamed(entries, base)
        room = MAX_RESULT_FILES - self.result_files
        if len(files) > room:
            self._add_problem(
                "too_many_files",
                f"stopped after {MAX_RESULT_FILES} result files",
                _relative(folder, base),
            )
            files = files[: max(room, 0)]
        self.result_files += len(files)
        benchmark = canonical_benchmark(folder.name)
        key = {
            "mlperf_round": mlperf_round,
            "submitter": submitter,
            "system_id": folder.parent.name,
            "benchmark": benchmark,
        }
        described_division = system.division if system else None
        rows = [
            self._read_run(entry, index, base, key, described_division)
            for index, entry in enumerate(files)
        ]
        factor, scaling_error = self._read_scaling(entries, base, mlperf_round)
        score = score_benchmark(
            [RunTime(row["run_name"], row["minutes"], row["converged"]) for row in rows],
            benchmark,
            mlperf_round,
            factor,
        )
        applies_scaling = score.rule is not None and score.rule.round_rule.applies_scaling
        if scaling_error is not None and applies_scaling:
            score.score_minutes, score.valid, score.reason = None, False, scaling_error
        roles = dict.fromkeys(score.used, "used") | score.dropped
        for row in rows:
            row["score_role"] = roles.get(row["run_name"])
        energy = self._read_energy(folder, base, rows, score)
        self.runs.extend(rows)
        division = described_division or _read_logged_division(rows)
        self.scores.append(
            {**self._build_score_row(key, division, score, _relative(folder, base)), **energy}
        )

    def _read_energy(
        self, folder: Path, base: Path, rows: list[dict], score: BenchmarkScore
    ) -> dict:
        """Each converged run's energy and the score's, where the folder was measured for
        power (training_power.py): the mean of the energies of the runs the score uses,
        times its scaling factor, as the summarizer's index-sorted olympic average is."""
        for row in rows:
            row["energy_joules"] = None
        if not has_power(folder):
            return {"energy_joules": None, "energy_reason": None}
        failed: list[str] = []
        for row in rows:
            if not row["converged"]:
                continue
            try:
                row["energy_joules"] = run_energy(folder, row["run_name"], row["duration_ms"])
            except PowerLogError as error:
                failed.append(str(error))
                self._add_problem(
                    "unreadable_power_log",
                    f"{error}: the run's energy cannot be computed",
                    _relative(folder / POWER_FOLDER, base),
                )
        used = [row for row in rows if row["score_role"] == "used"]
        if score.score_minutes is None or not used:
            return {"energy_joules": None, "energy_reason": "no score: no energy either"}
        missing = [row["run_name"] for row in used if row["energy_joules"] is None]
        if missing:
            return {
                "energy_joules": None,
                "energy_reason": "no energy for the used run(s) "
                + ", ".join(missing)
                + (f" ({'; '.join(failed)})" if failed else ""),
            }
        mean = sum(row["energy_joules"] for row in used) * 1.0 / len(used)
        return {"energy_joules": mean * score.scaling_factor, "energy_reason": None}

    def _report_misnamed(self, entries: list[os.DirEntry], base: Path) -> None:
        """Files that look like runs but are not named result_*.txt: the summarizer and the
        package checker do not count them, so neither does the score; each is reported."""
        for entry in entries:
            name = entry.name
            if _RESULT_FILE.match(name) or name.startswith("."):
                continue
            lowered = name.lower()
            if lowered.startswith("result") or lowered.endswith((".txt", ".log")):
                self._add_problem(
                    "misnamed_result_file",
                    f"'{name}' looks like a result file but is not named result_*.txt, the name "
                    "the MLCommons summarizer and package checker read; it is not counted as a "
                    "run",
                    _relative(Path(entry.path), base),
                )

    def _read_run(
        self, entry: os.DirEntry, index: int, base: Path, key: dict, described_division: str | None
    ) -> dict:
        file = Path(entry.path)
        relative = _relative(file, base)
        run, unreadable = RunLog(sha256=hashlib.sha256(b"").hexdigest()), None
        if entry.is_symlink():
            unreadable = "the result file is a symbolic link; links are not followed"
        elif entry.is_dir(follow_symlinks=False):
            unreadable = "named like a result file but is a folder"
        else:
            try:
                run = read_result_file(file)
            except OSError as error:
                unreadable = f"the result file cannot be read ({error.strerror or error})"
        if unreadable is not None:
            # Counted as a run that failed, as the summarizer counts a file it cannot check.
            run.problems.append(
                Problem(
                    "unreadable_result", unreadable + "; it counts as a run that did not converge"
                )
            )
            self.file_hashes.append((relative, "unreadable"))
        else:
            self.file_hashes.append((relative, run.sha256))
            logged = run.logged_round
            if logged and key["mlperf_round"] and logged != key["mlperf_round"]:
                run.problems.append(
                    Problem(
                        "round_mismatch",
                        f"the log says round v{logged}; the tree is read as v{key['mlperf_round']}",
                    )
                )
        target = quality_target(
            key["mlperf_round"],
            canonical_benchmark(run.submission.get("benchmark") or key["benchmark"]),
            run.submission.get("division") or described_division,
            run.global_batch_size,
        )
        reached = target.reached(run.evals) if target is not None else None
        if run.converged and target is not None and reached is False:
            run.problems.append(
                Problem(
                    "below_quality_target",
                    f"no eval_accuracy reaches the quality target "
                    f"({target.text}; {target.source}): the run counts as not converged, as the "
                    "summarizer drops a run failing the compliance check",
                )
            )
        self._add_problems(run.problems, relative)
        row = _build_run_row(run, key, file, index, relative)
        row["converged"] = run.converged and reached is not False
        row["quality_target"] = target.text if target is not None else None
        row["reached_target"] = reached
        return row

    def _read_scaling(
        self, entries: list[os.DirEntry], base: Path, mlperf_round: str | None
    ) -> tuple[float | None, str | None]:
        """(factor, why it cannot be used) from the folder's scaling.json, if it has one."""
        entry = next((entry for entry in entries if entry.name == SCALING_FILE), None)
        if entry is None:
            return None, None
        relative = _relative(Path(entry.path), base)
        factor, error = read_scaling_file(entry)
        regular = entry.is_file(follow_symlinks=False)
        self.file_hashes.append(
            (relative, _file_sha256(Path(entry.path)) if regular else "unreadable")
        )
        round_rule = find_round_rule(mlperf_round)
        if error is not None:
            self._add_problem("malformed_scaling", error, relative)
            return None, f"{SCALING_FILE}: {error}; the summarizer cannot apply it, so no score"
        if round_rule is not None and not round_rule.applies_scaling:
            self._add_problem(
                "scaling_not_applied",
                f"scaling_factor {factor} is not applied: the v"
                f"{mlperf_round} summarizer reads no {SCALING_FILE} ({round_rule.source})",
                relative,
            )
        return factor, None

    def _build_score_row(
        self, key: dict, division: str | None, score: BenchmarkScore, relative: str
    ) -> dict:
        model = self._model(key["benchmark"], key["mlperf_round"], relative)
        if not score.valid:
            self._add_problem("invalid_score", score.reason or "invalid", relative)
        rule = score.rule
        return {
            **key,
            "division": division,
            "model_canonical": model,
            "score_minutes": score.score_minutes,
            "scaling_factor": score.scaling_factor if score.score_minutes is not None else None,
            "valid": score.valid,
            "reason": score.reason,
            "rule_id": rule.rule_id if rule else None,
            "rule_text": rule.text if rule else None,
            "runs_required": rule.required_runs if rule else None,
            "runs_found": score.runs_found,
            "runs_converged": score.runs_converged,
            "runs_non_converged": score.runs_non_converged,
            "runs_used": ", ".join(sorted(score.used, key=run_sort_key)),
            "runs_dropped": ", ".join(
                f"{name} ({score.dropped[name]})"
                for name in sorted(score.dropped, key=run_sort_key)
            ),
        }

    def _model(self, benchmark: str, mlperf_round: str | None, relative: str) -> str | None:
        """The benchmark's model in the round (mlperf_benchmarks.csv), a problem if unknown."""
        spans = self.models.get(benchmark)
        if not spans:
            self._add_problem(
                "unknown_benchmark",
                f"benchmark '{benchmark}' is not in schemas/vocab/mlperf_benchmarks.csv",
                relative,
            )
            return None
        if mlperf_round is None:
            models = {model for model, _, _ in spans}
            if len(models) == 1:
                return models.pop()
            self._add_problem(
                "unknown_model",
                f"benchmark '{benchmark}' names another model in "
                "other rounds (schemas/vocab/mlperf_benchmarks.csv) and the round "
                "is unknown",
                relative,
            )
            return None
        at = round_key(mlperf_round)
        for model, first, last in spans:
            if (first is None or round_key(first) <= at) and (
                last is None or at <= round_key(last)
            ):
                return model
        self._add_problem(
            "unknown_model",
            f"benchmark '{benchmark}' has no model for round "
            f"v{mlperf_round} in schemas/vocab/mlperf_benchmarks.csv",
            relative,
        )
        return None

    def _add_problems(self, problems: list[Problem], relative: str) -> None:
        for problem in problems:
            self.problems.append(
                Problem(problem.check, problem.reason, problem.line_number, problem.raw, relative)
            )

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


def read_benchmark_models() -> dict[str, list[tuple[str, str | None, str | None]]]:
    """Benchmark name in the logs -> (model, first round, last round) rows of
    schemas/vocab/mlperf_benchmarks.csv; an empty round leaves that end open ('ssd' is
    SSD-ResNet-34 until v1.1 and RetinaNet from v2.0, result_summarizer/config.yaml)."""
    vocab = read_vocab("mlperf_benchmarks.csv")
    models: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for row in vocab.iter_rows(named=True):
        models.setdefault(row["benchmark"], []).append(
            (row["model"], row["first_round"] or None, row["last_round"] or None)
        )
    return models


def read_scaling_file(entry: os.DirEntry) -> tuple[float | None, str | None]:
    """(scaling_factor, None) from a scaling.json, or (None, why it cannot be read)."""
    if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
        return None, "not a regular file (links are not followed)"
    try:
        with open(entry.path, "rb") as handle:
            data = handle.read(MAX_SCALING_BYTES + 1)
    except OSError as error:
        return None, f"cannot be read ({error.strerror or error})"
    if len(data) > MAX_SCALING_BYTES:
        return None, f"larger than {MAX_SCALING_BYTES} bytes"
    try:
        content = json.loads(data.decode("utf-8", errors="replace"))
    except ValueError as error:
        return None, f"not valid JSON ({error})"
    value = content.get("scaling_factor") if isinstance(content, dict) else None
    if not is_valid_scaling_factor(value):
        return None, f"no positive number 'scaling_factor' (found {value!r})"
    return float(value), None


def run_sort_key(name: str) -> tuple[tuple[int, ...], str]:
    """Runs in order: by the numbers in the name ('result_2' before 'result_10'), then the
    name, so 'result_220520100725096152634_1.txt' and 'result_0.txt' both sort sensibly."""
    return tuple(int(number) for number in _NUMBERS.findall(name)), name


def _build_system_row(
    description: SystemDescription, mlperf_round: str | None, submitter: str, relative: str
) -> dict:
    row = {name: getattr(description, name) for name in SYSTEM_DTYPES if hasattr(description, name)}
    return {**row, "mlperf_round": mlperf_round, "submitter": submitter, "path": relative}


def _build_run_row(run: RunLog, key: dict, file: Path, index: int, relative: str) -> dict:
    last = run.evals[-1] if run.evals else None
    components = last.components if last is not None else None
    return {
        **key,
        "run_name": file.stem,
        "run_index": index,
        "path": relative,
        "sha256": run.sha256,
        "bytes_read": run.bytes_read,
        # Whole milliseconds in these two columns; duration_ms keeps a logged fraction.
        "run_start_ms": _whole(run.run_start_ms),
        "run_stop_ms": _whole(run.run_stop_ms),
        "duration_ms": float(run.duration_ms) if run.duration_ms is not None else None,
        "minutes": run.minutes,
        "status": run.status,
        "converged": run.converged,
        "score_role": None,
        "eval_count": len(run.evals),
        "last_eval_accuracy": last.value if last is not None else None,
        "last_eval_components": json.dumps(components) if components else None,
        "global_batch_size": run.global_batch_size,
        **{
            f"submission_{name}": run.submission.get(name)
            for name in ("benchmark", "division", "org", "platform", "status")
        },
        "hyperparameters": json.dumps(run.hyperparameters, sort_keys=True, default=str),
        "problem_count": len(run.problems),
    }


def _whole(time_ms: float | None) -> int | None:
    return math.floor(time_ms) if time_ms is not None else None


def _read_logged_division(rows: list[dict]) -> str | None:
    logged = {(row["submission_division"] or "").lower() for row in rows}
    return next(iter(logged)) if len(logged) == 1 and logged <= set(DIVISIONS) else None


def _entries(folder: Path) -> list[os.DirEntry]:
    """A folder's entries (bounded), their types known without a stat per file."""
    try:
        with os.scandir(folder) as entries:
            return list(itertools.islice(entries, MAX_DIRECTORY_ENTRIES))
    except OSError:
        return []


def _relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def _file_sha256(path: Path, limit: int = MAX_SYSTEM_BYTES + 1) -> str:
    with path.open("rb") as handle:
        return hashlib.sha256(handle.read(limit)).hexdigest()
