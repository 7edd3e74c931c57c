"""The benchmark runs end to end on a tiny corpus and reads every generated value exactly."""

from __future__ import annotations

from bench import run
from bench.generate import build_page, generate
from bench.vendor_layouts import LAYOUTS_OF_FORMAT


def test_the_benchmark_runs_and_reads_every_value_exactly(tmp_path):
    reports = run.main(
        [
            "--pages",
            "5",
            "--format",
            "both",
            "--history-runs",
            "5",
            "--reruns",
            "1",
            "--work",
            str(tmp_path / "work"),
        ]
    )
    by_format = {report.fmt: report for report in reports}
    for fmt in ("html", "text"):
        accuracy = by_format[fmt].facts["accuracy"]
        assert accuracy["expected"] > 0
        assert accuracy["exact"] == accuracy["expected"], (fmt, accuracy)
        assert accuracy["unexpected"] == 0, (fmt, accuracy)
    assert by_format["history"].facts["runs"] == 5
    assert by_format["text"].facts["scale_pages"] == 5 * run.SCALE_FACTOR
    assert by_format["text"].facts["scale_tree_peak_mb"] > 0


def test_the_small_corpus_holds_every_layout_of_its_format():
    # The accuracy test above reads 5 pages: each layout must be among them to be checked.
    for fmt, layouts in LAYOUTS_OF_FORMAT.items():
        tables = [table for index in range(5) for table in build_page(7, index, fmt).tables]
        found = {table.layout for table in tables}
        assert found == {"tablepress", *layouts}, fmt
        seed_tables = sum(table.layout == "tablepress" for table in tables)
        assert 0.3 < seed_tables / len(tables) < 0.7, (fmt, seed_tables, len(tables))


def test_the_corpus_is_the_same_for_the_same_seed(tmp_path):
    first = generate(3, 11, tmp_path / "a", "html")
    second = generate(3, 11, tmp_path / "b", "html")
    assert first == second
    for page in (tmp_path / "a" / "pages").iterdir():
        assert page.read_bytes() == (tmp_path / "b" / "pages" / page.name).read_bytes()
    assert (tmp_path / "a" / "truth.parquet").read_bytes() == (
        tmp_path / "b" / "truth.parquet"
    ).read_bytes()
