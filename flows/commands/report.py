"""`perfledger report`: one self-contained HTML page of charts for a warehouse snapshot."""

from __future__ import annotations

from pathlib import Path

import click

from perfledger.flows.cli_common import fail, resolve_warehouse, warehouse_option
from perfledger.flows.output import FORMATS, render
from perfledger.warehouse import lake
from perfledger.warehouse.report import ReportError, write_report


@click.command("report")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@warehouse_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="How the line naming what was written (path, snapshot, charts) is printed, "
    "as the other commands' --format; the page itself is always HTML.",
)
@click.option("--as-of", "as_of", default=None, help="Snapshot id or timestamp to report on.")
@click.option(
    "--model",
    "models",
    multiple=True,
    metavar="TEXT",
    help="Only models whose name contains TEXT (any case); repeat for several.",
)
def report(out, warehouse, fmt, as_of, models):
    """Write OUT.html: charts of throughput, SDK progression, MLPerf results and claims."""
    progress = lambda message: click.echo(f"  {message}", err=True)  # noqa: E731
    try:
        written = write_report(resolve_warehouse(warehouse), out, as_of, progress, models)
    except (ReportError, lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except Exception as error:  # DuckDB's own errors name what failed
        fail(f"report failed: {error}")
    row = (
        str(out.absolute()),
        written.snapshot_id,
        written.snapshot_time.isoformat(),
        written.charts,
    )
    if fmt == "table":
        click.echo(f"wrote {row[0]}: {row[3]} chart(s), snapshot {row[1]} ({row[2]})")
    else:
        click.echo(render(["path", "snapshot_id", "snapshot_time", "charts"], [row], fmt))


COMMAND = report
