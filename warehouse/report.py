"""A self-contained HTML report of one warehouse snapshot, its charts inlined as SVG."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from string import Template

import duckdb

from perfledger.warehouse import query
from perfledger.warehouse.cell_text import number_text
from perfledger.warehouse.claim_check import CLAIM_TOLERANCE, claim_check_parameters
from perfledger.warehouse.dictionary import public_views
from perfledger.warehouse.export import snapshot_info
from perfledger.warehouse.model_filter import KEEP_ALL, ModelFilter
from perfledger.warehouse.query import json_ready
from perfledger.warehouse.single_row import single_value

TEMPLATE = Path(__file__).resolve().parent / "report_template.html"
NO_CLAIMS = "No claims in this warehouse."
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"

# Chart text is laid out by vl-convert with the first of these fonts it finds and drawn by the
# browser with the first it finds. DejaVu Sans (most Linux systems) and Verdana (Windows,
# macOS) are about as wide as each other and wider than the usual sans-serif, so a label
# measured with one fits when drawn with the other, or with a narrower fallback.
CHART_FONT = "DejaVu Sans, Verdana, sans-serif"
# Pixels; a longer label ends in "…" (vega measures it), and the table beside has it whole.
LABEL_LIMIT = 400  # a row's label on the vertical axis
LEGEND_LABEL_LIMIT = 220
ROW_HEIGHT = 20  # pixels per row of a chart with one row per comparison or claim
PLOT_WIDTH = 440

# Marks carry no ARIA description ("aria": False): the table under each chart holds the same
# values for a screen reader, and hundreds of descriptions would triple the page's size.
# Caps that keep every chart legible however many pages were read; what a chart leaves out
# is in the table under it, and the warehouse's view holds all of it.
TOP_COMPARISONS = 25  # throughput: comparisons with the most systems
TOP_SYSTEMS = 5  # throughput: fastest systems per comparison
SYSTEM_COLOURS = 9  # throughput: systems with a colour of their own, the others grey
TOP_PLATFORMS = 6  # SDK progression: platforms with the most configurations, a panel each
TOP_SERIES = 8  # MLPerf: series measured at the most accelerator counts
TOP_CLAIMS = 25  # claims: checked claims charted
TABLE_ROWS = 200  # rows a table shows; the rest are a `perfledger sql` away
OPEN_TABLE_ROWS = 12  # a longer table is folded (<details>) so the page stays short

# As sdk_progression's `improved`: more is better for throughput, less for every other
# metric (latency, times, ranking place); an evaluation metric has no direction.
HIGHER_IS_BETTER = frozenset({"throughput"})
CATEGORY_COLOURS = (
    "#4c78a8",
    "#f58518",
    "#e45756",
    "#72b7b2",
    "#54a24b",
    "#eeca3b",
    "#b279a2",
    "#ff9da6",
    "#9d755d",
)
OTHER_COLOUR = "#b8b8b8"
CHART_CONFIG = {
    "font": CHART_FONT,
    "padding": 8,
    "axis": {"labelFontSize": 11, "titleFontSize": 11, "labelLimit": LABEL_LIMIT},
    "legend": {
        "labelFontSize": 11,
        "titleFontSize": 11,
        "labelLimit": LEGEND_LABEL_LIMIT,
        "orient": "right",
        "columns": 1,
    },
    "header": {"labelFontSize": 12, "labelLimit": 240},
    "view": {"stroke": "#ddd"},
}


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
    warehouse: Path,
    out: Path,
    as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
    models: Sequence[str] = (),
) -> Report:
    report = build_report(warehouse, as_of, progress, models)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.tmp")
    temporary.write_text(report.html, encoding="utf-8")
    temporary.replace(out)
    return report


def build_report(
    warehouse: Path,
    as_of: str | None = None,
    progress: Callable[[str], None] = lambda message: None,
    models: Sequence[str] = (),
) -> Report:
    """`models`: only models whose canonical name contains one of these (any case)."""
    render_svg = svg_renderer()
    keep = ModelFilter(tuple(word.casefold() for word in models if word.strip()))
    connection = query.open_read_only(warehouse, as_of)
    try:
        snapshot_id, snapshot_time = snapshot_info(connection)
        sections = []
        # Built on this module's helpers, the sections across vendors import it.
        from perfledger.warehouse.report_models import mlperf_inference_section, models_section

        for build in (
            models_section,
            throughput_section,
            sdk_section,
            mlperf_section,
            mlperf_inference_section,
            claims_section,
        ):
            section = build(connection, render_svg, keep)
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
        scope=_text(keep.describe()),
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


def fetch(
    connection: duckdb.DuckDBPyConnection, sql: str, parameters: dict | None = None
) -> list[dict]:
    result = connection.execute(sql, parameters)
    columns = [d[0] for d in result.description]
    return [
        {c: json_ready(v) for c, v in zip(columns, row, strict=True)} for row in result.fetchall()
    ]


def chart_spec(values: list[dict], **spec) -> dict:
    return {"$schema": VEGA_LITE_SCHEMA, "config": CHART_CONFIG, "data": {"values": values}, **spec}


def ranked(counts: dict[str, int]) -> list[str]:
    """Names by count, most first, then by name."""
    return sorted(counts, key=lambda name: (-counts[name], name))


def positive(value) -> bool:
    """Drawable on a logarithmic axis."""
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


# ---- throughput -----------------------------------------------------------------------------

COMPARISON_KEY = (
    "model_canonical",
    "variant",
    "workload",
    "phase",
    "dataset",
    "item_kind",
    "activation_dtype",
    "weight_dtype",
)


def throughput_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    rows = with_system(
        row
        for row in fetch(
            connection, "SELECT * FROM comparable_throughput WHERE systems_compared > 1"
        )
        if keep(row["model_canonical"])
    )
    section = Section(
        "throughput",
        "Throughput per accelerator by model and platform",
        "Which system gives the most throughput per accelerator on each model? A row is one "
        "comparison: a model with the same variant, workload, dataset and precision measured "
        "on more than one system (view comparable_throughput); each dot is one system's best "
        "published throughput per accelerator. The axis is logarithmic.",
    )
    if not rows:
        section.empty_message = "No model has comparable throughput on two systems yet."
        return section
    comparisons = group_comparisons(rows)
    charted = sorted(comparisons[:TOP_COMPARISONS], key=by_label)  # a model's rows together
    points = [row for _, systems in charted for row in systems[:TOP_SYSTEMS]]
    colours = ranked(count_by(points, "system"))[:SYSTEM_COLOURS]
    for row in points:
        row["colour"] = row["system"] if row["system"] in colours else "other systems"
    if len(comparisons) > len(charted) or any(len(s) > TOP_SYSTEMS for _, s in charted):
        section.intro += (
            f" Drawn: the {len(charted)} of {len(comparisons)} comparisons with the most "
            f"systems, and in each its {TOP_SYSTEMS} fastest systems; the table lists every "
            "comparison with all its systems."
        )
    else:
        section.intro += " Every comparison and system is drawn; the table lists them too."
    section.chart_svg = render_svg(
        throughput_spec(points, [label for label, _ in charted], colours)
    )
    drawn = {label for label, _ in charted}
    section.table = rows_table(
        [
            comparison_summary(label, systems, label in drawn)
            for label, systems in sorted(comparisons, key=by_label)
        ],
        [
            "comparison",
            "drawn",
            "systems",
            "fastest system",
            "per accelerator",
            "unit",
            "other systems (ratio to the fastest)",
        ],
        view="comparable_throughput",
        what="comparisons",
    )
    return section


by_label = itemgetter(0)


def with_system(rows) -> list[dict]:
    """The rows, a system the page did not name shown as such (it sorts and colours)."""
    rows = list(rows)
    for row in rows:
        row["system"] = row["system"] or "(no system)"
    return rows


def count_by(rows: list[dict], column: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row[column]] = counts.get(row[column], 0) + 1
    return counts


def group_comparisons(rows: list[dict]) -> list[tuple[str, list[dict]]]:
    """Each comparison's label and its systems, fastest first; the comparisons with the most
    systems first. Labels are unique: a second comparison with the same one is numbered."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(tuple(row[column] for column in COMPARISON_KEY), []).append(row)
    ordered = sorted(
        groups.values(), key=lambda systems: (-len(systems), comparison_label(systems[0]))
    )
    labelled, seen = [], {}
    for systems in ordered:
        label = comparison_label(systems[0])
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} ({seen[label]})"
        systems.sort(key=lambda row: (-row["value_per_accelerator"], row["system"]))
        for row in systems:
            row["comparison"] = label
        labelled.append((label, systems))
    return labelled


def comparison_label(row: dict) -> str:
    precision = f"{row['activation_dtype']}/{row['weight_dtype']}"
    # The phase only where no variant names it ("Ph1 Pre-Training" is pre-training phase 1).
    phase = None if row["variant"] else row["phase"]
    parts = [
        row["model_canonical"],
        row["variant"],
        phase,
        row["workload"],
        precision,
        row["dataset"],
    ]
    return " · ".join(str(p) for p in parts if p)


def comparison_summary(label: str, systems: list[dict], drawn: bool) -> dict:
    best = systems[0]
    others = ", ".join(f"{row['system']} {row['ratio_to_best']:.2f}" for row in systems[1:])
    return {
        "comparison": label,
        "drawn": "yes" if drawn else "",
        "systems": len(systems),
        "fastest system": best["system"],
        "per accelerator": best["value_per_accelerator"],
        "unit": best["unit"],
        "other systems (ratio to the fastest)": others,
    }


def throughput_spec(points: list[dict], comparisons: list[str], colours: list[str]) -> dict:
    domain = [*colours, "other systems"]
    return chart_spec(
        points,
        width=PLOT_WIDTH,
        height=max(len(comparisons), 1) * ROW_HEIGHT,
        mark={"type": "point", "filled": True, "size": 70, "opacity": 0.9, "aria": False},
        encoding={
            "y": {"field": "comparison", "type": "nominal", "sort": comparisons, "title": None},
            "x": {
                "field": "value_per_accelerator",
                "type": "quantitative",
                "scale": {"type": "log"},
                "title": "throughput per accelerator (items/s)",
            },
            "color": {
                "field": "colour",
                "type": "nominal",
                "title": "system",
                "scale": {
                    "domain": domain,
                    "range": [*CATEGORY_COLOURS[: len(colours)], OTHER_COLOUR],
                },
            },
        },
    )


# ---- SDK progression ------------------------------------------------------------------------

CONFIGURATION_KEY = (
    "model_canonical",
    "variant",
    "workload",
    "phase",
    "dataset",
    "batch_size_number",
    "activation_dtype",
    "weight_dtype",
    "vendor",
    "system",
    "framework_canonical",
    "metric",
    "unit",
)


def sdk_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    rows = with_system(
        row
        for row in fetch(connection, "SELECT * FROM sdk_progression")
        if keep(row["model_canonical"])
    )
    section = Section(
        "sdk",
        "SDK progression",
        "Did newer SDKs make the same configuration faster? A configuration is a model, "
        "variant, system, framework, dataset, batch size, precision and metric published with "
        "more than one SDK version (view sdk_progression, built from every snapshot's values). "
        "Each line is one configuration, as its value against the one at its oldest SDK, "
        "turned so that above 1 is better (more throughput; less latency, time or place); "
        "one panel per platform. The vertical axis is logarithmic.",
    )
    if not rows:
        section.empty_message = (
            "No SDK progression in this warehouse yet: no configuration has been published "
            "with more than one SDK version."
        )
        return section
    configurations = group_configurations(rows)
    drawable = [
        steps
        for steps in configurations
        if steps[0]["metric"] != "eval_metric" and all(positive(row["value"]) for row in steps)
    ]
    platforms = ranked(count_by([steps[0] for steps in drawable], "system"))
    charted = platforms[:TOP_PLATFORMS]
    if charted:
        points = [
            {
                "system": row["system"],
                "line": row["line"],
                "metric": row["metric"],
                "sdk": row["sdk"],
                "better": row["better"],
            }
            for steps in drawable
            if steps[0]["system"] in charted
            for row in steps
        ]
        sdk_order = sorted({row["sdk"] for row in points}, key=sdk_sort_key)
        section.chart_svg = render_svg(sdk_spec(points, charted, sdk_order))
        section.intro += (
            f" Drawn: the {len(charted)} of {len(platforms)} platforms with the most "
            "configurations; the table lists every configuration."
            if len(platforms) > len(charted)
            else " The table lists every configuration."
        )
    else:
        section.empty_message = (
            "No SDK progression can be drawn: every configuration's metric is an evaluation "
            "metric, with no better direction, or a value is not above zero. The table lists "
            "them."
        )
    order = {platform: index for index, platform in enumerate(platforms)}
    configurations.sort(
        key=lambda steps: (order.get(steps[0]["system"], len(order)), steps[0]["configuration"])
    )
    section.table = rows_table(
        [configuration_summary(steps) for steps in configurations],
        [
            "configuration",
            "metric",
            "unit",
            "SDKs",
            "oldest SDK's value",
            "newest SDK's value",
            "newest against oldest (above 1: better)",
        ],
        view="sdk_progression",
        what="configurations",
    )
    return section


def group_configurations(rows: list[dict]) -> list[list[dict]]:
    """Each configuration's steps, oldest SDK first, with its label and, where both values
    can be drawn, `better`: the value against the oldest one, above 1 when it improved."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(tuple(row[column] for column in CONFIGURATION_KEY), []).append(row)
    for line, steps in enumerate(groups.values()):
        steps.sort(key=lambda row: row["sdk_step"])
        first = steps[0]["value"]
        label = configuration_label(steps[0])
        for row in steps:
            row["configuration"], row["line"] = label, line
            row["better"] = improvement(row["metric"], first, row["value"])
    return list(groups.values())


def improvement(metric: str, first, value) -> float | None:
    if metric == "eval_metric" or not (positive(first) and positive(value)):
        return None
    return value / first if metric in HIGHER_IS_BETTER else first / value


def configuration_label(row: dict) -> str:
    precision = (
        f"{row['activation_dtype']}/{row['weight_dtype']}"
        if row["activation_dtype"] or row["weight_dtype"]
        else None
    )
    parts = [
        row["system"],
        row["model_canonical"],
        row["variant"],
        row["workload"],
        row["phase"],
        row["framework_canonical"],
        row["dataset"],
        precision,
    ]
    batch = f"batch {row['batch_size_number']:g}" if row["batch_size_number"] else None
    return " · ".join(str(p) for p in [*parts, batch] if p)


def configuration_summary(steps: list[dict]) -> dict:
    first, last = steps[0], steps[-1]
    return {
        "configuration": first["configuration"],
        "metric": first["metric"],
        "unit": first["unit"],
        "SDKs": " → ".join(str(row["sdk"]) for row in steps),
        "oldest SDK's value": first["value"],
        "newest SDK's value": last["value"],
        "newest against oldest (above 1: better)": significant(last["better"]),
    }


def significant(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else float(f"{value:.{digits}g}")


def sdk_sort_key(sdk: str) -> tuple:
    """'3.10' after '3.9': numbers compare as numbers."""
    return tuple(int(part) for part in re.findall(r"\d+", sdk or "")), sdk or ""


def sdk_spec(points: list[dict], platforms: list[str], sdk_order: list[str]) -> dict:
    metrics = sorted({row["metric"] for row in points})
    return chart_spec(
        points,
        facet={"field": "system", "type": "nominal", "sort": platforms, "title": None},
        columns=3,
        spec={
            "width": 230,
            "height": 150,
            "mark": {"type": "line", "strokeWidth": 1.2, "opacity": 0.7, "aria": False},
            "encoding": {
                "x": {
                    "field": "sdk",
                    "type": "ordinal",
                    "sort": sdk_order,
                    "title": "SDK",
                    "axis": {"labelAngle": -45},
                },
                "y": {
                    "field": "better",
                    "type": "quantitative",
                    "scale": {"type": "log"},
                    "title": "× oldest SDK (above 1: better)",
                },
                "color": {
                    "field": "metric",
                    "type": "nominal",
                    "title": "metric",
                    "scale": {"domain": metrics, "range": list(CATEGORY_COLOURS[: len(metrics)])},
                },
                "detail": {"field": "line", "type": "nominal"},
            },
        },
        resolve={"scale": {"x": "independent"}},
    )


# ---- MLPerf ---------------------------------------------------------------------------------


def mlperf_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    rows = [
        row
        for row in fetch(connection, "SELECT * FROM mlperf_results")
        if keep(row["model_canonical"])
    ]
    section = Section(
        "mlperf",
        "MLPerf time to train",
        "How does time to train fall as accelerators are added? One line per division, model "
        "and framework through its best time at each accelerator count, a dot per result "
        "(view mlperf_results). Both axes are logarithmic.",
    )
    if not rows:
        section.empty_message = "No MLPerf results in this warehouse."
        return section
    for row in rows:
        labels = (row["division"], row["model_canonical"], row["framework_canonical"])
        row["series"] = " · ".join(str(label) for label in labels if label)
    drawable = [
        row
        for row in rows
        if positive(row["accelerator_count"]) and positive(row["time_to_train_minutes"])
    ]
    counts = {
        series: len({row["accelerator_count"] for row in drawable if row["series"] == series})
        for series in {row["series"] for row in drawable}
    }
    series = ranked(counts)
    charted = series[:TOP_SERIES]
    if charted:
        points = [
            {
                "series": row["series"],
                "accelerator_count": row["accelerator_count"],
                "time_to_train_minutes": row["time_to_train_minutes"],
            }
            for row in drawable
            if row["series"] in charted
        ]
        section.chart_svg = render_svg(mlperf_spec(points, charted))
        if len(series) > len(charted):
            section.intro += (
                f" Drawn: the {len(charted)} of {len(series)} series measured "
                "at the most accelerator counts; the table lists every result."
            )
    rank = {name: index for index, name in enumerate(series)}
    rows.sort(
        key=lambda row: (
            rank.get(row["series"], len(rank)),
            row["accelerator_count"] or 0,
            row["system"] or "",
        )
    )
    section.table = rows_table(
        rows,
        [
            "mlperf_id",
            "division",
            "model_canonical",
            "system",
            "accelerator_count",
            "framework_canonical",
            "time_to_train_minutes",
        ],
        view="mlperf_results",
        what="results",
    )
    return section


def mlperf_spec(points: list[dict], series: list[str]) -> dict:
    colour = {
        "field": "series",
        "type": "nominal",
        "title": None,
        "scale": {"domain": series, "range": list(CATEGORY_COLOURS[: len(series)])},
    }
    x = {
        "field": "accelerator_count",
        "type": "quantitative",
        "scale": {"type": "log", "base": 2},
        "title": "accelerators",
    }
    return chart_spec(
        points,
        width=PLOT_WIDTH,
        height=300,
        layer=[
            {
                "mark": {"type": "line", "aria": False},
                "encoding": {
                    "x": x,
                    "color": colour,
                    "y": {
                        "field": "time_to_train_minutes",
                        "aggregate": "min",
                        "type": "quantitative",
                        "scale": {"type": "log"},
                        "title": "time to train (minutes)",
                    },
                },
            },
            {
                "mark": {"type": "point", "filled": True, "size": 40, "aria": False},
                "encoding": {
                    "x": x,
                    "color": colour,
                    "y": {"field": "time_to_train_minutes", "type": "quantitative"},
                },
            },
        ],
    )


# ---- claims ---------------------------------------------------------------------------------

VERDICTS = ("supported", "contradicted", "not checkable")
CLAIM_POINTS = ("claimed", "measured: supported", "measured: contradicted")


def claims_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    section = Section(
        "claims",
        "Claims against measured ratios",
        "Do the vendors' comparative claims hold against the warehouse's own measurements? "
        "Each claim has the verdict of perfledger claims --check: supported when the ratio "
        "of both systems' best measured values on the claim's model and metric is at most "
        f"{CLAIM_TOLERANCE:.0%} below the claimed one, contradicted when further below, not "
        "checkable without a number or measurements of both systems.",
    )
    if "claims" not in public_views(connection):
        section.empty_message = NO_CLAIMS
        return section
    rows = [row for row in claim_verdicts(connection) if keep(row["model"])]
    if not rows:
        section.empty_message = NO_CLAIMS
        return section
    counts = count_by(rows, "verdict")
    named = [verdict for verdict in VERDICTS if verdict in counts]
    named += sorted(set(counts) - set(VERDICTS))
    section.intro += (
        f" {len(rows)} claim(s): "
        + ", ".join(f"{counts[verdict]} {verdict}" for verdict in named)
        + "."
    )
    checked = [
        row for row in rows if positive(row["measured_ratio"]) and positive(row["claimed_ratio"])
    ]
    for number, row in enumerate(checked, start=1):
        row["chart"] = f"#{number}" if number <= TOP_CLAIMS else ""
    if checked:
        charted = checked[:TOP_CLAIMS]
        section.chart_svg = render_svg(claims_spec(claim_points(charted), len(charted)))
        section.intro += (
            " The chart sets each checked claim's ratio beside the measured "
            "one; the axis is logarithmic."
        )
        if len(checked) > len(charted):
            section.intro += f" Drawn: the first {len(charted)} of {len(checked)} checked claims."
    else:
        section.empty_message = (
            "No claim can be checked: none states a ratio between two systems the warehouse "
            "has measured on the claim's model and metric. The table says why for each."
        )
    section.table = rows_table(
        rows,
        [
            "chart",
            "verdict",
            "subject",
            "baseline",
            "model",
            "metric",
            "claimed_ratio",
            "measured_ratio",
            "explanation",
            "sentence",
            "source_id",
        ],
        view="claims",
        what="claims",
        everything="perfledger claims --check",
    )
    return section


def claim_verdicts(connection: duckdb.DuckDBPyConnection) -> list[dict]:
    """Every claim with its verdict: the query of `perfledger claims --check`."""
    return fetch(connection, query.query_text("claim_check"), claim_check_parameters())


def claim_label(row: dict) -> str:
    return (
        f"{row['chart']} {row['subject']} vs {row['baseline']} · "
        f"{row['model'] or 'any model'} · {row['metric']}"
    )


def claim_points(rows: list[dict]) -> list[dict]:
    """One point for the claimed ratio and one for the measured ratio, named by verdict."""
    points = []
    for row in rows:
        label = claim_label(row)
        points.append({"claim": label, "ratio": row["claimed_ratio"], "kind": "claimed"})
        points.append(
            {"claim": label, "ratio": row["measured_ratio"], "kind": f"measured: {row['verdict']}"}
        )
    return points


def claims_spec(points: list[dict], claims: int) -> dict:
    kinds = [*CLAIM_POINTS, *sorted({p["kind"] for p in points} - set(CLAIM_POINTS))]
    return chart_spec(
        points,
        width=PLOT_WIDTH,
        height=max(claims, 1) * ROW_HEIGHT,
        mark={"type": "point", "filled": True, "size": 70, "aria": False},
        encoding={
            "y": {"field": "claim", "type": "nominal", "sort": None, "title": None},
            "x": {
                "field": "ratio",
                "type": "quantitative",
                "scale": {"type": "log"},
                "title": "ratio (subject over baseline)",
            },
            "color": {
                "field": "kind",
                "type": "nominal",
                "title": None,
                "scale": {
                    "domain": kinds,
                    "range": ["#555555", "#54a24b", "#e45756", "#b279a2"][: len(kinds)],
                },
            },
            "shape": {
                "field": "kind",
                "type": "nominal",
                "title": None,
                "scale": {
                    "domain": kinds,
                    "range": ["diamond", "circle", "circle", "square"][: len(kinds)],
                },
            },
        },
    )


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
            number = single_value(connection.execute(f"SELECT count(*) FROM {view}"))
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


def rows_table(
    rows: list[dict],
    columns: list[str],
    view: str | None = None,
    what: str = "rows",
    everything: str | None = None,
) -> str:
    """The first TABLE_ROWS rows, with the command that lists all when there are more; folded
    into a <details> when longer than OPEN_TABLE_ROWS, so the page stays short."""
    shown = rows[:TABLE_ROWS]
    head = "".join(f"<th>{_text(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(table_cell(row.get(c)) for c in columns) + "</tr>" for row in shown
    )
    table = (
        f'<div class="table"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )
    command = everything or (f'perfledger sql "SELECT * FROM {view}"' if view else None)
    if len(rows) > len(shown):
        more = f"The first {len(shown)} of {len(rows)} {what}"
        table += (
            f'<p class="more">{_text(more)}; <code>{_text(command)}</code> lists all.</p>'
            if command
            else f'<p class="more">{_text(more)}.</p>'
        )
    if len(rows) <= OPEN_TABLE_ROWS:
        return table
    summary = f"Table: {len(rows)} {what}" + (
        f" (the first {len(shown)} shown)" if len(rows) > len(shown) else ""
    )
    return f"<details><summary>{_text(summary)}</summary>{table}</details>"


def table_cell(value) -> str:
    if isinstance(value, bool) or value is None:
        return f"<td>{'' if value is None else _text(str(value).lower())}</td>"
    if isinstance(value, int | float):
        return f'<td class="number">{number_text(value)}</td>'
    return f"<td>{_text(str(value))}</td>"


def _text(value: str) -> str:
    return html.escape(value, quote=True)
