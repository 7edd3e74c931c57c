"""Rows under a table's header that are more levels of it, whatever the markup says.

A header is often taller than the row a parser takes for it: a sheet published as HTML
writes its board names, then its board settings, then its column names in plain cells; a
Markdown table puts the GPU of each column in the first row under its `|---|` row; a units
row ("| | ms | img/s |") follows the names. Read as data, such a row loads nothing and its
texts are lost from the columns they name. A leading body row is a level of the header when
it publishes no number, names something over a column that holds numbers below, and reads as
a header: its first cell is blank (the corner over the row labels), or a cell over a column
of numbers names a role a header names ("Throughput", "Accuracy"). A row of placeholders
("coming soon", "N/A") under a column of numbers is data that publishes nothing, not a level.
Percentiles written as percents ("| BS | 90% | 95% | 99% | Avg |") over columns of plain
numbers name the columns' statistics: they are no published number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import role_matches
from perfledger.schemas.platform_mentions import read_platform
from perfledger.schemas.precisions import read_precision_label
from perfledger.schemas.units import unit_in_header
from perfledger.sources.layouts.flat_table_width import BLANK, NUMBER, cell_shape

MAX_EXTRA_LEVELS = 4  # header rows found under the header, at most: real ones have 1 or 2
SAMPLED_ROWS = 32  # data rows whose cells tell which columns hold numbers
ROLE_CELLS = 8  # cells of a row read for a role word, at most
MAX_ROLE_CHARS = 120  # a longer cell is no header cell
# A cell that stands for a value not published: no name of a column.
_PLACEHOLDER = re.compile(
    r"(?i)[\s\u00a0]*(?:[-\u2013\u2014/?x\u2717\u2715\u00d7]+|n/?a|<n/?a>|\(n/?a\)|tbd|tba"
    r"|none|null|pending|coming soon|oom|not (?:available|supported|measured|run|tested)"
    r"|unsupported)[\s\u00a0]*"
)
# A count joined by a hyphen to the noun it counts: a setting's name ("5-shot", "8-GPU").
_COUNTED_SETTING = re.compile(r"[\s\u00a0*]*\d{1,4}-[A-Za-z]+[\s\u00a0*]*")
# A bit width naming a precision, alone or leading a column's name ("32bit-acc", "8bits
# Accuracy", "4-bit"): the name of a column, no published number.
_BIT_WIDTH_NAME = re.compile(
    r"[\s\u00a0*]*\d{1,2}[ -]?bits?(?![a-z0-9])(?:[-_ ]?[A-Za-z][\w-]*)*[\s\u00a0*]*", re.I
)
# A percentile named as a percent ("90%", "99.9 %"): a statistic's name over a column.
_PERCENTILE = re.compile(r"[\s\u00a0]*(?:50|75|90|95|99|99\.9+)[\s\u00a0]*%[\s\u00a0]*")
MIN_PERCENTILES = 2  # one "90%" alone may be a value; a run of them names columns


def header_levels_below(rows: Sequence[Sequence[str]]) -> int:
    """How many of `rows`, a table's body rows as their cells' texts in column order (a
    spanning cell's text in every column it covers), are further levels of its header."""
    leading = 0  # the rows before the first that publishes a number
    for at, row in enumerate(rows[:MAX_EXTRA_LEVELS]):
        if publishes_a_number(row) and not _names_percentiles(row, rows[at + 1 : at + 2]):
            break
        leading += 1
    if leading == 0:
        return 0  # most tables: their first body row holds a number
    numeric = _numeric_columns(rows[leading : leading + SAMPLED_ROWS])
    if not numeric:
        return 0  # a table of words: nothing tells its header from its rows
    levels = 0
    for row in rows[:leading]:
        if not _names_numeric_columns(row, numeric) or not _reads_as_header(row, numeric):
            break
        levels += 1
    return levels


def levels_under_blank_header(rows: Sequence[Sequence[str]]) -> int:
    """How many of `rows` are the header of a table whose header row is blank (GitHub needs
    one; "| | | |" over "| **MQ2008** | | **NDCG** |" over "| | learning_rate | best_score
    |"): the rows of words before the first that publishes a number, when the last of them
    has the blank corner over the row labels and names a column of numbers."""
    leading = 0
    for row in rows[:MAX_EXTRA_LEVELS]:
        if publishes_a_number(row):
            break
        leading += 1
    if leading == 0 or leading == len(rows):
        return 0
    numeric = _numeric_columns(rows[leading : leading + SAMPLED_ROWS])
    last = rows[leading - 1]
    if not numeric or not last or cell_shape(last[0]) != BLANK:
        return 0
    return leading if _names_numeric_columns(last, numeric) else 0


def publishes_a_number(row: Sequence[str]) -> bool:
    """Whether a row holds a number: the first row under most headers does, and then no row
    is a level of the header; asked first, before the rows below are gathered. A count
    joined to its noun by a hyphen ("5-shot", "0-shot", "8-GPU") names a setting of the
    column it stands over, and a bit width a precision ("32bit-acc"): no published number.
    A number after a bound in words ("Up to ~0.7x") is published, as a bound."""
    return any(
        (cell_shape(text) == NUMBER or _bounded_number(text))
        and not _COUNTED_SETTING.fullmatch(text)
        and not _BIT_WIDTH_NAME.fullmatch(text)
        for text in row
    )


# A bound in words before a number ("Up to ~0.7x", "at least 2x").
_BOUND_WORDS = re.compile(r"(?i)[\s\u00a0*]*(?:up to|at least|at most|more than|less than)\s+")


def _bounded_number(text: str) -> bool:
    bound = _BOUND_WORDS.match(text)
    return bound is not None and cell_shape(text[bound.end() :]) == NUMBER


def _names_percentiles(row: Sequence[str], below: Sequence[Sequence[str]]) -> bool:
    """Whether the numbers of a row are percentiles named as percents ("90% | 95% | 99%"),
    beside a word ("BS", "Avg"), over numbers that are no percents: a header's level."""
    numbers = [column for column, text in enumerate(row) if cell_shape(text) == NUMBER]
    if len(numbers) < MIN_PERCENTILES or len(numbers) == len(row) or not below:
        return False
    if not all(_PERCENTILE.fullmatch(row[column]) for column in numbers):
        return False
    next_row = below[0]
    return all(
        column < len(next_row)
        and cell_shape(next_row[column]) == NUMBER
        and not next_row[column].rstrip().endswith("%")
        for column in numbers
    )


def is_data_row(row: Sequence[str]) -> bool:
    """Whether a row a table would take for its header only because it comes first is a row
    of data: it publishes a number and its first cell is a name that names no role
    ("ResNet-50 | 2,800 | 5,100", not "Batch | 1 | 8" nor "| 2(1) | 4(2)"). Such a table has
    no header row, and its first row is read as the data it is."""
    if not row or not publishes_a_number(row) or cell_shape(row[0]) == BLANK:
        return False
    return not _names_role(row[0])


def _numeric_columns(rows: Sequence[Sequence[str]]) -> frozenset[int]:
    """The columns where numbers are at least half of the cells that hold something."""
    width = max(map(len, rows), default=0)
    numbers = [0] * width
    filled = [0] * width
    for row in rows:
        for column, text in enumerate(row):
            shape = cell_shape(text)
            if shape != BLANK:
                filled[column] += 1
                numbers[column] += shape == NUMBER
    return frozenset(
        column
        for column in range(width)
        if numbers[column] and numbers[column] * 2 >= filled[column]
    )


def _names_numeric_columns(row: Sequence[str], numeric: frozenset[int]) -> bool:
    return any(
        column < len(row)
        and cell_shape(row[column]) != BLANK
        and not _PLACEHOLDER.fullmatch(row[column])
        for column in numeric
    )


def _reads_as_header(row: Sequence[str], numeric: frozenset[int]) -> bool:
    """The corner over the row labels is blank (and so is every cell over them), or a cell
    over a column of numbers names a role ("Throughput", "Accuracy"): a property table's row ("Model | Llama-3.1-8B") names
    its property in the row-label column, and is data. Only the first ROLE_CELLS such cells
    are read: a page of tables under rows of words costs a bounded look per table."""
    if not row:
        return True
    if cell_shape(row[0]) == BLANK:
        # "| | Architecture | MoE | Dense |" under "| | Benchmark (Metric) | DeepSeek V2 |": a
        # name in a column of row labels, beside the blank group column, labels a row of data
        first = min(numeric, default=len(row))
        return all(cell_shape(text) == BLANK for text in row[1:first])
    over = [row[column] for column in sorted(numeric)[:ROLE_CELLS] if column < len(row)]
    if any(map(_names_role, over)):
        return True
    # Units in brackets over the columns of numbers ("TGI v3 (time in s) | vLLM (s)") name
    # what they hold, as a header does: a row of data states its units in its cells.
    stated = [text for text in over if cell_shape(text) != BLANK]
    if len(stated) >= 2 and all(_states_unit(text) for text in stated[:2]):
        return True
    # Chips or precisions over most of the columns of numbers ("T4 | T4 | Jetson TX2", "fp32 |
    # fp16 | int8") under a corner naming the row labels' role ("model"): they group the
    # columns, as a header does. A row led by a name ("ResNet-50 | Bow Pod16") is data.
    if not _names_role(row[0]):
        return False
    named = [text for text in over if cell_shape(text) != BLANK]
    return len(named) >= 2 and sum(map(_names_column_group, named)) * 2 > len(named)


def _names_column_group(text: str) -> bool:
    # no memo of its own: both readers keep one, emptied when a vocabulary changes
    if len(text) > MAX_ROLE_CHARS:
        return False
    precision = read_precision_label(text)
    if precision is not None and (precision.activation or precision.weight):
        return True
    mention = read_platform(text)
    return mention is not None and (mention.accelerator is not None or mention.count_stated)


@lru_cache(maxsize=4096)
def _names_role(text: str) -> bool:
    return len(text) <= MAX_ROLE_CHARS and bool(role_matches(fold_words(text)))


def _states_unit(text: str) -> bool:
    return len(text) <= MAX_ROLE_CHARS and "(" in text and unit_in_header(text) is not None


HEADER_LEVEL_SEPARATOR = " / "  # between the levels of a multi-row header, in every layout


def joined_levels(texts: Sequence[str]) -> str:
    """A column's name from its header levels, top to bottom: the texts joined with ' / ',
    empty levels left out and a text the level below repeats written once."""
    kept: list[str] = []
    for text in texts:
        if text.strip(" \t\u00a0") and (not kept or kept[-1] != text):
            kept.append(text)
    return HEADER_LEVEL_SEPARATOR.join(kept)


def filled_group_headers(levels: Sequence[Sequence[str]]) -> list[list[str]]:
    """The header levels with each group header reaching every column of its group.

    A Markdown table cannot span a cell, so a header written once over several columns
    ("| FP8 (TP1) | |" over "| Tokens/sec | Speedup |") leaves the cells to its right blank;
    an HTML table's spanned cell stands in each column it covers. A blank cell of a level
    takes the text of the nearest named cell to its left at that level when both columns are
    named below it, every column between them is too, and the names below differ from the
    group's others. So the group ends at a column blank at every level below it (a spacer
    column), at a name repeated in it, at a group of the level above that ends, and never
    starts at a header cell naming a column of its own ("| Model | | FP8 |" over
    "| | Batch | Tokens/sec |": "Batch" is no column of "Model"). A level whose group
    headers may be centered over their groups fills nothing: a name below a blank cell
    left of every group header ("A100-80GB" under no header, then under each of two) says
    the headers do not stand over their groups' first columns."""
    filled = [list(level) for level in levels]
    width = max(map(len, filled), default=0)
    for level in filled:
        level.extend([""] * (width - len(level)))
    for depth in range(len(filled) - 1):
        above = filled[depth - 1] if depth else None
        head: int | None = None
        names: set[tuple[str, ...]] = set()
        fills: dict[int, int] = {}  # column -> the group header's column
        ungrouped: set[tuple[str, ...]] = set()  # names below blank cells of no group
        for column in range(width):
            below = _below(filled, depth, column)
            if filled[depth][column].strip(" \t\u00a0"):
                head, names = (column, {below}) if any(below) else (None, set())
                continue
            if (
                head is None
                or not any(below)
                or below in names
                or (above is not None and above[column] != above[head])
            ):
                head = None
                if any(below):
                    ungrouped.add(below)
                continue
            fills[column] = head
            names.add(below)
        if any(_below(filled, depth, column) in ungrouped for column in fills):
            continue
        for column, group in fills.items():
            filled[depth][column] = filled[depth][group]
    return filled


def _below(levels: list[list[str]], depth: int, column: int) -> tuple[str, ...]:
    return tuple(level[column].strip(" \t\u00a0") for level in levels[depth + 1 :])
