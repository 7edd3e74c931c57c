"""A Redmi K phone names its SoC ("Redmi K40": Snapdragon 870), never NVIDIA's Tesla K40 GPU
whose name its own contains."""

from __future__ import annotations

import pytest

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import normalized

# OpenBMB/MiniCPM, README-en.md (commit 87ab91b5), "Performance", rows 4 and 5.
MINICPM_PHONES = """#### Performance

| Mobile Phones     | OS            | Processor          | Memory（GB） | Inference Throughput（token/s） |
| ----------------- | ------------- | ------------------ | ------------ | ------------------------------- |
| Xiaomi 12 Pro     | Android 13    | snapdragon 8 Gen1  | 12           | 3.7                             |
| Xiaomi Redmi K40  | Android 11    | snapdragon 870     | 8            | 3.5                             |
"""


@pytest.mark.parametrize(
    ("text", "chip"),
    [
        ("Xiaomi Redmi K40", "Snapdragon 870"),
        ("Redmi K40 Pro", "Snapdragon 888"),
        ("Redmi K40 Gaming", "Dimensity 1200"),
        ("Xiaomi Redmi K50", "Dimensity 8100"),
        ("Redmi K50 Ultra", "Snapdragon 8+ Gen 1"),
        ("Redmi K60", "Snapdragon 8+ Gen 1"),
        ("Redmi K70", "Snapdragon 8 Gen 2"),
        ("Tesla K40", "K40"),
    ],
)
def test_a_redmi_phone_names_its_soc(text, chip):
    mention = read_hardware(text, "label")
    assert mention is not None and mention.accelerator == chip


def test_the_redmi_k40_row_runs_on_its_snapdragon():
    rows = normalized(MINICPM_PHONES).measurements.filter(
        column_name="Inference Throughput（token/s）"
    )
    assert rows.sort("row_number").select("accelerator", "vendor", "value").rows() == [
        ("Snapdragon 8 Gen 1", "Qualcomm", 3.7),
        ("Snapdragon 870", "Qualcomm", 3.5),
    ]
