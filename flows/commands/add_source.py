"""`perfledger add-source URL`: register a page to read again and again."""

from __future__ import annotations

import re

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.sources.collect import url_host
from perfledger.sources.object_store import ObjectStoreError
from perfledger.sources.registry import USER_REGISTRY, RegistryError, Source, add_source
from perfledger.warehouse import shared_settings
from perfledger.warehouse.lake import WarehouseError


def _default_name(url: str) -> str:
    text = re.sub(r"^https?://(www\.)?", "", url.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:60] or "source"


@click.command("add-source")
@click.argument("url")
@click.option("--name", default=None, help="Registry name (default: from the URL).")
@click.option("--publisher", default="", help="Who publishes the page.")
@click.option(
    "--layout", default="auto", show_default=True, help="Page layout module, or auto to sniff it."
)
@click.option("--schedule", default="daily", show_default=True, help="How often to read it.")
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    help="Host redirects may lead to (default: the URL's host).",
)
@click.option(
    "--local", is_flag=True, help="Allow loopback and private addresses (a server on this network)."
)
@warehouse_option
def add_source_command(url, name, publisher, layout, schedule, allowed_hosts, local, warehouse):
    """Append a source to the registry kept beside the warehouse."""
    if not url.startswith(("http://", "https://")):
        fail(f"'{url}' is not an http(s) URL")
    host = url_host(url)
    source = Source(
        name=name or _default_name(url),
        url=url,
        publisher=publisher,
        layout=layout,
        schedule=schedule,
        allowed_hosts=tuple(allowed_hosts) or (host,),
        local=local,
    )
    folder = resolve_warehouse(warehouse)
    path = folder / USER_REGISTRY
    try:
        with shared_settings.editing(folder):
            add_source(path, source)
    except (RegistryError, WarehouseError, ObjectStoreError) as error:
        fail(str(error))
    click.echo(
        f"added source '{source.name}' to {path}; "
        f"read it with: perfledger ingest --source {source.name}"
    )


COMMAND = add_source_command
