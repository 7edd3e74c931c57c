"""Columns whose header names the standard deviation beside the mean ("Latency ms (average,
std)", "Time (mean ± std)"), as latency tables of edge boards and model zoos write them: each
cell is the mean, the figure after it, in brackets or after "±", its spread."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header, statistic_of
from tests.schemas.page_reading import fields_by_raw_value, normalized

# The layout of a board's latency table: the mean with its standard deviation in brackets,
# and a column of frames per second beside it.
PAIRED_LATENCIES = """# Inference latency on Jetson Orin

Latency is measured over 100 runs after 10 warm-up runs.

| Model | Latency ms (average, std) | Throughput FPS |
|---|---|---|
| YOLOv8n | 12.4 (0.8) | 80.6 |
| YOLOv8s | 20.1 (1.2) | 49.7 |
| ResNet-50 | 8.3 ± 0.2 | 120.5 |
"""


def test_a_header_naming_the_std_beside_the_mean_reads_as_the_mean():
    reading = read_header("Latency ms (average, std)")
    assert (reading.role, reading.statistic, reading.spread_named) == ("latency", "mean", True)
    assert read_header("Time (mean ± std)").statistic == "mean"
    assert statistic_of("median (std)") == "p50"
    # either alone is what it names
    assert read_header("Latency std (ms)").statistic == "std"
    assert read_header("Latency std (ms)").spread_named is False
    assert read_header("Average latency (ms)").statistic == "mean"


def test_the_bracketed_figure_under_such_a_header_is_the_spread_of_the_mean():
    found = fields_by_raw_value(PAIRED_LATENCIES, "metric", "value", "unit", "spread", "statistic")
    assert found["12.4 (0.8)"] == ("latency", 12.4, "ms", 0.8, "mean")
    assert found["20.1 (1.2)"] == ("latency", 20.1, "ms", 1.2, "mean")
    assert found["8.3 ± 0.2"] == ("latency", 8.3, "ms", 0.2, "mean")
    assert found["80.6"][:3] == ("throughput", 80.6, "items/s")
    assert found["80.6"][3:] == (None, None)  # the next column names no statistic


def test_a_bracketed_figure_elsewhere_stays_a_remark_of_its_value():
    # Without the standard deviation in the header, "(3)" may be a rank or a count of runs.
    page = PAIRED_LATENCIES.replace("Latency ms (average, std)", "Latency ms")
    measurements = normalized(page).measurements
    row = measurements.filter(measurements["raw_value"] == "12.4 (0.8)").row(0, named=True)
    assert (row["value"], row["spread"], row["qualifier"]) == (12.4, None, "0.8")
