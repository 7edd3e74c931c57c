"""A context text stating units of several kinds gives each column the unit of its own
metric's kind: "Per-stage median µs (...). Compute-bound throughout; tok/s ~linear in GPU
count" says the stages' times are in µs, and its last unit (tok/s) is the rates'. A column of
0s and 1s beside them ("MNNVL") says whether a feature was on: a setting, no time."""

from __future__ import annotations

from perfledger.schemas.context_labels import units_of_kinds
from tests.schemas.page_reading import fields_by_raw_value

# As flashinfer-ai/flashinfer's benchmarks/MoE_benchmarks.md introduces its study, then
# states the unit of its full-MoE table's stage times in the paragraph above it.
FLASHINFER_MOE = """# MoE-EP benchmarks (NCCL-EP) — container, how to run, and results

The headline study is `bench_ep_matrix.py` vs `ep_bench`: it confirms FlashInfer and
ep_bench launch the **same** kernels with the **same** GPU time, and quantifies (and then
removes) the Python host-call overhead.

## 4. Results — full MoE compute (`bench_moe_ep.py`)

Per-stage median µs (compute = grouped bf16 GEMM via `flashinfer.fused_moe` `TrtllmBf16Config`,
EP-local `top_k=1`). Compute-bound throughout; tok/s ~linear in GPU count.

**LL EXPERT_MAJOR — Pre-Nyx B200, reference config, bf16:**

| GPUs | nodes | MNNVL | dispatch | compute | combine | e2e | tok/s |
|---:|---:|:--:|---:|---:|---:|---:|---:|
| 8 | 1 | 0 | 125.5 | 3529.7 | 362.8 | 4127.6 | 0.25 M |
| 16 | 2 | 1 | 255.2 | 3438.2 | 204.1 | 4080.3 | 0.50 M |
| 32 | 4 | 1 | 401.4 | 3308.5 | 714.2 | 4569.2 | 0.90 M |
| 64 | 8 | 1 | 439.5 | 3264.9 | 633.7 | 4475.2 | 1.83 M |
"""


def test_each_column_takes_the_unit_of_its_kind_that_the_paragraph_states():
    found = fields_by_raw_value(
        FLASHINFER_MOE, "column_name", "metric", "value", "unit", "unit_published"
    )
    assert found["125.5"] == ("dispatch", "latency", 0.1255, "ms", "μs")
    assert found["3264.9"] == ("compute", "latency", 3.2649, "ms", "μs")
    assert found["4475.2"] == ("e2e", "latency", 4.4752, "ms", "μs")
    assert found["1.83 M"] == ("tok/s", "throughput", 1830000.0, "items/s", "tok/s")


def test_a_text_of_one_kind_of_unit_gives_none_by_kind():
    assert units_of_kinds("All µs/call, BF16, hidden 7168 / top-k 8 / 256 experts") == {}
    assert set(units_of_kinds("Per-stage median µs (compute). Compute-bound; tok/s ~linear")) == {
        "duration",
        "rate",
    }


def test_a_column_of_zeros_and_ones_under_a_name_is_a_setting_of_the_run():
    found = fields_by_raw_value(FLASHINFER_MOE, "column_name", "metric")
    assert "0" not in found  # MNNVL off on one node
    assert "1" not in found  # and on across nodes: no latency of 0 or 1 µs
    assert found["633.7"] == ("combine", "latency")
