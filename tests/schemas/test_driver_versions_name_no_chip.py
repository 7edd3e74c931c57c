"""A driver's version after its maker's name ("NVIDIA 576.x", "NVIDIA 535.104.05") is no chip:
a number with a wildcard part or with three parts is a version. In a page's hardware table
("Component | Specification" over GPU, CPU, RAM, OS, Driver) it no longer names a second chip
beside the GPU, and the GPU the table names is the chip of the page's results."""

from __future__ import annotations

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import normalized

# As gyagp/backpack's docs/benchmark-comparison.md states its machine, then projects rates.
BACKPACK = """# Backpack Inference Engine \u2014 Benchmark Comparison

Comparison of **backpack** (Dawn WebGPU) against reference engines for LLM inference on consumer GPU hardware.

## Hardware

| Component | Specification |
|-----------|--------------|
| GPU | NVIDIA GeForce RTX 5080 (16 GB GDDR7) |
| CPU | AMD Ryzen 9 9950X 16-Core |
| RAM | 64 GB DDR5 |
| OS | Windows 11 Enterprise (10.0.26200) |
| Driver | NVIDIA 576.x (Dawn WebGPU / D3D12) |

## Projected Inference Performance

### GGUF Q4_K_M \u2014 D3D12 Backend (Projected)

| # | Model | Params | Prefill (tok/s) | Decode (tok/s) |
|---|-------|--------|-----------------|----------------|
| 1 | SmolLM-135M-Instruct | 135M | ~3800 | ~280 |
"""  # noqa: E501


def test_the_gpu_of_the_hardware_table_is_the_chip_of_the_results():
    measurements = normalized(BACKPACK).measurements
    found = sorted(
        (row["raw_value"], row["accelerator"], row["vendor"])
        for row in measurements.iter_rows(named=True)
    )
    assert found == [("~280", "RTX 5080", "NVIDIA"), ("~3800", "RTX 5080", "NVIDIA")]


def test_a_drivers_version_after_its_maker_names_no_chip():
    assert read_hardware("NVIDIA 576.x (Dawn WebGPU / D3D12)", "paragraph") is None
    assert read_hardware("NVIDIA 535.104.05", "paragraph") is None
    assert read_hardware("Loongson 3A6000", "paragraph").accelerator == "3A6000"
