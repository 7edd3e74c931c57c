"""The Prefect publish flow: the BI export of the warehouse, run after each scheduled ingest."""

from __future__ import annotations

import os
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from perfledger.warehouse import lake, location
from perfledger.warehouse.export_remote import export_to, is_remote_target

EXPORT_DIR_ENV = "PERFLEDGER_EXPORT_DIR"
SUMMARY_KEY = "publish-summary"


def default_export_dir(warehouse: Path) -> Path | str:
    """$PERFLEDGER_EXPORT_DIR, else an `export` folder beside the warehouse folder, or for a
    shared warehouse `export/` under its prefix (s3://BUCKET/PREFIX/export/), where every
    machine's BI tools find it."""
    configured = os.environ.get(EXPORT_DIR_ENV)
    if configured:
        return configured if is_remote_target(configured) else Path(configured).expanduser()
    shared = location.shared(warehouse)
    return f"{shared.data}export/" if shared is not None else warehouse.parent / "export"


@task(name="export", cache_policy=NO_CACHE)
def export_task(warehouse: Path, target: Path | str, export_format: str) -> dict:
    return export_to(warehouse, target, export_format, progress=get_run_logger().info)


def manifest_markdown(manifest: dict, target: Path | str) -> str:
    lines = [
        f"# Export of snapshot {manifest['snapshot_id']} ({manifest['snapshot_time']})",
        "",
        f"Format `{manifest['format']}` in `{target}`, from warehouse `{manifest['warehouse']}`.",
        "",
        "| view | rows |",
        "| --- | --- |",
    ]
    lines += [f"| {name} | {view['rows']} |" for name, view in manifest["views"].items()]
    return "\n".join(lines)


@flow(name="publish", log_prints=False)
def publish_flow(
    warehouse: str | None = None,
    target: str | None = None,
    export_format: str = "parquet",
) -> dict:
    """Export every public view of the warehouse for BI tools (see `perfledger export`)."""
    logger = get_run_logger()
    folder = Path(warehouse) if warehouse else lake.default_warehouse_dir()
    destination = target or default_export_dir(folder)
    manifest = export_task(folder, destination, export_format)
    rows = sum(view["rows"] for view in manifest["views"].values())
    logger.info(
        "exported snapshot %s: %s views, %s rows, to %s",
        manifest["snapshot_id"],
        len(manifest["views"]),
        rows,
        destination,
    )
    create_markdown_artifact(
        markdown=manifest_markdown(manifest, destination),
        key=SUMMARY_KEY,
        description="What the export wrote, and from which snapshot",
    )
    return manifest
