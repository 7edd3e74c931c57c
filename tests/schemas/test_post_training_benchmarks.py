"""Benchmark pages of LLM fine-tuning and RL post-training frameworks no corpus holds: a
framework's table of RL and SFT runs (MFU, tokens per second, step time, peak memory per
hardware), and a time-per-step breakdown of an RL trainer's modes."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As PrimeIntellect-ai/prime-rl's benchmarks/results/BENCHMARKS.md writes its tables.
PRIME_RL_BENCHMARKS = """# Performance Benchmarks

Automated benchmark results for prime-rl using `--bench` flag.

## Qwen3-0.6B

| Type | SeqLen | AC | Attn | EP | CP | Hardware | MFU | TPS | Step Time | Peak Mem |
|------|--------|----|----|----|----|----------|-----|-----|-----------|----------|
| RL Full | 16384 | Recompute | FA3 | 1 | 1 | 1xH100 HBM3 | 11.1% | 11.90k | 1.38s | 12.5 GiB |
| RL Full | 65536 | Recompute | FA2 | 1 | 1 | 4xA6000 | 16.2% | 7.72k | 33.94s | 12.4 GiB |
| SFT Full | 8192 | Recompute | FA3 | 1 | 1 | 1xH100 HBM3 | 16.8% | 26.01k | 0.32s | 31.7 GiB |
"""


def test_a_step_time_beside_mfu_is_a_training_figure_not_an_inference_latency():
    found = fields_by_raw_value(
        PRIME_RL_BENCHMARKS, "metric", "value", "unit", "accelerator", "accelerator_count"
    )
    assert found["1.38s"] == ("latency", 1380.0, "ms", "H100", 1)
    assert found["33.94s"] == ("latency", 33940.0, "ms", "A6000", 4)
    assert found["7.72k"] == ("throughput", 7720.0, "items/s", "A6000", 4)
    rows = normalized(PRIME_RL_BENCHMARKS).measurements
    # the headers "MFU" and "Step Time" name training: every value of the table is a training
    # run's, its time per step among them
    assert set(rows["workload"]) == {"training"}
    assert len(rows) == 12
    assert all("workload=column" in sources for sources in rows["label_sources"])
