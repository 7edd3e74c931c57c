"""A page describing the setup of several vendors' hardware, a section each ("#### 2.1 Nvidia
A100 ... 加速卡型号: NVIDIA_A100-SXM4-40GB", "#### 2.3 天数智芯 MR-V100 ..."), then one table
of all their results: no one of those setups is the setup of the table. A page describing one
setup (its accelerator and its host CPU) still labels its tables with the accelerator."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As FlagOpen/FlagPerf writes it (inference/benchmarks/resnet50/README.md), shortened.
SEVERAL_SETUPS = """### 2. 软硬件配置与运行信息参考

#### 2.1 Nvidia A100

- ##### 硬件环境
    - 机器、加速卡型号: NVIDIA_A100-SXM4-40GB
    - 多机网络类型、带宽: InfiniBand，200Gb/s

#### 2.3 天数智芯 MR-V100

- ##### 硬件环境
    - 机器、加速卡型号: MR-V100

### 3. 运行情况

* 指标列表

| 指标名称           | 指标值索引       | 特殊说明                                     |
| ------------------ | ---------------- | -------------------------------------------- |
| 推理总吞吐量       | p_infer_whole    | 实际推理图片数除以总推理时间                 |
| 推理结果           | acc(推理/验证)   | 单位为top1分类准确率(acc1)                   |

* 指标值

| 推理工具  | precision | bs   | p_infer_whole | acc         |
| ----------- | --------- | ---- | ---------- | ----------- |
| tensorrt | fp16      | 256  | 1391.4   | 76.2/76.2 |
| ixrt     | fp16  (W16A32)   | 256  | 1389.332  | 76.2/76.2 |
"""

# As FlagOpen/FlagPerf writes it (training/mthreads/resnet50-pytorch/README.md), shortened.
ONE_SETUP = """### 2. 摩尔线程 MTT S系列 GPU配置与运行信息参考
#### 环境配置
- ##### 硬件环境
    - 硬件
      - 机器型号： MCCX D800
      - 加速卡型号: MTT S4000 48GB
      - CPU型号：Intel(R) Xeon(R) Gold 6430 CPU @ 2.00GHz
      - 多机网络类型、带宽: InfiniBand，2*200Gbps

### 运行情况

* 通用指标

| 指标名称       | 指标值                  | 特殊说明                              |
| -------------- | ----------------------- | ------------------------------------- |
| 总吞吐量       | p_whole,见“性能指标”    | 实际训练图片数除以总时间(performance_whole) |
| 训练结果       | acc,见“性能指标”        | 单位为top1分类准确率(acc1)            |

* 性能指标

| 配置               | precision | fix_hp | p_whole | acc  |
| ------------------ | --------- | ---- | ---- | ---- |
| 单机8卡（1x8） | amp |bs=512,lr=0.2 | 2900.1 | 73.08|
"""


def test_setups_of_several_vendors_label_no_table_that_names_none():
    found = fields_by_raw_value(SEVERAL_SETUPS, "metric", "accelerator")
    assert found["76.2/76.2"] == ("accuracy", None)  # neither the A100 nor the MR-V100 above


def test_one_setup_with_its_host_cpu_labels_its_tables_with_the_accelerator():
    found = fields_by_raw_value(ONE_SETUP, "metric", "accelerator", "accelerator_count")
    assert found["73.08"] == ("accuracy", "MTT S4000", 8)  # not "200Gbps" twice, nor the Xeon


def test_a_definitions_remark_gives_the_defined_word_its_unit():
    page = (
        ONE_SETUP.replace(
            "| 训练结果       | acc,见“性能指标”        | 单位为top1分类准确率(acc1)            |",
            "| 训练结果       | acc,见“性能指标”        | 单位为top1分类准确率(acc1)            |\n"
            "| 硬件存储使用   | mem,见“性能指标”        | 通常称为“显存”,单位为GiB              |",
        )
        .replace("| p_whole | acc  |", "| p_whole | acc  | mem |")
        .replace("| ---- | ---- |\n", "| ---- | ---- | ---- |\n")
        .replace("| 2900.1 | 73.08|", "| 2900.1 | 73.08| 26.2/48.0 |")
    )
    memory = [
        (row["metric"], row["unit"], row["value"])
        for row in normalized(page).measurements.iter_rows(named=True)
        if row["raw_value"] == "26.2/48.0"
    ]
    assert ("other", "GiB", 26.2) in memory  # "显存" (device memory), in GiB
