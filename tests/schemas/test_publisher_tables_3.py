"""Tables of more publishers' pages, each quoted from a public page: a group header written
once over the columns of its group in a two-row Markdown header."""

from __future__ import annotations

from perfledger.sources.layouts.header_levels import filled_group_headers
from tests.schemas.test_page_structures import normalized

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
