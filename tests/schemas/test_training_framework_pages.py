"""Pages of LLM training and quantization projects quoted as they are published: an RST page
whose only HTML is a `.. raw:: html` block, a hardware list naming the GPUs before the host
CPU, a leaderboard's "Average" beside benchmarks scored by accuracy, a "batchsize" column and
an RTX 6000 Ada written in one word."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from perfledger.sources.layouts import choose_layout
from tests.schemas.page_reading import normalized

# InternLM/xtuner docs/zh_cn/legacy/acceleration/benchmark.rst (one table of three, two rows).
XTUNER_SPEED = """速度基准
========

使用
`Alpaca <https://huggingface.co/datasets/tatsu-lab/alpaca>`__
作为训练数据集测试速度。

硬件
----

-  NVIDIA A100-SXM4-80GB GPUs

-  Intel(R) Xeon(R) Gold 6348 CPU @ 2.60GHz

软件环境
--------

-  Python 3.10

-  PyTorch 1.13

速度
----

.. tip::
  TGS 全称是 Tokens per GPU per Second，每张 GPU 每秒训练的 Token 数

.. raw:: html

   <html xmlns="http://www.w3.org/1999/xhtml"><head></head><body><div align="center"></div></body></html>

.. list-table::
  :widths: 30 15 20 20 20
  :header-rows: 1

  * - 模型
    - GPUs
    - 序列长度
    - TGS
    - TFLOPs
  * - Llama2-7B
    - 8
    - 8k
    - 3028.3
    - 185.3
  * - Llama2-7B
    - 8
    - 32k
    - 2234.2
    - 193.0
"""


def test_an_rst_page_embedding_a_whole_html_document_in_a_raw_block_is_read_as_rst():
    data = XTUNER_SPEED.encode()
    assert choose_layout(data, None).name == "rst_table"
    assert choose_layout(data, "text/x-rst").name == "rst_table"


def test_the_gpus_a_hardware_list_names_outrank_the_host_cpu_listed_after_them():
    rows = normalized(XTUNER_SPEED, "text/x-rst").measurements
    found = {
        (row["raw_value"], row["metric"]): (
            row["accelerator"],
            row["accelerator_count"],
            row["rate_per"],
        )
        for row in rows.iter_rows(named=True)
    }
    # "TGS": tokens per GPU per second, as the tip before the table defines it
    assert found[("3028.3", "throughput")] == ("A100", 8, "accelerator")
    assert found[("193.0", "other")] == ("A100", 8, None)
    assert rows.height == 4


# yangjianxin1/Firefly README.md: Open LLM Leaderboard scores.
FIREFLY_LEADERBOARD = """| 模型                          | Average | ARC   | HellaSwag | MMLU  | TruthfulQA |
|-----------------------------|---------|-------|-----------|-------|------------|
| **firefly-mixtral-8x7b**    | 70.16   | 68.09 | 85.76     | 71.49 | 55.31      |
| Yi-34B-Chat                 | 69.97   | 65.44 | 84.16     | 74.9  | 55.37      |
"""


def test_an_average_beside_benchmarks_scored_by_accuracy_is_their_mean_accuracy():
    found = {
        (row["raw_value"], row["column_name"]): (row["metric"], row["model"])
        for row in normalized(FIREFLY_LEADERBOARD).measurements.iter_rows(named=True)
    }
    assert found[("70.16", "Average")] == ("accuracy", "firefly-mixtral-8x7b")
    assert found[("74.9", "MMLU")] == ("accuracy", "Yi-34B-Chat")
    assert len(found) == 10


# Cornell-RelaxML/quip-sharp README.md: the card named in one word under the heading.
QUIP_THROUGHPUT = """### QuIP# Inference Throughput
Timed on a RTX6000 ADA.
|    Method   |    2-7B    | 2-70B |
|:-----------:|:----------:|:-----:|
|     FP16    | 57.7 tok/s |  OOM  |
|  AQLM 2 Bit |    81.1    |  8.72 |
| QuIP# 2 Bit |    176   |  21.9 |
"""


def test_a_card_whose_name_is_written_in_one_word_is_known():
    rows = normalized(QUIP_THROUGHPUT).measurements
    assert set(rows.get_column("accelerator").to_list()) == {"RTX 6000 Ada"}
    assert set(rows.get_column("accelerator_count").to_list()) == {1}  # "on a RTX6000 ADA"


def test_batch_size_written_in_one_word_heads_batch_sizes():
    # microsoft/BitBLAS integration/BitNet/README.md: "| **Model** | **Device** | **batchsize** |"
    assert (read_header("batchsize").kind, read_header("batchsize").role) == (
        "config",
        "batch_size",
    )
