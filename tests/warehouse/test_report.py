"""`perfledger report`: one self-contained HTML page whose charts render in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT
from tests.warehouse.test_views import history_warehouse  # noqa: F401  (shared fixture)
from warehouse import query
from warehouse.report import NO_CLAIMS, build_report, claims_section, write_report

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0",
]


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium, installed here when missing and allowed (CI runs as root)."""
    if CHROMIUM.exists():
        return CHROMIUM
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("needs /usr/bin/chromium; install Debian's chromium package, or run as "
                    "root with apt-get so the test installs it")
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
    if subprocess.run(install, env=environment, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=environment, capture_output=True, check=True)
        subprocess.run(install, env=environment, capture_output=True, check=True)
    return CHROMIUM


def expected_charts(warehouse: Path) -> int:
    """One chart per section with rows: comparable throughput, SDK steps, MLPerf, claims."""
    connection = query.open_read_only(warehouse)
    try:
        counts = connection.execute("""
            SELECT (SELECT count(*) > 0 FROM comparable_throughput WHERE systems_compared > 1),
                   (SELECT count(*) > 0 FROM sdk_progression),
                   (SELECT count(*) > 0 FROM mlperf_results)""").fetchone()
        has_claims = connection.execute(
            "SELECT count(*) > 0 FROM duckdb_views() WHERE view_name = 'claims'").fetchone()[0]
        with_ratio = has_claims and connection.execute(
            "SELECT count(*) > 0 FROM claims WHERE ratio IS NOT NULL").fetchone()[0]
    finally:
        connection.close()
    return sum(counts) + bool(with_ratio)


def render_in_browser(chromium: Path, page: Path, profile: Path) -> tuple[str, list[str]]:
    """The DOM after loading, and every console line the page produced."""
    done = subprocess.run(
        [str(chromium), *BROWSER_FLAGS, f"--user-data-dir={profile}", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


@pytest.fixture(scope="module")
def demo_report(demo_warehouse, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    return out, write_report(demo_warehouse, out)


def test_report_holds_contents_snapshot_and_charts(demo_report, demo_warehouse):
    out, report = demo_report
    page = out.read_text(encoding="utf-8")
    (snapshot,) = query.run_sql(demo_warehouse, "SELECT max(snapshot_id) FROM lake.snapshots()")[1]
    assert report.snapshot_id == snapshot[0]
    assert f'<strong id="snapshot-id">{snapshot[0]}</strong>' in page
    for anchor in ("throughput", "sdk", "mlperf", "claims"):
        assert f'href="#{anchor}"' in page and f'<section id="{anchor}">' in page
    assert report.charts == expected_charts(demo_warehouse) >= 2
    assert page.count('<figure class="chart"') == report.charts
    assert "no configuration has been published with more than one SDK" in page


def test_report_needs_no_network(demo_report):
    out, _ = demo_report
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    assert "Content-Security-Policy" in page


def test_claims_section_says_so_without_a_claims_view(demo_warehouse):
    connection = query.open_read_only(demo_warehouse)
    try:
        connection.execute("DROP VIEW IF EXISTS claims")
        section = claims_section(connection, lambda spec: "<svg></svg>")
    finally:
        connection.close()
    assert section.chart_svg is None
    assert section.empty_message == NO_CLAIMS == "No claims in this warehouse."


def test_sdk_progression_is_charted_for_a_new_sdk(history_warehouse):  # noqa: F811
    warehouse, _ = history_warehouse
    report = build_report(warehouse)
    sdk = next(section for section in report.sections if section.anchor == "sdk")
    assert sdk.chart_svg and sdk.chart_svg.lstrip().startswith("<svg")
    assert "Bow Pod16 · ResNet-50 v1.5" in sdk.table
    assert report.charts == expected_charts(warehouse)


@pytest.mark.slow
def test_report_renders_in_a_headless_browser(demo_report, demo_warehouse, chromium, tmp_path):
    out, report = demo_report
    dom, console = render_in_browser(chromium, out, tmp_path / "profile")
    assert console == []
    figures = re.findall(r'<figure class="chart"[^>]*>\s*<svg', dom)
    assert len(figures) == expected_charts(demo_warehouse) == report.charts
    assert dom.count("<svg") == report.charts


@pytest.mark.slow
def test_report_command_prints_json(demo_warehouse, tmp_path):
    out = tmp_path / "r.html"
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "report", str(out), "--warehouse",
         str(demo_warehouse), "--format", "json"],
        capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["charts"] == expected_charts(demo_warehouse)
    assert len([line for line in done.stderr.splitlines() if line.strip()]) == 4
    assert out.exists()
