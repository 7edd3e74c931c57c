"""Training recipes that cloud providers publish in their sample repositories, quoted as their
READMEs write them: results tables whose run settings sit in columns of their own (data
loader workers, gradient accumulation) beside the throughput measured on an instance type."""

from __future__ import annotations

from perfledger.schemas.chip_counts import parallel_count
from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As aws-samples/awsome-distributed-training writes it (3.test_cases/23.SMHP-esm2/README.md):
# "Grad Acc" is the gradient accumulation of the run, "GPU Mem" a memory column left empty.
AWS_ESM2_MORE_RESULTS = """### 5.3 More results

|  Model | device_batch_size | num_nodes |  Grad Acc  | Strategy |     Instance   |       Throughput       |      GPU Mem       |
|:------:|:-----------------:|:---------:|:-----------|:--------:| :------------: | :--------------------: |:-----------------: |
|  ESM2  |        8          |     2     |     16     |   DDP    |  p5.48xlarge   |    4.36 M samples/s    |     |
"""

# As the same repository writes it (3.test_cases/pytorch/mosaicml-composer/stable-diffusion/
# README.md): "num_workers" is the data loader's worker count, not a throughput.
AWS_COMPOSER_SD = """We ran tests on P4de (A100 80GB) and P5 (H100 80GB) machines and here is a comparison.

|Micro BS|num_workers| EMA | P4de Throughput| P5 Throughput | Ratio  |
|:------:|:---------:|:---:| :------------: | :-----------: |:------:|
|    4   |     8     | Yes |      142.69    |     189.28    |  1.32x |
|    8   |     8     | Yes |      173.89    |     289.19    |  1.66x |
"""


def _rows(page: str) -> list[dict]:
    return list(normalized(page).measurements.iter_rows(named=True))


def test_gradient_accumulation_column_is_a_setting_not_an_accuracy() -> None:
    rows = _rows(AWS_ESM2_MORE_RESULTS)
    assert [(row["column_name"], row["metric"], row["value"], row["unit"]) for row in rows] == [
        ("Throughput", "throughput", 4360000.0, "items/s")
    ]
    assert "Grad Acc=16" in rows[0]["settings"]
    assert rows[0]["accelerator_count"] == 16  # two p5.48xlarge nodes
    assert (read_header("GPU Mem").kind, read_header("GPU Mem").role) == ("metric", "other")


def test_data_loader_worker_count_is_a_setting_not_a_throughput() -> None:
    rows = _rows(AWS_COMPOSER_SD)
    assert sorted(row["column_name"] for row in rows if row["metric"] == "throughput") == [
        "P4de Throughput",
        "P4de Throughput",
        "P5 Throughput",
        "P5 Throughput",
    ]
    assert {row["settings"] for row in rows} == {"num_workers=8; EMA=Yes"}


def test_instance_families_heading_columns_name_their_gpus() -> None:
    # "P4de" and "P5" are EC2 instance families beside "machines" in the paragraph above;
    # every value was an A100 80GB's, the P5 (H100) column's too
    found = {
        row["raw_value"]: (row["accelerator"], row["metric"])
        for row in _rows(AWS_COMPOSER_SD)
        if row["metric"] == "throughput"
    }
    assert found == {
        "142.69": ("A100", "throughput"),
        "173.89": ("A100", "throughput"),
        "189.28": ("H100", "throughput"),
        "289.19": ("H100", "throughput"),
    }


# As the same repository writes it (micro-benchmarks/expert-parallelism/pplx-garden-benchmark/
# README.md): "My UCCL EP" names an expert-parallel library, its cells are latencies.
AWS_PPLX_GARDEN = """Decode (128 tokens) Dispatch and Combine Median Latency(μs):

|       | My UCCL EP | My pplx-EFA | pplx-EFA | pplx-CX7 | DeepEP-CX7 |
|-------|-----------:|------------:|---------:|---------:|-----------:|
| EP64  |   crash    |    268.6    | 266.7    | 187.5    |   177.9    |
| EP32  |   358.0    |    230.9    | 229.1    | 153.9    |   159.1    |
| EP8   |    66.1    |     50.6    |  49.7    |  50.5    |    42.6    |
"""


def test_a_library_named_with_a_parallelism_word_heads_results_not_a_setting() -> None:
    # the column's 358.0 and 66.1 were row settings ("My UCCL EP=358.0"), lost as values
    found = {
        row["raw_value"]: (row["column_name"], row["metric"], row["value"], row["unit"])
        for row in _rows(AWS_PPLX_GARDEN)
        if row["column_name"] == "My UCCL EP"
    }
    assert found == {
        "358.0": ("My UCCL EP", "latency", 0.358, "ms"),
        "66.1": ("My UCCL EP", "latency", 0.0661, "ms"),
    }
    assert read_header("TP").role == "setting"  # a bare degree stays a setting


# As awslabs/awsome-distributed-ai writes it (3.test_cases/megatron/megatron-bridge/qwen3-235b/
# benchmarks/RESULTS.md): a "Field | Value" table states the run's setup above its results.
AWS_QWEN3_SETUP = """## Primary — 8 nodes, EP32 @ PP2 (recompute=selective)

| Field | Value |
|---|---|
| Hardware | **8 × `p6-b300.48xlarge`** (64× B300, 8 GPU + 16 EFA / node), EKS `ml-shared` (us-west-2) |
| World | 64 ranks, TP8, ETP1, balanced routing, **`RECOMPUTE=selective`** |
| Parallelism | **EP32 = TP8/PP2/DP4** · EP16 = TP8/PP4/DP2 (`PP = WORLD/EP`, WORLD=64) |
| Global batch | 256 — EP32: 16 iters/run (12 steady) · EP16: 12 iters/run (8 steady) |
| Campaign | EP32 `qwen3-ep32-remeasure-20260624` (git b73a2d7) · EP16 `qwen3-8n-ep32pp2-20260621` (git 633c791) — both 8-node, recompute=selective |
"""


def test_a_field_and_value_table_lists_a_setup_not_scores() -> None:
    # "8 × p6-b300.48xlarge", "64 ranks" and "256 — EP32: ..." loaded as quality scores
    # (8, 64, 256) with the rest of the cell as their unit; the rest were quarantined
    result = normalized(AWS_QWEN3_SETUP)
    assert result.measurements.is_empty()
    assert result.quarantine.is_empty()


# The same page's EP16 table: its heading states the parallel degrees of the 64-GPU run.
AWS_QWEN3_EP16 = """### EP16 @ PP4 (TP8/PP4/DP2) — internode EP across 2 nodes

| mb · overlap | NCCL all-to-all | DeepEP+UCCL | DeepEP+NVSHMEM | UCCL Δ | NVSHMEM Δ |
|---|----------------:|------------:|---------------:|-------:|----------:|
| 4 · off | 12.21 s · 198.6 · 85.9k | 13.06 s · 185.8 · 80.3k | **11.57 s · 209.6 · 90.6k** | +6.9% | **−5.2%** |
"""


def test_expert_parallel_ranks_sit_within_the_data_parallel_ones() -> None:
    # TP8 x PP4 x DP2 is 64 GPUs; EP16 multiplied in made them 512
    found = fields_by_raw_value(AWS_QWEN3_EP16, "accelerator_count")
    assert found["+6.9%"] == (64,)
    assert parallel_count("tp1 ep8", whole=True) == 8  # no data degree: EP counts
