"""Options and helpers shared by every `perfledger` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from flows.output import FORMATS
from warehouse import lake

WAREHOUSE_HELP = "Warehouse folder (default: $PERFLEDGER_WAREHOUSE or ~/.local/share/perfledger/warehouse)."
EXAMPLE_QUERY = (
    "SELECT model, platform, sdk_version, framework, value, unit FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput'"
)


def warehouse_option(function):
    return click.option(
        "--warehouse",
        "warehouse",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="PERFLEDGER_WAREHOUSE",
        default=None,
        help=WAREHOUSE_HELP,
    )(function)


def format_option(function):
    return click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
        help="Output format.",
    )(function)


def resolve_warehouse(path: Path | None) -> Path:
    return path if path is not None else lake.default_warehouse_dir()


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


