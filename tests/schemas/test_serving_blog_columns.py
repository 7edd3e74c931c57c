"""Columns of LLM-serving blog posts (vllm-project/vllm-project.github.io, _posts/) whose header
names no metric the vocabularies know: what the header's own unit, acronym or percentage says
wins over the metric the post's prose or caption names; quoted from the posts' own cells."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# 2026-04-22-fp8-kvcache.md, Table 4: the caption speaks of "higher output throughput", the
# run's total duration is in seconds.
FP8_KV_CACHE_LOAD = """# FP8 KV-cache

*Table 4: Performance results for Llama-3.1-8B model under heavy throughput load and KV-cache in BF16 and FP8 formats. FP8 shows 14.9% higher output throughput, 13.0% faster total runtime, and 14.8% lower median ITL.*

| Config | Median TTFT (ms) | Median ITL (ms) | Total duration (s) | Output tok/s |
| :---- | :---: | :---: | :---: | :---: |
| BF16 | 763.6 | 15.18 | 672.6 | 450.3 |
| FP8 | 742.8 | 12.93 | 585.2 | 517.5 |
"""


def test_a_header_stating_seconds_is_no_throughput_the_caption_names():
    document = normalized(FP8_KV_CACHE_LOAD)
    rows = document.measurements.filter(
        document.measurements["column_name"] == "Total duration (s)"
    )
    assert rows.select("raw_value", "metric", "value", "unit").rows() == [
        ("672.6", "time_to_result", 672.6, "s"),
        ("585.2", "time_to_result", 585.2, "s"),
    ]
    assert document.quarantine.height == 0
    throughput = document.measurements.filter(
        document.measurements["column_name"] == "Output tok/s"
    )
    assert throughput.select("raw_value", "metric").rows() == [
        ("450.3", "throughput"),
        ("517.5", "throughput"),
    ]


# 2026-07-01-qwen3-omni-optimization.md: "Mean audio TTFP" (time to first audio packet) after
# "Req/s" is no mean of the request rate.
QWEN3_OMNI_STEPS = """# Qwen3-Omni

| Step | Config added | Talker / Code2Wav replicas | Req/s | Mean audio TTFP | Mean audio RTF |
|---|---|---|---:|---:|---:|
| Baseline | Batch | 1 / 1 | 2.2 | 5884 ms | 1.15 |
| + CUDA Graph | Graph capture on Thinker, Talker, Code2Wav | 1 / 1 | 8.6 (+299%) | 2790 ms (−53%) | 0.59 (−49%) |
"""


def test_a_statistic_of_a_quantity_named_by_an_acronym_is_not_the_left_columns_metric():
    document = normalized(QWEN3_OMNI_STEPS)
    rows = document.measurements.filter(
        (document.measurements["column_name"] == "Mean audio TTFP")
        & (document.measurements["unit"] == "ms")
    )
    assert rows.select("raw_value", "metric", "value", "statistic").rows() == [
        ("5884 ms", "latency", 5884.0, "mean"),
        ("2790 ms (−53%)", "latency", 2790.0, "mean"),
    ]
    assert document.quarantine.height == 0


# 2025-12-19-vllm-omni-diffusion-cache-acceleration.md: a pictograph after the speedup.
DIFFUSION_CACHE = """# Diffusion cache acceleration

| Model | Cache Backend | Baseline (s) | With Cache (s) | Speedup |
|-------|---------------|--------------|----------------|---------|
| Qwen-Image | TeaCache | 20.42 | 10.71 | 1.91x ⚡ |
| Qwen-Image | Cache-DiT | 20.42 | 8.58 | 2.38x ⚡ |
"""


def test_a_pictograph_after_a_figure_is_decoration():
    document = normalized(DIFFUSION_CACHE)
    speedups = document.measurements.filter(document.measurements["metric"] == "speedup")
    assert speedups.select("raw_value", "value", "unit").rows() == [
        ("1.91x ⚡", 1.91, "x"),
        ("2.38x ⚡", 2.38, "x"),
    ]
    assert document.quarantine.height == 0


# 2025-10-26-sleep-mode.md: "65% faster" beside "45x faster" under "Improvement".
SLEEP_MODE = """# Sleep mode

| Metric | No Sleep | Level 2 | Improvement |
|--------|----------|---------|-------------|
| **Total Time (5 switches)** | 357.1s | 124.6s | **65% faster** |
| **Qwen3-0.6B Switch Time** | 37.6s avg | 0.85s avg | **45x faster** |
"""


def test_a_percentage_saying_which_way_it_goes_is_a_change_not_a_ratio():
    document = normalized(SLEEP_MODE)
    rows = document.measurements.filter(document.measurements["column_name"] == "Improvement")
    assert rows.sort("row_number").select("raw_value", "metric", "value", "unit").rows() == [
        ("65% faster", "other", 65.0, "%"),
        ("45x faster", "speedup", 45.0, "x"),
    ]
    assert document.quarantine.height == 0


# 2026-08-17-distributed-layerwise-offload.md: things counted that no vocabulary names.
LAYERWISE_OFFLOAD = """# Distributed layerwise offload

| Strategy | outputs/wave | wave latency | throughput | output SHA |
|----------|:------------:|:------------:|:----------:|:----------:|
| DLO+AG DP4 | 4 | 38.79s | 0.1033 outputs/s | c5d38f5d... |
| HSDP+USP4 | 1 | 15.38s | 0.0653 outputs/s | c5d38f5d... |
"""


def test_a_count_of_any_thing_over_a_time_is_a_rate():
    document = normalized(LAYERWISE_OFFLOAD)
    rates = document.measurements.filter(document.measurements["metric"] == "throughput")
    assert rates.select("raw_value", "value", "unit", "item_kind").rows() == [
        ("0.1033 outputs/s", 0.1033, "items/s", "outputs"),
        ("0.0653 outputs/s", 0.0653, "items/s", "outputs"),
    ]


# 2026-04-22-fp8-kvcache.md, Table 3, under a paragraph on ITL slopes in ms/token on H100.
FP8_SLOPES = """# FP8 KV-cache

The fitted ITL slope drops from `8.94e-06` ms/token in BF16 to `7.14e-06` in full FP8 on H100.

| Model | Version | FP8 variant | Break-even (tokens) | FP8 slope (% of BF16) |
| :---- | :---- | :---- | :---: | :---: |
| Llama-3.1-8B | before (v0.10.2) | FP8 | 24,889 | 63% |
| gpt-oss-20b | after (v0.19.1) | FP8 skip-SW | **7,659** | 71% |
"""


def test_a_percentage_beside_latencies_is_a_share_of_one_not_a_latency():
    document = normalized(FP8_SLOPES)
    rows = document.measurements.filter(
        document.measurements["column_name"] == "FP8 slope (% of BF16)"
    )
    assert rows.select("raw_value", "metric", "value", "unit", "accelerator").rows() == [
        ("63%", "other", 63.0, "%", "H100"),
        ("71%", "other", 71.0, "%", "H100"),
    ]


# 2026-03-13-p-eagle.md: the caption over the table abbreviates what its prose defined, and
# the throughput unit of an earlier paragraph is not the unit of its values.
P_EAGLE_ACCEPTANCE = """# P-EAGLE

We benchmark on a single NVIDIA B200. Figure 5: HumanEval throughput (TPS) for P-EAGLE vs EAGLE-3 on GPT-OSS-20B.

In addition to reducing drafting overhead, P-EAGLE's throughput gains are also driven by better acceptance length (AL), the average number of draft tokens accepted by the verifier per speculation round.

**P-EAGLE (AL):**

| Config | HumanEval | SPEED-Bench | MT-Bench |
| :----- | :-------- | :---------- | :------- |
| K=3    | 3.02      | 2.87        | 2.87     |
| K=7    | 3.94      | 3.38        | 3.70     |
"""


def test_an_abbreviation_the_prose_defines_names_the_metric_of_a_caption_using_it():
    found = fields_by_raw_value(P_EAGLE_ACCEPTANCE, "metric", "unit", "row_label")
    assert found["3.02"] == ("other", "score", "K=3")
    assert found["3.70"] == ("other", "score", "K=7")


# 2026-07-13-eagle-3-amd-instinct.md: "FSDP2" is PyTorch's second FSDP API, no two chips.
EAGLE3_DRAFT_QUALITY = """# EAGLE3 Speculative Decoding on AMD Instinct GPUs

3. Cold-start FSDP2 training. The single-layer EAGLE3 draft head is trained from scratch with a training-time-test (TTT) loss and position-decay weighting under FSDP2.

### Draft quality on SPEED-Bench: 11 domains and long context

| Domain        | Acceptance length (AL) |
|---------------|------------------------|
| Coding        | 3.32                   |
| **Average**   | **2.80**               |
"""


def test_fsdp2_written_tight_names_the_api_not_a_count_of_chips():
    found = fields_by_raw_value(EAGLE3_DRAFT_QUALITY, "metric", "accelerator_count")
    assert found["3.32"] == ("other", None)


# 2025-12-19-vllm-omni-diffusion-cache-acceleration.md: the chips the benchmark ran on, named
# in the plural with no count, above the table.
DIFFUSION_CACHE_ON_H200 = """# Diffusion cache acceleration

## Performance Benchmarks

We benchmarked these methods on NVIDIA H200 GPUs using **Qwen-Image** (1024x1024 generation). The results are impressive:

| Model | Backend | Configuration | Time | Speedup |
| :--- | :--- | :--- | :--- | :--- |
| **Qwen-Image** | Baseline | None | 20.0s | 1.0x |
| **Qwen-Image** | **TeaCache** | `rel_l1_thresh=0.2` | 10.47s | **1.91x** ⚡ |
"""


def test_chips_a_sentence_says_the_benchmark_ran_on_are_its_chips_without_a_count():
    found = fields_by_raw_value(DIFFUSION_CACHE_ON_H200, "accelerator", "accelerator_count")
    assert found["1.0x"] == ("H200", None)
    assert found["1.91x ⚡"] == ("H200", None)


# awslabs awsome-distributed-ai, Megatron-Bridge Qwen3-235B results: three figures a cell,
# in the order the note above the table names; only the first reads as a value.
THREE_FIGURES_A_CELL = """# Qwen3-235B results

Each cell: mean iter s · TFLOP/s/GPU · tok/s

| Config | 64 GPUs | 128 GPUs |
|---|---|---|
| TP4 PP8 | 15.76 s · 153.9 · 66.5k | 8.12 s · 149.2 · 129.1k |
"""


def test_figures_left_where_a_unit_would_stand_are_set_apart_not_lost():
    document = normalized(THREE_FIGURES_A_CELL)
    assert sorted(document.measurements.get_column("value").to_list()) == [8.12, 15.76]
    reasons = {row["raw_value"]: row["reason"] for row in document.quarantine.iter_rows(named=True)}
    assert reasons["15.76 s · 153.9 · 66.5k"].startswith(
        "'15.76 s · 153.9 · 66.5k' holds a second figure, 's · 153.9 · 66.5k'"
    )
    assert "8.12 s · 149.2 · 129.1k" in reasons
