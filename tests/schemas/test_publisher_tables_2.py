"""Tables of more publishers' pages, each quoted from a public page: cells naming each of
their values ("top1：78.48%   top5：94.09%"), a model named in the run's setup list, and a
device count stated beside the one system named."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.platform_mentions import read_platform
from tests.schemas.page_reading import normalized

# Ascend ModelZoo-PyTorch's ACL_PyTorch/.../Wide_ResNet50_2 README.md: a sideways table whose
# cells name their top-1 and top-5 accuracies.
ASCEND_WIDE_RESNET = """# 模型推理性能&精度

调用ACL接口推理计算，性能参考下列数据。

精度对比：

| Model     | Wide_ResNet50_2             |
| --------- | --------------------------- |
| 开源精度  | top1：78.48%   top5：94.09% |
| 310P3精度 | top1：78.48%   top5：94.09% |
"""


def test_a_cell_naming_two_accuracies_gives_both_values_named():
    values = normalized(ASCEND_WIDE_RESNET).measurements
    found = sorted(
        (row["variant"], row["qualifier"], row["value"], row["unit"], row["metric"])
        for row in values.iter_rows(named=True)
    )
    assert found == [
        ("310P3精度", "top1", 78.48, "%", "accuracy"),
        ("310P3精度", "top5", 94.09, "%", "accuracy"),
        ("开源精度", "top1", 78.48, "%", "accuracy"),
        ("开源精度", "top5", 94.09, "%", "accuracy"),
    ]
    assert set(values.get_column("model")) == {"Wide_ResNet50_2"}


def test_named_values_under_an_accuracy_header_read_or_are_quarantined_never_dropped():
    page = (
        "| Model | Accuracy |\n| --- | --- |\n"
        "| Wide_ResNet50_2 | top1：78.48%   top5：94.09% |\n"
        "| ResNet101 | top1：77.4% top5：n/a |\n"
    )
    document = normalized(page)
    assert sorted(document.measurements.get_column("value")) == [78.48, 94.09]
    assert document.quarantine.get_column("raw_value").to_list() == ["top1：77.4% top5：n/a"]


def test_named_values_need_a_unit_or_decimals():
    reading = read_cell("Acc@1=76.1, Acc@5: 92.9")
    assert [(value.number, value.qualifier) for value in reading.values] == [
        (76.1, "Acc@1"),
        (92.9, "Acc@5"),
    ]
    # a setting's whole number is no score
    assert read_cell("bs=8").problem == "unparseable_value"
    assert read_cell("TP: 8").problem == "unparseable_value"


# ktransformers' doc/en/DeepseekR1_V3_tutorial.md: the model is named in the list of the
# run's setup, beside its CPU and GPU, above the section holding the table.
KTRANS_V02_SETTINGS = """### V0.2

#### Settings

- Model: DeepseekV3-q4km (int4)<br>
- CPU: cpu_model_name: Intel (R) Xeon (R) Gold 6454S, 32 cores per socket, 2 sockets, 2 numa nodes
- GPU: 4090D 24G VRAM
- We test after enough warm up

#### Benchmark Results

| Prompt<br>(500 tokens) | Dual socket Ktrans (6 experts) | llama.cpp (8 experts) |
| ---------------------- | ------------------------------ | --------------------- |
| Prefill token/s        | 97.32                          | 10.31                 |
| Decode token/s         | 13.69                          | 4.51                  |
"""


def test_a_model_named_in_the_setup_list_labels_the_table():
    values = normalized(KTRANS_V02_SETTINGS).measurements
    assert set(values.get_column("model")) == {"DeepseekV3-q4km"}
    assert all("model=paragraph" in sources for sources in values.get_column("label_sources"))


def test_a_setup_line_naming_a_known_model_gives_it_and_a_sentence_gives_none():
    page = """## Settings

- **Model**: [Qwen3-30B-A3B](https://huggingface.co/Qwen/Qwen3-30B-A3B)
- Model: we use the default one

| Prompt | Prefill token/s |
| --- | --- |
| 1K | 185.96 |
"""
    values = normalized(page).measurements
    assert values.get_column("model_canonical").to_list() == ["Qwen3 30B-A3B"]


# vllm-ascend's docs/source/tutorials/suffix_speculative_decoding.md: the introduction
# states how many of the node's eight NPUs the run used.
ASCEND_SUFFIX = """# Suffix Speculative Decoding

## **Introduction**

This document provides step-by-step guidance on how to deploy and benchmark the Suffix Decoding speculative inference technology supported by `vllm-ascend` on Atlas A2 hardware. The setup utilizes a single Atlas 800T A2 node with a 4-card deployment of the Qwen3-32B model instance.

## **Test Results**

| Concurrency         | Avg Input | Avg Output | Requests | Base TPOT(ms) | Base Throughput(TPS) |
| ------------------- | --------- | ---------- | -------- | ------------- | -------------------- |
| **HumanEval**       |           |            |          |               |                      |
| 1                   | 150       | 2700       | 100      | 55.1          | 18.1                 |
"""


def test_a_device_count_stated_beside_one_system_is_the_run_s_count():
    values = normalized(ASCEND_SUFFIX).measurements
    found = {
        row["raw_value"]: (row["accelerator"], row["accelerator_count"])
        for row in values.iter_rows(named=True)
    }
    assert found["55.1"] == ("Ascend 910B", 4)
    assert found["18.1"] == ("Ascend 910B", 4)


def test_a_device_count_per_node_of_several_nodes_is_no_run_count():
    mention = read_platform("2 DGX H100 nodes, each with 8 GPUs", prose=True)
    assert mention is not None and mention.count == 16


# ktransformers' doc/en/benchmark.md: accuracies grouped under a row naming the benchmark
# ("MMLU<br>(shuffle 1k)", not bold, over blank cells); no header names the metric.
KTRANS_ACCURACY = """## The Result Table
Uses DeepSeek-V3 model (Some specific cases are R1)

|                          |                   |            |                   |         |            |                                                        |              |
| ------------------------ | ----------------- | ---------- | ----------------- | ------- | ---------- | ------------------------------------------------------ | ------------ |
| DataSet                  | CPU Weight Format | CPU Kernel | GPU Weight Format | GEMM Kernel   | MLA Kernel | [Siliconflow](https://cloud.siliconflow.cn/models)<br> | Ktrans Point |
| MMLU<br><br>(shuffle 1k) |               |    |               |    |       |                                                    |          |
|          1                | bf16              | cpuinfer   | bf16              | torch   | torch      | 81.6                                                   | 81.9         |
|           2               | q8_0              | cpuinfer   | bf16              | torch   | torch      | 81.6                                                   | 83.1         |
| MMLU-pro<br>(shuffle 1k)                 |               |    |                |  |      |                                                    |          |
| 1                 | q4km              | cpuinfer   | fp8               | fp8gemm | triton     | 57.7                                                   | 57.6         |
| HumanEval                | tbd               | tbd        | tbd               | tbd     | tbd        | tbd                                                    | tbd          |
"""


def test_values_under_a_row_naming_a_scored_benchmark_are_its_accuracies():
    document = normalized(KTRANS_ACCURACY)
    found = {
        (row["raw_value"], row["column_name"]): (row["metric"], row["table_title"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found[("81.9", "Ktrans Point")] == (
        "accuracy",
        "The Result Table — MMLU (shuffle 1k)",
    )
    assert found[("57.6", "Ktrans Point")][0] == "accuracy"
    assert set(document.measurements.get_column("dataset_canonical")) <= {"MMLU", "MMLU-Pro", None}
    assert document.measurements.height == 6
    # "tbd" under HumanEval: no value published for an accuracy, not an unknown metric
    assert set(document.quarantine.get_column("check")) == {"placeholder_value"}


def test_a_column_headed_by_a_scored_benchmark_alone_holds_its_scores():
    page = """| Model | MMLU | Arc A770 |
| --- | --- | --- |
| Llama 3 8B | 66.6 | 41.2 |
"""
    document = normalized(page)
    assert document.measurements.select("raw_value", "metric").rows() == [("66.6", "accuracy")]
    assert document.quarantine.get_column("check").to_list() == ["unknown_metric"]


# faster-whisper's README.md: the batch size is written in code quotes inside the row label.
FASTER_WHISPER = """### Large-v2 model on GPU

| Implementation | Precision | Beam size | Time | VRAM Usage |
| --- | --- | --- | --- | --- |
| faster-whisper | fp16 | 5 | 1m03s | 4525MB |
| faster-whisper (`batch_size=8`) | fp16 | 5 | 17s | 6090MB |
"""


def test_a_batch_size_in_code_quotes_in_a_row_label_is_the_value_s_batch_size():
    values = normalized(FASTER_WHISPER).measurements
    found = {row["raw_value"]: row["batch_size"] for row in values.iter_rows(named=True)}
    assert found["6090MB"] == "8"
    assert found["4525MB"] is None
