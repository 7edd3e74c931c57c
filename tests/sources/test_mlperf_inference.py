"""Official MLPerf Inference v4.1 results read from the real files (never copied into the
project): exact official values, validity, power, rounds; and hostile copies of them in
tmp_path (cut logs, words for numbers, missing files), which give problems, never errors."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import polars as pl
import pytest

from perfledger.schemas.measurements import MeasurementSchema
from perfledger.schemas.mlperf_inference import PROBLEM_DTYPES, RESULT_DTYPES, SYSTEM_DTYPES
from perfledger.schemas.normalize import DocumentContext
from perfledger.sources.mlperf.inference import (
    is_inference_tree,
    read_inference_tree,
    round_of_inference_tree,
)
from perfledger.sources.mlperf.inference.loadgen import read_detail_log, read_summary_log
from perfledger.sources.mlperf.inference.rules import ROUNDS, round_of_seeds
from perfledger.sources.mlperf.inference_measurements import (
    PARSER_VERSION,
    measurements_from_inference,
)
from perfledger.warehouse import lake, sql
from tests.conftest import PROJECT_ROOT

TREE = PROJECT_ROOT.parent / "shared" / "mlperf" / "inference_v4.1"
pytestmark = pytest.mark.skipif(
    not (TREE / "closed").is_dir(), reason=f"the MLPerf Inference v4.1 files are not at {TREE}"
)
AMD = "8xMI300X_2xEPYC-9374F"
CONTEXT = DocumentContext(
    source_id="mlperf-inference-v4.1",
    source_url="https://github.com/mlcommons/inference_results_v4.1",
    document_sha256="b" * 64,
    document_title="MLPerf Inference v4.1 results",
    captured_at="2024-08-28T00:00:00Z",
    parser_version=PARSER_VERSION,
)


@pytest.fixture(scope="module")
def tree():
    return read_inference_tree(TREE)


def _result(results, system_id: str, benchmark: str, scenario: str) -> dict:
    rows = results.results.filter(
        (pl.col("system_id") == system_id)
        & (pl.col("benchmark") == benchmark)
        & (pl.col("scenario") == scenario)
    )
    assert rows.height == 1, rows
    return rows.row(0, named=True)


def _checks(results) -> list[str]:
    return results.problems["check"].to_list()


# --- the real tree -----------------------------------------------------------------------


def test_the_whole_tree_reads_fast_into_typed_frames(tree):
    started = time.process_time()  # CPU time: other work on the machine does not count
    again = read_inference_tree(TREE)
    assert time.process_time() - started < 3.0
    assert again.results.equals(tree.results)
    assert tree.results.schema == pl.Schema(RESULT_DTYPES)
    assert tree.systems.schema == pl.Schema(SYSTEM_DTYPES)
    assert tree.problems.schema == pl.Schema(PROBLEM_DTYPES)
    assert tree.problems_frame() is tree.problems  # as a training tree's results offer it
    assert tree.results.height == 145 and tree.systems.height == 33
    assert tree.results["valid"].all() and tree.results["reason"].is_null().all()
    assert set(tree.results["mlperf_round"]) == {"4.1"}
    assert set(tree.results["round_source"]) == {"log"}  # the seeds LoadGen ran with
    # The only notes: the 15 runs whose detail log the subset leaves out.
    assert set(_checks(tree)) == {"detail_log_missing"} and tree.problems.height == 15


def test_llm_results_are_the_official_token_rates(tree):
    offline = _result(tree, AMD, "llama2-70b-99", "Offline")
    assert offline["value"] == 23514.8
    assert (offline["metric"], offline["unit"], offline["result_field"]) == (
        "tokens_per_second",
        "tokens/s",
        "result_tokens_per_second",
    )
    assert offline["source_file"] == (
        f"closed/AMD/results/{AMD}/llama2-70b-99/Offline/performance/run_1/mlperf_log_detail.txt"
    )
    assert (offline["model"], offline["accuracy_target"], offline["division"]) == (
        "llama2-70b",
        "99",
        "closed",
    )
    server = _result(tree, AMD, "llama2-70b-99", "Server")
    # The detail log's 21028.2, which the checker reads (the summary prints 21028.23).
    assert server["value"] == 21028.2
    assert (server["metric"], server["result_field"]) == (
        "completed_tokens_per_second",
        "result_completed_tokens_per_second",
    )
    assert json.loads(server["accuracy"]) == {
        "ROUGE1": 44.5522,
        "ROUGE2": 22.1184,
        "ROUGEL": 28.7592,
        "TOKENS_PER_SAMPLE": 293.5,
    }
    assert server["accuracy_ok"] and server["result_validity"] == "VALID"
    # The 99.9 benchmark carries the same performance numbers, as a separate result.
    assert _result(tree, AMD, "llama2-70b-99.9", "Server")["accuracy_target"] == "99.9"
    gptj = _result(tree, "HPE_Cray_XD670_H100_SXM_80GBx8_TRT", "gptj-99", "Offline")
    assert (gptj["value"], gptj["result_field"]) == (19751.9, "result_inferred_tokens_per_second")


def test_stream_scenarios_are_early_stopping_latencies_in_ms(tree):
    single = _result(tree, "h13_u3_slim", "resnet50", "SingleStream")
    assert single["value"] == pytest.approx(0.120438, abs=1e-12)  # 120438 ns
    assert (single["metric"], single["unit"], single["result_field"]) == (
        "latency_p90",
        "ms",
        "early_stopping_latency_ss",
    )
    assert single["path"].endswith("/resnet50/singlestream")  # folder case as submitted
    multi = _result(tree, "h13_u3_slim", "resnet50", "MultiStream")
    assert multi["value"] == pytest.approx(0.212477, abs=1e-12)
    assert (multi["metric"], multi["result_field"]) == ("latency_p99", "early_stopping_latency_ms")
    server = _result(tree, "r760_u6_slim", "resnet50", "Server")
    assert (server["value"], server["unit"]) == (309752.0, "queries/s")


def test_power_comes_from_the_analyzer_samples_inside_the_power_window(tree):
    offline = _result(tree, "h13_u3_slim", "resnet50", "Offline")
    # 657 samples between 13:47:29.313 and 13:58:26.498 average 398.33 W.
    assert offline["power_watts"] == pytest.approx(398.33, abs=0.005)
    assert offline["energy_mj_per_query"] is None
    single = _result(tree, "h13_u3_slim", "resnet50", "SingleStream")
    assert single["power_watts"] is None
    assert single["energy_mj_per_query"] == pytest.approx(29.239, abs=0.001)
    assert _result(tree, "r760_u6_slim", "resnet50", "Server")["power_watts"] == (
        pytest.approx(985.519, abs=0.001)
    )
    powered = tree.results.filter(
        pl.col("power_watts").is_not_null() | pl.col("energy_mj_per_query").is_not_null()
    )
    assert powered.height == 5


def test_a_run_without_detail_log_is_read_from_its_summary(tree):
    dlrm = _result(tree, "1-node-2S-EMR-PyTorch", "dlrm-v2-99", "Server")
    assert dlrm["submitter"] == "Intel"
    assert dlrm["value"] == 9731.54 and dlrm["unit"] == "queries/s"
    assert dlrm["source_file"].endswith(
        "dlrm-v2-99/Server/performance/run_1/mlperf_log_summary.txt"
    )
    assert dlrm["valid"] and dlrm["accuracy_ok"]
    assert json.loads(dlrm["accuracy"]) == {"AUC": 80.24119408703937}
    untether = _result(tree, "h13_u1_preview_dc", "resnet50", "Server")
    assert untether["source_file"].endswith("mlperf_log_summary.txt")


def test_systems_keep_the_checkers_availability_and_the_folders_division(tree):
    amd = tree.systems.filter(pl.col("system_id") == AMD).row(0, named=True)
    assert (amd["division"], amd["availability"], amd["system_type"]) == (
        "closed",
        "available",
        "datacenter",
    )
    assert (amd["accelerator_count"], amd["accelerator_model_name"]) == (
        8,
        "AMD Instinct MI300X-NPS1-SPX-192GB-750W",
    )
    assert amd["path"] == f"closed/AMD/systems/{AMD}.json"
    turin = tree.systems.filter(pl.col("system_id") == "8xMI300X_2xEPYC-TURIN")
    assert turin["availability"].to_list() == ["preview"]
    cpu = tree.systems.filter(
        (pl.col("submitter") == "Intel") & (pl.col("system_id") == "1-node-2S-EMR-PyTorch")
    )
    assert cpu["accelerator_count"].to_list() == [0]


def test_the_round_comes_from_the_folder_and_a_part_of_the_tree_reads_alone():
    assert round_of_inference_tree(TREE) == "4.1"
    assert round_of_inference_tree(TREE / "closed" / "UntetherAI") == "4.1"
    assert is_inference_tree(TREE) and is_inference_tree(TREE.parent)
    one = read_inference_tree(
        TREE / "closed" / "AMD" / "results" / AMD / "llama2-70b-99" / "Offline"
    )
    assert one.results.height == 1 and one.systems["system_id"].to_list() == [AMD]
    assert one.results["value"].to_list() == [23514.8]


def test_measurements_are_one_per_valid_result_and_never_collide(tree):
    frame = measurements_from_inference(tree, CONTEXT)
    MeasurementSchema.validate(frame)
    assert frame.height == 145 and frame["row_identity"].n_unique() == 145
    offline = (
        frame.filter(pl.col("row_label") == "llama2-70b-99")
        .filter(pl.col("settings") == "Scenario=Offline")
        .filter(
            pl.col("platform").str.contains("Supermicro")
            & (pl.col("accelerator_count") == 8)
            & (pl.col("value") == 23514.8)
        )
    )
    row = offline.row(0, named=True)
    assert (row["metric"], row["unit"], row["item_kind"], row["unit_published"]) == (
        "throughput",
        "items/s",
        "tokens",
        "tokens/s",
    )
    assert row["value_per_accelerator"] == pytest.approx(23514.8 / 8)
    assert (row["workload"], row["quality_target"], row["division"]) == (
        "inference",
        "99%",
        "closed",
    )
    latency = frame.filter(pl.col("statistic") == "p90").row(0, named=True)
    assert (latency["metric"], latency["unit"], latency["unit_published"]) == (
        "latency",
        "ms",
        "ns",
    )
    assert float(latency["raw_value"]) / 1e6 == pytest.approx(latency["value"])
    assert "submission=inference/4.1/" in row["row_identity"]


def test_an_invalid_result_is_no_measurement(tree):
    broken = tree.results.with_columns(
        valid=pl.when(pl.col("benchmark") == "llama2-70b-99").then(False).otherwise(pl.col("valid"))
    )
    frame = measurements_from_inference(
        type(tree)(tree.root, tree.systems, broken, tree.problems), CONTEXT
    )
    assert frame.height == 145 - 14


def test_the_warehouse_migration_creates_both_tables(tree, tmp_path):
    connection = lake.connect(tmp_path / "wh", views=False)  # migrations only
    try:
        for table, frame in (
            ("mlperf_inference_systems", tree.systems),
            ("mlperf_inference_results", tree.results),
        ):
            columns = [row[0] for row in connection.execute(f"DESCRIBE {table}").fetchall()]
            assert columns == ["source_id", "run_id", *frame.columns]
            rows = frame.with_columns(source_id=pl.lit("s"), run_id=pl.lit("r"))
            names = ", ".join(f'"{name}"' for name in rows.columns)
            with sql.frame_view(connection, "_rows", rows) as view:
                connection.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {view}")
        count = connection.execute(
            "SELECT count(*) FROM mlperf_inference_results WHERE valid"
        ).fetchone()
    finally:
        connection.close()
    assert count == (145,)


# --- rounds as data ----------------------------------------------------------------------


def test_rounds_differ_where_the_checker_says_they_do():
    v40, v41, v50 = ROUNDS["4.0"], ROUNDS["4.1"], ROUNDS["5.0"]
    assert v40.official_field("resnet", "Server") == "result_scheduled_samples_per_sec"
    assert v41.official_field("resnet", "Server") == "result_completed_samples_per_sec"
    assert v40.official_field("llama2-70b-99", "Server") == "result_completed_samples_per_sec"
    assert v41.official_field("llama2-70b-99", "Server") == "result_completed_tokens_per_second"
    assert v40.checker_model("mixtral-8x7b") is None
    assert v41.checker_model("resnet50") == "resnet"
    assert v50.official_field("llama3.1-405b", "Offline") == "result_tokens_per_second"
    assert v41.equal_issue_models and not v50.equal_issue_models
    assert round_of_seeds(v50.seeds) == "5.0" and round_of_seeds({}) is None


# --- hostile copies ----------------------------------------------------------------------


def _copy(
    tmp_path: Path,
    root_name: str,
    system: str,
    benchmark: str,
    scenario: str,
    submitter: str = "AMD",
) -> tuple[Path, Path]:
    """A copy of one real result (and its system) under tmp_path/<root_name>."""
    root = tmp_path / root_name
    source = TREE / "closed" / submitter
    target = root / "closed" / submitter
    (target / "systems").mkdir(parents=True)
    shutil.copy(source / "systems" / f"{system}.json", target / "systems")
    folder = target / "results" / system / benchmark / scenario
    shutil.copytree(source / "results" / system / benchmark / scenario, folder)
    for file in folder.rglob("*"):
        file.chmod(0o644)
    return root, folder


def _without_seeds(summary: Path) -> None:
    lines = summary.read_text().splitlines(keepends=True)
    summary.write_text("".join(line for line in lines if "rng_seed" not in line))


def test_a_truncated_detail_log_gives_a_located_problem_and_no_valid_result(tmp_path):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99", "Offline")
    detail = folder / "performance" / "run_1" / "mlperf_log_detail.txt"
    data = detail.read_bytes()
    cut = data.index(b'"key": "result_validity"') + 30
    detail.write_bytes(data[:cut])
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert not row["valid"] and row["value"] is None
    assert "no result_validity in mlperf_log_detail.txt" in row["reason"]
    problem = results.problems.filter(pl.col("check") == "malformed_line").row(0, named=True)
    assert problem["line_number"] == data[:cut].count(b"\n") + 1
    assert "result_validity" in problem["reason"] and problem["path"].endswith(
        "mlperf_log_detail.txt"
    )


def test_a_word_where_a_number_belongs_is_a_bad_number(tmp_path):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99", "Offline")
    detail = folder / "performance" / "run_1" / "mlperf_log_detail.txt"
    detail.write_bytes(
        detail.read_bytes().replace(
            b'"key": "result_tokens_per_second", "value": 23514.8',
            b'"key": "result_tokens_per_second", "value": "fast"',
        )
    )
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert row["value"] is None and not row["valid"]
    assert "no usable result_tokens_per_second" in row["reason"]
    problem = results.problems.filter(pl.col("check") == "bad_number").row(0, named=True)
    assert "fast" in problem["reason"] and problem["line_number"] > 1
    assert '"fast"' in problem["raw"]


def test_a_bad_summary_number_is_a_problem_too(tmp_path):
    root, folder = _copy(
        tmp_path,
        "inference_results_v4.1",
        "1-node-2S-EMR-PyTorch",
        "dlrm-v2-99",
        "Server",
        submitter="Intel",
    )
    summary = folder / "performance" / "run_1" / "mlperf_log_summary.txt"
    summary.write_text(summary.read_text().replace("9731.54", "n/a", 1))
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert row["value"] is None and not row["valid"]
    problem = results.problems.filter(pl.col("check") == "bad_number").row(0, named=True)
    assert problem["line_number"] == 7 and "n/a" in problem["raw"]


def test_a_missing_accuracy_file_fails_the_result(tmp_path):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99", "Server")
    (folder / "accuracy" / "accuracy.txt").unlink()
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert row["value"] == 21028.2  # still read, but not official
    assert (row["valid"], row["accuracy_ok"], row["reason"]) == (
        False,
        False,
        "no accuracy/accuracy.txt",
    )
    assert "missing_accuracy" in _checks(results)


def test_accuracy_below_the_target_and_broken_system_json_are_reasons(tmp_path):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99.9", "Server")
    accuracy = folder / "accuracy" / "accuracy.txt"
    accuracy.write_text(accuracy.read_text().replace("'rouge1': 44.5", "'rouge1': 41.5"))
    (root / "closed" / "AMD" / "systems" / f"{AMD}.json").write_text('{"division": "clo')
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert not row["accuracy_ok"] and not row["valid"]
    assert "its system description cannot be read" in row["reason"]
    assert "ROUGE1 41.5522 is below the target 44.3868" in row["reason"]
    assert "malformed_json" in _checks(results) and results.systems.height == 0


def test_the_round_falls_back_to_the_folder_then_the_argument(tmp_path):
    # Without the seeds the logs do not say the round.
    root, folder = _copy(
        tmp_path,
        "inference_results_v4.1",
        "1-node-2S-EMR-PyTorch",
        "dlrm-v2-99",
        "Server",
        submitter="Intel",
    )
    _without_seeds(folder / "performance" / "run_1" / "mlperf_log_summary.txt")
    from_folder = read_inference_tree(root).results.row(0, named=True)
    assert (from_folder["mlperf_round"], from_folder["round_source"]) == ("4.1", "folder")
    assert "no effective_qsl_rng_seed in mlperf_log_summary.txt" in from_folder["reason"]

    plain = tmp_path / "checkout"
    root.rename(plain)
    unknown = read_inference_tree(plain)
    assert unknown.results["mlperf_round"].to_list() == [None]
    assert "the round is unknown: pass --round" in unknown.results["reason"][0]
    problem = unknown.problems.filter(pl.col("check") == "unknown_round").row(0, named=True)
    assert "pass --round" in problem["reason"]
    given = read_inference_tree(plain, mlperf_round="v4.1").results.row(0, named=True)
    assert (given["mlperf_round"], given["round_source"]) == ("4.1", "argument")
    assert round_of_inference_tree(plain) is None


def test_the_logs_round_wins_over_a_folder_that_disagrees(tmp_path):
    root, _ = _copy(tmp_path, "inference_results_v4.0", AMD, "llama2-70b-99", "Offline")
    results = read_inference_tree(root, mlperf_round="4.0")
    row = results.results.row(0, named=True)
    assert (row["mlperf_round"], row["round_source"], row["valid"]) == ("4.1", "log", True)
    assert "round_conflict" in _checks(results)
    plain = tmp_path / "elsewhere"
    root.rename(plain)
    assert round_of_inference_tree(plain) == "4.1"  # the seeds of one summary


def test_power_without_samples_in_the_window_is_not_a_result(tmp_path):
    root, folder = _copy(
        tmp_path,
        "inference_results_v4.1",
        "h13_u3_slim",
        "resnet50",
        "offline",
        submitter="UntetherAI",
    )
    spl = folder / "performance" / "run_1" / "spl.txt"
    spl.write_text(
        "Time,01-01-2020 00:00:00.000,Watts,500.0,Volts,118\nTime,yesterday,Watts,lots\n"
    )
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert row["power_watts"] is None and not row["valid"]
    assert "no power sample between power_begin and power_end" in row["reason"]
    bad = results.problems.filter(pl.col("check") == "bad_power_sample").row(0, named=True)
    assert bad["line_number"] == 2


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff" * 5000,
        b":::MLLOG {\n" * 100,
        b':::MLLOG {"key": "result_validity", "value": 7}\n',
    ],
)
def test_garbage_logs_never_raise(tmp_path, content):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99", "Offline")
    (folder / "performance" / "run_1" / "mlperf_log_detail.txt").write_bytes(content)
    results = read_inference_tree(root)
    assert results.results["valid"].to_list() == [False]
    assert results.results["reason"][0]


def test_what_is_not_a_tree_is_a_problem(tmp_path):
    (tmp_path / "notes").mkdir()
    results = read_inference_tree(tmp_path / "notes")
    assert results.results.height == 0 and _checks(results) == ["not_an_inference_tree"]
    assert not is_inference_tree(tmp_path / "notes")
    assert not is_inference_tree(PROJECT_ROOT / "tests" / "fixtures" / "mlperf")


def test_summaries_and_detail_logs_agree_on_every_key_both_give():
    """The summary lines stand in for the detail keys when the detail log is absent."""
    compared = 0
    for run in sorted(TREE.glob("closed/*/results/*/*/*/performance/run_1")):
        if not (run / "mlperf_log_detail.txt").is_file():
            continue
        detail = read_detail_log(run / "mlperf_log_detail.txt", "detail")
        summary = read_summary_log(run / "mlperf_log_summary.txt", "summary")
        assert detail.problems == [] and summary.problems == [] and summary.errors == []
        for key, value in summary.values.items():
            if key in detail.values:
                compared += 1
                expected = detail.values[key]
                if isinstance(value, float | int) and not isinstance(value, bool):
                    # The summary rounds to two decimals (21028.23 for 21028.2).
                    assert value == pytest.approx(expected, rel=1e-3, abs=0.01), (run, key)
                else:
                    assert value == expected, (run, key)
    assert compared > 130 * 15


def test_an_llm_server_run_without_detail_log_is_judged_on_its_summary(tmp_path):
    root, folder = _copy(tmp_path, "inference_results_v4.1", AMD, "llama2-70b-99", "Server")
    (folder / "performance" / "run_1" / "mlperf_log_detail.txt").unlink()
    results = read_inference_tree(root)
    row = results.results.row(0, named=True)
    assert (row["value"], row["valid"], row["reason"]) == (21028.23, True, None)
    assert row["source_file"].endswith("/Server/performance/run_1/mlperf_log_summary.txt")
    assert _checks(results) == ["detail_log_missing"]
    summary = folder / "performance" / "run_1" / "mlperf_log_summary.txt"
    summary.write_text(
        summary.read_text().replace(
            "99.00 percentile first token latency (ns)   : 1604171041",
            "99.00 percentile first token latency (ns)   : 2604171041",
        )
    )
    slow = read_inference_tree(root).results.row(0, named=True)
    assert not slow["valid"]
    assert slow["reason"] == ("99th percentile time to first token 2604.17 ms is not under 2000 ms")
