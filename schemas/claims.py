"""Typed contract of comparative performance claims, with the vocabularies that bound it."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pandera.polars as pa
import polars as pl

VOCAB_PATH = Path(__file__).resolve().parent / "vocab" / "claim_words.toml"

RATIO_KINDS = frozenset(
    {
        "multiplier",
        "percent_faster",
        "percent_slower",
        "percent_more",
        "percent_less",
        "percent_improvement",
        "fraction",
    }
)
DIRECTIONS = frozenset({"better", "worse"})
BASELINE_KINDS = frozenset({"system", "prior_result"})
MAX_RATIO = 10_000.0  # beyond this a "ratio" is a misread number, not a benchmark claim


@cache
def load_claim_vocab() -> MappingProxyType:
    """Read the claim vocabularies once; callers must not mutate the result."""
    with VOCAB_PATH.open("rb") as handle:
        return MappingProxyType(tomllib.load(handle))


def known_metrics() -> list[str]:
    return sorted(load_claim_vocab()["metrics"])


def known_systems() -> list[str]:
    return sorted(load_claim_vocab()["systems"])


def known_models() -> list[str]:
    return sorted(load_claim_vocab()["models"])


def known_tasks() -> list[str]:
    return sorted(load_claim_vocab()["tasks"])


# Column order and dtypes of the claims frame; `extract_claims` builds exactly this.
CLAIM_COLUMNS: dict[str, pl.DataType] = {
    "claim_index": pl.Int32,  # 0-based order of the claim in the document
    "line_number": pl.Int32,  # line of the paragraph holding the sentence
    "char_start": pl.Int32,  # span of claim_text inside sentence (code points)
    "char_end": pl.Int32,
    "sentence": pl.String,  # verbatim sentence
    "claim_text": pl.String,  # verbatim words matched, == sentence[char_start:char_end]
    "subject": pl.String,  # canonical system the claim is about (nullable)
    "subject_text": pl.String,  # the words that named it (nullable)
    "baseline": pl.String,  # canonical system compared against (nullable)
    "baseline_text": pl.String,  # the words that named it, or the prior result (nullable)
    "baseline_kind": pl.String,  # "system" | "prior_result" (nullable)
    "baseline_count": pl.Int32,  # "8x A100 GPUs" -> 8 (nullable)
    "model": pl.String,  # canonical model / workload (nullable)
    "task": pl.String,  # "training" | "inference" (nullable)
    "metric": pl.String,
    "direction": pl.String,  # "better" | "worse" for the subject
    "ratio": pl.Float64,  # multiplier in the subject's better direction (null = qualitative)
    "ratio_text": pl.String,  # verbatim number and direction words (nullable)
    "ratio_kind": pl.String,
    "qualifier": pl.String,  # canonical qualifiers joined by "; " (nullable)
    "conditions": pl.String,  # "framework=PyTorch,TensorFlow; precision=FP16" (nullable)
    "is_qualitative": pl.Boolean,
    "confidence": pl.Float64,
    "method": pl.String,  # "rule:<form>[-<marker>][+<fallback>...]"
}

REJECTED_COLUMNS: dict[str, pl.DataType] = {
    "line_number": pl.Int32,
    "sentence": pl.String,
    "check": pl.String,  # short machine name, e.g. "negated"
    "reason": pl.String,  # a sentence a reviewer can act on
}


# Row rules of ClaimSchema that span columns; the schema checks them, and so do the quick rules.


def claim_text_is_the_span() -> pl.Expr:
    span = pl.col("sentence").str.slice(
        pl.col("char_start"), pl.col("char_end") - pl.col("char_start")
    )
    return (
        (pl.col("char_end") > pl.col("char_start"))
        & (pl.col("char_end") <= pl.col("sentence").str.len_chars())
        & (span == pl.col("claim_text"))
    )


def qualitative_iff_no_ratio() -> pl.Expr:
    return (
        (pl.col("is_qualitative") == pl.col("ratio").is_null())
        & (pl.col("ratio").is_null() == pl.col("ratio_kind").is_null())
        & (pl.col("ratio").is_null() == pl.col("ratio_text").is_null())
    )


def direction_agrees_with_ratio() -> pl.Expr:
    return pl.col("ratio").is_null() | (
        (pl.col("ratio") >= 1.0) == (pl.col("direction") == "better")
    )


def baseline_kind_matches_baseline() -> pl.Expr:
    kind = pl.col("baseline_kind")
    return (pl.col("baseline").is_not_null() == (kind == "system").fill_null(False)) & (
        pl.col("baseline_count").is_null() | pl.col("baseline").is_not_null()
    )


def subject_differs_from_baseline() -> pl.Expr:
    return (pl.col("subject") != pl.col("baseline")).fill_null(True)


class ClaimSchema(pa.DataFrameModel):
    """One row per comparative claim found in a page's prose."""

    claim_index: pl.Int32 = pa.Field(ge=0, unique=True, description="0-based order of the claim in the document")
    line_number: pl.Int32 = pa.Field(ge=0, description="Line of the paragraph holding the sentence")
    char_start: pl.Int32 = pa.Field(ge=0, description="Start of the claim's words inside the sentence (characters)")
    char_end: pl.Int32 = pa.Field(ge=1, description="End of the claim's words inside the sentence (characters)")
    sentence: pl.String = pa.Field(str_length={"min_value": 1}, description="The sentence, verbatim")
    claim_text: pl.String = pa.Field(str_length={"min_value": 1}, description="The words the claim was read from, verbatim")
    subject: pl.String = pa.Field(nullable=True, isin=known_systems(), description="Canonical system the claim is about")
    subject_text: pl.String = pa.Field(nullable=True, description="The words that named the subject")
    baseline: pl.String = pa.Field(nullable=True, isin=known_systems(), description="Canonical system the subject is compared against")
    baseline_text: pl.String = pa.Field(nullable=True, description="The words that named the baseline, or the prior result")
    baseline_kind: pl.String = pa.Field(nullable=True, isin=sorted(BASELINE_KINDS), description="system, or prior_result for a comparison with an earlier round")
    baseline_count: pl.Int32 = pa.Field(nullable=True, ge=1, description="How many baseline systems, as in '8x A100 GPUs'")
    model: pl.String = pa.Field(nullable=True, isin=known_models(), description="Canonical model or workload")
    task: pl.String = pa.Field(nullable=True, isin=known_tasks(), description="training or inference")
    metric: pl.String = pa.Field(isin=known_metrics(), description="What is compared: throughput, latency, time_to_train, price, ...")
    direction: pl.String = pa.Field(isin=sorted(DIRECTIONS), description="better or worse, for the subject")
    ratio: pl.Float64 = pa.Field(nullable=True, gt=0, le=MAX_RATIO, description="How many times better the subject is (null for a qualitative claim)")
    ratio_text: pl.String = pa.Field(nullable=True, description="The number and direction words, verbatim")
    ratio_kind: pl.String = pa.Field(nullable=True, isin=sorted(RATIO_KINDS), description="How ratio was read: multiplier, percent_faster, fraction, ...")
    qualifier: pl.String = pa.Field(nullable=True, description="Hedges such as 'up to', 'more than', 'at lowest latency'")
    conditions: pl.String = pa.Field(nullable=True, description="Framework, precision or batch conditions the sentence states")
    is_qualitative: pl.Boolean = pa.Field(description="True when the claim states no number")
    confidence: pl.Float64 = pa.Field(in_range={"min_value": 0.0, "max_value": 1.0}, description="How sure the extraction is, from 0 to 1")
    method: pl.String = pa.Field(str_startswith="rule:", description="The rule that read the claim, and any fallback used")

    class Config:
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

    class Config:
        strict = True
        ordered = True


# --- quick validation ------------------------------------------------------------------------
# pandera runs every check of a schema as its own query: ~50 ms for a page's handful of claims.
# The rules below state each check of ClaimSchema / RejectedClaimSchema as one polars
# expression, each at least as strict as the schema's (a null result counts as a failure), so
# a frame that passes them all in one query passes the schema too. A frame that does not is
# handed to pandera, which raises its usual error (or passes it, where a rule is stricter).


def optional(name: str, rule: pl.Expr) -> pl.Expr:
    return pl.col(name).is_null() | rule


def finite_between(name: str, low: float, high: float, low_inclusive: bool) -> pl.Expr:
    column = pl.col(name)
    above = column >= low if low_inclusive else column > low
    return column.is_not_nan() & above & (column <= high)


@cache
def claim_rules() -> tuple[pl.Expr, ...]:
    """ClaimSchema, column by column in its order, then its row rules."""
    col = pl.col
    columns = ClaimSchema.to_schema().columns
    required = [name for name in CLAIM_COLUMNS if not columns[name].nullable]
    return (
        *(col(name).is_not_null() for name in required),
        col("claim_index") >= 0,
        col("claim_index").is_unique(),
        col("line_number") >= 0,
        col("char_start") >= 0,
        col("char_end") >= 1,
        col("sentence").str.len_chars() >= 1,
        col("claim_text").str.len_chars() >= 1,
        optional("subject", col("subject").is_in(known_systems())),
        optional("baseline", col("baseline").is_in(known_systems())),
        optional("baseline_kind", col("baseline_kind").is_in(sorted(BASELINE_KINDS))),
        optional("baseline_count", col("baseline_count") >= 1),
        optional("model", col("model").is_in(known_models())),
        optional("task", col("task").is_in(known_tasks())),
        col("metric").is_in(known_metrics()),
        col("direction").is_in(sorted(DIRECTIONS)),
        optional("ratio", finite_between("ratio", 0.0, MAX_RATIO, low_inclusive=False)),
        optional("ratio_kind", col("ratio_kind").is_in(sorted(RATIO_KINDS))),
        finite_between("confidence", 0.0, 1.0, low_inclusive=True),
        col("method").str.starts_with("rule:"),
        claim_text_is_the_span(),
        qualitative_iff_no_ratio(),
        direction_agrees_with_ratio(),
        baseline_kind_matches_baseline(),
        subject_differs_from_baseline(),
    )


@cache
def rejected_rules() -> tuple[pl.Expr, ...]:
    col = pl.col
    columns = RejectedClaimSchema.to_schema().columns
    return (
        *(col(name).is_not_null() for name in REJECTED_COLUMNS if not columns[name].nullable),
        col("line_number") >= 0,
        col("reason").str.len_chars() >= 1,
    )


@cache
def claim_checks() -> tuple[pl.Expr, ...]:
    return every_row_holds(claim_rules())


@cache
def rejected_checks() -> tuple[pl.Expr, ...]:
    return every_row_holds(rejected_rules())


def every_row_holds(rules: tuple[pl.Expr, ...]) -> tuple[pl.Expr, ...]:
    # one aggregate per rule: a single query, cheaper than one row-wise conjunction
    return tuple(rule.fill_null(False).all().alias(f"rule_{i}") for i, rule in enumerate(rules))


def passes(
    frame: pl.DataFrame, columns: dict[str, pl.DataType], checks: tuple[pl.Expr, ...]
) -> bool:
    """True only if the frame has exactly these columns, in order, and every check holds."""
    if list(frame.schema.items()) != list(columns.items()):
        return False
    try:
        return all(frame.select(checks).row(0))
    except pl.exceptions.PolarsError:  # e.g. a negative span length: the schema will say why
        return False


def validate_claims(frame: pl.DataFrame) -> pl.DataFrame:
    """ClaimSchema.validate at the cost of one query when the frame is sound."""
    return frame if passes(frame, CLAIM_COLUMNS, claim_checks()) else ClaimSchema.validate(frame)


def validate_rejected(frame: pl.DataFrame) -> pl.DataFrame:
    if passes(frame, REJECTED_COLUMNS, rejected_checks()):
        return frame
    return RejectedClaimSchema.validate(frame)
