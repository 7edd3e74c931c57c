"""Read one MLPerf result file (`:::MLLOG {json}` lines) into a run, every problem located."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

MLLOG_MARKER = ":::MLLOG"
# A real result log is well under 1 MiB; these bounds keep a hostile or broken file cheap.
MAX_RESULT_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
RAW_EXCERPT_CHARS = 200
SUCCESS = "success"

# Keys that describe the run's timeline rather than its configuration.
TIMELINE_KEYS = frozenset({
    "run_start", "run_stop", "init_start", "init_stop", "epoch_start", "epoch_stop",
    "block_start", "block_stop", "eval_start", "eval_stop", "eval_accuracy",
    "weights_initialization", "cache_clear", "tracked_stats", "throughput",
})


@dataclass(frozen=True)
class Problem:
    """Something in the input that could not be read as expected: reported, never fatal."""

    check: str  # short machine name, e.g. "malformed_line"
    reason: str  # a sentence a person can act on
    line_number: int | None = None
    raw: str = ""  # the text concerned, cut to RAW_EXCERPT_CHARS
    path: str = ""  # file the problem is in, relative to the tree read


@dataclass(frozen=True)
class EvalPoint:
    time_ms: int
    value: float
    epoch: float | None
    line_number: int


@dataclass
class RunLog:
    """What one result file says about its run."""

    run_start_ms: int | None = None
    run_stop_ms: int | None = None
    status: str | None = None  # run_stop's status, lower case: "success", "aborted", ...
    evals: list[EvalPoint] = field(default_factory=list)
    submission: dict[str, str] = field(default_factory=dict)  # submission_* keys, prefix cut
    hyperparameters: dict[str, object] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    line_count: int = 0
    bytes_read: int = 0
    sha256: str = ""

    @property
    def duration_ms(self) -> int | None:
        if self.run_start_ms is None or self.run_stop_ms is None:
            return None
        if self.run_stop_ms < self.run_start_ms:
            return None
        return self.run_stop_ms - self.run_start_ms

    @property
    def converged(self) -> bool:
        """True when the run reached its quality target: a timed run that stopped in success."""
        return self.duration_ms is not None and self.status == SUCCESS

    @property
    def global_batch_size(self) -> int | None:
        value = self.hyperparameters.get("global_batch_size")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_result_file(path: Path, max_bytes: int = MAX_RESULT_BYTES) -> RunLog:
    """Parse a result file, reading at most `max_bytes` of it whatever its stated size."""
    with Path(path).open("rb") as handle:
        data = handle.read(max_bytes + 1)
    cut = len(data) > max_bytes
    run = parse_result_bytes(data[:max_bytes])
    if cut:
        run.problems.append(Problem(
            "file_too_large",
            f"only the first {max_bytes} bytes were read; the run is judged on those",
        ))
    return run


def parse_result_bytes(data: bytes) -> RunLog:
    """Parse the bytes of a result file; lines that are not MLLOG events are skipped."""
    run = RunLog(bytes_read=len(data), sha256=hashlib.sha256(data).hexdigest())
    lines = data.split(b"\n")
    ends_cleanly = data.endswith(b"\n") or not data
    if ends_cleanly:
        lines = lines[:-1]
    run.line_count = len(lines)
    for number, line in enumerate(lines, start=1):
        is_last_unterminated = number == len(lines) and not ends_cleanly
        _read_line(run, number, line, is_last_unterminated)
    _check_timeline(run)
    return run


def _read_line(run: RunLog, number: int, line: bytes, unterminated: bool) -> None:
    if len(line) > MAX_LINE_BYTES:
        run.problems.append(Problem(
            "line_too_long", f"line of {len(line)} bytes exceeds {MAX_LINE_BYTES}; skipped",
            number, _cut_excerpt(line),
        ))
        return
    text = line.decode("utf-8", errors="replace")
    # Multi-process launchers prefix lines ("[1,0]<stdout>:"), so the marker may not lead.
    position = text.find(MLLOG_MARKER)
    if position < 0:
        return
    payload = text[position + len(MLLOG_MARKER):].strip()
    try:
        event = json.loads(payload)
    except ValueError as error:
        check = "truncated_line" if unterminated else "malformed_line"
        run.problems.append(Problem(
            check, f"MLLOG line is not valid JSON ({error.msg})", number, _cut_excerpt(line),
        ))
        return
    if not isinstance(event, dict) or not isinstance(event.get("key"), str):
        run.problems.append(Problem(
            "malformed_event", "MLLOG event is not an object with a 'key'", number,
            _cut_excerpt(line),
        ))
        return
    _apply_event(run, event, number, line)


def _apply_event(run: RunLog, event: dict, number: int, line: bytes) -> None:
    key = event["key"]
    value = event.get("value")
    metadata = event.get("metadata") if isinstance(event.get("metadata"), dict) else {}
    if key in ("run_start", "run_stop"):
        _apply_boundary(run, key, _read_time_ms(event), value, metadata, number, line)
    elif key == "eval_accuracy":
        _apply_eval(run, event, value, metadata, number, line)
    elif key.startswith("submission_"):
        if value is not None:
            run.submission.setdefault(key.removeprefix("submission_"), str(value))
    elif key not in TIMELINE_KEYS and _is_scalar(value):
        run.hyperparameters.setdefault(key, value)


def _apply_boundary(
    run: RunLog, key: str, time_ms: int | None, value, metadata: dict, number: int, line: bytes
) -> None:
    if time_ms is None:
        run.problems.append(Problem(
            "missing_time", f"{key} has no numeric time_ms", number, _cut_excerpt(line),
        ))
        return
    # The official summarizer times the first run_start to the first run_stop; so do we.
    if key == "run_start":
        if run.run_start_ms is not None:
            run.problems.append(Problem(
                "repeated_run_start", "a second run_start; the first one is used", number,
            ))
            return
        run.run_start_ms = time_ms
        return
    if run.run_stop_ms is not None:
        run.problems.append(Problem(
            "repeated_run_stop", "a second run_stop; the first one is used", number,
        ))
        return
    run.run_stop_ms = time_ms
    run.status = _read_stop_status(value, metadata)


def _read_stop_status(value, metadata: dict) -> str | None:
    status = metadata.get("status")
    if status is None and isinstance(value, dict):
        status = value.get("status")
    return str(status).strip().lower() if status is not None else None


def _apply_eval(run: RunLog, event: dict, value, metadata: dict, number: int, line: bytes):
    time_ms = _read_time_ms(event)
    if not _is_number(value) or time_ms is None:
        run.problems.append(Problem(
            "malformed_eval", "eval_accuracy without a numeric value and time", number,
            _cut_excerpt(line),
        ))
        return
    epoch = metadata.get("epoch_num")
    run.evals.append(EvalPoint(time_ms, float(value),
                               float(epoch) if _is_number(epoch) else None, number))


def _check_timeline(run: RunLog) -> None:
    if run.run_start_ms is None:
        run.problems.append(Problem("missing_run_start", "no run_start event: the run is untimed"))
    if run.run_stop_ms is None:
        run.problems.append(Problem(
            "missing_run_stop", "no run_stop event: the run did not finish or the log is cut",
        ))
    elif run.run_start_ms is not None and run.run_stop_ms < run.run_start_ms:
        run.problems.append(Problem(
            "stop_before_start",
            f"run_stop ({run.run_stop_ms}) is earlier than run_start ({run.run_start_ms})",
        ))


def _read_time_ms(event: dict) -> int | None:
    value = event.get("time_ms")
    if not _is_number(value):
        return None
    return int(value)


def _is_number(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _is_scalar(value) -> bool:
    return isinstance(value, str | int | float | bool)


def _cut_excerpt(line: bytes) -> str:
    return line[:RAW_EXCERPT_CHARS * 4].decode("utf-8", errors="replace")[:RAW_EXCERPT_CHARS]
