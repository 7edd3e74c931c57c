"""Results a Markdown page writes as a list, one figure per item, read as a table."""

from __future__ import annotations

from perfledger.sources.layouts.pipe_table import parse_pipe_tables
from tests.schemas.page_reading import fields_by_raw_value

# HazyResearch/ThunderKittens kernels/gemm/educational_b200/README.md
THUNDERKITTENS_B200 = """# ThunderKittens Educational GEMM Kernels (Blackwell)

This folder builds up the B200 GEMM piece-by-piece. It is only for educational purposes.

- Level 01 (6 TFLOPs): Simple for loop (float) -- this is faster than bf16 because bf16 gets implicitly converted to floats first on cuda cores
- Level 02 (6 TFLOPs): Simple for loop (bf16)
- Level 03 (11 TFLOPs): Use shared memory
- Level 09 (1285 TFLOPs): Use 2-CTA cluster and warpgroup-level parallelism

Note: Our full kernel in ``../bf16_b200`` gives 1540 TFLOPs for the default GEMM size.
"""


def test_a_list_of_one_figure_per_item_is_a_table_of_them():
    found = fields_by_raw_value(
        THUNDERKITTENS_B200, "row_label", "metric", "value", "unit", "accelerator"
    )
    assert found["6"] == ("Level 02", "other", 6.0, "TFLOP/s", "B200")
    assert found["1285"] == ("Level 09", "other", 1285.0, "TFLOP/s", "B200")
    assert found["11"] == ("Level 03", "other", 11.0, "TFLOP/s", "B200")
    assert len(found) == 3  # both "6" read, one key; the note's figure is prose
    parsed = parse_pipe_tables(THUNDERKITTENS_B200)
    assert not any("Level 03" in text for _, text in parsed.prose)


def test_lists_of_settings_features_or_mixed_units_stay_prose():
    setup = "- **Hardware**: NVIDIA H100 PCIe\n- **CUDA version**: 12.8.1\n- **PyTorch**: 2.7\n"
    mixed = "- A (6 TFLOPs): one\n- B (2 ms): two\n- C (3 GB): three\n"
    short = "- A (6 TFLOPs): one\n- B (7 TFLOPs): two\n"
    for page in (setup, mixed, short):
        assert parse_pipe_tables(page).cells.height == 0
