"""LLM-serving tables that state no unit: serving benchmark tools print TTFT, TPOT, ITL and
E2E latency in one unit, which the table's per-token latencies show (1 to 1000 per token is
milliseconds); and a request rate before the table's labels is the load a run was given."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As sgl-project/sglang's benchmark/benchmark_vllm_060/README.md shows it (the first table of
# "Online benchmark results"); ../shared/real-pages-2 holds the whole page.
ONLINE = """## Online benchmark results

### Llama 3.1 8B Instruct 1 x A100 80G

| RPS  | Num prompts | Engine | Median E2E Latency | Median TTFT | Median TPOT | Median ITL |
|------|-------------|--------|--------------------|-------------|-------------|------------|
| 4    | 1200        | SGLang | 1564.17            | **31.98**   | 13.17       | **11.93**  |
| 4    | 1200        | vLLM   | 1691.97            | **100.48**  | 14.14       | **129.32** |
| 8    | 2400        | SGLang | 2175.02            | **35.68**   | 17.85       | **14.41**  |
"""


def test_serving_latencies_take_the_milliseconds_their_per_token_latencies_show():
    loaded = fields_by_raw_value(
        ONLINE, "column_name", "metric", "value", "unit", "statistic", "accelerator"
    )
    assert loaded["1564.17"] == ("Median E2E Latency", "latency", 1564.17, "ms", "p50", "A100")
    assert loaded["100.48"] == ("Median TTFT", "latency", 100.48, "ms", "p50", "A100")
    assert loaded["17.85"] == ("Median TPOT", "latency", 17.85, "ms", "p50", "A100")
    assert loaded["129.32"] == ("Median ITL", "latency", 129.32, "ms", "p50", "A100")
    document = normalized(ONLINE)
    assert document.quarantine.height == 0
    sources = set(document.measurements["label_sources"])
    assert all("unit=per-token latencies" in source for source in sources)


def test_a_request_rate_before_the_labels_is_a_setting_of_the_rows():
    document = normalized(ONLINE)
    measurements = document.measurements
    assert "RPS" not in set(measurements["column_name"])  # 4 requests/s is no throughput
    row = measurements.filter(measurements["raw_value"] == "2175.02").row(0, named=True)
    assert row["row_label"] == "8 / 2400 / SGLang"
    assert row["settings"] == "RPS=8; Num prompts=2400"


def test_per_token_latencies_below_one_show_no_unit():
    # seconds or milliseconds: 0.013 ms per token is no time a served model gives, nor is
    # 0.013 s certain without a unit: the table's latencies stay unit_not_stated
    page = ONLINE.replace("13.17", "0.013").replace("14.14", "0.014").replace("17.85", "0.018")
    quarantined = normalized(page).quarantine
    assert set(quarantined["check"]) == {"unit_not_stated"}
    assert "1564.17" in set(quarantined["raw_value"])


def test_request_latencies_without_per_token_ones_show_no_unit():
    page = """### Llama 3.1 8B Instruct 1 x A100 80G

| Engine | Median E2E Latency | Median TTFT |
|--------|--------------------|-------------|
| SGLang | 1564.17            | 31.98       |
| vLLM   | 1691.97            | 100.48      |
"""
    document = normalized(page)
    assert document.measurements.height == 0
    assert sorted(document.quarantine["raw_value"]) == ["100.48", "1564.17", "1691.97", "31.98"]


def test_a_request_rate_after_the_labels_is_the_measured_throughput():
    page = """### Llama 3.1 8B Instruct 1 x A100 80G

| Engine | RPS  | Median TTFT (ms) |
|--------|------|------------------|
| SGLang | 22.5 | 31.98            |
"""
    loaded = fields_by_raw_value(page, "metric", "value", "unit")
    assert loaded["22.5"] == ("throughput", 22.5, "items/s")
    assert loaded["31.98"] == ("latency", 31.98, "ms")
