"""The power result of a run measured with a power analyzer, as the submission checker computes
it (mlcommons/inference tools/submission/submission_checker/checks/power_check.py, commit
b66003e, get_power_metric_check; get_power_metric in earlier checkers): the analyzer samples
in spl.txt ("Time,<m-d-Y H:M:S.f>,Watts,<w>,...") strictly between the run's power_begin and
power_end (detail log), those above 0 W averaged. Offline and Server report the average in
watts; SingleStream and MultiStream the energy per query in mJ: average W x (power_end -
power_begin) s x 1000 / result_query_count, times 8 for a MultiStream result run as
SingleStream."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfledger.sources.mlperf.inference.loadgen import LoadgenLog
from perfledger.sources.mlperf.mllog import Problem

SPL_FILE = "spl.txt"
MULTISTREAM_SAMPLES = 8  # samples of a MultiStream query (power_check.py, samples_per_query)
MAX_SPL_BYTES = 64 * 1024 * 1024
TIME_FORMAT = "%m-%d-%Y %H:%M:%S.%f"  # the checker's; parsed below without strptime's cost
_TIME = re.compile(r"\s*(\d{1,2})-(\d{1,2})-(\d{4}) (\d{1,2}):(\d{1,2}):(\d{1,2})\.(\d{1,6})\s*")


@dataclass
class PowerReading:
    watts: float | None = None
    energy_mj_per_query: float | None = None
    samples: int = 0
    reasons: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def read_power(path: Path, relative: str, log: LoadgenLog, scenario: str | None) -> PowerReading:
    reading = PowerReading()
    begin, end = (_window_time(log, key, reading, relative) for key in ("power_begin", "power_end"))
    if begin is None or end is None:
        return reading
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SPL_BYTES + 1)[:MAX_SPL_BYTES]
    except OSError as error:
        reading.reasons.append("spl.txt cannot be read")
        reading.problems.append(
            Problem("unreadable_file", f"cannot be read: {error.strerror}", path=relative)
        )
        return reading
    watts: list[float] = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.startswith("Time"):
            continue
        parts = line.split(",")
        try:
            stamp = parse_time(parts[1])
            value = float(parts[3])
        except (IndexError, ValueError):
            reading.problems.append(
                Problem(
                    "bad_power_sample",
                    "not 'Time,<m-d-Y H:M:S.f>,Watts,<number>,...'",
                    number,
                    line[:200],
                    relative,
                )
            )
            continue
        if begin < stamp < end and value > 0:
            watts.append(value)
    if any(problem.check == "bad_power_sample" for problem in reading.problems):
        reading.reasons.append("spl.txt has unreadable samples")
    reading.samples = len(watts)
    if not watts:
        reading.reasons.append("spl.txt has no power sample between power_begin and power_end")
        reading.problems.append(
            Problem(
                "no_power_samples", f"no sample above 0 W between {begin} and {end}", path=relative
            )
        )
        return reading
    average = sum(watts) / len(watts)
    if scenario in ("Offline", "Server"):
        reading.watts = average
        return reading
    queries = log.number("result_query_count")
    if not queries:
        reading.reasons.append("no result_query_count to divide the energy by")
        return reading
    # A MultiStream result whose run was a SingleStream one (its effective_scenario) counts
    # a query as the 8 samples a MultiStream query holds, as the checker does.
    per_query = (
        MULTISTREAM_SAMPLES
        if scenario == "MultiStream"
        and (log.text("effective_scenario") or "").lower() == "singlestream"
        else 1
    )
    reading.energy_mj_per_query = (
        average * (end - begin).total_seconds() * per_query * 1000 / queries
    )
    return reading


def _window_time(
    log: LoadgenLog, key: str, reading: PowerReading, relative: str
) -> datetime.datetime | None:
    text = log.text(key)
    if text is None:
        where = log.source_file or "the run's logs"
        reading.reasons.append(
            f"no {key} in {where.rsplit('/', 1)[-1]}: the power window is unknown"
        )
        reading.problems.append(
            Problem(
                "missing_power_window", f"spl.txt is here but {where} has no {key}", path=relative
            )
        )
        return None
    try:
        return parse_time(text)
    except ValueError:
        reading.reasons.append(f"{key} is not a time")
        reading.problems.append(
            Problem(
                "bad_time",
                f"{key} is not m-d-Y H:M:S.f",
                log.line_numbers.get(key),
                text[:200],
                log.source_file or relative,
            )
        )
        return None


def parse_time(text: str) -> datetime.datetime:
    """'07-25-2024 18:26:24.892' -> datetime; ValueError for anything else."""
    match = _TIME.fullmatch(text)
    if match is None:
        raise ValueError(f"not {TIME_FORMAT}: {text!r}")
    month, day, year, hour, minute, second, fraction = match.groups()
    return datetime.datetime(
        int(year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        int(second),
        int(fraction.ljust(6, "0")),
    )
