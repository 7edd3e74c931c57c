"""One measurement in a process of its own, so its imports and peak memory are its own."""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # before any heavy import: the child's own start-up is timed

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

TREE_SAMPLE_S = 0.04  # how often the process tree's memory is summed during an ingest


def read_peak_rss_mb() -> float:
    from perfledger.flows.budget import peak_resident_mb

    return peak_resident_mb()


class TreePeak:
    """The largest memory this process and all its live descendants (the readers) held at
    once, summed from a thread every `interval_s` while the ingest runs.

    Each process counts its proportional set size (Pss): a page shared by several processes
    (the same library's code) is split among them, so the sum is what the tree costs the
    machine, where a sum of each process's peak would count shared pages once per process
    and add peaks that never happened at the same time. A peak shorter than the interval
    can be missed, and a library page that processes outside the tree map too (another
    Python using polars) is split with them: on a busy machine the sum reads lower."""

    def __init__(self, interval_s: float = TREE_SAMPLE_S) -> None:
        self.peak_mb = 0.0
        self.samples = 0
        self._interval_s = interval_s
        self._tree = ProcessTree(os.getpid())
        self._memory: dict[int, ProcessMemory] = {}
        # pid -> its VmHWM when last seen: the latest, as a process just forked shows its
        # parent's until it runs its own program
        self._descendant_peaks: dict[int, float] = {}
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._sample_until_stopped, name="tree-memory", daemon=True
        )

    def __enter__(self) -> TreePeak:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stopping.set()
        self._thread.join()

    def _sample_until_stopped(self) -> None:
        while True:
            self.peak_mb = max(self.peak_mb, self.total_mb())
            self.samples += 1
            if self._stopping.wait(self._interval_s):
                return

    def total_mb(self) -> float:
        members = self._tree.members()
        for gone in self._memory.keys() - set(members):
            del self._memory[gone]
        total = sum(self._memory.setdefault(pid, ProcessMemory(pid)).pss_mb() for pid in members)
        for pid in members[1:]:
            self._descendant_peaks[pid] = self._memory[pid].peak_rss_mb
        return total

    @property
    def descendant_peak_rss_mb(self) -> float:
        """The largest peak (VmHWM) of any one descendant, the readers."""
        return max(self._descendant_peaks.values(), default=0.0)


class ProcessTree:
    """A process and its live descendants, from /proc (Linux). A process's parent is read
    once, when it is first seen: a listing of /proc then costs one stat read per new process,
    not one per process on the machine."""

    def __init__(self, root: int) -> None:
        self._root = root
        self._parents: dict[int, int | None] = {}

    def members(self) -> list[int]:
        alive = {int(name) for name in os.listdir("/proc") if name.isdigit()}
        for gone in self._parents.keys() - alive:
            del self._parents[gone]
        children: dict[int, list[int]] = {}
        for pid in alive:
            if pid not in self._parents:
                self._parents[pid] = parent_of(pid)
            children.setdefault(self._parents[pid], []).append(pid)
        tree, pending = [], [self._root]
        while pending:
            pid = pending.pop()
            tree.append(pid)
            pending.extend(children.get(pid, ()))
        return tree


def parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            # the command name may hold spaces and parentheses: the fields follow the last ')'
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None  # gone since the listing


class ProcessMemory:
    """One process's Pss, read in full (smaps_rollup, which walks every mapping: about 4 ms
    for the main process) at most every PSS_READ_S; in between, its Pss of the last full read
    plus the change of its Rss since, which /proc/PID/status gives for almost nothing. The
    change is what the process allocated or freed, and memory a process allocates is its
    own (these processes are spawned, not forked: they share no anonymous pages), so it
    counts in full. Where smaps_rollup cannot be read, Rss stands in for Pss."""

    PSS_READ_S = 0.5

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_rss_mb = 0.0  # VmHWM when last read: the peak of the program it runs
        self._read_at = -float("inf")
        self._pss_kb = self._rss_kb = 0

    def pss_mb(self) -> float:
        status = read_fields(f"/proc/{self.pid}/status", (b"VmRSS:", b"VmHWM:"))
        if status is None:
            return 0.0  # gone (or a kernel thread)
        rss_kb, peak_kb = status
        self.peak_rss_mb = peak_kb / 1024
        now = time.monotonic()
        if now - self._read_at >= self.PSS_READ_S:
            rollup = read_fields(f"/proc/{self.pid}/smaps_rollup", (b"Rss:", b"Pss:"))
            if rollup is None:  # no smaps_rollup: Rss stands in
                return rss_kb / 1024
            self._rss_kb, self._pss_kb = rollup
            self._read_at = now
            return self._pss_kb / 1024
        return (self._pss_kb + rss_kb - self._rss_kb) / 1024


def read_fields(path: str, fields: tuple[bytes, ...]) -> list[int] | None:
    """The numbers (kB) of `fields` in a /proc file of `Name: value kB` lines, in order."""
    found = {}
    try:
        with open(path, "rb") as source:
            for line in source:
                name = line.split(b" ", 1)[0].split(b"\t", 1)[0]
                if name in fields:
                    found[name] = int(line.split()[1])
                    if len(found) == len(fields):
                        return [found[field] for field in fields]
    except (OSError, ValueError, IndexError):
        return None
    return None


def measure_ingest(
    corpus: Path, warehouse: Path, truth: Path | None, tree_sample_s: float = TREE_SAMPLE_S
) -> dict:
    """`pipeline.ingest([corpus], warehouse)` as `perfledger ingest` runs it, then accuracy."""
    from perfledger.flows import budget, pipeline, readers

    imported = time.perf_counter()
    if tree_sample_s > 0:
        with TreePeak(tree_sample_s) as tree:
            summary = pipeline.ingest([str(corpus)], warehouse)
    else:
        tree = None
        summary = pipeline.ingest([str(corpus)], warehouse)
    finished = time.perf_counter()
    result = {
        "imports_s": imported - STARTED,
        "ingest_s": finished - imported,
        "readers": readers.reader_count(),
        "documents": summary.documents_read,
        "documents_new": summary.count_status("new"),
        "values_added": summary.total("values_added"),
        "values_changed": summary.total("values_changed"),
        "values_quarantined": summary.total("values_quarantined"),
        "peak_rss_mb": read_peak_rss_mb(),  # before the accuracy check reads the warehouse back
    }
    if tree is not None:
        result["tree_peak_mb"] = tree.peak_mb
        result["tree_samples"] = tree.samples
        result["reader_peak_hwm_mb"] = tree.descendant_peak_rss_mb
    budget.stop_workers()
    if truth is not None:
        from bench.accuracy import measure_accuracy

        result["accuracy"] = measure_accuracy(truth, warehouse).__dict__
    return result


def measure_naive(corpus: Path, database: Path, fmt: str, truth: Path) -> dict:
    import duckdb
    import polars as pl

    from bench.naive import run_naive

    pages = sorted(p for p in corpus.iterdir() if p.is_file())
    started = time.perf_counter()
    rows = run_naive(pages, database, fmt)
    elapsed = time.perf_counter() - started
    found = (
        duckdb.connect(str(database), read_only=True)
        .execute(
            "SELECT page, table_index::INTEGER AS table_index, row_number::INTEGER AS row_number, "
            "column_name, metric, value FROM measurements"
        )
        .pl()
    )
    expected = pl.read_parquet(truth)
    exact = expected.join(
        found, on=["page", "table_index", "row_number", "column_name", "metric"]
    ).filter((pl.col("value") - pl.col("value_right")).abs() <= pl.col("value").abs() * 1e-12)
    return {
        "elapsed_s": elapsed,
        "rows": rows,
        "exact": exact.height,
        "expected": expected.height,
        "peak_rss_mb": read_peak_rss_mb(),
    }


def measure_parse_ceiling(corpus: Path, fmt: str, repeats: int) -> dict:
    from bench.ceilings import extract_with_lxml, extract_with_selectolax, parse_all, split_text

    pages = sorted(p for p in corpus.iterdir() if p.is_file())
    extractors = (
        {"lxml": extract_with_lxml, "selectolax": extract_with_selectolax}
        if fmt == "html"
        else {"split lines": split_text}
    )
    timings = {}
    for name, extract in extractors.items():
        runs = []
        for _ in range(repeats):
            started = time.perf_counter()
            parse_all(pages, extract)
            runs.append(time.perf_counter() - started)
        timings[name] = min(runs)
    return {"timings_s": timings}


def measure_load_ceiling(truth: Path, repeats: int) -> dict:
    from bench.ceilings import read_rows

    runs = []
    rows = 0
    for _ in range(repeats):
        started = time.perf_counter()
        rows = read_rows(truth)
        runs.append(time.perf_counter() - started)
    return {"elapsed_s": min(runs), "rows": rows}


def measure_history(work: Path, runs: int, repeats: int) -> dict:
    """Build `runs` snapshots of one edited page, then time the same query now and as of the
    middle of the history, and a diff between two snapshots."""
    from bench.generate import write_history
    from perfledger.flows import pipeline
    from perfledger.warehouse import lake, query

    pages = work / "history-pages"
    warehouse = work / "history-warehouse"
    write_history(pages, runs)
    started = time.perf_counter()
    summary = pipeline.ingest([str(pages)], warehouse, source_name="history")
    built = time.perf_counter() - started
    snapshots = [run.snapshot_id for run in summary.runs]
    middle = snapshots[len(snapshots) // 2]
    sql = (
        "SELECT metric, count(*) AS n, sum(value) AS total "
        "FROM lake.main.measurement_values{at} WHERE source_id = 'history' GROUP BY metric"
    )
    connection = lake.connect(warehouse, read_only=True)
    try:
        latest = time_query(connection, sql.format(at=""), repeats)
        past = time_query(connection, sql.format(at=f" AT (VERSION => {middle})"), repeats)
        files = connection.execute(
            "SELECT count(*) FROM ducklake_list_files('lake', 'measurement_values')"
        ).fetchone()[0]
    finally:
        connection.close()
    diff_runs = []
    for _ in range(repeats):
        begun = time.perf_counter()
        _columns, changes, _, _ = query.diff(warehouse, snapshots[0], snapshots[-1])
        diff_runs.append(time.perf_counter() - begun)
    as_of = time_cli_query(warehouse, str(middle), repeats)
    now = time_cli_query(warehouse, None, repeats)
    return {
        "runs": len(snapshots),
        "build_s": built,
        "latest_s": latest,
        "as_of_s": past,
        "data_files": files,
        "diff_s": statistics.median(diff_runs),
        "diff_rows": len(changes),
        "cli_latest_s": now,
        "cli_as_of_s": as_of,
    }


def time_query(connection, sql: str, repeats: int) -> float:
    connection.execute(sql).fetchall()  # warm: metadata and file footers cached alike
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        connection.execute(sql).fetchall()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def time_cli_query(warehouse: Path, as_of: str | None, repeats: int) -> float:
    """`perfledger sql [--as-of N]`: attach, views and query, as a user pays for it."""
    from perfledger.warehouse import query

    sql = "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric"
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        query.run_sql(warehouse, sql, as_of)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.measure")
    parser.add_argument(
        "kind", choices=("ingest", "naive", "parse-ceiling", "load-ceiling", "history")
    )
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--warehouse", type=Path)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--format", default="html")
    parser.add_argument("--work", type=Path)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--tree-sample-s",
        type=float,
        default=TREE_SAMPLE_S,
        help="how often the ingest's process tree memory is read (0: never)",
    )
    args = parser.parse_args(argv)
    if args.kind == "ingest":
        result = measure_ingest(args.corpus, args.warehouse, args.truth, args.tree_sample_s)
    elif args.kind == "naive":
        result = measure_naive(args.corpus, args.warehouse, args.format, args.truth)
    elif args.kind == "parse-ceiling":
        result = measure_parse_ceiling(args.corpus, args.format, args.repeats)
    elif args.kind == "load-ceiling":
        result = measure_load_ceiling(args.truth, args.repeats)
    else:
        result = measure_history(args.work, args.runs, args.repeats)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
