"""Words of pages comparing inference engines side by side: rates of embeddings and reranks
("16.74 emb/s", "3.59 rerank/s") are throughputs; a column naming the leader of a comparison
("Latency leader": "transformersjs") holds text about the row, no value; and a row or column
named "model load" measures the time to load the model, not a model's name."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As clocksmith/doppler's docs/model-competition-scoreboard.md compares its embedding and
# rerank runs with Transformers.js (its "Claim" and "Evidence" columns left out).
SCOREBOARD = """# Model Competition Scoreboard

## Embedding Competition Rows

| Model | Correctness | Doppler median | TJS median | Latency leader | Doppler throughput | TJS throughput | Throughput leader | Load leader |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
| google-embeddinggemma-300m-q4k-ehf16-af32 | semantic-pass | 60.04 ms | 25.42 ms | transformersjs | 16.74 emb/s | 35.13 emb/s | transformersjs | doppler |

## Rerank Competition Rows

| Model | Correctness | Doppler median | TJS median | Latency leader | Doppler throughput | TJS throughput | Throughput leader | Load leader |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
| qwen-3-reranker-0-6b-q4k-ehf16-af32 | semantic-pass | 277.6 ms | 469.25 ms | doppler | 3.59 rerank/s | 2.12 rerank/s | doppler | transformersjs |
"""  # noqa: E501

# As its docs/release-matrix.md sets out where the time of one run went.
BOTTLENECKS = """# Release Matrix

## Latest Bottlenecks

| Metric | Leader | Gap | Doppler | Transformers.js |
|---|---|---:|---:|---:|
| first token (TTFT) | transformersjs | 145.2% | 103.8 ms | 42.33 ms |
| model load | transformersjs | 45.62% | 1133.6 ms | 778.5 ms |
| decode p50 ms/token | transformersjs | 0.18% | 8.36 ms | 8.345 ms |
"""


def test_rates_of_embeddings_and_reranks_are_throughputs_and_leaders_no_values():
    read = normalized(SCOREBOARD)
    assert read.quarantine.height == 0
    rates = sorted(
        (row["raw_value"], row["metric"], row["value"], row["unit"], row["item_kind"])
        for row in read.measurements.iter_rows(named=True)
        if row["column_name"].endswith("throughput")
    )
    assert rates == [
        ("16.74 emb/s", "throughput", 16.74, "items/s", "embeddings"),
        ("2.12 rerank/s", "throughput", 2.12, "items/s", "reranks"),
        ("3.59 rerank/s", "throughput", 3.59, "items/s", "reranks"),
        ("35.13 emb/s", "throughput", 35.13, "items/s", "embeddings"),
    ]
    assert sorted(read.measurements["raw_value"]) == [
        "16.74 emb/s",
        "2.12 rerank/s",
        "25.42 ms",
        "277.6 ms",
        "3.59 rerank/s",
        "35.13 emb/s",
        "469.25 ms",
        "60.04 ms",
    ]


def test_the_time_to_load_the_model_is_a_figure_and_names_no_model():
    measurements = normalized(BOTTLENECKS).measurements
    loads = measurements.filter(measurements["raw_value"].is_in(["1133.6 ms", "778.5 ms"]))
    assert sorted(zip(loads["column_name"], loads["metric"], loads["value"], strict=True)) == [
        ("Doppler", "other", 1133.6),
        ("Transformers.js", "other", 778.5),
    ]
    assert measurements["model"].drop_nulls().to_list() == []
    latencies = measurements.filter(measurements["metric"] == "latency")
    assert sorted(latencies["value"]) == [8.345, 8.36, 42.33, 103.8]
