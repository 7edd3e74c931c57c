"""The unit a page states for its numbers as a whole, outside any one table's context.

A page often says once, in its test setup, what its tables' numbers are in ("统计平均时间，单位
ms" in a 测试说明 list, "All times in milliseconds."), under a heading of its own that no
results table stands under. Such a statement ("unit: ms", "单位 ms", "in ms") gives a column
that names neither metric nor unit ("骁龙 865", "RK3399") its unit, and through its dimension
its metric; a table's own caption, headings and notes still come first. A page stating two
different units says no one unit of its numbers, and gives none.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from perfledger.schemas.folding import clean_text
from perfledger.schemas.units import Unit, stated_units

MAX_STATEMENT_CHARS = 200  # a statement of a page's unit is a line, not a paragraph of prose


@lru_cache(maxsize=16_384)
def _units_stated(text: str) -> frozenset[Unit]:
    if len(text) > MAX_STATEMENT_CHARS:
        return frozenset()
    return frozenset(stated_units(clean_text(text)))


def page_unit(paragraphs: Iterable[str]) -> Unit | None:
    """The one unit the page's paragraphs state its numbers in, or None (none, or two)."""
    found: dict[tuple, Unit] = {}
    for text in paragraphs:
        for unit in _units_stated(text):
            # "ms" and "milliseconds" are one unit
            found.setdefault((unit.kind, unit.factor, unit.item_kind, unit.per), unit)
        if len(found) > 1:
            return None
    return next(iter(found.values()), None)
