"""Benchmark tables of technical blog posts (Markdown sources of a blog's repository): the
chip, count and model a post states once in prose or in a note under a table, quoted from the
posts' own cells."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# huggingface/blog habana-gaudi-2-benchmark.md: the note under the table names the chips of
# two columns in one sentence and the devices of every run in the next.
GAUDI2_VS_A100 = """# Faster Training and Inference: Habana Gaudi®-2 vs Nvidia A100 80GB

### Pre-Training BERT

The following table displays the throughputs we got for first-gen Gaudi, Gaudi2 and Nvidia A100 80GB GPUs:

<center>

|   | First-gen Gaudi (BS=32) | Gaudi2 (BS=32) | Gaudi2 (BS=64) | A100 (BS=32) | A100 (BS=64) |
|:-:|:-----------------------:|:--------------:|:--------------:|:-------:|:---------------------:|
| Throughput (samples/s) | 520.2 | 1580.2 | 1835.8 | 981.6 | 1082.6 |

</center>

*BS* is the batch size per device. The Gaudi runs were performed in mixed precision (bf16/fp32) and the A100 runs in fp16. All runs were *distributed* runs on *8 devices*.
"""


def test_a_bare_count_beside_several_chips_is_the_count_of_each():
    rows = normalized(GAUDI2_VS_A100).measurements.sort("column_index")
    assert rows.select("raw_value", "accelerator", "accelerator_count", "batch_size").rows() == [
        ("520.2", "Gaudi", 8, "32"),
        ("1580.2", "Gaudi2", 8, "32"),
        ("1835.8", "Gaudi2", 8, "64"),
        ("981.6", "A100", 8, "32"),
        ("1082.6", "A100", 8, "64"),
    ]


# huggingface/blog habana-gaudi-2-bloom.md: the fine-tuned BLOOMZ and its 7B checkpoint
BLOOMZ_LATENCY = """# Fast Inference on Large Language Models: BLOOMZ on Habana Gaudi2 Accelerator

### Latency

The results for inference latency are displayed in the table below (the unit is *seconds*).

| Model       | Number of devices | Gaudi2 latency (seconds) | A100-80GB latency (seconds) | First-gen Gaudi latency (seconds) |
|:-----------:|:-----------------:|:-------------------------:|:-----------------:|:----------------------------------:|
| BLOOMZ | 8 | 3.717 | 4.402 | / |
| BLOOMZ-7B | 8 | 0.737 | 2.417 | 3.029 |
"""


def test_bloomz_checkpoints_are_known_models():
    rows = normalized(BLOOMZ_LATENCY).measurements.sort("row_number", "column_index")
    assert rows.select(
        "raw_value", "model_canonical", "accelerator", "accelerator_count"
    ).rows() == [
        ("3.717", "BLOOMZ 176B", "Gaudi2", 8),
        ("4.402", "BLOOMZ 176B", "A100", 8),
        ("0.737", "BLOOMZ 7B", "Gaudi2", 8),
        ("2.417", "BLOOMZ 7B", "A100", 8),
        ("3.029", "BLOOMZ 7B", "Gaudi", 8),
    ]
    assert rows["unresolved"].to_list() == [None] * 5


# huggingface/blog habana-gaudi-2-benchmark.md: a title naming training and inference names
# the workload of none of the post's tables.
GAUDI2_STABLE_DIFFUSION = """# Faster Training and Inference: Habana Gaudi®-2 vs Nvidia A100 80GB

### Generating Images from Text with Stable Diffusion

The results we got, which are consistent with the numbers published by Habana [here](https://developer.habana.ai/resources/habana-models-performance/), are displayed in the table below.

<center>

|   | First-gen Gaudi (BS=4/8) | Gaudi2 (BS=4/8) | A100 (BS=1) |
|:-:|:----------------:|:----------------:|:-----------:|
| Latency (s/img) | 4.34 | 1.19 | 2.63 |

</center>
"""


def test_a_title_naming_training_and_inference_names_no_workload():
    rows = normalized(GAUDI2_STABLE_DIFFUSION).measurements.sort("column_index")
    assert rows.select("raw_value", "model_canonical", "workload", "value", "unit").rows() == [
        ("4.34", "Stable Diffusion", "inference", 4340.0, "ms"),
        ("1.19", "Stable Diffusion", "inference", 1190.0, "ms"),
        ("2.63", "Stable Diffusion", "inference", 2630.0, "ms"),
    ]


# huggingface/blog llama-sagemaker-benchmark.md: "None" under "Quantization" says the run was
# not quantized; it is no precision named "None".
LLAMA_SAGEMAKER = """# Llama 2 on Amazon SageMaker a Benchmark

### Best Throughput Deployment

| Model       | Quantization | Instance        | concurrent requests | Latency (ms/token) median | Throughput (tokens/second) |
| ----------- | ------------ | --------------- | ------------------- | ------------------------- | -------------------------- |
| Llama 2 7B  | None         | ml.g5.12xlarge  | 20                  | 43.99524                  | 449.9423027                |
| Llama 2 7B  | GPTQ         | g5.2xlarge      | 5                   | 34.245736                 | 120.0941633                |
"""


def test_none_under_quantization_names_no_precision():
    rows = normalized(LLAMA_SAGEMAKER).measurements.sort("row_number", "column_index")
    assert rows.select("raw_value", "precision", "weight_dtype", "settings").rows() == [
        ("43.99524", None, None, "Quantization=None; concurrent requests=20"),
        ("449.9423027", None, None, "Quantization=None; concurrent requests=20"),
        ("34.245736", "GPTQ", "int4", "concurrent requests=5"),
        ("120.0941633", "GPTQ", "int4", "concurrent requests=5"),
    ]
    assert rows["unresolved"].to_list() == [None] * 4


# huggingface/blog llama-sagemaker-benchmark.md: the paragraph's "median" is the latency
# column's, whose header states it; the throughput beside it is no median.
LLAMA_SAGEMAKER_LATENCY = """# Llama 2 on Amazon SageMaker a Benchmark

### Best Latency Deployment

The Best Latency configuration minimizes the time it takes to generate one token. Low latency is important for real-time use cases and providing a good experience to the customer, e.g. Chat applications. We looked at the lowest median for milliseconds per token during 1 concurrent request. The lowest overall latency was for Llama 2 7B on the ml.g5.12xlarge instance with 16.8ms/token.

| Model       | Quantization | Instance        | concurrent requests | Latency (ms/token) median | Thorughput (tokens/second) |
| ----------- | ------------ | --------------- | ------------------- | ------------------------- | -------------------------- |
| Llama 2 7B  | None         | ml.g5.12xlarge  | 1                   | 16.812526                 | 61.45733054                |
"""


def test_a_statistic_the_context_states_for_one_column_is_not_every_column_s():
    rows = normalized(LLAMA_SAGEMAKER_LATENCY).measurements.sort("column_index")
    assert rows.select("raw_value", "metric", "statistic", "unit").rows() == [
        ("16.812526", "latency", "p50", "ms"),
        ("61.45733054", "throughput", None, "items/s"),
    ]


# huggingface/blog bridgetower.md: the model's "contrastive loss" in the prose above is no
# metric of throughputs whose cells state "samples/s".
BRIDGETOWER = """# Accelerating Vision-Language Models: BridgeTower on Habana Gaudi2

## Benchmark

To benchmark training, we are going to fine-tune a [BridgeTower Large checkpoint](https://huggingface.co/BridgeTower/bridgetower-large-itm-mlm-itc) consisting of 866M parameters. This checkpoint was pretrained on English language using masked language modeling, image-text matching and image-text contrastive loss on [Conceptual Captions](https://huggingface.co/datasets/conceptual_captions), [SBU Captions](https://huggingface.co/datasets/sbu_captions), [MSCOCO Captions](https://huggingface.co/datasets/HuggingFaceM4/COCO) and [Visual Genome](https://huggingface.co/datasets/visual_genome).

### Making use of `dataloader_num_workers`

Here are the throughputs we got on Gaudi2 and A100:

| Device     | `dataloader_num_workers=0` | `dataloader_num_workers=1` |
|:----------:|:--------------------------:|:--------------------------:|
| Gaudi2 HPU | 532.4 samples/s            | 639.7 samples/s            |
| A100 GPU   | 188.6 samples/s            | 254.7 samples/s            |
"""


def test_a_loss_named_in_prose_is_no_metric_of_cells_stating_a_rate():
    rows = normalized(BRIDGETOWER).measurements.sort("row_number", "column_index")
    assert rows.select("raw_value", "accelerator", "metric", "value", "unit").rows() == [
        ("532.4 samples/s", "Gaudi2", "throughput", 532.4, "items/s"),
        ("639.7 samples/s", "Gaudi2", "throughput", 639.7, "items/s"),
        ("188.6 samples/s", "A100", "throughput", 188.6, "items/s"),
        ("254.7 samples/s", "A100", "throughput", 254.7, "items/s"),
    ]


# huggingface/blog gptq-integration.md: the paragraph saying what the benchmark ran states the
# batch size of the table under it.
GPTQ_SAMPLE = """# Making LLMs lighter with AutoGPTQ and transformers

This is a benchmark sample for the batch size = 1 case. The benchmark was run on a single NVIDIA A100-SXM4-80GB GPU. We used a prompt length of 512, and generated exactly 512 new tokens. The first row is the unquantized `fp16` baseline, while the other rows show memory consumption and performance using different AutoGPTQ kernels.

| gptq  | act_order | bits | group_size | kernel            | Load time (s) | Per-token latency (ms) | Throughput (tokens/s) | Peak memory (MB) |
|-------|-----------|------|------------|-------------------|---------------|------------------------|-----------------------|------------------|
| True  | False     | 4    | 128        | exllama           | 36.2          | 33.711                 | 29.663                | 10484.34         |
"""


def test_a_sentence_saying_what_the_benchmark_ran_states_the_batch_size():
    rows = (
        normalized(GPTQ_SAMPLE)
        .measurements.filter(metric=("latency"), unit="ms")
        .sort("column_index")
    )
    assert rows.select("raw_value", "accelerator", "accelerator_count", "batch_size").rows() == [
        ("33.711", "A100", 1, "1"),
    ]
