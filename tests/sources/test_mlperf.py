"""Official MLPerf results on tiny handwritten result trees: logs, systems, scores, warehouse."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfledger.flows import pipeline
from perfledger.schemas.measurements import MeasurementSchema
from perfledger.schemas.mlperf import MlperfRunSchema, MlperfScoreSchema, MlperfSystemSchema
from perfledger.schemas.normalize import DocumentContext
from perfledger.sources.mlperf import is_results_tree, read_results_tree
from perfledger.sources.mlperf.measurements import PARSER_VERSION, measurements_from_scores
from perfledger.sources.mlperf.mllog import parse_result_bytes, read_result_file
from perfledger.sources.mlperf.scoring import RunTime, score_benchmark
from perfledger.sources.mlperf.systems import describe_system, read_system_file
from perfledger.warehouse import lake
from perfledger.warehouse.mlperf_load import load_mlperf
from tests.conftest import PROJECT_ROOT

FIXTURES = PROJECT_ROOT / "tests" / "fixtures" / "mlperf"
SHARED = PROJECT_ROOT.parent / "shared" / "mlperf"  # real official v2.0 files, never copied
needs_shared = pytest.mark.skipif(
    not (SHARED / "training_v2.0").is_dir(),
    reason=f"the MLPerf Training v2.0 logs are not at {SHARED}",
)
CHECKOUT = FIXTURES / "training_results_v2.0"
ACME = CHECKOUT / "Acme"
POD16 = ACME / "results" / "pod16-tf-closed" / "resnet"
DGX = ACME / "results" / "dgxa100_test_mxnet" / "resnet"
LOGS = FIXTURES / "logs"

CONTEXT = DocumentContext(
    source_id="mlperf-acme",
    source_url="https://example.org/training_results_v2.0",
    document_sha256="a" * 64,
    document_title="MLPerf Training v2.0 results",
    captured_at="2022-06-29T00:00:00Z",
    parser_version=PARSER_VERSION,
)


def _score(results, system_id: str) -> dict:
    return results.scores.filter(pl.col("system_id") == system_id).row(0, named=True)


# --- one result file ---------------------------------------------------------------------


def test_a_clean_run_gives_its_times_status_evaluations_and_settings():
    run = read_result_file(POD16 / "result_0.txt")
    assert (run.run_start_ms, run.run_stop_ms, run.status) == (
        1650000000000,
        1650000600000,
        "success",
    )
    assert run.duration_ms == 600000 and run.converged
    assert [(e.value, e.epoch) for e in run.evals] == [(0.70, 20.0), (0.7593, 40.0)]
    assert run.submission == {
        "benchmark": "resnet",
        "division": "closed",
        "org": "Acme",
        "status": "onprem",
        "platform": "Bow-Pod16",
    }
    assert run.global_batch_size == 3520
    assert run.hyperparameters["opt_learning_rate_warmup_epochs"] == 2
    assert run.problems == []


def test_a_run_that_did_not_converge_is_timed_but_not_converged():
    run = read_result_file(DGX / "result_1.txt")
    assert run.status == "aborted"
    assert run.duration_ms == 1200000
    assert not run.converged
    assert run.problems == []


def test_a_malformed_line_is_a_problem_with_its_line_number_and_the_rest_is_read():
    run = read_result_file(DGX / "result_2.txt")
    assert [(p.check, p.line_number) for p in run.problems] == [("malformed_line", 12)]
    assert run.problems[0].raw.startswith(':::MLLOG {"namespace"')
    assert run.converged and run.duration_ms == 930000  # the free-text line 11 is no problem


def test_a_missing_run_stop_leaves_the_run_untimed():
    run = read_result_file(LOGS / "missing_run_stop.txt")
    assert run.run_start_ms is not None and run.run_stop_ms is None
    assert run.duration_ms is None and not run.converged
    assert [p.check for p in run.problems] == ["missing_run_stop"]


def test_a_truncated_file_reports_its_cut_last_line():
    run = read_result_file(LOGS / "truncated.txt")
    assert [(p.check, p.line_number) for p in run.problems] == [
        ("truncated_line", 11),
        ("missing_run_stop", None),
    ]
    assert not run.converged


def test_reading_is_bounded_whatever_the_file_holds():
    run = read_result_file(POD16 / "result_0.txt", max_bytes=1000)
    assert run.bytes_read == 1000
    assert {"file_too_large", "missing_run_start", "missing_run_stop"} <= {
        p.check for p in run.problems
    }


def test_prefixed_repeated_and_odd_events_are_read_without_a_crash():
    data = b"\n".join(
        [
            b'[1,0]<stdout>::::MLLOG {"time_ms": 10, "key": "run_start", "value": null}',
            b':::MLLOG {"time_ms": 11, "key": "run_start", "value": null}',
            b':::MLLOG ["not", "an", "event"]',
            b':::MLLOG {"key": "eval_accuracy", "value": "high"}',
            b':::MLLOG {"time_ms": 70, "key": "run_stop", "value": {"status": "SUCCESS"}}',
            b"\xff\xfe binary noise",
            b"",
        ]
    )
    run = parse_result_bytes(data)
    assert (run.run_start_ms, run.run_stop_ms, run.status) == (10, 70, "success")
    assert [(p.check, p.line_number) for p in run.problems] == [
        ("repeated_run_start", 2),
        ("malformed_event", 3),
        ("malformed_eval", 4),
    ]
    # Two run_starts fail the compliance checker's EXACTLY_ONE: the summarizer drops the run.
    assert run.run_starts == 2 and not run.converged


def test_an_integer_past_the_digit_limit_is_a_malformed_line_not_a_crash():
    # json refuses it with a plain ValueError, which carries no decode message
    data = b"\n".join(
        [
            b':::MLLOG {"time_ms": 10, "key": "run_start", "value": null}',
            b':::MLLOG {"time_ms": ' + b"9" * 5000 + b', "key": "run_stop", "value": null}',
            b"",
        ]
    )
    run = parse_result_bytes(data)
    assert [(p.check, p.line_number) for p in run.problems if p.check == "malformed_line"] == [
        ("malformed_line", 2)
    ]
    assert "Exceeds the limit (4300 digits)" in run.problems[0].reason


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=80),
            st.text(max_size=80).map(lambda text: (":::MLLOG " + text).encode()),
            st.sampled_from(
                [
                    b':::MLLOG {"time_ms": 5, "key": "run_stop", "value": 1}',
                    b':::MLLOG {"time_ms": 1e400, "key": "run_start"}',
                    b':::MLLOG {"time_ms": 1e300, "key": "run_stop"}',
                    b':::MLLOG {"time_ms": 1' + b"0" * 400 + b', "key": "run_start"}',
                    b':::MLLOG {"key": "eval_accuracy", "value": {"BBOX": 1'
                    + b"0" * 400
                    + b', "SEGM": NaN}, "time_ms": 3}',
                    b':::MLLOG {"key": "eval_accuracy", "value": NaN, "time_ms": 3}',
                ]
            ),
        ),
        max_size=20,
    )
)
def test_any_bytes_are_read_without_an_exception(lines):
    data = b"\n".join(lines)
    run = parse_result_bytes(data)
    assert run.bytes_read == len(data)
    assert run.converged == (
        run.duration_ms is not None
        and run.status == "success"
        and run.run_starts == 1
        and run.run_stops == 1
    )


# --- handwritten logs and trees, written in each test's tmp_path -------------------------------

START = 1_650_000_000_000


def mllog(key: str, value=None, time_ms: int = START, **metadata) -> str:
    event = {
        "namespace": "",
        "time_ms": time_ms,
        "event_type": "POINT_IN_TIME",
        "key": key,
        "value": value,
        "metadata": {"file": "train.py", "lineno": 1, **metadata},
    }
    return ":::MLLOG " + json.dumps(event)


# An evaluation that reaches each benchmark's quality target (the closed division's,
# sources/mlperf/rules/training_targets.csv): a run the summarizer counts must log one.
REACHED = {
    "resnet": 0.7593,
    "ssd": 0.345,
    "bert": 0.7205,
    "unet3d": 0.9091,
    "maskrcnn": {"BBOX": 0.3771, "SEGM": 0.3412},
}
REACHED_METRICS = {"stable_diffusion": {"FID": 89.5, "CLIP": 0.152}}


def result_log(
    minutes: float | None,
    benchmark: str = "resnet",
    status: str = "success",
    evals: tuple | None = None,
    extra: tuple = (),
) -> str:
    """A result file whose run lasts `minutes` (None: no run_stop); without `evals`, one
    evaluation that reaches the benchmark's quality target."""
    lines = [
        mllog("submission_benchmark", benchmark),
        mllog("submission_division", "closed"),
        mllog("submission_org", "Acme"),
        mllog("submission_status", "onprem"),
        *extra,
        mllog("global_batch_size", 256),
        mllog("run_start", None, START),
    ]
    if evals is None and benchmark in REACHED_METRICS:
        lines += [
            mllog("eval_accuracy", value, START + 1000, metric=metric, samples_count=10)
            for metric, value in REACHED_METRICS[benchmark].items()
        ]
    for epoch, value in enumerate(
        evals if evals is not None else [REACHED[benchmark]] if benchmark in REACHED else [],
        start=1,
    ):
        lines.append(mllog("eval_accuracy", value, START + epoch * 1000, epoch_num=epoch))
    if minutes is not None:
        lines.append(mllog("run_stop", None, START + round(minutes * 60_000), status=status))
    return "\n".join(lines) + "\n"


SYSTEM = {
    "submitter": "Acme",
    "division": "closed",
    "status": "onprem",
    "system_name": "Bow-Pod16",
    "number_of_nodes": "1",
    "accelerators_per_node": "16",
    "accelerator_model_name": "Graphcore Bow IPU",
    "framework": "TensorFlow 1.15",
}


def write_tree(
    root,
    benchmark: str = "resnet",
    runs: dict | None = None,
    round_folder: str = "training_results_v2.0",
    system: dict | None = None,
):
    """<root>/<round_folder>/Acme/{systems,results/pod16/<benchmark>}; runs: name -> text."""
    submitter = root / round_folder / "Acme" if round_folder else root / "Acme"
    (submitter / "systems").mkdir(parents=True, exist_ok=True)
    (submitter / "systems" / "pod16.json").write_text(json.dumps(system or SYSTEM))
    folder = submitter / "results" / "pod16" / benchmark
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (runs or {}).items():
        (folder / name).write_text(text)
    return folder


MASK_EVALS = ({"BBOX": 0.2514, "SEGM": 0.2398}, {"BBOX": 0.3771, "SEGM": 0.3412})


def test_a_mask_rcnn_evaluation_with_bbox_and_segm_is_read_not_quarantined(tmp_path):
    path = tmp_path / "result_0.txt"
    path.write_text(
        result_log(40.0, "maskrcnn", evals=({"BBOX": 0.1747, "SEGM": 0.1727}, *MASK_EVALS))
    )
    run = read_result_file(path)
    assert run.problems == [] and run.converged
    assert [(e.value, e.components, e.epoch) for e in run.evals] == [
        (0.1747, {"BBOX": 0.1747, "SEGM": 0.1727}, 1.0),
        (0.2514, {"BBOX": 0.2514, "SEGM": 0.2398}, 2.0),
        (0.3771, {"BBOX": 0.3771, "SEGM": 0.3412}, 3.0),
    ]
    # A dict without BBOX stands for its first numeric component; one without any is a problem.
    odd = parse_result_bytes(
        "\n".join(
            [
                mllog("eval_accuracy", {"note": "x", "SEGM": 0.3, "MIOU": 0.5}, START),
                mllog("eval_accuracy", {"BBOX": "high"}, START),
            ]
        ).encode()
    )
    assert [(e.value, e.components) for e in odd.evals] == [(0.3, {"SEGM": 0.3, "MIOU": 0.5})]
    assert [p.check for p in odd.problems][:1] == ["malformed_eval"]


def test_a_mask_rcnn_tree_keeps_every_component_of_the_last_evaluation(tmp_path):
    # The summarizer scores a folder named "mask" as maskrcnn (_benchmark_alias).
    runs = {
        f"result_{i}.txt": result_log(m, "maskrcnn", evals=MASK_EVALS)
        for i, m in enumerate([40.0, 41.0, 42.0, 43.0, 44.0])
    }
    write_tree(tmp_path, "mask", runs)
    results = read_results_tree(tmp_path)
    assert results.problems == []
    run = results.runs.row(0, named=True)
    assert (run["benchmark"], run["last_eval_accuracy"], run["eval_count"]) == (
        "maskrcnn",
        0.3771,
        2,
    )
    assert json.loads(run["last_eval_components"]) == {"BBOX": 0.3771, "SEGM": 0.3412}
    score = results.scores.row(0, named=True)
    assert (score["benchmark"], score["model_canonical"], score["score_minutes"]) == (
        "maskrcnn",
        "Mask R-CNN",
        42.0,
    )
    assert score["rule_id"] == "training-v2.0/benchmark-results/maskrcnn"
    MlperfRunSchema.validate(results.runs, lazy=True)


def test_result_files_named_otherwise_are_runs_in_numeric_order(tmp_path):
    names = [
        "result_220520100725096152634_10.txt",
        "result_220520100725096152634_2.txt",
        "result_220520100725096152634_1.txt",
        "result_220521083012000000000_1.txt",
        "result_220520100725096152634_3.txt",
    ]
    minutes = [10.0, 10.5, 10.25, 11.0, 10.75]
    write_tree(tmp_path, runs={name: result_log(m) for name, m in zip(names, minutes, strict=True)})
    results = read_results_tree(tmp_path)
    assert results.problems == []
    assert results.runs.sort("run_index")["run_name"].to_list() == [
        "result_220520100725096152634_1",
        "result_220520100725096152634_2",
        "result_220520100725096152634_3",
        "result_220520100725096152634_10",
        "result_220521083012000000000_1",
    ]
    score = results.scores.row(0, named=True)
    assert (score["valid"], score["score_minutes"], score["runs_found"]) == (True, 10.5, 5)
    assert score["runs_dropped"] == (
        "result_220520100725096152634_10 (fastest), result_220521083012000000000_1 (slowest)"
    )


def test_files_that_look_like_runs_are_reported_never_skipped_silently(tmp_path):
    runs = {f"result_{i}.txt": result_log(m) for i, m in enumerate([10.0, 10.5, 10.25, 11.0])}
    folder = write_tree(
        tmp_path,
        runs=runs
        | {
            "results_5.txt": result_log(9.0),
            "Result_6.TXT": result_log(9.0),
            "run_7.log": result_log(9.0),
        },
    )
    (folder / "result_4.txt").mkdir()  # named like a run, but a folder
    results = read_results_tree(tmp_path)
    problems = {(p.path.rsplit("/", 1)[-1], p.check) for p in results.problems}
    assert problems == {
        ("results_5.txt", "misnamed_result_file"),
        ("Result_6.TXT", "misnamed_result_file"),
        ("run_7.log", "misnamed_result_file"),
        ("result_4.txt", "unreadable_result"),
    }
    score = results.scores.row(0, named=True)
    # result_4 counts as a run that failed, as the summarizer counts a file it cannot check.
    assert (score["runs_found"], score["runs_non_converged"], score["valid"]) == (5, 1, True)
    assert score["score_minutes"] == (10.25 + 10.5 + 11.0) / 3  # the failed run is the slowest
    assert score["runs_dropped"] == "result_0 (fastest), result_4 (not_converged)"


def test_a_folder_without_result_files_says_so(tmp_path):
    write_tree(tmp_path, runs={"run_0.txt": result_log(10.0)})
    score = read_results_tree(tmp_path).scores.row(0, named=True)
    assert score["reason"] == "no run: the folder holds no result_*.txt file"
    assert "no run left" not in score["reason"]


# --- scoring -------------------------------------------------------------------------------


def _runs(minutes: list[float | None]) -> list[RunTime]:
    return [RunTime(f"result_{i}", m, m is not None) for i, m in enumerate(minutes)]


def test_the_score_drops_the_fastest_and_slowest_and_averages_the_rest():
    score = score_benchmark(_runs([10.0, 10.5, 10.25, 11.0, 10.75]), "resnet", "2.0")
    assert score.valid and score.score_minutes == 10.5
    assert score.used == ["result_2", "result_1", "result_4"]
    assert score.dropped == {"result_0": "fastest", "result_3": "slowest"}
    assert score.rule.required_runs == 5 and score.rule.rule_id.endswith("/resnet")


def test_one_run_that_did_not_converge_counts_as_the_slowest():
    score = score_benchmark(_runs([15.0, None, 15.5, 14.5, 16.0]), "resnet", "2.0")
    assert score.valid and score.score_minutes == 15.5
    assert score.dropped == {"result_1": "not_converged", "result_3": "fastest"}


def test_two_runs_that_did_not_converge_make_the_result_invalid():
    score = score_benchmark(_runs([15.0, None, None, 14.5, 16.0]), "resnet", "2.0")
    assert not score.valid and score.score_minutes is None
    assert score.reason == "2 runs did not converge; the rule allows 1"


def test_bert_needs_ten_runs_and_a_short_set_is_scored_but_invalid():
    score = score_benchmark(_runs([20.0, 21.0, 22.0, 23.0, 24.0]), "bert", "2.0")
    assert score.score_minutes == 22.0 and not score.valid
    assert score.reason == "5 runs found; the rule requires exactly 10"


def test_unet3d_drops_four_runs_at_each_end_and_allows_four_failures():
    minutes = [float(m) for m in range(1, 41)]
    assert score_benchmark(_runs(minutes), "unet3d", "2.0").score_minutes == 20.5
    failing = minutes[:36] + [None] * 4
    score = score_benchmark(_runs(failing), "unet3d", "2.0")
    assert score.valid and score.score_minutes == sum(range(5, 37)) / 32


def test_no_rule_no_score():
    reason = score_benchmark(_runs([1.0] * 5), "resnet", "9.9").reason
    assert reason.startswith(
        "no scoring rule for benchmark 'resnet' in round v9.9: "
        "sources/mlperf/rules/training.csv has rounds v0.7, v1.0, v1.1,"
    )
    assert reason.endswith("v4.1, v5.0")
    assert score_benchmark(_runs([1.0] * 5), "llama", "2.0").score_minutes is None


# --- systems -------------------------------------------------------------------------------


def test_a_system_json_gives_the_accelerator_count_and_the_vendor_pages_names():
    system, problems = read_system_file(ACME / "systems" / "pod16-tf-closed.json")
    assert problems == []
    assert (system.accelerator_count, system.vendor, system.system, system.accelerator) == (
        16,
        "Graphcore",
        "Bow Pod16",
        "Bow IPU",
    )
    assert (system.platform_resolution, system.framework_canonical, system.sdk_version) == (
        "system_name",
        "TensorFlow",
        "Poplar SDK 2.5.1",
    )
    assert (system.division, system.availability, system.accelerator_memory_gb) == (
        "closed",
        "available",
        32.0,
    )


def test_an_nvidia_system_id_names_the_dgx():
    system, _ = read_system_file(ACME / "systems" / "dgxa100_test_mxnet.json")
    assert (system.system, system.accelerator, system.accelerator_count) == ("DGX A100", "A100", 8)
    assert (system.platform_resolution, system.framework_canonical) == ("system_id", "MXNet")


def test_an_unknown_name_falls_back_to_count_times_accelerator():
    fields = {
        "submitter": "Intel-HabanaLabs",
        "division": "closed",
        "status": "available",
        "system_name": "HLS-9Z-N32",
        "number_of_nodes": "32",
        "accelerators_per_node": "4",
        "accelerator_model_name": "Habana Gaudi",
    }
    system, problems = describe_system("HLS-9Z-N32", fields)
    assert (system.system, system.accelerator, system.accelerator_count) == (
        "128x Gaudi",
        "Gaudi",
        128,
    )
    assert system.platform_resolution == "accelerator_count" and problems == []


def test_a_name_whose_platform_holds_another_count_is_not_trusted():
    fields = {
        "division": "closed",
        "status": "onprem",
        "system_name": "Bow-Pod16",
        "number_of_nodes": "4",
        "accelerators_per_node": "16",
        "accelerator_model_name": "Graphcore Bow IPU",
    }
    system, _ = describe_system("odd", fields)
    assert (system.system, system.accelerator_count) == ("64x Bow IPU", 64)


def test_unreadable_system_fields_are_problems(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"division": "closed", "division": "open", "number_of_nodes": "two"}')
    system, problems = read_system_file(path)
    assert system.division == "closed" and system.accelerator_count is None
    assert system.platform_resolution == "unresolved"
    assert [p.check for p in problems] == [
        "conflicting_key",
        "bad_number",
        "missing_field",
        "unknown_status",
    ]
    (tmp_path / "broken.json").write_text('{"division": ')
    assert read_system_file(tmp_path / "broken.json")[0] is None


def test_whole_numbers_written_as_floats_or_text_are_counts(tmp_path):
    for nodes, per_node, count in [(1.0, "8.0", 8), ("2", 8, 16), (" 4.0 ", "16", 64)]:
        system, problems = describe_system(
            "x", SYSTEM | {"number_of_nodes": nodes, "accelerators_per_node": per_node}
        )
        assert (system.accelerator_count, problems) == (count, [])
    path = tmp_path / "floats.json"
    path.write_text(
        '{"division": "closed", "status": "onprem", "system_name": "Bow-Pod16",'
        ' "number_of_nodes": 1.0, "accelerators_per_node": 16.0,'
        ' "accelerator_model_name": "Graphcore Bow IPU"}'
    )
    system, problems = read_system_file(path)
    assert problems == []
    assert (system.number_of_nodes, system.accelerators_per_node, system.system) == (
        1,
        16,
        "Bow Pod16",
    )
    assert isinstance(system.number_of_nodes, int)
    for bad in (1.5, "1.5", True, "1e999", "99999999999"):
        _, problems = describe_system("x", SYSTEM | {"number_of_nodes": bad})
        assert [p.check for p in problems] == ["bad_number"], bad


def test_statuses_map_to_the_official_availability_categories():
    cases = {
        "Available on-premise": ("Available on-premise", "available"),
        "available": ("Available on-premise", "available"),
        "onprem": ("Available on-premise", "available"),
        "Available Onprem": ("Available on-premise", "available"),
        "Available cloud": ("Available cloud", "available"),
        "cloud": ("Available cloud", "available"),
        "preview": ("Preview", "preview"),
        "Preview": ("Preview", "preview"),
        "Research, Development, or Internal (RDI)": (
            "Research, Development, or Internal (RDI)",
            "rdi",
        ),
        "rdi": ("Research, Development, or Internal (RDI)", "rdi"),
        "research": ("Research, Development, or Internal (RDI)", "rdi"),
        "internal": ("Research, Development, or Internal (RDI)", "rdi"),
    }
    for status, expected in cases.items():
        system, problems = describe_system("x", SYSTEM | {"status": status})
        assert (system.availability_category, system.availability) == expected, status
        assert problems == [], status
    system, problems = describe_system("x", SYSTEM | {"status": "on sale soon"})
    assert system.availability_category is None and [p.check for p in problems] == [
        "unknown_status"
    ]


# --- a whole tree --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def acme():
    return read_results_tree(CHECKOUT)


def test_the_tree_scores_each_system_and_benchmark(acme):
    pod16, dgx = _score(acme, "pod16-tf-closed"), _score(acme, "dgxa100_test_mxnet")
    assert (pod16["score_minutes"], pod16["valid"], pod16["model_canonical"]) == (
        10.5,
        True,
        "ResNet-50 v1.5",
    )
    assert pod16["runs_used"] == "result_1, result_2, result_4"
    assert pod16["runs_dropped"] == "result_0 (fastest), result_3 (slowest)"
    assert (dgx["score_minutes"], dgx["runs_found"], dgx["runs_non_converged"]) == (15.5, 5, 1)
    assert dgx["runs_dropped"] == "result_1 (not_converged), result_3 (fastest)"
    assert dgx["rule_id"] == "training-v2.0/benchmark-results/resnet"
    assert acme.scores["mlperf_round"].unique().to_list() == ["2.0"]


def test_the_tree_keeps_every_run_with_its_role_and_every_problem_located(acme):
    roles = acme.runs.filter(pl.col("system_id") == "dgxa100_test_mxnet").sort("run_index")
    assert roles["score_role"].to_list() == ["used", "not_converged", "used", "fastest", "used"]
    assert roles["status"].to_list() == ["success", "aborted", "success", "success", "success"]
    problems = acme.problems_frame()
    assert problems.select("path", "line_number", "check").rows() == [
        ("Acme/results/dgxa100_test_mxnet/resnet/result_2.txt", 12, "malformed_line"),
    ]
    assert len(acme.digest) == 64


def test_the_frames_meet_their_schemas(acme):
    MlperfSystemSchema.validate(acme.systems, lazy=True)
    MlperfRunSchema.validate(acme.runs, lazy=True)
    MlperfScoreSchema.validate(acme.scores, lazy=True)


def test_a_checkout_or_a_part_of_one_is_recognised(tmp_path):
    assert is_results_tree(FIXTURES) and is_results_tree(CHECKOUT) and is_results_tree(ACME)
    assert is_results_tree(DGX) and is_results_tree(ACME / "systems")
    assert not is_results_tree(LOGS) and not is_results_tree(tmp_path)
    assert not is_results_tree(POD16 / "result_0.txt")


def test_a_part_reads_only_that_part():
    part = read_results_tree(DGX)
    assert part.scores["system_id"].to_list() == ["dgxa100_test_mxnet"]
    assert part.systems["system_id"].to_list() == ["dgxa100_test_mxnet"]
    assert part.runs["path"][0] == "Acme/results/dgxa100_test_mxnet/resnet/result_0.txt"
    assert read_results_tree(ACME / "systems").runs.height == 0


def test_the_round_comes_from_the_folder_or_the_caller(tmp_path):
    copy = tmp_path / "checkout" / "Acme"
    shutil.copytree(ACME, copy)
    unknown = read_results_tree(copy.parent)
    assert unknown.scores["score_minutes"].to_list() == [None, None]
    assert "invalid_score" in {p.check for p in unknown.problems}
    assert read_results_tree(copy.parent, mlperf_round="2.0").scores["valid"].all()


def test_a_missing_run_stop_and_a_truncated_file_in_one_set_invalidate_it(tmp_path):
    checkout = tmp_path / "training_results_v2.0"
    shutil.copytree(CHECKOUT, checkout)
    folder = checkout / "Acme" / "results" / "pod16-tf-closed" / "resnet"
    shutil.copy(LOGS / "missing_run_stop.txt", folder / "result_3.txt")
    shutil.copy(LOGS / "truncated.txt", folder / "result_4.txt")
    score = _score(read_results_tree(checkout), "pod16-tf-closed")
    assert (score["valid"], score["score_minutes"]) == (False, None)
    assert score["reason"] == "2 runs did not converge; the rule allows 1"


def test_not_a_tree_is_a_problem_not_a_crash(tmp_path):
    results = read_results_tree(tmp_path)
    assert results.scores.height == 0
    assert [p.check for p in results.problems] == ["not_a_results_tree"]


# --- the real official v2.0 files (read from /work/shared, never copied) ----------------------


@pytest.fixture(scope="module")
def official():
    return read_results_tree(SHARED)


def _official(results, system_id: str, benchmark: str) -> dict:
    return results.scores.filter(
        (pl.col("system_id") == system_id) & (pl.col("benchmark") == benchmark)
    ).row(0, named=True)


@needs_shared
def test_habana_gaudi2_resnet_is_scored_as_the_summarizer_scores_it(official):
    score = _official(official, "HLS-Gaudi2", "resnet")
    # run_stop - run_start of result_1, 2, 3 in ms; result_0 (1092935) and result_4 (1128501)
    # are the fastest and the slowest. The summarizer's arithmetic: ms / 60 / 1000, sorted,
    # summed, divided by the count.
    kept = sorted(ms / 60 / 1000 for ms in (1104638, 1097917, 1102544))
    assert score["score_minutes"] == sum(kept) * 1.0 / 3 == 18.36166111111111
    assert (score["valid"], score["scaling_factor"], score["runs_required"]) == (True, 1.0, 5)
    assert score["runs_dropped"] == "result_0 (fastest), result_4 (slowest)"


@needs_shared
def test_nvidia_bert_drops_one_run_at_each_end_of_ten(official):
    score = _official(official, "dgxa100_ngc22.04_pytorch", "bert")
    kept = sorted(
        ms / 60 / 1000
        for ms in (1125109, 1059563, 1000240, 1098943, 1156459, 1116165, 1137184, 1158697)
    )
    assert score["score_minutes"] == sum(kept) / 8 == 18.442416666666666
    assert score["runs_dropped"] == "result_1 (slowest), result_5 (fastest)"
    assert score["rule_id"] == "training-v2.0/benchmark-results/bert"


@needs_shared
def test_the_real_tree_reads_its_round_statuses_and_runs_without_a_problem(official):
    assert official.problems == []
    assert official.scores["mlperf_round"].unique().to_list() == ["2.0"]
    categories = dict(official.systems.select("system_id", "availability_category").rows())
    assert categories["HLS-Gaudi2"] == "Available on-premise"  # "status": "available"
    assert categories["ipu-pod16-TF1-closed"] == "Available on-premise"  # "onprem"
    assert official.runs["last_eval_components"].null_count() == official.runs.height
    MlperfSystemSchema.validate(official.systems, lazy=True)
    MlperfScoreSchema.validate(official.scores, lazy=True)


# --- measurements --------------------------------------------------------------------------


def test_scores_become_measurements_in_the_vendor_pages_shape(acme):
    frame = measurements_from_scores(acme, CONTEXT)
    MeasurementSchema.validate(frame)
    rows = {row["system"]: row for row in frame.iter_rows(named=True)}
    pod16 = rows["Bow Pod16"]
    assert (pod16["metric"], pod16["value"], pod16["unit"], pod16["raw_value"]) == (
        "time_to_train",
        630.0,
        "s",
        "10.500000",
    )
    assert (pod16["accelerator"], pod16["accelerator_count"], pod16["vendor"]) == (
        "Bow IPU",
        16,
        "Graphcore",
    )
    assert (pod16["model_canonical"], pod16["framework_canonical"], pod16["sdk"]) == (
        "ResNet-50 v1.5",
        "TensorFlow",
        "2.5.1",
    )
    assert (pod16["division"], pod16["workload"], pod16["batch_size"]) == (
        "closed",
        "training",
        "3520",
    )
    assert pod16["mlperf_id"] is None
    assert rows["DGX A100"]["value"] == 930.0
    assert frame["row_identity"].n_unique() == frame.height


# --- the warehouse -------------------------------------------------------------------------

PAGE = "\n".join(
    [
        "MLPerf results",
        "",
        "The Bow Pod16 turned in a 31% faster time-to-train than the DGX-A100 640GB on ResNet-50.",
        "",
        "MLPerf v2.0 Training Results",
        "",
        "Division",
        "Model",
        "Platform",
        "Framework",
        "MLPerf ID",
        "Time to Train (mins)",
        "Closed",
        "ResNet50 v1.5",
        "Bow Pod16",
        "TensorFlow",
        "2.0-9001",
        "10.50",
        "Closed",
        "ResNet50 v1.5",
        "DGX A100",
        "MXNet",
        "2.0-9002",
        "16.20",
        "Closed",
        "ResNet50 v1.5",
        "Bow Pod64",
        "TensorFlow",
        "2.0-9003",
        "3.10",
        "",
    ]
)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory, acme):
    folder = tmp_path_factory.mktemp("mlperf-warehouse")
    page = folder / "vendor.txt"
    page.write_text(PAGE, encoding="utf-8")
    pipeline.ingest([str(page)], folder / "wh")
    connection = lake.connect(folder / "wh")
    connection.execute("BEGIN")
    load_mlperf(connection, "run-1", acme, "mlperf-acme")
    connection.execute("COMMIT")
    yield connection
    connection.close()


def test_loading_replaces_the_sources_rows_inside_the_callers_transaction(loaded, acme):
    loaded.execute("BEGIN")
    written = load_mlperf(loaded, "run-2", acme, "mlperf-acme")
    loaded.execute("ROLLBACK")
    assert written == {"mlperf_systems": 2, "mlperf_runs": 10, "mlperf_scores": 2}
    counts = loaded.execute(
        "SELECT (SELECT count(*) FROM mlperf_runs), "
        "(SELECT list(DISTINCT run_id) FROM mlperf_scores)"
    ).fetchone()
    assert counts == (10, ["run-1"])


def test_the_official_view_shows_scores_with_their_rule_and_runs(loaded):
    row = loaded.execute(
        "SELECT system, score_minutes, rule_id, runs FROM mlperf_official WHERE system = 'DGX A100'"
    ).fetchone()
    assert row[:3] == ("DGX A100", 15.5, "training-v2.0/benchmark-results/resnet")
    assert [(run["run"], run["role"]) for run in row[3]] == [
        ("result_0", "used"),
        ("result_1", "not_converged"),
        ("result_2", "used"),
        ("result_3", "fastest"),
        ("result_4", "used"),
    ]


def test_vendor_rows_are_reconciled_with_the_official_scores(loaded):
    rows = loaded.execute(
        "SELECT system, raw_value, official_minutes, difference_pct, verdict "
        "FROM mlperf_reconciliation ORDER BY system"
    ).fetchall()
    assert rows == [
        ("Bow Pod16", "10.50", 10.5, 0.0, "matches"),
        ("Bow Pod64", "3.10", None, None, "no official record"),
        ("DGX A100", "16.20", 15.5, 4.516, "differs"),
    ]


def test_the_cross_vendor_claim_is_checked_against_official_scores(loaded):
    row = loaded.execute(
        "SELECT subject, baseline, subject_minutes, baseline_minutes, claimed_ratio, "
        "measured_ratio, verdict, claimed_ratio_as_time_cut, verdict_as_time_cut "
        "FROM mlperf_claim_check() WHERE subject = 'Bow Pod16'"
    ).fetchone()
    assert row == (
        "Bow Pod16",
        "DGX A100 640GB",
        10.5,
        15.5,
        1.31,
        round(15.5 / 10.5, 6),
        "understated",
        round(1 / 0.69, 6),
        "supported",
    )


def test_the_claim_tolerance_is_the_callers(loaded):
    verdicts = loaded.execute(
        "SELECT (SELECT verdict FROM mlperf_claim_check(tolerance := 0.2) WHERE subject = "
        "'Bow Pod16'), (SELECT verdict FROM mlperf_claim_check(tolerance := 0.01) WHERE "
        "subject = 'Bow Pod16')"
    ).fetchone()
    assert verdicts == ("supported", "understated")
