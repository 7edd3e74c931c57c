"""`perfledger compare MODEL`: one model across vendors and chips, per accelerator."""

from __future__ import annotations

import click

from perfledger.flows.cli_common import (
    fail,
    format_option,
    max_width_option,
    resolve_warehouse,
    warehouse_option,
)
from perfledger.flows.output import render
from perfledger.schemas.model_names import read_model
from perfledger.warehouse import lake, query

METRICS = ("throughput", "latency", "time_to_train", "time_to_result", "accuracy", "loss", "other")
# What a terminal table shows; --format csv or json gives every column of model_comparison.
TABLE_COLUMNS = (
    "model",
    "workload",
    "metric",
    "scenario",
    "precision_class",
    "quality_target",
    "ranking",
    "vendor",
    "accelerator",
    "accelerator_count",
    "compared_value",
    "unit",
    "item_kind",
    "batch_size_number",
    "settings",
    "audited",
    "source_id",
)


def model_identity(typed: str) -> str:
    """The model's identity as the catalogue reads what the user typed ("llama2-70b",
    "Llama-2-70B-chat", "ResNet50 v1.5"), else the text itself."""
    reading = read_model(typed)
    return reading.base if reading.known and reading.base else (reading.family or typed.strip())


@click.command("compare")
@click.argument("model")
@click.option(
    "--metric",
    type=click.Choice(METRICS),
    default=None,
    help="Only this metric (throughput is compared per accelerator).",
)
@click.option(
    "--workload",
    type=click.Choice(("training", "inference")),
    default=None,
    help="Only training or only inference values.",
)
@click.option(
    "--scenario",
    default=None,
    help="Only this MLPerf scenario: Offline, Server, SingleStream, MultiStream.",
)
@click.option(
    "--precision",
    default=None,
    help="Only precision classes naming this (fp8, int8, fp16/bf16...).",
)
@click.option("--vendor", default=None, help="Only this chip maker.")
@click.option("--chip", default=None, help="Only accelerators whose name holds this.")
@click.option(
    "--official/--pages",
    "official",
    default=None,
    help="Only official MLPerf results, or only vendor pages' values.",
)
@click.option("--best", is_flag=True, help="Each chip's best value per comparison only.")
@format_option
@max_width_option
@warehouse_option
def compare(
    model,
    metric,
    workload,
    scenario,
    precision,
    vendor,
    chip,
    official,
    best,
    fmt,
    max_width,
    warehouse,
):
    """How the vendors compare on MODEL: every vendor page's values and the official MLPerf
    results of the model, per accelerator, side by side with their chip, count, precision,
    batch size, scenario, source and whether an audited result backs them (view
    model_comparison). MODEL is read as the catalogue reads names: "llama2-70b-99",
    "Llama 2 70B" and "Llama-2-70b-chat-hf" are one model."""
    parameters = {
        "model": model_identity(model),
        "typed": model.strip(),
        "metric": metric,
        "workload": workload,
        "scenario": scenario,
        "precision": precision,
        "vendor": vendor,
        "chip": chip,
        "official": official,
        "best": best,
    }
    try:
        columns, rows = query.run_query(resolve_warehouse(warehouse), "compare", parameters)
    except lake.WarehouseError as error:
        fail(str(error))
    if fmt == "table":
        picked = [columns.index(name) for name in TABLE_COLUMNS]
        columns = list(TABLE_COLUMNS)
        rows = [[row[index] for index in picked] for row in rows]
    click.echo(render(columns, rows, fmt, max_width))
    if not rows and fmt == "table":
        click.echo(
            f'no values of {parameters["model"]!r}; `perfledger sql "SELECT DISTINCT '
            'model FROM model_comparison"` lists the models compared',
            err=True,
        )


COMMAND = compare
