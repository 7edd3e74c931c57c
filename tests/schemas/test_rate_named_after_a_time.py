"""A header stating a rate beside the name of a time ("prefill tok/s (TTFT)": the prompt's
tokens per second, taken over the time to the first token) measures a throughput: its numbers
are rates, whichever time they were taken over."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import normalized

# As clocksmith/doppler's docs/perf-investigations/gemma-4-int4ple-loop.md gives its
# headline numbers, one a row.
HEADLINE = """# Gemma 4 E2B INT4 PLE loop

### Headline numbers (most recent existing bench)

| Metric                | Value          |
|-----------------------|---------------:|
| decode tok/s          | 10.60          |
| prefill tok/s         | 80.00          |
| prefill tok/s (TTFT)  | 79.53          |
| TTFT                  | 792 ms         |
"""


def test_a_rate_taken_over_the_time_to_first_token_is_a_throughput():
    read = normalized(HEADLINE)
    assert read.quarantine.height == 0
    found = sorted(
        (row["row_label"], row["metric"], row["value"], row["unit"])
        for row in read.measurements.iter_rows(named=True)
    )
    assert found == [
        ("TTFT", "latency", 792.0, "ms"),
        ("decode tok/s", "throughput", 10.6, "items/s"),
        ("prefill tok/s", "throughput", 80.0, "items/s"),
        ("prefill tok/s (TTFT)", "throughput", 79.53, "items/s"),
    ]


def test_a_time_stays_a_latency_and_a_rate_under_a_times_name_is_a_throughput():
    assert read_header("TTFT (ms)").role == "latency"
    assert read_header("Time to first token (tokens/s)").role == "throughput"
