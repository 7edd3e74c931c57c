"""Typed contract of comparative performance claims, with the vocabularies that bound it.

The pandera models, ClaimSchema and RejectedClaimSchema, live in `schemas.claim_schema` and
are imported only when a frame fails the quick rules below (pandera brings pandas and numpy,
which a document reader otherwise never loads); `schemas.claims` still names them."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from types import MappingProxyType

import polars as pl

from perfledger.schemas.column_types import ColumnTypes
from perfledger.schemas.on_demand import models_on_demand

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
        "parity",
    }
)
DIRECTIONS = frozenset({"better", "worse"})
# system: another system; prior_result: an earlier result of the subject ("the previous round");
# counterpart: the subject without the change a claim is about ("This improved ..." compares
# the system with mimalloc and without it), named "without mimalloc".
BASELINE_KINDS = frozenset({"system", "prior_result", "counterpart"})
NAMED_BASELINE_KINDS = ("system", "counterpart")
MAX_RATIO = 10_000.0  # beyond this a "ratio" is a misread number, not a benchmark claim
# A subject, baseline or model kept as published is a name, not a paragraph.
MAX_PARTY_CHARS = 120


@cache
def load_claim_vocab() -> MappingProxyType:
    """Read the claim vocabularies once; callers must not mutate the result."""
    with VOCAB_PATH.open("rb") as handle:
        return MappingProxyType(tomllib.load(handle))


def known_metrics() -> list[str]:
    """The metrics a claim row may carry (one that `reports` another never does)."""
    return sorted(
        name for name, entry in load_claim_vocab()["metrics"].items() if "reports" not in entry
    )


def known_systems() -> list[str]:
    return sorted(load_claim_vocab()["systems"])


def known_models() -> list[str]:
    return sorted(load_claim_vocab()["models"])


def known_tasks() -> list[str]:
    return sorted(load_claim_vocab()["tasks"])


# Column order and dtypes of the claims frame; `extract_claims` builds exactly this.
CLAIM_COLUMNS: ColumnTypes = {
    "claim_index": pl.Int32,  # 0-based order of the claim in the document
    "line_number": pl.Int32,  # line of the paragraph holding the sentence
    "char_start": pl.Int32,  # span of claim_text inside sentence (code points)
    "char_end": pl.Int32,
    "sentence": pl.String,  # verbatim sentence
    "claim_text": pl.String,  # verbatim words matched, == sentence[char_start:char_end]
    "subject": pl.String,  # system the claim is about: canonical, else as published (nullable)
    "subject_text": pl.String,  # the words that named it (nullable)
    "baseline": pl.String,  # system compared against: canonical, else as published (nullable)
    "baseline_text": pl.String,  # the words that named it, or the prior result (nullable)
    "baseline_kind": pl.String,  # "system" | "prior_result" (nullable)
    "baseline_count": pl.Int32,  # "8x A100 GPUs" -> 8 (nullable)
    "model": pl.String,  # model / workload: canonical, else as published (nullable)
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
    "unresolved": pl.String,  # parties kept as published: "system=vLLM 0.15.0; model=..."
}

REJECTED_COLUMNS: ColumnTypes = {
    "line_number": pl.Int32,
    "sentence": pl.String,
    "check": pl.String,  # short machine name, e.g. "negated"
    "reason": pl.String,  # a sentence a reviewer can act on
}

# The columns ClaimSchema lets hold nulls (RejectedClaimSchema lets none), stated without
# pandera so the quick rules need none; tests/schemas/test_plain_statements.py holds them
# equal to the models.
NULLABLE_CLAIM_COLUMNS = frozenset(
    {
        "subject",
        "subject_text",
        "baseline",
        "baseline_text",
        "baseline_kind",
        "baseline_count",
        "model",
        "task",
        "ratio",
        "ratio_text",
        "ratio_kind",
        "qualifier",
        "conditions",
        "unresolved",
    }
)
NULLABLE_REJECTED_COLUMNS: frozenset[str] = frozenset()


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
    return (
        pl.col("baseline").is_not_null() == kind.is_in(NAMED_BASELINE_KINDS).fill_null(False)
    ) & (pl.col("baseline_count").is_null() | pl.col("baseline").is_not_null())


def subject_differs_from_baseline() -> pl.Expr:
    return (pl.col("subject") != pl.col("baseline")).fill_null(True)


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


def party_length(name: str) -> pl.Expr:
    return pl.col(name).str.len_chars().is_between(1, MAX_PARTY_CHARS)


@cache
def claim_rules() -> tuple[pl.Expr, ...]:
    """ClaimSchema, column by column in its order, then its row rules."""
    col = pl.col
    required = [name for name in CLAIM_COLUMNS if name not in NULLABLE_CLAIM_COLUMNS]
    return (
        *(col(name).is_not_null() for name in required),
        col("claim_index") >= 0,
        col("claim_index").is_unique(),
        col("line_number") >= 0,
        col("char_start") >= 0,
        col("char_end") >= 1,
        col("sentence").str.len_chars() >= 1,
        col("claim_text").str.len_chars() >= 1,
        optional("subject", party_length("subject")),
        optional("baseline", party_length("baseline")),
        optional("baseline_kind", col("baseline_kind").is_in(sorted(BASELINE_KINDS))),
        optional("baseline_count", col("baseline_count") >= 1),
        optional("model", party_length("model")),
        optional("task", col("task").is_in(known_tasks())),
        col("metric").is_in(known_metrics()),
        col("direction").is_in(sorted(DIRECTIONS)),
        optional("ratio", finite_between("ratio", 0.0, MAX_RATIO, low_inclusive=False)),
        optional("ratio_kind", col("ratio_kind").is_in(sorted(RATIO_KINDS))),
        finite_between("confidence", 0.0, 1.0, low_inclusive=True),
        col("method").str.starts_with("rule:"),
        optional("unresolved", col("unresolved").str.len_chars() >= 1),
        claim_text_is_the_span(),
        qualitative_iff_no_ratio(),
        direction_agrees_with_ratio(),
        baseline_kind_matches_baseline(),
        subject_differs_from_baseline(),
    )


@cache
def rejected_rules() -> tuple[pl.Expr, ...]:
    col = pl.col
    return (
        *(
            col(name).is_not_null()
            for name in REJECTED_COLUMNS
            if name not in NULLABLE_REJECTED_COLUMNS
        ),
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


def passes(frame: pl.DataFrame, columns: ColumnTypes, checks: tuple[pl.Expr, ...]) -> bool:
    """True only if the frame has exactly these columns, in order, and every check holds."""
    if list(frame.schema.items()) != list(columns.items()):
        return False
    try:
        return all(frame.select(checks).row(0))
    except pl.exceptions.PolarsError:  # e.g. a negative span length: the schema will say why
        return False


def rejected_rows_hold(rows: list[dict]) -> bool:
    """`rejected_rules`, stated in Python for the rows a rejected frame is built from: a page
    sets aside a sentence or two, and a query costs more than checking them (~0.3 ms a page).
    True only where the rules hold; the frame of rows that fail is validated as any other."""
    return all(
        _is_int32(row["line_number"], 0)
        and _is_text(row["sentence"])
        and _is_text(row["check"])
        and _is_text(row["reason"])
        and len(row["reason"]) >= 1
        for row in rows
    )


def claim_rows_hold(rows: list[dict]) -> bool:
    """`claim_rules`, stated in Python for the rows a claims frame is built from: a page
    makes a claim or a few, and the query costs more than checking them (~1 ms a page).
    True only where the rules hold; the frame of rows that fail is validated as any other."""
    indexes = [row["claim_index"] for row in rows]
    if len(set(indexes)) != len(indexes):
        return False
    tasks, metrics = _claim_words()
    return all(_claim_row_holds(row, tasks, metrics) for row in rows)


@cache
def _claim_words() -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(known_tasks()), frozenset(known_metrics())


_INT32_MAX = 2**31 - 1


def _is_int32(value: object, least: int) -> bool:
    return type(value) is int and least <= value <= _INT32_MAX


def _is_number(value: object) -> bool:
    return type(value) is float or type(value) is int


def _is_text(value: object) -> bool:
    return type(value) is str


def _optional_text(value: object) -> bool:
    return value is None or type(value) is str


def _is_party(value: object) -> bool:
    return value is None or (type(value) is str and 1 <= len(value) <= MAX_PARTY_CHARS)


_OPTIONAL_TEXTS = ("subject_text", "baseline_text", "ratio_text", "qualifier", "conditions")


def _claim_row_holds(row: dict, tasks: frozenset[str], metrics: frozenset[str]) -> bool:
    sentence, claim_text = row["sentence"], row["claim_text"]
    start, end = row["char_start"], row["char_end"]
    ratio, kind, count = row["ratio"], row["baseline_kind"], row["baseline_count"]
    baseline, direction = row["baseline"], row["direction"]
    confidence, unresolved = row["confidence"], row["unresolved"]
    return (
        _is_int32(row["claim_index"], 0)
        and _is_int32(row["line_number"], 0)
        and _is_int32(start, 0)
        and _is_int32(end, 1)
        and _is_text(sentence)
        and len(sentence) >= 1
        and _is_text(claim_text)
        and len(claim_text) >= 1
        and all(_optional_text(row[name]) for name in _OPTIONAL_TEXTS)
        and _is_party(row["subject"])
        and _is_party(baseline)
        and _is_party(row["model"])
        and (kind is None or (_is_text(kind) and kind in BASELINE_KINDS))
        and (count is None or _is_int32(count, 1))
        and (row["task"] is None or (_is_text(row["task"]) and row["task"] in tasks))
        and _is_text(row["metric"])
        and row["metric"] in metrics
        and _is_text(direction)
        and direction in DIRECTIONS
        and (ratio is None or (_is_number(ratio) and 0.0 < ratio <= MAX_RATIO))
        and (
            row["ratio_kind"] is None
            or (_is_text(row["ratio_kind"]) and row["ratio_kind"] in RATIO_KINDS)
        )
        and _is_number(confidence)
        and 0.0 <= confidence <= 1.0
        and _is_text(row["method"])
        and row["method"].startswith("rule:")
        and (unresolved is None or (_is_text(unresolved) and len(unresolved) >= 1))
        and type(row["is_qualitative"]) is bool
        # the row rules: claim_text_is_the_span, qualitative_iff_no_ratio,
        # direction_agrees_with_ratio, baseline_kind_matches_baseline,
        # subject_differs_from_baseline
        and start < end <= len(sentence)
        and sentence[start:end] == claim_text
        and row["is_qualitative"] == (ratio is None)
        and (ratio is None) == (row["ratio_kind"] is None) == (row["ratio_text"] is None)
        and (ratio is None or (ratio >= 1.0) == (direction == "better"))
        and (baseline is not None) == (kind in NAMED_BASELINE_KINDS)
        and (count is None or baseline is not None)
        and (row["subject"] is None or baseline is None or row["subject"] != baseline)
    )


def validate_claims(frame: pl.DataFrame) -> pl.DataFrame:
    """ClaimSchema.validate at the cost of one query when the frame is sound."""
    if passes(frame, CLAIM_COLUMNS, claim_checks()):
        return frame
    from perfledger.schemas.claim_schema import ClaimSchema  # pandera: only for a doubtful frame

    return ClaimSchema.validate(frame)


def validate_rejected(frame: pl.DataFrame) -> pl.DataFrame:
    if passes(frame, REJECTED_COLUMNS, rejected_checks()):
        return frame
    from perfledger.schemas.claim_schema import RejectedClaimSchema

    return RejectedClaimSchema.validate(frame)


__getattr__ = models_on_demand(__name__, ".claim_schema", ["ClaimSchema", "RejectedClaimSchema"])
