"""A column counting the runs or points a figure summarizes ("Points", "Runs", "Trials") is a
setting of the figure, not a result of the metric its table measures; a range written with
its unit at both ends ("1.382x to 2.113x") is a range, no value of an unknown unit."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As EricLBuehler/mistral.rs' releases/v0.8.2/report.md opens its benchmark results: mean
# speedups, each over the points of its sweep.
MISTRALRS_RESULTS = """# mistral.rs v0.8.2 Report

## Benchmark Results

The release figures cover Gemma 4 E4B on GB10 and B200. Values are tokens per second, and \
speedups are mistral.rs divided by the comparison engine at the same length or decode depth.

| Mode | Hardware | mistral.rs Q8 speedup range vs llama.cpp |
|---|---|---:|
| Prefill | GB10 | 1.382x to 2.113x |
| Decode | GB10 | 1.086x to 1.097x |
| Prefill | B200 | 1.246x to 2.793x |
| Decode | B200 | 1.210x to 1.263x |

| Mode | Hardware | Mean speedup vs llama.cpp | Points |
|---|---|---:|---:|
| Decode | B200 | 1.242x | 6 |
| Prefill | B200 | 2.194x | 6 |
| Decode | GB10 | 1.090x | 6 |
| Prefill | GB10 | 1.828x | 6 |
"""


def test_a_count_of_points_beside_a_mean_is_no_result():
    found = fields_by_raw_value(MISTRALRS_RESULTS, "column_name", "metric", "value", "accelerator")
    assert "6" not in found
    assert found["1.242x"] == ("Mean speedup vs llama.cpp", "speedup", 1.242, "B200")
    assert found["1.828x"] == ("Mean speedup vs llama.cpp", "speedup", 1.828, "GB10")


def test_counts_of_runs_read_as_settings():
    for header in ("Points", "Runs", "# runs", "Number of runs", "Trials", "Repeats"):
        assert (read_header(header).kind, read_header(header).role) == ("config", "setting")


def test_a_range_with_the_unit_at_both_ends_is_quarantined_as_a_range():
    document = normalized(MISTRALRS_RESULTS)
    reasons = dict(document.quarantine.select("raw_value", "check").iter_rows())
    assert reasons["1.382x to 2.113x"] == "range_value"
    assert reasons["1.210x to 1.263x"] == "range_value"
