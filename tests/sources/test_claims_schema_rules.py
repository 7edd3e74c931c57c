"""The quick claim-frame rules may only pass frames that the pandera schemas pass too."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest

from perfledger.schemas.claims import (
    CLAIM_COLUMNS,
    MAX_RATIO,
    REJECTED_COLUMNS,
    ClaimSchema,
    RejectedClaimSchema,
    claim_checks,
    claim_rows_hold,
    passes,
    rejected_checks,
    rejected_rows_hold,
)
from perfledger.sources.claims.extract import extract_claims

CORPUS = Path(__file__).resolve().parents[2] / "sources" / "corpus"
STRINGS = [
    "",
    "x",
    "rule:",
    "rule:x",
    "A100",
    "IPU-M2000",
    "system",
    "prior_result",
    "better",
    "worse",
    "throughput",
    "latency",
    "training",
    "multiplier",
    "fraction",
    "ResNet-50",
    "IPU-M2000 is 3x faster than A100",
    "3x faster",
]
INTEGERS = [-1, 0, 1, 2, 10**6]
FLOATS = [-1.0, 0.0, 0.3, 0.5, 1.0, 1.5, math.nan, math.inf, MAX_RATIO, MAX_RATIO * 2]
VALUES = {pl.String: STRINGS, pl.Int32: INTEGERS, pl.Float64: FLOATS, pl.Boolean: [True, False]}


def corpus_result():
    prose = []
    for path in sorted(CORPUS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        prose += [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    return extract_claims(prose)


@pytest.fixture(scope="module")
def result():
    found = corpus_result()
    assert found.claims.height > 10 and found.rejected.height > 0
    return found


def variants(frame: pl.DataFrame, columns: dict) -> list[pl.DataFrame]:
    """Each column set, on one row, to null and to values of its type; then shape changes."""
    out = []
    for row in representative_rows(frame):
        at_row = pl.int_range(pl.len()) == row
        for name, dtype in columns.items():
            for value in [None, *VALUES[dtype]]:
                replaced = pl.when(at_row).then(pl.lit(value, dtype)).otherwise(pl.col(name))
                out.append(frame.with_columns(replaced.alias(name)))
    first = next(iter(columns))
    if "claim_index" in columns:  # the row rules that tie columns together
        col = pl.col
        out += [
            frame.with_columns(col(changed).alias(name))
            for name, changed in [
                ("subject", "baseline"),
                ("baseline", "subject"),
                ("char_end", "char_start"),
                ("char_start", "char_end"),
                ("claim_text", "sentence"),
                ("ratio_text", "claim_text"),
                ("baseline_text", "subject_text"),
            ]
        ]
        out += [
            frame.with_columns(~col("is_qualitative")),
            frame.with_columns(
                pl.when(col("direction") == "better")
                .then(pl.lit("worse"))
                .otherwise(pl.lit("better"))
                .alias("direction")
            ),
            frame.with_columns(pl.lit(None, pl.String).alias("baseline_kind")),
            frame.with_columns(pl.lit(None, pl.String).alias("baseline")),
            frame.with_columns(pl.lit(None, pl.Float64).alias("ratio")),
            frame.with_columns(pl.lit(3, pl.Int32).alias("baseline_count")),
        ]
    out += [
        pl.concat([frame, frame]),
        frame.select(reversed(list(columns))),
        frame.with_columns(pl.col(first).cast(pl.Int64)),
        frame.with_columns(pl.lit(1).alias("extra")),
        frame.drop(first),
    ]
    return out


def representative_rows(frame: pl.DataFrame) -> list[int]:
    """The first row of each kind of claim (numeric or not, baseline system or prior result)."""
    kinds = [c for c in ("is_qualitative", "baseline_kind", "check") if c in frame.columns]
    firsts = frame.with_row_index("row").group_by(kinds, maintain_order=True).first()
    return firsts["row"].to_list()[:4]


def schema_passes(schema, frame: pl.DataFrame) -> bool:
    try:
        schema.validate(frame)
    except Exception:
        return False
    return True


def test_sound_frames_pass_the_quick_rules(result) -> None:
    assert passes(result.claims, CLAIM_COLUMNS, claim_checks())
    assert passes(result.rejected, REJECTED_COLUMNS, rejected_checks())


def assert_schema_passes_all(schema, base: pl.DataFrame, frames: list[pl.DataFrame]) -> None:
    """Every frame passes the schema. Its checks read rows one by one, but for claim_index's
    uniqueness, so frames that keep the base's claim indexes are checked stacked (indexes
    renumbered); the others, or all of them if the stack fails, one by one."""

    def keeps_index(frame: pl.DataFrame) -> bool:
        return "claim_index" not in frame.columns or frame["claim_index"].equals(
            base["claim_index"]
        )

    stackable = [f for f in frames if f.schema == base.schema and keeps_index(f)]
    alone = [f for f in frames if not (f.schema == base.schema and keeps_index(f))]
    if stackable:
        stacked = pl.concat(stackable)
        if "claim_index" in stacked.columns:
            renumber = pl.int_range(pl.len(), dtype=pl.Int32).alias("claim_index")
            stacked = stacked.with_columns(renumber)
        if not schema_passes(schema, stacked):
            alone = frames
    for frame in alone:
        assert schema_passes(schema, frame), frame.to_dicts()


def quick_passes(frames: list[pl.DataFrame], columns: dict, rules) -> list[pl.DataFrame]:
    return [frame for frame in frames if passes(frame, columns, rules)]


def test_quick_claim_rules_pass_nothing_the_schema_refuses(result) -> None:
    frames = quick_passes(variants(result.claims, CLAIM_COLUMNS), CLAIM_COLUMNS, claim_checks())
    assert_schema_passes_all(ClaimSchema, result.claims, frames)


def test_quick_rejected_rules_pass_nothing_the_schema_refuses(result) -> None:
    frames = variants(result.rejected, REJECTED_COLUMNS)
    passing = quick_passes(frames, REJECTED_COLUMNS, rejected_checks())
    assert_schema_passes_all(RejectedClaimSchema, result.rejected, passing)


@pytest.mark.parametrize(
    ("kind", "columns", "checks", "plain_rules"),
    [
        ("rejected", REJECTED_COLUMNS, rejected_checks, rejected_rows_hold),
        ("claims", CLAIM_COLUMNS, claim_checks, claim_rows_hold),
    ],
)
def test_the_plain_rules_pass_what_the_quick_rules_pass(
    result, kind, columns, checks, plain_rules
) -> None:
    built = getattr(result, kind)
    frames = [frame for frame in variants(built, columns) if frame.schema == built.schema]
    verdicts = [passes(frame, columns, checks()) for frame in frames]
    assert True in verdicts and False in verdicts
    assert [plain_rules(frame.to_dicts()) for frame in frames] == verdicts
