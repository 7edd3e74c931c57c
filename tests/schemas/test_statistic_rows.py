"""Rows named by a statistic alone ("mean", "p50", "p99") hold that statistic of the figures
beside them, as a header naming it would; a lone "AVERAGE" row under rows of tasks is a
figure across them, not a statistic of each row's runs."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As optimum-benchmark writes its report (benchmark_report.md of a Llama 70B run with
# torch.compile, huggingface-quantization-benchmarking-code): the prefill's latency, a row
# per statistic of its ten runs.
OPTIMUM_BENCHMARK_LATENCY = """# prefill:

## latency:

| metric | value        | unit   |
| :----- | -----------: |------: |
| count  |      10 |      - |
| total  |    1.315978 | s |
| mean   |     0.131598 | s |
| p50    |      0.131605 | s |
| p90    |      0.131734 | s |
| p95    |      0.131740 | s |
| p99    |      0.131745 | s |
| stdev  |    0.000104 | s |
"""

# As Microsoft's BitNet docs list embedding scores (docs/bitnet-embeddings-i2s-guide.md): a
# row per task, then their average.
BITNET_EMBEDDING_SCORES = """#### Accuracy Results

**bitnet-embeddings-0.6B:**

| Task | Safetensors | F16.gguf | I2_S.gguf |
|------|-------------|----------|-----------|
| SICK-R | 0.8218 | 0.8218 | 0.8216 |
| STS17 | 0.8482 | 0.8482 | 0.8481 |
| STSBenchmark | 0.8606 | 0.8606 | 0.8603 |
| **AVERAGE** | **0.7188** | **0.7212** | **0.7180** |
"""

# A serving benchmark's table as LLM-serving pages print it: a column per latency, a row per
# statistic (the rows of vLLM's "Serving Benchmark Result", laid out as a table).
SERVING_STATISTICS = """## Llama 3 8B on 1x H100

| Statistic | TTFT (ms) | ITL (ms) |
|---|---|---|
| Mean | 21.5 | 6.2 |
| Median | 19.8 | 6.0 |
| P99 | 55.2 | 9.7 |
"""


def test_rows_named_by_a_statistic_give_it_to_their_figures():
    statistics = fields_by_raw_value(OPTIMUM_BENCHMARK_LATENCY, "row_label", "statistic")
    assert statistics["0.131598"] == ("mean", "mean")
    assert statistics["0.131605"] == ("p50", "p50")
    assert statistics["0.131734"] == ("p90", "p90")
    assert statistics["0.131745"] == ("p99", "p99")
    assert statistics["0.000104"] == ("stdev", "std")
    # the runs' count and their total time are no statistic of one run
    assert statistics["1.315978"] == ("total", None)


def test_a_statistic_row_beside_columns_of_metrics():
    values = _by_row_and_column(SERVING_STATISTICS)
    assert values[("Mean", "TTFT (ms)")] == ("latency", "mean", 21.5)
    assert values[("Median", "ITL (ms)")] == ("latency", "p50", 6.0)
    assert values[("P99", "TTFT (ms)")] == ("latency", "p99", 55.2)


def test_a_lone_average_row_under_rows_of_tasks_is_no_statistic():
    scores = fields_by_raw_value(BITNET_EMBEDDING_SCORES, "row_label", "statistic", "value")
    assert scores["0.7180"] == ("AVERAGE", None, 0.718)
    assert scores["0.8603"] == ("STSBenchmark", None, 0.8603)


def test_a_footnote_mark_on_a_statistic_row_names_the_same_statistic():
    marked = SERVING_STATISTICS.replace("| Mean |", "| Mean [1] |").replace("| P99 |", "| P99† |")
    values = _by_row_and_column(marked)
    assert values[("Mean [1]", "TTFT (ms)")] == ("latency", "mean", 21.5)
    assert values[("P99†", "ITL (ms)")] == ("latency", "p99", 9.7)
    assert values[("Median", "ITL (ms)")] == ("latency", "p50", 6.0)


def _by_row_and_column(page: str) -> dict[tuple[str, str], tuple]:
    """(metric, statistic, value) of each value the page loads, by its row and column."""
    return {
        (row["row_label"], row["column_name"]): (row["metric"], row["statistic"], row["value"])
        for row in normalized(page).measurements.iter_rows(named=True)
    }
