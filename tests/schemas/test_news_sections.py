"""A README's news section lists what other runs did ("fine-tuned LLaMA2-70B on 8 Intel Max
1550 GPUs"): none of its items is the setup of the page's tables, while the prose of an
earlier setup section still names their hardware."""

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
