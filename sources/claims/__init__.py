"""Comparative performance claims extracted from page prose."""

from perfledger.sources.claims.extract import ClaimResult, extract_claims

__all__ = ["ClaimResult", "extract_claims"]
