"""Columns and summaries that benchmark scripts print under their own identifiers: a unit
joined to the name with "_" ("first_run_memory_MB", "latency_ms")."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import normalized

# As ONNX Runtime's Stable Diffusion README pastes its benchmark script's results: the peak
# GPU memory of the first and second runs, in MB as their names end.
STABLE_DIFFUSION = """#### Results of V100 (in Ubuntu 20.04)

| engine      | version                 | provider              | batch_size | average_latency | median_latency | first_run_memory_MB | second_run_memory_MB |
| ----------- | ----------------------- | --------------------- | ---------- | --------------- | -------------- | ------------------- | -------------------- |
| onnxruntime | 1.14.0                  | CUDAExecutionProvider | 1          | 2.7             | 2.7            | 6,636               | 7,142                |
| torch       | 2.0.0.dev20230220+cu117 | compile               | 8          | 15.6            | 15.5           | 14,819              | 11,055               |
"""


def test_a_script_column_ending_in_its_unit_loads_in_that_unit():
    document = normalized(STABLE_DIFFUSION)
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("first_run_memory_MB", "6,636")] == ("other", 6636.0, "MB")
    assert loaded[("second_run_memory_MB", "7,142")] == ("other", 7142.0, "MB")
    assert loaded[("first_run_memory_MB", "14,819")] == ("other", 14819.0, "MB")
    assert loaded[("second_run_memory_MB", "11,055")] == ("other", 11055.0, "MB")
    quarantined = set(document.quarantine["column_name"].to_list())
    assert "first_run_memory_MB" not in quarantined
    assert "second_run_memory_MB" not in quarantined


def test_identifier_units_are_whole_words_at_its_end():
    assert read_header("latency_ms").unit.alias == "ms"
    assert read_header("throughput_tokens_per_s").unit.alias == "tokens/s"
    assert read_header("latency_min").unit is None  # the minimum, not minutes
    assert read_header("latency_min").statistic == "min"
    assert read_header("batch_size").unit is None
