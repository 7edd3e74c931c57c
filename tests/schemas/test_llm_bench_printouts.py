"""Tables that LLM benchmark and evaluation tools print, pasted into pages as they come:
llama.cpp's sweep and batched benches ("T_PP s | S_PP t/s"), the serving benchmark's
summary columns and lm-evaluation-harness's task tables."""

from __future__ import annotations

import pytest

from perfledger.schemas.precisions import find_precisions, names_cache_types_only
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As ik_llama.cpp's "Qwen3 - early performance comparisons" discussion pastes
# llama-sweep-bench output: prompt and generated tokens and the tokens already in the KV cache
# are the run's settings; "T_PP s" is the time of the prompt in seconds, "S_PP t/s" its speed.
SWEEP_BENCH = """## Hybrid inference

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    0.587 |   871.89 |    1.864 |    68.68 |
|   512 |    128 |    512 |    0.593 |   863.47 |    1.883 |    67.97 |
"""


def _loaded(page: str) -> dict[tuple[str, str], tuple]:
    rows = normalized(page).measurements.iter_rows(named=True)
    return {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in rows
    }


def test_sweep_bench_times_load_in_seconds_and_token_counts_are_settings():
    document = normalized(SWEEP_BENCH)
    loaded = _loaded(SWEEP_BENCH)
    assert loaded[("T_PP s", "0.587")] == ("latency", 587.0, "ms")
    assert loaded[("T_TG s", "1.883")] == ("latency", 1883.0, "ms")
    assert loaded[("S_PP t/s", "871.89")] == ("throughput", 871.89, "items/s")
    assert loaded[("S_TG t/s", "67.97")] == ("throughput", 67.97, "items/s")
    assert len(loaded) == 8  # no token count is a value
    assert document.quarantine.height == 0
    settings = {
        row["raw_value"]: row["settings"]
        for row in document.measurements.iter_rows(named=True)
        if row["column_name"] == "S_TG t/s"
    }
    assert "N_KV=512" in settings["67.97"]
    assert "N_KV=0" in settings["68.68"]


# As vllm-ascend's Kimi-K2-Thinking tutorial shows lm-evaluation-harness's result: the examples
# in the prompt ("n-shot") are a setting and the standard error is no second accuracy.
HARNESS = """## Accuracy

| task | version | filter | n-shot | metric | value | stderr |
| --- | ---: | --- | ---: | --- | ---: | ---: |
| gsm8k | 3 | flexible-extract | 5 | exact_match | 0.8992 | 0.0083 |
| gsm8k | 3 | strict-match | 5 | exact_match | 0.8453 | 0.0100 |
"""


def test_harness_tables_load_one_accuracy_a_row_with_its_shots_as_a_setting():
    document = normalized(HARNESS)
    rows = list(document.measurements.iter_rows(named=True))
    assert [(row["raw_value"], row["metric"], row["value"]) for row in rows] == [
        ("0.8992", "accuracy", 0.8992),
        ("0.8453", "accuracy", 0.8453),
    ]
    assert "n-shot=5" in rows[0]["settings"]
    assert rows[0]["dataset"] == "gsm8k"
    assert document.quarantine.height == 0


# As the same tutorial shows the serving benchmark's summary: "success" counts the requests that
# completed ("10 / 10"); it is no throughput.
SERVING_SWEEP = """## Performance

After the benchmark completes, you can get the performance result, including request throughput, \
output token throughput, TTFT, TPOT, and ITL.

| random input len | random output len | success | duration (s) | output throughput (tok/s) | \
mean TTFT (ms) |
| ---: | ---: | ---: | ---: | ---: | ---: |
| 512 | 512 | 10 / 10 | 111.00 | 46.12 | 507.60 |
| 1024 | 1024 | 10 / 10 | 221.52 | 46.23 | 566.39 |
"""


def test_the_count_of_completed_requests_is_a_setting_not_a_throughput():
    loaded = _loaded(SERVING_SWEEP)
    assert ("success", "10 / 10") not in loaded
    assert loaded[("output throughput (tok/s)", "46.23")] == ("throughput", 46.23, "items/s")
    assert loaded[("mean TTFT (ms)", "507.60")] == ("latency", 507.6, "ms")
    assert loaded[("duration (s)", "221.52")] == ("latency", 221520.0, "ms")
    assert len(loaded) == 6


# As vllm-ascend's tutorials name the machine their results ran on: Huawei's Atlas 800 A3
# server (Ascend 910C), with each NPU's memory times the NPUs in a bracket after it.
ATLAS_A3 = """## Performance

The following reference results are obtained with `vllm-ascend:v0.20.2rc1` on one Atlas 800 A3 \
node (64G × 16), using OpenAI chat serving, random input/output lengths, 10 prompts, and \
`--request-rate 1`:

| random input len | random output len | output throughput (tok/s) | mean TTFT (ms) |
| ---: | ---: | ---: | ---: |
| 512 | 512 | 46.12 | 507.60 |
"""


def test_an_atlas_800_a3_node_is_sixteen_ascend_910c_npus_as_its_bracket_says():
    found = fields_by_raw_value(ATLAS_A3, "accelerator", "accelerator_count", "vendor")
    assert found["46.12"] == ("Ascend 910C", 16, "Huawei")
    assert found["507.60"] == ("Ascend 910C", 16, "Huawei")


@pytest.mark.parametrize(
    ("text", "accelerator", "count"),
    [
        ("on one Atlas 800 A3 node (64G × 16), using", "Ascend 910C", 16),
        ("3 Atlas 800T A3 servers (64G × 16)", "Ascend 910C", 48),
        ("Atlas 800 A3 (128GB × 8)", "Ascend 910C", 8),
        ("Atlas 800 A2 (64GB × 8)", "Ascend 910B", 8),
        ("Atlas 800I A3 server (64G × 16 NPUs)", "Ascend 910C", 16),
        ("one node of H100 (80GB x 8)", "H100", 8),
        # ik_llama.cpp's hybrid runs: "cannot be fully loaded on my 16 GB RTX-4080 GPU"
        ("cannot be fully loaded on my 16 GB RTX-4080 GPU.", "RTX 4080", 1),
        ("a 16GB RTX 4080 GPU", "RTX 4080", 1),
    ],
)
def test_the_chips_a_sentence_counts(text, accelerator, count):
    mention = read_hardware(text, "prose")  # as a page's paragraphs are read
    assert (mention.accelerator, mention.count) == (accelerator, count)


# As PowerInfer's llama-bench README (a llama.cpp fork's) shows a sweep of the layers
# offloaded to the GPU: "ngl" is a setting of each row, not an unknown metric.
LAYERS_OFFLOADED = """### Different numbers of layers offloaded to the GPU

| model                          |       size |     params | backend    | ngl | test       |              t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | ---------- | ---------------: |
| llama 7B mostly Q4_0           |   3.56 GiB |     6.74 B | CUDA       |  10 | pp 512     |    373.36 ± 2.25 |
| llama 7B mostly Q4_0           |   3.56 GiB |     6.74 B | CUDA       |  20 | pp 512     |    472.65 ± 1.25 |
"""

# As PowerInfer's batched-bench README shows it: "B" is the number of batches, "T s" and
# "S t/s" the total time and speed.
BATCHED_BENCH = """## Sample results

|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |
|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|
|   128 |    128 |    1 |    256 |    0.108 |  1186.64 |    3.079 |    41.57 |    3.187 |    80.32 |
|   128 |    128 |    2 |    512 |    0.198 |  1295.19 |    5.029 |    50.90 |    5.227 |    97.95 |
"""


def test_llama_bench_gpu_layers_are_a_setting_of_each_row():
    document = normalized(LAYERS_OFFLOADED)
    assert document.quarantine.height == 0
    settings = {
        row["raw_value"]: row["settings"] for row in document.measurements.iter_rows(named=True)
    }
    assert "ngl=10" in settings["373.36 ± 2.25"]
    assert "ngl=20" in settings["472.65 ± 1.25"]


def test_batched_bench_batches_are_the_batch_size_and_totals_load():
    document = normalized(BATCHED_BENCH)
    assert document.quarantine.height == 0
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["batch_size"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("T s", "5.227")] == ("latency", 5227.0, "2")
    assert loaded[("S t/s", "97.95")] == ("throughput", 97.95, "2")
    assert loaded[("S_TG t/s", "41.57")] == ("throughput", 41.57, "1")
    assert len(loaded) == 12


# As ik_llama.cpp's Qwen3 comparison names its machine once, a CPU with a GPU, then reports a
# section of runs on the CPU alone and one of hybrid runs.
CPU_ONLY_SECTION = """# Qwen3 - early performance comparisons

Benchmarks are run on a Ryzen-7950X system with an RTX-4080 GPU. Compared are the latest \
`ik_kllama.cpp` and `llama.cpp` versions as of this morning (April 29 2025).

## CPU-only performance

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    3.610 |   141.84 |    5.067 |    25.26 |

## Hybrid inference

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    0.587 |   871.89 |    1.864 |    68.68 |
"""


def test_a_cpu_only_section_ran_on_the_cpu_its_page_names_beside_a_gpu():
    found = fields_by_raw_value(CPU_ONLY_SECTION, "accelerator", "vendor")
    assert found["141.84"] == ("Ryzen 7950X", "AMD")
    assert found["25.26"] == ("Ryzen 7950X", "AMD")
    assert found["871.89"] == ("RTX 4080", "NVIDIA")


# As vllm-ascend's dynamic chunked pipeline parallel tutorial compares two ways of running
# prefill: the column names the way, each cell the metric it measured ("TTFT: 22.5s").
NAMED_IN_CELL = """**Fixed-length requests, concurrency=1**:

- DeepSeek-V3.1-W8A8:

    | Configuration | CPP <br> (Dynamic Chunk, <br> chunksize=32k) | PP <br>(Static Chunk, <br> \
chunksize=32k) |
    | ----------------------------- | ------------------------- | ------------------------- |
    | Input length 128k | TTFT: 22.5s | TTFT: 27.0s |
"""


def test_a_cell_naming_its_metric_gives_it_where_the_column_names_none():
    document = normalized(NAMED_IN_CELL)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(NAMED_IN_CELL, "metric", "value", "unit")
    assert found["TTFT: 22.5s"] == ("latency", 22500.0, "ms")


def test_cells_naming_their_metric_under_a_header_read_as_a_setting_are_results():
    # "PP" names the run compared (pipeline parallel prefill), not a column of sizes: its
    # cells were taken for the row's label and lost
    found = fields_by_raw_value(NAMED_IN_CELL, "column_name", "metric", "value", "row_label")
    assert found["TTFT: 27.0s"] == (
        "PP  (Static Chunk,   chunksize=32k)",  # the line breaks published as spaces
        "latency",
        27000.0,
        "Input length 128k",
    )


# The same tutorial's variable-length runs: two columns, the configurations and one column
# headed by the requests' lengths, whose cells name what they measured.
NAMED_IN_TWO_COLUMNS = """**Variable-length requests, concurrency=4**:

- DeepSeek-V3.1-W8A8:

    | Configuration | 4k~64k Input, mean=32k, std=32k <br> prefix hit rate=99% |
    | ----------------------------- | ------------------------- |
    | CPP2TP8 | Input throughput: 22424 tps/card |
    | DP2TP8 | Input throughput: 16150 tps/card |
    | TP16 | Input throughput: 18875 tps/card |
"""


def test_a_two_column_table_whose_cells_name_their_metric_is_no_list_of_properties():
    document = normalized(NAMED_IN_TWO_COLUMNS)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(NAMED_IN_TWO_COLUMNS, "metric", "value", "row_label")
    assert found["Input throughput: 22424 tps/card"] == ("throughput", 22424.0, "CPP2TP8")
    assert found["Input throughput: 18875 tps/card"] == ("throughput", 18875.0, "TP16")


# As vllm-ascend's PD-colocated Mooncake tutorial documents its configuration files beside
# its results: a port and two ratios explained are settings, not scores; "Concur" is the
# requests in flight.
PARAMETERS_AND_RESULTS = """### Mooncake master

| Parameter                     | Value | Explanation                           |
| ----------------------------- | ----- | ------------------------------------- |
| port                          | 50088 | Port for the master service           |
| eviction_high_watermark_ratio | 0.95  | High watermark ratio (95% threshold)  |
| eviction_ratio                | 0.05  | Percentage to evict when full (5%)    |

### Test Results

| Requests | Concur | TTFT1 (ms) | TTFT2 (ms) | TTFT3 (ms) |
| -------- | ------ | ---------- | ---------- | ---------- |
| 100      | 25     | 2322       | 739        | 948        |
"""


def test_a_documented_parameter_table_holds_no_results():
    document = normalized(PARAMETERS_AND_RESULTS)
    assert document.quarantine.height == 0
    assert fields_by_raw_value(PARAMETERS_AND_RESULTS, "metric", "value", "settings") == {
        "2322": ("latency", 2322.0, "Requests=100; Concur=25"),
        "739": ("latency", 739.0, "Requests=100; Concur=25"),
        "948": ("latency", 948.0, "Requests=100; Concur=25"),
    }


# As ik_llama.cpp's Qwen3 comparison states the types of the two halves of its KV cache in the
# paragraph above its tables: the cache's, not the model's precision.
CACHE_HALVES = """## CPU-only performance

`llama.cpp` is similar, except that there is no `-rtr -fmoe`. I'm also including mainline \
results without Flash Attention (FA). In this case the K-cache is quantized with `Q8_0` and the \
V-cache is `fp16`.

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    3.610 |   141.84 |    5.067 |    25.26 |
"""


@pytest.mark.parametrize(
    ("text", "dtype"),
    [
        ("the K-cache is quantized with `Q8_0`", "int8"),
        ("the V-cache is `fp16`", "fp16"),
        ("kv cache dtype = fp8", "fp8"),
    ],
)
def test_a_dtype_said_of_either_half_of_the_cache_is_the_caches(text, dtype):
    (precision,) = find_precisions(text)
    assert precision.weight == dtype
    assert names_cache_types_only(precision.text)


def test_the_caches_dtypes_set_no_dtype_of_the_run():
    found = fields_by_raw_value(CACHE_HALVES, "activation_dtype", "weight_dtype")
    assert found["141.84"] == (None, None)


# As vllm-ascend's Kimi-K2-Thinking tutorial sums up its deployments: scenarios named after
# what they favour ("Low Latency", "High Throughput"), described in words, one count among them.
SCENARIO_OVERVIEW = """#### Table 1: Scenario Overview

| Scenario | Deployment Mode | Total NPUs | Weight Version | Key Considerations |
|----------|----------------|------------|----------------|---------------------|
| Long Context | Single-node | 16 (A3) | bfloat16 | Keep `--max-model-len` close to the real \
maximum input and output length. |
| Low Latency | Single-node | 16 (A3) | bfloat16 | Reduce `--max-num-seqs` and \
`--max-num-batched-tokens` from the validated baseline (`12` and `8192`) to reduce queueing \
delay. |
| High Throughput | Single-node | 16 (A3) | bfloat16 | Increase `--max-num-seqs` gradually and \
benchmark with a request rate close to the real workload. |
"""


def test_a_table_of_scenarios_named_after_a_metric_is_not_read_turned_around():
    # read turned, "16 (A3)" loaded as a throughput of 16 and the words were quarantined
    document = normalized(SCENARIO_OVERVIEW)
    assert document.measurements.height == 0
    assert document.quarantine.height == 0


# The lines of vLLM's serving summary (a Red Hat vLLM lab's run: "Request throughput
# (req/s): 21.48", "Mean TTFT (ms): 286.78"), as a page puts them into a table's cells: names
# of three words and more, a unit in the name's brackets. The columns were planned as cells
# naming their metric, but no cell read, and the values were lost without a trace.
NAMED_AT_LENGTH = """# vLLM serving benchmark, Llama-3.2-1B-Instruct-FP8

| Run | Result |
| --- | --- |
| random 200/200 | Request throughput (req/s): 21.48 |
| random 200/200 | Output token throughput (tok/s): 3756.84 |
| random 200/200 | Mean TTFT (ms): 286.78 |
| random 200/200 | Median TPOT (ms): 21.39 |
"""


def test_cells_naming_their_metric_at_length_are_read_with_the_unit_of_the_name():
    document = normalized(NAMED_AT_LENGTH)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(NAMED_AT_LENGTH, "metric", "value", "unit")
    assert found["Request throughput (req/s): 21.48"] == ("throughput", 21.48, "items/s")
    assert found["Output token throughput (tok/s): 3756.84"] == ("throughput", 3756.84, "items/s")
    assert found["Mean TTFT (ms): 286.78"] == ("latency", 286.78, "ms")
    assert found["Median TPOT (ms): 21.39"] == ("latency", 21.39, "ms")


# As GPU-Benchmarks-on-LLM-Inference tabulates llama.cpp's runs on Apple Silicon: the tests
# of llama-bench as columns, the speed of generating ("tg 512") and of processing a prompt
# ("pp 512") of that many tokens. "tg 512" named no metric (quarantined) and "pp 512" read as
# a pipeline-parallel degree.
LLAMA_BENCH_COLUMNS = """#### Apple Silicon (snapshots in May 2024)

| GPU                        | Model     | tg 512 | tg 1024 | pp 512  | pp 1024 |
|----------------------------|-----------|--------|---------|---------|---------|
| M1 7‑Core GPU 8GB          | 8B Q4_K_M | 10.20  | 9.72    | 94.48   | 87.26   |
| M1 Max 32‑Core GPU 64GB    | 8B Q4_K_M | 35.73  | 34.49   | 408.23  | 355.45  |
|                            | 8B F16    | 18.75  | 18.43   | 517.34  | 418.77  |
"""


def test_llama_bench_tests_as_columns_are_token_rates():
    document = normalized(LLAMA_BENCH_COLUMNS)
    assert document.quarantine.height == 0
    assert document.measurements.height == 12
    found = fields_by_raw_value(
        LLAMA_BENCH_COLUMNS, "column_name", "metric", "value", "unit", "item_kind", "accelerator"
    )
    assert found["10.20"] == ("tg 512", "throughput", 10.2, "items/s", "tokens", "M1")
    assert found["355.45"] == ("pp 1024", "throughput", 355.45, "items/s", "tokens", "M1 Max")
    assert found["517.34"] == ("pp 512", "throughput", 517.34, "items/s", "tokens", "M1 Max")


# As strix-halo-testing's llm-bench sweeps llama.cpp builds on a Strix Halo: under "PP sweep"
# and "TG sweep" each column is a length of prompt or of generation, each cell the speed in
# tokens per second; "hipblaslt" flags the build's library. The speeds had been quarantined as
# naming no metric.
SWEEPS = """## Detailed Sweeps

### PP sweep
| backend                 | hipblaslt   | -fa   | -b   | 1             | 2             | 512             | 4096           |
|-------------------------|-------------|-------|------|---------------|---------------|-----------------|----------------|
| llama.cpp-hip           |             |       |      | 50.041847     | **98.781962** | 322.43959       | 269.159029     |
| llama.cpp-rocwmma       | 1           | -fa 1 |      | 48.003905     | 94.846697     | 1091.814948     | **944.065841** |

### TG sweep
| backend                 | hipblaslt   | -fa   | -b   | 1             | 2             | 512           | 4096          |
|-------------------------|-------------|-------|------|---------------|---------------|---------------|---------------|
| llama.cpp-hip           |             |       |      | 50.308884     | 50.214196     | 44.122183     | 17.816366     |
"""


def test_llama_bench_sweeps_load_their_speeds_at_each_length():
    document = normalized(SWEEPS)
    assert document.quarantine.height == 0
    assert document.measurements.height == 12  # the flag "1" under "hipblaslt" is no speed
    found = fields_by_raw_value(SWEEPS, "column_name", "metric", "value", "settings")
    assert found["1091.814948"][:3] == ("512", "throughput", 1091.814948)
    assert "hipblaslt=1" in found["1091.814948"][3]
    assert found["17.816366"][:3] == ("4096", "throughput", 17.816366)


# BitNet's README (microsoft/BitNet, src/README.md): the test its runs used named in a setup
# line over a table of perplexities.
BITNET_PERPLEXITIES = """**Perplexity Comparison:**

Test configuration: BitNet-b1.58-2B-4T, TG128

| Embedding Type | Wikitext | PTB | LAMBADA | IMDB | AG NEWS |
|:---:|:---:|:---:|:---:|:---:|:---:|
| **F32** | 17.1090±0.1278 | 33.0858±0.4886 | 43.2850±0.6363 | 29.3016±0.2890 | 36.7686±0.3920 |
| **Q4_0** | 17.3529±0.1300 | 33.7754±0.5001 | 44.4552±0.6559 | 30.1044±0.2978 | 37.3985±0.3997 |
"""


def test_a_llama_bench_test_named_in_a_setup_line_names_no_metric_of_the_table():
    found = fields_by_raw_value(BITNET_PERPLEXITIES, "column_name", "metric", "unit")
    assert found["37.3985±0.3997"] == ("AG NEWS", "accuracy", "score")
