"""Tables of hardware specifications: what the chips are, whose numbers no run measured.

A sheet compares chips side by side under a corner naming specifications ("Spec | A100 |
H100" over Year, Transistors, TDP, TFLOPS), or describes one device in two columns, a
property and its value, under a caption or heading naming its specifications ("RNGD
Hardware Specification": Process Node, Frequency, BF16 TFLOPS, Memory Bandwidth).
"""

from __future__ import annotations

import re
from functools import cache

from perfledger.schemas.folding import fold_words
from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.table_context import TableContext
from perfledger.schemas.vocabulary import read_vocab


@cache
def _spec_words() -> re.Pattern[str]:
    words = "|".join(
        f"(?:{row['pattern']})" for row in read_vocab("spec_words.csv").iter_rows(named=True)
    )
    return re.compile(rf"(?:{words})")


@cache
def _spec_title() -> re.Pattern[str]:
    """A title naming specifications among other words ("RNGD Hardware Specification")."""
    return re.compile(rf"(?<![a-z0-9]){_spec_words().pattern}(?![a-z0-9])")


def hardware_specifications(readings: list[HeaderReading], context: TableContext) -> bool:
    """Whether a table is a sheet of hardware specifications (see the module's doc)."""
    if len(readings) == 2:
        nearest = next((t.text for t in context.texts if t.source in ("caption", "heading")), "")
        return _spec_title().search(fold_words(nearest)) is not None
    if len(readings) < 3 or not _spec_words().fullmatch(fold_words(readings[0].text)):
        return False
    chips = sum(1 for reading in readings[1:] if reading.platform and reading.platform.accelerator)
    return chips * 3 >= 2 * (len(readings) - 1)
