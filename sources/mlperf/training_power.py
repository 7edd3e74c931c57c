"""The energy of a training run measured for power, as MLCommons' result summarizer computes it
(mlcommons/logging mlperf_logging/result_summarizer/result_summarizer.py, commit 7bbf792:
`_has_power`, `_compute_total_power`, `_compute_power_node`, `_compute_power_sw`,
`_index_olympic_average`).

A benchmark folder holding `power/` was measured: each run's `power/<run>/node_*.txt` (one
per node) and `sw_*.txt` (one per interconnect switch) are MLLOG logs. A node's energy is
its readings integrated from `power_measurement_start` to `power_measurement_stop` (each
reading times the time since the one before it), scaled from the measured window to the
run's time to train and by `conversion_eff`; a switch's is its `interconnect_power_est`
times the time to train. Watts x milliseconds / 1000: joules. The score's energy is the
mean of the energies of the runs its time to train uses, times the scaling factor.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from perfledger.sources.mlperf.mllog import MAX_RESULT_BYTES, MLLOG_MARKER

POWER_FOLDER = "power"


@dataclass(frozen=True)
class _Event:
    key: str
    value: object
    time_ms: float


class PowerLogError(ValueError):
    """A power log the summarizer cannot compute a run's energy from."""


def has_power(benchmark_folder: Path) -> bool:
    return (benchmark_folder / POWER_FOLDER).is_dir()


def run_energy(benchmark_folder: Path, run_name: str, time_to_train_ms: float) -> float:
    """The run's energy in joules; PowerLogError saying why when it cannot be computed."""
    folder = benchmark_folder / POWER_FOLDER / run_name
    nodes = sorted(folder.glob("node_*.txt"))
    if not nodes:  # the summarizer asserts there is one
        raise PowerLogError(f"{POWER_FOLDER}/{run_name} holds no node_*.txt")
    total = 0.0
    for node in nodes:
        total += node_energy(_events(node), time_to_train_ms, node.name)
    for switch in sorted(folder.glob("sw_*.txt")):
        total += switch_energy(_events(switch), time_to_train_ms)
    return total


def node_energy(events: list[_Event], time_to_train_ms: float, name: str = "node") -> float:
    """`_compute_power_node`: the readings between start and stop, in time order."""
    previous = last = start = stop = 0.0
    integrated, efficiency = 0.0, 1.0
    started = stopped = False
    for event in sorted(events, key=lambda e: e.time_ms):
        if event.key == "power_measurement_start":
            start = previous = event.time_ms
            started = True
        if event.key == "power_reading" and started and not stopped:
            integrated += _number(event) * (event.time_ms - previous)
            previous = event.time_ms
            last = max(last, event.time_ms)
        if event.key == "power_measurement_stop":
            stop = event.time_ms
            stopped = True
        if event.key == "conversion_eff":
            efficiency = _number(event)
    if not started:
        raise PowerLogError(f"{name} has no power_measurement_start")
    if not stopped:
        stop = last  # as the summarizer does: the last reading ends the window
    if stop == start:
        raise PowerLogError(f"{name} measures no time: its window starts where it stops")
    return efficiency * integrated * time_to_train_ms / (stop - start) / 1000


def switch_energy(events: list[_Event], time_to_train_ms: float) -> float:
    """`_compute_power_sw`: the first interconnect_power_est, and a conversion_eff before it."""
    efficiency, power = 1.0, 0.0
    for event in events:
        if event.key == "conversion_eff":
            efficiency = _number(event)
        if event.key == "interconnect_power_est":
            power = _number(event)
            break
    return efficiency * power * time_to_train_ms / 1000


def _number(event: _Event) -> float:
    value = event.value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PowerLogError(f"{event.key} at {event.time_ms} ms holds no number")
    return float(value)


def _events(path: Path) -> list[_Event]:
    """The MLLOG events of a power log (key, value, time), unreadable lines left out as the
    summarizer's parser leaves them."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RESULT_BYTES)
    except OSError as error:
        raise PowerLogError(f"{path.name} cannot be read ({error.strerror or error})") from None
    events = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        position = line.find(MLLOG_MARKER)
        if position < 0:
            continue
        try:
            event = json.loads(line[position + len(MLLOG_MARKER) :])
        except ValueError:
            continue
        time_ms = event.get("time_ms") if isinstance(event, dict) else None
        if (
            isinstance(event, dict)
            and isinstance(event.get("key"), str)
            and isinstance(time_ms, int | float)
            and not isinstance(time_ms, bool)
        ):
            events.append(_Event(event["key"], event.get("value"), float(time_ms)))
    return events
