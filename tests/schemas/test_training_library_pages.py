"""Benchmark pages of LLM training and kernel libraries: a run's settings listed as
"Name=Value" items above its table, and the share of a chip resource a kernel uses."""

from __future__ import annotations

from perfledger.schemas.labels import listed_batch, setting_items
from tests.schemas.page_reading import fields_by_raw_value, normalized

# torchtune's README: the settings of every row listed once, as "Name=Value" items, in a
# quote above the table of optimization flags.
TORCHTUNE_FLAGS = """### Optimization flags

> Baseline uses Recipe=**full_finetune_single_device**, Model=**Llama 3.2 3B**, Batch size=**2**, Max sequence length=**4096**, Precision=**bf16**, Hardware=**A100**

| Technique | Peak Memory Active (GiB) | % Change Memory vs Previous | Tokens Per Second | % Change Tokens/sec vs Previous|
|:--|:-:|:-:|:-:|:-:|
| Baseline | 25.5 | - | 2091 | - |
| [+ Packed Dataset](https://pytorch.org/torchtune/main/basics/packing.html) | 60.0 | +135.16% | 7075 | +238.40% |
"""


def test_a_list_of_name_value_settings_gives_the_model_and_batch_of_the_table_under_it():
    found = fields_by_raw_value(
        TORCHTUNE_FLAGS, "model_canonical", "batch_size", "precision", "accelerator", "metric"
    )
    assert found["2091"] == ("Llama 3.2 3B", "2", "bf16", "A100", "throughput")
    assert found["60.0"] == ("Llama 3.2 3B", "2", "bf16", "A100", "other")
    assert found["+238.40%"][:2] == ("Llama 3.2 3B", "2")


def test_only_a_sentence_of_three_or_more_settings_is_a_list_of_them():
    assert setting_items("Baseline uses Recipe=x, Model=Llama 3.2 3B, Batch size=2") == (
        "Baseline uses Recipe: x",
        "Model: Llama 3.2 3B",
        "Batch size: 2",
    )
    assert setting_items("The tool computes M = 31 x 512 = 15,872 tokens") == ()
    assert setting_items("We set batch=8 for the baseline.") == ()


# Axolotl's ScatterMoE LoRA benchmark: the share of the GPU's HBM bandwidth each strategy
# uses, headed "HBM %", beside its rate "HBM GB/s".
AXOLOTL_SCATTERMOE = """## Routing mode: dense — NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition

- **GPU**: NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition
- **HBM peak (datasheet)**: 1792 GB/s

| Config | ms/iter | tokens/s | peak mem (MB) | HBM GB/s | HBM % |
| --- | ---: | ---: | ---: | ---: | ---: |
| bf16 baseline | 5.25 | 6244998 | 1252.8 | 105.5 | 5.9 |
| Strategy A (selective dequant) | 30.57 | 1071778 | 8557.3 | 18.1 | 1.0 |
"""


def test_a_chip_resource_followed_by_a_percent_sign_heads_a_share_of_it():
    document = normalized(AXOLOTL_SCATTERMOE)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(AXOLOTL_SCATTERMOE, "metric", "value", "unit", "column_name")
    assert found["5.9"] == ("other", 5.9, "%", "HBM %")
    assert found["1.0"] == ("other", 1.0, "%", "HBM %")
    assert found["105.5"] == ("other", 105.5, "GB/s", "HBM GB/s")


# TileLang's attention-sink example: the run's settings listed as a program names them
# ("batch_size=1, heads=64, ..."), a column of head dimensions beside the rates.
TILELANG_ATTENTION_SINK = """### Results

- dtype=bfloat16
- batch_size=1, heads=64, kv_heads=8 (the setting of GPT-OSS-120B)
- Full attention is adopted.

| SEQ_LEN | headdim | Triton TFLOPs | TileLang TFLOPs      | Speedup |
|---------|---------|---------------|----------------------|---------|
| 2048    |   64    | 232.98        | **281.89**           | 1.21x   |
| 2048    |  128    | 321.55        | **417.98**           | 1.30x   |
"""

# TileLang's MInference example: the settings as a caption right above the table.
TILELANG_MINFERENCE = """## Performance Results
BATCH_SIZE=1, HEAD=1, DIM=64

| SEQ_LEN | VS_LIST      | Triton Time | TileLang Time | Speedup |
|---------|--------------|-------------|---------------|---------|
| 8192    | [1000, 200]  | 0.168 ms    | 0.105 ms     | 1.60x   |
"""


def test_settings_listed_as_a_program_names_them_state_the_batch_size():
    found = fields_by_raw_value(TILELANG_ATTENTION_SINK, "batch_size", "precision", "settings")
    assert found["281.89"] == ("1", "bfloat16", "SEQ_LEN=2048; headdim=64")
    assert found["417.98"] == ("1", "bfloat16", "SEQ_LEN=2048; headdim=128")
    assert normalized(TILELANG_ATTENTION_SINK).quarantine.height == 0
    found = fields_by_raw_value(TILELANG_MINFERENCE, "batch_size", "metric", "value")
    assert found["0.105 ms"] == ("1", "latency", 0.105)
    # a file's name is no setting ("resnet_bs32" states no batch)
    assert listed_batch("model=resnet_bs32, runs=3, warmup=1") is None


# torchtune's README: a note above the table says what its numbers were run at.
TORCHTUNE_MEMORY = """### Memory and training speed

> [!NOTE]
> For ease of comparison, all the below numbers are provided for batch size 2 (without gradient accumulation), a dataset packed to sequence length 2048, and torch compile enabled.

| Model | Finetuning Method | Runnable On | Peak Memory per GPU | Tokens/sec * |
|:-:|:-:|:-:|:-:|:-:|
| Llama 3.1 8B | Full finetune | 1x 4090 | 18.9 GiB | 1650 |
| Llama 3.1 70B | Full finetune | 8x A100  | 13.9 GiB ** | 1568  |
"""


def test_a_sentence_about_the_numbers_below_states_their_batch_size():
    found = fields_by_raw_value(
        TORCHTUNE_MEMORY, "batch_size", "accelerator", "accelerator_count", "model_canonical"
    )
    assert found["1650"] == ("2", "RTX 4090", 1, "Llama 3.1 8B")
    assert found["1568"] == ("2", "A100", 8, "Llama 3.1 70B")
