"""Results a page writes as a list, one result per item: each item names what it measured,
then a figure in a unit of a rate, a time or a compute rate, in brackets or after a colon.

    - Level 06 (293 TFLOPs): Use tensor cores (tcgen05 MMA) with TMA
    - Level 07 (731 TFLOPs): Use pipelined warp specialization (TMA loader + MMA issuer)
    - Llama 3 8B: 2150 tokens/s

A run of three or more items of one list written alike, each with such a figure in the same
unit, is a results table: a row per item, labelled by the words before its figure, and a
column headed by the unit; what an item says after its figure is its description. Items of
figures in different units, a unit that measures nothing ("- CUDA version: 12.8"), or a list
shorter than three stay prose."""

from __future__ import annotations

import re

from perfledger.schemas.header_reading import read_header
from perfledger.sources.layouts.statistic_lines import StatisticLines
from perfledger.sources.layouts.table_text import printed_line_above, reads_as_caption

MIN_ITEMS = 3
LABEL_HEADER = "Item"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_UNIT = r"[A-Za-z\u00b5][\w/\u00b5-]{0,15}"
# "- Level 06 (293 TFLOPs): ...": the figure in brackets right after the item's label.
_BRACKETED = re.compile(
    rf"^[ \t]*[-*+][ \t]+(?P<label>[^()\d\n][^()\n]{{0,60}}?)[ \t]*"
    rf"\((?P<value>{_NUMBER})[ \t]?(?P<unit>{_UNIT})\)[ \t]*(?::|$|[ \t]+[-\u2013\u2014])"
)
# "- Llama 3 8B: 2150 tokens/s": the figure alone after the item's label and a colon.
_AFTER_COLON = re.compile(
    rf"^[ \t]*[-*+][ \t]+(?P<label>[^:\n]{{1,60}}?)[ \t]*:[ \t]*"
    rf"(?P<value>{_NUMBER})[ \t]?(?P<unit>{_UNIT})[ \t]*\.?[ \t]*$"
)
_MARKUP = re.compile(r"\*\*|__|`")
_FIGURE = re.compile(r"\d")


def find_listed_results(lines: list[str], skipped: set[int]) -> list[StatisticLines]:
    """The runs of list items on `lines` (none of `skipped`: code, tables) that each state
    one figure in one shared unit, read as tables."""
    found: list[StatisticLines] = []
    index = 0
    while index < len(lines):
        first = None if index in skipped else _item(lines[index])
        if first is None:
            index += 1
            continue
        pattern, unit = first[0], first[3].casefold()
        rows = [(index, first[1], (first[2],))]
        end = index + 1
        while end < len(lines) and end not in skipped:
            item = _item(lines[end])
            if item is None or item[0] is not pattern or item[3].casefold() != unit:
                break
            rows.append((end, item[1], (item[2],)))
            end += 1
        if len(rows) >= MIN_ITEMS and _measures(first[3]):
            above = printed_line_above(lines, index, skipped)
            caption = above if above is not None and reads_as_caption(above) else None
            found.append(
                StatisticLines(index, end, caption, (first[3],), tuple(rows), LABEL_HEADER)
            )
        index = end
    return found


def _item(line: str) -> tuple[re.Pattern[str], str, str, str] | None:
    """(the form of the item, its label, its figure, its unit) of a list item stating one
    figure, or None."""
    if not _FIGURE.search(line):
        return None
    text = _MARKUP.sub("", line)
    for pattern in (_BRACKETED, _AFTER_COLON):
        match = pattern.match(text)
        if match is not None:
            label = match.group("label").strip()
            return pattern, label, match.group("value").replace(",", ""), match.group("unit")
    return None


def _measures(unit: str) -> bool:
    """Whether a unit, read as a column's header, names what a result measures."""
    header = read_header(unit)
    return header.kind == "metric" and header.unit is not None
