"""`perfledger shell`: an interactive, read-only SQL session over the warehouse views."""

from __future__ import annotations

import contextlib
import sys

import click
import duckdb

from perfledger.flows.cli_common import fail, format_option, resolve_warehouse, warehouse_option
from perfledger.flows.output import FORMATS, render
from perfledger.warehouse import lake, query
from perfledger.warehouse.dictionary import public_views, view_columns
from perfledger.warehouse.session_script import setup_sql

PROMPT = "perfledger> "
CONTINUATION = "       ...> "
HELP = """Statements end with `;` and may span lines; only reading statements run.
.tables           list the views
.schema VIEW      columns and types of a view
.format FORMAT    table, csv or json
.help             this text
.quit or .exit    leave (as does Ctrl-D)"""


@click.command("shell")
@warehouse_option
@format_option
@click.option("--as-of", "as_of", default=None, help="Snapshot id or timestamp to read as of.")
@click.option(
    "--print-setup",
    is_flag=True,
    help="Print the SQL that attaches the warehouse in a plain DuckDB session, and exit.",
)
def shell(warehouse, fmt, as_of, print_setup):
    """Interactive read-only SQL over the warehouse views; reads statements from stdin too."""
    warehouse = resolve_warehouse(warehouse)
    try:
        connection = query.open_for_queries(warehouse, as_of)
    except (lake.WarehouseError, ValueError) as error:
        fail(str(error))
    except duckdb.Error as error:  # e.g. a view over a table that a newer migration adds
        fail(f"cannot open the warehouse views ({error}); run `perfledger ingest` to migrate")
    try:
        if print_setup:
            click.echo(setup_sql(connection, warehouse, as_of))
            return
        interactive = sys.stdin.isatty()
        failures = run_session(connection, fmt, interactive)
    finally:
        connection.close()
    # A script piped in should tell its caller that a statement failed.
    sys.exit(1 if failures and not interactive else 0)


def run_session(connection: duckdb.DuckDBPyConnection, fmt: str, interactive: bool) -> int:
    """Read statements until `.quit` or end of input; returns how many failed."""
    if interactive:
        enable_line_editing()
        click.echo(f"perfledger shell: read-only SQL over the warehouse views.\n{HELP}", err=True)
    failures = 0
    buffer: list[str] = []
    while True:
        try:
            line = read_line(CONTINUATION if buffer else PROMPT, interactive)
        except EOFError:
            break
        except KeyboardInterrupt:
            buffer = []
            click.echo("", err=True)
            continue
        if not buffer and line.strip().startswith("."):
            keep_going, fmt = run_dot_command(connection, line.strip(), fmt)
            if not keep_going:
                return failures
            continue
        buffer.append(line)
        if statement_complete("\n".join(buffer)):
            failures += run_statements(connection, "\n".join(buffer), fmt)
            buffer = []
    if "\n".join(buffer).strip():
        failures += run_statements(connection, "\n".join(buffer), fmt)
    if interactive:
        click.echo("", err=True)
    return failures


def enable_line_editing() -> None:
    # Importing readline gives input() history and line editing; not every Python ships it.
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def read_line(prompt: str, interactive: bool) -> str:
    if interactive:
        return input(prompt)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def statement_complete(text: str) -> bool:
    return text.rstrip().endswith(";")


def run_statements(connection: duckdb.DuckDBPyConnection, text: str, fmt: str) -> int:
    """Run each statement of `text` and print its rows; 1 when one failed, else 0."""
    try:
        query.check_read_only(text)
        for statement in duckdb.extract_statements(text):
            result = connection.execute(statement)
            if result.description:
                columns = [d[0] for d in result.description]
                click.echo(render(columns, result.fetchall(), fmt))
    except ValueError as error:
        click.echo(f"error: {error}", err=True)
        return 1
    except duckdb.Error as error:
        click.echo(f"error: {error}", err=True)
        return 1
    return 0


def run_dot_command(
    connection: duckdb.DuckDBPyConnection, command: str, fmt: str
) -> tuple[bool, str]:
    """Handle one `.command`; returns whether to keep reading and the output format."""
    name, _, argument = command.partition(" ")
    argument = argument.strip().rstrip(";")
    if name in (".quit", ".exit", ".q"):
        return False, fmt
    if name == ".tables":
        click.echo("\n".join(public_views(connection)))
    elif name == ".schema" and argument:
        show_schema(connection, argument, fmt)
    elif name == ".format" and argument in FORMATS:
        fmt = argument
    elif name == ".help":
        click.echo(HELP)
    else:
        click.echo(f"error: unknown or incomplete command {command!r}; try .help", err=True)
    return True, fmt


def show_schema(connection: duckdb.DuckDBPyConnection, view: str, fmt: str) -> None:
    if view not in public_views(connection):
        click.echo(f"error: no view named {view!r}; .tables lists them", err=True)
        return
    click.echo(render(["column", "type"], view_columns(connection, view), fmt))


COMMAND = shell
