"""Measure ingest, a naive pipeline and the ceilings on one synthetic corpus; print a table."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from bench.generate import edit_pages, generate
from bench.measure import TREE_SAMPLE_S

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SMALL_SHARE = 5  # the small corpus is 1/5 of the pages: start-up = intercept of two sizes
CHANGED_SHARE = 0.01
# Memory is measured again on text pages this many times the corpus: it must not grow with
# the size of a run (text, since generating and reading them costs little).
SCALE_FACTOR = 5


@dataclass
class Corpus:
    fmt: str
    folder: Path  # holds pages/, truth.parquet, manifest.json
    pages: int
    bytes: int
    measurements: int

    @property
    def pages_dir(self) -> Path:
        return self.folder / "pages"

    @property
    def truth(self) -> Path:
        return self.folder / "truth.parquet"


@dataclass
class Report:
    fmt: str
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # what, value, ...
    facts: dict = field(default_factory=dict)

    def add(self, what: str, value: str, ratio: str = "", note: str = "") -> None:
        self.rows.append((what, value, ratio, note))


# ---- child processes ------------------------------------------------------------------------


def run_child(*args: str, env: dict[str, str] | None = None) -> tuple[dict, float]:
    """(the child's JSON result, its wall time including interpreter start and imports)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bench.measure", *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT), **(env or {})},
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"bench.measure {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout), elapsed


def ingest(
    corpus_dir: Path,
    warehouse: Path,
    truth: Path | None = None,
    env: dict[str, str] | None = None,
    memory: bool = False,
) -> tuple[dict, float]:
    """A timed ingest, or with `memory` one whose process tree's memory is sampled (the
    sampling thread costs the ingest a little time, so timed runs go without it)."""
    args = ["ingest", "--corpus", str(corpus_dir), "--warehouse", str(warehouse)]
    if not memory:
        args += ["--tree-sample-s", "0"]
    return run_child(*args, *(["--truth", str(truth)] if truth else []), env=env)


def rerun(corpus: Corpus, warehouse: Path) -> tuple[dict, float]:
    # A re-run comes hours after the run before, not while the kernel still writes that run's
    # 200 MB back to disk; the archive's fsyncs would otherwise wait for that writeback.
    os.sync()
    return ingest(corpus.pages_dir, warehouse)


def rerun_unchanged(corpus: Corpus, warehouse: Path, reruns: int) -> tuple[dict, float]:
    """The fastest of `reruns` re-runs over the same files: the machine is shared."""
    return min(
        (rerun(corpus, warehouse) for _ in range(reruns)),
        key=lambda measured: measured[0]["ingest_s"],
    )


def rerun_changed(
    corpus: Corpus, warehouse: Path, seed: int, pages: int, reruns: int
) -> tuple[dict, float]:
    """The median of `reruns` re-runs, each after another `pages` pages were republished."""
    measured = []
    for revision in range(1, reruns + 1):
        first = (revision - 1) * pages % corpus.pages
        indexes = [(first + offset) % corpus.pages for offset in range(pages)]
        edit_pages(corpus.folder, corpus.fmt, seed, indexes, revision)
        measured.append(rerun(corpus, warehouse))
    measured.sort(key=lambda result: result[0]["ingest_s"])
    return measured[len(measured) // 2]


# ---- corpora --------------------------------------------------------------------------------


def make_corpus(work: Path, fmt: str, pages: int, seed: int) -> Corpus:
    summary = generate(pages, seed, work / f"{fmt}-full", fmt)
    return Corpus(fmt, work / f"{fmt}-full", pages, summary["bytes"], summary["measurements"])


def make_subset(full: Corpus, pages: int) -> Corpus:
    """The first `pages` pages of a corpus (linked, not copied) and their share of the truth."""
    folder = full.folder.parent / f"{full.fmt}-small"
    (folder / "pages").mkdir(parents=True, exist_ok=True)
    chosen = sorted(full.pages_dir.iterdir())[:pages]
    for path in chosen:
        os.link(path, folder / "pages" / path.name)
    names = [path.stem for path in chosen]
    truth = pl.read_parquet(full.truth).filter(pl.col("page").is_in(names))
    truth.write_parquet(folder / "truth.parquet")
    size = sum(path.stat().st_size for path in chosen)
    return Corpus(full.fmt, folder, pages, size, truth.height)


# ---- one format -----------------------------------------------------------------------------


def measure_format(work: Path, fmt: str, pages: int, seed: int, reruns: int) -> Report:
    report = Report(fmt)
    log(f"[{fmt}] generating {pages} pages")
    full = make_corpus(work, fmt, pages, seed)
    small = make_subset(full, max(1, pages // SMALL_SHARE))
    report.facts |= {"pages": full.pages, "mb": full.bytes / 1e6, "rows": full.measurements}

    log(f"[{fmt}] ingest of {small.pages} pages")
    small_result, small_wall = ingest(small.pages_dir, work / f"{fmt}-wh-small")
    log(f"[{fmt}] ingest of {full.pages} pages")
    full_result, full_wall = ingest(full.pages_dir, work / f"{fmt}-wh-full", full.truth)
    rows = full_result["values_added"] - small_result["values_added"]
    extra_time = full_wall - small_wall
    rate = rows / extra_time if extra_time > 0 else float("nan")
    mb_rate = (full.bytes - small.bytes) / 1e6 / extra_time if extra_time > 0 else float("nan")
    startup = small_wall - small_result["values_added"] / rate
    report.facts |= {
        "ingest_rate": rate,
        "full_wall": full_wall,
        "readers": full_result["readers"],
        "full_ingest_s": full_result["ingest_s"],
    }

    log(f"[{fmt}] ingest of {full.pages} pages read in this process only")
    one_reader, one_reader_wall = ingest(
        full.pages_dir, work / f"{fmt}-wh-one-reader", env={"PERFLEDGER_READERS": "1"}
    )

    log(f"[{fmt}] re-runs, nothing changed")
    unchanged, unchanged_wall = rerun_unchanged(full, work / f"{fmt}-wh-full", reruns)
    changed_pages = max(1, round(full.pages * CHANGED_SHARE))
    log(f"[{fmt}] re-runs, {changed_pages} pages changed")
    changed, changed_wall = rerun_changed(
        full, work / f"{fmt}-wh-full", seed, changed_pages, reruns
    )

    log(f"[{fmt}] memory of the ingest of {small.pages} and of {full.pages} pages")
    small_memory, _ = ingest(small.pages_dir, work / f"{fmt}-wh-small-memory", memory=True)
    full_memory, _ = ingest(full.pages_dir, work / f"{fmt}-wh-full-memory", memory=True)

    scale = None
    if fmt == "text":
        scale_pages = full.pages * SCALE_FACTOR
        log(f"[{fmt}] memory of the ingest of {scale_pages} pages")
        scaled = generate(scale_pages, seed, work / f"{fmt}-scale", fmt)
        scale, _ = ingest(work / f"{fmt}-scale" / "pages", work / f"{fmt}-wh-scale", memory=True)
        scale |= {"pages": scale_pages, "values": scaled["measurements"]}

    log(f"[{fmt}] naive pipeline on {small.pages} pages")
    naive, _ = run_child(
        "naive",
        "--corpus",
        str(small.pages_dir),
        "--warehouse",
        str(work / f"{fmt}-naive.duckdb"),
        "--format",
        fmt,
        "--truth",
        str(small.truth),
    )
    naive_rate = naive["rows"] / naive["elapsed_s"]

    log(f"[{fmt}] parsing ceiling on {full.pages} pages")
    ceiling, _ = run_child(
        "parse-ceiling", "--corpus", str(full.pages_dir), "--format", fmt, "--repeats", "2"
    )
    best_name, best_s = min(ceiling["timings_s"].items(), key=lambda item: item[1])
    ceiling_rate = full.measurements / best_s
    load, _ = run_child("load-ceiling", "--truth", str(full.truth), "--repeats", "3")

    accuracy = full_result["accuracy"]
    report.add(
        "corpus", f"{full.pages} pages, {full.bytes / 1e6:.1f} MB, {full.measurements:,} values"
    )
    report.add(
        "ingest, steady state",
        f"{rate:,.0f} rows/s, {mb_rate:.2f} MB/s",
        "",
        f"({full.pages} - {small.pages} pages) / (wall {full_wall:.1f} s - {small_wall:.1f} s)",
    )
    report.add(
        "ingest, start-up",
        f"{startup:.1f} s",
        "",
        f"interpreter + imports {small_result['imports_s']:.1f} s of it",
    )
    report.add(
        f"ingest, {full.pages} pages end to end",
        f"{full_wall:.1f} s",
        "",
        f"in-process ingest {full_result['ingest_s']:.1f} s, documents read by "
        f"{full_result['readers']} worker processes",
    )
    report.add(
        f"ingest, {full.pages} pages, read in one process",
        f"{one_reader_wall:.1f} s",
        f"{one_reader['ingest_s'] / full_result['ingest_s']:.2f}x the time",
        f"in-process ingest {one_reader['ingest_s']:.1f} s (PERFLEDGER_READERS=1)",
    )
    report.add(
        "naive (pandas, DuckDB)",
        f"{naive_rate:,.0f} rows/s",
        f"ingest/naive {rate / naive_rate:.2f}x",
        f"{small.pages} pages; {naive['exact']}/{naive['expected']} values exact",
    )
    for name, seconds in ceiling["timings_s"].items():
        # Every parser's ratio, not only the fastest's: the ingest's own parser is lxml (it
        # keeps each cell's source line), so its parse-only rate is the limit it can near.
        is_best = name == best_name
        report.add(
            f"parse only, {name}{' (ceiling)' if is_best else ''}",
            f"{full.measurements / seconds:,.0f} rows/s, {full.bytes / 1e6 / seconds:.1f} MB/s",
            f"ingest/{'ceiling' if is_best else name} {rate / (full.measurements / seconds):.3f}",
        )
    report.add("load only, DuckDB from Parquet", f"{load['rows'] / load['elapsed_s']:,.0f} rows/s")
    for label, result, wall in (
        (f"re-run, nothing changed (best of {reruns})", unchanged, unchanged_wall),
        (f"re-run, {changed_pages} pages (1%) changed (median of {reruns})", changed, changed_wall),
    ):
        share = result["ingest_s"] / full_result["ingest_s"]
        report.add(
            label,
            f"{result['ingest_s']:.2f} s in process, {wall:.1f} s wall",
            f"{share:.1%} of full run",
            f"{result['documents_new']} new, {result['values_changed']} values changed",
        )
    report.add(
        "peak memory, main process",
        f"{full_memory['peak_rss_mb']:.0f} MB",
        "",
        f"VmHWM; {small.pages} pages: {small_memory['peak_rss_mb']:.0f} MB",
    )
    report.add(
        "peak memory, whole process tree",
        f"{full_memory['tree_peak_mb']:.0f} MB",
        "",
        f"Pss of the main process and its readers summed every "
        f"{TREE_SAMPLE_S * 1000:.0f} ms; {small.pages} pages: "
        f"{small_memory['tree_peak_mb']:.0f} MB; each reader's own peak (VmHWM) "
        f"{full_memory['reader_peak_hwm_mb']:.0f} MB",
    )
    if scale is not None:
        report.add(
            f"peak memory, {scale['pages']} pages ({SCALE_FACTOR}x)",
            f"{scale['peak_rss_mb']:.0f} / {scale['tree_peak_mb']:.0f} MB",
            "",
            f"main process (VmHWM) / whole tree; {scale['values']:,} values in one run",
        )
        report.facts |= {
            "scale_pages": scale["pages"],
            "scale_peak_rss_mb": scale["peak_rss_mb"],
            "scale_tree_peak_mb": scale["tree_peak_mb"],
        }
    report.add(
        "accuracy (cell level)",
        f"{accuracy['exact'] / accuracy['expected']:.2%}",
        "",
        f"{accuracy['exact']:,} of {accuracy['expected']:,} exact, "
        f"{accuracy['unexpected']} unexpected",
    )
    report.facts |= {
        "accuracy": accuracy,
        "naive_rate": naive_rate,
        "ceiling_rate": ceiling_rate,
        "parse_rates": {
            name: full.measurements / seconds for name, seconds in ceiling["timings_s"].items()
        },
        "unchanged_share": unchanged["ingest_s"] / full_result["ingest_s"],
        "changed_share": changed["ingest_s"] / full_result["ingest_s"],
        "peak_rss_mb": full_memory["peak_rss_mb"],
        "tree_peak_mb": full_memory["tree_peak_mb"],
        "reader_peak_hwm_mb": full_memory["reader_peak_hwm_mb"],
    }
    return report


def measure_history(work: Path, runs: int) -> Report:
    log(f"[history] {runs} runs of one edited page")
    result, _ = run_child("history", "--work", str(work), "--runs", str(runs), "--repeats", "5")
    report = Report("history")
    report.add(
        f"history of {result['runs']} runs",
        f"built in {result['build_s']:.0f} s",
        "",
        f"{result['build_s'] / result['runs'] * 1000:.0f} ms per run",
    )
    report.add("query, latest snapshot", f"{result['latest_s'] * 1000:.1f} ms")
    report.add(
        "same query, AT (VERSION => middle)",
        f"{result['as_of_s'] * 1000:.1f} ms",
        f"{result['as_of_s'] / result['latest_s']:.2f}x latest",
    )
    report.add(
        "perfledger sql, latest / --as-of middle",
        f"{result['cli_latest_s'] * 1000:.0f} ms / {result['cli_as_of_s'] * 1000:.0f} ms",
        f"{result['cli_as_of_s'] / result['cli_latest_s']:.2f}x",
    )
    report.add(
        "diff, first to last snapshot",
        f"{result['diff_s'] * 1000:.0f} ms",
        "",
        f"{result['diff_rows']} values differ",
    )
    report.facts = result
    return report


# ---- output ---------------------------------------------------------------------------------


def render(reports: list[Report]) -> str:
    lines = []
    for report in reports:
        width = max(len(row[0]) for row in report.rows)
        value_width = max(len(row[1]) for row in report.rows)
        ratio_width = max(len(row[2]) for row in report.rows)
        lines.append(f"{report.fmt}")
        for what, value, ratio, note in report.rows:
            lines.append(
                f"  {what:<{width}}  {value:<{value_width}}  {ratio:<{ratio_width}}  "
                f"{note}".rstrip()
            )
        lines.append("")
    return "\n".join(lines)


def describe_machine() -> str:
    load = os.getloadavg()[0]
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, load average {load:.1f} at the end, "
        f"Python {platform.python_version()}"
    )


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> list[Report]:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--format", choices=("html", "text", "both"), default="both")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--history-runs", type=int, default=1000)
    parser.add_argument("--reruns", type=int, default=3, help="re-runs of each kind")
    parser.add_argument("--work", type=Path, help="keep the corpora and warehouses here")
    parser.add_argument("--json", type=Path, help="also write the measurements as JSON")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="perfledger-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        formats = ("html", "text") if args.format == "both" else (args.format,)
        reports = [measure_format(work, fmt, args.pages, args.seed, args.reruns) for fmt in formats]
        if args.history_runs:
            reports.append(measure_history(work, args.history_runs))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(render(reports))
    print(f"machine: {describe_machine()}")
    if args.json:
        args.json.write_text(
            json.dumps(
                [{"format": r.fmt, "rows": r.rows, "facts": r.facts} for r in reports], indent=2
            ),
            encoding="utf-8",
        )
    return reports


if __name__ == "__main__":
    main()
