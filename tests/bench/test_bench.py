"""The benchmark runs end to end on a tiny corpus and reads every generated value exactly."""

from __future__ import annotations

from bench import run
from bench.generate import generate


def test_the_benchmark_runs_and_reads_every_value_exactly(tmp_path):
    reports = run.main(["--pages", "5", "--format", "both", "--history-runs", "5",
                        "--reruns", "1", "--work", str(tmp_path / "work")])
    by_format = {report.fmt: report for report in reports}
    for fmt in ("html", "text"):
        accuracy = by_format[fmt].facts["accuracy"]
        assert accuracy["expected"] > 0
        assert accuracy["exact"] == accuracy["expected"], (fmt, accuracy)
        assert accuracy["unexpected"] == 0, (fmt, accuracy)
    assert by_format["history"].facts["runs"] == 5
    assert by_format["text"].facts["scale_pages"] == 5 * run.SCALE_FACTOR
    assert by_format["text"].facts["scale_tree_peak_mb"] > 0


def test_the_corpus_is_the_same_for_the_same_seed(tmp_path):
    first = generate(3, 11, tmp_path / "a", "html")
    second = generate(3, 11, tmp_path / "b", "html")
    assert first == second
    for page in (tmp_path / "a" / "pages").iterdir():
        assert page.read_bytes() == (tmp_path / "b" / "pages" / page.name).read_bytes()
    assert (tmp_path / "a" / "truth.parquet").read_bytes() == (
        tmp_path / "b" / "truth.parquet").read_bytes()
