"""A cell of figures parted by "/" with one unit after the last ("45.40 / 74.76 ms") under a
header naming as many parts ("FFPA / SDPA") holds one figure of each part, all in that
unit, as "162/112" under "ARM CPU/RKNN speed(ms)" already did; and figures each with the
letter the header's unit starts with ("97T / 59T" under "TFLOPS") are in that unit."""

from __future__ import annotations

from perfledger.schemas.header_part_figures import _named_figures
from tests.schemas.page_reading import normalized

# As xlite-dev/ffpa-attn's bench/README.md compares its attention kernel with PyTorch's
# SDPA: both latencies in one cell.
FFPA_FORWARD = """# FFPA Attention Benchmark

## Benchmark

### Forward Pass (Triton, NVIDIA L20, 8K, D=512)

| Case | dtype | Nq/Nkv | FFPA / SDPA | TFLOPS | speedup |
|:---:|:---:|:---:|:---:|:---:|:---:|
| self-attn | fp16 | 8192/8192 | 45.40 / 74.76 ms | 97T / 59T | 1.65x |
| cross-attn | fp16 | 1024/8192 | 6.31 / 10.05 ms | 87T / 55T | 1.59x |
"""


def test_each_part_of_the_header_names_one_figure_of_the_shared_unit():
    measurements = normalized(FFPA_FORWARD).measurements
    rows = measurements.filter(measurements["column_name"] == "FFPA / SDPA")
    found = sorted(
        (row["raw_value"], row["qualifier"], row["metric"], row["value"], row["unit"])
        for row in rows.iter_rows(named=True)
    )
    assert found == [
        ("45.40 / 74.76 ms", "FFPA", "latency", 45.4, "ms"),
        ("45.40 / 74.76 ms", "SDPA", "latency", 74.76, "ms"),
        ("6.31 / 10.05 ms", "FFPA", "latency", 6.31, "ms"),
        ("6.31 / 10.05 ms", "SDPA", "latency", 10.05, "ms"),
    ]


def test_a_capacity_under_a_header_of_no_parts_stays_one_value():
    assert _named_figures("76/80 GiB", "Memory (GiB)") is None
    assert _named_figures("45.40 / 74.76 ms", "FFPA / SDPA") == "45.40 ms (FFPA), 74.76 ms (SDPA)"


def test_figures_with_the_letter_of_the_headers_unit_are_in_that_unit():
    measurements = normalized(FFPA_FORWARD).measurements
    rows = measurements.filter(measurements["column_name"] == "TFLOPS")
    found = sorted(
        (row["raw_value"], row["qualifier"], row["metric"], row["value"], row["unit"])
        for row in rows.iter_rows(named=True)
    )
    assert found == [
        ("87T / 55T", "1/2", "other", 87.0, "TFLOP/s"),
        ("87T / 55T", "2/2", "other", 55.0, "TFLOP/s"),
        ("97T / 59T", "1/2", "other", 97.0, "TFLOP/s"),
        ("97T / 59T", "2/2", "other", 59.0, "TFLOP/s"),
    ]
