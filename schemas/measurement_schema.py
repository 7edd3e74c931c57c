"""The pandera model of the measurement frame, which words a failing row's checks.

Imported only when a frame fails the quick screen of `schemas.validate` (and by the data
dictionary): pandera brings pandas and numpy, which an ingest otherwise never loads.
`schemas.measurements` states the same columns and checks without pandera; its frame-wide
checks are the very expressions this model runs."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl
from pandera.api.polars.model_config import BaseConfig

from perfledger.schemas.measurements import (
    DTYPES,
    METRICS,
    RATE_SCOPES,
    RATES_AND_DURATIONS_ARE_POSITIVE,
    STATISTICS,
    VALUE_IS_FINITE,
    WORKLOADS,
)


class MeasurementSchema(pa.DataFrameModel):
    """Columns of the `measurements` view, with the checks a value must pass to be loaded."""

    source_id: str = pa.Field(description="Registry name of the source the value came from")
    source_url: str = pa.Field(description="URL of the page as published")
    document_sha256: str = pa.Field(str_length=64, description="sha256 of the page version's bytes")
    document_title: str = pa.Field(nullable=True, description="Title the page states")
    captured_at: str = pa.Field(description="When the page version was captured (ISO 8601)")
    parser_version: str = pa.Field(description="Version of the parser that read the value")
    table_index: pl.Int32 = pa.Field(
        ge=0, description="0-based order of the table on the page, tables printed in code last"
    )
    table_title: str = pa.Field(nullable=True, description="Heading of the table, as published")
    row_number: pl.Int32 = pa.Field(ge=1, description="1-based data row within the table")
    column_index: pl.Int32 = pa.Field(ge=0, description="0-based column of the value's cell")
    column_name: str = pa.Field(description="Header of the value's column, as published")
    line_number: pl.Int32 = pa.Field(ge=1, description="1-based source line of the value's cell")
    row_identity: str = pa.Field(description="Readable natural key: identifying cells + metric")
    model: str = pa.Field(nullable=True, description="Model, as published")
    model_canonical: str = pa.Field(nullable=True, description="Model, canonical name")
    variant: str = pa.Field(nullable=True, description="Variant or configuration, as published")
    platform: str = pa.Field(nullable=True, description="Platform, as published")
    vendor: str = pa.Field(nullable=True, description="Vendor of the accelerator")
    system: str = pa.Field(
        nullable=True, description="Platform, canonical: a named system or '<count>x <chip>'"
    )
    accelerator: str = pa.Field(
        nullable=True,
        description=("Accelerator chip, canonical; as published where no vocabulary knows it"),
    )
    accelerator_count: int = pa.Field(
        nullable=True, gt=0, description="Accelerators that produced the value"
    )
    sdk_version: str = pa.Field(nullable=True, description="SDK version, as published")
    sdk: str = pa.Field(nullable=True, description="SDK version number, canonical")
    sdk_prerelease: bool = pa.Field(nullable=True, description="True for a pre-release SDK")
    framework: str = pa.Field(nullable=True, description="Framework, as published")
    framework_canonical: str = pa.Field(nullable=True, description="Framework, canonical")
    dataset: str = pa.Field(nullable=True, description="Dataset, as published")
    batch_size: str = pa.Field(nullable=True, description="Batch size, as published")
    batch_size_number: float = pa.Field(nullable=True, gt=0, description="Batch size as a number")
    precision: str = pa.Field(nullable=True, description="Precision label, as published")
    activation_dtype: str = pa.Field(
        nullable=True, isin=DTYPES, description="Precision of activations and gradients"
    )
    weight_dtype: str = pa.Field(nullable=True, isin=DTYPES, description="Precision of weights")
    division: str = pa.Field(nullable=True, description="MLPerf division")
    quality_target: str = pa.Field(nullable=True, description="MLPerf quality target")
    mlperf_id: str = pa.Field(nullable=True, description="MLPerf result id")
    workload: str = pa.Field(nullable=True, isin=WORKLOADS, description="training or inference")
    phase: str = pa.Field(nullable=True, description="Training phase where stated")
    metric: str = pa.Field(isin=METRICS, description="What the value measures")
    value: float = pa.Field(description="The value in the metric's canonical unit")
    unit: str = pa.Field(nullable=True, description="Canonical unit: items/s, ms, s, place, ...")
    item_kind: str = pa.Field(nullable=True, description="What a throughput counts")
    value_per_accelerator: float = pa.Field(
        nullable=True,
        gt=0,
        description="Throughput per accelerator: a "
        "per-device rate as published, else the "
        "throughput divided by the accelerators",
    )
    rate_per: str = pa.Field(
        nullable=True,
        isin=RATE_SCOPES,
        description="What a rate is counted per as published: "
        "accelerator (TPS/GPU, tokens/s/chip), node or "
        "user (tok/s/user); NULL for the whole system's",
    )
    published_number: float = pa.Field(nullable=True, description="The number as printed")
    unit_published: str = pa.Field(nullable=True, description="Unit as the page states it")
    approximate: bool = pa.Field(nullable=True, description="True when printed as approximate")
    raw_value: str = pa.Field(description="The cell exactly as published")
    row_label: str = pa.Field(
        nullable=True,
        description=(
            "The row's label cells, joined by ' / ' (where a column names each row's metric and"
            " the row has no label cell: that name)"
        ),
    )
    statistic: str = pa.Field(
        nullable=True,
        isin=STATISTICS,
        description="Which statistic of the runs: mean, p90, p99, std...",
    )
    spread: float = pa.Field(nullable=True, description="The +/- spread, in the value's unit")
    qualifier: str = pa.Field(
        nullable=True, description="Remark on one of a cell's values ('phase1')"
    )
    settings: str = pa.Field(
        nullable=True, description="Other settings of the row: 'Sequence Length=128/128'"
    )
    label_sources: str = pa.Field(
        nullable=True, description="Where each label came from: 'accelerator=heading; ...'"
    )
    unresolved: str = pa.Field(
        nullable=True, description="Labels kept as published but not resolved"
    )
    model_base: str = pa.Field(
        nullable=True,
        description="The model's identity across pages and official results: "
        "family and size, without version, fine-tune, precision or framework ('ResNet-50' "
        "for 'ResNet-50 v1.5' and 'resnet50-torch-fp32', 'Llama 2 70B' for "
        "'llama2-70b-99'); NULL when no catalogue knows the model",
    )
    model_variant: str = pa.Field(
        nullable=True,
        description="What the model's name adds to its identity: version, "
        "fine-tune, optimizer ('v1.5', 'Instruct', 'LARS')",
    )
    dataset_canonical: str = pa.Field(
        nullable=True,
        description="The dataset, canonical ('ImageNet' for 'Imagenet' and "
        "'ImageNet2012'); an MLPerf result's is its benchmark's",
    )

    class Config(BaseConfig):
        strict = True

    @pa.dataframe_check
    def value_is_finite(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(VALUE_IS_FINITE)

    @pa.dataframe_check
    def rates_and_durations_are_positive(cls, data) -> pl.LazyFrame:
        return data.lazyframe.select(RATES_AND_DURATIONS_ARE_POSITIVE)
