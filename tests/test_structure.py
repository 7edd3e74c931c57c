"""Keeps the project honest: documented commands, sources with captures, layouts discovered
and declaring what fetch and collect read of them, modules of a readable size, layouts that
share code through modules of their own."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
import textwrap

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
    return sorted(path for folder in ("sources", "schemas")
                  for path in (PROJECT_ROOT / folder).rglob("*.py"))


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
    env = {"PERFLEDGER_WAREHOUSE": str(tmp_path / "wh"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    script = [sys.executable, "-m", "perfledger"]
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


def test_the_stages_below_the_flows_never_import_them():
    """sources/, schemas/ and warehouse/ are used by flows/, never the other way round: what
    both sides need (a number's text, an inert CSV cell) lives below, in warehouse/cell_text."""
    upward = []
    for folder in ("sources", "schemas", "warehouse"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                         else [alias.name for alias in node.names]
                         if isinstance(node, ast.Import) else [])
                upward += [f"{path.relative_to(PROJECT_ROOT)}: {name}" for name in names
                           if name == "perfledger.flows" or name.startswith("perfledger.flows.")]
    assert upward == []


STAGE_FOLDERS = ("flows", "sources", "schemas", "warehouse")


def test_the_stages_install_under_the_perfledger_name_only():
    """The stage folders install as subpackages of `perfledger`: a top-level `flows` or
    `warehouse` in site-packages could collide with another package's. Every package folder
    is listed in pyproject.toml, and no module imports a stage by its bare folder name."""
    import tomllib

    settings = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(settings["tool"]["setuptools"]["packages"])
    on_disk = {"perfledger"} | {
        "perfledger." + ".".join(init.parent.relative_to(PROJECT_ROOT).parts)
        for folder in STAGE_FOLDERS for init in (PROJECT_ROOT / folder).rglob("__init__.py")}
    assert listed == on_disk
    assert all(name == "perfledger" or name.startswith("perfledger.") for name in listed)
    bare = []
    for folder in (*STAGE_FOLDERS, "perfledger", "tests", "bench", "fuzz", "docs"):
        for path in sorted((PROJECT_ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                         else [alias.name for alias in node.names]
                         if isinstance(node, ast.Import) else [])
                bare += [f"{path.relative_to(PROJECT_ROOT)}: {name}" for name in names
                         if name.partition(".")[0] in STAGE_FOLDERS]
    assert bare == []


def test_the_installed_distribution_holds_one_top_level_package():
    from importlib import metadata

    top_level = metadata.distribution("perfledger").read_text("top_level.txt") or ""
    assert top_level.split() == ["perfledger"]


SQL_STATEMENT = re.compile(
    r"^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|ALTER|ATTACH|DETACH|COPY|DROP|PRAGMA|LOAD|"
    r"INSTALL|SET|USE|CALL|CHECKPOINT)\s")


def test_the_flows_hold_no_sql():
    """SQL lives in warehouse/ (fixed statements in .sql files): flows/ calls its functions."""
    found = []
    for path in sorted((PROJECT_ROOT / "flows").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(part.value for part in node.values
                               if isinstance(part, ast.Constant))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if SQL_STATEMENT.match(text):
                found.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}: {text[:60]}")
    assert found == []
