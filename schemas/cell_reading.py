"""The values a result cell holds: numbers with their unit, spread, approximation and remark.

"96 img/s", "10.37 ms", "1.83x", "~5 hours", "77.12 +/- 0.11", "0:06:27", "23h 43m",
"3.28e+02", "109.4 sps (phase1), 20 sps (phase2)" (two values). Separators are read with
the decimal mark the page uses; a number that reads two ways ("12.345") without a decimal
mark known is not read at all: it is reported as ambiguous, never guessed.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from perfledger.schemas.durations import duration_and_remark, duration_seconds
from perfledger.schemas.folding import clean_text
from perfledger.schemas.one_named_value import named_in_turn, one_named_value
from perfledger.schemas.placeholders import PLACEHOLDER as _PLACEHOLDER
from perfledger.schemas.stacked_figures import stacked_figures
from perfledger.schemas.units import Unit, unit_named
from perfledger.schemas.values_each import value_each

if TYPE_CHECKING:
    from perfledger.schemas.header_reading import HeaderReading

POINT, COMMA = ".", ","  # the decimal marks
MAX_CELL_CHARS = 400  # "109.4 sps (phase1), 20 sps (phase2)": no cell of values is longer
MAX_DIGITS = 30  # a longer number is no measurement (hostile pages hold 5,000 digits)

# Superscript marks, and the pictographs a page decorates a figure with ("1.91x \u26a1")
_FOOTNOTE_MARKS = re.compile(
    r"[\u00b9\u00b2\u00b3\u2070-\u2079\u207a\u207b\u2080-\u2089"
    r"\u2600-\u27bf\ufe0f\U0001f000-\U0001faff]+"
)
_TRAILING_MARKS = "*\u2020\u2021\u00a7#\u203b"  # "6,044*", "3,210\u2020", "942\u203b"
# A numbered reference after a value ("45,824 [1]", "21h 46m[2]"): a footnote, as "*" is. A
# cell is at most MAX_CELL_CHARS long when it is stripped, so the pattern stays cheap.
_REFERENCE_TAIL = re.compile(r"(?:\s*\[\d{1,2}\])+\s*$")
# A note named after a dash ("- (Note 2)"): still no value published; the note says why.
_NOTE_TAIL = re.compile(r"[(\[] ?(?:see )?notes? ?\d{1,2} ?[)\]]$")


_NON_FINITE = re.compile(r"^[+-]?(?:nan|inf|infinity|\u221e)$")
_APPROX = re.compile(r"^(?:~|\u2248|\u223c|approx\.?|approximately|about|circa|ca\.|c\.)\s*")
_BOUND = re.compile(
    r"^(?:<=?|>=?|\u2264|\u2265|up to|at least|at most|over|under|below|"
    r"above|more than|less than)\s*"
)
_NUMBER = re.compile(
    r"^(?P<sign>[+-]?)(?P<digits>\d[\d,.'\u00a0\u202f\u2009 ]*\d|\d|[.,]\d+)"
    r"(?P<exponent>[eE][+-]?\d{1,3})?(?![\d])"
)
_SCALE = {
    **dict.fromkeys(("k", "thousand"), 1e3),
    **dict.fromkeys(("million", "mn", "M"), 1e6),
    **dict.fromkeys(("bn", "billion", "B"), 1e9),
}
_SCALE_WORD = re.compile(r"^\s?(k|thousand|million|mn|bn|billion|M|B)(?![A-Za-z])")
SPREAD_MARKERS = ("\u00b1", "+/-", "+-", "+ /-")  # what stands before a figure's spread
SPREAD_MARKER = "(?:" + "|".join(map(re.escape, SPREAD_MARKERS)) + ")"
_SPREAD = re.compile(rf"^\s*{SPREAD_MARKER}\s*")
_BRACKETED_SPREAD = re.compile(rf"\(\s*{SPREAD_MARKER}\s*([^()]*?)\s*\)")
# A standard deviation named ("33 Std: 0.8", "83 (Std: 3.6)", "12 (stdev 0.4)"): the spread.
_STANDARD_DEVIATION = re.compile(
    r"(?i)\(?\s*(?<![a-z])(?:std|stdev|std\.? ?dev\.?|\u03c3)\s*[:=]?\s*(\d[\d.,]*)\s*\)?"
)
_QUALIFIER = re.compile(r"^\s*\((?P<text>[^()]{1,40})\)\s*$")
# A whole cell counting chips before their name ("8xH100", "4x8xH100", "8x A100 80GB",
# "2x RTX 4090", "8 x Gaudi2"): it starts with digits but names the hardware a run used, no
# value. The name has a chip's shape, capitals then a digit: "2x Faster" is a speedup.
COUNTED_CHIP_CELL = (
    r"^\s*\d{1,4}\s*[x\u00d7]\s*(?:\d{1,4}\s*[x\u00d7]\s*)*"
    r"(?:[A-Z]{1,4}\s?\d|[A-Z][a-z]+\s?\d)[\w .-]*$"
)
_SPLIT = re.compile(r"\s*[;,]\s+(?=[~\u2248<>]?\s*[+-]?\d)")
_GROUPS = re.compile(r"^\d{1,3}(?:[,.'\u00a0\u202f\u2009 ]\d{3})+$")
_NAMED = re.compile(
    r"^(?P<name>[^\W\d][\w/ -]{0,14}[^\W\d]|[^\W\d])\s*[:=]?\s+"
    r"(?P<number>[+-]?\d\S*(?:\s+\([^()]*\))?)$"  # and its remark: "mAP 0.374 (Entropy)"
)
_COMPARED = re.compile(r"^(?:vs\.?|versus|compared (?:to|with)|and)\s+", re.I)
# A hash or commit id ("1f9c945db9e3...", "3e8a9f1"): hexadecimal digits holding a letter other
# than "e" (which "1e5" holds as an exponent). Its leading digits are no number.
_HEX_ID = re.compile(r"^(?=[0-9a-f]*[a-df])(?=[0-9a-f]*\d)[0-9a-f]{7,}$", re.I)


class CellValue(NamedTuple):
    number: float  # as published, in the cell's own unit
    unit: Unit | None = None  # the unit written in the cell
    rest: str | None = None  # text after the number that is no known unit ("MAE")
    spread: float | None = None  # the +/- part, in the same unit
    approximate: bool = False
    seconds: float | None = None  # a clock reading or spelled duration, in seconds
    qualifier: str | None = None  # the remark in brackets after it: "phase1"
    spelled: bool = False  # a clock reading or a duration in parts: no single number printed
    # A value in brackets after the first ("79.76 s (2 epochs, 40.7 images/sec)", "1.41s
    # (1.16x speedup)", "430.88 s (vs 475.97 s PyTorch)"): its unit names its own metric.
    secondary: bool = False


class CellReading(NamedTuple):
    values: tuple[CellValue, ...] = ()
    problem: str | None = None  # why nothing was read: placeholder_value, ambiguous_number,
    #                             bound_value, range_value, sum_value, non_finite_value,
    #                             unparseable_value
    decimal_evidence: str | None = None  # POINT or COMMA when a number shows which it uses


def strip_footnotes(text: str) -> str:
    text = _FOOTNOTE_MARKS.sub("", text)
    if text.rstrip().endswith("]"):
        text = _REFERENCE_TAIL.sub("", text)
    # Trailing marks are stripped by hand: a pattern anchored at the end would try every
    # start in a long run of them ("*" * 100,000 + "1"), each to the end.
    stripped = text.rstrip()
    kept = stripped.rstrip(_TRAILING_MARKS)
    return kept if len(kept) < len(stripped) else text


# Most cells hold a plain number: ASCII digits, maybe with thousands commas and decimals.
_PLAIN = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:[.,][0-9]+)?")


@lru_cache(maxsize=131_072)
def read_cell(text: str, decimal: str | None = POINT) -> CellReading:
    """The values of a result cell; `decimal` is the page's decimal mark (None: unknown)."""
    if _PLAIN.fullmatch(text):
        number, evidence, problem = read_number(text, decimal)
        if problem is not None:
            return CellReading(problem=problem, decimal_evidence=evidence)
        assert number is not None  # read_number gives a number whenever it names no problem
        return CellReading((CellValue(number),), None, evidence)
    if len(text) > MAX_CELL_CHARS:
        return CellReading(problem="unparseable_value")
    cleaned = clean_text(strip_footnotes(text))
    lowered = cleaned.lower()
    if _PLACEHOLDER.match(lowered) or (
        "note" in lowered and _PLACEHOLDER.match(_NOTE_TAIL.sub("", lowered).rstrip())
    ):
        return CellReading(problem="placeholder_value")
    if _NON_FINITE.match(lowered):
        return CellReading(problem="non_finite_value")
    several = (
        _values_in_series(cleaned, decimal)
        or _figures_parted(cleaned, decimal)
        or _pair_with_one_suffix(cleaned, decimal)
        or _runs_with_remarks(cleaned, decimal)
        or _series_with_brackets(cleaned, decimal)
    )
    if several is not None:
        return several
    parts = _SPLIT.split(cleaned)
    # A comma inside brackets parts a remark, not values: "79.76 s (2 epochs, 40.7 images/sec)".
    if len(parts) > 1 and all(part.count("(") == part.count(")") for part in parts):
        # A part saying nothing was published ("---, 68.6": no AP measured, then its AP50)
        # stands for no value; the others are the cell's values.
        readings = [
            _read_one(part, decimal) for part in parts if not _PLACEHOLDER.match(part.lower())
        ]
        if readings and all(reading.values for reading in readings):
            values = tuple(value for reading in readings for value in reading.values)
            parted = CellReading(values, None, _evidence_of(readings))
            if any(value.rest for value in values):
                return _with_breakdown(cleaned, decimal) or parted
            return parted
    reading = _with_bracketed_values(_read_one(cleaned, decimal), decimal)
    if reading.problem == "unparseable_value":
        # values named each ("top1: 78.48% top5: 94.09%"), else one after a long name
        short_names = _VALUE_NAME.search(cleaned) is not None
        read = lambda written: _read_one(written, decimal)  # noqa: E731
        named = (
            (short_names and _named_values(cleaned, decimal))
            or one_named_value(cleaned, read, _names_a_metric)
            or named_in_turn(cleaned, read, _names_a_metric)
        )
        if named is not None:
            return named
        if short_names:
            return reading
    if reading.problem is not None or any(value.rest for value in reading.values):
        return _with_breakdown(cleaned, decimal) or _figures_stacked(cleaned, decimal) or reading
    return reading


def _figures_stacked(text: str, decimal: str | None) -> CellReading | None:
    """Two figures written one under the other ("90.8 fps<br>11 ms"): schemas/stacked_figures.py."""
    found = stacked_figures(text, lambda part: _read_one(part, decimal))
    if found is None:
        return None
    first, second, readings = found
    return CellReading((first, second._replace(secondary=True)), None, _evidence_of(readings))


# A value written after its name and a colon or an equals sign ("top1: 78.48%", "Acc@1=76.1"):
# the name is a word, maybe with digits or a second word, never a number.
# (schemas/chunk_reading.py tells such cells from words by the same name.)
VALUE_NAME = r"[^\W\d][\w@.\-]{0,15}(?: [^\W\d][\w@.\-]{0,15})?(?::\d[\d.]*)?"
_VALUE_NAME = re.compile(rf"(?:^|(?<=[\s,;]))(?P<name>{VALUE_NAME})\s?[:=]\s*(?=[~+-]?\d)")


def _named_values(text: str, decimal: str | None) -> CellReading | None:
    """The values of a cell naming each of them ("top1：78.48% top5：94.09%", "Acc@1: 76.1,
    Acc@5: 92.9"), each with its name as its remark; None unless every part reads as one
    value with a unit or decimals, and the cell holds nothing else."""
    found = list(_VALUE_NAME.finditer(text))
    if not found or found[0].start() != 0:
        return None
    values, evidence = [], []
    for match, following in zip(found, [*found[1:], None], strict=True):
        end = following.start() if following is not None else len(text)
        part = text[match.end() : end].strip(" ,;")
        reading = _read_one(part, decimal)
        if len(reading.values) != 1 or reading.values[0].rest or reading.values[0].qualifier:
            return None
        value, name = reading.values[0], match.group("name")
        value = value._replace(unit=value.unit or unit_named(name))  # "FPS=330": a unit's name
        if value.unit is None and not re.search(r"\d[.,]\d", part):
            if len(found) > 1 and _names_a_setting(name):
                continue  # "BatchSize=280" beside "Acc@1=76.02,FPS=330": the run's setting
            return None  # "bs=8", "TP: 8": a setting's value, no score
        values.append(value._replace(qualifier=name))
        evidence.append(reading)
    return CellReading(tuple(values), None, _evidence_of(evidence)) if values else None


def _names_a_setting(name: str) -> bool:
    return _name_read(name).kind == "config"


def _names_a_metric(name: str) -> bool:
    return _name_read(name).names_metric


def _name_read(name: str) -> HeaderReading:
    """A value's name read as a column header would be (read_header caches it)."""
    from perfledger.schemas.header_reading import read_header  # which imports this module

    return read_header(name)


# The first name of a breakdown written after a cell's value(s): a word and a colon.
_BREAKDOWN_START = re.compile(r"(?<=[\s,;])[^\W\d][\w@.\-]{0,15}\s?[:=]\s*(?=[~+-]?\d)")


def _with_breakdown(text: str, decimal: str | None) -> CellReading | None:
    """A cell's value(s) followed by the parts they are made of, each named ("441.09 ms, 2.26
    t/s I: 434.84 ms, T: 5.25 ms", its small print on a second line): the parts read as the
    same words in brackets do, a remark of the value written before them. None unless the
    values before and the named parts after each read whole, with units."""
    start = _BREAKDOWN_START.search(text)
    if start is None:
        return None
    head, tail = text[: start.start()].strip(" ,;"), text[start.start() :].strip()
    parts = _named_values(tail, decimal)
    if parts is None or any(value.unit is None for value in parts.values):
        return None
    reading = read_cell(head, decimal)
    if not reading.values or any(value.unit is None or value.rest for value in reading.values):
        return None
    *first, last = reading.values
    if last.qualifier is not None:
        return None
    return reading._replace(values=(*first, last._replace(qualifier=tail)))


# Numbers with decimals written in a series parted by "/", each series perhaps after its
# name: "0.761/0.929" (top-1/top-5), "Day: 76.2/83.6/90.0, Night: 58.2/68.4/80.6", "(Set5)
# PSNR/SSIM= 37.654/0.959 (Set14) PSNR/SSIM= 33.169/ 0.914". Numbers without decimals ("1/2",
# "12/24") are fractions or dates, not series.
_SERIES_NUMBER = r"[+-]?\d+\.\d+(?:\s?[a-zµμ%]{1,3}(?![\w.]))?"  # "0.26s": one unit at most
_SERIES = re.compile(rf"(?<![\w.]){_SERIES_NUMBER}(?:\s*/\s*{_SERIES_NUMBER})*(?![\w.])")
_SERIES_NAME = re.compile(r"^[\s,;]*(?P<name>[^\d\s][^:=]{0,40}?)?\s*[:=]?\s*$")
MAX_SERIES_VALUES = 32


def _values_in_series(text: str, decimal: str | None) -> CellReading | None:
    """The values of a cell holding series of numbers parted by "/" (one series of two at
    least), each value named by its series' name and its place; None for any other cell."""
    if "/" not in text:
        return None
    values, position, longest = [], 0, 0
    for match in _SERIES.finditer(text):
        named = _SERIES_NAME.match(text[position : match.start()])
        if named is None:
            return None
        name = " ".join(re.sub(r"[()]", " ", named.group("name") or "").split())
        numbers = [part.strip() for part in match.group(0).split("/")]
        longest = max(longest, len(numbers))
        for number_text, label in zip(numbers, _series_labels(name, len(numbers)), strict=True):
            reading = _read_one(number_text, decimal)
            if len(reading.values) != 1 or reading.values[0].rest:
                return None
            values.append(reading.values[0]._replace(qualifier=label or None))
        position = match.end()
    if (
        text[position:].strip(" ,;")
        or longest < 2
        or len(values) > MAX_SERIES_VALUES
        or len({value.unit for value in values}) > 1
    ):
        return None
    return CellReading(tuple(values))


# Two figures of one run parted by a spaced "/", each with a unit of its own kind: "3.12 ms /
# 706 TFLOPS" (a time and the compute rate it gives). "ms/step" and "1/2" have no spaces.
_SPACED_SLASH = re.compile(r"\s+/\s+")


def _two_figures(text: str, decimal: str | None) -> tuple[list[CellReading], list[CellValue]]:
    """The readings of the two parts of a cell parted by one spaced " / ", and the value of
    each part that reads as one value (fewer than two: the cell is no such pair)."""
    parts = _SPACED_SLASH.split(text) if " / " in text else []
    if len(parts) != 2:
        return [], []
    readings = [_read_one(part, decimal) for part in parts]
    return readings, [reading.values[0] for reading in readings if len(reading.values) == 1]


def _figures_parted(text: str, decimal: str | None) -> CellReading | None:
    """The two values of a cell holding two figures parted by " / ", each a number with a
    unit of a different kind; the second names its own metric by its unit, as a value in
    brackets after the first does. None for any other cell."""
    readings, values = _two_figures(text, decimal)
    if len(values) != 2 or any(
        value.unit is None or value.rest or value.qualifier or value.spelled for value in values
    ):
        return None
    first, second = values
    assert first.unit is not None and second.unit is not None
    if first.unit.kind == second.unit.kind:
        return None  # a range or a pair of the same figure, not two figures
    return CellReading((first, second._replace(secondary=True)), None, _evidence_of(readings))


_SUFFIX = re.compile(r"[A-Za-z]{1,2}")


def _pair_with_one_suffix(text: str, decimal: str | None) -> CellReading | None:
    """The two figures of a cell parted by " / ", each with the same letter after it and no
    unit ("97T / 59T" under "TFLOPS": the two runs compared, each in the column's unit, which
    the letter abbreviates), or each with the same unit ("115.5 tok/s / 110.4 tok/s", "2964tps
    / 154tps": two runs or phases); each named by its place. None for any other cell."""
    readings, values = _two_figures(text, decimal)
    if len(values) != 2 or any(value.qualifier or value.spelled for value in values):
        return None
    lettered = not any(value.unit or not _SUFFIX.fullmatch(value.rest or "") for value in values)
    united = values[0].unit is not None and not any(value.rest for value in values)
    if not (lettered or united) or values[0][1:3] != values[1][1:3]:
        return None
    labels = _series_labels("", 2)
    return CellReading(
        tuple(value._replace(qualifier=label) for value, label in zip(values, labels, strict=True)),
        None,
        _evidence_of(readings),
    )


def _series_with_brackets(text: str, decimal: str | None) -> CellReading | None:
    """The values of a series parted by " / " whose values each carry a figure in brackets
    ("0.525(76.09%) / 0.762(86.30%)": top-1 and top-5, each with its ratio to the float
    model's), each named by its place, its bracketed figure after it; or a remark ("12 ms
    (p50) / 15 ms (p99)"), each named by its remark. None unless every part reads whole."""
    if " / " not in text or "(" not in text:
        return None
    parts = _SPACED_SLASH.split(text)
    if not 2 <= len(parts) <= MAX_SERIES_VALUES:
        return None
    values: list[CellValue] = []
    readings = [_with_bracketed_values(_read_one(part, decimal), decimal) for part in parts]
    for reading, label in zip(readings, _series_labels("", len(parts)), strict=True):
        if reading.problem is not None or not reading.values or reading.values[0].rest:
            return None
        first, *bracketed = reading.values
        if first.secondary or (first.qualifier is None) == (not bracketed):
            return None  # each part holds a figure or a remark in brackets ("15 ms (p99)")
        values += [value._replace(qualifier=first.qualifier or label) for value in reading.values]
    if len({value.unit for value in values if not value.secondary}) > 1:
        return None
    return CellReading(tuple(values), None, _evidence_of(readings))


# Several runs in one cell, each closing with its remark in brackets and the next starting
# with a number: "6.3 ms / 157.4 FPS (1 thread) 6.8 ms / 291.8 FPS (2 threads)" (the runs
# written one under the other, "<br/>" between them).
_RUN_BREAK = re.compile(r"(?<=\))\s+(?=[~\u2248]?\s*\d)")
_RUN = re.compile(r"^(?P<figures>[^()]+?)\s*\((?P<remark>[^()]{1,40})\)$")
MAX_RUNS = 8


def _runs_with_remarks(text: str, decimal: str | None) -> CellReading | None:
    """The values of a cell holding runs of the same figures, each run closing with its
    remark in brackets ("(1 thread)", "(2 threads)"): each value with its run's remark. None
    unless every run reads whole, with a unit, as the same figures as the others."""
    if ")" not in text:
        return None
    runs = _RUN_BREAK.split(text)
    if not 2 <= len(runs) <= MAX_RUNS:
        return None
    values: list[CellValue] = []
    shapes, readings = set(), []
    for run in runs:
        match = _RUN.match(run)
        if match is None:
            return None
        figures, remark = match.group("figures"), " ".join(match.group("remark").split())
        reading = _figures_parted(figures, decimal) or _read_one(figures, decimal)
        if reading.problem is not None or not reading.values:
            return None
        shape = []
        for value in reading.values:
            if value.unit is None or value.rest or value.qualifier:
                return None
            shape.append((value.unit.kind, value.secondary))
        shapes.add(tuple(shape))
        values += [value._replace(qualifier=remark) for value in reading.values]
        readings.append(reading)
    if len(shapes) != 1:
        return None
    return CellReading(tuple(values), None, _evidence_of(readings))


def _series_labels(name: str, count: int) -> list[str]:
    """Each value's name: the series' name with the value's own part of it where the name
    lists as many ("Set5 PSNR/SSIM": "Set5 PSNR", "Set5 SSIM"), else its place ("Day 1/3")."""
    if count == 1:
        return [name]
    head, _, last = name.rpartition(" ")
    parts = last.split("/")
    if len(parts) == count:
        return [f"{head} {part}".strip() for part in parts]
    return [f"{name} {place}/{count}".strip() for place in range(1, count + 1)]


def _with_bracketed_values(reading: CellReading, decimal: str | None) -> CellReading:
    """A reading whose one value's remark holds values with units of their own ("2 epochs,
    40.7 images/sec"; "1.16x speedup"; "vs 475.97 s PyTorch"): those values too, each with
    the words after its unit as its remark; what holds no such value stays the remark."""
    if len(reading.values) != 1:
        return reading
    first = reading.values[0]
    remark = first.qualifier
    if not remark or not any(character.isdigit() for character in remark):
        return reading
    found, kept = [], []
    for part in re.split(r"\s*[,;]\s*", remark):
        value = _bracketed_value(part, decimal)
        if value is None:
            kept.append(part)
        else:
            found.append(value)
    if not found:
        return reading
    first = first._replace(qualifier=", ".join(kept) or None)
    return reading._replace(values=(first, *found))


def _bracketed_value(part: str, decimal: str | None) -> CellValue | None:
    """'40.7 images/sec', '1.16x speedup', 'vs 475.97 s PyTorch': a number with a known
    unit, and the words after the unit; None for anything else ('2 epochs')."""
    part = _COMPARED.sub("", part.strip())
    approximate = _APPROX.match(part)  # "(~7.0% speedup)": a figure rounded, still a figure
    if approximate:
        part = part[approximate.end() :]
    duration = duration_seconds(part.lower())  # "(1 min 38 sec)": one duration in parts
    if duration is not None:
        return CellValue(
            duration,
            unit_named("s"),
            approximate=bool(approximate),
            seconds=duration,
            spelled=True,
            secondary=True,
        )
    match = _NUMBER.match(part)
    if match is None:
        return None
    number, _, problem = read_number(match.group("digits"), decimal)
    if problem is not None or number is None:
        return None
    if match.group("sign") == "-":
        number = -number
    words = part[match.end() :].split()
    if (
        words
        and words[0] not in ("x", "\u00d7")
        and words[0][0] in ("x", "\u00d7")
        and len(words[0]) > 1
    ):
        words = [words[0][0], words[0][1:], *words[1:]]  # "1.16x speedup" as "x speedup"
    for end in range(len(words), 0, -1):
        unit = unit_named(" ".join(words[:end]))
        if unit is not None:
            remark = " ".join(words[end:]) or None
            seconds = number * unit.factor if unit.kind == "duration" else None
            return CellValue(
                number,
                unit,
                approximate=bool(approximate),
                seconds=seconds,
                qualifier=remark,
                secondary=True,
            )
    return None


def value_seconds(number: float, unit: Unit | None) -> float | None:
    return number * unit.factor if unit is not None and unit.kind == "duration" else None


def _evidence_of(readings: list[CellReading]) -> str | None:
    marks = {reading.decimal_evidence for reading in readings} - {None}
    return marks.pop() if len(marks) == 1 else None


def _read_one(text: str, decimal: str | None) -> CellReading:
    if _HEX_ID.match(text):
        return CellReading(problem="unparseable_value")
    approximate = bool(_APPROX.match(text))
    text = _APPROX.sub("", text)
    # "up to 1.3x", "Up to ~1.3x": a bound, however rounded
    if _BOUND.match(text.lower()) and _NUMBER.match(_APPROX.sub("", _BOUND.sub("", text.lower()))):
        return CellReading(problem="bound_value")
    shared = value_each(text, lambda each: _read_one(each, decimal))
    if shared is not None:
        return shared._replace(values=(shared.values[0]._replace(approximate=approximate),))
    times_first = _TIMES_FIRST.match(text)
    if times_first is not None:  # "x3.04", "×1.8": a multiple written sign first
        text = f"{times_first.group(1)}x"
    # "23h 43m", or "7h 58m (1.72x)": the duration, its remark in brackets read after it
    duration, remark = duration_and_remark(text)
    if duration is not None:
        value = CellValue(
            duration,
            unit_named("s"),
            approximate=approximate,
            qualifier=remark,
            seconds=duration,
            spelled=True,
        )
        return CellReading((value,))
    match = _NUMBER.match(text)
    if match is None:
        named = _NAMED.match(text)
        if named is None:
            return CellReading(problem="unparseable_value")
        # "RTF 0.817", "Dice 0.8735", "EPE: 0.878": the unit or score named first.
        reading = _read_one(named.group("number"), decimal)
        if len(reading.values) != 1 or reading.values[0].unit or reading.values[0].rest:
            return CellReading(problem="unparseable_value")
        name = named.group("name")
        unit = unit_named(name)
        if unit is None and not re.search(r"\d[.,]\d", named.group("number")):
            return CellReading(problem="unparseable_value")  # "Gaudi 2": a name, no score
        value = reading.values[0]._replace(
            unit=unit,
            rest=None if unit else name,
            approximate=approximate,
            seconds=value_seconds(reading.values[0].number, unit),
        )
        return reading._replace(values=(value,))
    number, evidence, problem = read_number(match.group("digits"), decimal)
    if problem is not None:
        return CellReading(problem=problem, decimal_evidence=evidence)
    assert number is not None  # read_number gives a number whenever it names no problem
    if match.group("exponent"):
        number = float(f"{number!r}{match.group('exponent')}")  # "1e999" is inf, no error
    if match.group("sign") == "-":
        number = -number
    rest = text[match.end() :]
    scale = _SCALE_WORD.match(rest)
    if scale:
        number = decimal_product(number, _SCALE[scale.group(1)])
        rest = rest[scale.end() :]
    if not math.isfinite(number):
        return CellReading(problem="non_finite_value")
    if abs(number) >= 10.0**MAX_DIGITS:  # "1,79e308": as far past any measurement
        return CellReading(problem="unparseable_value")
    return _with_unit_and_spread(number, rest, approximate, decimal, evidence)


def _with_unit_and_spread(
    number: float, rest: str, approximate: bool, decimal: str | None, evidence: str | None
) -> CellReading:
    """The value of a number followed by `rest`: "img/s", "± 0.11 ms", "(phase1)", "MAE"."""
    if _RANGE_END.match(rest) or _SUM_PART.match(rest):
        return CellReading(problem="range_value" if _RANGE_END.match(rest) else "sum_value")
    unit_first = _UNIT_THEN_RANGE_END.match(rest)
    if unit_first is not None and unit_named(unit_first.group(1)) is not None:
        return CellReading(problem="range_value")  # "1.382x to 2.113x": each end with its unit
    rest, spread_text = _split_spread(rest)
    rest, qualifier = _split_qualifier(rest)
    capacity = _OUT_OF.match(rest)
    if capacity is not None:  # "76/80" GiB used of 80: the total is the value's remark
        rest, qualifier = capacity.group("unit") or "", f"of {capacity.group('total')}"
    unit_text = rest.strip()
    unit = unit_named(unit_text) if unit_text else None
    if unit is None and qualifier is None:
        gain = _GAIN_WORD.match(unit_text) or _LOSS_WORD.match(unit_text)
        if gain is not None:  # "1.5x faster": a multiple, the word saying which way it goes
            unit_text, qualifier = gain.group("unit"), gain.group("word")
            unit = unit_named(unit_text)
    if unit is None and qualifier is None:
        stated = _STATISTIC_AFTER.match(unit_text)
        # "0.85s avg", "3.2 ms p99": as "0.85 s (avg)" reads
        if stated is not None and (after_unit := unit_named(stated.group("unit"))) is not None:
            unit, unit_text, qualifier = after_unit, stated.group("unit"), stated.group("word")
    if unit is None and qualifier is None:
        unit_text, unit, qualifier = _unit_then_words(unit_text)
    spread = None
    if spread_text is not None:
        spread_match = _NUMBER.match(spread_text)
        if spread_match is None:
            return CellReading(problem="unparseable_value")
        spread, _, problem = read_number(spread_match.group("digits"), decimal)
        if problem is not None:
            return CellReading(problem=problem)
        spread_unit = spread_text[spread_match.end() :].strip()
        if spread_unit and unit is None:  # "77.12 +/- 0.11 ms": the unit follows the spread
            unit_text, unit = spread_unit, unit_named(spread_unit)
    value = CellValue(
        number=number,
        unit=unit,
        rest=unit_text if unit is None and unit_text else None,
        spread=spread,
        approximate=approximate,
        seconds=(
            decimal_product(number, unit.factor)
            if unit is not None and unit.kind == "duration"
            else None
        ),
        qualifier=qualifier,
    )
    return CellReading((value,), None, evidence)


def _unit_then_words(text: str) -> tuple[str, Unit | None, str | None]:
    """(unit text, unit, remark) of the words after a number that open with a rate and go on
    with words of another kind, as the lines of a cell read once joined ("4160 tokens/s/p
    配置 Atlas 800T A2": the rate, then its configuration's link and its hardware). Only a
    rate: after a multiple, a share or a time the words more often say what it compares or
    saves ("13% faster", "1.2x to 2.1x", "7.6s saved"). Words holding another value ("12
    tokens/s 3.1 GB") or the end of a range are no remark."""
    words = text.split()
    if len(words) < 2 or _ANOTHER_VALUE.search(text):
        return text, None, None
    for end in range(len(words) - 1, 0, -1):
        unit = unit_named(" ".join(words[:end]))
        if unit is not None:
            if _RANGE_WORD.match(words[end]) or (
                unit.kind != "rate" and (unit.kind != "duration" or _DIGIT.search(text))
            ):
                break
            return " ".join(words[:end]), unit, " ".join(words[end:])
    return text, None, None


_DIGIT = re.compile(r"\d")
# A number written with a unit among the words after a value: a second value, not a remark.
_ANOTHER_VALUE = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?\s?(?:%|[a-zA-Z]{1,6}/\S|ms\b|[kKMG]?B\b)")
_RANGE_WORD = re.compile(r"(?i)^(?:to|vs\.?|versus|[-\u2013\u2014~])$")


# A multiple followed by the word saying it is a gain ("1.5x faster", "3x speedup").
_GAIN_WORD = re.compile(
    r"^(?P<unit>[xX\u00d7%]|times)\s*(?P<word>faster|quicker|speed-?ups?|higher|better)"
    r"(?:\s+\D*)?$"  # "5.8x slower without warm-up": what it is slower without is the row's
)
# A multiple followed by the word saying it is a loss: below one ("0.79x slower", as a
# benchmark prints the ratio to its baseline with the way it goes) the word agrees with the
# ratio, which is the value; above one ("2.21x slower") it is the inverse ratio, and the value
# read is its inverse (see LOSS_WORDS), as a claim's "Nx slower" is 1/N.
_LOSS_WORD = re.compile(r"^(?P<unit>[xX\u00d7%]|times)\s*(?P<word>slower|lower|worse)(?:\s+\D*)?$")
# A unit followed by the statistic its number is ("0.85s avg", "3.2 ms p99"), as a remark
# in brackets says it ("12 ms (avg)").
_STATISTIC_AFTER = re.compile(
    r"^(?P<unit>\S+(?:\s\S+)?)\s+(?P<word>avg|average|mean|median|p\d{2}(?:\.\d)?|max|min)\.?$",
    re.I,
)
LOSS_WORDS = ("slower", "lower", "worse")
# "x86", "x64" name instruction sets, not multiples
_TIMES_FIRST = re.compile(r"^\s*[xX\u00d7]\s?(?!(?:86|64)\s*$)(\d+(?:[.,]\d+)?)\s*$")
# A count of devices times what each of them holds: "8*64GB", "16 * 60GiB", "4 x 22 GB".
# A number followed by the other end of a range: "0.50:0.95", "25.4%-50.6%", "5 ~ 7 ms".
# A unit, then the other end of a range in the same unit: "x to 2.113x" of "1.382x to
# 2.113x", "ms - 7 ms".
_UNIT_THEN_RANGE_END = re.compile(
    r"^\s*([^\d\s~-]{1,12})\s*(?:[-\u2013\u2014~]|to)\s*\d+(?:[.,]\d+)?\s*\1\s*$"
)
_RANGE_END = re.compile(r"^\s*%?\s*(?:[-\u2013\u2014~:]|to)\s*\d")
# A sum of parts ("8+3", "16 + 16") is no one value; "45.2 +3.1" is a change beside a value.
_SUM_PART = re.compile(r"^(?:\+|\s+\+\s+)\d")
# A number followed by the whole it is part of: "76/80", "5.8/40.0 GiB", "3 / 5".
_OUT_OF = re.compile(r"^\s*/\s*(?P<total>\d+(?:\.\d+)?)\s*(?P<unit>[^\d\s/].*)?$")


def _split_spread(rest: str) -> tuple[str, str | None]:
    """'± 0.11 ms' -> ('', '0.11 ms'); a spread in brackets ("0.267 (+/- 0.002) second",
    "0.269741 (±0.0001) (+6.90%)") is taken out whole, the words after it kept."""
    bracketed = _BRACKETED_SPREAD.search(rest) or _STANDARD_DEVIATION.search(rest)
    if bracketed is not None:
        return rest[: bracketed.start()] + " " + rest[bracketed.end() :], bracketed.group(1)
    for marker in SPREAD_MARKERS:
        position = rest.find(marker)
        if position >= 0:
            return rest[:position], _SPREAD.sub("", rest[position:])
    return rest, None


def _split_qualifier(rest: str) -> tuple[str, str | None]:
    """'sps (phase1)' -> ('sps', 'phase1'); a bracketed unit stays a unit: '(ms)'."""
    position = rest.find("(")
    if position < 0:
        return rest, None
    match = _QUALIFIER.match(rest[position:])
    if match is None:
        return rest, None
    inside = match.group("text").strip()
    if unit_named(inside) is not None and not rest[:position].strip():
        return inside, None
    return rest[:position], inside


def decimal_product(number: float, factor: float) -> float:
    """number x factor as the decimals they print multiply: 1.1 k is 1100, 114 us is
    0.000114 s, where the binary product is 1100.0000000000002 and 0.00011399999999999999."""
    if not (math.isfinite(number) and math.isfinite(factor)):
        return number * factor
    return float(Decimal(repr(number)) * Decimal(repr(factor)))


def read_number(digits: str, decimal: str | None) -> tuple[float | None, str | None, str | None]:
    """(value, the decimal mark the text shows or None, problem) of digits with separators.

    "1,234.5" and "0.5" show a decimal point, "1.234,5" and "0,5" a decimal comma; "12.345" and
    "12,345" show neither and take `decimal`; without it they are ambiguous."""
    digits = digits.strip()
    if len(re.sub(r"\D", "", digits)) > MAX_DIGITS:
        return None, None, "unparseable_value"
    spaced = re.search(r"['\u00a0\u202f\u2009 ]", digits) is not None
    commas, points = digits.count(","), digits.count(".")
    if spaced:  # "1 234,5": spaces group thousands; a comma or point is the decimal mark
        separators = {mark for mark in ",." if mark in digits}
        if len(separators) > 1 or (separators and digits.count(separators.copy().pop()) > 1):
            return None, None, "unparseable_value"
        mark = separators.pop() if separators else None
        whole, _, fraction = digits.partition(mark) if mark else (digits, "", "")
        if not _GROUPS.match(whole):
            return None, None, "unparseable_value"
        return _value(re.sub(r"\D", "", whole), fraction), mark, None
    if commas and points:  # the last one is the decimal mark: "1,234.5", "1.234,5"
        mark = POINT if digits.rfind(".") > digits.rfind(",") else COMMA
        whole, fraction = digits.rsplit(mark, 1)
        if mark in whole:
            return None, None, "unparseable_value"
        if not _GROUPS.match(whole) or not fraction.isdigit():
            return None, None, "unparseable_value"
        return _value(re.sub(r"\D", "", whole), fraction), mark, None
    if commas or points:
        separator = "," if commas else "."
        count = commas or points
        whole, _, fraction = digits.rpartition(separator)
        if count > 1:  # repeated: a thousands separator ("1,234,567"; "1.234.567")
            if not _GROUPS.match(digits):
                return None, None, "unparseable_value"
            return _value(re.sub(r"\D", "", digits), ""), COMMA if separator == "." else POINT, None
        if len(fraction) == 3 and whole and whole[0] != "0" and len(whole) <= 3:
            # "12.345": thousands or decimals, as the page's decimal mark says
            if decimal is None:
                return None, None, "ambiguous_number"
            if decimal == separator:
                return _value(whole, fraction), None, None
            return _value(whole + fraction, ""), None, None
        mark = POINT if separator == "." else COMMA
        return _value(whole or "0", fraction), mark, None
    return _value(digits, ""), None, None


def _value(whole: str, fraction: str) -> float:
    return float(f"{whole}.{fraction}" if fraction else whole)
