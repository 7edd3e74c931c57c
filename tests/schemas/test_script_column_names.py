"""Columns and summaries that benchmark scripts print under their own identifiers: a unit
joined to the name with "_" ("first_run_memory_MB", "latency_ms")."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import normalized

# As ONNX Runtime's Stable Diffusion README pastes its benchmark script's results: the peak
# GPU memory of the first and second runs, in MB as their names end.
STABLE_DIFFUSION = """#### Results of V100 (in Ubuntu 20.04)

| engine      | version                 | provider              | batch_size | average_latency | median_latency | first_run_memory_MB | second_run_memory_MB |
| ----------- | ----------------------- | --------------------- | ---------- | --------------- | -------------- | ------------------- | -------------------- |
| onnxruntime | 1.14.0                  | CUDAExecutionProvider | 1          | 2.7             | 2.7            | 6,636               | 7,142                |
| torch       | 2.0.0.dev20230220+cu117 | compile               | 8          | 15.6            | 15.5           | 14,819              | 11,055               |
"""


def test_a_script_column_ending_in_its_unit_loads_in_that_unit():
    document = normalized(STABLE_DIFFUSION)
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("first_run_memory_MB", "6,636")] == ("other", 6636.0, "MB")
    assert loaded[("second_run_memory_MB", "7,142")] == ("other", 7142.0, "MB")
    assert loaded[("first_run_memory_MB", "14,819")] == ("other", 14819.0, "MB")
    assert loaded[("second_run_memory_MB", "11,055")] == ("other", 11055.0, "MB")
    quarantined = set(document.quarantine["column_name"].to_list())
    assert "first_run_memory_MB" not in quarantined
    assert "second_run_memory_MB" not in quarantined


def test_identifier_units_are_whole_words_at_its_end():
    assert read_header("latency_ms").unit.alias == "ms"
    assert read_header("throughput_tokens_per_s").unit.alias == "tokens/s"
    assert read_header("latency_min").unit is None  # the minimum, not minutes
    assert read_header("latency_min").statistic == "min"
    assert read_header("batch_size").unit is None


# As DeepSparse's LLMPerf example pastes the token benchmark's summary: each metric's
# identifier, its unit its last word, then its statistics indented under it.
LLMPERF = """## Simple Usage

This should result in an output summary like this:

```
\\Results for token benchmark for hf:mgoin/TinyStories-1M-ds queried with the openai api.

inter_token_latency_s
    p25 = 0.005656395034778967
    p50 = 0.00691082744044463
    p99 = 0.030548013546631083
    mean = 0.008013572023727383
    stddev = 0.005740562313517516
ttft_s
    p25 = 0.05918681574985385
    p50 = 0.07706795702688396
    max = 0.3802950750105083
request_output_throughput_token_per_s
    p25 = 115.95619623824074
    mean = 147.8530523229102
number_input_tokens
    p25 = 84.0
    mean = 109.73076923076923
Number Of Errored Requests: 0
Overall Output Throughput: 343.3687633083576
Number Of Completed Requests: 52
Completed Requests Per Minute: 194.43022532161083
```
"""


def test_llmperf_statistics_load_under_their_metric_in_its_unit():
    document = normalized(LLMPERF)
    loaded = {
        row["raw_value"]: (row["metric"], row["statistic"], round(row["value"], 6), row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded["0.005656395034778967"] == ("latency", "p25", 5.656395, "ms")
    assert loaded["0.030548013546631083"] == ("latency", "p99", 30.548014, "ms")
    assert loaded["0.008013572023727383"] == ("latency", "mean", 8.013572, "ms")
    assert loaded["0.005740562313517516"] == ("latency", "std", 5.740562, "ms")
    assert loaded["0.3802950750105083"] == ("latency", "max", 380.295075, "ms")
    assert loaded["115.95619623824074"] == ("throughput", "p25", 115.956196, "items/s")
    assert loaded["147.8530523229102"] == ("throughput", "mean", 147.853052, "items/s")
    assert "84.0" not in loaded  # the prompts' lengths are the run's, not results
    assert "109.73076923076923" not in loaded
    assert len(loaded) == 12  # 10 statistics, the overall throughput, requests a minute
    assert document.quarantine.height == 0


# As Modular's cascade serve optimization log tabulates its runs: one cell holds a latency's
# mean, median and 99th percentile, in the order its header names them.
CASCADE = """## Native multidict/frozenlist wheels for the aiohttp transport

| config                          | Req/s | Out tok/s | TTFT mean/p50/p99 (ms)   | TPOT mean/p50/p99 (ms) | Completed | Duration (s) |
|---------------------------------|-------|-----------|--------------------------|------------------------|-----------|--------------|
| MAX Serve (reference)           | 80.00 | 16016     | 3478.6 / 3627.1 / 5747.8 | 18.01 / 17.00 / 37.47  | 9808      | 122.6        |
| cascade (+ native multidict)    | 83.56 | 16372     | 2026.5 / 1857.0 / 5274.2 | 23.58 / 21.88 / 61.08  | 9542      | 114.2        |
"""


def test_figures_under_a_header_naming_their_statistics_take_each_its_own():
    document = normalized(CASCADE)
    loaded = {
        (row["column_name"], row["value"]): (row["metric"], row["statistic"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("TTFT mean/p50/p99 (ms)", 3478.6)] == ("latency", "mean", "ms")
    assert loaded[("TTFT mean/p50/p99 (ms)", 3627.1)] == ("latency", "p50", "ms")
    assert loaded[("TTFT mean/p50/p99 (ms)", 5747.8)] == ("latency", "p99", "ms")
    assert loaded[("TPOT mean/p50/p99 (ms)", 23.58)] == ("latency", "mean", "ms")
    assert loaded[("TPOT mean/p50/p99 (ms)", 21.88)] == ("latency", "p50", "ms")
    assert loaded[("TPOT mean/p50/p99 (ms)", 61.08)] == ("latency", "p99", "ms")
    assert len(loaded) == 18
    assert document.quarantine.height == 0


# The same log states its platform once, as a list whose keys a table's header reuses ("GPU
# util"): that column describes the GPU the page names, and the runs beside it ran on it too.
CASCADE_SWEEP = """## Test platform

- CPU: Intel Xeon 6972P (Granite Rapids), 2 sockets
- Cores: 192 physical / 384 logical (2 threads per core)
- GPU: 1x NVIDIA B200 (183 GB)

## Why cascade's TPOT trails MAX Serve: admission-rate, not a config bug

| concurrency | Req/s | TTFT p50 (ms) | TPOT p50 (ms) | GPU util |
|-------------|-------|---------------|---------------|----------|
| 32          | 29.8  | 21            | 4.9           | 95%      |
| 600         | 83.6  | 1857          | 21.9          | 97%      |
"""


def test_a_device_utilization_column_leaves_the_pages_platform_to_the_other_columns():
    document = normalized(CASCADE_SWEEP)
    loaded = {
        (row["column_name"], row["raw_value"]): (row["platform"], row["accelerator_count"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("Req/s", "29.8")] == ("NVIDIA B200", 1)
    assert loaded[("TTFT p50 (ms)", "1857")] == ("NVIDIA B200", 1)
    assert loaded[("TPOT p50 (ms)", "21.9")] == ("NVIDIA B200", 1)
    assert loaded[("GPU util", "97%")] == ("NVIDIA B200", 1)
    assert len(loaded) == 8


# As Triton's Perf Analyzer quick start pastes the tool's client summary: the average's
# remark gives another figure's name and number, not the average's statistic.
PERF_ANALYZER = """## Step 6: Observe and Analyze Output

```
Request concurrency: 1
  Client:
    Request count: 25348
    Throughput: 1407.84 infer/sec
    Avg latency: 708 usec (standard deviation 663 usec)
    p50 latency: 690 usec
    p90 latency: 881 usec
    p95 latency: 926 usec
    p99 latency: 1031 usec
```
"""


def test_a_remark_naming_another_figure_gives_the_value_no_statistic():
    loaded = {
        row["raw_value"]: (row["metric"], row["statistic"], row["value"], row["unit"])
        for row in normalized(PERF_ANALYZER).measurements.iter_rows(named=True)
    }
    assert loaded["708 usec (standard deviation 663 usec)"] == ("latency", "mean", 0.708, "ms")
    assert loaded["690 usec"] == ("latency", "p50", 0.69, "ms")
    assert loaded["1031 usec"] == ("latency", "p99", 1.031, "ms")


# As Triton's GenAI-Perf README pastes the tool's summary, a table Python's Rich library draws
# with box-drawing characters: each row a metric with its unit, each column a statistic.
GENAI_PERF = """## Running GenAI-Perf

```
                              NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
┃                         Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩
│          Time to first token (ms) │  16.26 │  12.39 │  17.25 │  17.09 │  16.68 │  16.56 │
│          Inter token latency (ms) │   1.85 │   1.55 │   2.04 │   2.02 │   1.97 │   1.92 │
│ Output token throughput (per sec) │ 520.87 │    N/A │    N/A │    N/A │    N/A │    N/A │
│      Request throughput (per sec) │   1.99 │    N/A │    N/A │    N/A │    N/A │    N/A │
└───────────────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┘
```
"""


def test_a_rich_drawn_table_of_metrics_by_statistic_loads_each_in_its_rows_unit():
    document = normalized(GENAI_PERF)
    loaded = {
        (row["row_label"], row["column_name"]): (
            row["metric"],
            row["statistic"],
            row["value"],
            row["unit"],
        )
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("Time to first token (ms)", "avg")] == ("latency", "mean", 16.26, "ms")
    assert loaded[("Time to first token (ms)", "p99")] == ("latency", "p99", 17.09, "ms")
    assert loaded[("Inter token latency (ms)", "min")] == ("latency", "min", 1.55, "ms")
    assert loaded[("Inter token latency (ms)", "p75")] == ("latency", "p75", 1.92, "ms")
    assert loaded[("Output token throughput (per sec)", "avg")] == (
        "throughput",
        "mean",
        520.87,
        "items/s",
    )
    assert loaded[("Request throughput (per sec)", "avg")] == (
        "throughput",
        "mean",
        1.99,
        "items/s",
    )
    assert len(loaded) == 14
    assert set(document.quarantine["check"].to_list()) == {"placeholder_value"}  # the N/As


# GenAI-Perf's goodput tutorial: the rows of sequence lengths are the load the tool sent, no
# throughput the context may speak of.
GOODPUT = """## Run GenAI-Perf with Goodput Constraints

```
                              NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓
┃                         Statistic ┃      avg ┃      min ┃      max ┃      p99 ┃      p90 ┃      p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩
│              Request latency (ms) │ 6,740.76 │ 4,387.10 │ 8,930.90 │ 8,929.88 │ 8,920.69 │ 8,905.37 │
│            Output sequence length │   345.80 │   225.00 │   458.00 │   458.00 │   458.00 │   458.00 │
│ Output token throughput (per sec) │    51.20 │      N/A │      N/A │      N/A │      N/A │      N/A │
│         Request goodput (per sec) │     0.12 │      N/A │      N/A │      N/A │      N/A │      N/A │
└───────────────────────────────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘
```
"""


def test_a_row_named_by_a_setting_of_the_load_holds_no_result():
    document = normalized(GOODPUT)
    loaded = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("Request latency (ms)", "p90")] == ("latency", 8920.69, "ms")
    assert loaded[("Request goodput (per sec)", "avg")] == ("throughput", 0.12, "items/s")
    assert not any(label == "Output sequence length" for label, _ in loaded)
    assert len(loaded) == 8
    unread = document.quarantine.filter(document.quarantine["check"] == "unknown_metric")
    assert sorted(unread["raw_value"].to_list()) == sorted(
        ["345.80", "225.00", "458.00", "458.00", "458.00", "458.00"]
    )


# As GenAI-Perf prints its GPU telemetry (triton-inference-server/perf_analyzer,
# genai-perf/docs/gpu_telemetry.md): a panel framing one table per figure, each titled by the
# figure and its unit, the statistics as columns.
GPU_TELEMETRY_PANEL = """## Run GenAI-Perf

```
                 NVIDIA GenAI-Perf | Power Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃                                                                  ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│                       GPU Power Usage (W)                        │
│ ┏━━━━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━┓ │
│ ┃ GPU Index ┃   avg ┃   min ┃    max ┃    p99 ┃    p90 ┃   p75 ┃ │
│ ┡━━━━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━┩ │
│ │         0 │ 63.55 │ 21.00 │ 111.39 │ 110.84 │ 105.91 │ 95.16 │ │
│ └───────────┴───────┴───────┴────────┴────────┴────────┴───────┘ │
│                 GPU Power Limit (W)                              │
│ ┏━━━━━━━━━━━┳━━━━━━━━┳━━━━━┳━━━━━┳━━━━━┳━━━━━┳━━━━━┓             │
│ ┃ GPU Index ┃    avg ┃ min ┃ max ┃ p99 ┃ p90 ┃ p75 ┃             │
│ ┡━━━━━━━━━━━╇━━━━━━━━╇━━━━━╇━━━━━╇━━━━━╇━━━━━╇━━━━━┩             │
│ │         0 │ 300.00 │ N/A │ N/A │ N/A │ N/A │ N/A │             │
│ └───────────┴────────┴─────┴─────┴─────┴─────┴─────┘             │
│                    Energy Consumption (MJ)                       │
│ ┏━━━━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┓    │
│ ┃ GPU Index ┃   avg ┃   min ┃   max ┃   p99 ┃   p90 ┃   p75 ┃    │
│ ┡━━━━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━┩    │
│ │         0 │ 67.33 │ 67.33 │ 67.33 │ 67.33 │ 67.33 │ 67.33 │    │
│ └───────────┴───────┴───────┴───────┴───────┴───────┴───────┘    │
└──────────────────────────────────────────────────────────────────┘
```
"""


def test_tables_inside_a_panel_load_under_the_figure_and_unit_their_title_names():
    values = {
        (row["table_title"], row["column_name"]): (
            row["metric"],
            row["value"],
            row["unit"],
            row["statistic"],
        )
        for row in normalized(GPU_TELEMETRY_PANEL).measurements.iter_rows(named=True)
    }
    power = "Run GenAI-Perf \u2014 GPU Power Usage (W)"
    assert values[(power, "avg")] == ("other", 63.55, "W", "mean")
    assert values[(power, "p99")] == ("other", 110.84, "W", "p99")
    limit = "Run GenAI-Perf \u2014 GPU Power Limit (W)"
    assert values[(limit, "avg")] == ("other", 300.0, "W", "mean")
    # "N/A" under the limit's other statistics: no value, each set apart with its reason
    quarantined = normalized(GPU_TELEMETRY_PANEL).quarantine
    assert quarantined.filter(quarantined["raw_value"] == "N/A").height == 5


def test_a_caption_names_its_tables_figure_under_a_heading_naming_a_setting():
    # "output" is a setting (an output length): the heading names no figure, its caption does
    page = GPU_TELEMETRY_PANEL.replace("## Run GenAI-Perf", "## Example console output")
    values = {
        (row["table_title"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in normalized(page).measurements.iter_rows(named=True)
    }
    power = "Example console output \u2014 GPU Power Usage (W)"
    assert values[(power, "max")] == ("other", 111.39, "W")
