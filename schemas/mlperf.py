"""Typed frames of official MLPerf results: systems, runs and the scores derived from them.

The pandera models (MlperfSystemSchema, MlperfRunSchema, MlperfScoreSchema) live in
`schemas.mlperf_schema`, as an ingest that reads a results tree needs only the dtypes
below, not pandera with pandas and numpy; they are still named here."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.column_types import ColumnTypes
from perfledger.schemas.on_demand import models_on_demand

DIVISIONS = ["closed", "open"]
AVAILABILITIES = ["available", "preview", "rdi"]
# mlcommons/logging result_summarizer/config.yaml `availability` (the values it maps to).
AVAILABILITY_CATEGORIES = [
    "Available on-premise",
    "Available cloud",
    "Research, Development, or Internal (RDI)",
    "Preview",
]
SCORE_ROLES = ["used", "fastest", "slowest", "not_converged"]

# Column order and dtypes; sources/mlperf/tree.py builds exactly these frames.
SYSTEM_DTYPES: ColumnTypes = {
    "mlperf_round": pl.String,
    "submitter": pl.String,
    "system_id": pl.String,
    "submitter_name": pl.String,
    "division": pl.String,
    "status": pl.String,
    "availability": pl.String,
    "availability_category": pl.String,
    "system_name": pl.String,
    "number_of_nodes": pl.Int64,
    "accelerators_per_node": pl.Int64,
    "accelerator_count": pl.Int64,
    "accelerator_model_name": pl.String,
    "accelerator_memory_gb": pl.Float64,
    "host_processor_model_name": pl.String,
    "framework": pl.String,
    "framework_canonical": pl.String,
    "sdk_version": pl.String,
    "vendor": pl.String,
    "system": pl.String,
    "accelerator": pl.String,
    "platform_resolution": pl.String,
    "path": pl.String,
}

RUN_DTYPES: ColumnTypes = {
    "mlperf_round": pl.String,
    "submitter": pl.String,
    "system_id": pl.String,
    "benchmark": pl.String,
    "run_name": pl.String,
    "run_index": pl.Int32,
    "path": pl.String,
    "sha256": pl.String,
    "bytes_read": pl.Int64,
    "run_start_ms": pl.Int64,
    "run_stop_ms": pl.Int64,
    "minutes": pl.Float64,
    "status": pl.String,
    "converged": pl.Boolean,
    "score_role": pl.String,
    "eval_count": pl.Int32,
    "last_eval_accuracy": pl.Float64,
    "last_eval_components": pl.String,
    "global_batch_size": pl.Int64,
    "submission_benchmark": pl.String,
    "submission_division": pl.String,
    "submission_org": pl.String,
    "submission_platform": pl.String,
    "submission_status": pl.String,
    "hyperparameters": pl.String,
    "problem_count": pl.Int32,
    "duration_ms": pl.Float64,
    "quality_target": pl.String,
    "reached_target": pl.Boolean,
    "energy_joules": pl.Float64,
}

SCORE_DTYPES: ColumnTypes = {
    "mlperf_round": pl.String,
    "submitter": pl.String,
    "system_id": pl.String,
    "benchmark": pl.String,
    "division": pl.String,
    "model_canonical": pl.String,
    "score_minutes": pl.Float64,
    "scaling_factor": pl.Float64,
    "valid": pl.Boolean,
    "reason": pl.String,
    "rule_id": pl.String,
    "rule_text": pl.String,
    "runs_required": pl.Int32,
    "runs_found": pl.Int32,
    "runs_converged": pl.Int32,
    "runs_non_converged": pl.Int32,
    "runs_used": pl.String,
    "runs_dropped": pl.String,
    "energy_joules": pl.Float64,
    "energy_reason": pl.String,
}


__getattr__ = models_on_demand(
    __name__, ".mlperf_schema", ["MlperfSystemSchema", "MlperfRunSchema", "MlperfScoreSchema"]
)
