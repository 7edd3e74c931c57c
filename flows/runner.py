"""Pick how an ad-hoc ingest runs: through Prefect when an API is configured or when
PERFLEDGER_TASK_RUNNER sends the work to Dask, else in-process.

Without a configured Prefect API, every flow run would first start a temporary Prefect
server (tens of seconds on a small machine), so the CLI then calls the same stages directly,
unless PERFLEDGER_TASK_RUNNER asks for a Dask cluster, which only a flow's task runner
reaches. Importing Prefect alone takes seconds, so the check reads the environment and the
active Prefect profile file instead of importing it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from perfledger.flows import pipeline

TASK_RUNNER_ENV = "PERFLEDGER_TASK_RUNNER"


def prefect_api_url() -> str | None:
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    home = Path(os.environ.get("PREFECT_HOME", Path.home() / ".prefect"))
    try:
        profiles = tomllib.loads((home / "profiles.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active", "ephemeral")
    return profiles.get("profiles", {}).get(active, {}).get("PREFECT_API_URL") or None


def task_runner_setting() -> str:
    """PERFLEDGER_TASK_RUNNER, where a flow's prepare tasks run: '' or 'threads' in the
    flow's process, 'dask' on a local Dask cluster, or a Dask scheduler's address."""
    setting = os.environ.get(TASK_RUNNER_ENV, "").strip()
    if setting not in ("", "threads", "dask") and "://" not in setting:
        raise ValueError(
            f"{TASK_RUNNER_ENV} must be 'threads', 'dask' or a Dask scheduler address such as "
            f"tcp://scheduler:8786, not {setting!r}"
        )
    return setting


def through_prefect() -> bool:
    """Whether `perfledger ingest` runs as a Prefect flow: with a Prefect API, or when
    PERFLEDGER_TASK_RUNNER sends its work elsewhere (only a flow's task runner can)."""
    return prefect_api_url() is not None or task_runner_setting() not in ("", "threads")


def run_ingest(
    targets: list[str],
    warehouse: Path,
    *,
    trigger: str,
    wait_s: float,
    progress: pipeline.Progress,
    source_name: str | None = None,
    captured_at: str | None = None,
    mlperf_round: str | None = None,
    tracker: pipeline.RunTracker | None = None,
) -> pipeline.IngestSummary:
    if not through_prefect():
        return pipeline.ingest(
            targets,
            warehouse,
            trigger=trigger,
            wait_s=wait_s,
            progress=progress,
            source_name=source_name,
            captured_at=captured_at,
            mlperf_round=mlperf_round,
            tracker=tracker,
        )
    if missing := pipeline.missing_paths(targets):  # said before Prefect's seconds of start
        raise ValueError(f"no such file or folder: {', '.join(missing)}; nothing was read")
    if prefect_api_url() is None:
        # A flow run without a server starts a temporary one: tens of seconds here.
        os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
        progress(
            f"{TASK_RUNNER_ENV}={task_runner_setting()}: running as a Prefect flow on "
            "a temporary Prefect server (no PREFECT_API_URL is set)"
        )
    else:
        progress(f"running as a Prefect flow through {prefect_api_url()}")
    try:
        from perfledger.flows.ingest import ingest_flow  # checks PERFLEDGER_TASK_RUNNER
    except RuntimeError as error:  # prefect-dask is not installed
        raise ValueError(str(error)) from None

    state = ingest_flow(
        targets=targets,
        warehouse=str(warehouse),
        trigger=trigger,
        wait_s=wait_s,
        source_name=source_name,
        captured_at=captured_at,
        mlperf_round=mlperf_round,
        return_state=True,
    )
    # A run whose every document failed is a Failed state holding its summary; a run that
    # could not happen holds the error it stopped on.
    result = state.result(raise_on_failure=False)
    if isinstance(result, BaseException):
        raise result
    # The flow returns a State holding the summary; Prefect's types do not follow the unwrap.
    if not isinstance(result, pipeline.IngestSummary):
        raise TypeError(f"the ingest flow returned {result!r}, not the run's summary")
    return result
