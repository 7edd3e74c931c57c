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


ANCHOR_POINTS = """# Serving GLM-5.2-MXFP4 on AMD Instinct™ MI355X: When Prefill Context Parallelism Pays

| Input length | Client concurrency | CP | Total tok/s per GPU | Median E2E (s) | Interactivity (tok/s/user) |
| :---: | :---: | :--- | :---: | :---: | :---: |
| 1024 | 4 | off → on | 429.2 → 350.6 | 3.14 → 3.69 | 163.0 → 138.8 |
| 40,960 | 16 | off → on | 3825.1 → 5473.2 | 42.68 → 30.05 | 12.0 → 17.0 |
"""


def test_a_change_written_with_an_arrow_takes_its_ends_from_the_rows_label():
    document = normalized(ANCHOR_POINTS)
    rows = document.measurements.filter(
        document.measurements["column_name"] == "Total tok/s per GPU"
    ).sort("row_number", "value")
    assert rows.select("raw_value", "value", "qualifier", "metric").rows() == [
        ("429.2 → 350.6", 350.6, "on", "throughput"),
        ("429.2 → 350.6", 429.2, "off", "throughput"),
        ("3825.1 → 5473.2", 3825.1, "off", "throughput"),
        ("3825.1 → 5473.2", 5473.2, "on", "throughput"),
    ]
    e2e = document.measurements.filter(document.measurements["column_name"] == "Median E2E (s)")
    assert sorted(e2e.select("value", "qualifier").rows()) == [
        (3140.0, "off"),
        (3690.0, "on"),
        (30050.0, "on"),
        (42680.0, "off"),
    ]
    assert document.quarantine.height == 0
