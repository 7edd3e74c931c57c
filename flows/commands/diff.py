"""`perfledger diff`: the values added, changed and removed between two snapshots."""

from __future__ import annotations

from collections import Counter

import click

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import render
from perfledger.warehouse import lake, query
from perfledger.warehouse.cell_text import number_text

CHANGES = ("added", "changed", "removed")
TABLE_COLUMNS = ["change", "source", "model", "platform", "metric", "configuration", "old", "new"]


@click.command()
@click.argument("from_version", metavar="[FROM]", required=False, type=int)
@click.argument("to_version", metavar="[TO]", required=False, type=int)
@warehouse_option
@format_option
def diff(from_version, to_version, warehouse, fmt):
    """Values added, changed and removed between snapshots FROM and TO (ids from
    `perfledger snapshots`).

    Default TO: the last run that changed any value; default FROM: the ingest run before
    TO (so a later run that changed no value, e.g. new bytes with the same figures, does not
    hide the latest change). A table starts with the counts per source and metric, then one
    row per value with its model, platform, metric, configuration, and old and new value
    with its unit; --format csv or json gives every column of every row."""
    try:
        columns, rows, start, end = query.diff(
            resolve_warehouse(warehouse), from_version, to_version
        )
    except (lake.WarehouseError, ValueError) as error:
        fail(str(error))
    if fmt != "table":
        click.echo(render(columns, rows, fmt))
        return
    records = [dict(zip(columns, row, strict=True)) for row in rows]
    click.echo("\n".join(summary_lines(records, start, end)))
    if records:
        click.echo("")
        click.echo(
            render(TABLE_COLUMNS, [table_row(record) for record in records], fmt, max_width=0)
        )


def summary_lines(records: list[dict], start: int, end: int) -> list[str]:
    """The totals from snapshot `start` to `end`, then a line per source and metric."""
    if not records:
        return [f"no value changed from snapshot {start} to {end}"]
    lines = [
        f"changes from snapshot {start} to {end}: "
        + _counts_text(Counter(record["change"] for record in records))
    ]
    groups: dict[tuple[str, str], Counter] = {}
    for record in records:
        groups.setdefault((record["source_id"], record["metric"]), Counter())[record["change"]] += 1
    source_width = max(len(source) for source, _ in groups)
    metric_width = max(len(metric or "") for _, metric in groups)
    for (source, metric), counts in groups.items():
        lines.append(
            f"  {source:<{source_width}}  {metric or '':<{metric_width}}  " + _counts_text(counts)
        )
    return lines


def _counts_text(counts: Counter) -> str:
    return ", ".join(f"{counts[change]} {change}" for change in CHANGES)


def table_row(record: dict) -> tuple:
    old = quantity(record["old_value"], record["old_unit"], record["old_raw_value"])
    new = quantity(record["new_value"], record["new_unit"], record["new_raw_value"])
    if old == new and record["old_raw_value"] != record["new_raw_value"]:
        # The same number published otherwise ("44,059" for "44059"): show what was printed.
        old += f" (published {record['old_raw_value']!r})"
        new += f" (published {record['new_raw_value']!r})"
    return (
        record["change"],
        record["source_id"],
        record["model"],
        record["platform"],
        record["metric"],
        configuration(record),
        old,
        new,
    )


def quantity(value, unit: str | None, raw: str | None) -> str:
    """A value with its unit, every digit kept; '-' where the snapshot has no value."""
    if value is None:
        return "-" if raw is None else str(raw)
    text = number_text(value)
    return f"{text} {unit}" if unit else text


def configuration(record: dict) -> str:
    """What else tells the row apart: workload, variant, framework, dataset, batch size,
    precision, division and SDK (old -> new where a change moved it)."""
    parts = [record[name] for name in ("workload", "variant", "framework", "dataset")]
    parts.append(f"batch {record['batch_size']}" if record["batch_size"] else None)
    parts += [record["precision"], record["division"]]
    old_sdk, new_sdk = record["old_sdk_version"], record["new_sdk_version"]
    if old_sdk and new_sdk and old_sdk != new_sdk:
        parts.append(f"{old_sdk} -> {new_sdk}")
    else:
        parts.append(new_sdk or old_sdk)
    return ", ".join(str(part) for part in parts if part not in (None, ""))


COMMAND = diff
