"""A table's caption or heading naming in brackets the framework its runs used ("0.5B
(vLLM)", "Qwen3-0.6B (SGLang)") gives its values that framework, where their rows name none."""

from __future__ import annotations

from tests.schemas.page_reading import normalized
from tests.schemas.test_setup_lists_far_above import QWEN25_SPEED

# QwenLM/Qwen2.5, docs/source/getting_started/speed_benchmark.md (commit 77fb0c1e), its
# first SGLang table, first three rows, markup as published.
QWEN3_SGLANG = """## Results

### Qwen3-0.6B (SGLang)

<table border="1" cellpadding="8" style="width:100%; border-collapse: collapse;">
    <thead>
        <tr>
            <th>Model</th>
            <th>Input Length</th>
            <th>Quantization</th>
            <th>GPU Num</th>
            <th>Speed (tokens/s)</th>
            <th>Note</th>
        </tr>
    </thead>
    <tbody>
        <tr>
            <td rowspan="12">Qwen3-0.6B</td>
            <td rowspan="3">1</td><td>BF16</td><td>1</td><td>414.17</td><td></td>
        </tr>
        <tr>
            <td>FP8</td><td>1</td><td>458.03</td><td></td>
        </tr>
        <tr>
            <td>GPTQ-Int8</td><td>1</td><td>344.92</td><td></td>
        </tr>
    </tbody>
</table>
"""


def test_a_heading_naming_a_framework_in_brackets_gives_its_tables_values_the_framework():
    rows = normalized(QWEN3_SGLANG).measurements
    assert rows.select(
        "model", "precision", "value", "framework", "framework_canonical"
    ).rows() == [
        ("Qwen3-0.6B", "BF16", 414.17, "SGLang", "SGLang"),
        ("Qwen3-0.6B", "FP8", 458.03, "SGLang", "SGLang"),
        ("Qwen3-0.6B", "GPTQ-Int8", 344.92, "SGLang", "SGLang"),
    ]


def test_a_caption_line_naming_a_framework_in_brackets_gives_it_too():
    rows = normalized(QWEN25_SPEED, "text/x-rst").measurements
    assert set(rows.select("framework", "framework_canonical").rows()) == {("vLLM", "vLLM")}


def test_words_in_brackets_naming_no_framework_give_none():
    page = """### Qwen3-0.6B (thinking)

| Model | Speed (tokens/s) |
| --- | --- |
| Qwen3-0.6B | 414.17 |
"""
    assert normalized(page).measurements.get_column("framework").to_list() == [None]


def test_hugging_face_transformers_is_a_framework():
    from perfledger.schemas.labels import framework_in_brackets

    assert framework_in_brackets("Qwen3-0.6B (Transformers)") == "Transformers"
    assert framework_in_brackets("0.5B (vLLM)") == "vLLM"
    assert framework_in_brackets("Qwen3-0.6B (thinking)") is None
