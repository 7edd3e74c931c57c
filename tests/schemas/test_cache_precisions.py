"""A dtype a key-value cache is stored in ("kv int8", "FP8 KV-cache", "INT4/INT8 KV Cache")
is kept as the precision published but sets neither the weights' nor the activations' dtype:
the model runs in its own precision whatever type its cache keeps."""

from __future__ import annotations

import pytest

from perfledger.schemas.precisions import names_cache_types_only, read_precision_label
from tests.schemas.page_reading import normalized


@pytest.mark.parametrize(
    ("label", "cache_only"),
    [
        ("kv int8", True),
        ("INT4/INT8 KV Cache", True),
        ("kv_cache_dtype=fp8", True),
        ("FP8 KV-cache", True),
        ("fp8 w/ fp8 KVCache", False),
        ("BF16 model, FP8 KV cache", False),
        ("fp16", False),
    ],
)
def test_a_precision_naming_a_caches_type_only_is_told(label, cache_only):
    assert names_cache_types_only(read_precision_label(label).text) is cache_only


def test_the_runs_precision_is_read_beside_its_caches_type():
    precision = read_precision_label("BF16 model, FP8 KV cache")
    assert (precision.activation, precision.weight) == ("bf16", "bf16")


# As InternLM/lmdeploy's docs/en/quantization/kv_quant.md evaluates its KV cache types (the
# first columns of its "Evaluation" table, two of its rows)
LMDEPLOY_KV = """# INT4/INT8 KV Cache

## Evaluation

| -           | -       | -             | llama2-7b-chat | -       | -       |
| ----------- | ------- | ------------- | -------------- | ------- | ------- |
| dataset     | version | metric        | kv fp16        | kv int8 | kv int4 |
| gsm8k       | 1d7fe4  | accuracy      | 28.2           | 28.05   | 27.37   |
| race-middle | 9a54b6  | accuracy      | 41.57          | 41.78   | 41.23   |
"""


def test_kv_cache_columns_state_the_caches_type_not_the_models():
    document = normalized(LMDEPLOY_KV)
    found = {
        row["raw_value"]: (row["metric"], row["precision"], row["activation_dtype"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["28.05"] == ("accuracy", "kv int8", None)
    assert found["41.23"] == ("accuracy", "kv int4", None)
    weights = document.measurements.filter(document.measurements["raw_value"] == "27.37")
    assert weights["weight_dtype"].to_list() == [None]
