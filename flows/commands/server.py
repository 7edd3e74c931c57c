"""`perfledger server`: a local Prefect server for scheduled runs (`prefect server start`)."""

from __future__ import annotations

import os
import sys

import click


@click.command("server")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=4200, type=int, show_default=True, help="Port to listen on.")
def server(host, port):
    """Start a Prefect server; then point PREFECT_API_URL at it and run `perfledger worker`."""
    click.echo(
        f"Prefect UI and API at http://{host}:{port}; in the worker's shell: "
        f"export PREFECT_API_URL=http://{host}:{port}/api",
        err=True,
    )
    command = [
        sys.executable,
        "-m",
        "prefect",
        "server",
        "start",
        "--host",
        host,
        "--port",
        str(port),
    ]
    # Replacing this process hands Ctrl-C and service managers' signals straight to Prefect.
    os.execv(sys.executable, command)


COMMAND = server
