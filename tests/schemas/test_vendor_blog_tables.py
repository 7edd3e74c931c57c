"""Tables of a GPU vendor's technical blog post (ROCm/rocm-blogs, blogs/artificial-intelligence/
glm52-mxfp4-mi355/README.md): a configuration switched on or off heading a column, a minus sign
written as such, and scores measured with their spread; quoted from the post's own cells."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

CP_SWEEP = """# Serving GLM-5.2-MXFP4 on AMD Instinct™ MI355X: When Prefill Context Parallelism Pays

Full CP on/off sweep at concurrency 4–48 on the same node and build (`sglang-oai`, `--random-range-ratio 1.0`):

| 1024 in / 512 out, total tok/s per GPU | CP off | CP on | CP on vs off |
| :--- | :---: | :---: | :---: |
| Concurrency 4 | 429.2 | 350.6 | −18.3% |
| Concurrency 8 | 685.7 | 621.0 | −9.4% |
"""


def test_a_column_headed_by_a_setting_switched_on_holds_results():
    document = normalized(CP_SWEEP)
    rows = document.measurements.sort("row_number", "column_index")
    assert rows.select("row_label", "column_name", "value", "metric", "unit").rows() == [
        ("Concurrency 4", "CP off", 429.2, "throughput", "items/s"),
        ("Concurrency 4", "CP on", 350.6, "throughput", "items/s"),
        ("Concurrency 4", "CP on vs off", -18.3, "other", "%"),
        ("Concurrency 8", "CP off", 685.7, "throughput", "items/s"),
        ("Concurrency 8", "CP on", 621.0, "throughput", "items/s"),
        ("Concurrency 8", "CP on vs off", -9.4, "other", "%"),
    ]
    assert document.quarantine.height == 0


GSM8K_BOTH_ARMS = """## Accuracy

A throughput result means nothing if the split moves the answers. GSM8K 10-shot over 1319 questions on both arms, same machine and build:

| `tp=4`, GSM8K 10-shot, 1319 questions | strict-match | flexible-extract |
| :--- | :---: | :---: |
| Context-parallel off | 0.9310 ±0.0070 | 0.9310 ±0.0070 |
| Context-parallel on | 0.9477 ±0.0061 | 0.9477 ±0.0061 |
"""


def test_figures_measured_with_their_spread_are_results_not_a_list_of_settings():
    # Two rows named by settings over two columns: without the spreads, the shape of a table
    # listing a run's settings; the figures had been lost without a trace.
    rows = normalized(GSM8K_BOTH_ARMS).measurements.sort("row_number", "column_index")
    assert rows.select("row_label", "column_name", "value", "spread", "metric").rows() == [
        ("Context-parallel off", "strict-match", 0.931, 0.007, "accuracy"),
        ("Context-parallel off", "flexible-extract", 0.931, 0.007, "accuracy"),
        ("Context-parallel on", "strict-match", 0.9477, 0.0061, "accuracy"),
        ("Context-parallel on", "flexible-extract", 0.9477, 0.0061, "accuracy"),
    ]
