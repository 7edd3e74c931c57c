"""Measure a whole MLPerf Training round ingested with default settings; print a table.

    python -m bench.mlperf_round [--work DIR] [--copies N] [--json FILE]

The round is built from the real v2.0 subset in ../shared/mlperf/training_v2.0 (Graphcore,
NVIDIA, Intel-HabanaLabs: 140 result files, 16 MB) at the size of the real v2.0 round (about
2,800 result files, 700 MB): its submitter folders are replicated under new names
(`Graphcore`, `Graphcore_r2`, ...) inside `<work>/training_results_v2.0/`, each replica's
times shifted by a seeded offset (so no two files share bytes and the archive cannot
deduplicate them, while every run's run_stop - run_start, so every score, stays the same), and
each result log is padded to the round's mean size by repeating its own epoch, block and
evaluation MLLOG lines right after its run_start (run_start stays first and run_stop last of
the run, the last evaluation stays last, the lines repeated carry no setting: the scores and the
compliance checker's verdicts do not change).

Each measurement runs in a child process of its own: the ingest (bench.measure, as
`perfledger ingest` runs it without a Prefect API), timed, then again with the process tree's
memory sampled; re-runs with nothing changed and with one result file changed; and the
baselines, measured in the same run as the machine is noisy: the plain reading of the tree
(sources.mlperf.tree.read_results_tree: scores only, no archive, no warehouse) and, where the
MLCommons mlperf-logging package installs into a throwaway venv under --work, its result
summarizer on the same tree, whose scores are compared with perfledger's.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # a child's own start-up is timed from here

import argparse  # noqa: E402
import csv  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SOURCE = PROJECT_ROOT.parent / "shared" / "mlperf" / "training_v2.0"  # never copied here
ROUND_FOLDER = "training_results_v2.0"  # the folder name tells perfledger the round
RUN_OF_ROUND = "2.0.0"  # the summarizer's ruleset
TARGET_RESULT_FILES = 2_800  # result_*.txt files in the real v2.0 round
MEAN_RESULT_KB = 250  # their mean size (about 700 MB in all)
BUILD_VERSION = 1  # bump when the tree built for the same options changes
STAMP = "round-build.json"
MAX_SHIFT_MS = 365 * 24 * 3600 * 1000  # a replica's times move by up to a year
CHANGE_MS = 6_000  # a changed file's run_stop moves by 0.1 minute
SUMMARIZER_VERSION = "3.0.0"
SUMMARIZER_RESULT = "Compliance check failed"

# The MLLOG keys a padded log repeats: the run's timeline, never a setting or a boundary.
PAD_KEYS = frozenset(
    {
        b"epoch_start",
        b"epoch_stop",
        b"block_start",
        b"block_stop",
        b"eval_start",
        b"eval_stop",
        b"eval_accuracy",
        b"tracked_stats",
        b"throughput",
    }
)
_KEY = re.compile(rb'"key"\s*:\s*"([A-Za-z0-9_]+)"')
_TIME = re.compile(rb'("time_ms"\s*:\s*)(\d+)(?![\d.eE])')
_SUBMITTER = re.compile(r'("submitter"\s*:\s*")((?:[^"\\]|\\.)*)(")')
_RESULT = re.compile(r"^result_.*\.txt$")
_DETAILS = re.compile(r"/([^/]+)/systems/([^/]+)\.json$")


# ---- the round ------------------------------------------------------------------------------


@dataclass
class Round:
    tree: Path
    copies: int
    seed: int
    mean_kb: int
    submitters: int
    units: int  # benchmark folders: one document each
    systems: int
    result_files: int
    files: int
    bytes: int
    result_bytes: int
    pad_factor: float  # each log's bytes times this, where it has lines to repeat
    padded_files: int
    source_files: int
    source_bytes: int
    source_result_files: int

    @property
    def mb(self) -> float:
        return self.bytes / 1e6


def default_copies(source: Path) -> int:
    results = sum(1 for _ in _source_files(source) if _RESULT.match(_.name))
    return max(1, round(TARGET_RESULT_FILES / max(results, 1)))


def build_round(source: Path, work: Path, copies: int, seed: int, mean_kb: int) -> Round:
    """The tree at `<work>/training_results_v2.0`, built again unless the last build of the
    same source and options is there whole (its stamp is written last)."""
    tree = work / ROUND_FOLDER
    stamp = work / STAMP
    params = {
        "version": BUILD_VERSION,
        "source": str(source),
        "source_digest": _listing_digest(source),
        "copies": copies,
        "seed": seed,
        "mean_kb": mean_kb,
    }
    if stamp.is_file() and tree.is_dir():
        saved = json.loads(stamp.read_text(encoding="utf-8"))
        if saved.get("params") == params:
            return Round(**{**saved["round"], "tree": tree})
    stamp.unlink(missing_ok=True)
    shutil.rmtree(tree, ignore_errors=True)
    built = _build(source, tree, copies, seed, mean_kb)
    facts = {k: v for k, v in asdict(built).items() if k != "tree"}
    stamp.write_text(json.dumps({"params": params, "round": facts}, indent=1), encoding="utf-8")
    return built


def _build(source: Path, tree: Path, copies: int, seed: int, mean_kb: int) -> Round:
    submitters = [
        folder
        for folder in sorted(source.iterdir())
        if (folder / "systems").is_dir() and (folder / "results").is_dir()
    ]
    originals = {path: path.read_bytes() for path in _source_files(source)}
    results = [path for path in originals if _RESULT.match(path.name)]
    result_bytes = sum(len(originals[path]) for path in results)
    factor = max(1.0, mean_kb * 1000 * len(results) / result_bytes) if mean_kb else 1.0
    units = {path.parent for path in results}
    files = written = written_results = padded = 0
    for replica in range(copies):
        offset = (
            0
            if replica == 0
            else random.Random(seed * 1_000_003 + replica).randrange(1, MAX_SHIFT_MS)
        )
        for submitter in submitters:
            name = submitter.name if replica == 0 else f"{submitter.name}_r{replica + 1}"
            for path, data in originals.items():
                if submitter not in path.parents:
                    continue
                relative = path.relative_to(submitter)
                if relative.parts[0] == "systems" and path.suffix == ".json" and replica:
                    data = rename_submitter(data, name)
                elif _RESULT.match(path.name):
                    data = shift_times(data, offset)
                    extra = round(len(data) * (factor - 1))
                    padded_data = pad_log(data, extra)
                    padded += len(padded_data) > len(data)
                    data = padded_data
                    written_results += len(data)
                target = tree / name / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                files += 1
                written += len(data)
    return Round(
        tree=tree,
        copies=copies,
        seed=seed,
        mean_kb=mean_kb,
        submitters=len(submitters) * copies,
        units=len(units) * copies,
        systems=sum(1 for p in originals if p.parent.name == "systems") * copies,
        result_files=len(results) * copies,
        files=files,
        bytes=written,
        result_bytes=written_results,
        pad_factor=factor,
        padded_files=padded,
        source_files=len(originals),
        source_bytes=sum(map(len, originals.values())),
        source_result_files=len(results),
    )


def _source_files(source: Path) -> list[Path]:
    return sorted(path for path in source.rglob("*") if path.is_file() and not path.is_symlink())


def _listing_digest(source: Path) -> str:
    listing = "\n".join(
        f"{p.relative_to(source).as_posix()}\t{p.stat().st_size}" for p in _source_files(source)
    )
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def rename_submitter(data: bytes, name: str) -> bytes:
    """A system description's `submitter` value replaced, the rest of the file as it was."""
    text = data.decode("utf-8")
    escaped = json.dumps(name)[1:-1]
    return _SUBMITTER.sub(lambda m: m.group(1) + escaped + m.group(3), text, count=1).encode(
        "utf-8"
    )


def shift_times(data: bytes, offset_ms: int) -> bytes:
    """Every whole `time_ms` moved by `offset_ms`: each interval, so each score, unchanged."""
    if not offset_ms:
        return data
    return _TIME.sub(lambda m: m.group(1) + str(int(m.group(2)) + offset_ms).encode(), data)


def mllog_key(line: bytes) -> bytes | None:
    if b":::MLLOG" not in line:
        return None
    found = _KEY.search(line)
    return found.group(1) if found else None


def pad_log(data: bytes, extra_bytes: int) -> bytes:
    """The log with about `extra_bytes` more: its own epoch, block and evaluation lines of the
    run, repeated in order right after its run_start. The log is returned as it is when it has
    no such line or no run_start before a run_stop."""
    if extra_bytes <= 0:
        return data
    lines = data.split(b"\n")
    keys = [mllog_key(line) for line in lines]
    start = next((i for i, key in enumerate(keys) if key == b"run_start"), None)
    stop = next((i for i in range(len(keys) - 1, -1, -1) if keys[i] == b"run_stop"), None)
    if start is None or stop is None or stop <= start:
        return data
    block = [lines[i] for i in range(start + 1, stop) if keys[i] in PAD_KEYS]
    if not block:
        return data
    padding, size, index = [], 0, 0
    while size < extra_bytes:
        line = block[index % len(block)]
        padding.append(line)
        size += len(line) + 1
        index += 1
    return b"\n".join(lines[: start + 1] + padding + lines[start + 1 :])


def change_file(path: Path, revision: int) -> bytes:
    """Move the log's run_stop by `revision` x CHANGE_MS, as a submitter's fix would change
    a file; the bytes before the change are returned to put back."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    stop = next(i for i in range(len(lines) - 1, -1, -1) if mllog_key(lines[i]) == b"run_stop")
    lines[stop] = shift_times(lines[stop], CHANGE_MS * revision)
    path.write_bytes(b"\n".join(lines))
    return data


# ---- sizes ----------------------------------------------------------------------------------


def folder_size(folder: Path) -> dict:
    """Files, bytes (apparent) and bytes on disk (allocated blocks) under `folder`."""
    files = apparent = disk = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            try:
                stat = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            files += 1
            apparent += stat.st_size
            disk += stat.st_blocks * 512
    return {"files": files, "bytes": apparent, "disk_bytes": disk}


# ---- child processes ------------------------------------------------------------------------


def child_env() -> dict[str, str]:
    """The environment with no PERFLEDGER_* setting: every run uses the defaults."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PERFLEDGER_")}
    return {**env, "PYTHONPATH": str(PROJECT_ROOT)}


def run_child(module: str, *args: str, prefix: tuple[str, ...] = ()) -> tuple[dict, float]:
    """(the child's JSON result, its wall time including interpreter start and imports)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *prefix, "-m", module, *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env=child_env(),
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout), elapsed


def ingest(
    tree: Path, warehouse: Path, memory: bool = False, profile: Path | None = None
) -> tuple[dict, float]:
    """`perfledger ingest TREE` as bench.measure runs it (pipeline.ingest in the child); with
    `memory` the process tree's Pss is sampled (which costs the ingest a little time)."""
    args = ["ingest", "--corpus", str(tree), "--warehouse", str(warehouse)]
    if not memory:
        args += ["--tree-sample-s", "0"]
    prefix = ("-m", "cProfile", "-o", str(profile)) if profile else ()
    return run_child("bench.measure", *args, prefix=prefix)


def rerun(tree: Path, warehouse: Path) -> tuple[dict, float]:
    os.sync()  # not while the kernel still writes the run before back to disk
    return ingest(tree, warehouse)


def perfledger_sql(warehouse: Path, sql: str) -> list[dict]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "perfledger",
            "sql",
            "--warehouse",
            str(warehouse),
            "--format",
            "json",
            sql,
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env=child_env(),
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"perfledger sql failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


def warehouse_scores(warehouse: Path) -> dict:
    rows = perfledger_sql(
        warehouse,
        "SELECT submitter, system_id, benchmark, score_minutes, valid FROM mlperf_official",
    )
    valid = perfledger_sql(warehouse, "SELECT count(*) AS n FROM mlperf_official WHERE valid")
    documents = perfledger_sql(warehouse, "SELECT count(*) AS n FROM document_versions")
    return {
        "scores": [
            [r["submitter"], r["system_id"], r["benchmark"], r["score_minutes"], r["valid"]]
            for r in rows
        ],
        "valid": valid[0]["n"],
        "documents": documents[0]["n"],
    }


# ---- the children's own work ----------------------------------------------------------------


def child_plain_read(tree: Path) -> dict:
    """read_results_tree(tree): systems, runs and scores, nothing archived or loaded."""
    from perfledger.flows.budget import peak_resident_mb
    from perfledger.sources.mlperf.tree import read_results_tree

    imported = time.perf_counter()
    results = read_results_tree(tree)
    finished = time.perf_counter()
    scores = results.scores.select(
        "submitter", "system_id", "benchmark", "score_minutes", "valid"
    ).rows()
    return {
        "imports_s": imported - STARTED,
        "read_s": finished - imported,
        "runs": results.runs.height,
        "systems": results.systems.height,
        "problems": len(results.problems),
        "scores": [list(row) for row in scores],
        "peak_rss_mb": peak_resident_mb(),
    }


def child_summarize(python: Path, tree: Path, csv_path: Path) -> dict:
    """MLCommons' result summarizer over every submitter of the tree, its memory sampled."""
    from bench.measure import TreePeak

    command = [
        str(python),
        "-m",
        "mlperf_logging.result_summarizer",
        f"{tree}/{{*}}",
        "training",
        RUN_OF_ROUND,
        "--csv",
        str(csv_path),
    ]
    with TreePeak() as memory:
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - started
    return {
        "elapsed_s": elapsed,
        "returncode": done.returncode,
        "compliance_failed": done.stdout.count(SUMMARIZER_RESULT),
        "tree_peak_mb": memory.peak_mb,
        "peak_hwm_mb": memory.descendant_peak_rss_mb,
        "stderr_tail": done.stderr[-2000:],
        "stdout_tail": done.stdout[-2000:],
    }


# ---- the summarizer -------------------------------------------------------------------------


def install_summarizer(work: Path, version: str) -> tuple[Path | None, str]:
    """(the venv's python, the version installed) or (None, why it could not be installed):
    mlperf-logging in a throwaway venv under `work`, reused when the version is there."""
    venv = work / "summarizer-venv"
    python = venv / "bin" / "python"
    installed = _installed_version(python)
    if installed and _matches(installed, version):
        return python, installed
    base = shutil.which("python3") or sys.executable
    steps = (
        [base, "-m", "venv", "--clear", str(venv)],
        [str(python), "-m", "pip", "install", "--quiet", f"mlperf-logging=={version}"],
    )
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [
                line
                for line in done.stderr.splitlines()
                if not line.startswith("WARNING: Location")
            ]
            return None, f"`{' '.join(step[-3:])}` failed: {' '.join(lines[-3:])}"
    installed = _installed_version(python)
    if not installed:
        return None, "mlperf-logging installed but cannot be imported"
    return python, installed


def _installed_version(python: Path) -> str | None:
    if not python.exists():
        return None
    done = subprocess.run(
        [
            str(python),
            "-c",
            "import importlib.metadata as m, mlperf_logging;print(m.version('mlperf-logging'))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else None


def _matches(installed: str, wanted: str) -> bool:
    return installed == wanted or (
        wanted.endswith("*") and installed.startswith(wanted.rstrip("*"))
    )


def summarizer_scores(csv_path: Path) -> dict[tuple[str, str, str], float]:
    """(submitter, system folder, benchmark) -> score from the summarizer's CSV: the system
    is its description's file name in details_url, the benchmarks the columns between the
    system's fields and details_url."""
    scores = {}
    with csv_path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, [])
        first = header.index("notes") + 1
        last = header.index("details_url")
        benchmarks = [name for name in header[first:last] if name != "private_id"]
        for row in reader:
            if row == header or len(row) != len(header):
                continue  # the header again, when several summaries are appended
            found = _DETAILS.search(row[last])
            if not found:
                continue
            for benchmark in benchmarks:
                text = row[header.index(benchmark)]
                if text.strip():
                    scores[(found.group(1), found.group(2), benchmark)] = float(text)
    return scores


def compare_scores(ours: dict, theirs: dict) -> dict:
    """How many of perfledger's valid scores another reader gives exactly, or nearly."""
    keys = set(ours) | set(theirs)
    exact = sum(1 for key in keys if key in ours and key in theirs and ours[key] == theirs[key])
    close = sum(
        1
        for key in keys
        if key in ours and key in theirs and abs(ours[key] - theirs[key]) <= 1e-9 * abs(theirs[key])
    )
    differ = sorted(
        key for key in keys if key in ours and key in theirs and ours[key] != theirs[key]
    )
    return {
        "compared": len(keys),
        "exact": exact,
        "within_1e-9": close,
        "only_perfledger": len(set(ours) - set(theirs)),
        "only_other": len(set(theirs) - set(ours)),
        "examples": [[*key, ours[key], theirs[key]] for key in differ[:5]]
        + [[*key, ours[key], None] for key in sorted(set(ours) - set(theirs))[:5]]
        + [[*key, None, theirs[key]] for key in sorted(set(theirs) - set(ours))[:5]],
    }


def score_map(rows: list, valid_only: bool = True) -> dict:
    return {
        (s, system, b): minutes
        for s, system, b, minutes, valid in rows
        if minutes is not None and (valid or not valid_only)
    }


# ---- the measurements -----------------------------------------------------------------------


def measure(args: argparse.Namespace, work: Path):
    from bench.run import Report

    report = Report(f"MLPerf Training v2.0 round, default settings ({ROUND_FOLDER})")
    facts = report.facts
    copies = args.copies or default_copies(args.source)
    log(f"building the round: {copies} replicas of {args.source}")
    started = time.perf_counter()
    built = build_round(args.source, work, copies, args.seed, args.mean_kb)
    facts["build_s"] = time.perf_counter() - started
    facts["round"] = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(built).items()}
    tree = built.tree

    summarizer_python, summarizer_note = None, "not run (--no-summarizer)"
    if args.summarizer:
        log(f"installing mlperf-logging=={args.summarizer_version} under {work}")
        summarizer_python, summarizer_note = install_summarizer(work, args.summarizer_version)
        log(f"summarizer: {summarizer_note}")

    log("perfledger ingest of the real subset alone (archive reference)")
    real, _ = ingest(args.source, fresh(work / "wh-real-subset"))
    real_archive = folder_size(work / "wh-real-subset" / "archive")

    log(f"perfledger ingest of the round: {built.files} files, {built.mb:.0f} MB")
    warehouse = fresh(work / "wh")
    full, full_wall = ingest(tree, warehouse)
    archive = folder_size(warehouse / "archive")
    whole = folder_size(warehouse)
    extensions = folder_size(warehouse / "extensions")
    loaded = warehouse_scores(warehouse)

    log("perfledger ingest of the round again, its process tree's memory sampled")
    memory, memory_wall = ingest(tree, fresh(work / "wh-memory"), memory=True)

    log(f"re-runs, nothing changed (best of {args.reruns})")
    unchanged, unchanged_wall = min(
        (rerun(tree, warehouse) for _ in range(args.reruns)),
        key=lambda measured: measured[0]["ingest_s"],
    )

    log("plain read of the tree (read_results_tree)")
    plain, plain_wall = run_child(
        "bench.mlperf_round", "--child", "plain-read", "--tree", str(tree)
    )
    plain_vs_loaded = compare_scores(
        score_map(loaded["scores"], valid_only=False), score_map(plain["scores"], valid_only=False)
    )
    facts["plain_equal"] = sorted(map(tuple, loaded["scores"])) == sorted(
        map(tuple, plain["scores"])
    )

    summarized = None
    if summarizer_python is not None:
        log(f"MLCommons result summarizer (mlperf-logging {summarizer_note}) on the round")
        csv_path = work / "summarizer.csv"
        csv_path.unlink(missing_ok=True)
        summarized, summarizer_wall = run_child(
            "bench.mlperf_round",
            "--child",
            "summarize",
            "--tree",
            str(tree),
            "--python",
            str(summarizer_python),
            "--csv",
            str(csv_path),
        )
        summarized["wall_s"] = summarizer_wall
        if csv_path.is_file():
            summarized["agreement"] = compare_scores(
                score_map(loaded["scores"]), summarizer_scores(csv_path)
            )

    log(f"re-runs, one result file changed (median of {args.reruns})")
    changed_runs = []
    rng = random.Random(args.seed)
    results = sorted(path for path in tree.rglob("result_*.txt"))
    chosen = rng.sample(results, min(args.reruns, len(results)))
    saved: dict[Path, bytes] = {}
    stamp = (work / STAMP).read_bytes()
    (work / STAMP).unlink()  # the tree differs from its build until its files are put back
    try:
        for revision, path in enumerate(chosen, start=1):
            saved[path] = change_file(path, revision)
            changed_runs.append(rerun(tree, warehouse))
    finally:
        for path, data in saved.items():
            path.write_bytes(data)
        (work / STAMP).write_bytes(stamp)
    changed_runs.sort(key=lambda measured: measured[0]["ingest_s"])
    changed, changed_wall = changed_runs[len(changed_runs) // 2]

    profile_text = None
    if args.profile:
        log(f"perfledger ingest of the round under cProfile -> {args.profile}")
        ingest(tree, fresh(work / "wh-profile"), profile=args.profile)
        profile_text = top_functions(args.profile, 30)

    # ---- the table ----
    mb = built.mb
    mean_kb = built.result_bytes / max(built.result_files, 1) / 1e3
    report.add(
        "tree",
        f"{built.files:,} files, {mb:.0f} MB",
        "",
        f"{built.result_files:,} result files (mean {mean_kb:.0f} KB) in {built.units} "
        f"benchmark folders (units), {built.systems} system files, {built.submitters} "
        f"submitters: {copies} replicas of the real subset "
        f"({built.source_result_files} logs, {built.source_bytes / 1e6:.1f} MB), logs "
        f"padded x{built.pad_factor:.2f}; built in {facts['build_s']:.0f} s",
    )
    report.add(
        "ingest, end to end",
        f"{full_wall:.1f} s",
        f"{mb / full_wall:.1f} MB/s",
        f"in-process {full['ingest_s']:.1f} s + start-up and imports "
        f"{full['imports_s']:.1f} s; {full['documents']} documents read "
        f"({full['documents_new']} new)",
    )
    readers_note = (
        f", a reader's {memory['reader_peak_hwm_mb']:.0f} MB"
        if memory.get("reader_peak_hwm_mb")
        else ", no reader process"
    )
    report.add(
        "peak memory, whole process tree",
        f"{memory['tree_peak_mb']:.0f} MB",
        "",
        f"Pss summed every 40 ms; main process VmHWM {memory['peak_rss_mb']:.0f} MB"
        f"{readers_note} (sampled run: {memory_wall:.1f} s wall)",
    )
    report.add(
        "archive",
        f"{archive['bytes'] / 1e6:.1f} MB",
        f"{archive['bytes'] / built.bytes:.1%} of the tree",
        f"{archive['files']:,} files, {archive['disk_bytes'] / 1e6:.1f} MB on disk; the "
        f"real subset alone (no padding): {real_archive['bytes'] / 1e6:.2f} MB of "
        f"{built.source_bytes / 1e6:.1f} MB "
        f"({real_archive['bytes'] / built.source_bytes:.1%})",
    )
    own = whole["bytes"] - extensions["bytes"]
    report.add(
        "warehouse, whole folder",
        f"{whole['bytes'] / 1e6:.1f} MB",
        f"{own / built.bytes:.1%} of the tree without extensions",
        f"DuckDB extensions {extensions['bytes'] / 1e6:.1f} MB, archive "
        f"{archive['bytes'] / 1e6:.1f} MB, catalog and data "
        f"{(own - archive['bytes']) / 1e6:.1f} MB; {whole['disk_bytes'] / 1e6:.1f} MB "
        "on disk",
    )
    report.add(
        "loaded",
        f"{loaded['valid']} valid scores",
        "",
        f"{len(loaded['scores'])} official scores in mlperf_official, "
        f"{loaded['documents']} document versions",
    )
    for label, result, wall in (
        (f"re-run, nothing changed (best of {args.reruns})", unchanged, unchanged_wall),
        (f"re-run, one result file changed (median of {len(changed_runs)})", changed, changed_wall),
    ):
        report.add(
            label,
            f"{wall:.1f} s wall",
            f"{result['ingest_s'] / full['ingest_s']:.1%} of the full run",
            f"in-process {result['ingest_s']:.2f} s; "
            f"{result['documents_new']} unit(s) re-read, "
            f"{result['values_changed']} value(s) changed",
        )
    report.add(
        "baseline: plain read_results_tree",
        f"{plain_wall:.1f} s wall",
        f"ingest/plain {full_wall / plain_wall:.2f}x",
        f"in-process {plain['read_s']:.1f} s (ingest/plain "
        f"{full['ingest_s'] / plain['read_s']:.2f}x), VmHWM "
        f"{plain['peak_rss_mb']:.0f} MB; {plain_vs_loaded['exact']} of "
        f"{plain_vs_loaded['compared']} scores equal the loaded ones exactly",
    )
    if summarized is not None:
        agreement = summarized.get("agreement")
        agreed = (
            f"{agreement['exact']} of {agreement['compared']} scores agree exactly "
            f"({agreement['only_perfledger']} only in perfledger, "
            f"{agreement['only_other']} only in the summarizer)"
            if agreement
            else f"no CSV (exit {summarized['returncode']})"
        )
        report.add(
            f"baseline: MLCommons summarizer {summarizer_note}",
            f"{summarized['wall_s']:.1f} s wall",
            f"summarizer/perfledger {summarized['wall_s'] / full_wall:.2f}x",
            f"{agreed}; {summarized['compliance_failed']} runs failed its compliance "
            f"check; its peak {summarized['peak_hwm_mb']:.0f} MB (VmHWM)",
        )
    else:
        report.add("baseline: MLCommons summarizer", "not run", "", summarizer_note)

    facts |= {
        "ingest": full,
        "ingest_wall_s": full_wall,
        "memory": memory,
        "memory_wall_s": memory_wall,
        "archive": archive,
        "warehouse": whole,
        "extensions": extensions,
        "loaded": loaded,
        "real_subset_ingest": real,
        "real_subset_archive": real_archive,
        "unchanged": unchanged,
        "unchanged_wall_s": unchanged_wall,
        "changed": changed,
        "changed_wall_s": changed_wall,
        "plain": plain,
        "plain_wall_s": plain_wall,
        "plain_vs_loaded": plain_vs_loaded,
        "summarizer": summarized,
        "summarizer_note": summarizer_note,
        "profile": profile_text,
    }
    return report


def top_functions(profile: Path, count: int) -> str:
    import io
    import pstats

    buffer = io.StringIO()
    stats = pstats.Stats(str(profile), stream=buffer)
    stats.strip_dirs().sort_stats("cumulative").print_stats(count)
    return buffer.getvalue()


def fresh(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(
        prog="python -m bench.mlperf_round", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--work", type=Path, help="build the round and warehouses here (kept)")
    parser.add_argument(
        "--copies",
        type=int,
        default=None,
        help="replicas of the real subset (default: as many as make about "
        f"{TARGET_RESULT_FILES:,} result files)",
    )
    parser.add_argument(
        "--mean-kb",
        type=int,
        default=MEAN_RESULT_KB,
        help="pad the logs to this mean size (0: as they are)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reruns", type=int, default=3, help="re-runs of each kind")
    parser.add_argument(
        "--source",
        type=Path,
        default=SOURCE,
        help="the real subset replicated (default: ../shared/mlperf/training_v2.0)",
    )
    parser.add_argument(
        "--no-summarizer",
        dest="summarizer",
        action="store_false",
        help="do not install and run MLCommons' result summarizer",
    )
    parser.add_argument("--summarizer-version", default=SUMMARIZER_VERSION)
    parser.add_argument(
        "--profile",
        type=Path,
        help="also ingest under cProfile, write its stats here, print the top",
    )
    parser.add_argument("--json", type=Path, help="also write the measurements as JSON")
    # A measurement in a child process of its own (used by the run itself).
    parser.add_argument("--child", choices=("plain-read", "summarize"), help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--python", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--csv", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child == "plain-read":
        json.dump(child_plain_read(args.tree), sys.stdout)
        return None
    if args.child == "summarize":
        json.dump(child_summarize(args.python, args.tree, args.csv), sys.stdout)
        return None
    if not args.source.is_dir():
        parser.error(f"the real subset is not at {args.source} (--source)")
    if args.reruns < 1:
        parser.error("--reruns must be 1 or more")

    from bench.run import describe_machine, render

    work = args.work or Path(tempfile.mkdtemp(prefix="perfledger-mlperf-round-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        report = measure(args, work)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(render([report]))
    print(f"machine: {describe_machine()}")
    if report.facts.get("profile"):
        print(
            f"\nperfledger ingest under cProfile, top functions by cumulative time "
            f"({args.profile}):\n{report.facts['profile']}"
        )
    if args.json:
        args.json.write_text(
            json.dumps({"rows": report.rows, "facts": report.facts}, indent=2, default=str),
            encoding="utf-8",
        )
    return report


if __name__ == "__main__":
    main()
