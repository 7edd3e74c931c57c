"""Structures of Markdown benchmark pages, each quoted from a public page: a device named by
the list item above each table, a table of definitions for another table's headers, tables
set side by side in the cells of a layout table, ranges and parts of a whole in cells."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import normalized

# Tencent TNN's doc/benchmark_data.md: each phone is a list item above its table.
TNN = """# v0.3 benchmark

* huawei P30 Pro(Kirin 980, Mali-G76 MP10)

| benchmark model | cpu time(thread 1,fp16, ms) | gpu time(ms) |
|-----------------|-----------------------------|--------------|
| DenseNet 121    | 65.70                       | 45.83        |
| Inception v3    | 130.98                      | 67.36        |

* xiaomi 6(Snapdragon 835, Adreno 540)

| benchmark model | cpu time(thread 1,fp16, ms) | gpu time(ms) |
|-----------------|-----------------------------|--------------|
| DenseNet 121    | 349.65                      | 86.81        |
| Inception v3    | 924.54                      | 77.01        |
"""


def test_a_list_item_above_a_table_names_its_device_and_is_no_footnote_of_the_table_before():
    values = normalized(TNN).measurements
    found = {
        (row["raw_value"]): (row["metric"], row["accelerator"])
        for row in values.iter_rows(named=True)
    }
    # "gpu time(ms)" is a latency, not a count of GPUs; it ran on the phone's GPU
    assert found["45.83"] == ("latency", "Mali-G76")
    assert found["86.81"] == ("latency", "Adreno 540")
    # "cpu time" ran on the SoC's cores where no CPU of its own is named
    assert found["65.70"] == ("latency", "Kirin 980")
    assert found["349.65"] == ("latency", "Snapdragon 835")
    assert normalized(TNN).quarantine.height == 0


# FlagPerf's training/nvidia/resnet50-pytorch/README.md (in Chinese): a table of the
# metrics' names and the abbreviations the results table is headed with.
FLAGPERF = """### 运行情况

* 通用指标

| 指标名称       | 指标值                  | 特殊说明                                    |
| -------------- | ----------------------- | ------------------------------------------- |
| 任务类别       | 图像分类                |                                             |
| 模型           | resnet50                |                                             |
| 总吞吐量       | p_whole,见“性能指标”    | 实际训练图片数除以总时间(performance_whole) |
| 训练吞吐量     | p_train,见“性能指标”    | 不包含每个epoch末尾的评估部分耗时           |
| **计算吞吐量** | **p_core,见“性能指标”** | 不包含数据IO部分的耗时(p3>p2>p1)            |
| 硬件存储使用   | mem,见“性能指标”        | 通常称为“显存”,单位为GiB                    |

* 性能指标

| 配置                | precision | fix_hp        | p_whole | p_train | p_core | mem       |
| ------------------- | --------- | ------------- | ------- | ------- | ------ | --------- |
| A100单机8卡（1x8）  | fp32      | /             | 4475    | 4586    | 4659   | 5.8/40.0  |
| A100单机8卡（1x8）  | amp       | bs=512,lr=0.2 | 7544    | 7901    | 9567   | 28.6/40.0 |
"""


def test_a_table_of_definitions_names_the_metrics_of_another_table_s_abbreviations():
    values = normalized(FLAGPERF).measurements
    read = dict(
        values.filter(pl.col("row_number") == 1).select("column_name", "metric").iter_rows()
    )
    assert read["p_whole"] == read["p_train"] == read["p_core"] == "throughput"
    p_core = values.filter((pl.col("column_name") == "p_core") & (pl.col("row_number") == 1))
    assert p_core.select("value", "accelerator", "accelerator_count").row(0) == (4659.0, "A100", 8)


# OpenCV Zoo's models/object_detection_nanodet/README.md: two tables side by side, each a
# Markdown table inside a cell of an HTML layout table.
NANODET = """## Model metrics:

<table>
<tr><th>Average Precision </th><th>Average Recall</th></tr>
<tr><td>

|  area  |  IoU  |  Average Precision(AP)  |
|:-------|:------|:------------------------|
|  all  |  0.50:0.95  |  0.304  |
|  all  |  0.50  |  0.459  |

 </td><td>

  area  |  IoU  |  Average Recall  |
|:-------|:------|:----------------|
|  all  |  0.50:0.95  |  0.278  |
|  small  |  0.50:0.95  |  0.198  |
</td></tr> </table>
"""


def test_pipe_tables_in_the_cells_of_a_layout_table_are_tables_of_their_own():
    values = normalized(NANODET).measurements
    by_column = {
        column: sorted(found)
        for column, found in values.group_by("column_name").agg(pl.col("value")).iter_rows()
    }
    assert by_column["Average Precision(AP)"] == [0.304, 0.459]
    assert by_column["Average Recall"] == [0.198, 0.278]


def test_a_range_is_no_value_and_a_part_of_a_whole_keeps_the_whole_as_its_remark():
    assert read_cell("0.50:0.95").problem == "range_value"
    assert read_cell("25.4%-50.6%").problem == "range_value"
    assert read_cell("198\u2013202 GiB").problem == "range_value"
    used = read_cell("76/80").values[0]
    assert (used.number, used.unit, used.qualifier) == (76.0, None, "of 80")
    assert read_cell("1:30").values[0].seconds == 90.0  # a clock reading is no range


# MIT HAN Lab's TinyChat README (llm-awq): values of a setting head the columns, the row of
# a derived figure compares the rows above it, and the caption states the unit.
TINYCHAT = """#### RTX 4090 Results

Time-To-First-Token (TTFT) of Llama-3-8B (Unit: Seconds):

| Seq Len     | 256	    | 512     | 1024	|
| ----------- |:-------:|:-------:|:-------:|
| FP16        | 0.031   | 0.055   | 0.109   |
| TinyChat    | 0.021   | 0.033   | 0.064   |
| Speedup     | 1.52x   | 1.68x   | 1.69x   |

Time-To-First-Token (TTFT) of Llama-3-8B (Unit: ms):

| History length            | 16    | 32    |
|---------------------------|:-----:|:-----:|
| FP16                      | 21.49 | 21.38 |
| Speedup                   | 1.54x | 1.54x |
"""


def test_numbers_heading_the_columns_are_values_of_the_corner_s_setting():
    values = normalized(TINYCHAT).measurements.filter(pl.col("table_index") == 0)
    found = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"], row["settings"])
        for row in values.iter_rows(named=True)
    }
    assert found[("FP16", "256")] == ("latency", 31.0, "Seq Len=256")  # 0.031 s
    assert found[("TinyChat", "1024")] == ("latency", 64.0, "Seq Len=1024")
    assert found[("Speedup", "512")] == ("speedup", 1.68, "Seq Len=512")
    batch = normalized(
        "## ResNet-50 on A100 (images/s)\n\n| Batch size | 1 | 8 |\n|---|---|---|\n"
        "| TensorRT | 500 | 2000 |\n"
    ).measurements
    assert dict(batch.select("column_name", "batch_size_number").iter_rows()) == {
        "1": 1.0,
        "8": 8.0,
    }


def test_a_unit_stated_as_unit_colon_in_a_caption_is_the_table_s_unit():
    document = normalized(TINYCHAT)
    history = document.measurements.filter(pl.col("table_index") == 1)
    assert history.filter(pl.col("metric") == "latency").get_column("value").to_list() == [
        21.49,
        21.38,
    ]
    assert document.quarantine.height == 0


# Hugging Face's blog, "Faster Training and Inference: Habana Gaudi2 vs Nvidia A100 80GB":
# systems as columns with their batch sizes, speedups written sign first.
GAUDI2 = """### Pre-Training BERT

|   | First-gen Gaudi (BS=32) | Gaudi2 (BS=32) | Gaudi2 (BS=64) | A100 (BS=32) |
|:-:|:-----------------------:|:--------------:|:--------------:|:-------:|
| Throughput (samples/s) | 520.2 | 1580.2 | 1835.8 | 981.6 |
| Speedup | x1.0 | x3.04 | x3.53 | x1.89 |
"""


def test_a_batch_size_in_a_system_s_header_and_a_speedup_written_sign_first():
    values = normalized(GAUDI2).measurements
    found = {
        (row["column_name"], row["metric"]): (row["value"], row["accelerator"], row["batch_size"])
        for row in values.iter_rows(named=True)
    }
    assert found[("Gaudi2 (BS=64)", "throughput")] == (1835.8, "Gaudi2", "64")
    assert found[("A100 (BS=32)", "speedup")] == (1.89, "A100", "32")
    assert read_cell("x86").problem == "unparseable_value"  # an instruction set, no multiple


# Hugging Face's blog, "Incredibly Fast BLOOM Inference with DeepSpeed and Accelerate".
BLOOM = """## Benchmarks

Here is the throughput in msecs on 8x80GB GPUs:

| project      \\ bs |      1 |     8 |   512  |
| :---------------- | :----- | :---- | :--- |
| accelerate   bf16 | 230.38 | 31.78 |      |
| ds-inference int8 |  89.09 | 11.44 | oom  |
"""


def test_a_throughput_in_milliseconds_is_a_time_per_item_on_a_count_with_its_memory():
    document = normalized(BLOOM)
    found = {
        (row["row_label"], row["column_name"]): row
        for row in document.measurements.iter_rows(named=True)
    }
    first = found[("accelerate bf16", "1")]
    assert (first["metric"], first["value"], first["unit"]) == ("latency", 230.38, "ms")
    assert (first["accelerator_count"], first["batch_size"]) == (8, "1")
    # "oom" under "512" is no label of its row: a value not published
    assert found[("ds-inference int8", "8")]["row_label"] == "ds-inference int8"
    assert document.quarantine.get_column("check").to_list() == ["placeholder_value"]


# Hugging Face's blog, "Make your llama generation time fly with AWS Inferentia2": the
# columns are configurations named after a model and the metric they favour; the heading
# names what every column measures.
INFERENTIA = """## Benchmarks

| Model type              | num cores | batch_size | Hugging Face Hub model                 |
|-------------------------|-----------|------------|----------------------------------------|
| Llama2 7B - latency     | 24        | 1          |dacorvo/Llama-2-7b-hf-neuron-latency    |
| Llama2 7B - throughput  | 24        | 4          |dacorvo/Llama-2-7b-hf-neuron-throughput |

### Encoding time

The encoding time is the time in seconds required to process the input tokens and generate the first output token,

It is a very important metric, as it corresponds to the latency directly perceived by the user when streaming generated tokens.

|   input tokens  |   Llama2 7B latency  |   Llama2 7B throughput  |
|-----------------|----------------------|-------------------------|
|   256           |   0,5                |   0,9                   |

### Throughput

|   new tokens  |   Llama2 7B latency  |   Llama2 7B throughput  |
|---------------|----------------------|-------------------------|
|   256         |   227                |   750                   |
"""


def test_columns_named_after_a_model_s_configurations_measure_what_the_heading_names():
    document = normalized(INFERENTIA)
    found = {
        (row["table_index"], row["column_name"]): (row["metric"], row["value"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found[(1, "Llama2 7B throughput")] == ("latency", 900.0)  # 0,9 s
    assert found[(2, "Llama2 7B latency")] == ("throughput", 227.0)
    # the table of configurations holds settings, no results
    assert not any(table == 0 for table, _column in found)
    assert document.quarantine.height == 0


# AMD's ROCm vLLM benchmark page (docs/dev-docker/README.md of ROCm/vllm): a Markdown table
# cannot span rows, so the rows of one model leave its name, precision and TP size blank.
ROCM = """### Throughput Measurements

| Model | Precision | TP Size | Input | Output | Num Prompts | Max Num Seqs | Throughput (tokens/s) |
|-------|-----------|---------|-------|--------|-------------|--------------|-----------------------|
| Llama 3.1 70B (amd/Llama-3.1-70B-Instruct-FP8-KV) | FP8 | 8 | 128 | 2048 | 3200 | 3200 | 13383.3  |
|       |           |         | 128   | 4096   | 1500        | 1500         | 11203.6               |
| Llama 3.1 405B (amd/Llama-3.1-405B-Instruct-FP8-KV) | FP8 | 8 | 128 | 2048 | 1500 | 1500 | 3867.7 |
|       |           |         | 2048  | 2048   | 500         | 500          | 2174.1                |

*TP stands for Tensor Parallelism.*

Supermicro AS-8125GS-TNMR2 with 2x AMD EPYC 9554 Processors, 2.25 TiB RAM, 8x AMD Instinct MI300X (192GiB, 750W) GPUs, Ubuntu 22.04, and amdgpu driver 6.8.5
"""


def test_rows_that_leave_their_group_s_labels_blank_take_them_from_the_row_above():
    document = normalized(ROCM)
    found = {
        row["value"]: (row["model_canonical"], row["precision"], row["accelerator_count"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found[11203.6] == ("Llama 3.1 70B", "FP8", 8)  # "8x AMD Instinct MI300X"
    assert found[2174.1] == ("Llama 3.1 405B", "FP8", 8)
    # "Input", "Output" and "Max Num Seqs" are settings of the run, not throughputs
    assert sorted(found) == [2174.1, 3867.7, 11203.6, 13383.3]
    assert document.quarantine.height == 0


# AXERA-TECH's ax-samples benchmark/Benchmark_AX650N.md: the condition of each run after "@".
AXERA = """# Benchmark(AX650N)

| Models         | Input Size | Inference Time(ms)@1 Core | FPS@1 Core | Inference Time(ms)@3 Cores | FPS@3 Cores | CMM(MB)@1 Core | CMM(MB)@3 Cores |
| -------------- | ---------- | ------------------------- | ---------- | -------------------------- | ----------- | -------------- | --------------- |
| Inceptionv1    | 224        | 1.166                     | 857.63     | 0.495                      | 2020.20     | -              | -               |
| YOLOv8n        | 640        | 5.126                     | 195.08     | 1.861                      | 537.35      | 6.32           | 3.52            |
"""  # noqa: E501


def test_what_follows_an_at_sign_is_the_run_s_condition_not_the_column_s_role():
    values = normalized(AXERA).measurements
    found = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in values.iter_rows(named=True)
    }
    # "Cores" after "@" is no setting column: its numbers were folded into the row labels
    assert found[("Inceptionv1 / 224", "FPS@3 Cores")] == ("throughput", 2020.2, "items/s")
    assert found[("YOLOv8n / 640", "CMM(MB)@3 Cores")] == ("other", 3.52, "MB")
    assert found[("YOLOv8n / 640", "FPS@1 Core")] == ("throughput", 195.08, "items/s")
    assert values.height == 10  # and the two "-" set apart as placeholders
    assert normalized(AXERA).quarantine.get_column("check").to_list() == ["placeholder_value"] * 2


# OpenNMT's CTranslate2 README: memory columns beside the throughput.
CTRANSLATE2 = """#### GPU

| | Tokens per second | Max. GPU memory | Max. CPU memory | BLEU |
| --- | --- | --- | --- | --- |
| **OpenNMT-py WMT14 model** | | | | |
| FasterTransformer 5.3 | 6979.0 | 2402MB | 1131MB | 26.77 |
| - float16 | 8592.5 | 1360MB | 1135MB | 26.80 |

Executed with CUDA 11 on a [*g5.xlarge*](https://aws.amazon.com/ec2/instance-types/g5/) Amazon EC2 instance equipped with a NVIDIA A10G GPU (driver version: 510.47.03).
"""  # noqa: E501


def test_a_maximum_of_memory_is_a_figure_of_its_own_not_a_gpu_count():
    document = normalized(CTRANSLATE2)
    found = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    # "GPU" in "Max. GPU memory" read as a column of GPU counts: 2402MB was a row label
    assert found[("FasterTransformer 5.3", "Max. GPU memory")] == ("other", 2402.0, "MB")
    assert found[("FasterTransformer 5.3 (float16)", "Max. CPU memory")] == ("other", 1135.0, "MB")
    assert found[("FasterTransformer 5.3 (float16)", "Tokens per second")] == (
        "throughput",
        8592.5,
        "items/s",
    )
    assert document.quarantine.height == 0


# NVIDIA TensorRT Model Optimizer's examples/benchmark.md: Markdown has no rowspan, so the
# model's cell is left empty on its other rows.
MODELOPT = """| Model | Batch Size | Tokens/sec |
|:------------:|:----------:|:----------------------:|
| Llama3.1-8B | 1 | 173.80 |
| | 8 | 803.11 |
| Llama3.1-70B | 1 | 45.81 |
| | 8 | 182.61 |
"""

# AMD Xilinx's Vitis AI model zoo (an HTML export): each row writes its domain again, so an
# empty cell in that column is empty.
WRITTEN_AGAIN = """| Domain | Model | Latency (ms) |
|---|---|---|
| Object Detection | SSD MobileNetV2 | 3.75 |
| Object Detection | YOLOv3 | 10.2 |
| | SuperPoint | 52.4 |
"""


def test_an_empty_first_cell_repeats_the_label_above_where_the_column_writes_none_twice():
    found = {
        row["raw_value"]: (row["model"], row["batch_size"], row["row_label"])
        for row in normalized(MODELOPT).measurements.iter_rows(named=True)
    }
    assert found["803.11"] == ("Llama3.1-8B", "8", "Llama3.1-8B / 8")
    assert found["182.61"] == ("Llama3.1-70B", "8", "Llama3.1-70B / 8")
    labels = {
        row["raw_value"]: row["row_label"]
        for row in normalized(WRITTEN_AGAIN).measurements.iter_rows(named=True)
    }
    assert labels["52.4"] == "SuperPoint"


# turboderp's exllamav2 README: a quantization setting beside the model columns.
EXLLAMAV2 = """| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |
|------------|--------------|-------|-------|-----|---------|-------------|
| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |
| OpenLlama  | GPTQ         | 3B    | 128   | yes | 259 t/s | **296** t/s |
"""


def test_a_plural_model_header_holds_models_and_a_group_size_is_a_setting():
    # a model no catalogue knows loads as published under "Models" (before: no model)
    axera = """| Models         | Input Size | Inference Time(ms)@3.2T | FPS@3.2T |
| -------------- | ---------- | ----------------------- | -------- |
| SqueezeNetv11  | 227        | 0.824                   | 1213.59  |
| Deit_t         | 224        | 3.350                   | 298.51   |
"""  # AXERA's Benchmark_AX630C.md
    models = {
        row["raw_value"]: row["model"]
        for row in normalized(axera).measurements.iter_rows(named=True)
    }
    assert models["1213.59"] == "SqueezeNetv11"
    assert models["3.350"] == "Deit_t"
    document = normalized(EXLLAMAV2)
    assert document.quarantine.height == 0  # "128" under "grpsz" was an unknown metric
    settings = {
        row["raw_value"]: row["settings"] for row in document.measurements.iter_rows(named=True)
    }
    assert "grpsz=128" in settings["259 t/s"]


# ARM's ML-zoo models/object_detection/ssd_mobilenet_v1/tflite_uint8/README.md: a table of
# the network's facts (a hash, a size, links) beside its accuracy.
ARM_ZOO = """## Network Information
| Network Information |  Value         |
|---------------------|------------------|
|  Framework          | TensorFlow Lite |
|  SHA-1 Hash         | 1f9c945db9e32c33e5b91539f756a8fbef636405 |
|  Size (Bytes)       | 6898880 |
|  Provenance         | http://download.tensorflow.org/models/object_detection/ssd_mobilenet_v1_quantized_300x300_coco14_sync_2018_07_18.tar.gz |
|  Paper              | https://arxiv.org/abs/1512.02325 |

## Accuracy
Dataset: Coco Validation 2017

| Metric | Value |
|--------|-------|
| mAP | 0.180 |
"""  # noqa: E501

# kvcache-ai's ktransformers kt-kernel/README.md: a reference of command-line options.
KT_OPTIONS = """### KT-Kernel Parameters

| Parameter | Description | Example Value |
|-----------|-------------|---------------|
| `--kt-weight-path` | Path to quantized CPU weights | `/path/to/cpu-weights` |
| `--kt-cpuinfer` | Number of CPU inference threads | `64` (adjust based on CPU cores) |
| `--kt-threadpool-count` | Number of thread pools | `2` (typically 1-4) |
"""


def test_facts_about_a_network_and_examples_of_options_are_no_results():
    document = normalized(ARM_ZOO)
    # the hash was the value 1 in the unit "f9c945db...", the size a score
    assert document.measurements.select("raw_value", "metric").rows() == [("0.180", "accuracy")]
    assert document.quarantine.height == 0
    options = normalized(KT_OPTIONS)
    assert options.measurements.height == 0 and options.quarantine.height == 0
    assert read_cell("3e8a9f1").problem == "unparseable_value"  # a commit, not 3e8
    assert read_cell("1e5").values[0].number == 100_000.0


def test_cloud_gpu_instances_name_their_gpus_and_count():
    # Hugging Face's "Llama 2 on Amazon SageMaker a Benchmark" ("ml.g5.12xlarge"), Ray Train's
    # benchmarks ("4 g4dn.12xlarge nodes (16 workers)")
    from perfledger.schemas.unknown_chips import read_hardware

    found = {
        text: (mention.accelerator, mention.system, mention.count)
        for text in ("ml.g5.12xlarge", "g5.2xlarge", "p4d.24xlarge", "4 g4dn.12xlarge nodes")
        if (mention := read_hardware(text, "platform")) is not None
    }
    assert found["ml.g5.12xlarge"] == ("A10G", "g5.12xlarge", 4)
    assert found["g5.2xlarge"] == ("A10G", "g5.2xlarge", 1)
    assert found["p4d.24xlarge"] == ("A100", "p4d.24xlarge", 8)
    assert found["4 g4dn.12xlarge nodes"][:2] == ("T4", "g4dn.12xlarge")
    assert found["4 g4dn.12xlarge nodes"][2] == 16  # 4 nodes of 4 T4s
