"""The summary a serving benchmark prints when it ends (vLLM's `vllm bench serve`, SGLang's
`bench_serving`), pasted inside fenced code as LLM-serving pages show it: read as a results
table of one row, each line's label naming the metric, statistic and unit. A config, a
shell session or a log holding numbers stays code."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from perfledger.sources.layouts.console_summaries import find_console_summaries
from perfledger.sources.layouts.markdown_blocks import hidden_lines
from perfledger.sources.layouts.page_text import split_lines
from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import fields_by_raw_value, normalized

PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages" / "pages"

# As kunlunxin/vllm-kunlun's docs show `vllm bench serve` output (benchmark server page,
# "1.3Result"), lines 55 to 75 of the page.
VLLM_SUMMARY = """# Benchmark

#### 1.3Result

The following content will be displayed after the process is complete.

```bash
========== Serving Benchmark Result ==========
Successful requests:                          500
Benchmark duration (s):                       144.89
Total input tokens:                           510414
Total generated tokens:                       512000
Request throughput (req/s):                   3.45
Output token throughput (tok/s):              3533.68
Total Token throughput (tok/s):               7056.42
----------Time to First Token----------
Mean TTFT (ms):                               57959.61
Median TTFT (ms):                             43551.93
P99 TTFT (ms):                                116202.52
----------Time per Output Token (excl. 1st token)----------
Mean TPOT (ms):                               33.30
Median TPOT (ms):                             34.15
P99 TPOT (ms):                                35.59
----------Inter-token Latency----------
Mean ITL (ms):                                33.30
Median ITL (ms):                              29.05
P99 ITL (ms):                                 46.14
============================================
```
"""

# As sgl-project/sgl-cookbook shows SGLang's `bench_serving` output
# (docs/autoregressive/DeepSeek/DeepSeek-V3_1.md, 5.1.1), its first lines settings in words.
SGLANG_SUMMARY = """# DeepSeek-V3.1

#### 5.1.1 Latency-Sensitive Benchmark

- **Test Results:**

```
============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 1
Successful requests:                     10
Total input tokens:                      1972
Request throughput (req/s):              0.28
Output token throughput (tok/s):         78.26
Concurrency:                             1.00
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   3555.16
Median E2E Latency (ms):                 3869.17
---------------Time to First Token----------------
Mean TTFT (ms):                          421.85
P99 TTFT (ms):                           1035.12
---------------Inter-Token Latency----------------
P95 ITL (ms):                            29.16
Max ITL (ms):                            29.81
==================================================
```
"""

# Code that holds "key: number" lines but is no summary: a serving config (keys are
# identifiers), a shell session and an accuracy check's four lines whose labels are no
# tool's summary (same cookbook page, 5.2.1).
NOT_SUMMARIES = """# Deploy

```yaml
max_num_seqs: 256
max_model_len: 4096
tensor_parallel_size: 8
gpu_memory_utilization: 0.9
block_size: 16
```

```shell
$ vllm serve Qwen/Qwen3-8B --port 8000
INFO 05-12 10:00:00 api_server.py:345] Avg prompt throughput: 0.0 tokens/s
export VLLM_USE_MODELSCOPE=True
```

```
Accuracy: 0.975
Invalid: 0.000
Latency: 27.445 s
Output throughput: 673.719 token/s
```
"""


def test_a_vllm_summary_is_a_table_of_one_row_under_its_banner():
    found = fields_by_raw_value(VLLM_SUMMARY, "table_title", "metric", "statistic", "unit", "value")
    title = "1.3Result — Serving Benchmark Result"
    assert found["3.45"] == (title, "throughput", None, "items/s", 3.45)
    assert found["3533.68"] == (title, "throughput", None, "items/s", 3533.68)
    assert found["43551.93"] == (title, "latency", "p50", "ms", 43551.93)
    assert found["116202.52"] == (title, "latency", "p99", "ms", 116202.52)
    assert found["35.59"] == (title, "latency", "p99", "ms", 35.59)
    assert found["46.14"] == (title, "latency", "p99", "ms", 46.14)


def test_the_counts_of_a_summary_are_settings_of_its_values():
    found = fields_by_raw_value(VLLM_SUMMARY, "settings")
    settings = found["57959.61"][0]
    assert "Successful requests=500" in settings
    assert "Total input tokens=510414" in settings
    assert "Total generated tokens=512000" in settings
    assert "500" not in found and "510414" not in found


def test_every_line_of_a_summary_loads_or_is_quarantined():
    result = normalized(VLLM_SUMMARY)
    # 16 lines, three of them counts (settings): 13 values, the run's whole duration among
    # them as a figure of its own, neither a latency nor a quarantined unknown.
    assert result.measurements.height == 13
    assert result.quarantine.height == 0
    found = fields_by_raw_value(VLLM_SUMMARY, "metric", "unit", "value")
    assert found["144.89"] == ("other", "ms", 144890.0)  # a duration, in its canonical unit


def test_an_sglang_summary_keeps_its_worded_settings():
    found = fields_by_raw_value(SGLANG_SUMMARY, "metric", "statistic", "value", "settings")
    metric, statistic, value, settings = found["3555.16"]
    assert (metric, statistic, value) == ("latency", "mean", 3555.16)
    assert "Traffic request rate=inf" in settings
    assert "Max request concurrency=1" in settings
    assert found["29.16"][:3] == ("latency", "p95", 29.16)
    assert found["29.81"][:3] == ("latency", "max", 29.81)
    assert found["78.26"][:3] == ("throughput", None, 78.26)


def test_config_shell_and_short_check_blocks_stay_code():
    lines = split_lines(NOT_SUMMARIES)
    assert find_console_summaries(lines, hidden_lines(lines, 0, [])) == []
    assert normalized(NOT_SUMMARIES).measurements.height == 0


def test_a_summary_found_in_code_spans_its_lines_and_names_its_caption():
    lines = split_lines(VLLM_SUMMARY)
    (summary,) = find_console_summaries(lines, hidden_lines(lines, 0, []))
    assert (summary.start, summary.end) == (7, 28)
    assert summary.caption == "Serving Benchmark Result"
    assert summary.fields[0] == (8, "Successful requests", "500")
    assert summary.fields[-1] == (26, "P99 ITL (ms)", "46.14")
    assert len(summary.fields) == 16


def test_a_trtllm_bench_overview_is_read_under_its_boxed_title():
    # nvidia_trtllm_perf_overview.md, lines 381-394: "= PERFORMANCE OVERVIEW" between rules
    # of "=", a label holding "[1/TPOT]".
    page = _shared_page("nvidia_trtllm_perf_overview.md")
    found = _fields_by_line(page, "table_title", "metric", "statistic", "unit", "value")
    found = {raw: found[line] for raw, line in _OVERVIEW_LINES.items()}
    title = "Running the Benchmark — PERFORMANCE OVERVIEW"
    assert found["43.2089"] == (title, "throughput", None, "items/s", 43.2089)
    assert found["5.4656"] == (title, "throughput", None, "items/s", 5.4656)
    assert found["52667.0339"] == (title, "latency", "mean", "ms", 52667.0339)
    assert found["182.9639"] == (title, "latency", "mean", "ms", 182.9639)


# Lines of nvidia_trtllm_perf_overview.md: the values of its overview repeated by the
# statistics under it ("[TTFT] AVERAGE: 52667.0339") are told apart by their line.
_OVERVIEW_LINES = {"43.2089": 382, "5.4656": 389, "52667.0339": 390, "182.9639": 391}


def _shared_page(name: str) -> str:
    path = PAGES / name
    if not path.is_file():
        pytest.skip(f"../shared/real-pages is not here ({path.parent}); this test reads its pages")
    return path.read_text(encoding="utf-8")


def _fields_by_line(page: str, *fields: str, content_type: str = "text/markdown") -> dict:
    return {
        row["line_number"]: tuple(row[field] for field in fields)
        for row in normalized(page, content_type).measurements.iter_rows(named=True)
    }


def test_trtllm_bench_statistics_under_their_rule_take_its_unit():
    # nvidia_trtllm_perf_overview.md, lines 393-421: "[TPOT] MINIMUM: 32.8005", each group
    # under a rule naming what it breaks down and its unit, a blank line between.
    page = _shared_page("nvidia_trtllm_perf_overview.md")
    found = _fields_by_line(page, "table_title", "metric", "statistic", "unit", "value")
    tpot = "Running the Benchmark — Per-Request Time-per-Output-Token [TPOT] Breakdown (ms)"
    assert found[395] == (tpot, "latency", "min", "ms", 32.8005)
    assert found[396] == (tpot, "latency", "max", "ms", 208.4667)
    assert found[397] == (tpot, "latency", "mean", "ms", 182.9639)
    assert found[401] == (tpot, "latency", "p99", "ms", 206.5821)
    ttft = "Running the Benchmark — Per-Request Time-to-First-Token [TTFT] Breakdown (ms)"
    assert found[405] == (ttft, "latency", "min", "ms", 3914.7621)
    assert found[408] == (ttft, "latency", "p50", "ms", 52269.7072)
    latency = "Running the Benchmark — Request Latency Breakdown (ms)"
    assert found[415] == (latency, "latency", "p50", "ms", 78509.2102)
    assert found[420] == (latency, "latency", "max", "ms", 111668.0964)
    # the 10 lines of the overview and the 21 statistics, nothing quarantined
    result = normalized(page)
    assert result.measurements.filter(pl.col("line_number").is_between(381, 421)).height == 31
    assert result.quarantine.filter(pl.col("line_number").is_between(381, 421)).height == 0


# As LMCache/LMCache's docs (docs/source/cli/bench.rst, "Terminal (final summary)") show the
# summary `lmcache bench engine` prints, in an RST code block.
RST_SUMMARY = """Bench
=====

Terminal (final summary)
^^^^^^^^^^^^^^^^^^^^^^^^

After completion, a summary table is printed:

.. code-block:: text

   ======= Engine Benchmark Result (long-doc-qa) ========
   ---------------------- Configuration ------------------
   Engine URL:                       http://localhost:8000
   Model:                            Qwen/Qwen3-14B
   Workload:                         long-doc-qa
   ------------------------- Results ---------------------
   Successful requests:              20
   Failed requests:                  0
   Benchmark duration (s):           31.34
   Total input tokens:               200000
   Total output tokens:              2560
   Input throughput (tok/s):         6381.62
   Output throughput (tok/s):        81.69
   --------------- Time to First Token -------------------
   Mean TTFT (ms):                   313.41
   P50 TTFT (ms):                    272.83
   P90 TTFT (ms):                    587.21
   P99 TTFT (ms):                    837.32
   ------------------ Decoding Speed ---------------------
   Mean decode (tok/s):              48.23
   P99 decode (tok/s):               38.55
   ======================================================

CSV and JSON
^^^^^^^^^^^^

.. list-table::
   :header-rows: 1

   * - Code
     - Meaning
   * - ``0``
     - All requests succeeded.
"""


def test_a_summary_in_an_rst_code_block_is_a_table_of_one_row():
    found = _fields_by_line(
        RST_SUMMARY, "metric", "statistic", "unit", "value", "model", content_type="text/x-rst"
    )
    model = "Qwen/Qwen3-14B"
    assert found[22] == ("throughput", None, "items/s", 6381.62, model)
    assert found[25] == ("latency", "mean", "ms", 313.41, model)
    assert found[28] == ("latency", "p99", "ms", 837.32, model)
    assert found[31] == ("throughput", "p99", "items/s", 38.55, model)
    assert len(found) == 9 and normalized(RST_SUMMARY, "text/x-rst").quarantine.height == 0


def test_a_summary_in_rst_is_numbered_after_the_written_tables():
    parsed, _layout = parse_document(RST_SUMMARY.encode(), "text/x-rst")
    headers = parsed.cells.filter(pl.col("row_number") == 0).group_by("table_index")
    firsts = headers.agg(pl.col("raw_value").sort_by("column_index").first())
    assert dict(firsts.rows()) == {0: "Code", 1: "Model"}


def test_an_rst_literal_block_after_a_double_colon_is_read_too():
    page = RST_SUMMARY.replace(".. code-block:: text\n", "The summary::\n")
    found = _fields_by_line(page, "metric", "statistic", "value", content_type="text/x-rst")
    assert found[25] == ("latency", "mean", 313.41)
    assert len(found) == 9


def test_a_setting_printed_as_text_names_the_model_of_the_summary():
    # As sgl-project/sgl-cookbook shows SGLang's diffusion bench_serving output
    # (docs/diffusion/Wan/Wan2.2.md, 5.1.1): the model is printed as a line of its own.
    page = """#### 5.1.1 Generate a video

```
================= Serving Benchmark Result =================
Backend:                                 sglang-video
Model:                                   Wan-AI/Wan2.2-T2V-A14B-Diffusers
Dataset:                                 vbench
Task:                                    t2v
--------------------------------------------------
Benchmark duration (s):                  630.43
Request rate:                            inf
Max request concurrency:                 1
Successful requests:                     1/1
--------------------------------------------------
Request throughput (req/s):              0.00
Latency Mean (s):                        630.4277
Latency Median (s):                      630.4277
Latency P99 (s):                         630.4277
--------------------------------------------------
Peak Memory Max (MB):                    62627.41
Peak Memory Mean (MB):                   62627.41
Peak Memory Median (MB):                 62627.41

============================================================
```
"""
    rows = normalized(page).measurements.sort("line_number")
    assert rows["model"].unique().to_list() == ["Wan-AI/Wan2.2-T2V-A14B-Diffusers"]
    assert rows.select("metric", "statistic", "value").rows()[:4] == [
        ("other", None, 630430.0),  # the benchmark's whole duration, no request's latency
        ("latency", "mean", 630427.7),
        ("latency", "p50", 630427.7),
        ("latency", "p99", 630427.7),
    ]


# As PaddlePaddle/Paddle-Lite's docs/demo_guides/verisilicon_timvx.md shows a quantization
# script's output: the arguments it ran with under a banner, then its log.
SETTINGS_PRINTED = """## 更新模型

```shell
-----------  Configuration Arguments -----------
activation_bits: 8
algo: KL
batch_nums: 10
batch_size: 10
is_full_quantize: 1
is_use_cache_file: 0
use_gpu: 0
use_slim: 1
weight_bits: 8
------------------------------------------------
```
"""


def test_a_banner_over_the_settings_a_tool_ran_with_heads_no_results():
    read = normalized(SETTINGS_PRINTED)
    assert read.measurements.height == 0
    assert read.quarantine.height == 0  # no "weight_bits" metric asked for
