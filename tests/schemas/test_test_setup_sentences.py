"""A sentence beside a table saying what its test or evaluation ran ("使用官方实现，batch size =
1，…，测试硬件为 A100-SXM4-80G", "batch size of 1 ... for the evaluation") states the batch
size of its values, as one naming the benchmark does."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# THUDM/ChatGLM2-6B, README.md (commit cb8e8b43), "推理性能", its first table and the note
# under it, as published.
CHATGLM2_SPEED = """## 推理性能
ChatGLM2-6B 使用了 [Multi-Query Attention](http://arxiv.org/abs/1911.02150)，提高了生成速度。生成 2000 个字符的平均速度对比如下

| Model | 推理速度 (字符/秒) |
| ----  | -----  |
| ChatGLM-6B  | 31.49 |
| ChatGLM2-6B | 44.62 |

> 使用官方实现，batch size = 1，max length = 2048，bf16 精度，测试硬件为 A100-SXM4-80G，软件环境为 PyTorch 2.0.1
"""


def test_a_note_on_the_test_hardware_states_the_batch_size():
    rows = normalized(CHATGLM2_SPEED).measurements
    assert rows.select(
        "model", "value", "item_kind", "batch_size_number", "precision", "accelerator"
    ).rows() == [
        ("ChatGLM-6B", 31.49, "characters", 1.0, "bf16", "A100"),
        ("ChatGLM2-6B", 44.62, "characters", 1.0, "bf16", "A100"),
    ]


def test_a_batch_size_said_in_passing_is_no_runs():
    page = """| Model | Speed (tokens/s) |
| --- | --- |
| ChatGLM2-6B | 44.62 |

A batch size = 64 would run out of memory on this card.
"""
    assert normalized(page).measurements.get_column("batch_size").to_list() == [None]
