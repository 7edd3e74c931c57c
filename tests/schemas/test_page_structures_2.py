"""Structures of Chinese model-zoo pages, each quoted from a public page: a performance column
under a heading naming performance and accuracy, Chinese words written against a chip's name,
tables of versions and tensor sizes, device counts written "8p-NPU"."""

from __future__ import annotations

from perfledger.schemas.platform_mentions import read_platform

from .page_reading import normalized

# Ascend/ModelZoo-PyTorch, ACL_PyTorch/built-in/cv/Wide_ResNet50_2_for_Pytorch/README.md: the
# heading names performance and accuracy (性能&精度); the "性能" column holds throughputs whose
# unit the page never states.
WIDE_RESNET = """# Wide_ResNet50_2模型-推理指导

## 输入输出数据

| 输出数据 | 数据类型 | 大小     | 数据排布格式 |
| -------- | -------- | -------- | ------------ |
| output1  | FLOAT32  | 1 x 1000 | NCHW         |

## 推理环境准备

| 配套       | 版本    |
| ---------- | ------- |
| 固件与驱动 | 1.0.17  |
| CANN       | 6.0.RC1 |
| Python     | 3.7.5   |

# 模型推理性能&精度

性能对比：

| 芯片型号 | Batch Size   | 数据集 | 性能 |
| --------- | ---------------- | ---------- | --------------- |
| 310P3 | 1 | ILSVRC2012 | 748.088 |
| 310P3 | 4 | ILSVRC2012 | 1742.709 |
"""


def test_a_performance_column_is_no_accuracy_of_a_heading_naming_both():
    document = normalized(WIDE_RESNET)
    # "性能" (performance) under "模型推理性能&精度" is no accuracy: with no unit stated it
    # is quarantined, not loaded as a score
    assert "accuracy" not in document.measurements.get_column("metric").to_list()
    quarantined = {
        row["raw_value"]: row["check"] for row in document.quarantine.iter_rows(named=True)
    }
    assert quarantined == {"748.088": "unknown_metric", "1742.709": "unknown_metric"}


def test_tables_of_versions_and_tensor_sizes_hold_no_results():
    # "1 x 1000" under 大小 (size) is a tensor's shape, "6.0.RC1" under 版本 a version
    document = normalized(WIDE_RESNET)
    raw = set(document.measurements.get_column("raw_value").to_list())
    raw |= set(document.quarantine.get_column("raw_value").to_list())
    assert not raw & {"1 x 1000", "1.0.17", "6.0.RC1", "3.7.5"}


# The same zoo's AscendIE/TorchAIE/built-in/nlp/Albert/README.md: the chip's name written
# against the Chinese word for performance.
ALBERT = """# Albert模型-推理指导

bs32seq128对应的精度性能如下：

精度:

| 输入类型  | 芯片型号   | ACC(bs32seq128)   |
| --------- | -------- | ------------- |
| 静态      | Ascend310P3     | 92.82%         |

静态模型性能：

| 模型        | batch size   | 310P3性能   |
| :------:    | :------:  | :------:  |
| Albert base v2  | 1 | 532.61    |
| Albert base v2  | 4 | 841.79   |
"""


def test_a_chinese_word_written_against_a_chip_name_is_read():
    document = normalized(ALBERT)
    found = {row["raw_value"]: row["metric"] for row in document.measurements.iter_rows(named=True)}
    assert found == {"92.82%": "accuracy"}
    quarantined = set(document.quarantine.get_column("raw_value").to_list())
    assert quarantined == {"532.61", "841.79"}


# PyTorch/contrib/cv/pose_estimation/Lightweight_OpenPose/README.md: row labels count the
# devices ("8p-NPU-ARM", "1p-竞品V": one device of a competitor), a table counts them in
# "Npu_nums" beside a "step" column.
OPENPOSE = """# Lightweight OpenPose for PyTorch

# 训练结果展示

**表 2**  训练结果展示表

|   NAME   | Acc@1 |   FPS    | Epochs | AMP_Type | Torch_Version |
| :------: | :---: | :------: | :----: | :------: | :-----------: |
| 1p-竞品V |   -   | 254.017  |   1    |    O1     |      1.5      |
| 8p-竞品V | 0.413 | 1536.977 |  280   |    O1     |      1.5      |
|  8p-NPU-ARM  |  0.4289  | 2538.278  |  280   |    O1    |      1.8      |

8p-NPU上各阶段训练后的模型精度

| Acc@1    | step       | Npu_nums | Epochs   | AMP_Type |
| :------: | :------:  | :------: | :------: | :------: |
| 0.3973        | 1      | 8        | 280      | O1       |
| 0.4132     | 2     | 8        | 280      | O1      |
"""


def test_devices_counted_as_processes_and_in_a_count_column():
    values = normalized(OPENPOSE).measurements
    found = {
        (row["table_index"], row["raw_value"]): (row["metric"], row["accelerator_count"])
        for row in values.iter_rows(named=True)
    }
    assert found[(0, "254.017")] == ("throughput", 1)
    assert found[(0, "1536.977")] == ("throughput", 8)
    assert found[(0, "2538.278")] == ("throughput", 8)
    # "step" and "Npu_nums" are the run's settings, not accuracies
    second = {raw: label for (table, raw), label in found.items() if table == 1}
    assert second == {"0.3973": ("accuracy", 8), "0.4132": ("accuracy", 8)}


def test_a_resolution_is_no_device_count():
    assert read_platform("720p GPU decode") is None
    mention = read_platform("16p-NPU")
    assert mention is not None and mention.count == 16


# vLLM's blog post "PTPC-FP8: Boosting vLLM Performance on AMD ROCm": "Performance" there is
# the share of the BF16 accuracy a quantized model keeps, written in percent.
PTPC = """#### Understanding the Results

We measured accuracy using two methods:

**8B Model Results at a Glance:**

| Method | Strict-match Accuracy | % of BF16 Performance |
|:-------|:----------------------|:----------------------|
| BF16 (baseline) | 73.2% | 100% |
| PTPC-FP8 | 70.8% | 96.7% |
"""


def test_a_share_under_a_performance_column_of_an_accuracy_table_is_an_accuracy():
    values = normalized(PTPC).measurements
    found = {row["raw_value"]: row["metric"] for row in values.iter_rows(named=True)}
    assert found == {
        "73.2%": "accuracy",
        "100%": "accuracy",
        "70.8%": "accuracy",
        "96.7%": "accuracy",
    }
