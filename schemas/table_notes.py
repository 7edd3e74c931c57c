"""Units a table's footnote gives its rows: 'PQM4Mv2 throughput measured in graphs/s'."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from perfledger.schemas.labels import label_key
from perfledger.schemas.units import Unit, unit_named

NOTE_MATCH_RATIO = 0.8  # how alike a footnote's subject and a row's label must be
_NOTE_UNIT = re.compile(
    r"(?P<subject>[^|;]{1,80}?)\s+(?:throughput\s+)?(?:is\s+)?measured\s+in\s+(?P<unit>[\w/.-]{1,30})",
    re.I,
)


def note_units(note: str, rows: list[tuple]) -> list[tuple[int, Unit]]:
    """(row, unit) for each unit the footnote gives a subject: the row (of `rows`, each
    (row, dataset, model, variant)) whose labels are most like the subject, when one is alike
    enough and no other as much."""
    found = []
    for subject, unit_text in _note_mentions(note):
        unit = unit_named(unit_text)
        if unit is None:
            continue
        scores = sorted(
            (
                (
                    max(
                        (
                            difflib.SequenceMatcher(None, subject, label_key(label)).ratio()
                            for label in labels
                            if label
                        ),
                        default=0.0,
                    ),
                    row,
                )
                for row, *labels in rows
            ),
            reverse=True,
        )
        if not scores or scores[0][0] < NOTE_MATCH_RATIO:
            continue
        if len(scores) > 1 and scores[1][0] == scores[0][0]:
            continue  # two rows fit equally well: no unit rather than a guess
        found.append((scores[0][1], unit))
    return found


@lru_cache(maxsize=1024)
def _note_mentions(note: str) -> tuple[tuple[str, str], ...]:
    """(subject key, unit) of each 'X measured in U' of a footnote; pages of one source
    repeat the same footnotes, so each is searched once."""
    mentions = []
    for segment in note.split("|"):
        # Single spaces: runs of blanks made this search cubic and could leave a blank subject.
        match = _NOTE_UNIT.search(" ".join(segment.split()))
        if match is not None:
            mentions.append(
                (label_key(match.group("subject").split()[-1]), match.group("unit").lower())
            )
    return tuple(mentions)
