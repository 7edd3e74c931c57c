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
# Threads said to be several without their number ("multi-threaded (using as many threads as
# there are big cores)"): a run apart from a single-threaded one stated farther away.
_SEVERAL = re.compile(r"(?i)(?<![a-z])multi[- ]?thread(?:ed|ing)?(?![a-z])|多线程")
SEVERAL = -1  # what `threads_stated` gives for them


@lru_cache(maxsize=16_384)
def threads_stated(text: str) -> int | None:
    """The one thread count `text` states, SEVERAL for threads said to be several without a
    number; None when it states none, or several counts (a sweep over thread counts, whose
    figures their own labels tell apart)."""
    counts = {
        int(next(group for group in match.groups() if group)) for match in _COUNTED.finditer(text)
    }
    if _ONE.search(text):
        counts.add(1)
    counts.discard(0)
    if not counts and _SEVERAL.search(text):
        return SEVERAL
    return counts.pop() if len(counts) == 1 else None


def threads_setting(count: int | None) -> str | None:
    """The run's setting as `settings` lists it: "threads=4", "threads=multi"."""
    if count is None:
        return None
    return "threads=multi" if count == SEVERAL else f"threads={count}"
