"""Mobile and edge chips written the short ways their users write them: the maker's
abbreviation before a bare model number ("qcom 888", "MTK 9300"), a generation glued to its
tier ("8Gen3"), a phone by its maker's model name ("Mi 11", "Mate 60 Pro"), a board named in
Chinese ("树莓派4B", "旭日X3")."""

from __future__ import annotations

import pytest

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As open-mmlab/mmdeploy writes it (docs/zh_cn/03-benchmark/benchmark_edge.md): the phone and
# the SoC inside it in the list of the test environment, the tables in the sections below.
EDGE_RESULTS = """# 边、端设备测试结果

## 软硬件环境

- host OS ubuntu 18.04
- backend SNPE-1.59
- device Mi11 (qcom 888)

## mmpretrain 模型

| model | dataset | spatial | fp32 top-1 (%) | snpe gpu hybrid fp32 top-1 (%) | latency (ms) |
| :---: | :-----: | :-----: | :------------: | :----------------------------: | :----------: |
| ShuffleNetV2 | ImageNet-1k | 224x224 | 69.55 | 69.83\\* | 20±7 |
| MobilenetV2 | ImageNet-1k | 224x224 | 71.86 | 72.14\\* | 15±6 |

## mmseg

| model | dataset | spatial | mIoU | latency(ms) |
| :---: | :-----: | :-----: | :--: | :---------: |
| fcn | Cityscapes | 512x1024 | 71.11 | 4915±500 |
"""


def test_the_soc_written_after_the_makers_abbreviation_labels_the_pages_tables():
    found = fields_by_raw_value(EDGE_RESULTS, "accelerator", "vendor", "metric")
    assert found["20±7"] == ("Snapdragon 888", "Qualcomm", "latency")
    assert found["72.14*"] == ("Snapdragon 888", "Qualcomm", "accuracy")
    assert found["4915±500"] == ("Snapdragon 888", "Qualcomm", "latency")


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        ("qcom 888", "Snapdragon 888"),
        ("Qualcomm 865 board", "Snapdragon 865"),
        ("QCOM 8 Gen 2", "Snapdragon 8 Gen 2"),
        ("Qualcomm 8Gen3", "Snapdragon 8 Gen 3"),
        ("Snapdragon 8gen3", "Snapdragon 8 Gen 3"),
        ("骁龙8Gen2", "Snapdragon 8 Gen 2"),
        ("Snapdragon 8s Gen 3", "Snapdragon 8s Gen 3"),
        ("MTK 9300", "Dimensity 9300"),
        ("mtk dimensity 9000", "Dimensity 9000"),
        ("Xiaomi Mi 10 Pro", "Snapdragon 865"),
        ("Mi 11 on Android", "Snapdragon 888"),
        ("Xiaomi 14 running llama.cpp", "Snapdragon 8 Gen 3"),
        ("Huawei Mate 60 Pro", "Kirin 9000S"),
        ("vivo X100 Pro", "Dimensity 9300"),
        ("OPPO Find X7", "Dimensity 9300"),
        ("Honor Magic5 Pro", "Snapdragon 8 Gen 2"),
        ("树莓派4B", "BCM2711"),
        ("地平线旭日X3", "Sunrise X3"),
        ("鲲鹏 920 CPU 性能 (ms)", "Kunpeng 920"),
        ("紫光展锐T820(ms)", "T820"),
        ("紫光展锐虎贲 T7510 / CPU(ms)", "T7510"),
        ("MT8168 / NPU(ms)", "MT8168"),
        ("C308X / NPU(ms)", "C308X"),
        ("寒武纪X9 (ms)", "X9"),  # a maker's Chinese name written against the model token
        ("加速卡型号: 昆仑芯AI加速卡R300", "Kunlunxin R300"),
        ("机器、加速卡型号: 曦云®C500 64G", "C500"),
        ("沐曦集成电路 C500 GPU配置与运行信息参考", "C500"),
    ],
)
def test_a_shorthand_names_its_chip(text, chip):
    mention = read_hardware(text, "label")
    assert mention is not None and mention.accelerator == chip


@pytest.mark.parametrize(
    "text",
    [
        "Mi 11",  # no word near it says it is a phone
        "MI10",
        "Xiaomi 14T",  # another phone, another SoC
        "Xiaomi 13 Lite",
        "vivo X90 Pro+",
        "OPPO Find X7 Ultra",
        "Honor Magic 6 Lite",
        "MediaTek 8195",  # a Kompanio part, no Dimensity
    ],
)
def test_a_name_that_may_be_another_product_names_no_known_chip(text):
    mention = read_hardware(text, "label")
    assert mention is None or mention.accelerator is None or mention.names_device


# As PaddlePaddle/PaddleDetection writes it (configs/ppyoloe/README_cn.md, "Objects365数据集模型库"):
# machines (机器个数), GPUs (GPU个数) and images per GPU (每GPU图片个数) as columns.
MACHINES_AND_GPUS = """### Objects365数据集模型库
| 模型 | Epoch | 机器个数 | GPU个数 | 每GPU图片个数 | 骨干网络 | 输入尺寸 | Box AP<sup>0.5 | V100 FP32(FPS) |
|:---:|:---:|:---:|:---:|:---:|:---:|:---:|:---:|:---:|
| PP-YOLOE+_s | 60 | 3 | 8 | 8 | cspresnet-s | 640 | 18.1 | 208.3 |
| PP-YOLOE+_m | 60 | 4 | 8 | 8 | cspresnet-m | 640 | 25.0 | 123.4 |
"""


def test_chinese_headers_of_machines_and_images_per_gpu_are_settings():
    measurements = normalized(MACHINES_AND_GPUS).measurements
    found = {
        row["raw_value"]: row
        for row in measurements.iter_rows(named=True)
        if row["raw_value"] in ("208.3", "123.4")
    }
    assert found["208.3"]["accelerator"] == "V100"
    assert found["208.3"]["accelerator_count"] == 8  # GPU个数
    assert found["208.3"]["batch_size"] == "8"  # 每GPU图片个数: images per GPU, no GPU count
    assert "机器个数=3" in found["208.3"]["settings"]  # machines: a setting, no metric
    assert "机器个数=4" in found["123.4"]["settings"]
    assert "机器个数" not in set(measurements["column_name"])


# As PaddlePaddle/Paddle-Lite's docs/demo_guides/huawei_ascend_npu.md shows it ("性能（基于 CANN
# 3.3.0 版本测试）"), its first rows: the host CPUs, then each host with an Ascend 310.
HOSTS_AND_CARDS = """#### 性能（基于 CANN 3.3.0 版本测试）

| 模型 | Intel CPU性能 (ms) | x86 + Ascend310 性能 (ms） | 鲲鹏 920 CPU 性能 (ms) | 鲲鹏920 + Ascend310 性能 (ms) |
| ---- | ------------------ | -------------------------- | ---------------------- | ----------------------------- |
| [AlexNet](https://paddlelite-demo.bj.bcebos.com/NNAdapter/models/PaddleClas/AlexNet.tgz) | 81.16 | 4.32 | 67.39 | 3.64 |
| [DenseNet121](https://paddlelite-demo.bj.bcebos.com/NNAdapter/models/PaddleClas/DenseNet121.tgz) | 529.45 | 7.81 | 157.62 | 6.23 |
"""


def test_a_server_cpu_named_in_chinese_is_its_chip_and_no_count():
    found = fields_by_raw_value(HOSTS_AND_CARDS, "accelerator", "accelerator_count", "metric")
    assert found["67.39"] == ("Kunpeng 920", None, "latency")  # not 920 CPUs
    assert found["3.64"] == ("Ascend 310", None, "latency")
    assert found["4.32"] == ("Ascend 310", None, "latency")
