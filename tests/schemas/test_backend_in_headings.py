"""A heading naming the backend its table's runs used ("GGUF Q4_K_M \u2014 D3D12 Backend
(Projected)", "ONNX \u2014 Vulkan Backend (Projected)") gives each value that framework, so two
tables of the same models on two graphics APIs stay apart; the APIs of portable runtimes
(WebGPU, WebGL, WebNN, WebAssembly, Vulkan, DirectML, Direct3D 12, OpenCL) are frameworks."""

from __future__ import annotations

from perfledger.schemas.labels import framework_of_backend
from tests.schemas.page_reading import normalized

# As gyagp/backpack's docs/benchmark-comparison.md projects its Dawn WebGPU engine's rates,
# one table per backend (two rows of each).
BACKPACK = """# Backpack Inference Engine \u2014 Benchmark Comparison

## Projected Inference Performance

### GGUF Q4_K_M \u2014 D3D12 Backend (Projected)

| # | Model | Params | Prefill (tok/s) | Decode (tok/s) |
|---|-------|--------|-----------------|----------------|
| 1 | SmolLM-135M-Instruct | 135M | ~3800 | ~280 |
| 8 | Qwen3-0.6B | 0.6B | ~1900 | ~155 |

### GGUF Q4_K_M \u2014 Vulkan Backend (Projected)

Vulkan backend validated via test matrix (all models pass).

| # | Model | Params | Prefill (tok/s) | Decode (tok/s) |
|---|-------|--------|-----------------|----------------|
| 1 | SmolLM-135M-Instruct | 135M | ~3700 | ~270 |
| 8 | Qwen3-0.6B | 0.6B | ~1850 | ~150 |
"""


def test_each_table_takes_the_backend_its_heading_names():
    measurements = normalized(BACKPACK).measurements
    found = sorted(
        (row["framework_canonical"], row["model"], row["column_name"], row["value"])
        for row in measurements.iter_rows(named=True)
    )
    assert found == [
        ("Direct3D 12", "Qwen3-0.6B", "Decode (tok/s)", 155.0),
        ("Direct3D 12", "Qwen3-0.6B", "Prefill (tok/s)", 1900.0),
        ("Direct3D 12", "SmolLM-135M-Instruct", "Decode (tok/s)", 280.0),
        ("Direct3D 12", "SmolLM-135M-Instruct", "Prefill (tok/s)", 3800.0),
        ("Vulkan", "Qwen3-0.6B", "Decode (tok/s)", 150.0),
        ("Vulkan", "Qwen3-0.6B", "Prefill (tok/s)", 1850.0),
        ("Vulkan", "SmolLM-135M-Instruct", "Decode (tok/s)", 270.0),
        ("Vulkan", "SmolLM-135M-Instruct", "Prefill (tok/s)", 3700.0),
    ]
    assert set(measurements["framework"]) == {"D3D12", "Vulkan"}


def test_the_word_before_backend_names_it_only_when_it_is_a_framework():
    assert framework_of_backend("Results with the wasm backend") == "wasm"
    assert framework_of_backend("ONNX Runtime backend") == "ONNX Runtime"
    assert framework_of_backend("WebGPU backend (Chrome 121)") == "WebGPU"
    assert framework_of_backend("Rust backend") is None
    assert framework_of_backend("Backend support") is None
