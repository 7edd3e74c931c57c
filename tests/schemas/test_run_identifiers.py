"""A run named by an identifier of its settings ("deepseekv2_tp1_ep8_pp1_dp8_l4_mbc4_cef"): a
short part beside the parallel degrees ("l4": four layers) names no chip, while the page's own
chip labels the run."""

from __future__ import annotations

import pytest

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value

# As MooreThreads/SimuMax writes it (docs/b200/b200_release_v1.2_summary.md).
RUNS = """# B200 Release v1.2 Summary

| case | section | real ms | perf ms | rel err | status |
|---|---|---:|---:|---:|---|
| llama3_70b_tp2_pp1_dp4_l12_mbc4_cef | - | 725.50 | 698.81 | -3.68% | ok |
| deepseekv2_tp1_ep8_pp1_dp8_l4_mbc4_cef | - | 366.60 | 343.59 | -6.28% | ok |
| deepseekv3_l4_tp1_ep8_pp1_dp8_mbc4_cef | - | 603.20 | 584.91 | -3.03% | ok |
"""


def test_a_layer_count_among_parallel_degrees_is_no_chip():
    found = fields_by_raw_value(RUNS, "accelerator")
    assert found["366.60"] == ("B200",)
    assert found["603.20"] == ("B200",)
    assert found["725.50"] == ("B200",)


@pytest.mark.parametrize(
    ("text", "chip"),
    [("NVIDIA L4", "L4"), ("llama_l4_bs8", "L4"), ("yolov5s_rk3588", "RK3588"), ("T4", "T4")],
)
def test_a_chip_in_an_identifier_of_other_words_is_still_read(text, chip):
    mention = read_hardware(text, "label")
    assert mention is not None and mention.accelerator == chip
