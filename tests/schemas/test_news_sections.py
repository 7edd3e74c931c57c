"""Prose that names hardware no result of the page ran on: a README's news items ("finetune
LLaMA2-70B ... on 8 Intel Max 1550 GPU") are no setup of the page's tables, while an earlier
setup section still names their hardware; a chip whose results are still to come ("RTX 3090
version is coming soon") is no chip of theirs either."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

# As intel/ipex-llm writes it (README.md): a news list, then a perplexity table whose section
# names no hardware.
NEWS_THEN_TABLE = """# Intel® LLM Library for PyTorch*

## Latest Update 🔥
- [2024/07] We added FP6 support on Intel GPU.
- [2024/01] Using `ipex-llm` QLoRA, we managed to finetune LLaMA2-7B in **21 minutes** and \
LLaMA2-70B in **3.14 hours** on 8 Intel Max 1550 GPU for Standford-Alpaca.

## Model Accuracy
Please see the **Perplexity** result below (tested on Wikitext dataset).
|Perplexity                 |sym_int4	|q4_k	  |fp16   |
|---------------------------|---------|-------|-------|
|Llama-2-7B-chat-hf	        |6.364 	  |6.218 	|6.096  |
|Mistral-7B-Instruct-v0.2	  |5.365 	  |5.320 	|5.244  |
"""

SETUP_THEN_TABLE = """# Serving benchmark

## Latest News
- [2025/02] Our engine served Llama 3 70B on 8 H100 GPUs at 2x the throughput.

## Setup
All numbers below were measured on one AMD MI210 GPU.

## Results
| Model | Throughput (tokens/s) |
|-------|-----------------------|
| Llama-2-7B | 1532 |
"""


def test_a_news_item_names_no_chip_of_a_later_table():
    found = fields_by_raw_value(NEWS_THEN_TABLE, "accelerator", "metric", "weight_dtype")
    assert found["6.364"] == (None, "accuracy", "int4")
    assert found["5.244"] == (None, "accuracy", "fp16")


def test_a_setup_section_still_names_the_chip_past_the_news():
    found = fields_by_raw_value(SETUP_THEN_TABLE, "accelerator", "accelerator_count")
    assert found["1532"] == ("MI210", 1)


# As mindspore-ai/models writes it (benchmark.md): the chip the results ran on, then one whose
# results are still to come.
TESTED_AND_COMING = """## Computer Vision

Currently all results are tested on Ascend 910, RTX 3090 version is coming soon

### Image Classification

| model | acc@1 | bs | cards | ms/step | amp |
:-: | :-: | :-: | :-: | :-: | :-: |
| vgg11| 71.86 | 32 | 8 |  61.63  |  O2 |
| resnet50| 76.69 | 32 | 8 |  31.97  |  O2 |
"""


def test_hardware_whose_results_are_still_to_come_names_no_run():
    found = fields_by_raw_value(TESTED_AND_COMING, "accelerator", "accelerator_count", "metric")
    assert found["61.63"] == ("Ascend 910", 8, "latency")
    assert found["76.69"] == ("Ascend 910", 8, "accuracy")


# As THUDM/ChatGLM3 writes it (README.md): a section of links to other projects, one of which
# runs the model on a Sophgo chip, then the model's benchmark scores.
LINKS_THEN_SCORES = """# ChatGLM3

## 友情链接

推理加速：

* [ChatGLM3-TPU](https://github.com/sophgo/ChatGLM3-TPU): 采用TPU加速推理方案，在算能端侧芯片BM1684X（16T@FP16，内存16G）上实时运行约7.5 token/s

## 评测结果

### 典型任务

我们选取了 8 个中英文典型数据集，在 ChatGLM3-6B (base) 版本上进行了性能测试。

| Model            | GSM8K | MATH | BBH  | MMLU |
|------------------|:-----:|:----:|:----:|:----:|
| ChatGLM2-6B-Base | 32.4  | 6.5  | 33.7 | 47.9 |
| Best Baseline    | 52.1  | 13.1 | 45.0 | 60.1 |
| ChatGLM3-6B-Base | 72.3  | 25.7 | 66.1 | 61.4 |

此外，我们还在 LongBench 评测集上对模型进行了测试，其效果平均提升了超过50%。
"""


def test_a_section_of_links_to_other_projects_names_no_hardware_of_the_pages_tables():
    found = fields_by_raw_value(LINKS_THEN_SCORES, "accelerator", "model", "statistic")
    assert found["47.9"] == (None, "ChatGLM2-6B-Base", None)  # no BM1684X, no median
    assert found["61.4"] == (None, "ChatGLM3-6B-Base", None)  # the row's model, not the caption's
    assert found["60.1"] == (None, "Best Baseline", None)
