"""The nearest scope wins: what a table's own note states beats what the page says of other
tables, and a header naming metrics of its own takes none from a paragraph; quoted from real
pages as they write them."""

from __future__ import annotations

import polars as pl

from tests.schemas.page_reading import fields_by_raw_value, normalized

# TensorRT-LLM, docs/source/blogs/Falcon180B-H200.md: the page's heading names the Falcon
# run's INT4 AWQ; the note under the Llama-70B table states that table's FP8.
FALCON_AND_LLAMA = """# Falcon-180B on a single H200 GPU with INT4 AWQ, and 6.7x faster Llama-70B over A100

## Falcon-180B on a single H200 with INT4 AWQ

The 141GB of memory on H200, paired with TensorRT-LLM running INT4 AWQ with
FP8, allows for the entire large language model to fit on a single GPU, where
previously eight A100s were required.

## Llama-70B on H200 up to 6.7x A100

TensorRT-LLM has improved its Group Query Attention (GQA) kernels, in the
generation phase, providing up to 2.4x improvement on Llama-70B over
TensorRT-LLM v0.5, achieving over **3,800** tok/s/gpu at up to **6.7x** faster
than A100.

|Model     |GPUs | Input Length | Output Length | Throughput (out tok/s/GPU)|
|:---------|:----|:-------------|:--------------|:------|
|Llama-70B |   1 |           128|           128 | 3,803 |
|          |   1 |              |          2048 | 2,941 |

<sup>Preliminary measured performance, subject to change. </sup>
<sup>
TensorRT-LLM v0.7a |
Llama2-70B |
1xH200 = TP1, 8xH200 = max TP/PP/DP config |
FP8 |
BS: (in order) 960, 960, 192, 560, 96, 640 </sup>
"""


def test_the_note_under_a_table_states_its_precision_before_an_enclosing_heading():
    found = fields_by_raw_value(FALCON_AND_LLAMA, "precision", "activation_dtype", "accelerator")
    assert found["3,803"] == ("FP8", "fp8", "H200")
    assert found["2,941"] == ("FP8", "fp8", "H200")


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


def test_a_precision_stated_per_chip_labels_each_chip_s_rows():
    found = fields_by_raw_value(H100_VS_A100, "accelerator", "precision", "activation_dtype")
    assert found["102"] == ("H100", "FP8", "fp8")
    assert found["185"] == ("H100", "FP8", "fp8")
    assert found["3,679"] == ("A100", "FP16", "fp16")
    assert found["12.5"] == ("A100", "FP16", "fp16")
    # the speedup of FP8 H100 over FP16 A100 ran in no one precision
    assert found["1.7x"] == (None, None, None)
