"""Read a checkout of an MLPerf Inference results repository, or a part of one, into frames.

Layout (mlcommons/inference_results_vX.Y, as the checker's check_results_dir walks it):
`<division>/<submitter>/systems/<system>.json` and
`<division>/<submitter>/results/<system>/<benchmark>/<scenario>/` holding
`performance/run_1/` (LoadGen logs, spl.txt for power) and `accuracy/accuracy.txt`.
The division is the folder's, as the checker reads it; the availability is the system's
status in lower case, one of available, preview and rdi.

The round of a result is read, in this order, from its logs (the three RNG seeds LoadGen
ran with: each round fixes its own; loadgen_version does not name the round, as v4.1
results ran LoadGen 4.0 builds too), from an ancestor folder named inference_results_vX.Y
or inference_vX.Y, or from the `mlperf_round` argument.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from perfledger.schemas.mlperf_inference import PROBLEM_DTYPES, RESULT_DTYPES, SYSTEM_DTYPES
from perfledger.sources.mlperf.inference.accuracy import ACCURACY_FILE, read_accuracy
from perfledger.sources.mlperf.inference.checks import official_value, performance_reasons
from perfledger.sources.mlperf.inference.loadgen import (
    DETAIL_LOG,
    SEED_KEYS,
    SUMMARY_LOG,
    LoadgenLog,
    read_run_logs,
    read_summary_log,
)
from perfledger.sources.mlperf.inference.power import SPL_FILE, read_power
from perfledger.sources.mlperf.inference.rules import (
    RESULT_FIELDS,
    ROUNDS,
    SCENARIO_BY_FOLDER,
    SYSTEM_TYPES,
    VALID_AVAILABILITIES,
    VALID_DIVISIONS,
    RoundRules,
    normalize_round,
    round_of_seeds,
)
from perfledger.sources.mlperf.mllog import Problem
from perfledger.sources.mlperf.systems import read_system_file

MAX_DIRECTORY_ENTRIES = 20_000
MAX_SYSTEM_FILES = 2_000
MAX_RESULTS = 20_000
SEARCH_DEPTH = 2  # a checkout root, or a folder that holds checkouts
INSIDE_DEPTH = 7  # results/<system>/<benchmark>/<scenario>/performance/run_1 in a submitter
ROUND_PROBE_BYTES = 16 * 1024  # a run summary is about 3 KB
SUBMITTER_PARTS = ("systems", "results")
RUN_FOLDER = ("performance", "run_1")
_ROUND_FOLDER = re.compile(r"^inference(?:_results)?_v(\d+\.\d+)$", re.I)
_ACCURACY_SUFFIX = re.compile(r"^(.+)-(99(?:\.9)?)$")
# describe_system's notes that the checker's own reading replaces here.
_SYSTEM_CHECKS_REPLACED = {"unknown_division", "unknown_status", "no_accelerators"}


@dataclass
class InferenceResults:
    """Official inference results read from a tree: systems, results and what went wrong."""

    root: Path
    systems: pl.DataFrame
    results: pl.DataFrame
    problems: pl.DataFrame
    digest: str = ""  # sha256 over every file read (path and sha256): the tree's version

    def problems_frame(self) -> pl.DataFrame:
        """The problems, as MlperfResults.problems_frame gives a training tree's."""
        return self.problems


@dataclass(frozen=True)
class SubmitterScope:
    """A submitter folder and the part of its results to read."""

    folder: Path  # <root>/<division>/<submitter>
    parts: tuple[str, ...] = ()  # (system, benchmark, scenario) to keep, outermost first
    results: bool = True  # False when only systems/ was named

    @property
    def division(self) -> str:
        return self.folder.parent.name

    @property
    def base(self) -> Path:
        return self.folder.parent.parent


def is_inference_tree(path: Path) -> bool:
    """True for an inference results checkout, a folder holding checkouts, or a part of one."""
    return bool(find_submitters(Path(path)))


def find_submitters(path: Path) -> list[SubmitterScope]:
    """The submitter folders `path` is, holds (below its divisions) or lies inside."""
    path = Path(path)
    if not path.is_dir():
        return []
    if _is_submitter_folder(path):
        return [SubmitterScope(path)]
    inside = _scope_inside(path)
    if inside is not None:
        return [inside]
    if path.name.lower() in VALID_DIVISIONS:
        return _submitters_of(path)
    found: list[SubmitterScope] = []
    level, seen = [path], 0
    for _ in range(SEARCH_DEPTH + 1):
        below: list[Path] = []
        for folder in level:
            for child in _child_folders(folder):
                seen += 1
                if seen > MAX_DIRECTORY_ENTRIES:
                    return found
                if child.name.lower() in VALID_DIVISIONS:
                    found.extend(_submitters_of(child))
                else:
                    below.append(child)
        if found:
            return found
        level = below
    return found


def _is_submitter_folder(path: Path) -> bool:
    return path.parent.name.lower() in VALID_DIVISIONS and any(
        (path / part).is_dir() for part in SUBMITTER_PARTS
    )


def _submitters_of(division: Path) -> list[SubmitterScope]:
    return [
        SubmitterScope(child) for child in _child_folders(division) if _is_submitter_folder(child)
    ]


def _scope_inside(path: Path) -> SubmitterScope | None:
    for ancestor in list(path.parents)[:INSIDE_DEPTH]:
        if not _is_submitter_folder(ancestor):
            continue
        parts = path.relative_to(ancestor).parts
        if parts[0] == "systems":
            return SubmitterScope(ancestor, results=False)
        if parts[0] == "results":
            return SubmitterScope(ancestor, tuple(parts[1:4]))
        return None
    return None


def _child_folders(folder: Path) -> list[Path]:
    # Symbolic links are not followed: a tree must not lead the reader out of itself.
    try:
        with os.scandir(folder) as entries:
            return sorted(
                Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)
            )
    except OSError:
        return []


def round_from_folders(path: Path) -> str | None:
    """'.../inference_results_v4.1/closed/AMD' -> '4.1'; None when no ancestor is so named."""
    for part in reversed(Path(path).resolve().parts):
        match = _ROUND_FOLDER.match(part)
        if match:
            return normalize_round(match.group(1))
    return None


def round_of_inference_tree(path: Path) -> str | None:
    """The round of the tree at `path`, cheaply: an ancestor folder's name, else the seeds in
    one run summary (a few KB), else None."""
    path = Path(path)
    named = round_from_folders(path)
    if named is not None:
        return named
    for scope in find_submitters(path):
        named = round_from_folders(scope.folder)
        if named is not None:
            return named
        summary = _first_summary(scope)
        found = round_from_summary(summary) if summary is not None else None
        if found is not None:
            return found
    return None


def round_from_summary(summary: Path) -> str | None:
    """The round whose seeds a run summary (`mlperf_log_summary.txt`) shows, reading a few KB."""
    log = read_summary_log(summary, summary.name, max_bytes=ROUND_PROBE_BYTES)
    return round_of_seeds(
        {key.removeprefix("effective_"): log.values.get(key) for key in SEED_KEYS}
    )


def _first_summary(scope: SubmitterScope) -> Path | None:
    folder = scope.folder / "results"
    for _ in range(3):  # system, benchmark, scenario
        children = _child_folders(folder)
        if not children:
            return None
        folder = children[0]
    summary = folder.joinpath(*RUN_FOLDER, SUMMARY_LOG)
    return summary if summary.is_file() else None


def read_inference_tree(path: Path, mlperf_round: str | None = None) -> InferenceResults:
    """Systems and results of every submitter under `path`, each result judged by its round.

    Nothing raises on bad input: unreadable files and lines become problems.
    """
    path = Path(path)
    reader = _TreeReader(normalize_round(mlperf_round))
    scopes = find_submitters(path)
    if not scopes:
        reader.problems.append(
            Problem(
                "not_an_inference_tree",
                "no <division>/<submitter>/systems or results folders here, inside or below",
                path=str(path),
            )
        )
    for scope in scopes:
        reader.read_scope(scope)
    return reader.to_results(path)


@dataclass
class _System:
    row: dict
    reasons: list[str] = field(default_factory=list)  # why none of its results counts


class _TreeReader:
    def __init__(self, mlperf_round: str | None) -> None:
        self.argument_round = mlperf_round
        self.systems: list[dict] = []
        self.results: list[dict] = []
        self.problems: list[Problem] = []
        self.file_hashes: list[tuple[str, str]] = []

    # -- one submitter --------------------------------------------------------------------

    def read_scope(self, scope: SubmitterScope) -> None:
        folder_round = round_from_folders(scope.folder)
        described = self._read_systems(scope)
        start = len(self.results)
        if scope.results:
            for system_folder in self._folders(scope.folder / "results", scope.parts[:1]):
                system = described.get(system_folder.name)
                if system is None:
                    self._problem(
                        "missing_system_description",
                        f"no systems/{system_folder.name}.json for these results",
                        self._relative(scope, system_folder),
                    )
                self._read_system_results(scope, system_folder, system, folder_round)
        rows = self.results[start:]
        self._report_rounds(scope, rows, folder_round)
        logged = Counter(row["mlperf_round"] for row in rows if row["mlperf_round"])
        scope_round = logged.most_common(1)[0][0] if logged else folder_round or self.argument_round
        for system in described.values():
            if system.row:
                system.row["mlperf_round"] = scope_round
                self.systems.append(system.row)

    def _read_systems(self, scope: SubmitterScope) -> dict[str, _System]:
        folder = scope.folder / "systems"
        wanted = scope.parts[0] if scope.parts else None
        try:
            files = sorted(folder.glob("*.json"))[:MAX_SYSTEM_FILES]
        except OSError:
            files = []
        if wanted is not None:
            files = [file for file in files if file.stem == wanted]
        described: dict[str, _System] = {}
        for file in files:
            relative = self._relative(scope, file)
            self._hash(file, relative)
            description, problems = read_system_file(file)
            for problem in problems:
                if problem.check not in _SYSTEM_CHECKS_REPLACED:
                    self.problems.append(_located(problem, relative))
            if description is None:
                described[file.stem] = _System({}, ["its system description cannot be read"])
                continue
            described[file.stem] = self._system_row(scope, description, file, relative)
        return described

    def _system_row(self, scope: SubmitterScope, description, file: Path, relative: str) -> _System:
        status = description.status
        availability = status.lower() if status else None
        system = _System(
            {
                "mlperf_round": None,
                "division": scope.division,
                "submitter": scope.folder.name,
                "system_id": description.system_id,
                "submitter_name": description.submitter_name,
                "system_name": description.system_name,
                "system_type": _json_text(file, "system_type"),
                "status": status,
                "availability": availability if availability in VALID_AVAILABILITIES else None,
                "number_of_nodes": description.number_of_nodes,
                "accelerators_per_node": description.accelerators_per_node,
                "accelerator_count": description.accelerator_count,
                "accelerator_model_name": description.accelerator_model_name,
                "accelerator_memory_gb": description.accelerator_memory_gb,
                "host_processor_model_name": description.host_processor_model_name,
                "framework": description.framework,
                "framework_canonical": description.framework_canonical,
                "sdk_version": description.sdk_version,
                "vendor": description.vendor,
                "system": description.system,
                "accelerator": description.accelerator,
                "platform_resolution": description.platform_resolution,
                "path": relative,
                "host_processors_per_node": description.host_processors_per_node,
            }
        )
        system_type = system.row["system_type"]
        if system_type not in SYSTEM_TYPES:
            reason = f"system type {system_type!r} is not datacenter, edge or both"
            system.reasons.append(reason)
            self._problem("invalid_system_type", reason, relative)
        if availability not in VALID_AVAILABILITIES:
            reason = f"system status {status!r} is not one of {', '.join(VALID_AVAILABILITIES)}"
            system.reasons.append(reason)
            self._problem("invalid_status", reason, relative)
        written = description.submitter_name
        if written is None or written.lower() != scope.folder.name.lower():
            reason = f"the system says submitter {written!r}, its folder {scope.folder.name!r}"
            system.reasons.append(reason)
            self._problem("submitter_mismatch", reason, relative)
        if description.division and description.division != scope.division.lower():
            reason = (
                f"the system says division {description.division!r}, its folder {scope.division!r}"
            )
            system.reasons.append(reason)
            self._problem("division_mismatch", reason, relative)
        return system

    def _read_system_results(
        self,
        scope: SubmitterScope,
        system_folder: Path,
        system: _System | None,
        folder_round: str | None,
    ) -> None:
        for benchmark_folder in self._folders(system_folder, scope.parts[1:2]):
            for scenario_folder in self._folders(benchmark_folder, scope.parts[2:3]):
                if len(self.results) >= MAX_RESULTS:
                    self._problem(
                        "too_many_results",
                        f"stopped after {MAX_RESULTS} results",
                        self._relative(scope, scenario_folder),
                    )
                    return
                self.results.append(self._read_result(scope, scenario_folder, system, folder_round))

    def _folders(self, folder: Path, wanted: tuple[str, ...]) -> list[Path]:
        folders = _child_folders(folder)
        return [child for child in folders if child.name == wanted[0]] if wanted else folders

    # -- one result -----------------------------------------------------------------------

    def _read_result(
        self, scope: SubmitterScope, folder: Path, system: _System | None, folder_round: str | None
    ) -> dict:
        relative = self._relative(scope, folder)
        benchmark = folder.parent.name
        run = folder.joinpath(*RUN_FOLDER)
        log = read_run_logs(run, f"{relative}/{'/'.join(RUN_FOLDER)}")
        self.problems.extend(log.problems)
        if log.source_file and not log.from_detail:
            self._problem(
                "detail_log_missing",
                f"no {DETAIL_LOG}: values read from {SUMMARY_LOG}; LoadGen errors "
                "are taken from its error line and equal-issue mode is unchecked",
                f"{relative}/{'/'.join(RUN_FOLDER)}",
            )
        self._hash_logs(run, relative)
        mlperf_round, round_source = self._round(log, folder_round)
        rules = ROUNDS.get(mlperf_round) if mlperf_round else None
        scenario = SCENARIO_BY_FOLDER.get(folder.name.lower())
        model, target = _split_benchmark(benchmark)
        checker_model = rules.checker_model(benchmark) if rules else None
        field = (
            rules.official_field(checker_model, scenario)
            if (rules and checker_model and scenario)
            else None
        )
        metric, unit, _ = (
            RESULT_FIELDS.get(field, (None, None, False))
            if field is not None
            else (None, None, False)
        )
        reasons = (
            list(system.reasons)
            if system
            else [f"no systems/{folder.parent.parent.name}.json describes the system"]
        )
        reasons += self._scope_reasons(
            mlperf_round, rules, benchmark, checker_model, folder.name, scenario, system, log
        )
        if field is None and rules and checker_model and scenario:
            reasons.append(f"v{mlperf_round} has no official result for {scenario}")
        value = official_value(log, field)
        if field and value is None and log.source_file:
            reasons.append(f"no usable {field} in {log.source_file.rsplit('/', 1)[-1]}")
        if rules and checker_model and scenario and log.source_file:
            reasons += performance_reasons(
                log, rules, checker_model, scenario, scope.division.lower()
            )
        accuracy = read_accuracy(
            folder / "accuracy" / ACCURACY_FILE,
            f"{relative}/accuracy/{ACCURACY_FILE}",
            rules,
            checker_model,
        )
        self.problems.extend(accuracy.problems)
        self._hash(folder / "accuracy" / ACCURACY_FILE, f"{relative}/accuracy/{ACCURACY_FILE}")
        reasons += accuracy.reasons
        power_watts = energy = None
        if (run / SPL_FILE).is_file():
            power = read_power(
                run / SPL_FILE, f"{relative}/{'/'.join(RUN_FOLDER)}/{SPL_FILE}", log, scenario
            )
            self.problems.extend(power.problems)
            reasons += power.reasons
            power_watts, energy = power.watts, power.energy_mj_per_query
        return {
            "mlperf_round": mlperf_round,
            "round_source": round_source,
            "division": scope.division,
            "submitter": scope.folder.name,
            "system_id": folder.parent.parent.name,
            "benchmark": benchmark,
            "model": model,
            "accuracy_target": target,
            "scenario": scenario,
            "metric": metric,
            "value": value,
            "unit": unit,
            "result_field": field,
            "source_file": log.source_file,
            "result_validity": log.text("result_validity"),
            "valid": not reasons and value is not None,
            "reason": "; ".join(dict.fromkeys(reasons))
            or (None if value is not None else "no official value"),
            "accuracy": accuracy.text,
            "accuracy_ok": accuracy.ok,
            "power_watts": power_watts,
            "energy_mj_per_query": energy,
            "path": relative,
        }

    def _scope_reasons(
        self,
        mlperf_round: str | None,
        rules: RoundRules | None,
        benchmark: str,
        checker_model: str | None,
        scenario_folder: str,
        scenario: str | None,
        system: _System | None,
        log: LoadgenLog,
    ) -> list[str]:
        reasons: list[str] = []
        if mlperf_round is None:
            reasons.append("the round is unknown: pass --round")
        elif rules is None:
            reasons.append(
                f"no rules for round v{mlperf_round} (known: "
                f"{', '.join('v' + name for name in ROUNDS)})"
            )
        elif checker_model is None:
            reasons.append(f"benchmark {benchmark!r} is not a v{mlperf_round} model")
        if scenario is None:
            reasons.append(f"scenario folder {scenario_folder!r} is not a LoadGen scenario")
        elif rules and checker_model and system and system.row.get("system_type") in SYSTEM_TYPES:
            system_type = system.row["system_type"]
            allowed = rules.allowed_scenarios(system_type, checker_model)
            if allowed is None:
                reasons.append(
                    f"{checker_model} is not a v{rules.mlperf_round} benchmark of "
                    f"{system_type} systems"
                )
            elif scenario not in allowed:
                reasons.append(
                    f"{scenario} is not a v{rules.mlperf_round} scenario of "
                    f"{checker_model} for {system_type} systems"
                )
        logged = log.text("effective_scenario")
        if scenario and logged and logged != scenario:
            reasons.append(
                f"the log's scenario is {logged}, the folder's {scenario} "
                "(results inferred from another scenario are not read)"
            )
        mode = log.text("effective_test_mode")
        if mode and mode != "PerformanceOnly":
            reasons.append(f"the performance run's mode is {mode}")
        if log.source_file is None:
            reasons.append("no performance log")
        return reasons

    def _round(self, log: LoadgenLog, folder_round: str | None) -> tuple[str | None, str | None]:
        seeds = {key.removeprefix("effective_"): log.values.get(key) for key in SEED_KEYS}
        logged = round_of_seeds(seeds)
        if logged is not None:
            return logged, "log"
        if folder_round is not None:
            return folder_round, "folder"
        if self.argument_round is not None:
            return self.argument_round, "argument"
        return None, None

    def _report_rounds(
        self, scope: SubmitterScope, rows: list[dict], folder_round: str | None
    ) -> None:
        where = self._relative(scope, scope.folder)
        unknown = [row for row in rows if row["mlperf_round"] is None]
        if unknown:
            self._problem(
                "unknown_round",
                f"{len(unknown)} result(s) have no round: their seeds match no "
                "known round and no folder is named inference_results_vX.Y; "
                "pass --round",
                where,
            )
        claimed = folder_round or self.argument_round
        logged = Counter(row["mlperf_round"] for row in rows if row["round_source"] == "log")
        for found, count in sorted(logged.items()):
            if claimed and found != claimed:
                source = "folder" if folder_round else "--round"
                self._problem(
                    "round_conflict",
                    f"{count} result(s) ran with the seeds of v{found}, the {source} "
                    f"says v{claimed}; the logs' round is used",
                    where,
                )

    # -- bookkeeping ----------------------------------------------------------------------

    def _hash_logs(self, run: Path, relative: str) -> None:
        for name in (DETAIL_LOG, SUMMARY_LOG, SPL_FILE):
            self._hash(run / name, f"{relative}/{'/'.join(RUN_FOLDER)}/{name}")

    def _hash(self, file: Path, relative: str) -> None:
        try:
            with file.open("rb") as handle:
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError:
            return
        self.file_hashes.append((relative, digest))

    def _relative(self, scope: SubmitterScope, path: Path) -> str:
        return path.relative_to(scope.base).as_posix()

    def _problem(self, check: str, reason: str, relative: str) -> None:
        self.problems.append(Problem(check, reason, path=relative))

    def to_results(self, root: Path) -> InferenceResults:
        listing = "\n".join(f"{path}\t{sha}" for path, sha in sorted(self.file_hashes))
        problems = [(p.path, p.line_number, p.check, p.reason, p.raw) for p in self.problems]
        return InferenceResults(
            root=root,
            systems=pl.DataFrame(self.systems, schema=SYSTEM_DTYPES),
            results=pl.DataFrame(self.results, schema=RESULT_DTYPES),
            problems=pl.DataFrame(problems, schema=PROBLEM_DTYPES, orient="row"),
            digest=hashlib.sha256(listing.encode("utf-8")).hexdigest(),
        )


def _split_benchmark(benchmark: str) -> tuple[str, str | None]:
    """'llama2-70b-99.9' -> ('llama2-70b', '99.9'); 'resnet50' -> ('resnet50', None)."""
    match = _ACCURACY_SUFFIX.match(benchmark)
    return (match.group(1), match.group(2)) if match else (benchmark, None)


def _located(problem: Problem, relative: str) -> Problem:
    return Problem(problem.check, problem.reason, problem.line_number, problem.raw, relative)


def _json_text(file: Path, key: str) -> str | None:
    """One text field of a system JSON that describe_system does not keep, in lower case."""
    try:
        fields = json.loads(file.read_bytes()[: 1024 * 1024].decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    value = fields.get(key) if isinstance(fields, dict) else None
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip().lower()
