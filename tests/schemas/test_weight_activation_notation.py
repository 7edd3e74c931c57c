"""Weight and activation bits written together ("W2A8", "W4A16", "A8W8", "W8A8-FP8") set the
weights' dtype and the activations' apart, whatever the bits, in either order."""

from __future__ import annotations

import pytest

from perfledger.schemas.precisions import read_precision_label
from tests.schemas.page_reading import fields_by_raw_value, normalized


@pytest.mark.parametrize(
    ("label", "activation", "weight"),
    [
        ("W2A8", "int8", "int2"),
        ("W4A16", "fp16", "int4"),
        ("W3A16", "fp16", "int3"),
        ("W8A8", "int8", "int8"),
        ("A8W8", "int8", "int8"),
        ("a16w4", "fp16", "int4"),
        ("W4A4", "int4", "int4"),
        ("W8A8-FP8", "fp8", "fp8"),
        ("W4A8 FP8", "fp8", "int4"),
        ("DeepSeek-R1-W8A8", "int8", "int8"),
    ],
)
def test_weight_and_activation_bits_set_each_parts_dtype(label, activation, weight):
    precision = read_precision_label(label)
    assert precision is not None
    assert (precision.activation, precision.weight) == (activation, weight)


def test_bits_no_dtype_has_state_no_precision():
    assert read_precision_label("W1.58A8") is None


# As microsoft/BitNet's gpu/README.md compares its kernel with BF16 ("Kernel Benchmarks")
BITNET_GPU = """### Kernel Benchmarks

Tested on NVIDIA A100 40GB GPU, our custom W2A8 kernel shows significant speedups over standard BF16 implementations:

| Shape (N×K)         | W2A8 Latency (us) | BF16 Latency (us) | Speedup Ratio        |
|---------------------|-------------------|-------------------|----------------------|
| 2560 × 2560         | 13.32             | 18.32             |   1.38               |
| 3840 × 2560         | 14.90             | 18.87             |   1.27               |
"""


def test_a_w2a8_column_holds_two_bit_weights_and_eight_bit_activations():
    found = fields_by_raw_value(
        BITNET_GPU, "metric", "value", "unit", "activation_dtype", "weight_dtype", "accelerator"
    )
    assert found["13.32"] == ("latency", 0.01332, "ms", "int8", "int2", "A100")
    assert found["14.90"] == ("latency", 0.0149, "ms", "int8", "int2", "A100")
    assert found["18.32"] == ("latency", 0.01832, "ms", "bf16", "bf16", "A100")


@pytest.mark.parametrize(
    ("label", "weight"),
    [("WOQ INT8", "int8"), ("WOQ INT4 AutoRound", "int4"), ("INT4 WOQ", "int4")],
)
def test_woq_is_weight_only_quantization(label, weight):
    precision = read_precision_label(label)
    assert precision is not None
    assert (precision.activation, precision.weight) == (None, weight)


# As intel/neural-compressor's docs/source/llm_recipes.md compares its recipes (a row of
# its lambada_openai table); SQ (SmoothQuant) quantizes activations too, WOQ only
# the weights
INC_RECIPES = """## Large Language Models Accuracy

<table><thead>
  <tr>
    <th rowspan="3">Model</th>
    <th colspan="9">lambada_openai</th>
  </tr>
  <tr>
    <th>FP32</th>
    <th colspan="2">SQ INT8</th>
    <th colspan="2">WOQ INT8</th>
    <th colspan="2">WOQ INT4 GPTQ</th>
    <th colspan="2">WOQ INT4 AutoRound</th>
  </tr>
  <tr>
    <th>ACC</th>
    <th>ACC</th>
    <th>Ratio</th>
    <th>ACC</th>
    <th>Ratio</th>
    <th>ACC</th>
    <th>Ratio</th>
    <th>ACC</th>
    <th>Ratio</th>
  </tr></thead>
<tbody>
  <tr>
    <td>baichuan-inc/Baichuan2-13B-Chat</td>
    <td>71.51%</td>
    <td>75.51%</td>
    <td>1.0559</td>
    <td>71.57%</td>
    <td>1.0008</td>
    <td>71.45%</td>
    <td>0.9992</td>
    <td>70.87%</td>
    <td>0.9911</td>
  </tr>
</tbody></table>
"""


def test_woq_columns_hold_weight_only_runs_and_sq_columns_both_parts():
    document = normalized(INC_RECIPES, "text/html")
    found = {
        row["raw_value"]: (row["metric"], row["activation_dtype"], row["weight_dtype"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["71.51%"] == ("accuracy", "fp32", "fp32")
    assert found["75.51%"] == ("accuracy", "int8", "int8")
    assert found["71.57%"] == ("accuracy", None, "int8")
    assert found["71.45%"] == ("accuracy", None, "int4")
    assert found["70.87%"] == ("accuracy", None, "int4")
