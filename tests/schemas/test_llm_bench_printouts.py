"""Tables that LLM benchmark and evaluation tools print, pasted into pages as they come:
llama.cpp's sweep and batched benches ("T_PP s | S_PP t/s"), the serving benchmark's
summary columns and lm-evaluation-harness's task tables."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As ik_llama.cpp's "Qwen3 - early performance comparisons" discussion pastes
# llama-sweep-bench output: prompt and generated tokens and the tokens already in the KV cache
# are the run's settings; "T_PP s" is the time of the prompt in seconds, "S_PP t/s" its speed.
SWEEP_BENCH = """## Hybrid inference

|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |
|-------|--------|--------|----------|----------|----------|----------|
|   512 |    128 |      0 |    0.587 |   871.89 |    1.864 |    68.68 |
|   512 |    128 |    512 |    0.593 |   863.47 |    1.883 |    67.97 |
"""


def _loaded(page: str) -> dict[tuple[str, str], tuple]:
    rows = normalized(page).measurements.iter_rows(named=True)
    return {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in rows
    }


def test_sweep_bench_times_load_in_seconds_and_token_counts_are_settings():
    document = normalized(SWEEP_BENCH)
    loaded = _loaded(SWEEP_BENCH)
    assert loaded[("T_PP s", "0.587")] == ("latency", 587.0, "ms")
    assert loaded[("T_TG s", "1.883")] == ("latency", 1883.0, "ms")
    assert loaded[("S_PP t/s", "871.89")] == ("throughput", 871.89, "items/s")
    assert loaded[("S_TG t/s", "67.97")] == ("throughput", 67.97, "items/s")
    assert len(loaded) == 8  # no token count is a value
    assert document.quarantine.height == 0
    settings = {
        row["raw_value"]: row["settings"]
        for row in document.measurements.iter_rows(named=True)
        if row["column_name"] == "S_TG t/s"
    }
    assert "N_KV=512" in settings["67.97"]
    assert "N_KV=0" in settings["68.68"]
