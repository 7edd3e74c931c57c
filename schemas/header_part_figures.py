"""Figures parted by "/" in one cell under a header naming as many parts ("162/112" under
"ARM CPU/RKNN speed(ms)", "3478.6 / 3627.1 / 5747.8" under "TTFT mean/p50/p99 (ms)"; or by a
bar, "83.90 | 76.42" under "NPU 精度（ F1 |EM ）"): each figure is read under its own part's
name, as a cell naming its values writes them. A change written with an arrow under a header
naming both ends ("0.65→0.56" under "MMLU (5-shot) FP16→AQLM") is parted the same way: the
figure before and the figure after."""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.folding import without_brackets
from perfledger.schemas.header_reading import read_header, statistic_of
from perfledger.schemas.units import unit_named

# ---- figures named by the parts of their header ----------------------------------------------

# Whole numbers or dashes parted by "/", nothing else but a unit after the last: "162/112",
# "-/57", "45.40 / 74.76 ms".
_SLASHED = (
    r"(?i)^\s*(?:\d+(?:\.\d+)?|-+)(?:\s*[/|\u2192]\s*(?:\d+(?:\.\d+)?|-+))+"
    r"(?:\s*[a-z\u00b5\u03bc%][a-z\u00b5\u03bc%/]{0,11})?\s*$"
)
_ARROW = "\u2192"  # "0.65\u21920.56": from the first figure to the second
_BAR = "|"  # "83.90 | 76.42" under "NPU 精度（ F1 |EM ）": a Markdown cell's escaped bar
_BARRED_BRACKET = re.compile(r"[(\uff08]([^()\uff08\uff09]*\|[^()\uff08\uff09]*)[)\uff09]")
# A change from one figure to another with the change itself in brackets after: "2173.1 \u2192
# 2262.2 (+4.1%)", "2.52 \u2192 1.70 (1.48\u00d7)".
_ARROWED = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*\u2192\s*(\d+(?:\.\d+)?)"
    r"(?:\s*\(\s*([+\u2212-]?\d+(?:\.\d+)?\s*(?:%|[x\u00d7]))\s*\))?\s*$"
)
_CHANGE_NAME = {"%": "change", "x": "speedup", "\u00d7": "speedup"}
# A row's label naming the two ends of its cells' changes: "off \u2192 on", "BF16 \u2192 FP8".
_ENDS_LABEL = re.compile(
    r"^\s*([^\d\s/\u2192][^/\u2192]{0,30}?)\s*\u2192\s*([^\d\s/\u2192][^/\u2192]{0,30}?)\s*$"
)
# The last figure of such a cell with its unit: "74.76 ms" of "45.40 / 74.76 ms".
_FIGURE_AND_UNIT = re.compile(r"^(\d+(?:\.\d+)?)\s*([^\d\s.].*)$")
# Two figures parted by a spaced "/", each with its unit: "115.5 tok/s / 110.4 tok/s".
_FIGURE_WITH_UNIT = r"\d+(?:\.\d+)?\s?(?:[^\W\d_]|%)\S{0,11}"
_PAIRED = rf"^\s*{_FIGURE_WITH_UNIT}\s+/\s+{_FIGURE_WITH_UNIT}\s*$"


def reading_texts(cells: pl.DataFrame) -> pl.Expr:
    """`raw_value`: the text each cell is read from. A cell of figures parted by "/" under a
    header naming as many parts ("162/112" under "ARM CPU/RKNN speed(ms)") is read as a cell
    naming its values writes them ("162 (ARM CPU), 112 (RKNN speed)"), where it would read as
    one value out of another ("162 of 112") or not at all ("-/57"); each cell keeps its text."""
    if "column_name" not in cells.columns:
        return pl.col("raw_value")
    row_label = pl.col("row_label") if "row_label" in cells.columns else pl.lit(None, pl.String)
    slashed = (
        cells.select("raw_value", "column_name", row_label.alias("_row"))
        .filter(
            (
                pl.col("raw_value").str.contains(_SLASHED)
                | pl.col("raw_value").str.contains(_PAIRED)
                | pl.col("raw_value").str.contains(_ARROWED.pattern)
            )
            & pl.col("column_name").is_not_null()
        )
        .unique()
    )
    if slashed.height == 0:
        return pl.col("raw_value")
    keys, texts = [], []
    for raw, header, row in slashed.iter_rows():
        named = _named_figures(raw, header, row)
        if named is not None:
            keys.append(f"{raw}\x00{header}\x00{row or ''}")
            texts.append(named)
    if not keys:
        return pl.col("raw_value")
    key = pl.concat_str(
        [pl.col("raw_value"), pl.lit("\x00"), pl.col("column_name"), pl.lit("\x00"), row_label],
        ignore_nulls=True,
    )
    return key.replace_strict(keys, texts, default=pl.col("raw_value")).alias("raw_value")


def _named_figures(raw: str, header: str, row: str | None = None) -> str | None:
    if re.match(_PAIRED, raw):
        return _named_pair(raw, header)
    separator = _ARROW if _ARROW in raw else _BAR if _BAR in raw else "/"
    if separator == _ARROW and (ends := _change_ends(header, row)) is not None:
        return _named_change(raw, ends)
    if separator == _ARROW and ("/" in raw or _ARROW not in header):
        return None  # a change between figures no header part names
    parts = _header_parts(header, separator)
    if parts is None:
        return None
    figures = [figure.strip() for figure in raw.split(separator)]
    last = _FIGURE_AND_UNIT.match(figures[-1])
    if last is not None:  # "45.40 / 74.76 ms" under "FFPA / SDPA": each figure in ms
        if unit_named(last.group(2)) is None:
            return None
        figures = [
            f"{figure} {last.group(2)}"
            if figure[-1:].isdigit() and figure != figures[-1]
            else figure
            for figure in figures
        ]
    if len(parts) != len(figures):
        return None
    today = read_cell(raw)
    if (
        separator == "/"  # a cell reads a change as its first figure only
        and today.values
        and not (len(today.values) == 1 and (today.values[0].qualifier or "").startswith("of "))
        and not _statistics_each(parts)
    ):
        return None  # "0.761/0.929": a series the cell reads by itself
    named = [f"{figure} ({part})" for figure, part in zip(figures, parts, strict=True)]
    kept = [text for text, figure in zip(named, figures, strict=True) if figure.strip("-")]
    return ", ".join(kept) if kept else "-"


def _named_pair(raw: str, header: str) -> str | None:
    """ "115.5 tok/s / 110.4 tok/s" under "Decode tok/s (Doppler/TJS)": each figure, with its
    unit, under the name the header's brackets give it; None unless the cell reads as two
    figures of one unit and the header names two parts."""
    today = read_cell(raw)
    parts = _bracketed_parts(header) or _header_parts(header)
    if parts is None or len(parts) != 2 or [v.qualifier for v in today.values] != ["1/2", "2/2"]:
        return None
    figures = [figure.strip() for figure in re.split(r"\s+/\s+", raw.strip())]
    return ", ".join(f"{figure} ({part})" for figure, part in zip(figures, parts, strict=True))


@lru_cache(maxsize=4096)
def _bracketed_parts(header: str) -> tuple[str, ...] | None:
    """The names a header lists in brackets, parted by "/" ("Doppler", "TJS" of "Decode tok/s
    (Doppler/TJS)"); None where no bracket lists names (a unit: "(ms/token)")."""
    for inner in re.findall(r"\(([^()]{1,60})\)", header):
        parts = tuple(" ".join(part.split()) for part in inner.split("/"))
        if len(parts) >= 2 and all(
            part and not part[0].isdigit() and unit_named(part) is None for part in parts
        ):
            return parts
    return None


@lru_cache(maxsize=4096)
def _header_parts(header: str, separator: str = "/") -> tuple[str, ...] | None:
    """The names a header gives in parts parted by "/" ("ARM CPU", "RKNN speed"), or by an
    arrow ("MMLU FP16", "AQLM"), its unit in brackets aside; None for a header whose unit
    holds the "/" ("tokens/s")."""
    unit = read_header(header).unit
    if unit is not None and separator in unit.alias:
        return None
    bracketed = _BARRED_BRACKET.search(header) if separator == _BAR else None
    # "NPU 精度（ F1 |EM ）": the parts a bar parts in the header's brackets
    text = bracketed.group(1) if bracketed is not None else without_brackets(header)
    if separator == _ARROW:
        return _ends_of_change(text)
    parts = tuple(" ".join(part.split()) for part in text.split(separator))
    if len(parts) < 2 or any(not part or unit_named(part) is not None for part in parts):
        return None
    return parts


def _statistics_each(parts: tuple[str, ...]) -> bool:
    """Whether each part names a statistic of its own ("TTFT mean", "p50", "p99"): the
    figures under them are those statistics, not a series."""
    named = [statistic_of(part) for part in parts]
    return None not in named and len(set(named)) == len(named)


def _ends_of_change(header: str) -> tuple[str, ...] | None:
    """The two ends a header names a change between: the word on each side of its arrow
    ("FP16" and "AQLM" of "MMLU FP16\u2192AQLM"); the header's other words name both."""
    before, arrow, after = header.partition(_ARROW)
    left, right = before.split(), after.split()
    if not arrow or not left or not right or _ARROW in after:
        return None
    # "CP off \u2192 CP on": the words after the arrow, as many before it, when they are few
    width = len(right) if len(right) <= 2 and len(left) >= len(right) else 1
    return (" ".join(left[-width:]), " ".join(right[:width]))


def _change_ends(header: str, row: str | None) -> tuple[str, ...] | None:
    """The two ends of the changes under a header: those the header names ("MMLU FP16\u2192AQLM"),
    else those a label of the cell's row names ("off \u2192 on" under "CP")."""
    if _ARROW in header:
        return _header_parts(header, _ARROW)
    for part in (row or "").split(" / "):
        ends = _ENDS_LABEL.match(part)
        if ends is not None:
            return (ends.group(1), ends.group(2))
    return None


def _named_change(raw: str, ends: tuple[str, ...]) -> str | None:
    """ "2173.1 \u2192 2262.2 (+4.1%)" between "CP off" and "CP on": each figure under its own
    end's name, and the change the cell states as the change it is."""
    found = _ARROWED.match(raw)
    if found is None:
        return None
    before, after, change = found.groups()
    named = f"{before} ({ends[0]}), {after} ({ends[1]})"
    return f"{named}, {change} ({_CHANGE_NAME[change.rstrip()[-1]]})" if change else named
