"""How many columns a table flattened one cell per line has, told by its body as well as its
header.

A text capture keeps a table's cells in reading order and loses its grid: the header cells,
then each row's cells, one per line. The header words suggest a width (up to the last cell a
vocabulary recognises), but a header may end with a word no vocabulary knows ('Speedup' once
was one) and a body cell may read as a header word ('Server', 'SDK 2.5.1'). A wrong width
does not fail loudly: every row after the first is read shifted and its values load under the
wrong columns. The body tells the widths apart: under the right one its cells fill whole rows
(or stop cleanly where a paragraph follows) and each column keeps one shape, a column of
numbers staying numbers and a column of labels staying labels; under a wrong one, rows wrap
and the columns mix shapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from perfledger.schemas.folding import clean_text

MIN_COLUMNS = 3
# Share of a reading's cells that must have the shape of most cells of their column. The
# right reading of the bench's tables, with their stray cells ('FP16' among '16.16', '22.09'
# among 'SDK 3.1'), scores 0.875 at worst. The share alone does not rule a reading in (a
# wrong one of a two-row table of labels scores up to 0.93): it rules out readings that mix
# columns, and whole rows and the header words settle the rest.
CONSISTENT = 0.85
# Readings this close in consistency fit equally: the body cannot tell them apart.
SAME_FIT = 0.02
MIN_TESTED_ROWS = 2  # a single row says nothing of whether its columns keep their shapes
MAX_DESCRIBED = 3  # readings a problem describes when none fits: the most consistent
MAX_UNIT_CHARS = 24  # '1,234 tokens/s', '0.72 Mask-LM accuracy': a number and its unit

BLANK, NUMBER, TEXT = 0, 1, 2
# Cells that stand for no value: as blank as an empty one, whatever the column holds.
_PLACEHOLDERS = frozenset({"n/a", "na", "n.a.", "tbd", "oom", "?", "...", "…"})
_SPACE_AND_MARKS = " \t\u00a0*†‡§¶#¹²³⁰⁴⁵⁶⁷⁸⁹"  # footnote marks: '6,044¹', '31.5*'
_NUMBER_STARTS = frozenset("~<>±+-$.,")
# A number, then at most a unit without digits; no ordinal ('1st'). The possessive run
# keeps the match linear on a cell of digits and spaces.
_NUMBER_CELL = re.compile(
    rf"[~<>±+-]?\s?\$?[.,]?\d[\d.,\s]*+(?!(?i:st|nd|rd|th)\b)[^\d]{{0,{MAX_UNIT_CHARS}}}"
)
_SENTENCE_END = (".", "!", "?")
MIN_SENTENCE_WORDS = 4


@lru_cache(maxsize=65_536)
def cell_shape(text: str) -> int:
    """BLANK, NUMBER or TEXT. A number may carry a unit ('12.5 ms', '1.83x', '~5 hours');
    digits after it ('224x224', '8x H100', '11h 50m', '2.0-2047') or an ordinal ('1st', as
    'First') make the cell a label."""
    value = text.strip(_SPACE_AND_MARKS)
    if not value.isascii() or not value.isprintable():
        # Zero-width and bidi characters, full-width digits: read as the normalizer reads them.
        value = clean_text(value).strip(_SPACE_AND_MARKS)
    if not value:
        return BLANK
    # The first character rules out most labels before any regular expression runs.
    if (value[0].isdigit() or value[0] in _NUMBER_STARTS) and _NUMBER_CELL.fullmatch(value):
        return NUMBER
    return BLANK if value.casefold() in _PLACEHOLDERS or not value.strip("-") else TEXT


def reads_as_sentence(text: str) -> bool:
    """A paragraph's line: several words ending as a sentence ends. No cell of a results
    table starts a row so."""
    text = text.strip(" \t\u00a0")
    return text.endswith(_SENTENCE_END) and text.count(" ") >= MIN_SENTENCE_WORDS - 1


@dataclass(frozen=True)
class Reading:
    """A block of lines read as a table `width` cells wide."""

    width: int
    rows: int  # whole rows under the header
    leftover: int  # lines after the last whole row: an incomplete row, or prose past a cut
    clean_cut: bool  # the leftover lines start with a paragraph: the table ends before them
    consistency: float  # share of the body's non-blank cells shaped as most of their column
    shifted: bool = False  # its rows may be read off by a cell lost on the way (see _shifted)

    @property
    def exact(self) -> bool:
        return self.leftover == 0 or self.clean_cut

    @property
    def tested(self) -> bool:
        return self.exact and self.rows >= MIN_TESTED_ROWS

    @property
    def lines(self) -> int:
        """The lines of the block the table takes: its header, rows and incomplete row."""
        used = self.width * (self.rows + 1)
        return used if self.clean_cut else used + self.leftover


@dataclass(frozen=True)
class Unclear:
    """No single width reads the block: the readings that fit equally, or none."""

    readings: tuple[Reading, ...]  # the best readings tried, best first
    fitting: bool  # True: several fit equally; False: none fits


@dataclass(frozen=True)
class HeaderWords:
    """What the header's words say of its width, counted in lines from its first."""

    width: int  # up to the last recognised word
    longest: int  # with the unknown words after it


def choose_width(cells: Sequence[str], header: HeaderWords) -> Reading | Unclear:
    """The reading of `cells` (a block of lines: a header, then rows) that its body supports.

    The header words' width is read when the body fits it (whole rows, or a clean cut, in
    columns that keep their shapes) and no wider reading fits as well: a header may end with
    words no vocabulary knows. When the body does not fit it, a reading tested by at least two
    whole rows that fits better than any other is read; else the header words' width with an
    incomplete last row in consistent columns; else the one reading of a single whole row.
    Anything else is unclear."""
    shapes = list(map(cell_shape, cells))
    readings = [
        reading
        for width in range(MIN_COLUMNS, header.longest + 1)
        if (reading := _read(cells, shapes, width, header.width)) is not None
    ]
    by_header = next(reading for reading in readings if reading.width == header.width)
    fitting = [
        reading for reading in readings if reading.tested and reading.consistency >= CONSISTENT
    ]
    if by_header.exact and by_header.consistency >= CONSISTENT:
        wider = [reading for reading in fitting if reading.width > header.width]
        return _best([by_header, *wider])
    if fitting:
        return _best(fitting)
    if by_header.consistency >= CONSISTENT and not by_header.shifted:
        return by_header  # its last row is incomplete, and reported
    single_rows = [reading for reading in readings if reading.exact and reading.rows == 1]
    if len(single_rows) == 1:
        return single_rows[0]
    if single_rows:
        return Unclear(tuple(single_rows), fitting=True)
    tried = sorted(readings, key=lambda reading: -reading.consistency)
    return Unclear(tuple(tried[:MAX_DESCRIBED]), fitting=False)


def width_by_shapes(cells: Sequence[str], widest: int) -> Reading | None:
    """The reading of a block no header word starts ("Benchmark | Phi-4-mini-instruct |
    Phi-4-mini-instruct-float8dq", then rows), told by its cells' shapes alone: a header of
    words, then at least two whole rows whose columns keep their shapes, one of them a
    column of numbers, and no other width that fits as well. None when the block reads so
    at no width, or at several: such a block is reported, not read."""
    shapes = list(map(cell_shape, cells))
    fitting = []
    for width in range(MIN_COLUMNS, min(widest, len(cells) // (MIN_TESTED_ROWS + 1)) + 1):
        if shapes[width - 1] != TEXT:
            break  # a header is words: every wider header would hold this cell too
        reading = _read(cells, shapes, width, 0)
        if reading is None or not reading.tested or reading.consistency < CONSISTENT:
            continue
        body = shapes[width : width * (reading.rows + 1)]
        if any(_majority(body[column::width]) == NUMBER for column in range(width)):
            fitting.append(reading)
    if not fitting:
        return None
    best = _best(fitting)
    return best if isinstance(best, Reading) else None


def _best(fitting: list[Reading]) -> Reading | Unclear:
    """The reading that fits clearly best, or Unclear when others fit about as well."""
    ranked = sorted(fitting, key=lambda reading: -reading.consistency)
    close = [
        reading for reading in ranked if reading.consistency >= ranked[0].consistency - SAME_FIT
    ]
    return close[0] if len(close) == 1 else Unclear(tuple(close), fitting=True)


def _read(cells: Sequence[str], shapes: list[int], width: int, header_width: int) -> Reading | None:
    """The block read `width` cells wide, or None when that reading could not be chosen: no
    whole row; lines left over (but in the header words' own reading); or, narrower than
    the header words, header words put among values they are unlike."""
    rows, leftover = divmod(len(cells) - width, width)
    clean_cut = leftover > 0 and reads_as_sentence(cells[width * (rows + 1)])
    by_header = width == header_width
    if not by_header and (rows == 0 or (leftover and not clean_cut)):
        return None
    partial = 0 if clean_cut else leftover
    body = shapes[width : width * (rows + 1) + partial]
    columns = [body[column::width] for column in range(width)]  # sliced in C: linear
    if width < header_width and not _fit_their_columns(header_width - width, columns, width):
        return None
    shifted = bool(partial) and _shifted(body, width, partial)
    return Reading(width, rows, leftover, clean_cut, _consistency(columns), shifted)


def _fit_their_columns(moved: int, columns: list[list[int]], width: int) -> bool:
    """Whether the first `moved` cells of the body, header words under a wider reading,
    are labels in columns of labels ('Model 0' under 'Model'). A header word is no value:
    a narrower reading that puts one at the head of a column of numbers is wrong."""
    return all(_majority(columns[index % width]) == TEXT for index in range(moved))


def _consistency(columns: list[list[int]]) -> float:
    """Share of the columns' non-blank cells that have the shape most cells of their column
    have."""
    agreeing = counted = 0
    for cells in columns:
        numbers, texts = cells.count(NUMBER), cells.count(TEXT)
        agreeing += max(numbers, texts)
        counted += numbers + texts
    return agreeing / counted if counted else 1.0


def _shifted(body: list[int], width: int, leftover: int) -> bool:
    """Whether the rows of `body` (whole rows, then an incomplete row of `leftover` cells)
    may have been read shifted.

    Lines left over are a last row cut short, or cells lost (or added) on the way: after
    the loss, every cell is read `leftover` columns off and its value loads under the wrong
    column. The rows are trusted when the columns' shapes would show such a shift and no
    loss shows one: wherever a cell was lost, putting the cells after it back `leftover`
    columns would make the columns mix shapes more, not less. The incomplete row's cells
    count too: cut short, they keep the shapes of the first columns."""
    if len(body) < width:
        return False  # no whole row: nothing would load
    profile = [_majority(body[column::width]) for column in range(width)]
    if all(
        a is None or b is None or a == b
        for a, b in zip(profile, profile[-leftover:] + profile[:-leftover], strict=True)
    ):
        return True  # rows read off by `leftover` columns would look the same: unverifiable
    return _fewest_mixed_after_a_loss(body, width, leftover) < _mixed_count(body, width)


def _mixed_count(cells: list[int], width: int) -> int:
    """Cells shaped unlike most of their column."""
    return sum(
        min(column.count(NUMBER), column.count(TEXT))
        for column in (cells[index::width] for index in range(width))
    )


def _fewest_mixed_after_a_loss(cells: list[int], width: int, moved: int) -> int:
    """The fewest cells shaped unlike most of their column when the cells from some cell on
    (after the first, before the last) are put back `moved` columns. The split moves one cell
    at a time, each move changing two columns' counts: linear in the cells."""
    numbers = [0] * width  # per column, every cell put back: the table as read, its columns
    texts = [0] * width  # renamed, so as mixed as it
    for index, shape in enumerate(cells):
        column = (index % width - moved) % width
        numbers[column] += shape == NUMBER
        texts[column] += shape == TEXT
    mixed = fewest = sum(map(min, numbers, texts))
    for index, shape in enumerate(cells[:-1]):
        if shape == BLANK:
            continue  # a blank cell counts nowhere: the split past it changes nothing
        counts = numbers if shape == NUMBER else texts
        for column, step in (((index % width - moved) % width, -1), (index % width, 1)):
            before = min(numbers[column], texts[column])
            counts[column] += step
            mixed += min(numbers[column], texts[column]) - before
        fewest = min(fewest, mixed)
    return fewest


def _majority(shapes: list[int]) -> int | None:
    """NUMBER or TEXT when most of the non-blank `shapes` are that; None on a tie."""
    numbers, texts = shapes.count(NUMBER), shapes.count(TEXT)
    if numbers == texts:
        return None
    return NUMBER if numbers > texts else TEXT
