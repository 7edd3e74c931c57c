"""Training-performance summaries of data-center publishers no corpus holds: a framework's
per-model tables whose System column names a rack-scale system beside the GPU count the run
used, a blog's time-to-train table counting the GPUs of a chip it names in its header, and a
trainer's scaling tables written with the settings of the run (micro batches, ZeRO sharding)
beside its tokens per GPU per second."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As NVIDIA-NeMo/Megatron-Bridge's docs/performance-summary.md writes its tables (26.08 NeMo
# Container), each under a "#### Model: NAME" heading.
BRIDGE_SUMMARY = """# Performance

## 26.08 NeMo Container

### Pre-Training Performance

#### Model: DeepSeekV4 Flash

| System | #-GPUs | Precision | GBS | MBS | Sequence Length | TP | PP | CP | VP | EP | Tokens / sec / GPU | Model TFLOP / sec / GPU |
|--------|--------|-----------|-----|-----|-----------------|----|----|----|----|----|-----------------------|-------------------------|
| DGX-GB300 | 128 | MXFP8 | 2048 | 1 | 4096 | 1 | 1 | 1 | n/a | 64 | 8224 | 748 |
| DGX-GB200 | 128 | MXFP8 | 2048 | 1 | 4096 | 1 | 1 | 1 | n/a | 64 | 7776 | 706 |

#### Model: Nemotron_3_5_Lightning

| System | #-GPUs | Precision | GBS | MBS | Sequence Length | TP | PP | CP | VP | EP | Tokens / sec / GPU | Model TFLOP / sec / GPU |
|--------|--------|-----------|-----|-----|-----------------|----|----|----|----|----|-----------------------|-------------------------|
| DGX-GB200 | 8 | MXFP8 | 512 | 2 | 8192 | 1 | 1 | 1 | n/a | 8 | 28672 | 807 |
"""


def test_the_gpu_count_column_outranks_the_count_its_system_implies():
    found = fields_by_raw_value(
        BRIDGE_SUMMARY, "accelerator", "system", "accelerator_count", "activation_dtype"
    )
    # a GB300 NVL72 system holds 72 GPUs; the run used 128 of them, no one such system
    assert found["8224"] == ("GB300", "128x GB300", 128, "fp8")
    assert found["706"] == ("GB200", "128x GB200", 128, "fp8")
    assert found["28672"][2] == 8


def test_a_heading_written_as_a_setup_line_names_the_model_of_its_table():
    found = fields_by_raw_value(BRIDGE_SUMMARY, "model", "model_canonical", "metric", "unit")
    assert found["8224"] == ("DeepSeekV4 Flash", "DeepSeek-V4 Flash", "throughput", "items/s")
    assert found["807"][:2] == ("Nemotron_3_5_Lightning", "Nemotron_3_5_Lightning")


# As microsoft/DeepSpeed's docs/_posts/2020-05-28-fastest-bert-training.md writes its
# BERT-Large pre-training times.
BERT_TIMES = """# Microsoft DeepSpeed achieves the fastest BERT training time

| Number of nodes | Number of V100 GPUs | Time         |
| --------------- | ------------------- | ------------ |
| 1 DGX-2         | 16                  | 33 hr 13 min |
| 4 DGX-2         | 64                  | 8 hr 41 min  |
| 64 DGX-2        | 1024                | 44 min       |
"""


def test_a_count_header_naming_its_chip_counts_the_run_s_devices():
    reading = read_header("Number of V100 GPUs")
    assert (reading.kind, reading.role, reading.platform.accelerator) == (
        "config",
        "accelerator_count",
        "V100",
    )
    # a chip's name alone heads results of that chip, not a count of it
    assert read_header("A100 GPUs").role != "accelerator_count"
    found = fields_by_raw_value(BERT_TIMES, "metric", "value", "accelerator", "accelerator_count")
    assert found["33 hr 13 min"] == ("time_to_train", 119580.0, "V100", 16)
    assert found["8 hr 41 min"] == ("time_to_train", 31260.0, "V100", 64)
    assert found["44 min"] == ("time_to_train", 2640.0, "V100", 1024)
    assert set(found) == {"33 hr 13 min", "8 hr 41 min", "44 min"}  # the counts are no times


# As InternLM/InternEvo's doc/en/train_performance.md writes its scaling test and its FLOPS
# test (first two rows), TGS defined in the page as tokens per GPU per second.
INTERNEVO_SCALING = """## Training Performance

| GPU Number         | 8   | 16  | 32  | 1024  |
| ---------------- | ---- | ---- | ---- | ------ |
| TGS (Tokens/GPU/Second) | 4078 | 3939 | 3919 | 3625   |
| TFLOPS  | 193 | 191  | 188  | 184    |

### FLOPS Testing

| TP | Zero1 | Pack Sample Into One | Activation Ckpt | GPU Num | Seq Len | Micro Bsz | Micro Num | Global Bsz | TGS | TFLOPS |
|-|-|-|-|-|-|-|-|-|-|-|
| 1 | 8 | TRUE | TRUE | 8 | 2048 | 8 | 1 | 0.125M | 3314 | 193 |
| 1 | 8 | TRUE | TRUE | 16 | 2048 | 8 | 1 | 0.25M | 3268 | 191 |
"""


def test_a_turned_table_s_corner_naming_a_count_counts_each_column():
    found = fields_by_raw_value(INTERNEVO_SCALING, "metric", "unit", "accelerator_count")
    assert found["4078"] == ("throughput", "items/s", 8)
    assert found["3625"] == ("throughput", "items/s", 1024)
    assert found["184"] == ("other", "TFLOP/s", 1024)


def test_a_training_run_s_micro_batches_and_sharding_are_settings_and_tgs_a_rate_per_gpu():
    rows = normalized(INTERNEVO_SCALING).measurements.filter(table_index=1)
    assert sorted(rows.get_column("column_name").unique()) == ["TFLOPS", "TGS"]
    tgs = rows.filter(column_name="TGS").sort("row_number")
    assert tgs.get_column("value").to_list() == [3314, 3268]
    assert tgs.get_column("accelerator_count").to_list() == [8, 16]
    assert tgs.get_column("rate_per").to_list() == ["accelerator", "accelerator"]
    # the run's batch is its global one; the micro batch of one GPU's step stays a setting
    assert tgs.get_column("batch_size").to_list() == ["0.125M", "0.25M"]
    assert "Micro Bsz=8" in tgs.get_column("settings")[0]
    assert "Zero1=8" in tgs.get_column("settings")[0]
    assert "Micro Num=1" in tgs.get_column("settings")[0]


# As AMD-AGI/Primus's docs_deprecated/tech_blogs/primus_pipeline/primus_pipeline.md writes its
# pipeline-schedule results (first two rows), the cluster named in the line above the table.
PRIMUS_SCHEDULES = """# Primus pipeline

- Cluster with MI355, 4 nodes, PP4, EP8, Qwen-235B model.

| PP | VPP | PP-algorithm | tokens/s/device | TFLOPS | max_memory | max_mem_percent | hbm overhead | speed up ratio |
|----|-----|--------------|----------------|--------|------------|-----------------|--------------|---------------|
| 4  | 1   | 1f1b         | 2742.4         | 406    | 261.58     | 90.83%          | 1            | 1             |
| 4  | 2   | v-half       | 2912.9         | 431.2  | 257.84     | 89.53%          | 0.98         | 1.06          |
"""


def test_an_instinct_named_without_its_suffix_is_the_one_chip_of_that_number():
    found = fields_by_raw_value(PRIMUS_SCHEDULES, "accelerator", "accelerator_count", "metric")
    assert found["2742.4"] == ("MI355X", 32, "throughput")
    assert found["431.2"] == ("MI355X", 32, "other")
    # the schedule's name and the virtual pipeline degree are settings, no values
    assert "1f1b" not in found
    assert {raw for raw in found if raw in ("1", "2")} == {"1"}  # only the speed-up ratio


# As microsoft/onnxruntime-training-examples's ImageClassification-finetune/README.md writes
# each accelerated run's figures, its gain over the plain run in bold brackets.
ORT_FINETUNE = """# Foundational Vision Models Fine-Tuning with ACPT and ONNX Runtime

| Model | Max Batch Size | Accelerators | train_runtime (sec) | train_samples_per_second |
|-------|----------------|--------------|---------------------|--------------------------|
| [google/vit-base](https://huggingface.co/google/vit-base-patch16-224) | 117 | - | 1306.508 | 1065.129 |
| [google/vit-base](https://huggingface.co/google/vit-base-patch16-224) | 221 | ORT+DS | 1215.846 **(~7.0% speedup)** | 1144.553 **(~7.5% speedup)** |
"""


def test_a_rounded_gain_in_brackets_is_read_beside_the_value():
    rows = normalized(ORT_FINETUNE).measurements.filter(raw_value="1215.846 (~7.0% speedup)")
    read = sorted(rows.select("value", "unit", "approximate", "qualifier").iter_rows())
    assert read == [(7.0, "%", True, "speedup"), (1215846.0, "ms", False, None)]
