"""Numeric settings read from the environment, each checked the same way."""

from __future__ import annotations

import math
import os


def env_number(name: str, default, kind, *, allow_zero: bool = False, meaning: str = ""):
    """The number an environment variable holds (underscores allowed), or `default` when it
    is unset; a clear error otherwise. Positive unless `allow_zero`; `meaning` follows the
    kind of number in the error ("a whole number of snapshots (0: never)")."""
    raw = os.environ.get(name, "")
    text = raw.replace("_", "").strip()
    if not text:
        return default
    what = ("a whole number" if kind is int else "a number") + meaning
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"{name} must be {what}, not {raw!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be {what}, not {raw!r}")
    if value < 0 or (value == 0 and not allow_zero):
        lowest = "0 or more" if allow_zero else "positive"
        raise ValueError(f"{name} must be {lowest}: {what}, not {raw!r}")
    return value


def merge_every() -> int:
    """Snapshots between the merges of small files that ingest makes; 0 turns them off."""
    # Imported here: the reader processes import this module, and need no DuckDB.
    from perfledger.warehouse import compaction

    return env_number(
        compaction.EVERY_ENV,
        compaction.DEFAULT_EVERY,
        int,
        allow_zero=True,
        meaning=" of snapshots (0: never)",
    )
