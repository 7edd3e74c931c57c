"""Work for the budget's worker process in tests: importable, so the worker can run it."""

from __future__ import annotations

import os
import re
import time


def backtrack(count: int) -> bool:
    """A regular expression that backtracks for minutes on `count` repetitions."""
    return re.fullmatch(r"[\d.,]*\d[\d.,]*!?x", "1," * count + "!") is not None


def hold_memory(megabytes: int, seconds: float) -> int:
    """Touch `megabytes` of memory and keep it for `seconds`."""
    block = b"x" * (megabytes * 1024 * 1024)
    time.sleep(seconds)
    return len(block)


def fail(message: str) -> None:
    raise ValueError(message)


def die() -> None:
    os._exit(3)


def process_id() -> int:
    return os.getpid()


def call(function, *args):
    """`function(*args)`: lets one list of read jobs mix different work."""
    return function(*args)
