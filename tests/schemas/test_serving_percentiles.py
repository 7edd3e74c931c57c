"""Latency percentiles an LLM-serving benchmark reports besides p50 and p90-p99: the 25th
and 75th ("75%(s)", "P75 TTFT"), and "ave" as the mean ("FTL(ave)(s)")."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As InternLM/lmdeploy's docs/en/benchmark/a100_fp16.md reports its request throughput runs
# (its "FP16" table: the first row and some of its columns)
LMDEPLOY_A100 = """## Request Throughput Benchmark

- `FTL`: **F**irst **T**oken **L**atency

### FP16

| model        | batch | tp  | RPS    | FTL(ave)(s) | FTL(min)(s) | 50%(s) | 75%(s) | 95%(s) |
| ------------ | ----- | --- | ------ | ----------- | ----------- | ------ | ------ | ------ |
| llama2-7b    | 256   | 1   | 14.556 | 0.526       | 0.092       | 0.066  | 0.101  | 0.155  |
"""


def test_the_75th_percentile_and_the_ave_mean_are_statistics():
    document = normalized(LMDEPLOY_A100)
    found = {
        row["raw_value"]: (row["metric"], row["value"], row["unit"], row["statistic"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["0.101"] == ("latency", 101.0, "ms", "p75")
    assert found["0.526"] == ("latency", 526.0, "ms", "mean")
    assert found["0.066"] == ("latency", 66.0, "ms", "p50")
    assert found["0.092"] == ("latency", 92.0, "ms", "min")
