"""What every layout reads the same way in and around a table: its footnote, the line that
names it, its header's levels, the section labels among its rows and footnote marks written
as superscripts."""

from __future__ import annotations

import re

NOTE_MAX_CHARS = 400
NOTE_HINT = re.compile(r"measured in|\bunits?\b|^\s*(?:\*|†|‡|note\b|notes\b|source\b)", re.I)
NOTE_LINE_SEPARATOR = " | "  # how text captures join a multi-line footnote
SECTION_SEPARATOR = " \u2014 "
CAPTION_MAX_CHARS = 80  # a line right above a table that names it is short

# A full stop, question or exclamation mark with text after it: two sentences are prose
# ("精度对齐需...小于2%。NVloss曲线请联系..."), not a table's name.
_SENTENCE_BREAK = re.compile(r"[\u3002\uff01\uff1f](?=\s*\S)|(?<=[a-z]{3})[.!?]\s+(?=[A-Z][a-z])")
_RAISED_WORD = re.compile(r"^[(\[]?[^\W\d_]{2,}")
_ORDINAL_ENDINGS = {"st", "nd", "rd", "th", "er", "e", "re", "ème"}
_SUPERSCRIPTABLE = re.compile(r"[0-9+\-=()]+")
_SUPERSCRIPTS = str.maketrans("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")


def superscript(text: str) -> str:
    """Footnote digits as superscripts, so '6,044' + <sup>1</sup> reads '6,044¹', not '6,0441'.

    An ordinal's ending ('st' in 1<sup>st</sup>) and marks ('*', '†') are kept as published,
    glued to the text before it, since that is how the page reads; a word ('mAP<sup>val</sup>',
    'Latency<sup>(ms)</sup>') stands apart from it, as the page shows it raised."""
    compact = text.strip()
    if _SUPERSCRIPTABLE.fullmatch(compact):
        return compact.translate(_SUPERSCRIPTS)
    if _RAISED_WORD.match(compact) and compact.lower() not in _ORDINAL_ENDINGS:
        return f" {compact}"
    return compact


def looks_like_note(text: str) -> bool:
    """The text-capture rule for a table's footnote: 'measured in', a unit, *, †, Note, ..."""
    text = text.strip()
    return (
        bool(text)
        and len(text) <= NOTE_MAX_CHARS
        and bool(NOTE_HINT.search(text) or NOTE_LINE_SEPARATOR in text)
    )


def fold_header_text(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split()).casefold()


def with_section(title: str | None, section: str | None) -> str | None:
    """A section label is context for the rows under it: it extends the table's title."""
    if not section:
        return title
    return f"{title}{SECTION_SEPARATOR}{section}" if title else section


# The rules and colon around a title a tool prints above its output ("DeepGEMM
# Implementation:", "== Result ==").
_PRINTED_TITLE_DECORATION = re.compile(r"^[\s=#*-]+|[\s=#*:-]+$")


def printed_line_above(lines: list[str], index: int, inside: set[int]) -> str | None:
    """The line right above line `index` in the same code (`inside`), without the rules and
    colon around a printed title; None at the code's first line, for a line of rules only,
    or for one holding inline code."""
    above = index - 1
    if above < 0 or above not in inside:
        return None
    text = _PRINTED_TITLE_DECORATION.sub("", lines[above])
    return text if text and "`" not in text else None


def reads_as_caption(text: str) -> bool:
    """Whether the block right above a table names it: short, and not a sentence ended with a
    period ('FP16 Inference Latency', 'RTX 6000 Pro Blackwell Server Edition')."""
    text = text.strip()
    return (
        0 < len(text) <= CAPTION_MAX_CHARS
        and not text.endswith(".")
        and not _SENTENCE_BREAK.search(text)
    )
