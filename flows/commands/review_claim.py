"""`perfledger review-claim`: accept, reject or correct an extracted claim by its id."""

from __future__ import annotations

import json

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import shared_settings
from perfledger.warehouse.lake import WarehouseError
from perfledger.warehouse.reviews import CORRECTABLE, ReviewFileError, append_review, review_path


def _parse_assignment(text: str) -> tuple[str, object]:
    key, separator, value = text.partition("=")
    if not separator or key not in CORRECTABLE:
        raise click.BadParameter(f"use FIELD=VALUE with FIELD among {', '.join(CORRECTABLE)}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


@click.command("review-claim")
@click.argument("claim_id")
@click.argument("decision", type=click.Choice(["accept", "reject", "correct"]))
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="FIELD=VALUE",
    help="A corrected field, e.g. ratio=1.31 or baseline='DGX A100' (with correct).",
)
@click.option("--note", default=None, help="Why; kept with the claim.")
@warehouse_option
def review_claim(claim_id, decision, assignments, note, warehouse):
    """Record a decision in the warehouse's claims-review.toml; the next run applies it."""
    corrections = dict(_parse_assignment(text) for text in assignments)
    if corrections and decision != "correct":
        fail("--set goes with the decision 'correct'")
    folder = resolve_warehouse(warehouse)
    path = review_path(folder)
    try:
        with shared_settings.editing(folder):
            append_review(path, claim_id, decision, note, corrections)
    except (ReviewFileError, WarehouseError, ObjectStoreError) as error:
        fail(str(error))
    click.echo(f"recorded in {path}; applied by the next `perfledger ingest` or `reprocess`")


COMMAND = review_claim
