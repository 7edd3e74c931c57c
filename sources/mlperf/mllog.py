"""Read one MLPerf result file (`:::MLLOG {json}` lines) into a run, every problem located.

What decides whether a run counts, read from mlcommons/logging: the result summarizer
(mlperf_logging/result_summarizer/result_summarizer.py, commit d4a66d8) drops a run whose file
fails the compliance check, and times the others from run_start to run_stop. The compliance
rules (compliance_checker/training_2.0.0/common.yaml; the same in 5.0.0 and 5.1.0) require
EXACTLY_ONE run_start and EXACTLY_ONE run_stop, the run_stop with a 'status' in its metadata;
the closed benchmarks' files require an evaluation that reaches the quality target. Here a
run converges when it is timed, logs one run_start and one run_stop, and stops in "success";
the quality target is checked where the round, benchmark and division are known (see
targets.py); the checker's hyperparameter checks are not repeated. Times are kept as logged,
a fraction of a millisecond included, as the summarizer reads them.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

MLLOG_MARKER = ":::MLLOG"
# A real result log is well under 1 MiB; these bounds keep a hostile or broken file cheap.
MAX_RESULT_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
RAW_EXCERPT_CHARS = 200
SUCCESS = "success"
MAX_INT = 2**63  # a number beyond it is no count, time or accuracy the frames can hold
MAX_TIME_MS = 2**53  # beyond it a time has no exact whole milliseconds

# Keys that describe the run's timeline rather than its configuration.
TIMELINE_KEYS = frozenset(
    {
        "run_start",
        "run_stop",
        "init_start",
        "init_stop",
        "epoch_start",
        "epoch_stop",
        "block_start",
        "block_stop",
        "eval_start",
        "eval_stop",
        "eval_accuracy",
        "weights_initialization",
        "cache_clear",
        "tracked_stats",
        "throughput",
    }
)


@dataclass(frozen=True)
class Problem:
    """Something in the input that could not be read as expected: reported, never fatal."""

    check: str  # short machine name, e.g. "malformed_line"
    reason: str  # a sentence a person can act on
    line_number: int | None = None
    raw: str = ""  # the text concerned, cut to RAW_EXCERPT_CHARS
    path: str = ""  # file the problem is in, relative to the tree read


# The component that stands for a dict evaluation in `value`. Mask R-CNN logs
# {"BBOX": ..., "SEGM": ...}; it converges when some evaluation has BBOX >= 0.377 and
# SEGM >= 0.339 (compliance_checker/1.0.0/closed_maskrcnn.yaml and training_3.0.0/
# closed_maskrcnn.yaml, ATLEAST_ONE_CHECK; training_rules.adoc v1.0: "0.377 Box min AP and
# 0.339 Mask min AP"). Each component has its own target, so neither the smaller component
# nor any one number decides convergence: every component is kept (`components`), and the
# number shown is the box AP, the first quality metric the rules name. A dict without BBOX
# shows its first numeric component as logged.
PRIMARY_COMPONENTS = ("BBOX",)


@dataclass(frozen=True)
class EvalPoint:
    time_ms: float
    value: float  # the evaluation, or its primary component when it logs several
    epoch: float | None
    line_number: int
    components: dict[str, float] | None = None  # every numeric component of a dict value
    # A value of several logged on lines of their own (Stable Diffusion's FID and CLIP):
    # which one (`metadata.metric`), and the evaluation it belongs to (`samples_count`).
    metric: str | None = None
    samples_count: object = None


@dataclass
class RunLog:
    """What one result file says about its run."""

    run_start_ms: float | None = None  # as logged: whole milliseconds, or with a fraction
    run_stop_ms: float | None = None
    status: str | None = None  # run_stop's status, lower case: "success", "aborted", ...
    evals: list[EvalPoint] = field(default_factory=list)
    submission: dict[str, str] = field(default_factory=dict)  # submission_* keys, prefix cut
    hyperparameters: dict[str, object] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    line_count: int = 0
    bytes_read: int = 0
    sha256: str = ""
    run_starts: int = 0  # the compliance checker requires exactly one of each
    run_stops: int = 0

    @property
    def duration_ms(self) -> float | None:
        if self.run_start_ms is None or self.run_stop_ms is None:
            return None
        if self.run_stop_ms < self.run_start_ms:
            return None
        return self.run_stop_ms - self.run_start_ms

    @property
    def minutes(self) -> float | None:
        """The run's time as the summarizer computes it: (stop - start) ms / 60 / 1000."""
        duration = self.duration_ms
        return duration / 60 / 1000 if duration is not None else None

    @property
    def converged(self) -> bool:
        """True when the run counts: timed from its only run_start to its only run_stop, and
        stopped in success. A second run_start or run_stop fails the compliance checker's
        EXACTLY_ONE, so the summarizer drops such a run."""
        return (
            self.duration_ms is not None
            and self.status == SUCCESS
            and self.run_starts <= 1
            and self.run_stops <= 1
        )

    @property
    def logged_round(self) -> str | None:
        """The round the log states, if it logs one (see ROUND_KEYS)."""
        values = (self.submission.get("ruleset"), self.hyperparameters.get("ruleset"))
        return next((found for found in map(normalize_round, values) if found), None)

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
        run.problems.append(
            Problem(
                "file_too_large",
                f"only the first {max_bytes} bytes were read; the run is judged on those",
            )
        )
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
        run.problems.append(
            Problem(
                "line_too_long",
                f"line of {len(line)} bytes exceeds {MAX_LINE_BYTES}; skipped",
                number,
                _cut_excerpt(line),
            )
        )
        return
    text = line.decode("utf-8", errors="replace")
    # Multi-process launchers prefix lines ("[1,0]<stdout>:"), so the marker may not lead.
    position = text.find(MLLOG_MARKER)
    if position < 0:
        return
    payload = text[position + len(MLLOG_MARKER) :].strip()
    try:
        event = json.loads(payload)
    except ValueError as error:
        check = "truncated_line" if unterminated else "malformed_line"
        run.problems.append(
            Problem(
                check,
                f"MLLOG line is not valid JSON ({json_error(error)})",
                number,
                _cut_excerpt(line),
            )
        )
        return
    if not isinstance(event, dict) or not isinstance(event.get("key"), str):
        run.problems.append(
            Problem(
                "malformed_event",
                "MLLOG event is not an object with a 'key'",
                number,
                _cut_excerpt(line),
            )
        )
        return
    _apply_event(run, event, number, line)


def _apply_event(run: RunLog, event: dict, number: int, line: bytes) -> None:
    key = event["key"]
    value = event.get("value")
    metadata = event.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
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
    run: RunLog, key: str, time_ms: float | None, value, metadata: dict, number: int, line: bytes
) -> None:
    if time_ms is None:
        run.problems.append(
            Problem(
                "missing_time",
                f"{key} has no numeric time_ms",
                number,
                _cut_excerpt(line),
            )
        )
        return
    # The compliance checker allows one run_start and one run_stop; a run with more fails it
    # and the summarizer drops it. The first of each is kept to show the run's times.
    if key == "run_start":
        run.run_starts += 1
        if run.run_start_ms is not None:
            run.problems.append(
                Problem(
                    "repeated_run_start",
                    "a second run_start: the compliance checker requires "
                    "exactly one, so the run is dropped as not converged; the first is shown",
                    number,
                )
            )
            return
        run.run_start_ms = time_ms
        return
    run.run_stops += 1
    if run.run_stop_ms is not None:
        run.problems.append(
            Problem(
                "repeated_run_stop",
                "a second run_stop: the compliance checker requires exactly "
                "one, so the run is dropped as not converged; the first is shown",
                number,
            )
        )
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
    components = None
    if isinstance(value, dict):
        components = {str(name): float(part) for name, part in value.items() if _is_number(part)}
        primary = next(
            (name for name in PRIMARY_COMPONENTS if name in components),
            next(iter(components), None),
        )
        value = components[primary] if primary is not None else None
    if not _is_number(value) or time_ms is None:
        run.problems.append(
            Problem(
                "malformed_eval",
                "eval_accuracy without a numeric value (or a dict of numeric "
                "components) and a time",
                number,
                _cut_excerpt(line),
            )
        )
        return
    epoch = metadata.get("epoch_num")
    metric = metadata.get("metric")
    run.evals.append(
        EvalPoint(
            time_ms,
            float(value),
            float(epoch) if _is_number(epoch) else None,
            number,
            components,
            str(metric) if isinstance(metric, str) else None,
            metadata.get("samples_count") if _is_scalar(metadata.get("samples_count")) else None,
        )
    )


def _check_timeline(run: RunLog) -> None:
    if run.run_start_ms is None:
        run.problems.append(Problem("missing_run_start", "no run_start event: the run is untimed"))
    if run.run_stop_ms is None:
        run.problems.append(
            Problem(
                "missing_run_stop",
                "no run_stop event: the run did not finish or the log is cut",
            )
        )
    elif run.run_start_ms is not None and run.run_stop_ms < run.run_start_ms:
        run.problems.append(
            Problem(
                "stop_before_start",
                f"run_stop ({run.run_stop_ms}) is earlier than run_start ({run.run_start_ms})",
            )
        )


def _read_time_ms(event: dict) -> float | None:
    """The event's time as logged, a fraction of a millisecond kept (the summarizer reads
    it as a float: `float(run_start)`)."""
    value = event.get("time_ms")
    if not _is_number(value) or abs(value) > MAX_TIME_MS:
        return None
    return value


def json_error(error: ValueError) -> str:
    """What json.loads refused in a line: its message, or for a ValueError that is no
    JSONDecodeError (an integer past Python's digit limit, bytes in no encoding), its text."""
    return error.msg if isinstance(error, json.JSONDecodeError) else str(error)


def _is_number(value) -> TypeGuard[int | float]:
    """A finite int or float; an int too large for a float (JSON allows any) is none."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -MAX_INT < value < MAX_INT
    return isinstance(value, float) and math.isfinite(value)


def _is_scalar(value) -> bool:
    return isinstance(value, str | int | float | bool)


def _cut_excerpt(line: bytes) -> str:
    return line[: RAW_EXCERPT_CHARS * 4].decode("utf-8", errors="replace")[:RAW_EXCERPT_CHARS]


# No MLLOG key of the official logging package names the round: mlperf_logging/mllog/
# constants.py (commit e6e040b) has submission_benchmark, _division, _entry, _org, _platform,
# _poc_name, _poc_email and _status, no compliance config up to training_6.0.0 asks for one,
# and the compliance checker takes the round from its command line (`--ruleset 2.0.0`,
# compliance_checker/mlp_compliance.py). The real v2.0 logs, and the v4.0 and v5.1 logs looked
# at (training_results_v4.0 NVIDIA gpt3, training_results_v5.1 AMD llama31_8b), log none. A
# harness that does log it would use the tools' own word, "ruleset"; these keys are read.
ROUND_KEYS = ("submission_ruleset", "ruleset")
_ROUND_VALUE = re.compile(r"^(?:training[_ ]?)?v?(\d{1,2})\.(\d{1,2})(?:\.\d{1,3})?$", re.I)
_ROUND_KEY_TEXT = re.compile(r'"key"\s*:\s*"(?:submission_)?ruleset"')


def normalize_round(value) -> str | None:
    """'2.0.0', 'v2.0', '2.0' -> '2.0'; anything else -> None."""
    if not isinstance(value, str):
        return None
    match = _ROUND_VALUE.match(value.strip())
    return f"{int(match.group(1))}.{int(match.group(2))}" if match else None


def round_from_log_text(text: str) -> str | None:
    """The round a log's text states in an MLLOG event keyed `ruleset` or
    `submission_ruleset`, or None (official logs do not state it; see ROUND_KEYS).

    Cheap for the first KB of a log: only lines that name such a key are parsed."""
    for match in _ROUND_KEY_TEXT.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : end if end >= 0 else len(text)]
        position = line.find(MLLOG_MARKER)
        if position < 0:
            continue
        try:
            event = json.loads(line[position + len(MLLOG_MARKER) :].strip())
        except ValueError:
            continue
        found = normalize_round(event.get("value")) if isinstance(event, dict) else None
        if found:
            return found
    return None
