"""The report's charts across vendors, built on the view model_comparison: each model's best
value per chip (vendor pages and official MLPerf results side by side), and the official
MLPerf Inference results per accelerator."""

from __future__ import annotations

from perfledger.warehouse.model_filter import KEEP_ALL, ModelFilter
from perfledger.warehouse.report import (
    CATEGORY_COLOURS,
    OTHER_COLOUR,
    PLOT_WIDTH,
    ROW_HEIGHT,
    Section,
    chart_spec,
    count_by,
    fetch,
    positive,
    ranked,
    rows_table,
)

TOP_MODEL_COMPARISONS = 4  # panels: the comparisons spanning the most chips and vendors
TOP_CHIPS = 5  # rows of a panel: its best chips
VENDOR_COLOURS = 9  # vendors with a colour of their own, the others grey
PANEL_WIDTH = PLOT_WIDTH  # pixels of a panel's plot; one panel under another
PANEL_COLUMNS = 1
PANEL_LABEL_LIMIT = PLOT_WIDTH  # pixels of a panel's title
CHIP_LABEL_LIMIT = 200  # pixels of a chip's name on a panel's axis
ORIGINS = ("official MLPerf result", "vendor page")

# Each chip's best value per comparison; throughput per accelerator, times as published.
BEST_PER_CHIP = """
SELECT *
FROM model_comparison
WHERE compared_value > 0 AND accelerator IS NOT NULL AND {where}
QUALIFY row_number() OVER (
    PARTITION BY comparison, vendor, accelerator, unit
    ORDER BY ranking NULLS LAST, official DESC, measurement_key) = 1
"""


def models_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    rows = [
        row
        for row in fetch(
            connection,
            BEST_PER_CHIP.format(
                where="metric IN ('throughput', 'time_to_train') AND chips_compared > 1"
            ),
        )
        if keep(row["model"])
    ]
    section = Section(
        "models",
        "Models across vendors and chips",
        "How do the vendors compare on each model, per chip? A panel is one comparison: a "
        "model with the same workload, metric, MLPerf scenario and precision class, measured "
        "on more than one chip (view model_comparison, `perfledger compare MODEL`); a dot is "
        "a chip's best value, throughput per accelerator or time to train, a diamond for "
        "an official MLPerf result, a circle for a vendor's page. Axes are logarithmic; each panel "
        "has its own.",
    )
    return _panels(
        section,
        rows,
        render_svg,
        view="model_comparison",
        empty="No model is measured on two chips yet.",
    )


def mlperf_inference_section(connection, render_svg, keep: ModelFilter = KEEP_ALL) -> Section:
    rows = [
        row
        for row in fetch(
            connection,
            BEST_PER_CHIP.format(
                where="official AND workload = 'inference' AND metric = 'throughput'"
            ),
        )
        if keep(row["model"])
    ]
    section = Section(
        "mlperf-inference",
        "MLPerf Inference per accelerator",
        "The official MLPerf Inference results, per accelerator: a panel per benchmark model, "
        "scenario and accuracy target, a dot per chip (its best system's throughput divided "
        "by its accelerators; a CPU-only system's by its sockets). Axes are logarithmic.",
    )
    return _panels(
        section,
        rows,
        render_svg,
        view="model_comparison WHERE official",
        empty="No official MLPerf Inference results in this warehouse.",
    )


def _panels(section: Section, rows: list[dict], render_svg, view: str, empty: str) -> Section:
    if not rows:
        section.empty_message = empty
        return section
    for row in rows:
        row["chip"] = chip_label(row)
        row["origin"] = ORIGINS[0] if row["official"] else ORIGINS[1]
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["comparison"], []).append(row)
    ordered = sorted(
        groups,
        key=lambda name: (-len({r["vendor"] for r in groups[name]}), -len(groups[name]), name),
    )
    charted = ordered[:TOP_MODEL_COMPARISONS]
    points = []
    for name in charted:
        best = sorted(groups[name], key=lambda row: (row["ranking"] or 0, row["chip"]))
        points += [_point(row) for row in best[:TOP_CHIPS]]
    drawable = [point for point in points if positive(point["value"])]
    vendors = ranked(count_by(drawable, "vendor"))[:VENDOR_COLOURS]
    for point in drawable:
        point["colour"] = point["vendor"] if point["vendor"] in vendors else "other vendors"
    if drawable:
        section.chart_svg = render_svg(panels_spec(drawable, charted, vendors))
    if len(ordered) > len(charted) or any(len(groups[name]) > TOP_CHIPS for name in charted):
        section.intro += (
            f" Drawn: the {len(charted)} of {len(ordered)} comparisons spanning "
            f"the most vendors and chips, and in each its {TOP_CHIPS} best chips; "
            "the table lists every chip of every comparison."
        )
    table = sorted(
        rows, key=lambda row: (ordered.index(row["comparison"]), row["ranking"] or 0, row["chip"])
    )
    section.table = rows_table(
        table,
        [
            "comparison",
            "ranking",
            "vendor",
            "accelerator",
            "accelerator_count",
            "compared_value",
            "unit",
            "batch_size_number",
            "framework_canonical",
            "origin",
            "audited",
            "source_id",
        ],
        view=view,
        what="chips",
    )
    return section


def chip_label(row: dict) -> str:
    """'NVIDIA H100'; a time or a score is the whole system's: 'NVIDIA A100 x8'."""
    label = f"{row['vendor'] or '(no vendor)'} {row['accelerator']}"
    if row["metric"] != "throughput" and row["accelerator_count"]:
        label += f" x{row['accelerator_count']}"
    return label


def _point(row: dict) -> dict:
    return {
        "comparison": row["comparison"],
        "chip": row["chip"],
        "vendor": row["vendor"] or "(no vendor)",
        "value": row["compared_value"],
        "origin": row["origin"],
        "axis": axis_title(row),
    }


def axis_title(row: dict) -> str:
    if row["metric"] == "throughput":
        return f"per accelerator ({row['unit']}, {row['item_kind'] or 'items'})"
    return f"{row['metric'].replace('_', ' ')} ({row['unit']})"


def panels_spec(points: list[dict], comparisons: list[str], vendors: list[str]) -> dict:
    """One panel per comparison, a row per chip, its own axes."""
    domain = [*vendors, "other vendors"]
    return chart_spec(
        points,
        facet={
            "field": "comparison",
            "type": "nominal",
            "sort": comparisons,
            "title": None,
            "header": {
                "labelLimit": PANEL_LABEL_LIMIT,
                "labelAnchor": "start",
                "labelAlign": "left",
            },
        },
        columns=PANEL_COLUMNS,
        spec={
            "width": PANEL_WIDTH,
            "height": {"step": ROW_HEIGHT},
            "mark": {"type": "point", "filled": True, "size": 70, "opacity": 0.9, "aria": False},
            "encoding": {
                "y": {
                    "field": "chip",
                    "type": "nominal",
                    "title": None,
                    "sort": {"field": "value", "op": "max", "order": "descending"},
                    "axis": {"labelLimit": CHIP_LABEL_LIMIT},
                },
                "x": {
                    "field": "value",
                    "type": "quantitative",
                    "scale": {"type": "log"},
                    "title": None,
                    "axis": {"format": "~s", "labelOverlap": "greedy", "labelSeparation": 6},
                },
                "color": {
                    "field": "colour",
                    "type": "nominal",
                    "title": "vendor",
                    "scale": {
                        "domain": domain,
                        "range": [*CATEGORY_COLOURS[: len(vendors)], OTHER_COLOUR],
                    },
                },
                "shape": {
                    "field": "origin",
                    "type": "nominal",
                    "title": None,
                    "scale": {"domain": list(ORIGINS), "range": ["diamond", "circle"]},
                },
            },
        },
        resolve={"scale": {"x": "independent", "y": "independent"}},
    )
