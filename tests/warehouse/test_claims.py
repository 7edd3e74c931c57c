"""Claims in the warehouse: the claims view, --check against tables, and reviewer decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main
from perfledger.warehouse import query

PAGE = "\n".join(
    [
        "IPU against GPU",
        "",
        "The IPU-M2000 delivers 2.6x higher throughput than the A100 on ResNet-50.",
        "The IPU-M2000 delivers 5x more images per second than the A100 on ResNet-50.",
        "The IPU-M2000 is 5x faster than the A100 for ResNet-50 training.",
        "",
        "Training results",
        "",
        "Model",
        "Platform",
        "Precision",
        "Throughput (items/sec)",
        "ResNet-50 v1.5",
        "IPU-M2000",
        "16.16",
        "7,864",
        "ResNet-50 v1.5",
        "A100",
        "16.16",
        "2,500",
        "",
    ]
)


def cli(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_demo_claims_view_holds_the_mlperf_claim(demo_warehouse):
    rows = query.run_sql(
        demo_warehouse,
        "SELECT subject, baseline, model, metric, ratio, ratio_text, line_number, document_title "
        "FROM claims WHERE source_id = 'graphcore-blog-mlperf-v2' AND ratio_text = '31% faster'",
    )[1]
    assert rows == [
        (
            "Bow Pod16",
            "DGX A100 640GB",
            "ResNet-50",
            "time_to_train",
            1.31,
            "31% faster",
            20,
            "Baidu results underscore big MLPerf gains for Graphcore",
        )
    ]
    (count,) = query.run_sql(demo_warehouse, "SELECT count(*) FROM claims")[1]
    assert count[0] >= 25


def test_claims_are_checked_against_the_measurements_of_both_systems(tmp_path):
    page = tmp_path / "versus.txt"
    page.write_text(PAGE, encoding="utf-8")
    warehouse = str(tmp_path / "wh")
    cli("ingest", str(page), "--warehouse", warehouse, "--quiet")
    checked = json.loads(cli("claims", "--check", "--format", "json", "--warehouse", warehouse))
    verdicts = sorted(
        (c["claimed_ratio"], c["verdict"]) for c in checked if c["metric"] == "throughput"
    )
    assert verdicts == [(2.6, "supported"), (5.0, "contradicted")]
    # "5x faster ... training" has no time-to-train rows of both systems to stand against.
    others = [c for c in checked if c["metric"] != "throughput"]
    assert [(c["claimed_ratio"], c["verdict"]) for c in others] == [(5.0, "not checkable")]
    supported = next(c for c in checked if c["verdict"] == "supported")
    assert supported["measured_ratio"] == 7864 / 2500
    assert (supported["subject_value"], supported["baseline_value"]) == (7864.0, 2500.0)


def test_review_decisions_apply_on_the_next_run_and_survive_reruns(tmp_path):
    page = tmp_path / "versus.txt"
    page.write_text(PAGE, encoding="utf-8")
    warehouse = str(tmp_path / "wh")
    cli("ingest", str(page), "--warehouse", warehouse, "--quiet")
    listed = json.loads(cli("claims", "--format", "json", "--warehouse", warehouse))
    by_ratio = {c["ratio"]: c["claim_id"] for c in listed if c["metric"] == "throughput"}
    cli(
        "review-claim", by_ratio[5.0], "reject", "--note", "no such table", "--warehouse", warehouse
    )
    cli("review-claim", by_ratio[2.6], "correct", "--set", "ratio=3.1", "--warehouse", warehouse)
    cli("reprocess", "--warehouse", warehouse)
    cli("ingest", str(page), "--warehouse", warehouse, "--quiet")
    after = json.loads(cli("claims", "--format", "json", "--warehouse", warehouse))
    assert sorted((c["ratio"], c["review_status"]) for c in after) == [
        (3.1, "corrected"),
        (5.0, "unreviewed"),
    ]
    assert [c["metric"] for c in after if c["ratio"] == 5.0] != ["throughput"]


TURBOQUANT = (
    Path(__file__).resolve().parents[2].parent
    / "shared"
    / "claims-pages"
    / "pages"
    / "redhat_vllm_turboquant.md"
)


@pytest.mark.skipif(not TURBOQUANT.exists(), reason="the shared claims-pages are not present")
def test_claims_of_systems_no_vocabulary_knows_keep_them_and_list_them(tmp_path):
    warehouse = str(tmp_path / "wh")
    cli("ingest", str(TURBOQUANT), "--warehouse", warehouse, "--quiet")
    rows = query.run_sql(
        warehouse,
        "SELECT subject, baseline, ratio, ratio_kind, metric, model, unresolved FROM claims "
        "WHERE line_number = 28 ORDER BY char_start",
    )[1]
    # "FP8 matches BF16 throughput at 2x capacity. TurboQuant variants extend capacity to
    # 2.3-3.7x but at 40-52% throughput reduction."
    assert rows == [
        # the model in the catalogue's name for it (issue 31): resolved, so not listed
        (
            "FP8 KV-cache quantization",
            "BF16",
            1.0,
            "parity",
            "throughput",
            "Qwen3 30B-A3B Instruct",
            "system=FP8 KV-cache quantization; system=BF16",
        ),
        (
            "TurboQuant",
            "BF16",
            0.48,
            "percent_less",
            "throughput",
            "Qwen3 30B-A3B Instruct",
            "system=TurboQuant; system=BF16",
        ),
    ]
    labels = json.loads(cli("labels", "--format", "json", "--warehouse", warehouse))
    claimed = {
        (label["kind"], label["label"]): label["values"]
        for label in labels
        if label["outcome"] == "claimed"
    }
    assert claimed[("system", "FP8 KV-cache quantization")] == 7
    # models the catalogue knows are resolved, and listed no more
    assert not any(kind == "model" and "Llama" in label for kind, label in claimed)
