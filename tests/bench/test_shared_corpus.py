"""The shared corpus's benchmark runs end to end on a few pages and loads every value of its
truth; its comparison counts a value as often as the truth holds it."""

from __future__ import annotations

import polars as pl
import pytest

from bench import shared_corpus


@pytest.mark.slow  # it starts `perfledger ingest` and the naive pipeline 4 times
def test_the_benchmark_runs_and_loads_every_value_of_the_truth(tmp_path):
    if not shared_corpus.GENERATOR.is_file():
        pytest.skip(f"{shared_corpus.GENERATOR} is not here")
    report = shared_corpus.main(
        ["--docs", "6", "--rows-per-table", "12", "--rounds", "1", "--work", str(tmp_path / "work")]
    )
    assert report.values > 100
    assert report.small_values < report.values
    accuracy = report.ingest_accuracy
    assert accuracy.expected == report.values
    assert accuracy.matched == accuracy.expected, accuracy
    assert report.naive_accuracy.expected == report.values
    (timing,) = [round_.ingest["full"] for round_ in report.rounds]
    assert timing.wall_s > 0 and timing.cpu_s > 0
    assert len(report.steady_ratios()) == 1
    # The pages stay in the temporary folder, outside the repository.
    assert not list(shared_corpus.PROJECT_ROOT.glob("doc_*.html"))


def test_a_value_matches_as_often_as_the_truth_holds_it():
    truth = pl.DataFrame(
        {
            "doc_id": ["doc_000001", "doc_000001", "doc_000002"],
            "throughput": [1200.0, 1200.0, None],
            "latency_ms": [None, 2.5, 18.77],
            "time_to_train_min": [19.64, None, None],
            "eval_metric": [None, None, "0.0719 MAE"],
            "ranking": ["First", None, None],
        }
    )
    found = pl.DataFrame(
        {
            "page": ["doc_000001"] * 5 + ["doc_000002"] * 3,
            "metric": [
                "throughput",
                "throughput",
                "throughput",
                "latency",
                "time_to_train",
                "latency",
                "eval_metric",
                "latency",
            ],
            # 19.64 minutes stored as 1178.4 s, to float64 rounding
            "value": [1200.0, 1200.0, 1200.0, 2.5, 19.64 * 60, 18.77, 0.0719, 30.0],
        }
    )
    accuracy = shared_corpus.compare(truth, found)
    assert (accuracy.expected, accuracy.matched) == (5, 5)
    # a third 1,200 and a latency of 30 ms the truth does not hold; the score is its own
    assert (accuracy.loaded, accuracy.loaded_matched) == (8, 6)
