"""The CPU threads a run used, as a header or the text above a table states them: "cpu
time(thread 1,fp16, ms)", "cpu time(single thread, ms)", "CPU 线程数设为 1", "测试统一使用 8
线程". Runs on a CPU differ by their threads as much as by their chip, and nothing else on
the page tells their figures apart."""

from __future__ import annotations

import re
from functools import lru_cache

_COUNTED = re.compile(
    r"(?i)(?<![\w.])(\d{1,3}) ?(?:cpu |worker )?threads?(?![a-z])"
    r"|(?<![a-z])threads? ?(?:count|num(?:ber)?)? ?[=:：]? ?(\d{1,3})(?![\w.])"
    r"|(?<![\w.])(\d{1,3}) ?线程"
    r"|线程数? ?(?:设为|设置为|为|[=:：])? ?(\d{1,3})(?![\w.])"
)
_ONE = re.compile(r"(?i)(?<![a-z])single[- ]thread(?:ed)?(?![a-z])|单线程")


@lru_cache(maxsize=16_384)
def threads_stated(text: str) -> int | None:
    """The one thread count `text` states; None when it states none, or several (a sweep
    over thread counts, whose figures their own labels tell apart)."""
    counts = {
        int(next(group for group in match.groups() if group)) for match in _COUNTED.finditer(text)
    }
    if _ONE.search(text):
        counts.add(1)
    counts.discard(0)
    return counts.pop() if len(counts) == 1 else None


def threads_setting(count: int | None) -> str | None:
    """The run's setting as `settings` lists it."""
    return f"threads={count}" if count is not None else None
