"""Tables of Chinese model publishers and framework makers no corpus holds, written as their
pages write them: a minimum GPU memory per quantization level, a generation speed in
characters per second, a thread count beside a speed, the hardware of a run listed item by
item (the accelerator, then the host CPU), a batch size in a caption, chips counted per node
beside the nodes, an Enflame card named in Chinese."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value

# As THUDM/ChatGLM-6B's README (硬件需求) writes the memory each quantization level needs.
CHATGLM_MEMORY = """# ChatGLM-6B

### 硬件需求

| **量化等级**   | **最低 GPU 显存**（推理） | **最低 GPU 显存**（高效参数微调） |
| -------------- | ------------------------- | --------------------------------- |
| FP16（无量化） | 13 GB                     | 14 GB                             |
| INT8           | 8 GB                     | 9 GB                             |
| INT4           | 6 GB                      | 7 GB                              |
"""

# As THUDM/ChatGLM2-6B's README (推理性能) writes its generation speed, the hardware in the
# note under the table.
CHATGLM2_SPEED = """# ChatGLM2-6B

## 推理性能

| Model | 推理速度 (字符/秒) |
| ----  | -----  |
| ChatGLM-6B  | 31.49 |
| ChatGLM2-6B | 44.62 |

> 使用官方实现，batch size = 1，max length = 2048，bf16 精度，测试硬件为 A100-SXM4-80G，软件环境为 PyTorch 2.0.1
"""

# As MegEngine/InferLLM's docs/profile.md writes a speed for each number of threads.
INFERLLM_THREADS = """# 性能

1. 硬件 AMD EPYC 7742 64-Core @ 2.25GHz

    | 模型 | 生成速度(token/s) | 线程数 |
    | :-: | :-: | :-: |
    | chatglm-q4 | 2.4 | 1 |
    | chatglm-q4 | 5.8 | 4 |
"""


def test_a_minimum_gpu_memory_is_a_figure_not_a_count_of_gpus():
    found = fields_by_raw_value(CHATGLM_MEMORY, "metric", "value", "unit", "weight_dtype")
    assert found["13 GB"] == ("other", 13.0, "GB", "fp16")
    assert found["9 GB"] == ("other", 9.0, "GB", "int8")
    assert found["7 GB"] == ("other", 7.0, "GB", "int4")
    for header in ("Min GPU memory", "GPU memory", "GPU显存", "编码 2048 长度的最小显存"):
        assert (read_header(header).kind, read_header(header).role) == ("metric", "other")
    assert read_header("# GPUs").role == "accelerator_count"  # a count of GPUs stays one


def test_a_speed_in_characters_per_second_is_a_throughput_of_characters():
    found = fields_by_raw_value(CHATGLM2_SPEED, "metric", "value", "unit", "item_kind", "model")
    assert found["44.62"] == ("throughput", 44.62, "items/s", "characters", "ChatGLM2-6B")
    assert read_header("吞吐率 (句/秒)").unit.item_kind == "sequences"


def test_a_thread_count_is_a_setting_of_the_speed_beside_it():
    found = fields_by_raw_value(INFERLLM_THREADS, "metric", "value", "settings", "accelerator")
    assert found["5.8"] == ("throughput", 5.8, "线程数=4", "EPYC 7742")
    assert "4" not in found  # the thread count is no value of its own


# As Oneflow-Inc/DLPerf's Chinese report (reports/dlperf_benchmark_test_report_v1_cn.md)
# lists each machine's hardware in its setup section, then gives throughputs sections later.
DLPERF_SETUP = """# 基于ResNet50与BERT模型的深度学习框架性能评测报告

### 3.3  评测环境

测试环境共有**4台机器**。每台机器具体的硬件和软件配置描述如下：

- Tesla V100-SXM2-16GB x 8
- InfiniBand 100 Gb/sec (4X EDR)， Mellanox Technologies MT27700 Family
- Intel(R) Xeon(R) Gold 5118 CPU @ 2.30GHz
- Memory 384G

## 4.  ResNet-50 v1.5 性能测试

### 4.2  FP32 batch size = 128各框架吞吐率 (images/sec)

| node num | device num | [OneFlow](../OneFlow) | [PyTorch](../PyTorch/resnet50v1.5) |
| -------- | ---------- | --------------------- | ---------------------------------- |
| 1        | 1          | 397.64                | 348.62                             |
| 4        | 32         | 12411.97              | 10021.29                           |
"""


def test_a_setup_listed_item_by_item_gives_its_accelerator_not_its_host_cpu():
    found = fields_by_raw_value(DLPERF_SETUP, "accelerator", "accelerator_count", "metric")
    assert found["397.64"] == ("V100", 1, "throughput")
    assert found["12411.97"] == ("V100", 32, "throughput")
    # the same list in the table's own section
    own = DLPERF_SETUP.replace("## 4.  ResNet-50 v1.5 性能测试\n\n", "").replace(
        "### 4.2  FP32", "#### 4.2  FP32"
    )
    assert fields_by_raw_value(own, "accelerator")["348.62"] == ("V100",)


def test_a_cpu_listed_without_an_accelerator_stays_the_platform():
    cpu_only = DLPERF_SETUP.replace("- Tesla V100-SXM2-16GB x 8\n", "")
    assert fields_by_raw_value(cpu_only, "accelerator")["397.64"] == ("Xeon 5118",)


# As the same report gives AMP throughputs: the batch size in the heading and the table's
# caption, a column run at another one saying so in its header.
DLPERF_AMP = """# 基于ResNet50与BERT模型的深度学习框架性能评测报告

### 4.3  AMP batch size = 256各框架吞吐率 (images/sec)

<p align="center">表 4-3 ResNet50-v1.5 AMP batch size = 256 各个框架吞吐率对比</p>

| node num | device num | [OneFlow](../OneFlow) | [NGC<br/>TensorFlow 1.x<br/>bsz=224](../NVIDIADeepLearningExamples) |
| -------- | ---------- | --------------------- | ------------------------------------------------------------------- |
| 1        | 1          | 1472.72               | 945.18                                                              |
"""


def test_a_batch_size_the_caption_states_is_every_value_s_unless_its_header_states_one():
    found = fields_by_raw_value(DLPERF_AMP, "batch_size", "batch_size_number")
    assert found["1472.72"] == ("256", 256.0)
    assert found["945.18"] == ("224", 224.0)  # "bsz=224"


# As Oneflow-Inc/DLPerf's InsightFace report (reports/insightface/
# dlperf_insightface_test_report_v1_cn.md) names its columns as its scripts do.
DLPERF_INSIGHTFACE = """# InsightFace 深度学习框架测试报告

### Face Emore & R100 & FP32 Thoughput

| node_num | gpu_num_per_node | batch_size_per_device | OneFlow samples/s | MXNet samples/s |
| -------- | ---------------- | --------------------- | ----------------- | --------------- |
| 1        | 1                | 64                    | 245.0             | 241.82          |
| 1        | 8                | 64                    | 1836.8            | 650.8           |
| 2        | 8                | 64                    | 3531.8            | 1314.23         |
| 4        | 8                | 64                    | 6931.6            | 2602.65         |
"""


def test_chips_per_node_times_the_nodes_is_the_count_of_a_run():
    found = fields_by_raw_value(DLPERF_INSIGHTFACE, "accelerator_count", "batch_size", "metric")
    assert found["245.0"] == (1, "64", "throughput")
    assert found["650.8"] == (8, "64", "throughput")
    assert found["3531.8"] == (16, "64", "throughput")
    assert found["2602.65"] == (32, "64", "throughput")
    assert read_header("batch_size_per_device").role == "batch_size"  # not a device's name


# As EnflameTechnology/ModelZoo's ONNX BERT README writes the resources of a run.
ENFLAME_RESOURCE = "Enflame 云燧i20 2.60GHz, 内存 16G; 系统 Linux"


def test_an_enflame_card_named_in_chinese_is_its_cloudblazer_chip():
    mention = read_hardware(ENFLAME_RESOURCE, "label")
    assert (mention.vendor, mention.accelerator) == ("Enflame", "CloudBlazer I20")


# As THUDM/ChatGLM2-6B's README (评测结果) gives the score of each subject of a benchmark,
# under the benchmark's name.
CHATGLM2_MMLU = """# ChatGLM2-6B

## 评测结果

### MMLU

| Model | Average | STEM | Social Sciences | Humanities | Others |
| ----- |------| ---- |------|-------| ----- |
| ChatGLM-6B | 40.63 | 33.89 | 44.84 | 39.02 | 45.71 |
| ChatGLM2-6B (base) | 47.86 | 41.20 | 54.44 | 43.66 | 54.46 |
"""


def test_a_heading_naming_a_scored_benchmark_alone_names_its_columns_scores():
    found = fields_by_raw_value(CHATGLM2_MMLU, "metric", "value", "statistic", "model")
    assert found["40.63"] == ("accuracy", 40.63, "mean", "ChatGLM-6B")
    assert found["54.44"] == ("accuracy", 54.44, None, "ChatGLM2-6B (base)")
    # a heading naming another thing beside the benchmark names no score
    other = CHATGLM2_MMLU.replace("### MMLU", "### MMLU inference cost")
    assert "40.63" not in fields_by_raw_value(other, "metric")


# Oneflow-Inc/DLPerf, reports/dlperf_benchmark_test_report_v1_cn.md, 表 4-3 (two columns of the
# table and its first two rows): a header stating its batch size with a footnote's mark.
DLPERF_FOOTNOTED_BATCH = """### 4.3  AMP batch size = 256各框架吞吐率 (images/sec)

<p align="center">表 4-3 ResNet50-v1.5 AMP batch size = 256 各个框架吞吐率对比</p>

| node num | device num | [OneFlow](../OneFlow) | [PaddlePaddle<br/>w/DALI<br/>bsz=196](../PaddlePaddle/resnet50v1.5)<sup>[1]</sup> |
| -------- | ---------- | --------------------- | ------------------------------------------------------------ |
| 1        | 1          | 1472.72               | 887.17                                                       |
| 1        | 8          | 10629.32              | 6862.17                                                      |
"""


def test_a_batch_size_in_a_header_holds_before_a_footnote_mark():
    found = fields_by_raw_value(DLPERF_FOOTNOTED_BATCH, "batch_size", "metric")
    # The column's figures are values at batch 196, not the batch sizes of their rows.
    assert found["887.17"] == ("196", "throughput")
    assert found["1472.72"] == ("256", "throughput")
