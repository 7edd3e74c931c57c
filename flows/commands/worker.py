"""`perfledger worker`: serve the Prefect deployments and run their scheduled or requested runs."""

from __future__ import annotations

import os

import click

from perfledger.flows.cli_common import fail, warehouse_option
from perfledger.flows.runner import TASK_RUNNER_ENV  # read as flows.ingest is imported


@click.command("worker")
@warehouse_option
@click.option(
    "--task-runner",
    "task_runner",
    default=None,
    help="threads (default), dask (local processes) or a Dask scheduler address.",
)
@click.option("--limit", type=int, default=None, help="Most flow runs at a time.")
def worker(warehouse, task_runner, limit):
    """Register ingest/daily, ingest/one-source and publish/on-demand, then run their runs."""
    from perfledger.flows.runner import prefect_api_url

    if prefect_api_url() is None:
        fail(
            "no Prefect API is configured: start `perfledger server` and "
            "export PREFECT_API_URL=http://127.0.0.1:4200/api"
        )
    # Each flow run is a child process of this one and inherits these.
    if warehouse is not None:
        os.environ["PERFLEDGER_WAREHOUSE"] = str(warehouse.absolute())
    if task_runner:
        os.environ[TASK_RUNNER_ENV] = task_runner
    from perfledger.flows.deployments import serve_deployments

    serve_deployments(limit)


COMMAND = worker
