"""Read accuracy.txt as the checker does (check_accuracy_dir): each of the round's accuracy
patterns is matched against every line; a benchmark passes when every target metric was
found at or above its target, none above its upper limit, and the file names its
mlperf_log_accuracy.json by a `hash=` line."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from perfledger.sources.mlperf.inference.rules import ROUNDS, RoundRules
from perfledger.sources.mlperf.mllog import Problem

ACCURACY_FILE = "accuracy.txt"
MAX_ACCURACY_BYTES = 16 * 1024 * 1024
_HASH = re.compile(r"^hash=([\w\d]+)$")


@dataclass
class AccuracyReading:
    values: dict[str, float] = field(default_factory=dict)  # checker metric name -> value
    ok: bool | None = None  # None: no rules to judge by, or no file
    reasons: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def text(self) -> str | None:
        return json.dumps(self.values, sort_keys=True) if self.values else None


def read_accuracy(
    path: Path, relative: str, rules: RoundRules | None, model: str | None
) -> AccuracyReading:
    """The accuracy numbers in `path` and whether they reach the round's targets for `model`."""
    reading = AccuracyReading()
    if not path.is_file():
        reading.ok = False
        reading.reasons.append("no accuracy/accuracy.txt")
        reading.problems.append(
            Problem(
                "missing_accuracy",
                "no accuracy.txt: the result cannot be checked for accuracy",
                path=relative,
            )
        )
        return reading
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_ACCURACY_BYTES + 1)
    except OSError as error:
        reading.ok = False
        reading.reasons.append("accuracy.txt cannot be read")
        reading.problems.append(
            Problem("unreadable_file", f"cannot be read: {error.strerror}", path=relative)
        )
        return reading
    if len(data) > MAX_ACCURACY_BYTES:
        reading.problems.append(
            Problem(
                "file_too_large",
                f"larger than {MAX_ACCURACY_BYTES} bytes; only the start is read",
                path=relative,
            )
        )
    lines = data[:MAX_ACCURACY_BYTES].decode("utf-8", errors="replace").splitlines()
    targets = rules.accuracy_target.get(model, ()) if rules and model else ()
    limits = rules.accuracy_upper_limit.get(model, ()) if rules and model else ()
    names = {name for name, _ in (*targets, *limits)}
    # Without a target to judge by, the numbers are still read, with every known pattern.
    reader = rules or ROUNDS[max(ROUNDS, key=lambda name: tuple(map(int, name.split("."))))]
    if not targets:
        names = set(reader.accuracy_patterns)
    seen_hash = False
    found: dict[str, list[tuple[float, int]]] = {}
    for number, line in enumerate(lines, start=1):
        if _HASH.match(line):
            seen_hash = True
        for name in names:
            pattern = reader.pattern(name)
            match = pattern.match(line) if pattern else None
            if match is None:
                continue
            try:
                found.setdefault(name, []).append((float(match.group(1)), number))
            except ValueError:
                reading.problems.append(
                    Problem(
                        "bad_number",
                        f"{name} is not a number: {match.group(1)!r}",
                        number,
                        line[:200],
                        relative,
                    )
                )
    reading.values = {name: hits[-1][0] for name, hits in sorted(found.items())}
    if not targets:
        return reading
    reading.ok = _judge(reading, targets, limits, found, seen_hash)
    return reading


def _judge(reading: AccuracyReading, targets, limits, found, seen_hash: bool) -> bool:
    for name, target in targets:
        hits = found.get(name)
        if not hits:
            reading.reasons.append(f"accuracy.txt gives no {name}")
            continue
        low = [value for value, _ in hits if value < target]
        if low:
            reading.reasons.append(f"{name} {low[0]:g} is below the target {target:.6g}")
    for name, limit in limits:
        high = [value for value, _ in found.get(name, ()) if value > limit]
        if high:
            reading.reasons.append(f"{name} {high[0]:g} is above the upper limit {limit:.6g}")
    if not seen_hash:
        reading.reasons.append("accuracy.txt has no hash= line for mlperf_log_accuracy.json")
    return not reading.reasons
