"""The nearest scope wins: a header naming metrics of its own takes none from a paragraph, a
precision stated per chip labels each chip's values, and a paragraph discussing the results
under a table does not label it; quoted from real pages as they write them."""

from __future__ import annotations

import polars as pl

from tests.schemas.page_reading import fields_by_raw_value, normalized

# D-Robotics rdk_model_zoo, demos/classification/README.md: a paragraph about top-1 accuracy,
# then a table whose "Latency/throughput" headers name two metrics over one unit-less number.
CLASSIFICATION = """## 1. Introduction to Model Classification

For the evaluation of image recognition results based on ImageNet, two accuracy indicators
are often used, one is top-1 accuracy and the other is top-5 accuracy.

## 2. Model Performance Data

| Architecture   | Model       | Size    | Categories | Parameter | Floating point Top-1 | Quantization Top-1 | Latency/throughput (single-threaded) | Latency/throughput (multi-threaded) | Frame rate(FPS) |
| ----------- | -------------------------- | ----------- | -------- | --------- | --------- | --------- | ----------- | ----------- | ----------- |
| Transformer | EdgeNeXt_base              | 224x224     | 1000     | 18.51     | 78.21     | 74.52     | 8.80        | 32.31       | 113.35      |
|             | EdgeNeXt_small             | 224x224     | 1000     | 5.59      | 76.50     | 71.75     | 4.41        | 14.93       | 226.15      |
"""  # noqa: E501


def test_a_header_naming_two_metrics_takes_no_metric_of_the_context():
    result = normalized(CLASSIFICATION)
    loaded = {row["raw_value"]: row["metric"] for row in result.measurements.iter_rows(named=True)}
    assert loaded["78.21"] == "accuracy" and loaded["113.35"] == "throughput"
    assert not {"8.80", "32.31", "4.41", "14.93"} & set(loaded)
    quarantined = result.quarantine.filter(pl.col("check") == "unknown_metric")
    assert sorted(quarantined.get_column("raw_value").to_list()) == [
        "14.93",
        "32.31",
        "4.41",
        "8.80",
    ]
    reason = quarantined.filter(pl.col("raw_value") == "8.80").get_column("reason").item()
    assert reason.startswith(
        "column 'Latency/throughput (single-threaded)' names more than one metric"
    )
    assert "ambiguous" in reason


# TensorRT-LLM, docs/source/blogs/H100vsA100.md: one table of both chips, under bold rows
# naming each, noted "FP8 H100, FP16 A100"; the page's prose speaks of "H100 FP8" alone.
H100_VS_A100 = """# H100 has 4.6x A100 Performance in TensorRT-LLM, achieving 10,000 tok/s at 100ms to first token

TensorRT-LLM evaluated on both Hopper and Ampere shows **H100 FP8 is up to 4.6x max throughput and 4.4x faster 1st token latency than A100**.

**Max Throughput & Min Latency**
| Model                        | Batch Size | Input Length | Output Length | Throughput (out tok/s) | 1st Token Latency (ms) |
| :--------------------------- | :--------- | :----------- | :------------ | ---------------------: | ---------------------: |
| **H100**
| GPT-J 6B                     | 64         | 128          | 128           |             **10,907** |                    102 |
| GPT-J 6B                     | 1          | 128          | -             |                    185 |                **7.1** |
| **A100** |
| GPT-J 6B                     | 64         | 128          | 128           |                  3,679 |                    481 |
| GPT-J 6B                     | 1          | 128          | -             |                    111 |                   12.5 |
| **Speedup** |
| GPT-J 6B                     | 64         | 128          | 128           |               **3.0x** |               **4.7x** |
| GPT-J 6B                     | 1          | 128          | -             |               **2.4x** |                   1.7x |

<sub>FP8 H100, FP16 A100, SXM 80GB GPUs, TP1, ISL/OSL's provided, TensorRT-LLM v0.5.0., TensorRT 9.1</sub>
"""  # noqa: E501


def test_a_bold_cell_alone_on_its_row_groups_the_rows_under_it():
    # "| **H100**": the chip alone on its row, the row's other cells left out
    found = fields_by_raw_value(H100_VS_A100, "accelerator", "metric")
    assert found["102"] == ("H100", "latency")
    assert found["10,907"] == ("H100", "throughput")
    assert found["3,679"] == ("A100", "throughput")
    assert found["481"] == ("A100", "latency")
    assert normalized(H100_VS_A100).quarantine.height == 0


def test_a_precision_stated_per_chip_labels_each_chip_s_rows():
    found = fields_by_raw_value(H100_VS_A100, "accelerator", "precision", "activation_dtype")
    assert found["102"] == ("H100", "FP8", "fp8")
    assert found["185"] == ("H100", "FP8", "fp8")
    assert found["3,679"] == ("A100", "FP16", "fp16")
    assert found["12.5"] == ("A100", "FP16", "fp16")
    # the speedup of FP8 H100 over FP16 A100 ran in no one precision
    assert found["1.7x"] == (None, None, None)


# vLLM blog, 2026-08-17 distributed layerwise offload (MiniMax-H3 section): the paragraph
# under the table compares throughputs and latencies of the runs; it is no note labelling the
# table, so the caption above ("per-wave latency") and the cells' own seconds decide.
DISCUSSED_BELOW = """#### MiniMax-H3 on 8× B300: DLO mode is topology-dependent

*Figure 7: The measured service frontier within the three evaluated routes. Increasing DP trades per-wave latency for concurrent output capacity; the preferred DLO mode changes from AllGather to rank-local at DP8×SP1.*

| Service objective | Topology / DLO mode | Wave P50 | Wave P95 | Sustained throughput |
|-------------------|---------------------|:--------:|:--------:|:--------------------:|
| Lowest latency | DP1×SP8 / AllGather | 34.55s | 35.25s | 103.84 videos/h |
| Balanced knee | DP4×SP2 / AllGather | 94.73s | 95.31s | 151.89 videos/h |

The paired five-wave mode comparison explains why there is no single global DLO policy. At DP1×SP8, AllGather uses the SP group and improves throughput by 129.4% while reducing P50 latency by 56.6%. At DP4×SP2, its throughput benefit narrows to 2.2%. At DP8×SP1, AllGather reduces throughput by 4.1%, increases P50 latency by 3.8%, and raises the measured per-GPU peak from 20.03 to 94.03 GiB, so rank-local DLO is preferred.
"""


def test_a_paragraph_discussing_the_results_below_a_table_does_not_label_it():
    found = fields_by_raw_value(DISCUSSED_BELOW, "metric", "statistic", "value")
    assert found["34.55s"] == ("latency", "p50", 34550.0)
    assert found["95.31s"] == ("latency", "p95", 95310.0)
    assert normalized(DISCUSSED_BELOW).quarantine.height == 0


# As ROCm/rocm-blogs shows it (blogs/high-performance-computing/jacobi/README.md): a
# heading whose last word is "map" over a table of kernel timings and their shares.
KERNEL_SHARES = """# Jacobi Solver with HIP and OpenMP offloading

### Unstructured target data map

The following Table summarizes the timings of the main kernels of the Jacobi solver with
OpenMP offload implementation, on one GCD of a MI250 GPU.

|Kernels             | Avg Time (ms) | Percentage |
|:------------------:|:-------------:|:----------:|
| Update             | 0.51          | 57.9       |
| Laplacian          | 0.25          | 27.6       |
"""


def test_the_word_map_in_a_heading_names_no_score():
    found = fields_by_raw_value(KERNEL_SHARES, "metric", "unit")
    assert found["0.51"] == ("latency", "ms")
    # The shares name no metric: set apart with that reason, never read as an "mAP".
    assert "57.9" not in found
    quarantine = normalized(KERNEL_SHARES).quarantine
    assert set(quarantine.filter(quarantine["raw_value"] == "57.9")["check"]) == {"unknown_metric"}


# TensorRT-LLM, docs/source/blogs/Falcon180B-H200.md (commit 3c44cb97): the page's title is
# about Falcon-180B with INT4 AWQ; the Llama-70B table under its own section is noted "FP8".
FALCON_PAGE = """# Falcon-180B on a single H200 GPU with INT4 AWQ, and 6.7x faster Llama-70B over A100

## Llama-70B on H200 up to 6.7x A100

TensorRT-LLM has improved its Group Query Attention (GQA) kernels, in the
generation phase, providing up to 2.4x improvement on Llama-70B over
TensorRT-LLM v0.5, achieving over **3,800** tok/s/gpu at up to **6.7x** faster
than A100.

**H200 6.7x A100**

|Model     |GPUs | Input Length | Output Length | Throughput (out tok/s/GPU)|
|:---------|:----|:-------------|:--------------|:------|
|Llama-70B |   1 |           128|           128 | 3,803 |
|          |   8 |              |               | 3,803 |
|          |   1 |              |          2048 | 2,941 |



<sup>Preliminary measured performance, subject to change. </sup>
<sup>
TensorRT-LLM v0.7a |
Llama2-70B |
1xH200 = TP1, 8xH200 = max TP/PP/DP config |
FP8 |
BS: (in order) 960, 960, 192, 560, 96, 640 </sup>

**TensorRT-LLM GQA now 2.4x faster on H200**

[**Grouped Query Attention (GQA)**](https://arxiv.org/abs/2305.13245v2)
(Ainslie et al., 2023), used in Llama-70B, is a variant of Multihead Attention
(MHA) which groups key-value (KV) heads together, resulting in fewer KV heads
than query (Q) heads. TensorRT-LLM has a custom implementation of MHA which
supports GQA, multi-query attention (MQA) and standard MHA. It leverages Tensor
Cores, including in the generation phase, and delivers great performance on
NVIDIA GPUs.
"""


def test_a_brief_note_under_a_table_states_its_precision_before_enclosing_headings():
    found = fields_by_raw_value(FALCON_PAGE, "accelerator", "precision", "activation_dtype")
    assert found["2,941"] == ("H200", "FP8", "fp8")  # not the title's "INT4 AWQ"
    sources = normalized(FALCON_PAGE).measurements["label_sources"].to_list()
    assert all("precision=note" in source and "metric=column" in source for source in sources)


def test_a_note_under_a_table_gives_no_metric_before_the_headings():
    # the section paragraph names a throughput ("tok/s/gpu") and the note names none: the
    # column's own metric stands, and the note is read for hardware and precision only
    found = fields_by_raw_value(FALCON_PAGE, "metric", "unit")
    assert found["3,803"] == ("throughput", "items/s")


# PaddlePaddle/FastDeploy, docs/en/faq/boost_cv_by_flycv.md: the line under the first table
# names the hardware of the next one; it is that table's caption, no note of the first.
FLYCV = """## Some Platforms FlyCV End-to-End Inference Performance

KunPeng 920 CPU + Atlas 300I Pro.
| Model | OpenCV E2E Performance(ms) | FlyCV E2E Performance(ms) |
| :-----------| :--------   | :--------   |
|   ResNet50     | 2.78  | 1.63  |
|   PP-LCNetV2   |  2.50 |  1.39   |


Rockchip RV1126.

| Model | OpenCV E2E Performance(ms) | FlyCV E2E Performance(ms) |
| :-----------| :--------   | :--------   |
|   ResNet50     | 9.23  | 6.01  |
"""

# vllm-project/vllm-ascend, the fine-grained TP guide: a sentence under the table discusses
# the gains ("on a single card"); the 32 cards of the paragraph above stay the count.
DISCUSSED_CARD = """## Experimental Results

To evaluate the effectiveness of fine-grained TP in large-scale service scenarios, we use the model **DeepSeek-R1-W8A8**, deploy PD separated decode instances in an environment of 32 cards Ascend Atlas A2 inference products*64G (A2), with parallel configuration as DP32+EP32, and fine-grained TP size of 8; the performance data is as follows.

| Module           | Memory Savings | TPOT Impact (batch=24)    |
| ---------------- | -------------- | ------------------------- |
| o_proj TP = 8    | 5.8 GB         | **+1.5 ms** (degradation) |

- We achieved significant gains in terms of high memory capacity on a single card, as well as the benefits of TPOT.
"""  # noqa: E501


def test_a_line_under_a_table_introducing_the_next_one_is_no_note_of_it():
    found = fields_by_raw_value(FLYCV, "accelerator")
    assert found["2.78"] == ("Ascend 310P",)  # its own line above: "Atlas 300I Pro"
    assert found["9.23"] == ("RV1126",)


def test_a_sentence_discussing_the_results_under_a_table_is_no_note():
    found = fields_by_raw_value(DISCUSSED_CARD, "accelerator_count")
    assert found["5.8 GB"] == (32,)
