"""Models a page names nowhere a table's values take them from, and models no catalogue
knows: `perfledger labels` lists both, and `perfledger map-label source|table ... --set
model=...` says which model a page or a table is about. Real pages of ../shared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ALPA = SHARED / "real-pages-2" / "pages" / "alpa_examples_imagenet_README.md"
MPNN = SHARED / "real-pages" / "pages" / "graphcore_examples_tf2_mpnn_README.md"
COLOSSAL = SHARED / "real-pages-2" / "pages" / "colossalai_legacy_pipeline_inference_README.md"


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def rows(warehouse: str, *command: str) -> list[dict]:
    return json.loads(run(*command, "--format", "json", "--warehouse", warehouse))


@pytest.fixture
def pages(tmp_path) -> str:
    if not all(path.is_file() for path in (ALPA, MPNN, COLOSSAL)):
        pytest.skip(f"the real pages of ../shared ({SHARED}) are not here")
    warehouse = str(tmp_path / "warehouse")
    run("ingest", str(ALPA), str(MPNN), str(COLOSSAL), "--warehouse", warehouse, "--quiet")
    return warehouse


def sql(warehouse: str, query: str) -> list[dict]:
    return rows(warehouse, "sql", query)


def test_labels_lists_pages_naming_no_model_and_models_no_catalogue_knows(pages):
    listed = rows(pages, "labels")
    alpa = [row for row in listed if row["kind"] == "source" and row["outcome"] == "no model"]
    assert [(row["label"], row["values"]) for row in alpa] == [
        ("file-alpa_examples_imagenet_README.md", 10)
    ]
    unknown = {row["label"]: row["values"] for row in listed if row["kind"] == "model"}
    assert unknown == {"IPU GIN model": 2, "GIN on leaderboard": 2}  # the MPNN page's rows


def test_a_family_heading_and_a_size_heading_name_the_model(pages):
    found = sql(
        pages,
        "SELECT DISTINCT table_title, model_base, label_sources "
        "FROM measurements WHERE source_url LIKE '%colossalai%'",
    )
    assert {(row["table_title"], row["model_base"]) for row in found} == {
        ("A10 7b, fp16", "LLaMA 7B"),
        ("A10 13b, fp16", "LLaMA 13B"),
        ("A800 7b, fp16", "LLaMA 7B"),
        ("A800 13b, fp16", "LLaMA 13B"),
    }
    assert all("model=heading" in row["label_sources"] for row in found)


def test_map_label_sets_a_pages_model_and_a_tables(pages):
    run(
        "map-label",
        "source",
        "file-alpa_examples_imagenet_README.md",
        "--set",
        "model=ResNet-50",
        "--warehouse",
        pages,
    )
    run(
        "map-label",
        "table",
        "file-graphcore_examples_tf2_mpnn_README.md#0",
        "--set",
        "model=MPNN-GIN",
        "--warehouse",
        pages,
    )
    run("reprocess", "--warehouse", pages)
    alpa = sql(
        pages,
        "SELECT DISTINCT model, model_base, label_sources FROM measurements "
        "WHERE source_id = 'file-alpa_examples_imagenet_README.md'",
    )
    assert {(row["model"], row["model_base"]) for row in alpa} == {("ResNet-50", "ResNet-50")}
    assert all("model=mapping" in row["label_sources"] for row in alpa)
    assert not [row for row in rows(pages, "labels") if row["outcome"] == "no model"]
    walltime = sql(
        pages,
        "SELECT raw_value, workload, metric FROM model_comparison "
        "WHERE model = 'ResNet-50' AND row_label LIKE 'TPU v3-32%' "
        "AND metric = 'time_to_train'",
    )
    assert walltime == [{"raw_value": "2.1h", "workload": "training", "metric": "time_to_train"}]
    # a row naming its model keeps it: the mapping is for values naming none
    mpnn = sql(
        pages,
        "SELECT DISTINCT model FROM measurements "
        "WHERE source_id = 'file-graphcore_examples_tf2_mpnn_README.md'",
    )
    assert {row["model"] for row in mpnn} == {"IPU GIN model", "GIN on leaderboard"}


def test_map_label_refuses_a_field_a_source_cannot_set(tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "map-label",
            "source",
            "file-x",
            "--set",
            "chip=A100",
            "--warehouse",
            str(tmp_path / "warehouse"),
        ],
    )
    assert result.exit_code != 0 and "FIELD among language, model" in result.output
