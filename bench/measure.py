"""One measurement in a process of its own, so its imports and peak memory are its own."""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # before any heavy import: the child's own start-up is timed

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402


def read_peak_rss_mb() -> float:
    from flows.budget import peak_resident_mb

    return peak_resident_mb()


def read_worker_peak_rss_mb() -> float:
    """The largest peak of any worker process this one started and has stopped."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def measure_ingest(corpus: Path, warehouse: Path, truth: Path | None) -> dict:
    """`pipeline.ingest([corpus], warehouse)` as `perfledger ingest` runs it, then accuracy."""
    from flows import budget, pipeline, readers

    imported = time.perf_counter()
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
    budget.stop_workers()  # a stopped worker's peak counts in RUSAGE_CHILDREN
    result["worker_peak_rss_mb"] = read_worker_peak_rss_mb()
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
    found = duckdb.connect(str(database), read_only=True).execute(
        "SELECT page, table_index::INTEGER AS table_index, row_number::INTEGER AS row_number, "
        "metric, value FROM measurements").pl()
    expected = pl.read_parquet(truth)
    exact = expected.join(found, on=["page", "table_index", "row_number", "metric"]).filter(
        (pl.col("value") - pl.col("value_right")).abs() <= pl.col("value").abs() * 1e-12)
    return {"elapsed_s": elapsed, "rows": rows, "exact": exact.height,
            "expected": expected.height, "peak_rss_mb": read_peak_rss_mb()}


def measure_parse_ceiling(corpus: Path, fmt: str, repeats: int) -> dict:
    from bench.ceilings import extract_with_lxml, extract_with_selectolax, parse_all, split_text

    pages = sorted(p for p in corpus.iterdir() if p.is_file())
    extractors = ({"lxml": extract_with_lxml, "selectolax": extract_with_selectolax}
                  if fmt == "html" else {"split lines": split_text})
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
    from flows import pipeline
    from warehouse import lake, query

    pages = work / "history-pages"
    warehouse = work / "history-warehouse"
    write_history(pages, runs)
    started = time.perf_counter()
    summary = pipeline.ingest([str(pages)], warehouse, source_name="history")
    built = time.perf_counter() - started
    snapshots = [run.snapshot_id for run in summary.runs]
    middle = snapshots[len(snapshots) // 2]
    sql = ("SELECT metric, count(*) AS n, sum(value) AS total "
           "FROM lake.main.measurement_values{at} WHERE source_id = 'history' GROUP BY metric")
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
    return {"runs": len(snapshots), "build_s": built, "latest_s": latest, "as_of_s": past,
            "data_files": files, "diff_s": statistics.median(diff_runs),
            "diff_rows": len(changes), "cli_latest_s": now, "cli_as_of_s": as_of}


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
    from warehouse import query

    sql = "SELECT metric, count(*), sum(value) FROM measurements GROUP BY metric"
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        query.run_sql(warehouse, sql, as_of)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.measure")
    parser.add_argument("kind", choices=("ingest", "naive", "parse-ceiling", "load-ceiling",
                                         "history"))
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--warehouse", type=Path)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--format", default="html")
    parser.add_argument("--work", type=Path)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if args.kind == "ingest":
        result = measure_ingest(args.corpus, args.warehouse, args.truth)
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
