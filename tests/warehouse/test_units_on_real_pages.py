"""Units and metrics of pages of publishers outside the development corpus
(../shared/real-pages-2), ingested as a user would: each value as the page means it, with
where its unit came from. The pages stay in ../shared and are never copied here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main

PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages-2" / "pages"
READ = (
    "pytorch_torchtitan_llama3_h100_202412_benchmarks.md",
    "google_tpu_recipes_ironwood_training_README.md",
    "daoailab_flash_attention_training_README.md",
    "aws_neuron_vllm_structured_outputs_design.md",
    "pytorch_torchao_0.14_serving.html",
    "ray_train_benchmarks.rst",
    "nvidia_torch2trt_ghpages_jetson_xavier.html",
    "nvidia_tensorrt_tf_quantization_model_zoo.md",
    "nvidia_tensorrt_demo_deberta_README.md",
    "paddleclas_deploy_slim_act_README.md",
)


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> str:
    if not all((PAGES / name).is_file() for name in READ):
        pytest.skip(f"../shared/real-pages-2 is not here ({PAGES}); these tests read its pages")
    folder = str(tmp_path_factory.mktemp("units") / "warehouse")
    run("ingest", *(str(PAGES / name) for name in READ), "--warehouse", folder, "--quiet")
    return folder


def value(warehouse: str, page: str, column: str, raw: str, metric: str) -> dict:
    rows = json.loads(
        run(
            "sql",
            "SELECT metric, value, unit, rate_per, value_per_accelerator, label_sources "
            f"FROM measurements WHERE source_url LIKE '%{page}' AND column_name = '{column}' "
            f"AND raw_value = '{raw}' AND metric = '{metric}'",
            "--format",
            "json",
            "--warehouse",
            warehouse,
        )
    )
    assert len(rows) == 1, rows
    return rows[0]


def test_per_device_rates_keep_their_scope_and_are_their_own_per_accelerator_value(warehouse):
    """torchtitan: TPS/GPU 5,762 (FSDP, 8 H100s) is 5,762 tokens/s on each GPU."""
    row = value(
        warehouse, "torchtitan_llama3_h100_202412_benchmarks.md", "TPS/GPU", "5,762", "throughput"
    )
    assert (row["value"], row["unit"], row["rate_per"]) == (5762.0, "items/s", "accelerator")
    assert row["value_per_accelerator"] == 5762.0
    chip = value(
        warehouse, "ironwood_training_README.md", "Tokens/sec/chip", "2,917.15", "throughput"
    )
    assert (chip["value"], chip["rate_per"]) == (2917.15, "accelerator")


def test_times_per_step_and_per_amount_of_work(warehouse):
    """TPU recipes: Step time (seconds) 27.02 is a latency of 27,020 ms; flash-attention:
    Hours / 1B tokens 0.21 is 756 s to train on that much data."""
    step = value(
        warehouse, "ironwood_training_README.md", "Step time (seconds)", "27.02", "latency"
    )
    assert (step["value"], step["unit"]) == (27020.0, "ms")
    hours = value(
        warehouse,
        "flash_attention_training_README.md",
        "Hours / 1B tokens",
        "0.21",
        "time_to_train",
    )
    assert (hours["value"], hours["unit"]) == (756.0, "s")


def test_llm_serving_metrics_and_values_with_units_of_their_own(warehouse):
    """AWS Neuron: Per-Token Latency 759.7 ms/token; torchao: 1.57 req/s (1.16x speedup) is a
    throughput and a speedup; Ray: 79.76 s (2 epochs, 40.7 images/sec) is a time to train and
    a throughput under a header naming neither."""
    token = value(
        warehouse,
        "vllm_structured_outputs_design.md",
        "Per-Token Latency",
        "759.7 ms/token",
        "latency",
    )
    assert (token["value"], token["unit"]) == (759.7, "ms")
    cell = "1.57 req/s (1.16x speedup)"
    page, column = "torchao_0.14_serving.html", "Phi-4-mini-instruct-float8dq"
    assert value(warehouse, page, column, cell, "throughput")["value"] == 1.57
    assert value(warehouse, page, column, cell, "speedup")["value"] == 1.16
    cell = "79.76 s (2 epochs, 40.7 images/sec)"
    assert (
        value(warehouse, "ray_train_benchmarks.rst", "Performance", cell, "time_to_train")["value"]
        == 79.76
    )
    assert (
        value(warehouse, "ray_train_benchmarks.rst", "Performance", cell, "throughput")["value"]
        == 40.7
    )


def test_units_with_settings_in_another_language_or_shown_by_the_page(warehouse):
    """TensorRT: Latency (ms, bs=1) 0.46; PaddleClas: GPU 耗时(ms) 2.4 and Top-1 Acc 68.01 %
    (a share above 1); torch2trt: Latency (PyTorch) 4.96 with no unit on the page is ms, as
    its row's throughput (251) shows; DeBERTa: 23.7 under the row labels' Model Latency (ms)."""
    quantized = value(
        warehouse, "tf_quantization_model_zoo.md", "Latency (ms, bs=1)", "0.46", "latency"
    )
    assert (quantized["value"], quantized["unit"]) == (0.46, "ms")
    paddle = "paddleclas_deploy_slim_act_README.md"
    assert value(warehouse, paddle, "GPU 耗时(ms)", "2.4", "latency")["value"] == 2.4
    accuracy = value(warehouse, paddle, "压缩训练评估 Top-1 Acc", "68.01", "accuracy")
    assert (accuracy["value"], accuracy["unit"]) == (68.01, "%")
    assert "unit=column values" in accuracy["label_sources"]
    proved = value(
        warehouse, "torch2trt_ghpages_jetson_xavier.html", "Latency (PyTorch)", "4.96", "latency"
    )
    assert (proved["value"], proved["unit"]) == (4.96, "ms")
    assert "unit=row throughput" in proved["label_sources"]
    deberta = json.loads(
        run(
            "sql",
            "SELECT value, unit FROM measurements WHERE source_url LIKE '%deberta_README.md' "
            "AND raw_value = '23.7'",
            "--format",
            "json",
            "--warehouse",
            warehouse,
        )
    )
    assert deberta == [{"value": 23.7, "unit": "ms"}]
