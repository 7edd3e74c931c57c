"""Reading gaps found on LLM inference benchmark pages of publishers not studied before: pipe
tables stacked under their headings with no blank line between; the metric words of such
pages (token generation rates, accepted tokens of speculative decoding, a time per run)."""

from __future__ import annotations

from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import normalized

# As h2oai/h2ogpt's perf.md gives one table per model and number of GPUs, each right under its
# heading lines, no blank line anywhere on the page (two of its tables quoted, rows cut).
H2OGPT_PERF = """## Backend: transformers
### Model: h2oai/h2ogpt-4096-llama2-7b-chat
### Number of GPUs: 1
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    31.8619 |                        41.9433  |
|     16 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                    32.2947 |                        40.9252  |
|     16 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                    67.9752 |                        18.0571  |
|      8 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                   114.622  |                         9.21246 |
|      8 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    94.1774 |                         8.95532 |
|      8 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   185.146  |                         4.35807 |
|      4 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                    39.544  |                        32.571   |
### Number of GPUs: 2
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 2 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    32.1395 |                        40.3871  |
|     16 | 2 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                    71.4808 |                        17.7518  |
|      8 | 2 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    95.7178 |                         9.06591 |
|      8 | 2 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   186.884  |                         4.35012 |
### Model: h2oai/h2ogpt-4096-llama2-13b-chat
### Number of GPUs: 1
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    52.4984 |                        26.2487  |
|     16 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   OOM      |                       OOM       |
"""


def test_pipe_tables_stacked_under_headings_without_blank_lines_are_read_as_tables():
    parsed, layout = parse_document(H2OGPT_PERF.encode(), "text/markdown")
    assert layout == "pipe_table"
    assert parsed.cells["table_index"].unique().sort().to_list() == [0, 1, 2]
    read = normalized(H2OGPT_PERF)
    # 13 rows of two results each: 24 values and the two OOM cells quarantined as placeholders
    assert read.measurements.height == 24
    assert sorted(read.quarantine["check"].to_list()) == ["placeholder_value"] * 2
    by_raw = {
        row["raw_value"]: (row["metric"], row["unit"], row["value"], row["accelerator"])
        + (row["accelerator_count"],)
        for row in read.measurements.iter_rows(named=True)
    }
    assert by_raw["40.3871"] == ("throughput", "items/s", 40.3871, "RTX 6000 Ada", 2)
    assert by_raw["186.884"] == ("latency", "ms", 186884.0, "RTX 3090", 2)
    assert by_raw["52.4984"] == ("latency", "ms", 52498.4, "RTX 6000 Ada", 1)


# As pytorch-labs/gpt-fast's README introduces its Mixtral table: the paragraph praises the
# model ("high-quality") and names the numbers ("token generation rates").
GPT_FAST_MIXTRAL = """### Mixtral 8x7B
We also supported [Mixtral 8x7B](https://mistral.ai/news/mixtral-of-experts/) which is a high-quality sparse mixture of experts (MoE) model, the average token generation rates are:

|                  |   1 GPU |    2 GPU  | 4 GPU  |    8 GPU   |
|------------------|---------|-----------|--------|------------|
|baseline(bfloat16)|    OOM  |    96.67  | 155.35 |  227.82    |
|        int8      |   97.92 |   155.03  | 216.87 |  279.35    |
"""

# As hemingkx/Spec-Bench's Leaderboard.md gives speedups beside the tokens a verification step
# accepts (one table, two rows quoted).
SPEC_BENCH_3090 = """## Leaderboard on 3090

- Device: a single NVIDIA GeForce RTX 3090 GPU (24GB) with 12 CPU cores
- Experimental Settings: Vicuna-7B-v1.3, greedy decoding, FP16 precision, batch size = 1

| Models | Multi-turn Conversation | Translation | #Mean Accepted Tokens |  Overall  |
| ------ | :---------------------: | :---------: | :-------------------: | :-------: |
| [EAGLE2](https://github.com/SafeAILab/EAGLE)🏅 | **2.71x** | **1.82x** | **4.36** | **2.25x** |
| [Hydra](https://github.com/zankner/hydra) | 2.04x | 1.67x | 3.26 | 1.80x |
"""

# As maxbengtsson10/Tenstorrent-paper's pytorch/scores.md: "scores" in its heading, times with
# no unit in two columns.
TENSTORRENT_PAPER_SCORES = """# All scores are computed using a fixed window size of 512 and 5 runs

| Compute Type | Compute Name               | Tokens/Sec | Per Run Time | Total Time |
| :----------- | :------------------------- | :--------: | :----------: | :--------: |
| GPU          | Nvidia T4                  | 25.86      | 19.76        | 98.79      |
| GPU          | Nvidia L4                  | 52.82      | 9.68         | 48.38      |
"""


def test_token_generation_rates_name_a_throughput_and_high_quality_names_no_accuracy():
    read = normalized(GPT_FAST_MIXTRAL).measurements
    assert read.height == 7
    assert set(read["metric"]) == {"throughput"}
    assert set(read["unit"]) == {"items/s"}


def test_accepted_tokens_of_speculative_decoding_are_no_speedup():
    by_raw = {
        row["raw_value"]: (row["metric"], row["unit"], row["statistic"])
        for row in normalized(SPEC_BENCH_3090).measurements.iter_rows(named=True)
    }
    assert by_raw["4.36"] == ("other", "score", "mean")
    assert by_raw["3.26"] == ("other", "score", "mean")
    assert by_raw["2.25x"] == ("speedup", "x", None)
    assert by_raw["1.67x"] == ("speedup", "x", None)


def test_a_time_per_run_with_no_unit_is_quarantined_not_read_as_the_headings_score():
    read = normalized(TENSTORRENT_PAPER_SCORES)
    assert sorted(read.measurements["raw_value"]) == ["25.86", "52.82"]
    assert set(read.measurements["metric"]) == {"throughput"}
    quarantined = dict(zip(read.quarantine["raw_value"], read.quarantine["check"], strict=True))
    assert quarantined == {
        "19.76": "unknown_metric",
        "9.68": "unknown_metric",
        "98.79": "unknown_metric",
        "48.38": "unknown_metric",
    }


# As pytorch-labs/gpt-fast's README gives each model's quantization in a column it heads
# "Technique" (rows cut).
GPT_FAST_BENCHMARKS = """## Benchmarks
Benchmarks run on an 8xA100-80GB, power limited to 330W with a hybrid cube mesh topology. Note that all benchmarks are run at *batch size=1*, making the reported tokens/s numbers equivalent to "tokens/s/user". In addition, they are run with a very small prompt length (just 5 tokens).

| Model    | Technique | Tokens/Second | Memory Bandwidth (GB/s) |
| -------- | ------- | ------ | ------ |
| Llama-2-7B  | Base    |  104.9  | 1397.31 |
|           | 8-bit   | 155.58   | 1069.20 |
|           | 4-bit (G=32)   | 196.80   | 862.69 |
| Llama-2-70B | Base    | OOM     ||
|           | 8-bit   | 19.13    | 1322.58 |
"""

# As mstnegate/int4matmul_kernels' README gives the width of its weights in a "Bits" column.
INT4MATMUL_TOKENS = """Below is the same data, but converted to tokens per second for convenience:

| Bits | Sparsity | OPT-125M | OPT-2.7B | OPT-13B | LLaMA-7B |
|------| -------- | :------: | :------: | :-----: | :------: |
|  16  |   100%   |  34.8t/s |  20.2t/s |   OOM   |   OOM    |
|   4  |   100%   |  32.3t/s |  16.5t/s |   OOM   |  8.04t/s |
"""


def test_a_column_of_widths_in_bits_labels_each_rows_precision_and_holds_no_result():
    read = normalized(GPT_FAST_BENCHMARKS)
    by_raw = {
        row["raw_value"]: (row["metric"], row["precision"], row["weight_dtype"])
        for row in read.measurements.iter_rows(named=True)
    }
    assert set(read.measurements["column_name"]) == {"Tokens/Second", "Memory Bandwidth (GB/s)"}
    assert by_raw["155.58"] == ("throughput", "8-bit", "int8")
    assert by_raw["862.69"] == ("other", "4-bit", "int4")
    assert by_raw["19.13"] == ("throughput", "8-bit", "int8")
    # "Base" names no dtype: kept as published, not replaced by the page's other words
    assert by_raw["104.9"] == ("throughput", "Base", None)
    assert read.quarantine["check"].to_list() == ["placeholder_value"]


def test_numbers_under_a_bits_header_are_widths_in_bits():
    by_raw = {
        row["raw_value"]: (row["precision"], row["activation_dtype"], row["weight_dtype"])
        for row in normalized(INT4MATMUL_TOKENS).measurements.iter_rows(named=True)
    }
    assert by_raw["34.8t/s"] == ("16-bit", "fp16", "fp16")
    assert by_raw["8.04t/s"] == ("4-bit", "int4", "int4")
    h2ogpt = {
        row["raw_value"]: row["weight_dtype"]
        for row in normalized(H2OGPT_PERF).measurements.iter_rows(named=True)
    }
    assert (h2ogpt["41.9433"], h2ogpt["9.21246"], h2ogpt["32.571"]) == ("fp16", "int8", "int4")


# As FMInference/FlexLLMGen's benchmark/batch_size_table.md lists each system's batch size under
# a heading naming it, its paragraph saying why ("... to achieve its maximum throughput"), then
# the throughputs under a heading of their own (rows cut).
FLEXLLMGEN_BATCH_SIZES = """## Effective Batch Size of Each System

### Effective Batch Size

The table below lists the effective batch size of each system.
The device in the bracket denotes the lowest level of memory hierarchy that the system needs for offloading.
The batch size is tuned for each system to achieve its maximum throughput with the following principle:
- Find a level of memory hierarchy that can hold all tensors for generation. Avoid unnecessary offloading to slower storage.
- Tune the system to use a as large as possible batch size without out-of-memory.

| System | OPT-6.7B | OPT-30B | OPT-175B |
| ------ | -------- | ------- | -------- |
| Hugging Face Accelerate  | 2  (gpu) | 8 (cpu)   | 2 (disk)   |
| FlexLLMGen                  | 2  (gpu) | 144 (cpu) | 256 (disk) |

### Generation Throughput (token/s)
We attach the generation throughput here for reference.

| System | OPT-6.7B | OPT-30B | OPT-175B |
| ------ | -------- | ------- | -------- |
| Hugging Face Accelerate   | 25.12 | 0.62 | 0.01 |
| FlexLLMGen                  | 25.26 | 7.32 | 0.69 |
"""


def test_a_table_under_a_heading_naming_a_setting_alone_takes_no_metric_from_farther_prose():
    read = normalized(FLEXLLMGEN_BATCH_SIZES)
    assert sorted(read.measurements["raw_value"]) == sorted(
        ["25.12", "0.62", "0.01", "25.26", "7.32", "0.69"]
    )
    assert set(read.measurements["metric"]) == {"throughput"}
    assert set(read.quarantine["check"]) == {"unknown_metric"}
    assert sorted(read.quarantine["raw_value"]) == sorted(
        ["2  (gpu)", "8 (cpu)", "2 (disk)", "2  (gpu)", "144 (cpu)", "256 (disk)"]
    )


# As ztxz16/fastllm's docs/benchmark.md names each model's weights in its name and the data's
# precision in a column (rows cut).
FASTLLM_BENCHMARK = """|              模型 | Data精度 | 平台               | Batch    | 最大推理速度(token / s) |
|-----------------:|---------|--------------------|-----------|---------------------:|
| ChatGLM-6b-int4  | float32 |  RTX 4090          |         1 |                  176 |
| ChatGLM-6b-int8  | float32 |  RTX 4090          |         1 |                  121 |
| ChatGLM-6b-fp16  | float32 |  RTX 4090          |        64 |                 2919 |
"""


def test_the_datas_precision_is_the_activations_and_the_model_name_gives_the_weights():
    by_raw = {
        row["raw_value"]: (row["activation_dtype"], row["weight_dtype"], row["batch_size_number"])
        for row in normalized(FASTLLM_BENCHMARK).measurements.iter_rows(named=True)
    }
    assert by_raw == {
        "176": ("fp32", "int4", 1),
        "121": ("fp32", "int8", 1),
        "2919": ("fp32", "fp16", 64),
    }


# As jzhang38/TinyLlama's README explains a jump between two checkpoints in a note between its
# base and chat models' tables (one row quoted).
TINYLLAMA_CHAT_MODELS = """We are crafting a note offering possible explaination on why there is a significant improvement from 2T to 2.5T checkpoint (It is related to [bos_id issue](https://github.com/jzhang38/TinyLlama/issues/83))

Chat models:

| Date       | HF Checkpoint                                   | Tokens | Step | Commonsense Avg |
|------------|-------------------------------------------------|--------|------| --------------- |
| 2023-09-16 | [TinyLlama-1.1B-Chat-V0.1](https://huggingface.co/PY007/TinyLlama-1.1B-Chat-v0.1)                                            | 503B   | 240K    |  49.57 |
"""


def test_an_improvement_between_two_points_named_in_passing_is_no_speedup_of_a_table():
    read = normalized(TINYLLAMA_CHAT_MODELS)
    assert "speedup" not in set(read.measurements["metric"])
    assert "x" not in set(read.measurements["unit"])


# FMInference/FlexLLMGen's README compares inference systems on one T4 under a "System" header:
# software names, known frameworks, beside throughputs (table quoted whole).
FLEXLLMGEN_SYSTEMS = """## Performance Results
### Generation Throughput (token/s)
The corresponding effective batch sizes and lowest offloading devices are in parentheses.
| System | OPT-6.7B | OPT-30B | OPT-175B |
| ------ | -------- | ------- | -------- |
| Hugging Face Accelerate  | 25.12 (2 on GPU)  | 0.62 (8 on CPU) | 0.01 (2 on disk) |
| DeepSpeed ZeRO-Inference | 9.28 (16 on CPU)  | 0.60 (4 on CPU) | 0.01 (1 on disk) |
| Petals                 | 8.25 (2 on GPU) | 2.84 (2 on GPU) | 0.08 (2 on GPU) |
| FlexLLMGen                  | 25.26 (2 on GPU) | 7.32 (144 on CPU) | 0.69 (256 on disk) |
| FlexLLMGen with Compression | **29.12** (72 on GPU) | **8.38** (512 on CPU) | **1.12** (144 on CPU) |

- Hardware: an NVIDIA T4 (16GB) instance on GCP with 208GB of DRAM and 1.5TB of SSD.
"""


def test_known_software_beside_plain_numbers_is_a_results_table_and_its_framework():
    """Rows named by known frameworks made the table a list of software settings (the list
    of several systems' versions side by side), and its 15 throughputs were lost without a
    trace. Under "System" they, and a known framework named with words of its own, name no
    device either: every row ran on the T4 the list under the table names."""
    document = normalized(FLEXLLMGEN_SYSTEMS)
    rows = document.measurements.select(
        "model", "framework", "accelerator", "metric", "value"
    ).rows()
    assert len(rows) == 15
    assert ("OPT-30B", "DeepSpeed ZeRO-Inference", "T4", "throughput", 0.6) in rows
    assert ("OPT-6.7B", "Hugging Face Accelerate", "T4", "throughput", 25.12) in rows
    assert ("OPT-175B", "FlexLLMGen", "T4", "throughput", 0.69) in rows
    assert ("OPT-30B", "FlexLLMGen with Compression", "T4", "throughput", 8.38) in rows
