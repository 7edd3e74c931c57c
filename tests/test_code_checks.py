"""The code checks CI runs, run as pre-commit runs them: the linter, the formatter's check and
the type checker, each over the whole project with its settings in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import PROJECT_ROOT

# Each check as a command of the venv's tools, run from the project's root; the hooks of
# .pre-commit-config.yaml run the same commands (test_the_hooks_run_what_the_tests_run).
CHECKS = {
    "ruff": ["ruff", "check", "."],
    "ruff-format": ["ruff", "format", "--check", "."],
    "basedpyright": ["basedpyright"],
}
BIN = Path(sys.executable).parent
STAGE_FOLDERS = sorted(
    path.name for path in (PROJECT_ROOT / "src" / "perfledger").iterdir() if path.is_symlink()
)


def run_check(command: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    tool = BIN / command[0]
    assert tool.is_file(), f"{tool} is missing: install the test extra (requirements-test.lock)"
    return subprocess.run(
        [str(tool), *command[1:], *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_check_passes(name):
    result = run_check(CHECKS[name])
    assert result.returncode == 0, f"{' '.join(CHECKS[name])}:\n{result.stdout}{result.stderr}"


def test_the_type_checker_reads_every_stage_folder():
    """Not src/, whose links name the same files: each would be checked twice. The settings
    are pyright's table, which basedpyright, pyright and editors' Pylance all read; a table
    of basedpyright's own would take precedence for it alone."""
    settings = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "basedpyright" not in settings["tool"]
    checker = settings["tool"]["pyright"]
    assert STAGE_FOLDERS == ["flows", "schemas", "sources", "warehouse"]
    assert sorted(checker["include"]) == STAGE_FOLDERS
    assert checker["typeCheckingMode"] == "standard"


BROKEN = """
from perfledger.warehouse.lake import current_snapshot


def snapshot_name(connection) -> str:
    return current_snapshot(connection)


snapshot_name(None).removeprefix(1)
"""


def test_the_type_checker_fails_on_a_type_error(tmp_path):
    """The project's settings, on a module that misuses a perfledger function: its import
    resolves, and both errors are reported."""
    module = tmp_path / "broken.py"
    module.write_text(BROKEN, encoding="utf-8")
    result = run_check(CHECKS["basedpyright"], str(module))
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if " - error: " in line]
    assert len(errors) == 2, result.stdout
    assert 'Type "int" is not assignable to return type "str"' in errors[0]
    assert 'Literal[1]" cannot be assigned to parameter "prefix"' in errors[1]


def test_the_hooks_run_what_the_tests_run():
    """pre-commit and CI cannot drift: each hook is a command of the project's venv, offline,
    over the whole project (no file names appended), and together they are CHECKS."""
    config = yaml.safe_load((PROJECT_ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    [repository] = config["repos"]
    assert repository["repo"] == "local"
    commands = {}
    for hook in repository["hooks"]:
        assert hook["language"] == "system", hook["id"]
        assert hook["pass_filenames"] is False, hook["id"]
        tool, *args = hook["entry"].split()
        assert Path(tool).parent == Path(".venv/bin"), hook["entry"]
        commands[hook["id"]] = [Path(tool).name, *args]
    assert commands == CHECKS


def test_no_file_holds_a_merge_conflict_marker():
    """The vocabularies are data no linter reads: a conflict marker left in one is read as a
    pattern of its own instead of failing."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    marked = []
    for name in tracked:
        path = PROJECT_ROOT / name
        if path.suffix not in (".py", ".csv", ".toml", ".sql", ".md", ".rst", ".txt", ".yaml"):
            continue
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(line.startswith(("<<<<<<< ", ">>>>>>> ")) for line in text.splitlines()):
            marked.append(name)
    assert marked == []
