"""Quarantine from the command line, and recovery by reprocessing stored pages."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from flows.cli import main
from schemas import labels, vocabulary

PAGE = "\n".join([
    "Results", "",
    "Model", "Platform", "Precision", "Throughput (items/sec)",
    "ResNet-50 v1.5", "Quantum Pod9", "16.16", "12,345",
    "ResNet-50 v1.5", "Bow Pod16", "16.16", "44,059",
    "BERT Large", "Bow Pod16", "16.16", "TBD",
    "",
])


@pytest.fixture
def vocab_copy(tmp_path, monkeypatch):
    folder = tmp_path / "vocab"
    shutil.copytree(vocabulary.VOCAB_DIR, folder)
    monkeypatch.setattr(vocabulary, "VOCAB_DIR", folder)
    labels._platform_rules.cache_clear()
    yield folder
    labels._platform_rules.cache_clear()


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_unknown_labels_are_quarantined_then_recovered_after_a_vocabulary_fix(
    tmp_path, vocab_copy
):
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    warehouse = str(tmp_path / "wh")
    run("ingest", str(page), "--warehouse", warehouse, "--quiet")
    quarantined = json.loads(run("quarantine", "--format", "json", "--warehouse", warehouse))
    assert sorted((q["check"], q["raw_value"]) for q in quarantined) == [
        ("placeholder_value", "TBD"), ("unknown_platform", "12,345")]
    reason = next(q["reason"] for q in quarantined if q["check"] == "unknown_platform")
    assert reason == "platform 'Quantum Pod9' is not in schemas/vocab/platforms.csv"

    with (vocab_copy / "platforms.csv").open("a", encoding="utf-8") as handle:
        handle.write("quantumpod(\\d+),Quantum,Quantum Pod$1,Q1,$1\n")
    labels._platform_rules.cache_clear()
    output = run("reprocess", "--warehouse", warehouse)
    assert "values added 1" in output

    values = json.loads(run("sql", "SELECT system, value, value_per_accelerator FROM "
                            "measurements ORDER BY value", "--format", "json",
                            "--warehouse", warehouse))
    assert values == [
        {"system": "Quantum Pod9", "value": 12345.0, "value_per_accelerator": 12345.0 / 9},
        {"system": "Bow Pod16", "value": 44059.0, "value_per_accelerator": 44059.0 / 16},
    ]
    remaining = json.loads(run("quarantine", "--format", "json", "--warehouse", warehouse))
    assert [q["check"] for q in remaining] == ["placeholder_value"]
