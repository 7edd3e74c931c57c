"""Units as vendors write them (schemas/vocab/units.csv): what each measures and its factor."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.vocabulary import read_vocab

# Units short enough to be ordinary letters or words ("s", "h", "x", "min") are units only
# where a page marks them as such: in brackets, or right after a number in a cell.
_SHORT = 3
_BRACKETED = re.compile(r"[(\[]\s*([^()\[\]]{1,40}?)\s*[)\]]")


@dataclass(frozen=True)
class Unit:
    alias: str  # as the vocabulary spells it
    kind: str  # rate, duration, ratio, percent or other
    factor: float  # to the kind's base unit: items/s for a rate, seconds for a duration
    item_kind: str | None  # what a rate counts: images, tokens, ...
    canonical: str  # the unit values of this kind are stored in


@cache
def _units() -> dict[str, Unit]:
    units = {}
    for row in read_vocab("units.csv").iter_rows(named=True):
        units[row["alias"]] = Unit(row["alias"], row["kind"], float(row["factor"]),
                                   row["item_kind"], row["canonical"])
    return units


def unit_key(text: str) -> str:
    """The form units are looked up by: lower case, single spaces, none around a slash."""
    text = clean_text(text).lower().replace("per sec", "/s").replace("per second", "/s")
    return re.sub(r"\s*/\s*", "/", re.sub(r"\s+", " ", text)).strip(" .")


@lru_cache(maxsize=4096)
def unit_named(text: str) -> Unit | None:
    """The unit `text` is, as a whole ("img/sec", "Hrs", "%"), or None."""
    return _units().get(unit_key(text))


@cache
def _long_units() -> re.Pattern[str]:
    aliases = sorted((alias for alias, unit in _units().items()
                      if len(alias) > _SHORT or "/" in alias
                      or (len(alias) == _SHORT and unit.kind in ("rate", "other"))),
                     key=len, reverse=True)
    return re.compile(r"(?<![\w/])(" + "|".join(map(re.escape, aliases)) + r")(?![\w/])")


@lru_cache(maxsize=4096)
def unit_in_header(text: str) -> Unit | None:
    """The unit a column header states: the last bracketed unit ("Latency 99% (ms)", "[ms]"),
    else a unit written out in it ("bf16 img/s", "Tokens/Second", "Scaling %")."""
    found = None
    for match in _BRACKETED.finditer(text):
        unit = unit_named(match.group(1))
        if unit is not None:
            found = unit
    if found is not None:
        return found
    key = unit_key(text)
    matches = list(_long_units().finditer(key))
    if matches:
        return _units()[matches[-1].group(1)]
    return _units()["%"] if re.search(r"(?:^|\s)%(?:\s|$)", key) else None
