"""Header words whose letters could be read as another word's: a letter before a metric in
camel case abbreviates ("aAcc", "mAcc"), "per rank" and "/rank" say per process, and a time
cost per inference is a latency; quoted from the pages' own cells."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import normalized

# Cambricon MagicMind's mmseg benchmark page: the summary printed by mmsegmentation's test tool
MMSEG_SUMMARY = """# mmseg

Summary:

| aAcc | mIoU | mAcc |
| --- | --- | --- |
| 94.78 | 72.14 | 80.7 |
"""


def test_a_letter_before_a_metric_in_camel_case_abbreviates_it():
    rows = normalized(MMSEG_SUMMARY).measurements.sort("column_index")
    assert rows.select("column_name", "value", "metric").rows() == [
        ("aAcc", 94.78, "accuracy"),
        ("mIoU", 72.14, "accuracy"),
        ("mAcc", 80.7, "accuracy"),
    ]
    assert read_header("Tuned CatBoost").role is None  # a library's name, no "boost"


# vllm-project/vllm-project.github.io, _posts/2026-08-17-distributed-layerwise-offload.md
OFFLOAD_STRATEGIES = """# Distributed layerwise offload

| Strategy | Per-step (ms) | Generated frames/s | CPU/rank | HBM/card | vs. HSDP |
|----------|:-------------:|:------------------:|:--------:|:--------:|:--------:|
| HSDP+SP (baseline) | 870 | 0.967 | 0 GB | 20.3 GB | — |
| dist_offload+AG (DP4, 1 req) | 1,020 | 0.806 | 3.5 GB | 12.4 GB | -17% |
"""


def test_a_figure_per_rank_is_no_ranking():
    rows = normalized(OFFLOAD_STRATEGIES).measurements
    memory = rows.filter(rows["column_name"] == "CPU/rank").sort("row_number")
    assert memory.select("raw_value", "metric", "unit").rows() == [
        ("0 GB", "other", "GB"),
        ("3.5 GB", "other", "GB"),
    ]
    assert read_header("Threads/rank").kind == "config"  # GROMACS's layout of a run


def test_a_time_cost_of_one_inference_is_a_latency():
    assert read_header("Average inference time cost total").role == "latency"
    assert read_header("The following table is the comparison of time cost:").role == (
        "time_to_result"
    )
