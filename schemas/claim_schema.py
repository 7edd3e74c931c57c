"""The pandera models of the claim frames, which word a malformed frame's failures.

Imported only when a frame fails the quick rules of `schemas.claims` (and by the data
dictionary): pandera brings pandas and numpy, about 90 MB per process, which a document
reader never needs for sound claims."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl
from pandera.api.polars.model_config import BaseConfig

from perfledger.schemas.claims import (
    BASELINE_KINDS,
    DIRECTIONS,
    MAX_PARTY_CHARS,
    MAX_RATIO,
    RATIO_KINDS,
    baseline_kind_matches_baseline,
    claim_text_is_the_span,
    direction_agrees_with_ratio,
    known_metrics,
    known_tasks,
    qualitative_iff_no_ratio,
    subject_differs_from_baseline,
)

PARTY = {"min_value": 1, "max_value": MAX_PARTY_CHARS}


class ClaimSchema(pa.DataFrameModel):
    """One row per comparative claim found in a page's prose."""

    claim_index: pl.Int32 = pa.Field(
        ge=0, unique=True, description="0-based order of the claim in the document"
    )
    line_number: pl.Int32 = pa.Field(ge=0, description="Line of the paragraph holding the sentence")
    char_start: pl.Int32 = pa.Field(
        ge=0, description="Start of the claim's words inside the sentence (characters)"
    )
    char_end: pl.Int32 = pa.Field(
        ge=1, description="End of the claim's words inside the sentence (characters)"
    )
    sentence: pl.String = pa.Field(
        str_length={"min_value": 1}, description="The sentence, verbatim"
    )
    claim_text: pl.String = pa.Field(
        str_length={"min_value": 1}, description="The words the claim was read from, verbatim"
    )
    subject: pl.String = pa.Field(
        nullable=True,
        str_length=PARTY,
        description="System the claim is about: its canonical name, else the words that named it",
    )
    subject_text: pl.String = pa.Field(
        nullable=True, description="The words that named the subject"
    )
    baseline: pl.String = pa.Field(
        nullable=True,
        str_length=PARTY,
        description="System the subject is compared against: its canonical name, else the words that named it",
    )
    baseline_text: pl.String = pa.Field(
        nullable=True, description="The words that named the baseline, or the prior result"
    )
    baseline_kind: pl.String = pa.Field(
        nullable=True,
        isin=sorted(BASELINE_KINDS),
        description="system; prior_result for a comparison with an earlier round; counterpart for the subject without the change the claim is about",
    )
    baseline_count: pl.Int32 = pa.Field(
        nullable=True, ge=1, description="How many baseline systems, as in '8x A100 GPUs'"
    )
    model: pl.String = pa.Field(
        nullable=True,
        str_length=PARTY,
        description="Model or workload: its canonical name, else as published",
    )
    task: pl.String = pa.Field(
        nullable=True, isin=known_tasks(), description="training or inference"
    )
    metric: pl.String = pa.Field(
        isin=known_metrics(),
        description="What is compared: throughput, latency, time_to_train, price, ...",
    )
    direction: pl.String = pa.Field(
        isin=sorted(DIRECTIONS), description="better or worse, for the subject"
    )
    ratio: pl.Float64 = pa.Field(
        nullable=True,
        gt=0,
        le=MAX_RATIO,
        description="How many times better the subject is (null for a qualitative claim)",
    )
    ratio_text: pl.String = pa.Field(
        nullable=True, description="The number and direction words, verbatim"
    )
    ratio_kind: pl.String = pa.Field(
        nullable=True,
        isin=sorted(RATIO_KINDS),
        description="How ratio was read: multiplier, percent_faster, fraction, ...",
    )
    qualifier: pl.String = pa.Field(
        nullable=True, description="Hedges such as 'up to', 'more than', 'at lowest latency'"
    )
    conditions: pl.String = pa.Field(
        nullable=True, description="Framework, precision or batch conditions the sentence states"
    )
    is_qualitative: pl.Boolean = pa.Field(description="True when the claim states no number")
    confidence: pl.Float64 = pa.Field(
        in_range={"min_value": 0.0, "max_value": 1.0},
        description="How sure the extraction is, from 0 to 1",
    )
    method: pl.String = pa.Field(
        str_startswith="rule:", description="The rule that read the claim, and any fallback used"
    )
    unresolved: pl.String = pa.Field(
        nullable=True,
        str_length={"min_value": 1},
        description="Subject, baseline or model kept as published because no vocabulary knows it: 'system=vLLM 0.15.0; model=GPT-OSS 20B'",
    )

    class Config(BaseConfig):
        strict = True
        ordered = True

    @pa.dataframe_check
    def claim_text_is_the_span(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(claim_text_is_the_span())

    @pa.dataframe_check
    def qualitative_iff_no_ratio(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(qualitative_iff_no_ratio())

    @pa.dataframe_check
    def direction_agrees_with_ratio(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(direction_agrees_with_ratio())

    @pa.dataframe_check
    def baseline_kind_matches_baseline(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(baseline_kind_matches_baseline())

    @pa.dataframe_check
    def subject_differs_from_baseline(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(subject_differs_from_baseline())


class RejectedClaimSchema(pa.DataFrameModel):
    """Claim-like sentences that were not turned into rows, and why."""

    line_number: pl.Int32 = pa.Field(ge=0)
    sentence: pl.String
    check: pl.String
    reason: pl.String = pa.Field(str_length={"min_value": 1})

    class Config(BaseConfig):
        strict = True
        ordered = True
