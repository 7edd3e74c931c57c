"""Reviewer decisions on extracted claims: a small TOML file applied by every run."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import duckdb
import polars as pl

from perfledger.warehouse import sql
from perfledger.warehouse.single_row import single_value

REVIEW_FILE = "claims-review.toml"
DECISIONS = ("accept", "reject", "correct")
CORRECTABLE = ("subject", "baseline", "model", "metric", "ratio", "qualifier")
_STATUS = {"accept": "accepted", "reject": "rejected", "correct": "corrected"}


class ReviewFileError(ValueError):
    """The review file cannot be applied; the message names the entry."""


def review_path(warehouse: Path) -> Path:
    return warehouse / REVIEW_FILE


def read_reviews(path: Path) -> pl.DataFrame:
    """claim_id, review_status, review_note, corrections (JSON) for each decision in the file."""
    schema = {
        "claim_id": pl.String,
        "review_status": pl.String,
        "review_note": pl.String,
        "corrections": pl.String,
    }
    if not path.exists():
        return pl.DataFrame(schema=schema)
    try:
        entries = tomllib.loads(path.read_text(encoding="utf-8")).get("review", [])
    except tomllib.TOMLDecodeError as error:
        raise ReviewFileError(f"{path}: {error}") from error
    rows = []
    for number, entry in enumerate(entries, start=1):
        decision = entry.get("decision")
        if "claim_id" not in entry or decision not in DECISIONS:
            raise ReviewFileError(
                f"{path}: review entry {number} needs a claim_id and a decision among "
                f"{', '.join(DECISIONS)}"
            )
        corrections = entry.get("set", {})
        unknown = sorted(set(corrections) - set(CORRECTABLE))
        if unknown:
            raise ReviewFileError(f"{path}: review entry {number} cannot set {unknown}")
        rows.append(
            {
                "claim_id": entry["claim_id"],
                "review_status": _STATUS[decision],
                "review_note": entry.get("note"),
                "corrections": json.dumps(corrections, sort_keys=True) if corrections else None,
            }
        )
    # The last decision on a claim wins, so a reviewer can change their mind by appending.
    return pl.DataFrame(rows, schema=schema).unique("claim_id", keep="last", maintain_order=True)


def append_review(
    path: Path, claim_id: str, decision: str, note: str | None, corrections: dict[str, object]
) -> None:
    if decision not in DECISIONS:
        raise ReviewFileError(f"decision must be one of {', '.join(DECISIONS)}")
    lines = [
        "",
        "[[review]]",
        f"claim_id = {json.dumps(claim_id)}",
        f"decision = {json.dumps(decision)}",
    ]
    if note:
        lines.append(f"note = {json.dumps(note)}")
    if corrections:
        lines.append("[review.set]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in sorted(corrections.items())]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def apply_reviews(connection: duckdb.DuckDBPyConnection, reviews: pl.DataFrame) -> int:
    """Set each reviewed claim's status, note and corrections; return how many rows changed."""
    if reviews.height == 0:
        return 0
    with sql.frame_view(connection, "_reviews", reviews):
        before = single_value(
            connection.execute(
                """SELECT count(*) FROM claim_rows c JOIN _reviews r USING (claim_id)
               WHERE c.review_status IS DISTINCT FROM r.review_status
                  OR c.review_note IS DISTINCT FROM r.review_note
                  OR c.corrections IS DISTINCT FROM r.corrections"""
            )
        )
        if before:
            connection.execute(
                """UPDATE claim_rows SET review_status = r.review_status,
                       review_note = r.review_note, corrections = r.corrections
                   FROM _reviews r
                   WHERE claim_rows.claim_id = r.claim_id
                     AND (claim_rows.review_status IS DISTINCT FROM r.review_status
                          OR claim_rows.review_note IS DISTINCT FROM r.review_note
                          OR claim_rows.corrections IS DISTINCT FROM r.corrections)"""
            )
    return before
