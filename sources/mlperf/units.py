"""An MLPerf results tree cut into the documents it is read as.

A training unit is one system's runs of one benchmark (`results/<system>/<benchmark>/`), an
inference unit one system's benchmark in one scenario (`results/<system>/<benchmark>/
<scenario>/`); each carries its system's description, and a description with no results is
a unit of its own. A unit is a source of its own, so a submitter folder ingested later adds
to a round, and a file fixed by its submitter re-reads its own unit only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from perfledger.sources.mlperf.tree import MAX_DIRECTORY_ENTRIES, SubmitterScope, find_submitters

TRAINING = "training"
INFERENCE = "inference"
ROUND_FOLDER = re.compile(r"^(training|inference)(?:_results)?_v(\d+\.\d+(?:\.\d+)?)$", re.I)
MAX_UNIT_FILES = 5_000  # a benchmark folder holds 5 to 40 runs; an inference scenario ~10 files
# What an inference scenario folder holds that the official result is read from; the rest
# (accuracy logs of GBs, compliance runs, code) is listed in the manifest, not archived.
INFERENCE_FILES = frozenset(
    {"mlperf_log_summary.txt", "mlperf_log_detail.txt", "accuracy.txt", "spl.txt"}
)
DIVISIONS = frozenset({"closed", "open", "network"})
# What the reader scores, and what it reports as a result file misnamed ("result0.txt").
TRAINING_FILE = re.compile(r"^(result.*|.*\.(txt|log)|scaling\.json)$", re.I)
SEARCH_LEVELS = 3  # <scenario>/performance/run_1
TRAINING_RUN = re.compile(r"^result_.*\.txt$")  # the summarizer's glob, result_*.txt
INFERENCE_RUN_FOLDERS = ("performance", "accuracy")  # what a scenario folder holds
# A folder of checkouts: <checkout>/<division>/<submitter> for inference.
CHECKOUT_DEPTH = 3
SUBMITTER_DEPTH = 6  # results/<system>/<benchmark>/<scenario>/performance/run_1


@dataclass(frozen=True)
class TreeUnit:
    """One document of a results tree: its name parts and its files."""

    kind: str  # training | inference
    base: Path  # relative paths start here, so they keep the round or division folder
    submitter: str
    system_id: str
    benchmark: str | None  # None: a system description with no results
    scenario: str | None
    folder: Path  # the benchmark or scenario folder; the systems folder for a description
    files: tuple[Path, ...]
    left_out: tuple[Path, ...] = ()  # files of the unit's folders not read by any rule

    @property
    def division(self) -> str | None:
        """The folder above the submitter in an inference tree: closed, open, network."""
        folder = self.files[0].relative_to(self.base).parts[0] if self.files else ""
        return folder.lower() if folder.lower() in DIVISIONS else None

    def relative(self, file: Path) -> str:
        return file.relative_to(self.base).as_posix()

    def name_parts(self) -> list[str]:
        parts = [self.submitter, self.system_id]
        if self.benchmark is None:
            return [*parts, "system"]
        return [*parts, self.benchmark, *([self.scenario] if self.scenario else [])]


def find_units(path: Path) -> list[TreeUnit]:
    """Every unit of the results tree (or part of one) at `path`, in path order: a checkout,
    a submitter, system or benchmark folder, or an inference scenario folder."""
    path = Path(path)
    scopes = find_submitters(path, depth=CHECKOUT_DEPTH)
    if not scopes and path.is_dir():
        submitter = _submitter_above(path)
        if submitter is None:
            return []
        scope = SubmitterScope(submitter)
        return [
            unit
            for unit in _scope_units(scope, tree_kind(scope))
            if unit.folder == path or path in unit.folder.parents or unit.folder in path.parents
        ]
    units: list[TreeUnit] = []
    for scope in scopes:
        units += _scope_units(scope, tree_kind(scope))
    return units


def is_tree_part(path: Path) -> bool:
    """True for a folder that is, holds or lies inside an MLPerf results tree's results."""
    return bool(find_units(path))


def _submitter_above(path: Path) -> Path | None:
    """The submitter folder a deep results folder lies in (`<submitter>/results/<system>/
    <benchmark>/<scenario>/performance`)."""
    for ancestor in list(path.parents)[:SUBMITTER_DEPTH]:
        if (ancestor / "systems").is_dir() and (ancestor / "results").is_dir():
            return ancestor if path.relative_to(ancestor).parts[0] == "results" else None
    return None


def tree_kind(scope: SubmitterScope) -> str:
    """Training or inference: from a folder name of the path, else from what a benchmark
    folder holds: training runs (`result_*.txt`) or scenario folders of LoadGen runs
    (`<scenario>/performance/`). A training benchmark folder may hold folders too (`power/`,
    the runs' power logs): a folder alone says nothing."""
    for part in reversed(scope.folder.resolve().parts):
        match = ROUND_FOLDER.match(part)
        if match:
            return match.group(1).lower()
    for system in _folders(scope.folder / "results")[:3]:
        for benchmark in _folders(system)[:3]:
            if any(TRAINING_RUN.match(file.name) for file in _files(benchmark)):
                return TRAINING
            if any(
                (scenario / folder).is_dir()
                for scenario in _folders(benchmark)
                for folder in INFERENCE_RUN_FOLDERS
            ):
                return INFERENCE
    return TRAINING


def round_from_folders(path: Path) -> str | None:
    """'.../inference_results_v4.1/closed/AMD' -> '4.1': the nearest folder that names one."""
    for part in reversed(Path(path).resolve().parts):
        match = ROUND_FOLDER.match(part)
        if match:
            return match.group(2)
    return None


def _scope_units(scope: SubmitterScope, kind: str) -> list[TreeUnit]:
    base = scope.folder.parent.parent
    systems = {
        file.stem: file
        for file in _files(scope.folder / "systems")
        if file.suffix.lower() == ".json"
    }
    if scope.system_id is not None:
        systems = {k: v for k, v in systems.items() if k == scope.system_id}
    units: list[TreeUnit] = []
    with_results: set[str] = set()
    if scope.results:
        for system_folder in _folders(scope.folder / "results"):
            if scope.system_id is not None and system_folder.name != scope.system_id:
                continue
            with_results.add(system_folder.name)
            description = systems.get(system_folder.name)
            for benchmark in _folders(system_folder):
                if scope.benchmark is not None and benchmark.name != scope.benchmark:
                    continue
                units += _benchmark_units(
                    kind, base, scope.folder.name, system_folder.name, benchmark, description
                )
    for system_id, description in systems.items():
        if system_id not in with_results:
            units.append(
                TreeUnit(
                    kind,
                    base,
                    scope.folder.name,
                    system_id,
                    None,
                    None,
                    description.parent,
                    (description,),
                )
            )
    return units


def _benchmark_units(
    kind: str, base: Path, submitter: str, system_id: str, folder: Path, description: Path | None
) -> list[TreeUnit]:
    described = (description,) if description is not None else ()
    if kind == TRAINING:
        files = _files(folder)
        # The runs' power logs, power/<run>/node_*.txt and sw_*.txt, where it was measured.
        kept = tuple(f for f in files if TRAINING_FILE.match(f.name)) + tuple(
            _files_below(folder / "power", 2)
        )
        left = tuple(f for f in files if not TRAINING_FILE.match(f.name))
        return [
            TreeUnit(
                kind,
                base,
                submitter,
                system_id,
                folder.name,
                None,
                folder,
                described + kept[:MAX_UNIT_FILES],
                left,
            )
        ]
    units = []
    for scenario in _folders(folder):
        files = _files_below(scenario, SEARCH_LEVELS)
        kept = tuple(f for f in files if f.name in INFERENCE_FILES)
        left = tuple(f for f in files if f.name not in INFERENCE_FILES)
        units.append(
            TreeUnit(
                kind,
                base,
                submitter,
                system_id,
                folder.name,
                scenario.name,
                scenario,
                described + kept[:MAX_UNIT_FILES],
                left,
            )
        )
    return units


def _entries(folder: Path) -> list[os.DirEntry]:
    # Symbolic links are not followed: a tree must not lead the reader out of itself.
    try:
        with os.scandir(folder) as listing:
            entries = []
            for entry in listing:
                entries.append(entry)
                if len(entries) >= MAX_DIRECTORY_ENTRIES:
                    break
    except OSError:
        return []
    return sorted(entries, key=lambda entry: entry.name)


def _folders(folder: Path) -> list[Path]:
    return [Path(e.path) for e in _entries(folder) if e.is_dir(follow_symlinks=False)]


def _files(folder: Path) -> list[Path]:
    return [Path(e.path) for e in _entries(folder) if e.is_file(follow_symlinks=False)]


def _files_below(folder: Path, levels: int) -> list[Path]:
    found = _files(folder)
    if levels > 1:
        for child in _folders(folder):
            found += _files_below(child, levels - 1)
    return found
