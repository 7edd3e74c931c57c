"""Tables of LLM and edge pages quoted as they are published: a sheet of step times and memory
under stacked "Sequence Length" headers, a perplexity sheet naming no metric, a benchmark's task
columns beside known ones, scores headed by which way is better, engines' variants written as
sub-items ("- int8"), a batch size stated in the paragraph before a table, an accelerator named
"<maker> <name> AI accelerator", and a server list naming the host CPU apart from the card."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.labels import stated_batch
from perfledger.schemas.model_names import read_model
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# QwenLM/Qwen README_CN.md, "显存占用及训练速度": memory and seconds per iteration in one cell,
# under a two-row header whose second row is the sequence length.
QWEN_FINETUNE_SPEED = """## 显存占用及训练速度

下面记录7B和14B模型在单GPU使用LoRA和QLoRA时处理不同长度输入的显存占用和训练速度的情况。本次评测运行于单张A100-SXM4-80G GPU。

<table>
    <tr>
      <th rowspan="2">Model Size</th><th rowspan="2">Method</th><th rowspan="2">#Nodes</th><th rowspan="2">#GPUs per node</th><th colspan="3" align="center">Sequence Length</th>
    </tr>
    <tr>
        <th align="center">256</th><th align="center">512</th><th align="center">1024</th>
    </tr>
    <tr>
        <th rowspan="2">1.8B</th><td>LoRA</td>
        <td>1</td><td>1</td>
        <td align="center">6.7G / 1.0s/it</td><td align="center">7.4G / 1.0s/it</td><td align="center">8.4G / 1.1s/it</td>
    </tr>
    <tr>
        <td>Q-LoRA</td>
        <td>1</td><td>1</td>
        <td align="center">5.8G / 1.4s/it</td><td align="center">6.0G / 1.4s/it</td><td align="center">6.6G / 1.4s/it</td>
    </tr>
</table>
"""


def test_a_memory_and_a_step_time_in_one_cell_under_stacked_setting_headers_both_load():
    rows = normalized(QWEN_FINETUNE_SPEED).measurements
    found = {
        (row["raw_value"], row["metric"]): (row["value"], row["unit"], row["accelerator"])
        for row in rows.iter_rows(named=True)
    }
    assert found[("8.4G / 1.1s/it", "latency")] == (1100.0, "ms", "A100")
    assert found[("8.4G / 1.1s/it", "other")] == (8.4, "GB", "A100")
    assert found[("5.8G / 1.4s/it", "latency")] == (1400.0, "ms", "A100")
    assert rows.height == 12  # two figures of each of the six cells


# The same README, "长文本理解": perplexities on arXiv by sequence length, no metric named.
QWEN_LONG_CONTEXT = """## 长文本理解

通过arXiv数据集上的语言模型实验，发现 Qwen 在长上下文场景下可以达到出色的性能。结果如下：

<table>
    <tr>
        <th rowspan="2">Model</th><th colspan="3" align="center">Sequence Length</th>
    </tr>
    <tr>
        <th align="center">1024</th><th align="center">2048</th><th align="center">4096</th>
    </tr>
     <tr>
        <td>Qwen-7B (original)</td><td align="center">4.23</td><td align="center">3.78</td><td align="center">39.35</td>
    </tr>
    <tr>
        <td>+ dynamic_ntk</td><td align="center">4.23</td><td align="center">3.78</td><td align="center">3.59</td>
    </tr>
</table>
"""


def test_numbers_under_a_setting_axis_with_no_metric_are_set_apart_not_lost():
    document = normalized(QWEN_LONG_CONTEXT)
    assert document.measurements.height == 0
    quarantined = document.quarantine
    assert sorted(quarantined["raw_value"].to_list()) == sorted(
        ["4.23", "3.78", "39.35", "4.23", "3.78", "3.59"]
    )
    assert set(quarantined["check"].to_list()) == {"unknown_metric"}


# The same README, L-Eval: task columns beside one known scored dataset.
QWEN_L_EVAL = """进一步，我们在L-Eval客观题上进行了测试，评分结果如下：

| Model             | Input Length | Average   |  Coursera  |    GSM     |   QuALITY  |    TOEFL   |   CodeU    |  SFcition  |
|:------------------|:------------:|:---------:|:----------:|:----------:|:----------:|:----------:|:----------:|:----------:|
| ChatGPT-3.5-16k   |     16K      |   60.73   | **63.51**  | **84.00**  |   61.38    |    78.43   | **12.22**  |    64.84   |
| **Qwen-72B-Chat** |     32K      | **62.30** |   58.13    |   76.00    | **77.22**  |  **86.24** |    6.66    |  **69.53** |
"""


def test_task_columns_beside_scored_datasets_are_scores_too():
    found = fields_by_raw_value(QWEN_L_EVAL, "metric", "column_name", "model")
    assert found["58.13"] == ("accuracy", "Coursera", "Qwen-72B-Chat")
    assert found["84.00"] == ("accuracy", "GSM", "ChatGPT-3.5-16k")
    assert found["77.22"] == ("accuracy", "QuALITY", "Qwen-72B-Chat")
    assert found["62.30"][0] == "accuracy"
    assert normalized(QWEN_L_EVAL).quarantine.height == 0


# faster-whisper README: a duration column beside a score stays a duration.
DISTIL_WHISPER = """### distil-whisper-large-v3 model on GPU

| Implementation | Precision | Beam size | Time | YT Commons WER |
| --- | --- | --- | --- | --- |
| transformers (SDPA) (`batch_size=16`) | fp16 | 5 | 46m12s | 14.801 |
| faster-whisper (`batch_size=16`) | fp16 | 5 | 25m50s | 13.527 |
"""


def test_durations_in_parts_beside_a_score_are_no_scores():
    document = normalized(DISTIL_WHISPER)
    found = {
        row["raw_value"]: (row["metric"], row["value"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["25m50s"] == ("time_to_result", 1550.0)
    assert found["46m12s"] == ("time_to_result", 2772.0)
    # alone on this page, "13.527" may be thousands: set apart for that, not as a duration
    assert set(document.quarantine["check"].to_list()) == {"ambiguous_number"}


def test_a_header_saying_which_way_is_better_names_a_score():
    # Qwen README_CN.md: "代码执行结果正确性 (%)" over "Math↑"; "False Positive Error↓"
    assert read_header("代码执行结果正确性 (%) / Math↑").role == "accuracy"
    assert read_header("False Positive Error↓").role == "accuracy"
    assert read_header("Memory (GB/im) ↓").role == "other"  # a unit says what it measures


# OpenNMT/CTranslate2 README.md: an engine's variants as sub-items under it.
CTRANSLATE2_GPU = """#### GPU

| | Tokens per second | Max. GPU memory | Max. CPU memory | BLEU |
| --- | --- | --- | --- | --- |
| **OpenNMT-py WMT14 model** | | | | |
| CTranslate2 3.6.0 | 6634.7 | 1261MB | 953MB | 26.77 |
| - int8 | 8567.2 | 1005MB | 807MB | 26.85 |
| - int8 + float16 | 8725.4 | 1020MB | 807MB | 26.76 |
"""


def test_a_sub_item_row_is_a_variant_of_the_row_above_it():
    rows = normalized(CTRANSLATE2_GPU).measurements.filter(
        pl.col("column_name") == "Tokens per second"
    )
    found = {
        row["raw_value"]: (
            row["row_label"],
            row["framework"],
            row["sdk_version"],
            row["activation_dtype"],
            row["weight_dtype"],
        )
        for row in rows.iter_rows(named=True)
    }
    assert found["8567.2"] == ("CTranslate2 3.6.0 (int8)", "CTranslate2", "3.6.0", "int8", "int8")
    assert found["8725.4"] == (
        "CTranslate2 3.6.0 (int8 + float16)",
        "CTranslate2",
        "3.6.0",
        "fp16",
        "int8",
    )


# DeGirum/PySDKExamples ORCABenchmarks.md: the accelerator and the batch in the paragraph above.
DEGIRUM_ORCA = """# ORCA Performance Benchmarks
In this page, we provide performance benchmarks of DeGirum ORCA1 AI accelerator
on various models. The frames per second (FPS) numbers are obatained by running the [single model performance test.ipynb](examples/benchmarks/single_model_performance_test.ipynb) jupyter notebook on a machine equipped with ORCA1. The script can also be run on the cloud platform to estimate the performance. All FPS numbers are for __batch_size=1__.

__Last updated on: May 22, 2023__

| Model Name                                    | FPS |
| -------------                                 |:------:|
| efficientnet_es_imagenet--224x224_quant       | 187 |
| mobiledet_coco--320x320_quant                 | 128 |
"""


def test_an_ai_accelerator_and_the_batch_of_all_numbers_come_from_the_paragraph():
    found = fields_by_raw_value(DEGIRUM_ORCA, "metric", "accelerator", "vendor", "batch_size")
    assert found["187"] == ("throughput", "ORCA1", "DeGirum", "1")
    assert found["128"] == ("throughput", "ORCA1", "DeGirum", "1")


def test_a_batch_size_is_stated_with_of_or_wei():
    # Qwen speed benchmark notes; AutoGPTQ README_zh.md; Qwen README_CN.md
    assert stated_batch("We use a batch size of 1 and the minimum number of GPUs") == "1"
    assert stated_batch("文本输入的 batch size 为1，解码策略为 beam search") == "1"
    assert stated_batch("我们统一使用batch size为1，gradient accumulation为8的训练配置") == "1"
    assert stated_batch("All FPS numbers are for batch_size=1.") == "1"
    assert stated_batch("a batch size of 1.5x larger") is None


# FlagOpen/FlagPerf base/.../computation-BF16/iluvatar/README.md: the card in one section, the
# server (with its host CPU) in the next, the results after both.
FLAGPERF_BI150 = """# 参评AI芯片信息

* 厂商：ILUVATAR

## 服务器1

- 产品名称：BI150
- 产品型号：BI150
- TDP：350W

# 所用服务器配置

* 服务器数量：1

## 服务器1

* 单服务器内使用卡数：8
* 服务器型号：R5300 G5
* 操作系统版本：Ubuntu 20.04.6 LTS
* 操作系统内核：linux5.4.0-148-generic
* CPU：Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz
* docker版本：20.10.25
* 内存：512GiB

# 评测结果

## 核心评测结果

| 评测项  | BF16算力测试值(8卡平均) | BF16算力标定值(8卡平均) | 测试标定比例(8卡平均) |
| ---- | ---------------- | ---------------- | ------------- |
| 评测结果 | 196.77TFLOPS      | /       | /         |
"""


def test_a_host_cpu_line_gives_way_to_the_card_the_setup_lists_further_on():
    found = fields_by_raw_value(FLAGPERF_BI150, "accelerator", "vendor", "accelerator_count")
    assert found["196.77TFLOPS"] == ("BI-V150", "Iluvatar", 8)


# sophgo/sophon-demo sample/YOLOv5_opt/README_EN.md: the model run named by its compiled file
# in a column headed by the file's format ("BModel"), its folder the chip it was built for.
SOPHON_YOLOV5_TIMES = """### 7.1 bmrt_test

|                  BModel                   | calculate time(ms) |
| -----------------------------------------| ----------------- |
| BM1684X/yolov5s_tpukernel_fp32_1b.bmodel | 19.6              |
| BM1684X/yolov5s_tpukernel_int8_4b.bmodel | 3.2               |
"""


def test_a_compiled_model_file_names_the_model_of_its_row():
    found = fields_by_raw_value(
        SOPHON_YOLOV5_TIMES, "metric", "model_canonical", "activation_dtype"
    )
    assert found["19.6"] == ("latency", "YOLOv5s", "fp32")
    assert found["3.2"] == ("latency", "YOLOv5s", "int8")


def test_footnote_marks_after_a_model_no_catalogue_knows_are_no_part_of_its_name():
    # ARM-software/ML-zoo README.md ("CNN Large INT8 *"); open-mmlab/mmpretrain's Swin
    # Transformer README ("swin-base_3rdparty_in1k*")
    assert read_model("CNN Large INT8 *").canonical == "CNN Large INT8"
    assert read_model("SESR INT8 **").canonical == "SESR INT8"
    assert read_model("swin-base_3rdparty_in1k*").canonical == "swin-base_3rdparty_in1k"


# InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md, "推理效率": the cache's dtype in a
# column of its own.
LMDEPLOY_KV_TYPE = """## 推理效率

| model             | kv type | test settings                            | RPS   | v.s. kv fp16 |
| ----------------- | ------- | ---------------------------------------- | ----- | ------------ |
| llama2-chat-7b    | fp16    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 14.98 | 1.0          |
| -                 | int8    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 19.01 | 1.27         |
"""


def test_a_kv_cache_type_column_sets_neither_the_weights_nor_the_activations_dtype():
    found = fields_by_raw_value(
        LMDEPLOY_KV_TYPE, "precision", "activation_dtype", "weight_dtype", "settings"
    )
    precision, activations, weights, settings = found["19.01"]
    assert (precision, activations, weights) == ("int8", None, None)
    assert "kv type=int8" in settings


def test_a_count_named_as_code_names_it_is_a_setting():
    # lmdeploy's profiling table: "| model | batch | tp | num_promts | RPS |" over 3000
    assert (read_header("num_promts").kind, read_header("num_promts").role) == ("config", "setting")
    assert read_header("Num Params").role == "model_size"
    assert read_header("n_nodes").role == "nodes"


# microsoft/BitNet src/README.md: the methods compared, each explained in a list above, under a
# line stating the device and that times are in milliseconds.
BITNET_KERNELS = """### 1. Weight & Activation Parallelism

The kernel implements two parallelization strategies:

- **Weight Parallel:** Processes multiple weight rows/columns in a single kernel call, reducing kernel launch overhead.

- **Activation Parallel:** Built on top of weight parallel, amortizes the I2_S weight unpacking cost across multiple activation elements.

**Kernel Performance Comparison:**

Test configuration: AMD EPYC 7V13 (x86), 1 threads, time in milliseconds (mean±std)

| Matrix Size | No Parallel | Weight Parallel | Activation Parallel |
|:---:|:---:|:---:|:---:|
| [1, 2048] × [2048, 2048] | 0.075±0.012 | **0.058±0.007** | 0.076±0.011 |
| [32, 2048] × [2048, 2048] | 2.400±0.041 | 1.599±0.020 | **1.202±0.018** |
"""


def test_methods_compared_under_a_stated_time_are_latencies_whatever_the_page_explains():
    document = normalized(BITNET_KERNELS)
    found = {
        row["raw_value"]: (row["metric"], row["value"], row["spread"], row["accelerator"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["1.202±0.018"] == ("latency", 1.202, 0.018, "EPYC 7V13")
    assert found["0.075±0.012"] == ("latency", 0.075, 0.012, "EPYC 7V13")
    assert document.measurements.height == 6
    assert document.quarantine.height == 0


# ultralytics/yolov5 README.md, segmentation checkpoints: hours and minutes under "(hours)".
YOLOV5_SEGMENTATION = """| Model | Size<br><sup>(pixels) | mAP<sup>box<br>50-95 | Train Time<br><sup>300 epochs<br>A100 (hours) |
| --- | --- | --- | --- |
| [YOLOv5n-seg](https://github.com/ultralytics/yolov5/releases/download/v7.0/yolov5n-seg.pt) | 640 | 27.6 | 80:17 |
| [YOLOv5m-seg](https://github.com/ultralytics/yolov5/releases/download/v7.0/yolov5m-seg.pt) | 640 | 45.0 | 108:36 |
"""


def test_a_clock_reading_of_two_parts_under_hours_is_hours_and_minutes():
    found = fields_by_raw_value(YOLOV5_SEGMENTATION, "metric", "value", "unit")
    assert found["80:17"] == ("time_to_train", 289020.0, "s")  # 80 h 17 min
    assert found["108:36"] == ("time_to_train", 390960.0, "s")


# Ascend/ModelZoo-PyTorch, BLIP's inference guide: figures named by the part of the model run,
# under a header saying only "performance".
ASCEND_BLIP = """# BLIP模型-推理指导

| 芯片型号 | Batch Size   | 数据集 | 精度 | 性能 |
| --------- | ---------------- | ---------- | ---------- | --------------- |
| 310P3          | 1                 | coco           | 81.3%           | text:292    |
| 310P3          | 4                | coco           |            |  text:754   |
| 310P3          | 1                 | coco           | 81.3%           | image:72    |
"""


def test_named_figures_under_a_performance_header_are_set_apart_not_lost():
    document = normalized(ASCEND_BLIP)
    quarantined = dict(
        zip(document.quarantine["raw_value"], document.quarantine["check"], strict=True)
    )
    assert quarantined == {
        "text:292": "unknown_metric",
        "text:754": "unknown_metric",
        "image:72": "unknown_metric",
    }
    assert document.measurements["raw_value"].to_list() == ["81.3%", "81.3%"]


# alibaba/BladeDISC examples/PyTorch/Inference/CPU/albert/README.md: one row of times under the
# engines' names, in two sections, each naming its own CPU.
BLADEDISC_ALBERT = """## Performance results.

### X86

We evaluate this example on Intel(R) Xeon(R) Platinum 8369B CPU @ 2.90GHz, using
1 thread. The PyTorch version is 1.10.0 and the onnxruntime version is 1.10.0.
The average execution time of the 200 inferences is as following (ms).

| PyTorch | ONNX Runtime | DISC  |
|---------|--------------|-------|
|  56.7   |    43.1      | 32.8  |

### AArch64

We evaluate this example on Neoverse-N1 CPU @ 2.90GHz, using 1 thread. The
PyTorch version is 1.10.0 and the onnxruntime version is 1.11.1. The average
execution time of the 200 inferences is as following (ms).

| PyTorch | ONNX Runtime | DISC  |
|---------|--------------|-------|
| 192.3   |   135.3      | 112.7 |
"""


def test_a_row_of_times_under_engines_names_loads_each_with_its_engine_and_section_chip():
    found = fields_by_raw_value(BLADEDISC_ALBERT, "metric", "framework", "accelerator")
    assert found["56.7"] == ("latency", "PyTorch", "Xeon 8369B")
    assert found["43.1"] == ("latency", "ONNX Runtime", "Xeon 8369B")
    # the X86 section's CPU is its own table's: the AArch64 section names another
    assert found["192.3"] == ("latency", "PyTorch", None)
    assert found["112.7"][2] is None


# microsoft/BitNet gpu/README.md: the device in a note under the table, the section above it
# naming the same device for the table of its own.
BITNET_END_TO_END = """### Kernel Benchmarks

Tested on NVIDIA A100 40GB GPU, our custom W2A8 kernel shows significant speedups over standard BF16 implementations:

| Shape (N×K)         | W2A8 Latency (us) | BF16 Latency (us) | Speedup Ratio        |
|---------------------|-------------------|-------------------|----------------------|
| 2560 × 2560         | 13.32             | 18.32             |   1.38               |

### End-to-End Generation Latency

Compared to a similarly-sized BF16 model (Gemma-2-2B using vLLM), BitNet-b1.58-2B with our kernel achieves consistent speedups across workloads:

| Input Length | Output Length | BF16 Latency (ms) | W2A8 Latency (ms) | Speedup Ratio |
| --- | --- | --- | --- | --- |
| 64 | 16 | 187.64 | 57.40 | 3.27 |

*Note: Comparison uses equivalent-sized models (2B parameters) on NVIDIA A100 40GB GPU.*
"""


def test_a_note_a_markdown_table_carries_names_its_device():
    rows = normalized(BITNET_END_TO_END).measurements
    found = {
        row["raw_value"]: (row["accelerator"], row["label_sources"])
        for row in rows.iter_rows(named=True)
    }
    assert found["187.64"][0] == "A100"
    assert "accelerator=note" in found["187.64"][1]
    assert found["13.32"][0] == "A100"


def test_arm_server_cpus_are_known():
    assert read_hardware("on an Ampere Altra Max server", "prose").accelerator == "Altra"
    assert read_hardware("Yitian 710", "label").vendor == "Alibaba"


def test_a_latencys_parallel_degrees_give_its_chips():
    # NVIDIA/FasterTransformer docs/gpt_guide.md: one copy of the model serves each request
    assert read_header("Latency of TP-16, PP-1 (ms)").platform.count == 16
    assert read_header("Latency of TP-8, PP-3 (ms)").platform.count == 24
    assert read_header("Latency of   8-way TP (ms)").platform.count == 8
    assert read_header("Throughput TP8").platform is None  # copies of a trained model: unknown


# deepseek-ai/DeepSeek-V3 README.md, "Chat Model": benchmarks with what each scores by, a row of
# architectures and rows of sizes first, models over the columns.
DEEPSEEK_V3_CHAT = """#### Standard Benchmarks (Models larger than 67B)

| | **Benchmark (Metric)** | **DeepSeek V2-0506** | **DeepSeek V2.5-0905** | **Qwen2.5 72B-Inst.** | **Llama3.1 405B-Inst.** | **Claude-3.5-Sonnet-1022** | **GPT-4o 0513** | **DeepSeek V3** |
|---|---------------------|---------------------|----------------------|---------------------|----------------------|---------------------------|----------------|----------------|
| | Architecture | MoE | MoE | Dense | Dense | - | - | MoE |
| | # Activated Params | 21B | 21B | 72B | 405B | - | - | 37B |
| | # Total Params | 236B | 236B | 72B | 405B | - | - | 671B |
| English | MMLU (EM) | 78.2 | 80.6 | 85.3 | **88.6** | **88.3** | 87.2 | **88.5** |
| | MMLU-Redux (EM) | 77.9 | 80.3 | 85.6 | 86.2 | **88.9** | 88.0 | **89.1** |
"""


def test_benchmarks_named_with_their_metric_give_the_scores_of_the_models_beside():
    document = normalized(DEEPSEEK_V3_CHAT)
    found = {
        (row["row_label"], row["column_name"]): (
            row["metric"],
            row["value"],
            row["model_canonical"],
        )
        for row in document.measurements.iter_rows(named=True)
    }
    assert found[("English / MMLU (EM)", "Qwen2.5 72B-Inst.")] == (
        "accuracy",
        85.3,
        "Qwen2.5 72B Instruct",
    )
    assert found[("English / MMLU-Redux (EM)", "DeepSeek V3")] == ("accuracy", 89.1, "DeepSeek-V3")
    # the models' sizes are what they are, no scores
    assert not any(label.endswith("Params") for label, _column in found)
    assert document.measurements.height == 14


def test_device_hours_are_a_cost_not_the_device_of_a_run():
    # deepseek-ai/DeepSeek-V3 README.md, in its introduction
    text = "DeepSeek-V3 requires only 2.788M H800 GPU hours for its full training."
    assert read_hardware(text, "prose") is None
    assert read_hardware("We evaluate on 8 H800 GPUs.", "prose").count == 8


# Ascend/ModelZoo-PyTorch, BERT (Hugging Face) inference guide: two scores parted by an
# escaped bar in one cell, under a header naming both in its brackets.
ASCEND_BERT_SQUAD = """| 模型方案 | 芯片型号    | Sequence Length | Doc Stride | NPU 精度（ F1 \\|EM ） |
| -------- | ----------- | --------------- | ---------- | -------------------- |
| 静态     | Ascend310P3 | 64              | 16         | 83.90 \\| 76.42        |
"""


def test_figures_parted_by_a_bar_under_a_header_naming_each_load_both():
    rows = normalized(ASCEND_BERT_SQUAD).measurements
    found = {row["qualifier"]: (row["metric"], row["value"]) for row in rows.iter_rows(named=True)}
    assert found == {"F1": ("accuracy", 83.9), "EM": ("accuracy", 76.42)}


# Ascend/ModelZoo-PyTorch's inference guides open "<model>模型-推理指导" (the model's inference
# guide) and name the chip in a column of chip models.
ASCEND_GUIDE = """# Wenet模型-推理指导

调用ACL接口推理计算，性能参考下列数据。

| 芯片型号 | Batch Size   | 数据集 | 精度 |
| --------- | ---------------- | ---------- | ---------- |
| 910A | 64 | ImageNet | top-1: 76.96% <br>top-5: 93.24% |
"""


def test_a_model_zoo_guide_title_names_the_model_and_a_chip_column_its_chip():
    rows = normalized(ASCEND_GUIDE).measurements
    found = {
        row["qualifier"]: (row["value"], row["model"], row["accelerator"])
        for row in rows.iter_rows(named=True)
    }
    assert found["top-1"] == (76.96, "Wenet", "Ascend 910")
    assert found["top-5"] == (93.24, "Wenet", "Ascend 910")


def test_a_card_of_stated_memory_is_no_count_of_cards():
    # kvcache-ai/ktransformers doc/zh: "2～4 张 24GB 4090卡" (two to four 24 GB 4090 cards)
    assert read_hardware("方案 在 2～4 张 24GB 4090卡上微调", "prose") is None
    assert read_hardware("A100 8卡", "prose").count == 8


def test_a_cluster_size_header_in_chinese_counts_the_cards():
    # Ascend/ModelLink README: "集群规模" (cluster size) over "1x8", "4x8"
    assert read_header("集群规模").role == "accelerator_count"


# bytedance/lightseq docs/inference/performance.md: each section's paragraph names the model
# its table ran, or compares two.
LIGHTSEQ_TRANSLATION = """# Performance

The following two tables is a comparison of performance between LightSeq and Faster Transformer, Which is tested on Tesla T4 with a model of Transformer-base. We also provide a TF baseline which's code is from Faster Transformer.

## Beam search

| batch_size | beam_size | seq_len | TF(ms)  | FT(ms) | lightseq(ms) |
|------------|-----------|---------|---------|--------|--------------|
| 1          | 4         | 32      | 419.53  | 26.25  | 29.66        |

## Machine Translation
The following table is a comparison on a fr2en translation model which is a Transformer-big with a
beam size of 4 and a target vocabulary size of approximately 30k. FP32 models are tested on Tesla P4,
and FP16 models are tested on Tesla T4.

| batch_size | seq_len | tf-fp32, ms | lightseq-fp32, ms |
|------------|---------|-------------|-------------------|
| 1          | 6       | 303         | 47                |

The following table is a comparison on a en2zh translation model which is a
Transformer-deep(Compared with Transformer-big, it has 16 layers of encoder and other configurations
remain the same) with a
beam size of 4 and a target vocabulary size of approximately 30k.

| batch_size | seq_len | tf-fp32, ms | lightseq-fp32, ms |
|------------|---------|-------------|-------------------|
| 1          | 12      | 399         | 63                |
"""


def test_the_paragraph_naming_the_model_a_benchmark_ran_gives_its_tables_model():
    found = fields_by_raw_value(LIGHTSEQ_TRANSLATION, "model_canonical")
    assert found["419.53"] == ("Transformer Base",)
    assert found["303"] == ("Transformer Big",)
    # a model named as the other side of a comparison is not the one that ran
    assert found["399"] == (None,)


# ARM-software/ML-zoo README.md: each table followed by the dataset its models were scored on.
ARM_ZOO_IMAGE_CLASSIFICATION = """## Image Classification

| Network | Type | Framework | Cortex-A | Cortex-M | Mali GPU | Ethos U | Score (Top 1 Accuracy) |
|---|---|---|---|---|---|---|---|
| MobileNet v2 1.0 224 INT8 | INT8 | TensorFlow Lite | ✔ | ✔ | ✔ | ✔ | 0.697 |

**Dataset**: ILSVRC 2012
"""


def test_a_dataset_line_under_a_table_names_its_dataset():
    found = fields_by_raw_value(ARM_ZOO_IMAGE_CLASSIFICATION, "metric", "dataset_canonical")
    assert found["0.697"] == ("accuracy", "ImageNet")
