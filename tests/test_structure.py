"""Keeps the project honest: documented commands, sources with captures, layouts discovered."""

from __future__ import annotations

import subprocess
import sys

from flows.cli import main
from sources.layouts import all_layouts
from sources.registry import load_registry
from tests.conftest import PROJECT_ROOT


def test_every_command_is_documented_in_the_readme():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in main.commands if f"perfledger {name}" not in readme]
    assert missing == []


def test_every_registered_source_has_a_bundled_capture():
    registry = load_registry()
    with_captures = {capture.source for capture in registry.captures}
    assert set(registry.sources) == with_captures
    for capture in registry.captures:
        assert capture.path.is_file(), capture.path


def test_layouts_are_discovered_from_their_modules():
    assert "text_capture" in all_layouts()


def test_the_console_script_ingests_and_queries(tmp_path):
    env = {"PERFLEDGER_WAREHOUSE": str(tmp_path / "wh"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    script = [sys.executable, "-m", "flows.cli"]
    ingest = subprocess.run([*script, "ingest"], capture_output=True, text=True, env=env,
                            cwd=PROJECT_ROOT, timeout=120)
    assert ingest.returncode == 0, ingest.stderr
    assert "values added:        358" in ingest.stdout
    assert "tables found:        7" in ingest.stdout
    assert f"warehouse:           {tmp_path / 'wh'}" in ingest.stdout
    csv = subprocess.run(
        [*script, "sql", "SELECT raw_value, value FROM measurements WHERE metric = "
         "'time_to_train' AND model_canonical = 'GPS++'", "--format", "csv"],
        capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=120,
    )
    assert csv.stdout.splitlines() == ["raw_value,value", "23h 43m,85380"]
