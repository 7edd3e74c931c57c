"""The Prefect deployments (ingest/daily, ingest/one-source, publish/on-demand) and their server."""

from __future__ import annotations

import os
from collections.abc import Coroutine
from typing import Any

from prefect import serve
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron
from prefect.types.entrypoint import EntrypointType

from perfledger.flows.ingest import ingest_flow
from perfledger.flows.publish import publish_flow

DAILY_CRON = os.environ.get("PERFLEDGER_DAILY_CRON", "0 5 * * *")
DAILY_TIMEZONE = "UTC"
DEFAULT_SOURCE = "graphcore-performance-results"


def build_deployments() -> list[RunnerDeployment]:
    # Module entry points load the flows wherever the package is importable, whatever the cwd.
    common = {"entrypoint_type": EntrypointType.MODULE_PATH, "tags": ["perfledger"]}
    built = [
        ingest_flow.to_deployment(
            name="daily",
            schedules=[Cron(DAILY_CRON, timezone=DAILY_TIMEZONE)],
            parameters={"publish": True},
            description="Every registered source into the warehouse, then the BI export.",
            **common,
        ),
        ingest_flow.to_deployment(
            name="one-source",
            parameters={"source": DEFAULT_SOURCE, "warehouse": None, "dry_run": False},
            description="One source (a registry name, or a file, folder or URL); "
            "dry_run reports what would change and writes nothing.",
            **common,
        ),
        publish_flow.to_deployment(
            name="on-demand",
            description="The BI export of the warehouse as it stands.",
            **common,
        ),
    ]
    return [_built(deployment) for deployment in built]


def _built(
    deployment: RunnerDeployment | Coroutine[Any, Any, RunnerDeployment],
) -> RunnerDeployment:
    """`to_deployment` returns a coroutine when called inside an event loop; the worker
    command builds its deployments outside one."""
    if not isinstance(deployment, RunnerDeployment):
        raise RuntimeError(
            "build_deployments() runs outside an event loop (in an async "
            "function, await each flow's ato_deployment instead)"
        )
    return deployment


def serve_deployments(limit: int | None = None) -> None:
    """Register the deployments and run their flow runs until interrupted."""
    serve(*build_deployments(), limit=limit)


if __name__ == "__main__":
    serve_deployments()
