"""What a table's context says of it, read from real pages of ../shared/real-pages-2: numbered
captions on either side of a table, the paragraphs an enclosing section opens with, legends
of hardware keys and glossaries of header words, and file names that name no hardware."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from perfledger.schemas.context_labels import context_labels, device_class
from perfledger.schemas.context_parts import precision_of_part
from perfledger.schemas.legends import legend_platform
from perfledger.schemas.table_context import table_contexts
from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import normalized

PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages-2" / "pages"


def contexts_of(name: str):
    path = PAGES / name
    if not path.is_file():
        pytest.skip(f"{path} is not here; these tests read ../shared/real-pages-2")
    parsed, _layout = parse_document(path.read_bytes(), None)
    return table_contexts(parsed.outline, None, {})


def texts(context) -> list[tuple[str, str]]:
    return [(text.source, text.text) for text in context.texts]


def test_a_numbered_caption_under_a_table_labels_that_table_only():
    contexts = contexts_of("microsoft_deepspeed_chat_blog_README.md")
    # "Table 6. ... on a single commodity NVIDIA A6000 GPU" is written under the sixth table.
    sixth = texts(contexts[5])
    assert sixth[0][0] == "caption" and sixth[0][1].startswith("Table 6. E2E time breakdown")
    # Table 5's caption (8 DGX nodes of A100s) stands in the same section but is not its.
    assert not any(text.startswith("Table 5.") for _source, text in sixth)
    fifth = context_labels(contexts[4])
    assert fifth["platform"].value.accelerator == "A100"
    assert fifth["platform"].source == "caption"


def test_an_enclosing_section_s_paragraph_labels_its_subsections_tables_per_chip():
    contexts = contexts_of("colossalai_legacy_pipeline_inference_README.md")
    # "The test environment is 2 * A10, 20G / 2 * A800, 80G." opens "Performance"; the
    # tables stand under "#### A10 7b, fp16" and "#### A800 7b, fp16".
    a10, a800 = context_labels(contexts[0]), context_labels(contexts[2])
    assert (a10["platform"].value.accelerator, a10["count"].value.count) == ("A10", 2)
    assert (a800["platform"].value.accelerator, a800["count"].value.count) == ("A800", 2)
    assert a800["count"].source == "paragraph"


def test_a_legend_of_hardware_keys_names_the_hardware_of_each_header():
    context = contexts_of("intel_openvino_docs_model_accuracy_int8_fp32.rst")[0]
    assert sorted(key for key, _definition in context.legend) == ["A", "B", "C", "D"]
    assert legend_platform("B, INT8", context.legend).accelerator == "Xeon 6338"
    assert legend_platform("D, INT8", context.legend).accelerator == "Flex 170"
    assert legend_platform("A, INT8", context.legend).accelerator == "Core i9-9000K"


def test_a_glossary_under_a_table_defines_its_header_words():
    context = contexts_of("nvidia_megatron_lm_examples_llama_README.md")[0]
    assert context.glossary["tp"] == "Tensor Parallel size"
    assert context.glossary["gbs"] == "Global Batch Size"


def test_a_script_name_in_prose_names_no_hardware():
    # "You can modify these parameters directly in the `train_llama3_8b_h100_fp8.sh` script."
    found = context_labels(contexts_of("nvidia_megatron_lm_examples_llama_README.md")[0])
    assert "platform" not in found
    assert found["precision"].value.activation == "fp8"  # "### FP8 Performance"


def test_a_column_naming_a_device_class_takes_the_context_s_chip_of_that_class():
    # PaddleClas (in Chinese): "GPU 耗时(ms)" and "CPU 耗时(ms)" over one table, the test
    # environments listed under it: "Intel(R) Xeon(R) Gold 6271C" and "NVIDIA Tesla V100 单卡".
    context = contexts_of("paddleclas_deploy_slim_act_README.md")[0]
    found = context_labels(context)
    assert device_class("GPU 耗时(ms)") == "accelerator"
    assert device_class("CPU 耗时(ms)") == "cpu"
    assert device_class("TFLOPS / GPU") is None  # a figure per device names no class
    gpu, cpu = found["platform:accelerator"].value, found["platform:cpu"].value
    assert (gpu.accelerator, gpu.count, cpu.accelerator) == ("V100", 1, "Xeon 6271C")


def test_a_caption_written_as_a_sentence_counts_a_single_chip():
    found = context_labels(contexts_of("microsoft_deepspeed_chat_blog_README.md")[5])
    assert (found["platform"].value.accelerator, found["count"].value.count) == ("A6000", 1)


def test_a_precision_stated_per_part_of_a_run_labels_that_part_s_columns():
    # DeepEP: "FP8 dispatching and BF16 combining" over "Dispatch #EP | Latency | ... |
    # Combine #EP | Latency | ...".
    found = context_labels(contexts_of("deepseek_deepep_README.md")[1])
    parts = found["precision_of_part"].value
    assert precision_of_part(parts, "dispatch").activation == "fp8"
    assert precision_of_part(parts, "combine").activation == "bf16"
    assert precision_of_part(parts, None) is None


def test_a_setting_the_page_defines_as_a_device_count_is_the_values_count():
    # LMDeploy's TurboMind benchmark: "`tp`: the number of GPU cards for tensor parallelism"
    page = (
        "# TurboMind Benchmark on A100\n\n## Request Throughput Benchmark\n\n"
        "- `batch`: the max batch size during inference\n"
        "- `tp`: the number of GPU cards for tensor parallelism\n"
        "- `PRS`: **R**equest **P**er **S**econd\n\n"
        "| model | batch | tp | RPS | throughput(out tok/s) |\n"
        "| --- | --- | --- | --- | --- |\n"
        "| llama2-7b | 256 | 1 | 14.556 | 3387.419 |\n"
        "| llama2-70b | 256 | 4 | 7.231 | 1682.738 |\n"
    )
    values = normalized(page, source_id="turbomind").measurements
    counts = dict(
        values.filter(pl.col("column_name") == "RPS")
        .select("model", "accelerator_count")
        .iter_rows()
    )
    assert counts == {"llama2-7b": 1, "llama2-70b": 4}
