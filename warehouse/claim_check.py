"""Comparative claims set beside the warehouse's measurements: one verdict for
`perfledger claims --check` and the report alike."""

from __future__ import annotations

from pathlib import Path

from perfledger.warehouse import query

# A measured ratio within 10% below the claimed one still supports the claim.
CLAIM_TOLERANCE = 0.10


def claim_check_parameters(source: str | None = None) -> dict:
    """The values warehouse/queries/claim_check.sql is run with."""
    return {"tolerance": CLAIM_TOLERANCE, "source": source}


def checked_claims(warehouse: Path, source: str | None = None) -> tuple[list[str], list[tuple]]:
    return query.run_query(warehouse, "claim_check", claim_check_parameters(source))


def listed_claims(warehouse: Path, source: str | None = None) -> tuple[list[str], list[tuple]]:
    return query.run_query(warehouse, "claims_list", {"source": source})
