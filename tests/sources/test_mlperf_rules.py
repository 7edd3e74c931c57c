"""The MLPerf Training rules as data (sources/mlperf/rules/), scaling.json, and the round of a
tree: from the logs where they say it, from a folder name, or an `unknown_round` problem."""

from __future__ import annotations

import csv

import pytest

from perfledger.schemas.mlperf import MlperfScoreSchema
from perfledger.sources.mlperf.mllog import parse_result_bytes, round_from_log_text
from perfledger.sources.mlperf.scoring import (
    RULES_DIR,
    RunTime,
    find_rule,
    load_rules,
    score_benchmark,
)
from perfledger.sources.mlperf.tree import read_benchmark_models, read_results_tree, round_of_tree
from tests.sources.test_mlperf import (
    SHARED,
    mllog,
    needs_shared,
    result_log,
    write_tree,
)

ROUNDS = ["0.7", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0"]
FIVE = [10.0, 10.5, 10.25, 11.0, 10.75]  # olympic mean 10.5


def _runs(minutes: list[float | None]) -> list[RunTime]:
    return [RunTime(f"result_{i}", m, m is not None) for i, m in enumerate(minutes)]


# --- the rules, as data ----------------------------------------------------------------------


def test_every_round_the_official_sources_list_has_its_rules():
    rules = load_rules()
    assert sorted(rules.rounds, key=lambda r: tuple(map(int, r.split(".")))) == ROUNDS
    by_round = {r: sorted(b for (rr, b) in rules.benchmarks if rr == r) for r in ROUNDS}
    assert by_round["0.7"] == [
        "bert",
        "dlrm",
        "gnmt",
        "maskrcnn",
        "minigo",
        "resnet",
        "ssd",
        "transformer",
    ]
    assert by_round["2.0"] == [
        "bert",
        "dlrm",
        "maskrcnn",
        "minigo",
        "resnet",
        "rnnt",
        "ssd",
        "unet3d",
    ]
    assert by_round["3.0"] == [
        "bert",
        "dlrm_dcnv2",
        "gpt3",
        "maskrcnn",
        "resnet",
        "rnnt",
        "ssd",
        "unet3d",
    ]
    assert "stable_diffusion" in by_round["3.1"] and "stable_diffusion" not in by_round["3.0"]
    assert by_round["4.0"] == [
        "bert",
        "dlrm_dcnv2",
        "gnn",
        "gpt3",
        "llama2_70b_lora",
        "resnet",
        "ssd",
        "stable_diffusion",
        "unet3d",
    ]
    assert by_round["4.1"] == [
        "bert",
        "dlrm_dcnv2",
        "gnn",
        "gpt3",
        "llama2_70b_lora",
        "ssd",
        "stable_diffusion",
    ]
    assert by_round["5.0"] == [
        "bert",
        "dlrm_dcnv2",
        "llama2_70b_lora",
        "retinanet",
        "rgat",
        "stable_diffusion",
    ]


@pytest.mark.parametrize(
    ("mlperf_round", "benchmark", "required", "dropped"),
    [
        ("0.7", "transformer", 10, 1),
        ("1.0", "unet3d", 40, 4),
        ("2.0", "resnet", 5, 1),
        ("2.1", "minigo", 10, 1),
        ("3.0", "gpt3", 3, 1),
        ("3.1", "stable_diffusion", 10, 1),
        ("4.0", "llama2_70b_lora", 10, 1),
        ("4.1", "gnn", 10, 1),
        ("5.0", "rgat", 10, 1),
        ("5.0", "retinanet", 5, 1),
        ("5.0", "dlrm_dcnv2", 10, 1),
    ],
)
def test_run_counts_and_drops_are_those_of_benchmark_meta_and_the_summarizer(
    mlperf_round, benchmark, required, dropped
):
    rule = find_rule(benchmark, mlperf_round)
    assert (rule.required_runs, rule.max_dropped) == (required, dropped)
    assert "benchmark_meta.py" in rule.source and "benchmark_meta.py" in rule.text


def test_every_rule_row_cites_its_source_and_every_benchmark_has_a_model():
    with (RULES_DIR / "training.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert all(row["source"] for row in rows)
    models = read_benchmark_models()
    assert {row["benchmark"] for row in rows} <= set(models)
    assert [m for m, _, _ in models["ssd"]] == ["SSD-ResNet-34", "RetinaNet"]


def test_no_rule_is_a_reason_that_names_the_rules_never_a_guess():
    assert score_benchmark(_runs(FIVE), "resnet", "9.9").reason == (
        "no scoring rule for benchmark 'resnet' in round v9.9: sources/mlperf/rules/training.csv"
        " has rounds v0.7, v1.0, v1.1, v2.0, v2.1, v3.0, v3.1, v4.0, v4.1, v5.0"
    )
    missing = score_benchmark(_runs(FIVE), "llama31_405b", "5.0")
    assert missing.score_minutes is None and not missing.valid
    assert missing.reason == (
        "no scoring rule for benchmark 'llama31_405b' in round v5.0: sources/mlperf/rules/"
        "training.csv has for v5.0 bert, dlrm_dcnv2, llama2_70b_lora, retinanet, rgat, "
        "stable_diffusion"
    )
    assert "--round" in score_benchmark(_runs(FIVE), "resnet", None).reason


def test_gpt3_keeps_the_middle_of_its_three_runs():
    score = score_benchmark(_runs([100.0, 90.0, 95.0]), "gpt3", "3.0")
    assert (score.valid, score.score_minutes, score.used) == (True, 95.0, ["result_2"])
    failed = score_benchmark(_runs([100.0, None, 95.0]), "gpt3", "4.0")
    assert (failed.valid, failed.score_minutes) == (True, 100.0)  # scores[1:2] of [95, 100]


def test_round_0_7_scores_like_its_own_summarizer():
    # The 0.7.0 summarizer drops min(), and max() only when no run failed: the same numbers.
    assert score_benchmark(_runs(FIVE), "resnet", "0.7").score_minutes == 10.5
    score = score_benchmark(_runs([15.0, None, 15.5, 14.5, 16.0]), "resnet", "0.7")
    assert score.score_minutes == (15.0 + 15.5 + 16.0) / 3


# --- scaling.json ----------------------------------------------------------------------------


def _five(tmp_path, round_folder="training_results_v2.0", scaling=None):
    folder = write_tree(
        tmp_path,
        runs={f"result_{i}.txt": result_log(m) for i, m in enumerate(FIVE)},
        round_folder=round_folder,
    )
    if scaling is not None:
        (folder / "scaling.json").write_text(scaling)
    return read_results_tree(tmp_path)


def test_scaling_json_multiplies_the_score_and_the_row_says_by_what(tmp_path):
    results = _five(tmp_path, scaling='{"scaling_factor": 1.023}')
    score = results.scores.row(0, named=True)
    assert score["scaling_factor"] == 1.023
    assert score["score_minutes"] == (10.25 + 10.5 + 10.75) * 1.0 / 3 * 1.023
    assert score["valid"] and results.problems == []
    assert "scaling.json" in score["rule_text"]
    MlperfScoreSchema.validate(results.scores, lazy=True)


def test_no_scaling_json_is_a_factor_of_one(tmp_path):
    score = _five(tmp_path).scores.row(0, named=True)
    assert (score["scaling_factor"], score["score_minutes"]) == (1.0, 10.5)


def test_round_0_7_applies_no_scaling_json_and_says_so(tmp_path):
    folder = write_tree(
        tmp_path,
        "ssd",
        {f"result_{i}.txt": result_log(m, "ssd") for i, m in enumerate(FIVE)},
        round_folder="training_results_v0.7",
    )
    (folder / "scaling.json").write_text('{"scaling_factor": 2.0}')
    results = read_results_tree(tmp_path)
    score = results.scores.row(0, named=True)
    assert (score["score_minutes"], score["scaling_factor"], score["mlperf_round"]) == (
        10.5,
        1.0,
        "0.7",
    )
    assert score["model_canonical"] == "SSD-ResNet-34"  # RetinaNet only from v2.0
    assert [p.check for p in results.problems] == ["scaling_not_applied"]


@pytest.mark.parametrize(
    "text",
    [
        '{"scaling_factor": "fast"}',
        '{"factor": 1.1}',
        "[1.1",
        '{"scaling_factor": -1}',
        '{"scaling_factor": 1' + "0" * 400 + "}",
        '{"scaling_factor": NaN}',
    ],
)
def test_an_unreadable_scaling_json_gives_no_score_and_a_reason(tmp_path, text):
    results = _five(tmp_path, scaling=text)
    score = results.scores.row(0, named=True)
    assert (score["score_minutes"], score["valid"], score["scaling_factor"]) == (None, False, None)
    assert score["reason"].startswith("scaling.json: ")
    assert "malformed_scaling" in {p.check for p in results.problems}


# --- the round -------------------------------------------------------------------------------


def test_a_round_is_read_from_a_log_that_states_it():
    text = "\n".join(
        [mllog("submission_benchmark", "resnet"), mllog("submission_ruleset", "4.1.0"), "noise"]
    )
    assert round_from_log_text(text) == "4.1"
    assert round_from_log_text(mllog("ruleset", "v3.0")) == "3.0"
    assert round_from_log_text(mllog("ruleset", "latest")) is None
    assert round_from_log_text(result_log(10.0)) is None
    assert round_from_log_text('"key": "ruleset" but no MLLOG line') is None
    run = parse_result_bytes(
        result_log(10.0, extra=(mllog("submission_ruleset", "2.1.0"),)).encode()
    )
    assert run.logged_round == "2.1"


@needs_shared
def test_official_logs_do_not_state_the_round_their_folder_does():
    assert round_of_tree(SHARED) == "2.0"
    assert round_of_tree(SHARED / "training_v2.0" / "NVIDIA" / "results") == "2.0"
    head = (
        (SHARED / "training_v2.0/NVIDIA/results/dgxa100_ngc22.04_mxnet/resnet/result_0.txt")
        .read_bytes()[:16384]
        .decode("utf-8", "replace")
    )
    assert round_from_log_text(head) is None


def test_the_logs_round_is_used_when_no_folder_names_one(tmp_path):
    logged = (mllog("submission_ruleset", "3.1.0"),)
    write_tree(
        tmp_path,
        "stable_diffusion",
        {
            f"result_{i}.txt": result_log(m, "stable_diffusion", extra=logged)
            for i, m in enumerate(FIVE * 2)
        },
        round_folder="",
    )
    assert round_of_tree(tmp_path) == "3.1"
    results = read_results_tree(tmp_path)
    score = results.scores.row(0, named=True)
    assert (score["mlperf_round"], score["valid"], score["runs_required"]) == ("3.1", True, 10)
    assert score["model_canonical"] == "Stable Diffusion"
    assert results.problems == []


def test_a_log_that_contradicts_the_folder_is_reported(tmp_path):
    write_tree(
        tmp_path,
        runs={
            f"result_{i}.txt": result_log(m, extra=(mllog("submission_ruleset", "1.1.0"),))
            for i, m in enumerate(FIVE)
        },
    )
    results = read_results_tree(tmp_path)
    assert results.scores["mlperf_round"].to_list() == ["1.1"]
    assert [p.check for p in results.problems] == ["round_mismatch"]


def test_no_round_anywhere_is_an_unknown_round_problem_that_says_how_to_give_it(tmp_path):
    write_tree(
        tmp_path,
        runs={f"result_{i}.txt": result_log(m) for i, m in enumerate(FIVE)},
        round_folder="checkout",
    )
    assert round_of_tree(tmp_path) is None
    results = read_results_tree(tmp_path)
    (unknown,) = [p for p in results.problems if p.check == "unknown_round"]
    assert unknown.path == "Acme" and "--round" in unknown.reason
    score = results.scores.row(0, named=True)
    assert (score["mlperf_round"], score["score_minutes"], score["valid"]) == (None, None, False)
    given = read_results_tree(tmp_path, mlperf_round="2.0")
    assert given.scores["score_minutes"].to_list() == [10.5]
    assert "unknown_round" not in {p.check for p in given.problems}


def test_round_of_tree_reads_at_most_a_few_log_heads(tmp_path, monkeypatch):
    for system in range(5):
        write_tree(
            tmp_path / f"s{system}",
            runs={f"result_{i}.txt": result_log(10.0) for i in range(5)},
            round_folder="",
        )
    opened = []
    real_open = type(tmp_path).open

    def counting_open(self, *args, **kwargs):
        opened.append(self.name)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(type(tmp_path), "open", counting_open)
    assert round_of_tree(tmp_path) is None
    assert len(opened) == 3


def test_the_rules_files_are_plain_csv():
    for name in ("training.csv", "training_rounds.csv", "availability.csv"):
        with (RULES_DIR / name).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        assert len({len(row) for row in rows}) == 1, name
    assert [rule.scaling_json for _, rule in sorted(load_rules().rounds.items())] == [
        "ignored",
        *["applied"] * 9,
    ]
