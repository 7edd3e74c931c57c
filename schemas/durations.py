"""Durations written as a clock reading ("0:06:27") or spelled in parts ("23h 43m",
"1d 3h 43m"), in seconds; the parts may carry a remark in brackets after them ("7h 58m
(1.72x)": the time a run took, then how many times faster it was than the baseline's)."""

from __future__ import annotations

import re
from decimal import Decimal

# Minutes of two digits after hours; without hours, up to three ("108:36").
_CLOCK = re.compile(r"^(?:(?P<h>\d{1,4}):(?=\d{1,2}:))?(?P<m>\d{1,3}):(?P<s>\d{2}(?:\.\d+)?)$")
_SPELLED = re.compile(
    r"^(?:(?P<d>\d+(?:\.\d+)?)\s*(?:d|days?)\s*)?(?:(?P<h>\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\s*)?"
    r"(?:(?P<m>\d+(?:\.\d+)?)\s*(?:m|mins?|minutes?)\s*)?(?:(?P<s>\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)"
    r"\s*)?$"
)
_IN_PARTS = re.compile(r"\d\s*[a-z]+\s*\d")
# The parts, then one remark in brackets, ASCII or full width ("15h34m（+23%）").
_REMARK = re.compile(
    r"^(?P<parts>[^()\uff08\uff09]+?)\s*[(\uff08](?P<remark>[^()\uff08\uff09]{1,40})[)\uff09]\s*$"
)
_SCALES = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def duration_seconds(text: str) -> float | None:
    """A clock reading ("0:06:27", "03:19:59") or a duration spelled in parts ("23h 43m")."""
    clock = _CLOCK.match(text)
    if clock:
        return float(
            Decimal(clock.group("h") or 0) * 3600
            + Decimal(clock.group("m")) * 60
            + Decimal(clock.group("s"))
        )
    if not _IN_PARTS.search(text):  # one number and one unit: the unit path
        return None
    spelled = _SPELLED.match(text)
    if spelled is None:
        return None
    return float(
        sum(
            Decimal(spelled.group(name)) * scale
            for name, scale in _SCALES.items()
            if spelled.group(name)
        )
    )


def duration_and_remark(text: str) -> tuple[float | None, str | None]:
    """(seconds, remark) of a cell holding a duration in parts, alone or with a remark in
    brackets after it ("7h 58m (1.72x)" -> (28680.0, "1.72x")); (None, None) for any other."""
    folded = text.lower()
    whole = duration_seconds(folded)
    if whole is not None or "(" not in folded and "\uff08" not in folded:
        return whole, None
    match = _REMARK.match(text)  # on the text as written: its remark keeps its case
    if match is None:
        return None, None
    parts = duration_seconds(match.group("parts").lower())
    return (parts, match.group("remark").strip()) if parts else (None, None)
