"""What a cell holds where a page publishes no value: "-", "N/A", "OOM", "coming soon", also
with the unit its column's values have ("-ms" beside "0.58ms")."""

from __future__ import annotations

import re

from perfledger.schemas.folding import clean_text
from perfledger.schemas.vocabulary import read_vocab

# Units a placeholder may be written with ("-ms", "N/A fps", "- tok/s"): the vocabulary's
# units of measure, not its scale words ("k") nor the devices a rate is per ("GPU").
_PLACEHOLDER_UNIT_KINDS = ("duration", "rate", "percent", "ratio", "energy", "quantity", "other")
_PLACEHOLDER_UNITS = "|".join(
    sorted(
        {
            re.escape(alias)
            for alias, kind in read_vocab("units.csv").select("alias", "kind").iter_rows()
            if kind in _PLACEHOLDER_UNIT_KINDS and (len(alias) > 1 or not alias.isalpha())
        }
        | {"s"},
        key=len,
        reverse=True,
    )
)
# What a cell holds where a page publishes no value ("-", "N/A", "OOM", "/", "coming soon"),
# also with the unit its column's values have ("-ms" beside "0.58ms").
PLACEHOLDER_WORDS = (
    r"-+|/|\u2013|\u2014|n/?a|na|<n/?a>|\(n/?a\)|t\.?b\.?[da]\.?|none|null|\?|pending"
    # dashes parted by "/": none of the figures a "/" would part was published ("- / -")
    r"|(?:-+|\u2013|\u2014)(?: ?/ ?(?:-+|\u2013|\u2014))+"
    r"|coming soon|not (?:available|supported|measured|run)|unsupported|oom|x+"
    # the model did not fit the device: "Not enough RAM", "out of memory"
    r"|not enough (?:ram|memory|vram)|out of (?:memory|ram|vram)|insufficient (?:ram|memory)"
    r"|\u2717|\u2715|\u00d7"
    # rows left out of a long table ("| ... | ... |"): no value published there
    r"|\.{3,}|\u2026"
    rf"|(?:-+|\u2013|\u2014|n/?a) ?(?:{_PLACEHOLDER_UNITS})(?: ?/ ?[a-z]+)?"
    # a unit alone in brackets: a value's template not filled in ("(%)" beside "0.260(94.55%)")
    rf"|\( ?(?:{_PLACEHOLDER_UNITS}) ?\)(?: ?/ ?\( ?(?:{_PLACEHOLDER_UNITS}) ?\))*"
)
PLACEHOLDER = re.compile(rf"^(?:{PLACEHOLDER_WORDS})$")


def is_placeholder(text: str) -> bool:
    """Whether a cell says nothing was published: "N/A", "-", "TBD", "coming soon", "OOM",
    "Not enough RAM"."""
    return bool(PLACEHOLDER.match(clean_text(text).lower()))
