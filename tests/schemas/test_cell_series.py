"""Cells holding series of numbers parted by "/", as the AMD Xilinx Vitis AI model zoo sheet
(../shared/real-pages-2) prints its accuracies: every number is a value of its own, named by
its series and its place, none lost in a remark."""

from __future__ import annotations

import pytest

from perfledger.schemas.cell_reading import read_cell


def values(text: str) -> list[tuple[float, str | None]]:
    return [(value.number, value.qualifier) for value in read_cell(text).values]


def test_top1_and_top5_in_one_cell_are_two_values():
    assert values("0.761/0.929") == [(0.761, "1/2"), (0.929, "2/2")]
    assert values("Top-1/Top-5: 76.1/92.9") == [(76.1, "Top-1"), (92.9, "Top-5")]


def test_named_series_give_each_value_its_name():
    assert values("Day: 76.2/83.6/90.0, Night: 58.2/68.4/80.6") == [
        (76.2, "Day 1/3"),
        (83.6, "Day 2/3"),
        (90.0, "Day 3/3"),
        (58.2, "Night 1/3"),
        (68.4, "Night 2/3"),
        (80.6, "Night 3/3"),
    ]
    assert values("(Set5) PSNR/SSIM= 37.654/0.959 (Set14) PSNR/SSIM= 33.169/ 0.914")[:3] == [
        (37.654, "Set5 PSNR"),
        (0.959, "Set5 SSIM"),
        (33.169, "Set14 PSNR"),
    ]


@pytest.mark.parametrize("text", ["1/2", "12/24", "3.5/4.0 ms"])
def test_fractions_dates_and_series_with_a_unit_are_not_series(text):
    assert len(read_cell(text).values) <= 1


def test_a_series_of_values_with_one_unit_keeps_it_for_each():
    # vLLM's Sleep Mode post: "Wake Time (A/B) | 0.26s / 0.82s"
    reading = read_cell("0.26s / 0.82s")
    assert [(value.number, value.unit.alias, value.qualifier) for value in reading.values] == [
        (0.26, "s", "1/2"),
        (0.82, "s", "2/2"),
    ]
