"""A results tree cut into its documents (sources/mlperf/units.py), on the real official trees."""

from __future__ import annotations

import shutil

import pytest

from perfledger.sources.mlperf.collect import unit_round, unit_source_id, unit_source_url
from perfledger.sources.mlperf.units import find_units
from tests.conftest import PROJECT_ROOT

SHARED = PROJECT_ROOT.parent / "shared" / "mlperf"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared MLPerf trees not present")


@needs_shared
def test_an_inference_tree_is_one_unit_per_scenario_and_one_per_description_alone():
    units = find_units(SHARED / "inference_v4.1")
    results = [u for u in units if u.benchmark is not None]
    alone = [u for u in units if u.benchmark is None]
    # 145 results (README of the subset); Google describes 12 systems with no results.
    assert (len(results), len(alone)) == (145, 12)
    (amd,) = [
        u
        for u in results
        if (u.system_id, u.benchmark, u.scenario)
        == ("8xMI300X_2xEPYC-9374F", "llama2-70b-99", "Offline")
    ]
    assert amd.kind == "inference" and amd.division == "closed"
    assert sorted(f.name for f in amd.files) == [
        "8xMI300X_2xEPYC-9374F.json",
        "accuracy.txt",
        "mlperf_log_detail.txt",
        "mlperf_log_summary.txt",
        "mlperf_log_summary.txt",
    ]
    assert unit_round(amd, None) == ("4.1", "logs")
    assert unit_source_id(amd, "4.1", None) == (
        "mlperf-inference-v4.1/AMD/8xMI300X_2xEPYC-9374F/llama2-70b-99/Offline"
    )
    assert unit_source_url(amd, "4.1") == (
        "https://github.com/mlcommons/inference_results_v4.1/tree/main/closed/AMD/results/"
        "8xMI300X_2xEPYC-9374F/llama2-70b-99/Offline"
    )


@needs_shared
def test_a_training_unit_keeps_its_runs_and_reports_a_misnamed_file_to_the_reader(tmp_path):
    tree = tmp_path / "training_results_v2.0"
    shutil.copytree(SHARED / "training_v2.0" / "Graphcore", tree / "Graphcore")
    folder = tree / "Graphcore" / "results" / "ipu-pod16-TF1-closed" / "resnet"
    (folder / "result0.txt").write_text("not a run\n", encoding="utf-8")
    (folder / "notes.md").write_text("kept aside\n", encoding="utf-8")
    (unit,) = [u for u in find_units(tree) if u.folder == folder]
    names = sorted(f.name for f in unit.files)
    assert names == [
        "ipu-pod16-TF1-closed.json",
        "result0.txt",
        *(f"result_{n}.txt" for n in range(5)),
    ]
    assert [f.name for f in unit.left_out] == ["notes.md"]
    assert unit_round(unit, "9.9") == ("2.0", "folder")
    assert unit_source_id(unit, "2.0", None) == (
        "mlperf-training-v2.0/Graphcore/ipu-pod16-TF1-closed/resnet"
    )


@needs_shared
def test_a_scenario_folder_or_one_inside_it_is_its_unit_and_a_folder_of_checkouts_is_all():
    scenario = (
        SHARED
        / "inference_v4.1"
        / "closed"
        / "AMD"
        / "results"
        / "8xMI300X_2xEPYC-9374F"
        / "llama2-70b-99"
        / "Server"
    )
    for inside in (scenario, scenario / "performance", scenario / "performance" / "run_1"):
        (unit,) = find_units(inside)
        assert (unit.benchmark, unit.scenario, unit.folder) == ("llama2-70b-99", "Server", scenario)
    kinds = [unit.kind for unit in find_units(SHARED)]
    assert (kinds.count("training"), kinds.count("inference")) == (17, 157)
