"""Tables of Chinese model publishers and framework makers no corpus holds, written as their
pages write them: a minimum GPU memory per quantization level, a generation speed in
characters per second, a thread count beside a speed, the hardware of a run listed item by
item (the accelerator, then the host CPU)."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
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

