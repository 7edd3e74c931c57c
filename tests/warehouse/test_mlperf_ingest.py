"""MLPerf results trees through `perfledger ingest`: archived, scored, reconciled, and used by
`perfledger claims --check` against another vendor's official record."""

from __future__ import annotations

import itertools
import json
import shutil
import time

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.warehouse import query
from tests.conftest import PROJECT_ROOT

ACME = PROJECT_ROOT / "tests" / "fixtures" / "mlperf" / "training_results_v2.0"
SHARED = PROJECT_ROOT.parent / "shared" / "mlperf"


def cli(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_each_system_and_benchmark_of_a_tree_is_a_document_read_back_from_the_archive(warehouse):
    first = pipeline.ingest([str(ACME)], warehouse)
    assert first.count_status("new") == 2
    official = query.run_sql(
        warehouse,
        "SELECT source_id, source_url, system, metric, unit, value FROM measurements "
        "ORDER BY system",
    )[1]
    # the fixture's scores: 10.5 and 15.5 minutes (see tests/sources/test_mlperf.py)
    repository = "https://github.com/mlcommons/training_results_v2.0/tree/main/Acme/results"
    assert official == [
        (
            "mlperf-training-v2.0/Acme/pod16-tf-closed/resnet",
            f"{repository}/pod16-tf-closed/resnet",
            "Bow Pod16",
            "time_to_train",
            "s",
            630.0,
        ),
        (
            "mlperf-training-v2.0/Acme/dgxa100_test_mxnet/resnet",
            f"{repository}/dgxa100_test_mxnet/resnet",
            "DGX A100",
            "time_to_train",
            "s",
            930.0,
        ),
    ]
    again = pipeline.ingest([str(ACME)], warehouse)
    assert again.count_status("unchanged") == 2
    reread = pipeline.reprocess(warehouse)
    assert reread.count_status("new") == 2
    assert reread.total("values_changed") == 0
    assert query.run_sql(warehouse, "SELECT count(*) FROM mlperf_official")[1][0][0] == 2


def _copy_tree(tmp_path, name="training_results_v2.0"):
    copy = tmp_path / name
    shutil.copytree(ACME, copy)
    return copy


def test_a_fixed_result_file_re_reads_its_own_unit_only(tmp_path, warehouse):
    tree = _copy_tree(tmp_path)
    pipeline.ingest([str(tree)], warehouse)
    log = tree / "Acme" / "results" / "pod16-tf-closed" / "resnet" / "result_0.txt"
    log.write_text(log.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = pipeline.ingest([str(tree)], warehouse)
    assert sorted(d.status for run in again.runs for d in run.documents) == ["new", "unchanged"]
    (changed,) = [d.source_id for run in again.runs for d in run.documents if d.status == "new"]
    assert changed == "mlperf-training-v2.0/Acme/pod16-tf-closed/resnet"


def test_a_submitter_folder_ingested_later_adds_to_the_round(tmp_path, warehouse):
    tree = _copy_tree(tmp_path)
    other = tmp_path / "second" / "training_results_v2.0"
    other.mkdir(parents=True)
    (tree / "Acme").rename(other / "Acme")
    # Two submitters of one round, ingested one folder at a time.
    shutil.copytree(other / "Acme", tree / "Zenith")
    shutil.rmtree(tree / "Zenith" / "results" / "dgxa100_test_mxnet")
    pipeline.ingest([str(other / "Acme")], warehouse)
    pipeline.ingest([str(tree / "Zenith")], warehouse)
    rows = query.run_sql(
        warehouse,
        "SELECT submitter, system, score_minutes FROM mlperf_official ORDER BY submitter, system",
    )[1]
    assert rows == [
        ("Acme", "Bow Pod16", 10.5),
        ("Acme", "DGX A100", 15.5),
        ("Zenith", "Bow Pod16", 10.5),
    ]


def test_the_round_comes_from_the_option_when_no_folder_or_log_names_it(tmp_path):
    """Without a round nothing can be scored: one message says so and names --round, and
    nothing is ingested (before: a quarantine row per unit, each naming a temporary
    folder)."""
    plain = tmp_path / "checkout"
    shutil.copytree(ACME / "Acme", plain / "Acme")
    warehouse = str(tmp_path / "wh")
    result = CliRunner().invoke(
        main, ["ingest", str(plain / "Acme"), "--warehouse", warehouse, "--quiet"]
    )
    assert result.exit_code == 2
    assert result.output == (
        f"error: 2 of the 2 units of the MLPerf training results tree at {plain / 'Acme'} "
        "name no round: their logs do not state it and no folder of the path is named after "
        "one (training_results_v4.0); give it with `perfledger ingest "
        f"{plain / 'Acme'} --round X.Y`; nothing was ingested\n"
    )
    cli("ingest", str(plain / "Acme"), "--round", "2.0", "--warehouse", warehouse, "--quiet")
    scores = query.run_sql(
        tmp_path / "wh", "SELECT source_id, value FROM measurements ORDER BY value"
    )[1]
    assert scores == [
        ("mlperf-training-v2.0/Acme/pod16-tf-closed/resnet", 630.0),
        ("mlperf-training-v2.0/Acme/dgxa100_test_mxnet/resnet", 930.0),
    ]


def test_a_file_over_the_size_budget_is_archived_and_reported_and_the_rest_is_read(
    tmp_path, warehouse, monkeypatch
):
    tree = _copy_tree(tmp_path)
    big = tree / "Acme" / "results" / "pod16-tf-closed" / "resnet" / "result_4.txt"
    largest_other = max(f.stat().st_size for f in tree.rglob("*.*") if f != big)
    big.write_text(big.read_text(encoding="utf-8") + "\n" * largest_other, encoding="utf-8")
    size = big.stat().st_size
    monkeypatch.setenv("PERFLEDGER_MAX_DOCUMENT_BYTES", str(size - 1))
    pipeline.ingest([str(tree)], warehouse)
    (row,) = query.run_sql(
        warehouse, 'SELECT "check", reason FROM quarantine WHERE "check" = \'over_budget\''
    )[1]
    assert "result_4.txt" in row[1] and f"{size:,} bytes" in row[1]
    scores = dict(query.run_sql(warehouse, "SELECT system_id, runs_found FROM mlperf_official")[1])
    # The other system's five runs all fit; this one's fifth is kept aside, not guessed.
    assert scores == {"pod16-tf-closed": 4, "dgxa100_test_mxnet": 5}


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_the_blog_claim_is_checked_against_the_official_mlperf_record(tmp_path):
    warehouse = str(tmp_path / "wh")
    cli("ingest", "--warehouse", warehouse, "--quiet")
    output = cli("ingest", str(SHARED / "training_v2.0"), "--warehouse", warehouse)
    assert "values added:        17" in output
    checked = json.loads(cli("claims", "--check", "--format", "json", "--warehouse", warehouse))
    (claim,) = [c for c in checked if c["verdict"] != "not checkable"]
    assert (claim["subject"], claim["baseline"], claim["claimed_ratio"]) == (
        "Bow Pod16",
        "DGX A100 640GB",
        1.31,
    )
    # Official scores: mean of the middle runs, 1,721,122.67 ms (DGX A100) and
    # 1,178,109.33 ms (Bow Pod16); the page's own 19.64 min is the larger of the two Bow rows.
    assert claim["baseline_value"] == pytest.approx(1721.1226667)
    assert claim["subject_value"] == pytest.approx(1178.1093333)
    assert claim["measured_ratio"] == pytest.approx(1.460919, abs=1e-6)
    assert claim["verdict"] == "supported"
    reconciled = json.loads(cli("reconcile", "--format", "json", "--warehouse", warehouse))
    assert [row["verdict"] for row in reconciled] == ["matches"] * 11
    assert all(row["pairing_rule"].startswith("round (from the ") for row in reconciled)


INFERENCE = SHARED / "inference_v4.1" / "closed"
VENDOR_INFERENCE_PAGE = """<html lang="en"><head><title>AMD Instinct MI300X in MLPerf Inference
v4.1</title></head><body><h1>AMD Instinct MI300X in MLPerf Inference v4.1</h1>
<h2>8x AMD Instinct MI300X</h2><table>
<tr><th>Model</th><th>Scenario</th><th>Throughput (tokens/s)</th></tr>
<tr><td>Llama 2 70B</td><td>Offline</td><td>23,514.8</td></tr>
<tr><td>Llama 2 70B</td><td>Server</td><td>21,500</td></tr>
</table></body></html>"""


@pytest.mark.skipif(
    not INFERENCE.is_dir(), reason="the shared MLPerf Inference v4.1 subset is not present"
)
def test_inference_results_load_and_a_vendor_page_reconciles_against_them(tmp_path):
    warehouse = str(tmp_path / "wh")
    output = cli("ingest", str(INFERENCE / "AMD"), "--warehouse", warehouse)
    # 3 systems x llama2-70b-99/-99.9 x Offline/Server
    assert "values added:        12" in output
    official = query.run_sql(
        tmp_path / "wh",
        """
        SELECT accuracy_target, scenario, metric, value, unit, value_per_accelerator
        FROM mlperf_inference_official
        WHERE system_id = '8xMI300X_2xEPYC-9374F' AND accuracy_target = '99'
        ORDER BY scenario""",
    )[1]
    assert official == [
        ("99", "Offline", "tokens_per_second", 23514.8, "tokens/s", 23514.8 / 8),
        ("99", "Server", "completed_tokens_per_second", 21028.2, "tokens/s", 21028.2 / 8),
    ]
    page = tmp_path / "amd-mlperf-inference.html"
    page.write_text(VENDOR_INFERENCE_PAGE, encoding="utf-8")
    cli("ingest", str(page), "--warehouse", warehouse, "--quiet")
    reconciled = json.loads(cli("reconcile", "--format", "json", "--warehouse", warehouse))
    rows = {row["scenario"]: row for row in reconciled if row["kind"] == "inference"}
    assert set(rows) == {"Offline", "Server"}
    assert (rows["Offline"]["official_value"], rows["Offline"]["verdict"]) == (23514.8, "matches")
    assert (rows["Server"]["official_value"], rows["Server"]["verdict"]) == (21028.2, "differs")
    assert rows["Server"]["difference_pct"] == pytest.approx(100 * (21500 / 21028.2 - 1), abs=1e-3)
    assert rows["Offline"]["official_system_id"] == "8xMI300X_2xEPYC-9374F"
    assert rows["Offline"]["pairing_rule"].startswith(
        "model, accelerator and its count, metric and unit equal, scenario equal, round equal"
    )


def test_a_unit_fixed_within_the_second_of_its_last_read_is_the_newer_version(
    tmp_path, warehouse, monkeypatch
):
    """Both reads within one second (a clock that moves a microsecond a call): the fixed
    unit is read as new, not as an older version of itself."""
    moments = itertools.count()
    monkeypatch.setattr(time, "time", lambda: 1_795_885_000 + next(moments) / 1_000_000)
    tree = _copy_tree(tmp_path)
    pipeline.ingest([str(tree)], warehouse)
    log = tree / "Acme" / "results" / "pod16-tf-closed" / "resnet" / "result_0.txt"
    log.write_text(log.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = pipeline.ingest([str(tree)], warehouse)
    assert next(moments) < 1_000_000  # still within the first second
    assert sorted(d.status for run in again.runs for d in run.documents) == ["new", "unchanged"]


@pytest.mark.skipif(
    not (SHARED.is_dir() and INFERENCE.is_dir()), reason="the shared MLPerf subsets are not present"
)
def test_reprocess_keeps_the_official_values_of_real_results_trees(tmp_path):
    """`perfledger reprocess` (which the README says to run after `map-label`) re-reads
    each unit as a results tree: before, it read the manifests as pages and removed every
    official value, which a later ingest of the unchanged trees never brought back."""
    warehouse = tmp_path / "wh"
    trees = [str(SHARED / "training_v2.0" / "Graphcore"), str(INFERENCE / "AMD")]
    pipeline.ingest(trees, warehouse)
    values = "SELECT source_id, metric, value FROM measurements ORDER BY ALL"
    before = query.run_sql(warehouse, values)[1]
    # Graphcore's 11 training scores; AMD's 12 inference results
    assert len(before) == 23
    reread = pipeline.reprocess(warehouse)
    assert (reread.documents_read, reread.count_status("new")) == (23, 23)
    assert (reread.total("values_removed"), reread.total("values_changed")) == (0, 0)
    assert query.run_sql(warehouse, values)[1] == before
    assert pipeline.ingest(trees, warehouse).count_status("unchanged") == 23
    assert query.run_sql(warehouse, values)[1] == before


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_an_official_score_in_seconds_reads_as_its_runs_give_it(tmp_path):
    """Graphcore's ipu-pod256-TF1-closed ResNet: its three middle runs average 160,325 ms,
    stored as 160.325 s (minutes x 60 gave 160.32500000000002)."""
    warehouse = tmp_path / "wh"
    pipeline.ingest([str(SHARED / "training_v2.0" / "Graphcore")], warehouse)
    rows = query.run_sql(
        warehouse,
        "SELECT source_id, value FROM measurements WHERE "
        "source_id LIKE '%/ipu-pod256-TF1-closed/resnet' OR "
        "source_id LIKE '%/ipu-pod64-POPART-closed/bert'",
    )[1]
    assert sorted(rows) == [
        ("mlperf-training-v2.0/Graphcore/ipu-pod256-TF1-closed/resnet", 160.325),
        ("mlperf-training-v2.0/Graphcore/ipu-pod64-POPART-closed/bert", 402.1685),
    ]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_a_power_folder_does_not_make_a_training_tree_an_inference_one(tmp_path, warehouse):
    """A checkout not named after its round, read with --round: systems whose benchmark
    folders hold a `power/` folder (the runs' power logs) stay training units. Before, the
    first benchmark folder holding any folder made the tree an inference tree, and every
    unit was quarantined as `not_an_inference_tree`."""
    checkout = tmp_path / "checkout"
    shutil.copytree(SHARED / "training_v2.0" / "Graphcore", checkout / "Graphcore")
    for benchmark in (checkout / "Graphcore" / "results").glob("*/*"):
        (benchmark / "power" / "result_0").mkdir(parents=True)
        (benchmark / "power" / "result_0" / "node_0.txt").write_text("", encoding="utf-8")
    summary = pipeline.ingest([str(checkout / "Graphcore")], warehouse, mlperf_round="2.0")
    assert summary.count_status("new") == 11
    checks = query.run_sql(warehouse, 'SELECT DISTINCT "check" FROM quarantine')[1]
    assert ("not_an_inference_tree",) not in checks
    assert query.run_sql(warehouse, "SELECT count(*), min(source_id) FROM measurements")[1] == [
        (11, "mlperf-training-v2.0/Graphcore/ipu-pod128-POPART-closed/bert")
    ]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_a_system_without_results_is_described_and_names_no_temporary_folder(tmp_path, warehouse):
    """Graphcore's ipu-pod16-TF1-closed with its results left out: its description is a
    unit of its own, read back from the archive in a temporary folder. It is described in
    mlperf_systems; before, it was quarantined as `not_a_results_tree` with a reason naming
    that folder (/tmp/perfledger-mlperf-...)."""
    tree = tmp_path / "training_results_v2.0"
    shutil.copytree(SHARED / "training_v2.0" / "Graphcore", tree / "Graphcore")
    shutil.rmtree(tree / "Graphcore" / "results" / "ipu-pod16-TF1-closed")
    pipeline.ingest([str(tree / "Graphcore")], warehouse)
    assert query.run_sql(warehouse, "SELECT source_id, reason FROM quarantine")[1] == []
    assert query.run_sql(
        warehouse,
        "SELECT system_id, path FROM mlperf_systems WHERE system_id = 'ipu-pod16-TF1-closed'",
    )[1] == [("ipu-pod16-TF1-closed", "Graphcore/systems/ipu-pod16-TF1-closed.json")]
    assert query.run_sql(warehouse, "SELECT count(*) FROM measurements")[1] == [(10,)]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_the_energy_to_train_of_runs_measured_for_power_is_in_its_view(tmp_path, warehouse):
    """Graphcore's ipu-pod16-TF1-closed ResNet with power logs beside its runs (1.5 J per ms
    of training, see tests/sources/test_mlperf_summarizer_rules.py): read back from the
    archive, the score's energy is the mean of its three used runs', 1,178,109.33 ms x 1.5."""
    from tests.sources.test_mlperf_summarizer_rules import RESNET, measure_power, tree_with

    root = tree_with(tmp_path, RESNET)
    measure_power(root / RESNET)
    pipeline.ingest([str(root)], warehouse)
    (row,) = query.run_sql(
        warehouse,
        "SELECT system_id, benchmark, energy_joules, "
        "energy_reason, len(runs) FROM mlperf_training_energy",
    )[1]
    assert row == ("ipu-pod16-TF1-closed", "resnet", pytest.approx(1.5 * 3534328 / 3), None, 5)
