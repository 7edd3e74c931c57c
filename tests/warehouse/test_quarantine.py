"""Quarantine and unresolved labels from the command line, and recovery by reprocessing
the stored pages once perfledger is taught a label."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main
from perfledger.schemas import vocabulary

PAGE = "\n".join(
    [
        "Results",
        "",
        "Model",
        "Platform",
        "Precision",
        "Throughput (items/sec)",
        "ResNet-50 v1.5",
        "Quantum Pod9",
        "16.16",
        "12345",
        "ResNet-50 v1.5",
        "Bow Pod16",
        "16.16",
        "44059",
        "BERT Large",
        "Bow Pod16",
        "16.16",
        "TBD",
        "",
    ]
)


@pytest.fixture
def vocab_copy(tmp_path, monkeypatch):
    folder = tmp_path / "vocab"
    shutil.copytree(vocabulary.VOCAB_DIR, folder)
    monkeypatch.setattr(vocabulary, "VOCAB_DIR", folder)
    return folder


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def as_json(*args):
    return json.loads(run(*args, "--format", "json"))


@pytest.fixture
def ingested(tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    warehouse = str(tmp_path / "wh")
    run("ingest", str(page), "--warehouse", warehouse, "--quiet")
    return warehouse


def values(warehouse):
    return as_json(
        "sql",
        "SELECT platform, system, accelerator, accelerator_count, value, "
        "value_per_accelerator, unresolved FROM measurements ORDER BY value",
        "--warehouse",
        warehouse,
    )


def test_an_unknown_platform_loads_its_value_and_is_listed_until_taught(ingested):
    quantum, bow = values(ingested)
    assert quantum == {
        "platform": "Quantum Pod9",
        "system": "Quantum Pod9",
        "accelerator": "Quantum Pod9",
        "accelerator_count": None,
        "value": 12345.0,
        "value_per_accelerator": None,
        "unresolved": "platform=Quantum Pod9",
    }
    assert bow["system"] == "Bow Pod16" and bow["unresolved"] is None
    assert [q["check"] for q in as_json("quarantine", "--warehouse", ingested)] == [
        "placeholder_value"
    ]
    listed = as_json("labels", "--warehouse", ingested)
    assert [(row["kind"], row["label"], row["outcome"], row["values"]) for row in listed] == [
        ("platform", "Quantum Pod9", "loaded", 1)
    ]

    output = run(
        "map-label",
        "platform",
        "Quantum Pod9",
        "--set",
        "accelerator=Q1",
        "--set",
        "accelerator_count=9",
        "--set",
        "vendor=Quantum",
        "--set",
        "system=Quantum Pod9",
        "--warehouse",
        ingested,
    )
    assert "label-mappings.toml" in output
    output = run("reprocess", "--warehouse", ingested)
    assert "changed 1" in output
    quantum, _ = values(ingested)
    assert quantum == {
        "platform": "Quantum Pod9",
        "system": "Quantum Pod9",
        "accelerator": "Q1",
        "accelerator_count": 9,
        "value": 12345.0,
        "value_per_accelerator": 12345.0 / 9,
        "unresolved": None,
    }
    assert as_json("labels", "--warehouse", ingested) == []


def test_a_chip_added_to_the_vocabulary_resolves_stored_values(ingested, vocab_copy):
    with (vocab_copy / "chips.csv").open("a", encoding="utf-8") as handle:
        handle.write("quantum ?pod ?(\\d+),Quantum,Q1,Quantum Pod$1,$1\n")
    run("reprocess", "--warehouse", ingested)
    quantum, _ = values(ingested)
    assert (quantum["system"], quantum["accelerator"], quantum["accelerator_count"]) == (
        "Quantum Pod9",
        "Q1",
        9,
    )


def test_a_column_mapping_turns_quarantined_numbers_into_values(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Results\n\n| Model | Platform | Precision | Widgets |\n|---|---|---|---|\n"
        "| BERT Large | Bow Pod16 | 16.16 | 900 |\n",
        encoding="utf-8",
    )
    warehouse = str(tmp_path / "wh")
    run("ingest", str(page), "--warehouse", warehouse, "--quiet")
    assert [
        (q["check"], q["raw_value"]) for q in as_json("quarantine", "--warehouse", warehouse)
    ] == [("unknown_metric", "900")]
    assert [
        (row["kind"], row["label"], row["outcome"])
        for row in as_json("labels", "--warehouse", warehouse)
    ] == [("column", "Widgets", "quarantined")]
    run(
        "map-label",
        "column",
        "Widgets",
        "--set",
        "role=throughput",
        "--set",
        "unit=img/s",
        "--warehouse",
        warehouse,
    )
    run("reprocess", "--warehouse", warehouse)
    found = as_json(
        "sql", "SELECT metric, value, unit, item_kind FROM measurements", "--warehouse", warehouse
    )
    assert found == [
        {"metric": "throughput", "value": 900.0, "unit": "items/s", "item_kind": "images"}
    ]
    assert as_json("quarantine", "--warehouse", warehouse) == []


def test_a_mapping_is_refused_with_the_fields_a_kind_takes(tmp_path):
    result = CliRunner().invoke(
        main,
        ["map-label", "platform", "X", "--set", "colour=red", "--warehouse", str(tmp_path / "wh")],
    )
    assert result.exit_code == 2
    assert "accelerator, accelerator_count, vendor, system" in result.output


GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def test_hardware_a_heading_names_is_listed_and_can_be_taught(tmp_path):
    page = GOLDEN / "unknown_hardware_beside_known" / "page.html"
    warehouse = str(tmp_path / "wh")
    run("ingest", str(page), "--warehouse", warehouse, "--quiet")
    labels = as_json("labels", "--warehouse", warehouse)
    listed = {row["label"]: row["values"] for row in labels if row["kind"] == "platform"}
    assert listed == {"8x Zeta-9": 1, "NeoChip X2 (16 chips)": 1}
    # the page names no model for its two values either
    assert [
        (row["kind"], row["outcome"], row["values"]) for row in labels if row["kind"] != "platform"
    ] == [("source", "no model", 2)]

    # The name no vocabulary knows is the value's accelerator until a mapping resolves it.
    found = as_json(
        "sql",
        "SELECT vendor, accelerator, accelerator_count FROM measurements WHERE value = 1234",
        "--warehouse",
        warehouse,
    )
    assert found == [{"vendor": None, "accelerator": "NeoChip X2", "accelerator_count": 16}]

    run(
        "map-label",
        "platform",
        "NeoChip X2 (16 chips)",
        "--set",
        "accelerator=NeoChip X2",
        "--set",
        "accelerator_count=16",
        "--set",
        "vendor=NeoChip",
        "--warehouse",
        warehouse,
    )
    run("reprocess", "--warehouse", warehouse)
    found = as_json(
        "sql",
        "SELECT platform, vendor, accelerator, accelerator_count, value, "
        "value_per_accelerator FROM measurements WHERE value = 1234",
        "--warehouse",
        warehouse,
    )
    assert found == [
        {
            "platform": "NeoChip X2 (16 chips)",
            "vendor": "NeoChip",
            "accelerator": "NeoChip X2",
            "accelerator_count": 16,
            "value": 1234.0,
            "value_per_accelerator": 1234.0 / 16,
        }
    ]
    assert [
        row["label"]
        for row in as_json("labels", "--warehouse", warehouse)
        if row["kind"] == "platform"
    ] == ["8x Zeta-9"]


def test_a_source_language_settles_numbers_that_read_two_ways(tmp_path):
    page = GOLDEN / "no_language_numbers_set_apart" / "page.html"
    warehouse = str(tmp_path / "wh")
    run("ingest", str(page), "--warehouse", warehouse, "--quiet")
    quarantined = [
        row
        for row in as_json("quarantine", "--warehouse", warehouse)
        if row["stage"] == "normalize"
    ]
    assert [(row["check"], row["raw_value"]) for row in quarantined] == [
        ("ambiguous_number", "12,345"),
        ("ambiguous_number", "1,250"),
    ]
    source = quarantined[0]["source_id"]
    assert f"perfledger map-label source {source} --set language=en" in quarantined[0]["reason"]
    assert [
        (row["kind"], row["label"], row["outcome"], row["values"])
        for row in as_json("labels", "--warehouse", warehouse)
    ] == [("source", source, "quarantined", 2)]

    run("map-label", "source", source, "--set", "language=en", "--warehouse", warehouse)
    run("reprocess", "--warehouse", warehouse)
    found = as_json(
        "sql", "SELECT model, value FROM measurements ORDER BY value", "--warehouse", warehouse
    )
    assert found == [
        {"model": "GPT-J 6B", "value": 1250.0},
        {"model": "Llama 2 70B", "value": 12345.0},
    ]
    assert [
        row
        for row in as_json("quarantine", "--warehouse", warehouse)
        if row["stage"] == "normalize"
    ] == []
    refused = CliRunner().invoke(
        main, ["map-label", "source", source, "--set", "language=English", "--warehouse", warehouse]
    )
    assert refused.exit_code != 0 and "language tag" in refused.output
