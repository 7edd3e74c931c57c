"""The archive key of a collected document that the pipeline reads."""

from __future__ import annotations

from perfledger.sources.collect import CollectedDocument


def archived_sha256(document: CollectedDocument) -> str:
    """A collected document lacks a key only when it could not be read (its `error`) or the
    server answered 304 (`not_modified`); the pipeline finishes both before reading any."""
    sha256 = document.document_sha256
    assert sha256 is not None, f"{document.location} is read, but was never archived"
    return sha256
