"""Intel's server CPUs named by their generation ("4th Gen Xeon", "5th Gen Intel Xeon") or by
their code name's abbreviation beside a word of the CPU ("48 cores SPR") are the chips their
code names are."""

from __future__ import annotations

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value

# As casper-hansen/AutoAWQ's README.md gives its benchmarks: the GPU section's list names the
# GPU and its host CPU, the CPU section's list the CPU its own table ran on.
AUTOAWQ_BENCHMARKS = """# AutoAWQ

## Benchmarks

- Tested with AutoAWQ version 0.1.6
- GPU: RTX 4090 (AMD Ryzen 9 7950X)
- Command: `python examples/benchmark.py --model_path <hf_model> --batch_size 1`

| Model Name | Size | Version | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s | Memory (VRAM)     |
| ---------- | ---- | ------- | ---------- | -------------- | ------------- | ---------------- | --------------- | ----------------- |
| Vicuna     | 7B   | 🟢GEMV   | 1          | 64             | 64            | 639.65           | 198.848         | 4.50 GB (19.05%)  |

### CPU

- CPU: 48 cores SPR (Intel 4th Gen Xeon CPU)
- Command: `python examples/benchmark.py --model_path <hf_model> --batch_size 1 --generator hf`

| Model | Version | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s | Memory |
|-------|---------|------------|----------------|---------------|-------------------|------------------|---------------|
| TinyLlama 1B | gemm | 1 | 32 | 32 | 817.86 | 70.93 | 1.94 GB (0.00%) |
| Falcon 7B | gemm | 1 | 32 | 32 | 337.51 | 26.41 | 9.57 GB (0.01%) |
"""


def test_a_cpu_named_by_its_generation_is_its_code_names_chip():
    found = fields_by_raw_value(AUTOAWQ_BENCHMARKS, "metric", "value", "accelerator", "vendor")
    assert found["817.86"] == ("throughput", 817.86, "Sapphire Rapids", "Intel")
    assert found["26.41"] == ("throughput", 26.41, "Sapphire Rapids", "Intel")
    assert found["639.65"] == ("throughput", 639.65, "RTX 4090", "NVIDIA")


def test_generations_and_abbreviations_of_xeons():
    def chip(text: str) -> str | None:
        mention = read_hardware(text, "prose")
        return mention.accelerator if mention is not None else None

    assert chip("5th Gen Intel Xeon") == "Emerald Rapids"
    assert chip("3rd Gen Intel Xeon") == "Ice Lake"
    assert chip("Xeon Scalable 4th Gen") == "Sapphire Rapids"
    assert chip("48 cores SPR") == "Sapphire Rapids"
    assert chip("SPR") is None  # an abbreviation alone names no chip
