"""Pick how an ad-hoc ingest runs: through Prefect when an API is configured, else in-process.

Without a configured Prefect API, every flow run would first start a temporary Prefect
server (tens of seconds on a small machine), so the CLI then calls the same stages directly.
Importing Prefect alone takes seconds, so the check reads the environment and the active
Prefect profile file instead of importing it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from perfledger.flows import pipeline


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


def run_ingest(targets: list[str], warehouse: Path, *, trigger: str, wait_s: float,
               progress: pipeline.Progress, source_name: str | None = None,
               captured_at: str | None = None,
               mlperf_round: str | None = None) -> pipeline.IngestSummary:
    if prefect_api_url() is None:
        return pipeline.ingest(targets, warehouse, trigger=trigger, wait_s=wait_s,
                               progress=progress, source_name=source_name,
                               captured_at=captured_at, mlperf_round=mlperf_round)
    from perfledger.flows.ingest import ingest_flow

    progress(f"running as a Prefect flow through {prefect_api_url()}")
    state = ingest_flow(targets=targets, warehouse=str(warehouse), trigger=trigger,
                        wait_s=wait_s, source_name=source_name, captured_at=captured_at,
                        mlperf_round=mlperf_round, return_state=True)
    # A run whose every document failed is a Failed state holding its summary; a run that
    # could not happen holds the error it stopped on.
    result = state.result(raise_on_failure=False)
    if isinstance(result, BaseException):
        raise result
    return result
