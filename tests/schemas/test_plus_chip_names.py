"""A phone chip's "Plus" written as a word ("snapdragon 888Plus", "Snapdragon 8 Plus Gen 1")
names the same chip as its "+" ("Snapdragon 888+"), not the chip without it."""

from __future__ import annotations

import pytest

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import normalized

# OpenBMB/MiniCPM, README-en.md (commit 87ab91b5), "Performance", its first three rows.
MINICPM_PHONES = """#### Performance

| Mobile Phones     | OS            | Processor          | Memory（GB） | Inference Throughput（token/s） |
| ----------------- | ------------- | ------------------ | ------------ | ------------------------------- |
| OPPO Find N3      | Android 13    | snapdragon 8 Gen2  | 12           | 6.5                             |
| Samsung S23 Ultra | Android 14    | snapdragon 8 Gen2  | 12           | 6.4                             |
| Meizu M182Q       | Android 11    | snapdragon 888Plus | 8            | 3.7                             |
"""


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        ("snapdragon 888Plus", "Snapdragon 888+"),
        ("骁龙888Plus", "Snapdragon 888+"),
        ("Snapdragon 888 Plus", "Snapdragon 888+"),
        ("Snapdragon 8 Plus Gen 1", "Snapdragon 8+ Gen 1"),
        ("Snapdragon 888", "Snapdragon 888"),
        ("Snapdragon X Plus", "Snapdragon X Plus"),
    ],
)
def test_plus_as_a_word_names_the_plus_chip(text, chip):
    mention = read_hardware(text, "label")
    assert mention is not None and mention.accelerator == chip


def test_a_phone_row_with_a_plus_chip_keeps_its_chip():
    rows = normalized(MINICPM_PHONES).measurements.filter(
        column_name="Inference Throughput（token/s）"
    )
    assert rows.sort("row_number").select("accelerator", "value").rows() == [
        ("Snapdragon 8 Gen 2", 6.5),
        ("Snapdragon 8 Gen 2", 6.4),
        ("Snapdragon 888+", 3.7),
    ]
