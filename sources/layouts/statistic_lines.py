"""The lines an inference benchmark tool prints per model, as edge and mobile pages paste
them inside fenced code (ncnn's benchncnn, Tengine's tm_benchmark, MNN's benchmark): the
model's name, then two or more statistics of its run time, each "name = number unit".

         squeezenet_v1.1  min =   89.81 ms   max =   93.23 ms   avg =   90.62 ms
         mobilenetv1  min =  176.65 ms   max =  185.06 ms   avg =  180.75 ms
    [ - ] resnet-v2-50.mnn            max =   45.885ms  min =   39.539ms  avg =   40.194ms

A run of such lines printing the same statistics in the same order is a results table: a row
per line, its first column the model, a column per statistic headed by its name. A line whose
label ends with a colon ("GPU Compute Time: min = 0.55 ms, max = ...") names a metric, not a
model, and stays code, as does a line of one statistic ("loss = 0.35")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from perfledger.sources.layouts.table_text import printed_line_above, reads_as_caption

_STATISTIC = r"(?:min|max|avg|mean|median|std|p\d{2})"
_PAIR = re.compile(
    rf"(?<![\w.])(?P<name>{_STATISTIC})[ \t]*=[ \t]*(?P<value>[+-]?\d+(?:\.\d+)?(?:[ \t]?(?:ms|us|s)\b)?)",
    re.I,
)
# The tool's marker of a line ("[ - ]", "[I]") is no part of the model's name.
_LINE = re.compile(
    rf"^[ \t]*(?:\[[^\]\n]{{0,8}}\][ \t]*)?(?P<label>[^\s=:\[\]][^=:\n]{{0,79}}?)[ \t]+"
    rf"(?P<pairs>{_STATISTIC}[ \t]*=.*\S)[ \t]*$",
    re.I,
)
_UNIT = re.compile(r"(?:ms|us|s)$", re.I)
_SEPARATOR = re.compile(r"^[\s,;|]*$")
MIN_STATISTICS = 2
LABEL_HEADER = "Model"


@dataclass(frozen=True)
class StatisticLines:
    start: int  # index of the first line
    end: int  # index one past the last line
    caption: str | None  # the line right above, when it reads as a caption
    statistics: tuple[str, ...]  # the statistics' names as printed, in order, with their unit
    rows: tuple[tuple[int, str, tuple[str, ...]], ...]  # (line index, label, values)


def find_statistic_lines(lines: list[str], inside: set[int]) -> list[StatisticLines]:
    """The runs of per-model statistic lines on lines of `inside` (fenced code)."""
    found = []
    index = 0
    while index < len(lines):
        first = _read_line(lines[index]) if index in inside else None
        if first is None:
            index += 1
            continue
        statistics = first[1]
        rows = [(index, first[0], first[2])]
        end = index + 1
        while end < len(lines) and end in inside:
            line = _read_line(lines[end])
            if line is None or line[1] != statistics:
                break
            rows.append((end, line[0], line[2]))
            end += 1
        above = printed_line_above(lines, index, inside)
        caption = above if above is not None and reads_as_caption(above) else None
        headers, rows = _units_in_headers(statistics, rows)
        found.append(StatisticLines(index, end, caption, headers, tuple(rows)))
        index = end
    return found


def _read_line(line: str) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """(label, statistics' names, values) of a per-model statistic line, or None."""
    if "=" not in line:
        return None
    match = _LINE.match(line)
    if match is None:
        return None
    pairs = match.group("pairs")
    names, values, position = [], [], 0
    for pair in _PAIR.finditer(pairs):
        if not _SEPARATOR.match(pairs[position : pair.start()]):
            return None  # words between the statistics: a sentence or a log, not a result
        names.append(pair.group("name"))
        values.append(pair.group("value"))
        position = pair.end()
    if len(names) < MIN_STATISTICS or not _SEPARATOR.match(pairs[position:]):
        return None
    return match.group("label").strip(), tuple(names), tuple(values)


def _units_in_headers(
    statistics: tuple[str, ...], rows: list[tuple[int, str, tuple[str, ...]]]
) -> tuple[tuple[str, ...], list[tuple[int, str, tuple[str, ...]]]]:
    """The statistics' headers with the unit every value of theirs is printed in ("min
    (ms)"), and the values as numbers: the unit is the column's, as a table states it, so
    that a cell left without one is never read in another."""
    units = {_unit_of(value) for _index, _label, values in rows for value in values}
    if len(units) != 1 or "" in units:
        return statistics, rows
    unit = units.pop()
    headers = tuple(f"{name} ({unit})" for name in statistics)
    numbers = [
        (index, label, tuple(_UNIT.sub("", value).strip() for value in values))
        for index, label, values in rows
    ]
    return headers, numbers


def _unit_of(value: str) -> str:
    found = _UNIT.search(value)
    return found.group(0) if found else ""


def statistic_cells(printed: StatisticLines, table_index: int, title: str | None) -> list[tuple]:
    """The cells of a run of statistic lines, as the Markdown reader lays a table's out: a row
    per line, the model first, a column per statistic, each cell at its line."""
    header = (LABEL_HEADER, *printed.statistics)
    cells = [
        (table_index, title, None, 0, column, text, text, printed.start + 1)
        for column, text in enumerate(header)
    ]
    for row, (index, label, values) in enumerate(printed.rows, start=1):
        cells += [
            (table_index, title, None, row, column, header[column], text, index + 1)
            for column, text in enumerate((label, *values))
        ]
    return cells
