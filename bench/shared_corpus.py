"""`perfledger ingest` against the naive pipeline on the independent corpus of ../shared.

`../shared/bench-corpus/gen_corpus.py` was written apart from this project: four vendors'
layouts (Graphcore, Habana, SambaNova, Cerebras) with prose, boilerplate, footnote marks,
short and unclosed rows, and the truth of every results row. It is generated into a
temporary folder (never into the repository), then each command is timed as a whole
process, as a user runs it: `perfledger ingest` and the naive pipeline (`python -m
bench.naive`: pandas.read_html, pandas clean-up, DuckDB), in turns on the same pages, on all
of them and on the first fifth. The machine is shared, so what counts is the ratio of the
two commands' times in the same round, repeated; the steady-state rate of each is its extra
values over its extra wall time between the two sizes (start-up is what remains). The
values the ingest loaded are then compared with the truth: recall over the truth's values
(throughput, latency, time to train), precision over every value loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

PROJECT_ROOT = Path(__file__).resolve().parents[1]
GENERATOR = PROJECT_ROOT.parent / "shared" / "bench-corpus" / "gen_corpus.py"
SMALL_SHARE = 5  # the small run reads the first fifth of the pages
# The truth's value columns, the metric perfledger stores each under and the factor from the
# truth's unit to perfledger's canonical one (time to train: minutes to seconds).
TRUTH_VALUES = {
    "throughput": ("throughput", 1.0),
    "latency_ms": ("latency", 1.0),
    "time_to_train_min": ("time_to_train", 60.0),
}
DIGITS = 3  # values are compared rounded: published with two decimals at most


@dataclass
class Corpus:
    folder: Path  # the generator's output: pages, truth.parquet, manifest.json
    pages: Path  # every page
    small_pages: Path  # the first fifth of them
    truth: pl.DataFrame

    def values(self, pages: Path) -> int:
        """The truth's values on the pages of folder `pages`."""
        names = [path.stem for path in pages.iterdir()]
        return truth_values(self.truth.filter(pl.col("doc_id").is_in(names))).height


@dataclass
class Timing:
    wall_s: float
    cpu_s: float  # user + system, the process and every process it waited for


@dataclass
class Round:
    """One round: each command on the small and the full set of pages."""

    ingest: dict[str, Timing] = field(default_factory=dict)  # "small" / "full" -> timing
    naive: dict[str, Timing] = field(default_factory=dict)


# ---- the corpus -------------------------------------------------------------------------------


def generate(
    folder: Path, docs: int, rows_per_table: int, seed: int, generator: Path = GENERATOR
) -> Corpus:
    """The generator's pages and truth in `folder`; the pages linked into two folders of
    their own (all, the first fifth), since the generator writes its truth beside them."""
    if not generator.is_file():
        raise FileNotFoundError(
            f"{generator} not found: the corpus generator lives in ../shared/bench-corpus"
        )
    out = folder / "generated"
    subprocess.run(
        [
            sys.executable,
            str(generator),
            "--docs",
            str(docs),
            "--rows-per-table",
            str(rows_per_table),
            "--format",
            "html",
            "--seed",
            str(seed),
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    pages = sorted(out.glob("doc_*.html"))
    corpus = Corpus(
        out, folder / "pages", folder / "pages-small", pl.read_parquet(out / "truth.parquet")
    )
    for target, chosen in (
        (corpus.pages, pages),
        (corpus.small_pages, pages[: max(1, len(pages) // SMALL_SHARE)]),
    ):
        target.mkdir(parents=True, exist_ok=True)
        for path in chosen:
            os.link(path, target / path.name)
    return corpus


def truth_values(truth: pl.DataFrame) -> pl.DataFrame:
    """(page, metric, value) of every value of the truth, in perfledger's units."""
    parts = [
        truth.filter(pl.col(column).is_not_null()).select(
            pl.col("doc_id").alias("page"),
            pl.lit(metric).alias("metric"),
            (pl.col(column).cast(pl.Float64) * factor).round(DIGITS).alias("value"),
        )
        for column, (metric, factor) in TRUTH_VALUES.items()
    ]
    return pl.concat(parts)


def truth_figures(truth: pl.DataFrame) -> pl.DataFrame:
    """(page, metric, value) of the figures the truth keeps as text: an evaluation score
    with its name ("0.0719 MAE") and a ranking written as a word ("First")."""
    places = {"First": 1.0, "Second": 2.0, "Third": 3.0}
    scores = truth.filter(pl.col("eval_metric").is_not_null()).select(
        pl.col("doc_id").alias("page"),
        pl.lit("eval_metric").alias("metric"),
        pl.col("eval_metric")
        .str.extract(r"^([\d.]+)")
        .cast(pl.Float64)
        .round(DIGITS)
        .alias("value"),
    )
    ranks = truth.filter(pl.col("ranking").is_in(list(places))).select(
        pl.col("doc_id").alias("page"),
        pl.lit("ranking").alias("metric"),
        pl.col("ranking").replace_strict(places, return_dtype=pl.Float64).alias("value"),
    )
    return pl.concat([scores, ranks])


# ---- timing whole processes -------------------------------------------------------------------


def timed(command: list[str]) -> Timing:
    """Wall and CPU time of `command` run to its end; its output is read and dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=PROJECT_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def ingest_command(pages: Path, warehouse: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "perfledger",
        "ingest",
        "--quiet",
        "--warehouse",
        str(warehouse),
        str(pages),
    ]


def naive_command(pages: Path, database: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "bench.naive",
        "--pages",
        str(pages),
        "--database",
        str(database),
        "--format",
        "html",
    ]


def run_round(corpus: Corpus, work: Path) -> Round:
    """Each command on the small pages, then on all of them, in turns: a drift of the
    machine's speed touches both commands of a pair alike."""
    measured = Round()
    for size, pages in (("small", corpus.small_pages), ("full", corpus.pages)):
        warehouse, database = work / f"warehouse-{size}", work / f"naive-{size}.duckdb"
        shutil.rmtree(warehouse, ignore_errors=True)
        database.unlink(missing_ok=True)
        measured.ingest[size] = timed(ingest_command(pages, warehouse))
        measured.naive[size] = timed(naive_command(pages, database))
    return measured


# ---- accuracy ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Accuracy:
    expected: int  # the truth's values
    matched: int  # of them, loaded with their page, metric and value
    loaded: int  # every value loaded
    loaded_matched: int  # of them, a value of the truth (text figures included)

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        return self.loaded_matched / self.loaded if self.loaded else 1.0


def compare(truth: pl.DataFrame, found: pl.DataFrame) -> Accuracy:
    """Values matched by page, metric and value, each as often as the truth holds it."""
    expected = truth_values(truth)
    everything = pl.concat([expected, truth_figures(truth)])
    key = ["page", "metric", "value"]
    found = found.select(key).with_columns(pl.col("value").round(DIGITS))

    def matched(reference: pl.DataFrame) -> int:
        counts = (
            reference.group_by(key)
            .len("wanted")
            .join(found.group_by(key).len("got"), on=key, how="inner")
        )
        return int(counts.select(pl.min_horizontal("wanted", "got").sum()).item() or 0)

    return Accuracy(expected.height, matched(expected), found.height, matched(everything))


def ingested_values(warehouse: Path) -> pl.DataFrame:
    from perfledger.warehouse import lake

    connection = lake.connect(warehouse, read_only=True)
    try:
        return connection.execute(
            r"""SELECT regexp_extract(source_url, '([^/]+)\.html$', 1) AS page, metric, value
                FROM measurements"""
        ).pl()
    finally:
        connection.close()


def naive_values(database: Path) -> pl.DataFrame:
    """The naive pipeline's values in perfledger's units (it keeps durations in seconds
    and latencies in milliseconds, as perfledger does)."""
    import duckdb

    connection = duckdb.connect(str(database), read_only=True)
    try:
        return connection.execute(
            "SELECT page, metric, value FROM measurements WHERE value IS NOT NULL"
        ).pl()
    finally:
        connection.close()


# ---- the report -------------------------------------------------------------------------------


@dataclass
class Report:
    docs: int
    values: int
    small_values: int
    rounds: list[Round]
    ingest_accuracy: Accuracy
    naive_accuracy: Accuracy
    load_average: tuple[float, float]  # before and after

    def end_to_end_ratios(self) -> list[float]:
        return [r.naive["full"].wall_s / r.ingest["full"].wall_s for r in self.rounds]

    def steady_rates(self, which: str) -> list[float]:
        extra = self.values - self.small_values
        return [
            extra / (getattr(r, which)["full"].wall_s - getattr(r, which)["small"].wall_s)
            for r in self.rounds
        ]

    def steady_ratios(self) -> list[float]:
        return [
            ingest / naive
            for ingest, naive in zip(
                self.steady_rates("ingest"), self.steady_rates("naive"), strict=True
            )
        ]

    def facts(self) -> dict:
        return {
            "docs": self.docs,
            "values": self.values,
            "small_values": self.small_values,
            "end_to_end_ratios": self.end_to_end_ratios(),
            "steady_ratios": self.steady_ratios(),
            "ingest_steady_rates": self.steady_rates("ingest"),
            "naive_steady_rates": self.steady_rates("naive"),
            "rounds": [
                {
                    name: {size: timing.__dict__ for size, timing in getattr(r, name).items()}
                    for name in ("ingest", "naive")
                }
                for r in self.rounds
            ],
            "ingest_accuracy": self.ingest_accuracy.__dict__
            | {"recall": self.ingest_accuracy.recall, "precision": self.ingest_accuracy.precision},
            "naive_accuracy": self.naive_accuracy.__dict__
            | {"recall": self.naive_accuracy.recall, "precision": self.naive_accuracy.precision},
            "load_average": self.load_average,
        }


def spread(figures: list[float], unit: str = "x", digits: int = 2) -> str:
    """'median (min-max)' of a round's figures."""
    median = statistics.median(figures)
    if len(figures) == 1:
        return f"{median:,.{digits}f}{unit}"
    return f"{median:,.{digits}f}{unit} ({min(figures):,.{digits}f}-{max(figures):,.{digits}f})"


def render(report: Report) -> str:
    full = [r.ingest["full"] for r in report.rounds]
    naive = [r.naive["full"] for r in report.rounds]
    small = max(1, report.docs // SMALL_SHARE)
    ingest_accuracy, naive_accuracy = report.ingest_accuracy, report.naive_accuracy
    rows = [
        ("corpus", f"{report.docs} pages of ../shared/bench-corpus, {report.values:,} values"),
        (
            "ingest / naive, steady state",
            spread(report.steady_ratios()) + f", {len(report.rounds)} rounds",
        ),
        ("ingest / naive, end to end", spread(report.end_to_end_ratios())),
        ("ingest, steady state", spread(report.steady_rates("ingest"), " values/s", 0)),
        ("naive, steady state", spread(report.steady_rates("naive"), " values/s", 0)),
        (
            f"ingest of {report.docs} pages, wall / CPU",
            f"{spread([t.wall_s for t in full], ' s', 1)} / {spread([t.cpu_s for t in full], ' s', 1)}",
        ),
        (
            f"naive of {report.docs} pages, wall / CPU",
            f"{spread([t.wall_s for t in naive], ' s', 1)} / "
            f"{spread([t.cpu_s for t in naive], ' s', 1)}",
        ),
        (
            f"ingest of {small} pages, wall",
            spread([r.ingest["small"].wall_s for r in report.rounds], " s", 1),
        ),
        (
            "ingest, recall",
            f"{ingest_accuracy.recall:.5f} ({ingest_accuracy.matched:,} of "
            f"{ingest_accuracy.expected:,} values)",
        ),
        (
            "ingest, precision",
            f"{ingest_accuracy.precision:.5f} "
            f"({ingest_accuracy.loaded_matched:,} of "
            f"{ingest_accuracy.loaded:,} values loaded)",
        ),
        (
            "naive, recall / precision",
            f"{naive_accuracy.recall:.4f} / {naive_accuracy.precision:.4f}",
        ),
        (
            "load average, start / end",
            f"{report.load_average[0]:.1f} / "
            f"{report.load_average[1]:.1f} "
            f"({os.cpu_count()} cores, Python "
            f"{platform.python_version()})",
        ),
    ]
    width = max(len(what) for what, _ in rows)
    return "\n".join(f"  {what:<{width}}  {value}" for what, value in rows)


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> Report:
    parser = argparse.ArgumentParser(
        prog="python -m bench.shared_corpus", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--docs", type=int, default=400)
    parser.add_argument("--rows-per-table", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the four runs")
    parser.add_argument("--generator", type=Path, default=GENERATOR)
    parser.add_argument("--work", type=Path, help="keep the corpus and warehouses here")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="perfledger-shared-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        log(f"generating {args.docs} pages with {args.generator}")
        corpus = generate(
            work / "corpus", args.docs, args.rows_per_table, args.seed, args.generator
        )
        load_before = os.getloadavg()[0]
        rounds = []
        for number in range(1, args.rounds + 1):
            log(f"round {number} of {args.rounds}: ingest and naive, small and full")
            rounds.append(run_round(corpus, work))
        load_after = os.getloadavg()[0]
        report = Report(
            args.docs,
            corpus.values(corpus.pages),
            corpus.values(corpus.small_pages),
            rounds,
            compare(corpus.truth, ingested_values(work / "warehouse-full")),
            compare(corpus.truth, naive_values(work / "naive-full.duckdb")),
            (load_before, load_after),
        )
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(render(report))
    if args.json:
        args.json.write_text(json.dumps(report.facts(), indent=2), encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
