"""Tables of more publishers' pages, each quoted from a public page: a group header written
once over the columns of its group in a two-row Markdown header; chips named by their
model number alone in a table whose words name their family."""

from __future__ import annotations

from perfledger.schemas.platform_mentions import read_platform
from perfledger.schemas.table_chips import nearby_words
from perfledger.sources.layouts.header_levels import filled_group_headers
from tests.schemas.page_reading import normalized

# NVIDIA TensorRT-Model-Optimizer's docs benchmark page: each precision is written once over
# its "Tokens/sec" and "Speedup" columns, with an empty spacer column between the groups.
MODELOPT = """### 1.1 Performance

Config: H200, nvidia-modelopt v0.21.1, TensorRT-LLM v0.15.

| | | BF16 (8B:TP1, 70B:TP2) | | FP8 (TP1) | | |INT4 AWQ (TP1)| | |W4A8 AWQ (TP1)| |
|:------------:|:----------:|:----------------------:|:-:|:------------:|:-------:|:-:|:------------:|:-------:|:-:|:------------:|:-------:|
| Model | Batch Size | Tokens/sec | | Tokens/sec | Speedup | | Tokens/sec | Speedup | | Tokens/sec | Speedup |
| Llama3.1-8B | 1 | 173.80 | | 245.03 | 1.41x | | 231.75 | 1.33x | | 239.70 | 1.38x |
| | 8 | 803.11 | | 1,051.17 | 1.31x | | 599.72 | 0.75x | | 801.72 | 1.00x |
"""


def test_a_group_header_written_once_names_every_column_of_its_group():
    values = normalized(MODELOPT).measurements
    found = {
        row["raw_value"]: (
            row["column_name"],
            row["metric"],
            row["activation_dtype"],
            row["weight_dtype"],
        )
        for row in values.iter_rows(named=True)
    }
    assert found["1.41x"] == ("FP8 (TP1) / Speedup", "speedup", "fp8", "fp8")
    assert found["1.33x"] == ("INT4 AWQ (TP1) / Speedup", "speedup", None, "int4")
    # "W4A8 AWQ" is one precision: AWQ's int4 weights with int8 activations
    assert found["1.38x"] == ("W4A8 AWQ (TP1) / Speedup", "speedup", "int8", "int4")
    assert found["239.70"][1:] == ("throughput", "int8", "int4")
    # the BF16 group ends at the spacer column: its one column keeps its own name
    assert found["173.80"][0] == "BF16 (8B:TP1, 70B:TP2) / Tokens/sec"


def test_a_group_header_does_not_reach_columns_it_does_not_name():
    levels = filled_group_headers(
        [
            ["Model", "", "FP8", "", "", "BF16", "", ""],
            ["", "Batch", "Tokens/sec", "Speedup", "", "Tokens/sec", "Tokens/sec", ""],
        ]
    )
    # "Model" heads no group (nothing under it); a spacer column ends the FP8 group; a name
    # repeated in a group ends it; a column blank below takes nothing
    assert levels[0] == ["Model", "", "FP8", "FP8", "", "BF16", "", ""]


def test_group_headers_centered_over_their_groups_fill_nothing():
    # NVIDIA TensorRT's DeBERTa demo README centers each SDK over its three GPUs: the first
    # GPU stands under no header, so no header is known to reach the columns right of it.
    levels = [
        ["Sequence Length", "Model Latency (ms)", "", "TensorRT 8.4", "", "", "TensorRT 8.2", ""],
        ["", "", "A100-80GB", "T4", "V100-16GB", "A100-80GB", "T4", "V100-16GB"],
    ]
    assert filled_group_headers(levels)[0] == levels[0]


# turboderp's exllamav2 README: the GPUs head the columns by their numbers alone, under a
# paragraph saying "speeds will vary across GPUs".
EXLLAMAV2 = """## Performance

Some quick tests to compare performance with ExLlama V1. There may be more performance optimizations in the future,
and speeds will vary across GPUs, with slow CPUs still being a potential bottleneck:

| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |
|------------|--------------|-------|-------|-----|---------|-------------|
| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |
| Llama2     | EXL2 3.0 bpw | 7B    | -     | -   | 217 t/s | **257** t/s |
"""


def test_gpus_named_by_their_numbers_in_a_table_of_gpus_are_the_chips():
    values = normalized(EXLLAMAV2).measurements
    found = {row["raw_value"]: row["accelerator"] for row in values.iter_rows(named=True)}
    assert found["181 t/s"] == "RTX 3090 Ti"
    assert found["205 t/s"] == "RTX 4090"
    # without the words of a table of GPUs, a bare number is no chip
    assert read_platform("4090") is None
    assert read_platform("we ran 4090 images on the GPU") is None
    assert read_platform("RTX 3090Ti").accelerator == "RTX 3090 Ti"


def test_an_ascend_chip_named_by_its_model_alone_under_a_chip_header():
    # Ascend ModelZoo-PyTorch's Wide_ResNet50_2 README: "| 芯片型号 | Batch Size | ..." over
    # "| 310P3 | 1 | ILSVRC2012 | 748.088 |"
    assert read_platform("310P3") is None
    chip = read_platform("310P3", nearby=nearby_words(["芯片型号"]))
    assert chip is not None and chip.accelerator == "Ascend 310P"
