"""The MLPerf round benchmark: its synthetic round scores as the real subset does, and a small
run loads exactly the scores the plain reading of the tree gives."""

from __future__ import annotations

import shutil

import pytest

from bench import mlperf_round
from perfledger.sources.mlperf.mllog import parse_result_bytes, read_result_file
from perfledger.sources.mlperf.tree import read_results_tree

SOURCE = mlperf_round.SOURCE  # ../shared/mlperf/training_v2.0, real files, never copied here
needs_shared = pytest.mark.skipif(
    not SOURCE.is_dir(), reason=f"the MLPerf Training v2.0 logs are not at {SOURCE}"
)
BOW_POD16_RESNET = ("Graphcore", "ipu-pod16-TF1-closed", "resnet")
BOW_POD16_RESNET_MINUTES = 19.635155555555553  # the real logs' olympic mean


def small_source(folder):
    """One submitter's one benchmark folder (5 real logs) and its system, under tmp_path."""
    submitter = folder / "Graphcore"
    results = submitter / "results" / "ipu-pod16-TF1-closed"
    (submitter / "systems").mkdir(parents=True)
    shutil.copy(
        SOURCE / "Graphcore" / "systems" / "ipu-pod16-TF1-closed.json", submitter / "systems"
    )
    shutil.copytree(
        SOURCE / "Graphcore" / "results" / "ipu-pod16-TF1-closed" / "resnet", results / "resnet"
    )
    return folder


@needs_shared
def test_a_padded_and_shifted_log_reads_as_the_real_one():
    path = SOURCE / "Graphcore" / "results" / "ipu-pod16-TF1-closed" / "resnet" / "result_1.txt"
    data = path.read_bytes()
    changed = mlperf_round.pad_log(mlperf_round.shift_times(data, 123_456_789), len(data))
    assert len(changed) >= 2 * len(data)
    lines = changed.split(b"\n")
    keys = [mlperf_round.mllog_key(line) for line in lines]
    run = [key for key in keys if key not in (None, b"weights_initialization")]
    assert keys.count(b"run_start") == keys.count(b"run_stop") == 1
    assert run.index(b"run_start") < run.index(b"run_stop")
    original, padded = read_result_file(path), parse_result_bytes(changed)
    assert padded.minutes == original.minutes
    assert padded.converged and original.converged
    assert padded.evals[-1].value == original.evals[-1].value
    assert len(padded.evals) > len(original.evals)
    assert padded.hyperparameters == original.hyperparameters
    assert padded.submission == original.submission
    assert padded.problems == original.problems == []


@needs_shared
def test_the_round_is_the_same_for_the_same_seed_and_scores_as_the_real_files(tmp_path):
    source = small_source(tmp_path / "source")
    first = mlperf_round.build_round(source, tmp_path / "a", 3, 11, 250)
    second = mlperf_round.build_round(source, tmp_path / "b", 3, 11, 250)
    assert first.result_files == 15 and first.units == 3 and first.submitters == 3
    assert first.padded_files == 15
    files = sorted(path.relative_to(first.tree) for path in first.tree.rglob("*") if path.is_file())
    assert files == sorted(
        path.relative_to(second.tree) for path in second.tree.rglob("*") if path.is_file()
    )
    contents = {(first.tree / name).read_bytes() for name in files}
    assert len(contents) == len(files)  # no two files alike: the archive cannot share them
    for name in files:
        assert (first.tree / name).read_bytes() == (second.tree / name).read_bytes()
    scores = read_results_tree(first.tree).scores
    assert sorted(scores["submitter"]) == ["Graphcore", "Graphcore_r2", "Graphcore_r3"]
    assert scores["score_minutes"].to_list() == [BOW_POD16_RESNET_MINUTES] * 3
    assert scores["valid"].all()


@pytest.mark.slow
@needs_shared
def test_a_small_round_loads_exactly_the_plain_reads_scores(tmp_path):
    report = mlperf_round.main(
        ["--work", str(tmp_path / "work"), "--copies", "1", "--reruns", "1", "--no-summarizer"]
    )
    facts = report.facts
    loaded = {tuple(row[:3]): row[3] for row in facts["loaded"]["scores"]}
    plain = {tuple(row[:3]): row[3] for row in facts["plain"]["scores"]}
    assert loaded == plain
    assert facts["plain_equal"]
    assert loaded[BOW_POD16_RESNET] == pytest.approx(BOW_POD16_RESNET_MINUTES, rel=1e-12)
    assert facts["loaded"]["valid"] == len(loaded) == 17
    assert facts["archive"]["bytes"] < facts["round"]["bytes"]
    assert facts["changed"]["documents_new"] == 1
    assert facts["unchanged"]["documents_new"] == 0
