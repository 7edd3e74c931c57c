"""The pandera models of the official MLPerf frames, which the tests and the data
dictionary read; `schemas.mlperf` holds the dtypes an ingest needs without pandera."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl
from pandera.api.polars.model_config import BaseConfig

from perfledger.schemas.mlperf import (
    AVAILABILITIES,
    AVAILABILITY_CATEGORIES,
    DIVISIONS,
    SCORE_ROLES,
)


class MlperfSystemSchema(pa.DataFrameModel):
    """One system description (systems/<system_id>.json) of one submitter."""

    mlperf_round: str = pa.Field(nullable=True, description="MLPerf round, e.g. '2.0'")
    submitter: str = pa.Field(description="Submitter folder name in the results repository")
    system_id: str = pa.Field(description="File stem of the system JSON, the results/ folder")
    submitter_name: str = pa.Field(nullable=True, description="Submitter as the JSON states")
    division: str = pa.Field(nullable=True, isin=DIVISIONS, description="closed or open")
    status: str = pa.Field(nullable=True, description="Availability as the JSON states it")
    availability: str = pa.Field(
        nullable=True,
        isin=AVAILABILITIES,
        description="MLCommons category: available, preview, rdi",
    )
    availability_category: str = pa.Field(
        nullable=True,
        isin=AVAILABILITY_CATEGORIES,
        description="The status as the MLCommons summarizer maps it (config.yaml), e.g. "
        "'Available on-premise'",
    )
    system_name: str = pa.Field(nullable=True, description="System name as the JSON states")
    number_of_nodes: int = pa.Field(nullable=True, ge=0, description="Nodes in the system")
    accelerators_per_node: int = pa.Field(nullable=True, ge=0, description="Per node")
    accelerator_count: int = pa.Field(
        nullable=True, ge=0, description="accelerators_per_node x number_of_nodes"
    )
    accelerator_model_name: str = pa.Field(nullable=True, description="As the JSON states")
    accelerator_memory_gb: float = pa.Field(
        nullable=True, gt=0, description="Memory of one accelerator, GB"
    )
    host_processor_model_name: str = pa.Field(nullable=True, description="Host CPU")
    framework: str = pa.Field(nullable=True, description="Framework as the JSON states it")
    framework_canonical: str = pa.Field(nullable=True, description="Framework, canonical")
    sdk_version: str = pa.Field(nullable=True, description="Vendor SDK named in framework")
    vendor: str = pa.Field(nullable=True, description="Platform vendor (platforms.csv)")
    system: str = pa.Field(nullable=True, description="Platform, canonical (platforms.csv)")
    accelerator: str = pa.Field(nullable=True, description="Accelerator chip, canonical")
    platform_resolution: str = pa.Field(
        isin=["system_name", "system_id", "accelerator_count", "unresolved"],
        description="Which label resolved the platform",
    )
    path: str = pa.Field(description="The JSON file, relative to the tree read")

    class Config(BaseConfig):
        strict = True
        unique = ["mlperf_round", "submitter", "system_id"]


class MlperfRunSchema(pa.DataFrameModel):
    """One result file: one training run of one system on one benchmark."""

    mlperf_round: str = pa.Field(nullable=True, description="MLPerf round, e.g. '2.0'")
    submitter: str = pa.Field(description="Submitter folder name")
    system_id: str = pa.Field(description="System folder under results/")
    benchmark: str = pa.Field(description="Benchmark folder, as the logs name it ('resnet')")
    run_name: str = pa.Field(description="File stem, e.g. 'result_0'")
    run_index: pl.Int32 = pa.Field(
        nullable=True,
        ge=0,
        description="Position of the run in its folder, ordered by the numbers in its name, "
        "then the name (0 for result_0 of result_0..result_4)",
    )
    path: str = pa.Field(description="The result file, relative to the tree read")
    sha256: str = pa.Field(str_length=64, description="sha256 of the bytes read")
    bytes_read: int = pa.Field(ge=0, description="Bytes read (bounded)")
    run_start_ms: int = pa.Field(nullable=True, description="run_start time, ms since epoch")
    run_stop_ms: int = pa.Field(nullable=True, description="run_stop time, ms since epoch")
    minutes: float = pa.Field(nullable=True, ge=0, description="run_stop - run_start, minutes")
    status: str = pa.Field(nullable=True, description="run_stop status: success, aborted, ...")
    converged: bool = pa.Field(description="Timed run stopped in success")
    score_role: str = pa.Field(
        nullable=True, isin=SCORE_ROLES, description="How the score used the run"
    )
    eval_count: pl.Int32 = pa.Field(ge=0, description="eval_accuracy events")
    last_eval_accuracy: float = pa.Field(
        nullable=True,
        description="Last eval_accuracy value; for a dict value (Mask R-CNN) its BBOX",
    )
    last_eval_components: str = pa.Field(
        nullable=True,
        description="Last eval_accuracy when it logs several values, as a JSON object "
        "(Mask R-CNN: BBOX and SEGM)",
    )
    global_batch_size: int = pa.Field(nullable=True, gt=0, description="global_batch_size")
    submission_benchmark: str = pa.Field(nullable=True, description="submission_benchmark")
    submission_division: str = pa.Field(nullable=True, description="submission_division")
    submission_org: str = pa.Field(nullable=True, description="submission_org")
    submission_platform: str = pa.Field(nullable=True, description="submission_platform")
    submission_status: str = pa.Field(nullable=True, description="submission_status")
    hyperparameters: str = pa.Field(description="Other logged settings, JSON object")
    problem_count: pl.Int32 = pa.Field(ge=0, description="Problems found in the file")
    duration_ms: float = pa.Field(
        nullable=True,
        ge=0,
        description="run_stop - run_start in ms as logged, a fraction of a millisecond kept",
    )
    quality_target: str = pa.Field(
        nullable=True,
        description="The range an eval_accuracy must reach for the run to count, from the "
        "round's compliance rules (sources/mlperf/rules/training_targets.csv)",
    )
    reached_target: bool = pa.Field(
        nullable=True,
        description="Whether some evaluation reached the quality target; a run that did not "
        "counts as not converged. NULL where the rules hold no target",
    )
    energy_joules: float = pa.Field(
        nullable=True,
        ge=0,
        description="Energy of a run measured for power (its power/ logs), joules, as the "
        "MLCommons result summarizer computes it",
    )

    class Config(BaseConfig):
        strict = True
        unique = ["mlperf_round", "submitter", "system_id", "benchmark", "run_name"]


class MlperfScoreSchema(pa.DataFrameModel):
    """The official score of one system on one benchmark, with the rule and runs behind it."""

    mlperf_round: str = pa.Field(nullable=True, description="MLPerf round, e.g. '2.0'")
    submitter: str = pa.Field(description="Submitter folder name")
    system_id: str = pa.Field(description="System folder under results/")
    benchmark: str = pa.Field(description="Benchmark as the logs name it")
    division: str = pa.Field(nullable=True, isin=DIVISIONS, description="closed or open")
    model_canonical: str = pa.Field(
        nullable=True, description="Model via schemas/vocab/mlperf_benchmarks.csv"
    )
    score_minutes: float = pa.Field(nullable=True, gt=0, description="Official time to train")
    scaling_factor: float = pa.Field(
        nullable=True,
        gt=0,
        description="Factor multiplied into score_minutes: the folder's scaling.json, 1.0 if "
        "none (null when there is no score)",
    )
    valid: bool = pa.Field(description="True when the runs meet the rule")
    reason: str = pa.Field(nullable=True, description="Why the score is missing or invalid")
    rule_id: str = pa.Field(nullable=True, description="Rule applied")
    rule_text: str = pa.Field(nullable=True, description="The rule, with its source")
    runs_required: pl.Int32 = pa.Field(nullable=True, gt=0, description="Runs the rule needs")
    runs_found: pl.Int32 = pa.Field(ge=0, description="Result files found")
    runs_converged: pl.Int32 = pa.Field(ge=0, description="Runs that converged")
    runs_non_converged: pl.Int32 = pa.Field(ge=0, description="Runs that did not")
    runs_used: str = pa.Field(description="Runs averaged, comma-separated")
    runs_dropped: str = pa.Field(description="Runs dropped with why, comma-separated")
    energy_joules: float = pa.Field(
        nullable=True,
        ge=0,
        description="Official energy to train, joules, where the runs were measured for "
        "power: the mean energy of the runs the score uses, times the scaling "
        "factor (the result summarizer's)",
    )
    energy_reason: str = pa.Field(
        nullable=True, description="Why a folder measured for power has no energy score"
    )

    class Config(BaseConfig):
        strict = True
        unique = ["mlperf_round", "submitter", "system_id", "benchmark"]

    @pa.dataframe_check
    def valid_scores_have_a_value(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(~pl.col("valid") | pl.col("score_minutes").is_not_null())
