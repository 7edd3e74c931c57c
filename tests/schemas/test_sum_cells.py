"""A cell writing a number as the sum of its parts ("8+3": GB of a phone's memory and of its
extension) is no one value: it is set apart with its reason, not loaded as 8 in unit "+3"."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import normalized

# OpenBMB/MiniCPM, README-en.md (commit 87ab91b5), "Performance", rows 3 to 5.
MINICPM_PHONES = """#### Performance

| Mobile Phones     | OS            | Processor          | Memory（GB） | Inference Throughput（token/s） |
| ----------------- | ------------- | ------------------ | ------------ | ------------------------------- |
| Meizu M182Q       | Android 11    | snapdragon 888Plus | 8            | 3.7                             |
| Xiaomi 12 Pro     | Android 13    | snapdragon 8 Gen1  | 8+3          | 3.7                             |
| Xiaomi Redmi K40  | Android 11    | snapdragon 870     | 8            | 3.5                             |
"""


def test_a_sum_of_parts_is_no_one_value():
    assert read_cell("8+3").problem == "sum_value"
    assert read_cell("16 + 16").problem == "sum_value"
    assert read_cell("45.2 +3.1").problem is None  # a change beside a value


def test_the_phone_memory_written_as_a_sum_is_set_apart():
    result = normalized(MINICPM_PHONES)
    memory = result.measurements.filter(column_name="Memory（GB）").sort("row_number")
    assert memory.select("value", "unit").rows() == [(8.0, "GB"), (8.0, "GB")]
    assert result.quarantine.select("check", "raw_value", "reason").rows() == [
        ("sum_value", "8+3", "'8+3' is a sum of parts, not one value of other")
    ]
    throughput = result.measurements.filter(column_name="Inference Throughput（token/s）")
    assert throughput.sort("row_number").get_column("value").to_list() == [3.7, 3.7, 3.5]
