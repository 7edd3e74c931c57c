"""A metric's abbreviation that is also the name of an engine a table compares: OpenPPL's
"PPL" beside TensorRT's "TRT-8", each at two precisions, names runs, not perplexities."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As openppl-public/ppl.nn's docs/en/cuda-doc/benchmark_tool.md compares its engine with
# TensorRT (the first rows of "PPL and TRT Bechmark for single batch on T4")
PPLNN_T4 = """## PPL and TRT Bechmark for single batch on T4:

All tested model are dynamic model created by pytorch model zoo.

| model name                  | PPL(fp16)  | TRT-8(fp16)  | PPL(int8)  | TRT-8(int8)  |
|--------------------------|----------|----------|----------|-----------|
| alexnet                  | 0.60907  | 0.66893  | 0.37125  | 0.463265  |
| densenet121_opt          | 2.64249  | 3.13724  | 2.33323  | 2.385010  |
"""


def test_an_engine_named_like_a_metric_beside_another_engine_names_no_perplexity():
    document = normalized(PPLNN_T4)
    # No unit and no metric stated anywhere: the runs are set apart, not loaded as scores
    assert document.measurements.height == 0
    checks = dict(
        zip(
            document.quarantine["raw_value"].to_list(),
            document.quarantine["check"].to_list(),
            strict=True,
        )
    )
    assert checks["0.60907"] == "unknown_metric"
    assert checks["0.463265"] == "unknown_metric"
    assert len(checks) == 8


# The same shape with a unit in the heading: the engines' latencies load as latencies
PPLNN_T4_MS = PPLNN_T4.replace("on T4:", "on T4 (ms):")


def test_an_engines_runs_take_the_unit_their_heading_states():
    found = fields_by_raw_value(PPLNN_T4_MS, "metric", "unit", "precision", "accelerator")
    assert found["0.60907"] == ("latency", "ms", "fp16", "T4")
    assert found["0.37125"] == ("latency", "ms", "int8", "T4")
    assert found["0.463265"] == ("latency", "ms", "int8", "T4")


# A perplexity table in the same shape stays one: its other columns name no engine
PERPLEXITY = """## Perplexity on WikiText-2

| Model | PPL(fp16) | PPL(int4) | Latency(fp16) |
| --- | --- | --- | --- |
| Llama-2-7B | 5.47 | 5.73 | 21.3 ms |
"""


def test_a_perplexity_beside_other_metrics_stays_a_perplexity():
    found = fields_by_raw_value(PERPLEXITY, "metric", "precision")
    assert found["5.47"] == ("accuracy", "fp16")
    assert found["5.73"] == ("accuracy", "int4")
    assert found["21.3 ms"] == ("latency", "fp16")
