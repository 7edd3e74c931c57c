"""MLPerf results trees through `perfledger ingest`: archived, scored, reconciled, and used by
`perfledger claims --check` against another vendor's official record."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from flows import pipeline
from flows.cli import main
from tests.conftest import PROJECT_ROOT
from warehouse import query

ACME = PROJECT_ROOT / "tests" / "fixtures" / "mlperf" / "training_results_v2.0"
SHARED = PROJECT_ROOT.parent / "shared" / "mlperf"


def cli(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_a_results_tree_is_one_archived_version_and_reads_back_from_the_archive(warehouse):
    first = pipeline.ingest([str(ACME)], warehouse)
    assert first.count_status("new") == 1
    official = query.run_sql(
        warehouse, "SELECT source_id, system, metric, unit, value FROM measurements "
        "ORDER BY system")[1]
    # the fixture's scores: 10.5 and 15.5 minutes (see tests/sources/test_mlperf.py)
    assert official == [
        ("mlperf-training-v2.0", "Bow Pod16", "time_to_train", "s", 630.0),
        ("mlperf-training-v2.0", "DGX A100", "time_to_train", "s", 930.0),
    ]
    again = pipeline.ingest([str(ACME)], warehouse)
    assert again.count_status("unchanged") == 1
    reread = pipeline.reprocess(warehouse)
    assert reread.count_status("new") == 1
    assert reread.total("values_changed") == 0
    assert query.run_sql(warehouse, "SELECT count(*) FROM mlperf_official")[1][0][0] == 2


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared MLPerf v2.0 subset is not present")
def test_the_blog_claim_is_checked_against_the_official_mlperf_record(tmp_path):
    warehouse = str(tmp_path / "wh")
    cli("ingest", "--warehouse", warehouse, "--quiet")
    output = cli("ingest", str(SHARED), "--warehouse", warehouse)
    assert "values added:        17" in output
    checked = json.loads(cli("claims", "--check", "--format", "json", "--warehouse", warehouse))
    (claim,) = [c for c in checked if c["verdict"] != "not checkable"]
    assert (claim["subject"], claim["baseline"], claim["claimed_ratio"]) == (
        "Bow Pod16", "DGX A100 640GB", 1.31)
    # Official scores: mean of the middle runs, 1,721,122.67 ms (DGX A100) and
    # 1,178,109.33 ms (Bow Pod16); the page's own 19.64 min is the larger of the two Bow rows.
    assert claim["baseline_value"] == pytest.approx(1721.1226667)
    assert claim["subject_value"] == pytest.approx(1178.1093333)
    assert claim["measured_ratio"] == pytest.approx(1.460919, abs=1e-6)
    assert claim["verdict"] == "supported"
    reconciled = query.run_sql(
        tmp_path / "wh", "SELECT verdict, count(*) FROM mlperf_reconciliation GROUP BY 1")[1]
    assert reconciled == [("matches", 11)]
