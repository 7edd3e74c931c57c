"""A self-contained HTML report of one warehouse snapshot, its charts inlined as SVG."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from string import Template

import duckdb

from warehouse import query
from warehouse.dictionary import public_views
from warehouse.export import snapshot_info
from warehouse.query import json_ready

TEMPLATE = Path(__file__).resolve().parent / "report_template.html"
CHART_WIDTH = 520
ROW_HEIGHT = 16
NO_CLAIMS = "No claims in this warehouse."


class ReportError(RuntimeError):
    """The report cannot be rendered; the message says what to install or fix."""


@dataclass
class Section:
    anchor: str
    title: str
    intro: str
    chart_svg: str | None = None
    empty_message: str | None = None
    table: str = ""


@dataclass
class Report:
    html: str
    snapshot_id: int
    snapshot_time: datetime
    sections: list[Section] = field(default_factory=list)

    @property
    def charts(self) -> int:
        return sum(1 for section in self.sections if section.chart_svg)


def write_report(
    warehouse: Path, out: Path, as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> Report:
    report = build_report(warehouse, as_of, progress)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.tmp")
    temporary.write_text(report.html, encoding="utf-8")
    temporary.replace(out)
    return report


def build_report(
    warehouse: Path, as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
) -> Report:
    render_svg = svg_renderer()
    connection = query.open_read_only(warehouse, as_of)
    try:
        snapshot_id, snapshot_time = snapshot_info(connection)
        sections = []
        for build in (throughput_section, sdk_section, mlperf_section, claims_section):
            section = build(connection, render_svg)
            progress(f"{section.title}: {'chart' if section.chart_svg else 'no chart'}")
            sections.append(section)
        summary = summary_html(connection)
    finally:
        connection.close()
    page = Template(TEMPLATE.read_text(encoding="utf-8")).substitute(
        snapshot_id=snapshot_id,
        snapshot_time=_text(snapshot_time.astimezone(UTC).isoformat(timespec="seconds")),
        warehouse=_text(str(Path(warehouse).absolute())),
        generated_at=_text(datetime.now(UTC).isoformat(timespec="seconds")),
        summary=summary,
        toc="\n".join(toc_entry(section) for section in sections),
        sections="\n".join(section_html(section) for section in sections),
    )
    return Report(page, snapshot_id, snapshot_time, sections)


def svg_renderer() -> Callable[[dict], str]:
    """Vega-Lite to SVG offline; data is always inline, so no URL may be fetched."""
    try:
        import vl_convert
    except ImportError as error:
        raise ReportError(
            "`perfledger report` needs the vl-convert-python package to draw charts; "
            "install it into this environment"
        ) from error

    def render(spec: dict) -> str:
        return vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])

    return render


def fetch(connection: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    result = connection.execute(sql)
    columns = [d[0] for d in result.description]
    return [{c: json_ready(v) for c, v in zip(columns, row, strict=True)} for row in result.fetchall()]


def throughput_section(connection, render_svg) -> Section:
    rows = fetch(connection, "SELECT * FROM comparable_throughput WHERE systems_compared > 1")
    section = Section(
        "throughput", "Throughput per accelerator by model and platform",
        "Each dot is one system's best published throughput per accelerator, for models "
        "measured on more than one system with the same variant, workload, dataset and "
        "precision (view comparable_throughput). The axis is logarithmic.",
    )
    if not rows:
        section.empty_message = "No model has comparable throughput on two systems yet."
        return section
    for row in rows:
        row["comparison"] = comparison_label(row)
    groups = len({row["comparison"] for row in rows})
    section.chart_svg = render_svg(throughput_spec(rows, groups))
    return section


def comparison_label(row: dict) -> str:
    # Short, always-present parts first: a long variant or dataset is what gets cut.
    precision = f"{row['activation_dtype']}/{row['weight_dtype']}"
    parts = [row["model_canonical"], row["workload"], precision, row["variant"], row["dataset"]]
    return " · ".join(str(p) for p in parts if p)


def throughput_spec(rows: list[dict], groups: int) -> dict:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": CHART_WIDTH,
        "height": max(groups, 1) * ROW_HEIGHT,
        "data": {"values": rows},
        "mark": {"type": "point", "filled": True, "size": 60},
        "encoding": {
            "y": {"field": "comparison", "type": "nominal", "sort": "ascending",
                  "title": None, "axis": {"labelLimit": 360}},
            "x": {"field": "value_per_accelerator", "type": "quantitative",
                  "scale": {"type": "log"}, "title": "throughput per accelerator (items/s)"},
            "color": {"field": "system", "type": "nominal", "title": "system",
                      "legend": {"labelLimit": 200}},
        },
    }


def sdk_section(connection, render_svg) -> Section:
    rows = fetch(connection, "SELECT * FROM sdk_progression")
    section = Section(
        "sdk", "SDK progression",
        "The same configuration (model, variant, system, framework, dataset, batch size, "
        "precision and metric) across SDK versions, as a ratio to its oldest SDK: above 1 "
        "means a larger number (better for throughput, worse for latency and durations). "
        "View sdk_progression, built from every snapshot's values.",
    )
    if not rows:
        section.empty_message = (
            "No SDK progression in this warehouse yet: no configuration has been published "
            "with more than one SDK version."
        )
        return section
    first_values = {}
    for row in rows:
        row["configuration"] = configuration_label(row)
        first_values.setdefault(row["configuration"], row["value"])
        row["relative_to_first_sdk"] = row["value"] / first_values[row["configuration"]]
    sdk_order = sorted({row["sdk"] for row in rows}, key=sdk_sort_key)
    section.chart_svg = render_svg(sdk_spec(rows, sdk_order))
    section.table = rows_table(
        rows, ["configuration", "sdk", "value", "unit", "pct_change", "improved"]
    )
    return section


def configuration_label(row: dict) -> str:
    parts = [row["system"], row["model_canonical"], row["variant"], row["framework_canonical"],
             row["metric"]]
    batch = f"batch {row['batch_size_number']:g}" if row["batch_size_number"] else None
    return " · ".join(str(p) for p in [*parts, batch] if p)


def sdk_sort_key(sdk: str) -> tuple:
    """'3.10' after '3.9': numbers compare as numbers."""
    return tuple(int(part) for part in re.findall(r"\d+", sdk or "")), sdk or ""


def sdk_spec(rows: list[dict], sdk_order: list[str]) -> dict:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": CHART_WIDTH,
        "height": 260,
        "data": {"values": rows},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "sdk", "type": "ordinal", "sort": sdk_order, "title": "SDK"},
            "y": {"field": "relative_to_first_sdk", "type": "quantitative",
                  "title": "value / value at oldest SDK", "scale": {"zero": False}},
            "color": {"field": "configuration", "type": "nominal",
                      "legend": {"orient": "bottom", "columns": 1, "labelLimit": 600}},
        },
    }


def mlperf_section(connection, render_svg) -> Section:
    rows = fetch(connection, "SELECT * FROM mlperf_results")
    section = Section(
        "mlperf", "MLPerf time to train",
        "Time to train against the number of accelerators, one line per division, model and "
        "framework (view mlperf_results). Both axes are logarithmic.",
    )
    if not rows:
        section.empty_message = "No MLPerf results in this warehouse."
        return section
    for row in rows:
        labels = (row["division"], row["model_canonical"], row["framework_canonical"])
        row["series"] = " · ".join(str(label) for label in labels if label)
    section.chart_svg = render_svg(mlperf_spec(rows))
    section.table = rows_table(rows, [
        "mlperf_id", "division", "model_canonical", "system", "accelerator_count",
        "framework_canonical", "time_to_train_minutes",
    ])
    return section


def mlperf_spec(rows: list[dict]) -> dict:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": CHART_WIDTH,
        "height": 300,
        "data": {"values": rows},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "accelerator_count", "type": "quantitative",
                  "scale": {"type": "log", "base": 2}, "title": "accelerators"},
            "y": {"field": "time_to_train_minutes", "type": "quantitative",
                  "scale": {"type": "log"}, "title": "time to train (minutes)"},
            "color": {"field": "series", "type": "nominal", "title": None,
                      "legend": {"orient": "bottom", "columns": 2, "labelLimit": 300}},
        },
    }


def claims_section(connection, render_svg) -> Section:
    section = Section(
        "claims", "Claims against measured ratios",
        "Each comparative claim that states a ratio, with the ratio the warehouse's own "
        "values give where both systems were measured on the claim's model and metric. "
        "The axis is logarithmic.",
    )
    if "claims" not in public_views(connection):
        section.empty_message = NO_CLAIMS
        return section
    rows = fetch(connection, query.query_text("claims_vs_measured"))
    if not rows:
        section.empty_message = NO_CLAIMS
        return section
    points = claim_points(rows)
    measured = sum(1 for row in rows if row["measured_ratio"] is not None)
    section.intro += (
        f" {len(rows)} claim(s) state a ratio; {measured} can be checked against measured values."
    )
    section.chart_svg = render_svg(claims_spec(points, len(rows)))
    section.table = rows_table(
        rows, ["claim_text", "subject", "baseline", "model", "metric", "claimed_ratio",
               "measured_ratio", "source_id"]
    )
    return section


def claim_points(rows: list[dict]) -> list[dict]:
    """One point for the claimed ratio and, where known, one for the measured ratio."""
    points = []
    for number, row in enumerate(rows, start=1):
        label = (f"#{number} {row['subject'] or '?'} vs {row['baseline'] or '?'} · "
                 f"{row['model'] or 'any model'} · {row['metric']}")
        points.append({"claim": label, "ratio": row["claimed_ratio"], "kind": "claimed"})
        if row["measured_ratio"] is not None and math.isfinite(row["measured_ratio"]):
            points.append({"claim": label, "ratio": row["measured_ratio"], "kind": "measured"})
    return points


def claims_spec(points: list[dict], claims: int) -> dict:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": CHART_WIDTH,
        "height": max(claims, 1) * ROW_HEIGHT,
        "data": {"values": points},
        "mark": {"type": "point", "filled": True, "size": 60},
        "encoding": {
            "y": {"field": "claim", "type": "nominal", "sort": None, "title": None,
                  "axis": {"labelLimit": 360}},
            "x": {"field": "ratio", "type": "quantitative", "scale": {"type": "log"},
                  "title": "ratio (subject over baseline)"},
            "color": {"field": "kind", "type": "nominal", "title": None,
                      "scale": {"domain": ["claimed", "measured"]}},
            "shape": {"field": "kind", "type": "nominal", "title": None,
                      "scale": {"domain": ["claimed", "measured"]}},
        },
    }


def summary_html(connection: duckdb.DuckDBPyConnection) -> str:
    views = public_views(connection)
    counts = {
        "values": "measurements",
        "document versions": "document_versions",
        "quarantined": "quarantine",
        "claims": "claims",
    }
    items = []
    for label, view in counts.items():
        if view in views:
            number = connection.execute(f"SELECT count(*) FROM {view}").fetchone()[0]
            items.append(f"<dt>{_text(label)}</dt><dd>{number}</dd>")
    return '<dl class="summary">' + "".join(items) + "</dl>"


def toc_entry(section: Section) -> str:
    return f'<li><a href="#{section.anchor}">{_text(section.title)}</a></li>'


def section_html(section: Section) -> str:
    parts = [
        f'<section id="{section.anchor}">',
        f"<h2>{_text(section.title)}</h2>",
        f"<p>{_text(section.intro)}</p>",
    ]
    if section.chart_svg:
        parts.append(
            f'<figure class="chart" id="{section.anchor}-chart">{section.chart_svg}</figure>'
        )
    else:
        parts.append(f'<p class="empty">{_text(section.empty_message or "")}</p>')
    parts += [section.table, "</section>"]
    return "\n".join(part for part in parts if part)


def rows_table(rows: list[dict], columns: list[str]) -> str:
    head = "".join(f"<th>{_text(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(table_cell(row.get(c)) for c in columns) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def table_cell(value) -> str:
    if isinstance(value, bool) or value is None:
        return f"<td>{'' if value is None else _text(str(value).lower())}</td>"
    if isinstance(value, int | float):
        return f'<td class="number">{value:.6g}</td>'
    return f"<td>{_text(str(value))}</td>"


def _text(value: str) -> str:
    return html.escape(value, quote=True)
