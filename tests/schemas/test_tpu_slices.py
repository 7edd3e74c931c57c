"""A TPU slice named by its size ("v5p-128", "v5e-256"), and a count of such slices
("2x v5p-128"): the chips are the slices times the chips the name states, which Google counts
in chips for v5e and v6e and in TensorCores, two per chip, for v2 to v4 and v5p
(schemas/vocab/tpu_slices.csv)."""

from __future__ import annotations

import csv

import pytest

from perfledger.schemas.platform_mentions import read_platform
from perfledger.schemas.vocabulary import VOCAB_DIR
from tests.schemas.page_reading import normalized

# AI-Hypercomputer/maxtext, src/maxtext/configs/tpu/v5p/README.md and .../v5e/README.md
# (commit e591f30c): the hardware column of their tables.
MAXTEXT_V5P = """# High Performance Model Configs on TPU v5p

### 32B model
| Hardware    | TFLOP/sec/chip     | MFU     |
| ----------- | -----------------: | ------- |
| 1x v5p-128  | 328                | 71.47%  |
| 2x v5p-128  | 319                | 69.43%  |
"""
MAXTEXT_V5E = """# High Performance Model Configs on TPU v5e

| Hardware    | 16B TFLOP/sec/chip | 16B MFU |
| ----------- | -----------------: | ------- |
| 1x v5e-256  | 120                | 61.10%  |
| 32x v5e-256 | 108                | 54.65%  |
"""


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("v5p-128", 64),  # 128 TensorCores
        ("2x v5p-128", 128),
        ("v5e-256", 256),  # 256 chips
        ("32x v5e-256", 8192),
        ("v5litepod-16", 16),
        ("3x v6e-256", 768),
        ("TPU v4-4096", 2048),
        ("TPU v3-8", 4),
    ],
)
def test_a_slice_counts_the_chips_its_name_states(text, count):
    assert read_platform(text).count == count


def test_a_count_of_slices_is_stated_and_a_slice_alone_implies_its_size():
    assert read_platform("2x v5p-128").count_stated
    assert not read_platform("v5p-128").count_stated


def test_maxtext_rows_load_slices_times_chips():
    for page, expected in (
        (MAXTEXT_V5P, {"1x v5p-128": 64, "2x v5p-128": 128}),
        (MAXTEXT_V5E, {"1x v5e-256": 256, "32x v5e-256": 8192}),
    ):
        rows = normalized(page).measurements
        found = dict(rows.select("row_label", "accelerator_count").unique().rows())
        assert found == expected


def test_every_slice_convention_names_a_chip_of_the_vocabulary_and_says_why():
    with (VOCAB_DIR / "tpu_slices.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with (VOCAB_DIR / "chips.csv").open(encoding="utf-8", newline="") as handle:
        sliced = {row["accelerator"] for row in csv.DictReader(handle) if row["count"] == "slice"}
    assert {row["accelerator"] for row in rows} == sliced
    assert all(row["units_per_chip"] in ("1", "2") and row["note"] for row in rows)
