"""`perfledger map-label`: teach perfledger what a label it could not resolve means."""

from __future__ import annotations

import json

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.schemas.label_mappings import FIELDS, MappingFileError, append_mapping, mapping_path
from perfledger.sources.object_store import ObjectStoreError
from perfledger.warehouse import shared_settings
from perfledger.warehouse.lake import WarehouseError


def _assignment(kind: str, text: str) -> tuple[str, object]:
    name, separator, value = text.partition("=")
    if not separator or name not in FIELDS[kind]:
        raise click.BadParameter(
            f"use FIELD=VALUE with FIELD among {', '.join(FIELDS[kind])} for a {kind} label"
        )
    expected = FIELDS[kind][name]
    try:
        return name, expected(value) if expected is not str else value
    except ValueError as error:
        raise click.BadParameter(f"{name} must be a {expected.__name__}: {value!r}") from error


@click.command("map-label")
@click.argument("kind", type=click.Choice(sorted(FIELDS)))
@click.argument("text")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    required=True,
    metavar="FIELD=VALUE",
    help="What the label means, e.g. accelerator=CS-2 accelerator_count=16.",
)
@click.option("--note", default=None, help="Why; kept with the mapping.")
@warehouse_option
def map_label(kind, text, assignments, note, warehouse):
    """Record what a label means (see `perfledger labels`); every later run and `perfledger
    reprocess` apply it to the archived pages, so the values come back without fetching."""
    fields = dict(_assignment(kind, assignment) for assignment in assignments)
    folder = resolve_warehouse(warehouse)
    path = mapping_path(folder)
    try:
        with shared_settings.editing(folder):
            append_mapping(path, kind, text, fields, note)
    except (MappingFileError, WarehouseError, ObjectStoreError) as error:
        fail(str(error))
    click.echo(
        f"recorded {kind} {json.dumps(text)} in {path}; run `perfledger reprocess` to "
        "apply it to the stored pages"
    )


COMMAND = map_label
