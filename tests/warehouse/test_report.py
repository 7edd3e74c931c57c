"""`perfledger report`: one self-contained HTML page whose charts render legibly in a real
browser, at the demo's size and at 300 pages."""

from __future__ import annotations

import html
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.generate import generate
from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.warehouse import query
from perfledger.warehouse.report import (
    NO_CLAIMS,
    SYSTEM_COLOURS,
    TABLE_ROWS,
    TOP_COMPARISONS,
    TOP_PLATFORMS,
    TOP_SERIES,
    build_report,
    claims_section,
    write_report,
)
from tests.conftest import BLOG_MLPERF_V2, JULY_2023, PROJECT_ROOT
from tests.warehouse.test_views import history_warehouse  # noqa: F401  (shared fixture)

MLPERF_TREE = PROJECT_ROOT / "tests" / "fixtures" / "mlperf" / "training_results_v2.0"
INSTALL_CHROMIUM = (
    "Chromium renders the report in these tests; install Debian's package with "
    "`apt-get install chromium` (.ci/run does so before the test suite)"
)
BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
]
WINDOW = (1280, 900)  # a laptop's browser window, in CSS pixels

# What a reader can take in: the page with its tables folded, and each chart.
MAX_PAGE_HEIGHT = 5_000
MAX_CHART_WIDTH = 1_000
MAX_CHART_HEIGHT = 800
MAX_PAGE_BYTES = 1_500_000


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium, found on PATH; the tests never install it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip(INSTALL_CHROMIUM)
    return Path(found)


@pytest.fixture(scope="session")
def large_warehouse(tmp_path_factory) -> Path:
    """300 generated text pages (bench/generate.py, the bench's seed), ingested: about 15 s."""
    root = tmp_path_factory.mktemp("report-300-pages")
    generate(300, 7, root / "corpus", "text")
    pipeline.ingest([str(root / "corpus" / "pages")], root / "warehouse")
    return root / "warehouse"


@pytest.fixture(scope="module")
def claims_warehouse(tmp_path_factory) -> Path:
    """Claims with each verdict: the MLPerf blog's "31% faster" holds against the official
    records of tests/fixtures/mlperf, a copy saying "2.5x faster" does not."""
    root = tmp_path_factory.mktemp("report-claims")
    overstated = root / "overstated-blog.txt"
    text = BLOG_MLPERF_V2.read_text(encoding="utf-8")
    assert "turned in a 31% faster time-to-train" in text
    overstated.write_text(
        text.replace("turned in a 31% faster", "turned in a 2.5x faster"), encoding="utf-8"
    )
    pipeline.ingest(
        [str(JULY_2023), str(BLOG_MLPERF_V2), str(overstated), str(MLPERF_TREE)], root / "warehouse"
    )
    return root / "warehouse"


def expected_charts(warehouse: Path) -> int:
    """One chart per section with something to draw: models across chips, comparable
    throughput, SDK steps, MLPerf, official MLPerf Inference, and claims that `claims
    --check` could check against measured values."""
    connection = query.open_read_only(warehouse)
    try:
        counts = connection.execute("""
            SELECT (SELECT count(*) > 0 FROM model_comparison WHERE chips_compared > 1
                    AND compared_value > 0 AND accelerator IS NOT NULL
                    AND metric IN ('throughput', 'time_to_train')),
                   (SELECT count(*) > 0 FROM comparable_throughput WHERE systems_compared > 1),
                   (SELECT count(*) > 0 FROM sdk_progression),
                   (SELECT count(*) > 0 FROM mlperf_results),
                   (SELECT count(*) > 0 FROM model_comparison WHERE official
                    AND workload = 'inference' AND metric = 'throughput'
                    AND compared_value > 0)""").fetchone()
    finally:
        connection.close()
    return sum(counts) + bool(claim_check(warehouse, checked_only=True))


def claim_check(warehouse: Path, checked_only: bool = False) -> list[dict]:
    """What `perfledger claims --check` prints, as JSON rows."""
    result = CliRunner().invoke(
        main, ["claims", "--check", "--format", "json", "--warehouse", str(warehouse)]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    return [row for row in rows if row["measured_ratio"] is not None] if checked_only else rows


def section_of(page: str, anchor: str) -> str:
    match = re.search(rf'<section id="{anchor}">(.*?)</section>', page, re.S)
    assert match, anchor
    return match.group(1)


def table_rows(section: str) -> list[dict]:
    """The section's table as rows of text keyed by header."""
    head = [html.unescape(cell) for cell in re.findall(r"<th>(.*?)</th>", section)]
    rows = []
    for row in re.findall(r"<tr>(<td.*?)</tr>", section):
        cells = [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        rows.append(dict(zip(head, cells, strict=True)))
    return rows


# ---- the page -------------------------------------------------------------------------------


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


# ---- claims: the verdicts of `perfledger claims --check` -----------------------------------


def verdict_counts(rows: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return counts


@pytest.mark.parametrize("which", ["demo", "claims"])
def test_the_report_gives_the_verdicts_of_claims_check(which, demo_warehouse, request, tmp_path):
    warehouse = demo_warehouse if which == "demo" else request.getfixturevalue("claims_warehouse")
    expected = claim_check(warehouse)
    page = write_report(warehouse, tmp_path / "report.html").html
    claims = section_of(page, "claims")
    shown = table_rows(claims)
    key = ("verdict", "subject", "baseline", "model", "metric")
    assert sorted(tuple(row[k] for k in key) for row in shown) == sorted(
        tuple(row[k] or "" for k in key) for row in expected
    )
    counts = verdict_counts(expected)
    assert f"{len(expected)} claim(s): " in claims
    for verdict, number in counts.items():
        assert f"{number} {verdict}" in claims
    if which == "claims":  # both verdicts, and the chart sets both claims beside the measure
        assert {"supported": 1, "contradicted": 1}.items() <= counts.items()
        assert '<figure class="chart" id="claims-chart">' in claims
        assert claims.count("Bow Pod16 vs DGX A100 640GB") >= 2
    else:  # nothing the demo claims can be checked: no chart, and the table says why
        assert set(counts) == {"not checkable"}
        assert '<figure class="chart"' not in claims
        assert "No claim can be checked" in claims


def test_a_model_filter_keeps_only_those_models(demo_warehouse, demo_report):
    report = build_report(demo_warehouse, models=["bert"])
    throughput = next(section for section in report.sections if section.anchor == "throughput")
    labels = [row["comparison"] for row in table_rows(throughput.table)]
    assert labels and all("bert" in label.lower() for label in labels)
    whole = next(section for section in demo_report[1].sections if section.anchor == "throughput")
    assert len(table_rows(whole.table)) > len(labels)
    assert "models whose name contains “bert”" in report.html


# ---- rendered in Chromium -------------------------------------------------------------------

# Runs in the page once it is laid out: the page's size, each chart's, and every chart text
# that leaves its SVG's viewBox (the browser clips it there) or covers another text. Boxes
# are getBBox() carried through getCTM(), so rotated labels are compared as drawn.
LAYOUT_SCRIPT = """
(function () {
  function corners(element) {
    const b = element.getBBox(), m = element.getCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height],
            [b.x, b.y + b.height]].map(([x, y]) => [m.a * x + m.c * y + m.e,
                                                    m.b * x + m.d * y + m.f]);
  }
  function overlap(p, q) {  /* separating axes: how deep two rectangles overlap */
    let depth = Infinity;
    for (const poly of [p, q]) for (let i = 0; i < 2; i++) {
      let nx = poly[i][1] - poly[i + 1][1], ny = poly[i + 1][0] - poly[i][0];
      const length = Math.hypot(nx, ny) || 1; nx /= length; ny /= length;
      const a = p.map(([x, y]) => x * nx + y * ny), b = q.map(([x, y]) => x * nx + y * ny);
      depth = Math.min(depth, Math.min(Math.max(...a), Math.max(...b))
                              - Math.max(Math.min(...a), Math.min(...b)));
    }
    return depth;
  }
  const root = document.documentElement;
  const layout = {page: {width: root.scrollWidth, height: root.scrollHeight,
                         window: window.innerWidth}, charts: []};
  for (const figure of document.querySelectorAll("figure.chart")) {
    const svg = figure.querySelector("svg");
    const frame = svg.getBoundingClientRect();
    const box = svg.viewBox.baseVal;
    const chart = {id: figure.id, width: frame.width, height: frame.height,
                   left: frame.left + window.scrollX, top: frame.top + window.scrollY,
                   figure_width: figure.clientWidth, view_box: [box.x, box.y, box.width, box.height],
                   texts: [], clipped: [], overlapping: []};
    const drawn = [];
    for (const text of svg.querySelectorAll("text")) {
      const content = text.textContent.trim();
      const style = getComputedStyle(text);
      // vega keeps labels it dropped for overlap, at opacity 0
      if (!content || style.opacity === "0" || style.visibility === "hidden") continue;
      const points = corners(text);
      const xs = points.map(p => p[0]), ys = points.map(p => p[1]);
      chart.texts.push(content);
      if (Math.min(...xs) < box.x - 0.5 || Math.max(...xs) > box.x + box.width + 0.5
          || Math.min(...ys) < box.y - 0.5 || Math.max(...ys) > box.y + box.height + 0.5)
        chart.clipped.push([content, Math.min(...xs), Math.max(...xs)]);
      drawn.push([content, points]);
    }
    for (let i = 0; i < drawn.length; i++) for (let j = i + 1; j < drawn.length; j++) {
      const depth = overlap(drawn[i][1], drawn[j][1]);
      if (depth > 1) chart.overlapping.push([drawn[i][0], drawn[j][0], depth]);
    }
    for (const symbol of svg.querySelectorAll(".role-legend-symbol path")) {
      const points = corners(symbol);
      for (const [content, box] of drawn) {
        const depth = overlap(points, box);
        if (depth > 1) chart.overlapping.push([content, "a legend symbol", depth]);
      }
    }
    layout.charts.push(chart);
  }
  const out = document.createElement("pre");
  out.id = "layout";
  out.textContent = JSON.stringify(layout);
  document.body.appendChild(out);
})();
"""


def browser(
    chromium: Path, profile: Path, *args: str, window: tuple[int, int] = WINDOW
) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [
            str(chromium),
            *BROWSER_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={window[0]},{window[1]}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def measure_in_browser(chromium: Path, page: Path, work: Path) -> tuple[dict, str, list[str]]:
    """The page's layout as Chromium draws it, its DOM, and every console line it produced.
    A copy of the page runs LAYOUT_SCRIPT; its policy allows that one inline script."""
    text = page.read_text(encoding="utf-8")
    assert text.count("default-src 'none';") == 1 and "</body>" in text
    measured = work / "measured.html"
    measured.write_text(
        text.replace(
            "default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';"
        ).replace("</body>", f"<script>{LAYOUT_SCRIPT}</script>\n</body>"),
        encoding="utf-8",
    )
    done = browser(chromium, work / "profile", "--dump-dom", measured.as_uri())
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    found = re.search(r'<pre id="layout">(.*?)</pre>', done.stdout, re.S)
    assert found, f"the layout script did not run: {console or done.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1))), done.stdout, console


@pytest.fixture(scope="module")
def large_report(large_warehouse, tmp_path_factory):
    out = tmp_path_factory.mktemp("report-300") / "report.html"
    return out, write_report(large_warehouse, out)


@pytest.fixture(scope="module", params=["demo", "300 pages"])
def rendered(request, chromium, tmp_path_factory):
    """(report file, Report, layout, DOM) for the demo and for 300 generated pages."""
    out, report = request.getfixturevalue(
        "demo_report" if request.param == "demo" else "large_report"
    )
    layout, dom, console = measure_in_browser(chromium, out, tmp_path_factory.mktemp("render"))
    assert console == []
    return out, report, layout, dom


@pytest.mark.slow
def test_the_rendered_page_and_its_charts_stay_within_bounds(rendered):
    out, report, layout, dom = rendered
    assert out.stat().st_size < MAX_PAGE_BYTES
    assert len(re.findall(r'<figure class="chart"[^>]*>\s*<svg', dom)) == report.charts >= 2
    assert len(layout["charts"]) == report.charts
    page = layout["page"]
    assert page["width"] <= page["window"], "the page scrolls sideways"
    assert page["height"] <= MAX_PAGE_HEIGHT
    for chart in layout["charts"]:
        assert chart["view_box"][2:] == [chart["width"], chart["height"]], chart["id"]
        assert chart["width"] <= min(chart["figure_width"], MAX_CHART_WIDTH), chart["id"]
        assert chart["height"] <= MAX_CHART_HEIGHT, chart["id"]
        assert len(chart["texts"]) > 5, chart["id"]


@pytest.mark.slow
def test_no_chart_text_is_clipped_or_covers_another(rendered):
    _, _, layout, _ = rendered
    for chart in layout["charts"]:
        assert chart["clipped"] == [], chart["id"]
        assert chart["overlapping"] == [], chart["id"]
        # vega writes "…N entries" when a legend cannot hold every entry
        assert not [text for text in chart["texts"] if re.fullmatch(r"…\d+ entries", text)]


@pytest.mark.slow
def test_a_screenshot_shows_every_chart_painted(rendered, chromium, tmp_path):
    """The PNG Chromium paints of the whole page (at half scale): as tall as the page, and
    ink inside each chart's box."""
    out, _, layout, _ = rendered
    height = layout["page"]["height"]
    shot = tmp_path / "page.png"
    browser(
        chromium,
        tmp_path / "profile",
        "--force-device-scale-factor=0.5",
        f"--screenshot={shot}",
        out.as_uri(),
        window=(WINDOW[0], height),
    )
    width, rows, step, pixels = read_png(shot)
    assert width == WINDOW[0] // 2 and abs(rows - height / 2) <= 1
    for chart in layout["charts"]:
        left, top = int(chart["left"] / 2), int(chart["top"] / 2)
        right, bottom = left + int(chart["width"] / 2), top + int(chart["height"] / 2)
        ink = sum(
            1
            for y in range(top, bottom)
            for x in range(left, right)
            if min(pixels[(y * width + x) * step : (y * width + x) * step + 3]) < 160
        )
        assert ink > 0.01 * (right - left) * (bottom - top), chart["id"]


def read_png(path: Path) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, pixels row after row) of an 8-bit, non-interlaced RGB
    or RGBA PNG such as Chromium's screenshots; no imaging library needed."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, compressed, header = 8, [], ()
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompress(b"".join(compressed))
    pixels, previous = bytearray(), bytearray(stride)
    for y in range(height):
        start = y * (stride + 1) + 1
        kind, line = raw[start - 1], bytearray(raw[start : start + stride])
        if kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous, strict=True))
        elif kind:
            for x in range(stride):
                left = line[x - step] if x >= step else 0
                if kind == 1:
                    line[x] = (line[x] + left) & 255
                elif kind == 3:
                    line[x] = (line[x] + ((left + previous[x]) >> 1)) & 255
                else:  # Paeth
                    up, corner = previous[x], previous[x - step] if x >= step else 0
                    guess = left + up - corner
                    nearest = min(
                        (abs(guess - left), 0, left),
                        (abs(guess - up), 1, up),
                        (abs(guess - corner), 2, corner),
                    )[2]
                    line[x] = (line[x] + nearest) & 255
        pixels += line
        previous = line
    return width, height, step, bytes(pixels)


def distinct(warehouse: Path, sql: str) -> int:
    return query.run_sql(warehouse, sql)[1][0][0]


@pytest.mark.slow
def test_at_300_pages_each_chart_keeps_its_cap_and_the_tables_the_rest(
    large_report, large_warehouse
):
    out, report = large_report
    page = out.read_text(encoding="utf-8")
    sections = {section.anchor: section for section in report.sections}
    comparisons = distinct(
        large_warehouse,
        """
        SELECT count(DISTINCT (model_canonical, variant, workload, phase, dataset, item_kind,
                               activation_dtype, weight_dtype))
        FROM comparable_throughput WHERE systems_compared > 1""",
    )
    assert comparisons > TOP_COMPARISONS
    throughput = section_of(page, "throughput")
    assert f"the {TOP_COMPARISONS} of {comparisons} comparisons" in throughput
    assert f"Table: {comparisons} comparisons (the first " in throughput
    assert sections["throughput"].chart_svg.count('role-legend-symbol"') <= SYSTEM_COLOURS + 1
    most_measured = [
        row[0]
        for row in query.run_sql(
            large_warehouse,
            f"""
        SELECT system FROM sdk_progression WHERE metric <> 'eval_metric' GROUP BY system
        ORDER BY count(DISTINCT (model_canonical, variant, workload, phase, dataset,
                                 batch_size_number, activation_dtype, weight_dtype, vendor,
                                 framework_canonical, metric, unit)) DESC, system
        LIMIT {TOP_PLATFORMS}""",
        )[1]
    ]
    panels = re.findall(r"aria-label=\"Title text '([^']*)'", sections["sdk"].chart_svg)
    assert panels == most_measured  # a panel for each of the most measured platforms
    assert f"the {TOP_PLATFORMS} of " in sections["sdk"].intro
    mlperf = sections["mlperf"].chart_svg
    assert mlperf.count('role-legend-symbol"') == TOP_SERIES
    assert f"the {TOP_SERIES} of " in sections["mlperf"].intro
    for anchor in ("throughput", "sdk", "mlperf"):  # long tables are folded and capped, and
        section = section_of(page, anchor)  # say how to list every row
        assert "<details><summary>Table: " in section
        assert f"The first {TABLE_ROWS} of " in section and "perfledger sql" in section
        assert len(table_rows(section)) == TABLE_ROWS


@pytest.mark.slow
def test_report_command_prints_json(demo_warehouse, tmp_path):
    out = tmp_path / "r.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "perfledger",
            "report",
            str(out),
            "--warehouse",
            str(demo_warehouse),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["charts"] == expected_charts(demo_warehouse)
    assert len([line for line in done.stderr.splitlines() if line.strip()]) == 6  # sections
    assert out.exists()
