"""Read the LoadGen logs of one run: the keys the checker reads, from the detail log, or from the
summary when the detail log is absent. Every unreadable line is a located problem.

The detail log (`mlperf_log_detail.txt`) holds one `:::MLLOG {json}` event per line and can be
several MB; only the lines of the keys needed are decoded, found with one regular expression
over the bytes. The summary (`mlperf_log_summary.txt`) prints the same values as
"name : value" lines; SUMMARY_KEYS names the detail key each line stands for (the names are
LoadGen's, read from the v4.1 summaries and loadgen/results.cc).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from perfledger.sources.mlperf.inference.rules import RESULT_FIELDS
from perfledger.sources.mlperf.mllog import Problem, json_error

DETAIL_LOG = "mlperf_log_detail.txt"
SUMMARY_LOG = "mlperf_log_summary.txt"
MAX_LOG_BYTES = 64 * 1024 * 1024  # the checker refuses files over 50 MB
MAX_SUMMARY_BYTES = 1024 * 1024
RAW_CHARS = 200

SEED_KEYS = (
    "effective_qsl_rng_seed",
    "effective_sample_index_rng_seed",
    "effective_schedule_rng_seed",
)
TTFT_P99 = "result_first_token_99.00_percentile_latency_ns"
TPOT_P99 = "result_time_per_output_token_99.00_percentile_ns"
LATENCY_P99 = "result_99.00_percentile_latency_ns"
FLAG_KEYS = (
    "result_min_duration_met",
    "result_min_queries_met",
    "result_perf_constraints_met",
    "early_stopping_met",
    "requested_use_token_latencies",
    "effective_sample_concatenate_permutation",
)
TEXT_KEYS = (
    "result_validity",
    "effective_scenario",
    "loadgen_version",
    "power_begin",
    "power_end",
    "effective_test_mode",
    "early_stopping_result",
    "sut_name",
)
NUMBER_KEYS = (
    *RESULT_FIELDS,
    *SEED_KEYS,
    "effective_performance_sample_count",
    "effective_target_latency_ns",
    "effective_min_query_count",
    "effective_samples_per_query",
    "effective_min_duration_ms",
    "result_query_count",
    TTFT_P99,
    TPOT_P99,
    LATENCY_P99,
)
NEEDED_KEYS = (*NUMBER_KEYS, *FLAG_KEYS, *TEXT_KEYS)

# Summary line name (as printed, lower case) -> detail key; per scenario where it differs.
SUMMARY_KEYS: dict[str, str] = {
    "scenario": "effective_scenario",
    "mode": "effective_test_mode",
    "sut name": "sut_name",
    "result is": "result_validity",
    "performance constraints satisfied": "result_perf_constraints_met",
    "min duration satisfied": "result_min_duration_met",
    "min queries satisfied": "result_min_queries_met",
    "early stopping satisfied": "early_stopping_met",
    "samples per second": "result_samples_per_second",
    "completed samples per second": "result_completed_samples_per_sec",
    "scheduled samples per second": "result_scheduled_samples_per_sec",
    "tokens per second": "result_tokens_per_second",
    "completed tokens per second": "result_completed_tokens_per_second",
    "tokens per second (inferred)": "result_inferred_tokens_per_second",
    "completed tokens per second (inferred)": "result_inferred_completed_tokens_per_second",
    "early stopping 90th percentile estimate": "early_stopping_latency_ss",
    "90.00 percentile latency (ns)": "result_90.00_percentile_latency_ns",
    "99.00 percentile latency (ns)": LATENCY_P99,
    "99.00 percentile first token latency (ns)": TTFT_P99,
    "99.00 percentile time to output token (ns)": TPOT_P99,
    "qsl_rng_seed": "effective_qsl_rng_seed",
    "sample_index_rng_seed": "effective_sample_index_rng_seed",
    "schedule_rng_seed": "effective_schedule_rng_seed",
    "performance_sample_count": "effective_performance_sample_count",
    "min_duration (ms)": "effective_min_duration_ms",
    "min_query_count": "effective_min_query_count",
    "samples_per_query": "effective_samples_per_query",
    "target_latency (ns)": "effective_target_latency_ns",
    # The LLM summaries print the token bounds only when token latencies were requested.
    "ttft_latency (ns)": "requested_server_ttft_latency",
}
# In a SingleStream summary the 99th percentile estimate is printed too, but only in
# MultiStream is it the result; there the percentile lines are per query (another key).
SUMMARY_KEYS_BY_SCENARIO: dict[str, dict[str, str | None]] = {
    "MultiStream": {
        "early stopping 99th percentile estimate": "early_stopping_latency_ms",
        "90.00 percentile latency (ns)": None,
        "99.00 percentile latency (ns)": None,
    },
}
_SUMMARY_LINE = re.compile(r"^\s*(?:\*\s*)?([^:]+?)\s*:\s*(.*?)\s*$")
_SUMMARY_ERRORS = re.compile(r"^\s*(?:(\d+)\s+ERRORS?|No errors)\s+encountered", re.I)
_DETAIL_LINE = re.compile(
    rb'^:::MLLOG\s*(\{\s*"key"\s*:\s*"('
    + b"|".join(re.escape(key.encode()) for key in NEEDED_KEYS)
    + rb')".*?)\r?$',
    re.M,
)
_ERROR_EVENT = re.compile(rb'"is_error"\s*:\s*true')


@dataclass
class LoadgenLog:
    """The keys read from one run's logs, where each came from, and what could not be read."""

    values: dict[str, object] = field(default_factory=dict)
    line_numbers: dict[str, int] = field(default_factory=dict)
    source_file: str | None = None  # the file the values came from
    from_detail: bool = False
    errors: list[str] | None = None  # LoadGen errors; None when they could not be checked
    problems: list[Problem] = field(default_factory=list)

    def number(self, key: str) -> float | None:
        value = self.values.get(key)
        return float(value) if _is_number(value) else None

    def flag(self, key: str) -> bool | None:
        value = self.values.get(key)
        return value if isinstance(value, bool) else None

    def text(self, key: str) -> str | None:
        value = self.values.get(key)
        return value if isinstance(value, str) else None


def read_run_logs(folder: Path, relative: str) -> LoadgenLog:
    """The run in `folder` (performance/run_1): its detail log, else its summary."""
    detail, summary = folder / DETAIL_LOG, folder / SUMMARY_LOG
    if detail.is_file():
        return read_detail_log(detail, f"{relative}/{DETAIL_LOG}")
    if summary.is_file():
        return read_summary_log(summary, f"{relative}/{SUMMARY_LOG}")
    log = LoadgenLog()
    log.problems.append(
        Problem(
            "missing_performance_log",
            f"neither {DETAIL_LOG} nor {SUMMARY_LOG} is in {relative}",
            path=relative,
        )
    )
    return log


def read_detail_log(path: Path, relative: str, max_bytes: int = MAX_LOG_BYTES) -> LoadgenLog:
    log = LoadgenLog(source_file=relative, from_detail=True)
    data = _read_bytes(path, max_bytes, log, relative)
    if data is None:
        return log
    counted, line_number = 0, 1
    for match in _DETAIL_LINE.finditer(data):
        key = match.group(2).decode()
        if key in log.values:
            continue  # the first event of a key is the one the checker's parser keeps
        line_number += data.count(b"\n", counted, match.start())
        counted = match.start()
        try:
            event = json.loads(match.group(1))
        except ValueError as error:
            log.problems.append(
                Problem(
                    "malformed_line",
                    f"the '{key}' event is not valid JSON ({json_error(error)}); "
                    "the log may be cut short",
                    line_number,
                    _excerpt(match.group(0)),
                    relative,
                )
            )
            continue
        value = event.get("value") if isinstance(event, dict) else None
        _store(log, key, value, line_number, _excerpt(match.group(0)), relative)
    log.errors = [_excerpt(_line_at(data, hit.start())) for hit in _ERROR_EVENT.finditer(data)]
    return log


def read_summary_log(path: Path, relative: str, max_bytes: int = MAX_SUMMARY_BYTES) -> LoadgenLog:
    log = LoadgenLog(source_file=relative)
    data = _read_bytes(path, max_bytes, log, relative)
    if data is None:
        return log
    lines = data.decode("utf-8", errors="replace").splitlines()
    names: dict[str, str | None] = dict(SUMMARY_KEYS)
    for number, line in enumerate(lines, start=1):
        errors = _SUMMARY_ERRORS.match(line)
        if errors:
            log.errors = [line.strip()] if errors.group(1) else []
            continue
        match = _SUMMARY_LINE.match(line)
        if match is None:
            continue
        name, text = match.group(1).lower(), match.group(2)
        if name == "scenario":
            names.update(SUMMARY_KEYS_BY_SCENARIO.get(text, {}))
        key = names.get(name)
        if key is None or key in log.values:
            continue
        _store(
            log, key, _summary_value(key, text), number, line[:RAW_CHARS], relative, written=text
        )
    if "requested_server_ttft_latency" in log.values:
        log.values.setdefault("requested_use_token_latencies", True)
    return log


def _store(
    log: LoadgenLog,
    key: str,
    value,
    line_number: int,
    raw: str,
    relative: str,
    written: str | None = None,
) -> None:
    shown = written if written is not None else json.dumps(value)[:RAW_CHARS]
    if key in NUMBER_KEYS and not _is_number(value):
        log.problems.append(
            Problem("bad_number", f"'{key}' is not a number: {shown!r}", line_number, raw, relative)
        )
        return
    if key in FLAG_KEYS and not isinstance(value, bool):
        log.problems.append(
            Problem(
                "bad_flag",
                f"'{key}' is not true/false (Yes/No): {shown!r}",
                line_number,
                raw,
                relative,
            )
        )
        return
    if key in TEXT_KEYS and not isinstance(value, str):
        value = None if value is None else str(value)
    log.values[key] = value
    log.line_numbers[key] = line_number


def _summary_value(key: str, text: str):
    if key in FLAG_KEYS:
        return {"yes": True, "no": False}.get(text.strip().lower(), text)
    if key in NUMBER_KEYS:
        return _parse_number(text)
    return text


def _parse_number(text: str):
    text = text.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text


def _read_bytes(path: Path, max_bytes: int, log: LoadgenLog, relative: str) -> bytes | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        log.problems.append(
            Problem("unreadable_file", f"cannot be read: {error.strerror}", path=relative)
        )
        return None
    if len(data) > max_bytes:
        log.problems.append(
            Problem(
                "file_too_large",
                f"larger than {max_bytes} bytes; only the start is read",
                path=relative,
            )
        )
        data = data[:max_bytes]
    return data


def _line_at(data: bytes, position: int) -> bytes:
    start = data.rfind(b"\n", 0, position) + 1
    end = data.find(b"\n", position)
    return data[start : end if end >= 0 else len(data)]


def _excerpt(line: bytes) -> str:
    return line[: RAW_CHARS * 4].decode("utf-8", errors="replace")[:RAW_CHARS]


def _is_number(value) -> TypeGuard[int | float]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)
