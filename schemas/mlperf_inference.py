"""Typed frames of official MLPerf Inference results: systems, results and reading problems.

sources/mlperf/inference/ builds exactly these frames (column order and dtypes);
warehouse/migrations/011_mlperf_inference.sql stores the first two.
"""

from __future__ import annotations

import polars as pl

from perfledger.schemas.column_types import ColumnTypes

DIVISIONS = ["closed", "open", "network"]
AVAILABILITIES = ["available", "preview", "rdi"]
SCENARIOS = ["Offline", "Server", "SingleStream", "MultiStream", "Interactive"]
UNITS = ["tokens/s", "samples/s", "queries/s", "ms"]

SYSTEM_DTYPES: ColumnTypes = {
    "mlperf_round": pl.String,
    "division": pl.String,  # the folder's, as the checker reads it
    "submitter": pl.String,  # the folder's
    "system_id": pl.String,  # systems/<system_id>.json, results/<system_id>/
    "submitter_name": pl.String,  # the JSON's
    "system_name": pl.String,
    "system_type": pl.String,  # datacenter, edge or "datacenter,edge"
    "status": pl.String,  # as written
    "availability": pl.String,  # the status in lower case when available, preview or rdi
    "number_of_nodes": pl.Int64,
    "accelerators_per_node": pl.Int64,
    "accelerator_count": pl.Int64,
    "accelerator_model_name": pl.String,
    "accelerator_memory_gb": pl.Float64,
    "host_processor_model_name": pl.String,
    "framework": pl.String,
    "framework_canonical": pl.String,
    "sdk_version": pl.String,
    "vendor": pl.String,  # as the vendor pages' normalizer names them
    "system": pl.String,
    "accelerator": pl.String,
    "platform_resolution": pl.String,
    "path": pl.String,
    "host_processors_per_node": pl.Int64,  # sockets: a CPU-only system is compared by them
}

RESULT_DTYPES: ColumnTypes = {
    "mlperf_round": pl.String,  # "4.1"
    "round_source": pl.String,  # log (the run's seeds), folder or argument
    "division": pl.String,
    "submitter": pl.String,
    "system_id": pl.String,
    "benchmark": pl.String,  # the folder's: llama2-70b-99.9, resnet50
    "model": pl.String,  # the benchmark without its accuracy suffix: llama2-70b
    "accuracy_target": pl.String,  # "99", "99.9" or null
    "scenario": pl.String,  # Offline, Server, SingleStream, MultiStream
    "metric": pl.String,  # tokens_per_second, completed_samples_per_second, latency_p90...
    "value": pl.Float64,
    "unit": pl.String,  # tokens/s, samples/s, queries/s or ms
    "result_field": pl.String,  # the LoadGen key the checker reads
    "source_file": pl.String,  # the log the value came from (detail, or summary without it)
    "result_validity": pl.String,  # VALID or INVALID, as LoadGen logged it
    "valid": pl.Boolean,  # every rule of the round kept
    "reason": pl.String,  # why not, "; "-separated; null when valid
    "accuracy": pl.String,  # JSON: the checker's metric names -> values read
    "accuracy_ok": pl.Boolean,
    "power_watts": pl.Float64,  # Offline and Server power results
    "energy_mj_per_query": pl.Float64,  # SingleStream and MultiStream power results
    "path": pl.String,  # <division>/<submitter>/results/<system>/<benchmark>/<scenario>
}

PROBLEM_DTYPES: ColumnTypes = {
    "path": pl.String,
    "line_number": pl.Int32,
    "check": pl.String,
    "reason": pl.String,
    "raw": pl.String,
}
