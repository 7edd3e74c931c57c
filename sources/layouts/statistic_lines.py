"""The lines an inference benchmark tool prints per model, as edge and mobile pages paste
them inside fenced code (ncnn's benchncnn, Tengine's tm_benchmark, MNN's benchmark): the
model's name, then two or more statistics of its run time, each "name = number unit".

         squeezenet_v1.1  min =   89.81 ms   max =   93.23 ms   avg =   90.62 ms
         mobilenetv1  min =  176.65 ms   max =  185.06 ms   avg =  180.75 ms
    [ - ] resnet-v2-50.mnn            max =   45.885ms  min =   39.539ms  avg =   40.194ms

A run of such lines printing the same statistics in the same order is a results table: a row
per line, its first column the model, a column per statistic headed by its name. A line whose
label ends with a colon ("GPU Compute Time: min = 0.55 ms, max = ...") names a metric, not a
model, and stays code, as does a line of one statistic ("loss = 0.35").

Other tools print the statistics as columns under a header line naming them, then the
columns that say what each run was (OpenCV Zoo's benchmark.py):

    mean       median     min        input size   model
    6.23       6.27       6.18       [160, 120]   YuNet with ['face_detection_yunet_2023mar.onnx']

A row gives a number per statistic, then each description where its header's name starts.
The run of rows under such a header is a results table too: the last description labels the
rows, the others are settings of the run."""

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
    label_header: str = LABEL_HEADER  # what heads the rows' labels
    settings: tuple[str, ...] = ()  # the headers of the runs' other descriptions, in order
    row_settings: tuple[tuple[str, ...], ...] = ()  # those descriptions, per row


# A header line of statistics' columns, then the words heading the runs' descriptions.
_COLUMNS_HEADER = re.compile(
    rf"^[ \t]*(?P<stats>{_STATISTIC}(?:[ \t]+{_STATISTIC})+)(?:[ \t]{{2,}}(?P<rest>\S.*?))?[ \t]*$",
    re.I,
)
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_DESCRIPTION = re.compile(r"\S+(?: \S+)*")  # words parted by single spaces: one header


def find_statistic_lines(lines: list[str], inside: set[int]) -> list[StatisticLines]:
    """The runs of per-model statistic lines on lines of `inside` (fenced code), and the
    tables of statistics' columns printed there."""
    found = []
    index = 0
    while index < len(lines):
        first = _read_line(lines[index]) if index in inside else None
        if first is None:
            columns = _statistic_columns(lines, index, inside) if index in inside else None
            if columns is not None:
                found.append(columns)
                index = columns.end
                continue
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


def _statistic_columns(lines: list[str], index: int, inside: set[int]) -> StatisticLines | None:
    """The table of statistics' columns whose header is line `index`, or None: a header line
    with at least one row under it."""
    header = _COLUMNS_HEADER.match(lines[index])
    if header is None:
        return None
    statistics = tuple(header.group("stats").split())
    rest = header.group("rest")
    described = (
        [
            (found.start() + header.start("rest"), found.group(0))
            for found in _DESCRIPTION.finditer(rest)
        ]
        if rest
        else []
    )
    if not described:
        return None  # no column names the runs: no row could be told from another
    starts = [start for start, _name in described]
    rows, settings = [], []
    end = index + 1
    while end < len(lines) and end in inside:
        row = _columns_row(lines[end], len(statistics), starts)
        if row is None:
            break
        values, texts = row
        rows.append((end, texts[-1], values))
        settings.append(texts[:-1])
        end += 1
    if not rows:
        return None
    names = [name for _start, name in described]
    return StatisticLines(
        index,
        end,
        None,
        statistics,
        tuple(rows),
        names[-1],
        tuple(names[:-1]),
        tuple(settings),
    )


def _columns_row(
    line: str, count: int, starts: list[int]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(values, descriptions) of a row under a header of statistics' columns, the
    descriptions cut where their headers start; None for a line of another shape."""
    values, position = [], 0
    for _ in range(count):
        number = _NUMBER.match(line, len(line) - len(line[position:].lstrip(" \t")))
        if number is None or (number.end() < len(line) and not line[number.end()].isspace()):
            return None
        values.append(number.group(0))
        position = number.end()
    if line[position : starts[0]].strip():
        return None  # a fourth number, or words before the first description
    texts = []
    for start, stop in zip(starts, [*starts[1:], None], strict=True):
        if start > 0 and len(line) > start and not line[start - 1].isspace():
            return None  # a description not where its header starts: not this table's row
        texts.append(line[start:stop].strip())
    if not texts[-1]:
        return None
    return tuple(values), tuple(texts)


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
    header = (printed.label_header, *printed.settings, *printed.statistics)
    cells = [
        (table_index, title, None, 0, column, text, text, printed.start + 1)
        for column, text in enumerate(header)
    ]
    for row, (index, label, values) in enumerate(printed.rows, start=1):
        settings = printed.row_settings[row - 1] if printed.row_settings else ()
        cells += [
            (table_index, title, None, row, column, header[column], text, index + 1)
            for column, text in enumerate((label, *settings, *values))
        ]
    return cells
