"""The installed `perfledger` command, the console script pip writes, run as a user runs it:
from a folder outside the project, with no PYTHONPATH and no PERFLEDGER_* settings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

EXAMPLE_QUERY = (
    "SELECT model, platform, sdk_version, framework, value, unit FROM measurements "
    "WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16' "
    "AND workload = 'training' AND metric = 'throughput' ORDER BY ALL"
)


def installed_command() -> Path:
    """`perfledger` in the scripts folder of the environment running the tests."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        found = shutil.which("perfledger", path=folder)
        if found:
            return Path(found)
    pytest.fail(
        f"no `perfledger` command beside {sys.executable}: install the project "
        "first (pip install --no-deps -e .), as the README says"
    )


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("PERFLEDGER_") and name != "PYTHONPATH"
    }
    return subprocess.run(
        [str(installed_command()), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_installed_command_ingests_the_demo_and_answers_a_query(tmp_path):
    elsewhere = tmp_path / "elsewhere"  # not the project: nothing is imported from the cwd
    elsewhere.mkdir()
    warehouse = tmp_path / "warehouse"
    ingested = run("ingest", "--warehouse", str(warehouse), cwd=elsewhere)
    assert ingested.returncode == 0, ingested.stdout + ingested.stderr
    assert "documents read:      5 (5 new" in ingested.stdout, ingested.stdout
    assert "values added:        358" in ingested.stdout

    answered = run(
        "sql", EXAMPLE_QUERY, "--warehouse", str(warehouse), "--format", "json", cwd=elsewhere
    )
    assert answered.returncode == 0, answered.stdout + answered.stderr
    rows = json.loads(answered.stdout)
    assert {
        "model": "ResNet-50 v1.5",
        "platform": "Bow Pod16",
        "sdk_version": "SDK 3.0",
        "framework": "TensorFlow1",
        "value": 44059.0,
        "unit": "items/s",
    } in rows
    assert list(elsewhere.iterdir()) == []


def test_the_installed_command_refuses_a_missing_warehouse_plainly(tmp_path):
    result = run("sql", "SELECT 1", "--warehouse", str(tmp_path / "none"), cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: no warehouse at"), result.stderr
    assert not (tmp_path / "none").exists()
