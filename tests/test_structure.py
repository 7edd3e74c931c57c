"""Keeps the project honest: documented commands, sources with captures, layouts discovered
and declaring what fetch and collect read of them, modules of a readable size, layouts that
share code through modules of their own."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import click
import pytest

from perfledger.flows.cli import main
from perfledger.sources import layouts
from perfledger.sources.collect import collect_paths
from perfledger.sources.fetch import accept_header
from perfledger.sources.fetch_content import classify_content
from perfledger.sources.layouts import all_layouts
from perfledger.sources.layouts.base import Layout
from perfledger.sources.registry import load_registry
from tests.conftest import PROJECT_ROOT

# The most lines a module of sources/ or schemas/ may hold: past it, a module holds several
# modules' worth of sections, to be split along them.
MAX_MODULE_LINES = 800


def test_every_command_is_documented_in_the_readme():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    names = main.list_commands(click.Context(main))
    missing = [name for name in names if f"perfledger {name}" not in readme]
    assert missing == []
    assert {"ingest", "sql", "map-label", "worker"} <= set(names)  # core ones and modules'
    assert all(main.get_command(click.Context(main), name) is not None for name in names)


def test_every_registered_source_has_a_bundled_capture():
    registry = load_registry()
    with_captures = {capture.source for capture in registry.captures}
    assert set(registry.sources) == with_captures
    for capture in registry.captures:
        assert capture.path.is_file(), capture.path


def test_layouts_are_discovered_from_their_modules():
    assert "text_capture" in all_layouts()


PROBE_LAYOUT = """
    from perfledger.sources.layouts.base import Layout, ParsedDocument, cells_frame


    def sniff(data, content_type):
        return 1.0 if (content_type or "").startswith("text/x-probe") else 0.0


    def parse(text):
        return ParsedDocument(cells=cells_frame())


    LAYOUT = Layout(name="probe", sniff=sniff, parse=parse,
                    media_types={"text/x-probe": 0.5}, suffixes={".probe": "text/x-probe"})
"""


def test_a_new_layout_module_is_all_fetch_and_collect_need(tmp_path, monkeypatch):
    """A layout module added with its media type and suffix, and nothing else edited: collect
    names its files by the suffix, fetch asks for the media type and keeps pages of it."""
    folder = tmp_path / "more_layouts"
    folder.mkdir()
    (folder / "probe_layout.py").write_text(textwrap.dedent(PROBE_LAYOUT), encoding="utf-8")
    page = tmp_path / "pages" / "results.PROBE"
    page.parent.mkdir()
    page.write_text("| chip | score |\n", encoding="utf-8")
    before = collect_paths([page], load_registry(), tmp_path / "before" / "archive")
    assert before[0].content_type == ""
    assert classify_content({"content-type": "text/x-probe"}, b"a page")[0] == "not_html"
    monkeypatch.setattr(layouts, "__path__", [*layouts.__path__, str(folder)])
    layouts.all_layouts.cache_clear()
    try:
        assert "probe" in all_layouts()
        after = collect_paths([page], load_registry(), tmp_path / "after" / "archive")
        assert after[0].content_type == "text/x-probe"
        assert after[0].error is None
        assert "text/x-probe;q=0.5" in accept_header().split(",")
        assert classify_content({"content-type": "text/x-probe"}, b"a page") == ("ok", "")
    finally:
        layouts.all_layouts.cache_clear()  # found again without the probe once __path__ is back
        sys.modules.pop("perfledger.sources.layouts.probe_layout", None)


def _python_modules() -> list:
    return sorted(
        path for folder in ("sources", "schemas") for path in (PROJECT_ROOT / folder).rglob("*.py")
    )


def test_no_module_of_sources_or_schemas_exceeds_the_size_limit():
    too_long = {}
    for path in _python_modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            too_long[str(path.relative_to(PROJECT_ROOT))] = lines
    assert too_long == {}


def test_layouts_share_code_through_their_own_modules_never_one_another():
    """Only discovery imports a layout module (one defining LAYOUT): what two layouts share
    (row realignment, table text, the HTML readers a Markdown page's <table> needs) lives in
    a module of its own, so that a layout can change without changing another."""
    layout_modules = set()
    for info in pkgutil.iter_modules(layouts.__path__):
        name = f"{layouts.__name__}.{info.name}"
        if isinstance(getattr(importlib.import_module(name), "LAYOUT", None), Layout):
            layout_modules.add(name)
    assert {f"{layouts.__name__}.html_table", f"{layouts.__name__}.pipe_table"} <= layout_modules
    importers: dict[str, list[str]] = {}
    for path in _python_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                named = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Import):
                named = {alias.name for alias in node.names}
            else:
                continue
            for module in sorted(named & layout_modules):
                importers.setdefault(module, []).append(str(path.relative_to(PROJECT_ROOT)))
    assert importers == {}


def test_the_console_script_ingests_and_queries(tmp_path):
    env = {
        "PERFLEDGER_WAREHOUSE": str(tmp_path / "wh"),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    script = [sys.executable, "-m", "perfledger"]
    ingest = subprocess.run(
        [*script, "ingest"], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=120
    )
    assert ingest.returncode == 0, ingest.stderr
    assert "values added:        358" in ingest.stdout
    assert "tables found:        7" in ingest.stdout
    assert f"warehouse:           {tmp_path / 'wh'}" in ingest.stdout
    csv = subprocess.run(
        [
            *script,
            "sql",
            "SELECT raw_value, value FROM measurements WHERE metric = "
            "'time_to_train' AND model_canonical = 'GPS++'",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
        timeout=120,
    )
    assert csv.stdout.splitlines() == ["raw_value,value", "23h 43m,85380"]


def test_the_stages_below_the_flows_never_import_them():
    """sources/, schemas/ and warehouse/ are used by flows/, never the other way round: what
    both sides need (a number's text, an inert CSV cell) lives below, in warehouse/cell_text."""
    upward = []
    for folder in ("sources", "schemas", "warehouse"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                upward += [
                    f"{path.relative_to(PROJECT_ROOT)}: {name}"
                    for name in names
                    if name == "perfledger.flows" or name.startswith("perfledger.flows.")
                ]
    assert upward == []


STAGE_FOLDERS = ("flows", "sources", "schemas", "warehouse")


def test_the_stages_install_under_the_perfledger_name_only():
    """The stage folders are the package's subpackages through relative symlinks in
    src/perfledger/ (so a clone anywhere resolves them), and no module imports a stage by its
    bare folder name: a top-level `flows` or `warehouse` could collide with another package's."""
    package = PROJECT_ROOT / "src" / "perfledger"
    links = {path.name: os.readlink(path) for path in package.iterdir() if path.is_symlink()}
    assert links == {folder: f"../../{folder}" for folder in STAGE_FOLDERS}
    assert all((package / folder).resolve() == PROJECT_ROOT / folder for folder in STAGE_FOLDERS)
    bare = []
    for folder in (*STAGE_FOLDERS, "src", "tests", "bench", "fuzz", "docs"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and not node.level
                    else [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                bare += [
                    f"{path.relative_to(PROJECT_ROOT)}: {name}"
                    for name in names
                    if name.partition(".")[0] in STAGE_FOLDERS
                ]
    assert bare == []


def test_the_editable_install_is_a_path_entry_holding_perfledger_alone():
    """Static tools (pyright, mypy, an editor's go-to-definition) read a .pth file's path
    entries but cannot run an import hook: the editable install puts src/ on the path, where
    `perfledger` is the only thing to import, never the repository's root."""
    site_packages = Path(sysconfig.get_paths()["purelib"])
    entries = [
        line.strip()
        for pth in sorted(site_packages.glob("*.pth"))
        for line in pth.read_text(encoding="utf-8").splitlines()
        if "perfledger" in line or str(PROJECT_ROOT) in line
    ]
    assert entries == [str(PROJECT_ROOT / "src")]
    importable = {
        path.name
        for path in (PROJECT_ROOT / "src").iterdir()
        if (path / "__init__.py").is_file() or path.suffix == ".py"
    }
    assert importable == {"perfledger"}


def test_the_installed_distribution_holds_one_top_level_package():
    from importlib import metadata

    top_level = metadata.distribution("perfledger").read_text("top_level.txt") or ""
    assert top_level.split() == ["perfledger"]


SQL_STATEMENT = re.compile(
    r"^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|ALTER|ATTACH|DETACH|COPY|DROP|PRAGMA|LOAD|"
    r"INSTALL|SET|USE|CALL|CHECKPOINT)\s"
)


def test_the_flows_hold_no_sql():
    """SQL lives in warehouse/ (fixed statements in .sql files): flows/ calls its functions."""
    found = []
    for path in sorted((PROJECT_ROOT / "flows").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if SQL_STATEMENT.match(text):
                found.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}: {text[:60]}")
    assert found == []


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_data_file_under_perfledger(tmp_path):
    """Built from a copy of what it ships, the wheel holds each file of the stage folders (every
    module, every package-data file the code reads) under perfledger/ and nothing beside it,
    and runs from where it is installed: `python -m perfledger` and the console script."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(PROJECT_ROOT / name, tree / name)
    caches = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(PROJECT_ROOT / "src", tree / "src", symlinks=True, ignore=caches)
    for folder in STAGE_FOLDERS:
        shutil.copytree(PROJECT_ROOT / folder, tree / folder, ignore=caches)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    built = subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(tree),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("perfledger-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if ".dist-info/" not in name}
        entry_points = archive.read(
            next(
                name for name in archive.namelist() if name.endswith(".dist-info/entry_points.txt")
            )
        )
    expected = {"perfledger/__init__.py", "perfledger/__main__.py"} | {
        f"perfledger/{path.relative_to(tree).as_posix()}"
        for folder in STAGE_FOLDERS
        for path in (tree / folder).rglob("*")
        if path.is_file()
    }
    assert names == expected
    assert b"perfledger = perfledger.flows.cli:main" in entry_points

    target = tmp_path / "installed"
    installed = subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    # The installed wheel comes before the editable install's path entry on sys.path.
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    located = subprocess.run(
        [
            sys.executable,
            "-c",
            "import perfledger.warehouse.lake as lake; print(lake.MIGRATIONS_DIR)",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert located.stdout.strip() == str(target / "perfledger" / "warehouse" / "migrations")
    warehouse = str(tmp_path / "wh")
    ingest = subprocess.run(
        [sys.executable, "-m", "perfledger", "ingest", "--warehouse", warehouse],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert ingest.returncode == 0, ingest.stderr
    assert "values added:        358" in ingest.stdout
    count = subprocess.run(
        [
            str(target / "bin" / "perfledger"),
            "sql",
            "--warehouse",
            warehouse,
            "SELECT count(*) AS n FROM measurements",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert count.stdout.splitlines() == ["n", "358"], count.stderr
