"""The summary a serving benchmark prints when it ends, as pages show it in code (a Markdown
fence, an RST code block or literal block; vLLM's `vllm bench serve`, SGLang's
`bench_serving`): "label: value" lines aligned under a banner, the label naming the metric,
statistic and unit ("Median TTFT (ms):   43551.93"),
bands of dashes grouping them ("----Time to First Token----"). A banner naming the settings
the tool ran with ("----- Configuration Arguments -----") heads no summary.

    ============ Serving Benchmark Result ============
    Successful requests:                     500
    Request throughput (req/s):              3.45
    Mean TTFT (ms):                          57959.61

trtllm-bench prints its per-request statistics as "[TPOT] MINIMUM: 32.8005" under a rule
naming what they break down and their unit ("-- Request Latency Breakdown (ms) ---", a blank
line between): the bracketed tag is part of the label, the rule the summary's caption.

LLMPerf's token benchmark prints each metric's distribution as the metric's identifier alone
on a line, its unit the name's last word, then one indented "statistic = value" line each:

    ttft_s
        p25 = 0.05918681574985385
        mean = 0.10145763676309098

each such line is a field labelled like trtllm-bench's: "[ttft_s] p25".

Such a summary is a results table of its own: one row, a column per line, its label the
header. Only a run of such lines that reads as a tool's summary qualifies: under a titled
banner with at least two numbers, or at least four numbers whose labels are words; most of
its lines hold numbers. A config (`max_num_seqs: 256`), whose keys are identifiers, a shell
session or a log stays code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from perfledger.sources.layouts.table_text import printed_line_above, reads_as_caption

_FIELD = re.compile(
    r"^[ \t]*(?P<label>(?:\[[A-Za-z][\w /.-]{0,30}\][ \t]*)?[A-Za-z][\w .()\[\]/%+@-]{0,79}?)"
    r"[ \t]*:[ \t]+(?P<value>\S(?:.*\S)?)[ \t]*$"
)
_NUMBER = re.compile(r"^[+-]?\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?(?:[ \t]?(?:%|[A-Za-z/]{1,8}))?$")
# The text a tool prints for a setting ("Backend: sglang", "Model: Wan-AI/Wan2.2-T2V-A14B-
# Diffusers"), read with the numbers of a summary but never making one.
_SHORT_TEXT = re.compile(r"^[^:=\"'`{}\[\]]{1,64}$")
_BANNER = re.compile(r"^[ \t]*[=-]{3,}[ \t]*(?P<title>[^\s=-](?:.*[^\s=-])?)?[ \t]*[=-]{3,}[ \t]*$")
# A tool's title for the lines under it, opened by a rule: "-- Request Latency Breakdown (ms)".
_SECTION_RULE = re.compile(r"^[ \t]*(?:-{2,}|={2,})[ \t]+[A-Za-z]")
# A banner over the settings a tool was run with ("----- Configuration Arguments -----"): its
# numbers (`batch_size: 10`, `weight_bits: 8`) are settings, however many, unless a banner of
# results follows ("Engine Benchmark Result" over "Configuration" and "Results" bands).
_SETTINGS_BANNER = re.compile(
    r"(?<![a-z])(?:config(?:uration)?s?|arguments?|args|parameters?|params|settings?|options"
    r"|hyper-?parameters?)(?![a-z])",
    re.I,
)
_RESULTS_BANNER = re.compile(r"(?<![a-z])(?:results?|summary|benchmark|performance)(?![a-z])", re.I)
# LLMPerf's lines: a metric's identifier alone ("ttft_s", "inter_token_latency_s"), then its
# statistics indented under it ("    p25 = 0.0592", "    stddev = 0.0719").
_METRIC_NAME = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)[ \t]*$")
_STATISTIC_LINE = re.compile(
    r"^[ \t]+(?P<statistic>p\d{1,2}(?:\.\d)?|mean|median|avg|min|max|std(?:dev)?)[ \t]*=[ \t]*"
    r"(?P<value>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[ \t]*$"
)
MIN_NUMBERS_UNDER_BANNER = 2
MIN_NUMBERS_ALONE = 4


@dataclass(frozen=True)
class ConsoleSummary:
    start: int  # index of the summary's first line
    end: int  # index one past its last line
    caption: str | None  # its banner's title, or the line right above it
    fields: tuple[tuple[int, str, str], ...]  # (line index, label, value) of each line


def find_console_summaries(lines: list[str], inside: set[int]) -> list[ConsoleSummary]:
    """The summaries printed on lines of `inside` (fenced code): runs of banner and
    "label: value" lines that read as a tool's summary."""
    found = []
    index = 0
    while index < len(lines):
        if index not in inside or not _in_summary(lines[index]):
            index += 1
            continue
        end = index + 1
        while end < len(lines) and end in inside and _in_summary(lines[end]):
            end += 1
        summary = _summary(lines, index, end, inside)
        if summary is not None:
            found.append(summary)
        index = end
    return found


def _in_summary(line: str) -> bool:
    return (
        _BANNER.match(line) is not None
        or _FIELD.match(line) is not None
        or _METRIC_NAME.match(line) is not None
        or _STATISTIC_LINE.match(line) is not None
    )


def _summary(lines: list[str], start: int, end: int, inside: set[int]) -> ConsoleSummary | None:
    """The summary printed on lines `start` to `end`, or None when they read as no summary."""
    titles = []
    numbers: list[tuple[int, str, str]] = []
    texts: list[tuple[int, str, str]] = []
    metric = None  # the identifier of the distribution whose statistics follow
    names = 0
    for index in range(start, end):
        banner = _BANNER.match(lines[index])
        if banner is not None:
            titles.append(banner.group("title"))
            continue
        statistic = _STATISTIC_LINE.match(lines[index])
        if statistic is not None:
            if metric is not None:
                label = f"[{metric}] {statistic.group('statistic')}"
                numbers.append((index, label, statistic.group("value")))
            continue
        named = _METRIC_NAME.match(lines[index])
        if named is not None:
            metric, names = named.group("name"), names + 1
            continue
        metric = None
        field = _FIELD.match(lines[index])
        if field is None:
            continue  # not reached: every line of a run is a banner or a field
        # A label padded inside ("Easy   Val AP") is read as written with single spaces.
        label, value = " ".join(field.group("label").split()), field.group("value")
        if _NUMBER.match(value):
            numbers.append((index, label, value))
        elif _SHORT_TEXT.match(value):
            texts.append((index, label, value))
    if len(numbers) * 2 <= end - start - len(titles) - names:
        return None  # mostly lines of another kind: a log or a config, not a summary
    named = [title for title in titles if title]
    if any(_SETTINGS_BANNER.search(title) for title in named) and not any(
        _RESULTS_BANNER.search(title) for title in named
    ):
        return None  # the settings alone, no band of results
    titled = any(titles)
    worded = sum(1 for _, label, _ in numbers if " " in label)
    if not ((titled and len(numbers) >= MIN_NUMBERS_UNDER_BANNER) or worded >= MIN_NUMBERS_ALONE):
        return None
    caption = next((title for title in titles if title), None)
    if caption is None or _BANNER.match(lines[start]) is None:
        above = printed_line_above(lines, start, inside)
        above = above or _section_rule_above(lines, start, inside)
        caption = (above if above is not None and reads_as_caption(above) else None) or caption
    fields = tuple(sorted(numbers + texts))
    return ConsoleSummary(start, end, caption, fields)


def _section_rule_above(lines: list[str], start: int, inside: set[int]) -> str | None:
    """The title of a section rule a blank line above the summary ("-- Request Latency
    Breakdown (ms) ----", as trtllm-bench prints one over each group of statistics), without
    its rules; None when the line above is not blank or the one above it is no such rule."""
    blank = start - 1
    if blank not in inside or lines[blank].strip() or not _SECTION_RULE.match(lines[blank - 1]):
        return None
    return printed_line_above(lines, blank, inside)


def summary_cells(summary: ConsoleSummary, table_index: int, title: str | None) -> list[tuple]:
    """The cells of a printed summary, as a table of one row: each line's label heads a
    column over its value, both at the line."""
    cells = []
    for column, (index, label, value) in enumerate(summary.fields):
        cells.append((table_index, title, None, 0, column, label, label, index + 1))
        cells.append((table_index, title, None, 1, column, label, value, index + 1))
    return cells
