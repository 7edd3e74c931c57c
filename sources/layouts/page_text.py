"""A page's plain text lines, and the page-level facts read from them: title, author,
published and updated dates."""

from __future__ import annotations

import re
from datetime import date
from itertools import islice

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}
_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_WORDS = re.compile(
    rf"\b(?P<month>{_MONTH_WORD})\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\b",
    re.I,
)
_DATE_DAY_FIRST = re.compile(
    rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<month>{_MONTH_WORD})\.?,?\s+(?P<year>\d{{4}})\b",
    re.I,
)
_DATE_ISO = re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b")
_UPDATED = re.compile(r"\b(?:last\s+)?(?:updated|modified|revised)\b", re.I)
_PUBLISHED = re.compile(r"\b(?:published|posted|written)\b", re.I)
_AUTHOR_LABEL = re.compile(r"^(?:written\s+by|author|by)\s*:?\s*(?P<name>.*)$", re.I)
_IMAGE_ALT = re.compile(r"\b(?:logo|header|banner|image|icon|thumbnail|hero)\s*$", re.I)
TITLE_WINDOW = 5  # the title sits among the first few non-empty lines or is absent
AUTHOR_WINDOW = 40  # a byline sits near the top


_YEAR = re.compile(r"\d{4}")
_MACHINE_DATE = re.compile(r"\s*(\d{4}-\d{2}-\d{2})(?:[T ]|$)")
LINE_BREAKS = re.compile(r"\r\n|\r|\n|\u2028|\u2029|\x0b|\x0c|\x85")


def split_lines(text: str) -> list[str]:
    """Split on every line break a capture may hold, keeping each line's characters as they are."""
    return LINE_BREAKS.split(text)


def parse_date(text: str) -> str | None:
    """The first calendar date written in `text`, as an ISO string, or None."""
    if _YEAR.search(text) is None:
        return None  # each form holds a four-digit year: one scan rules out most lines
    for pattern in (_DATE_WORDS, _DATE_DAY_FIRST, _DATE_ISO):
        match = pattern.search(text)
        if match is None:
            continue
        month = match.group("month")
        month_number = int(month) if month.isdigit() else _MONTHS[month.lower()]
        try:
            return date(int(match.group("year")), month_number, int(match.group("day"))).isoformat()
        except ValueError:
            continue
    return None


def machine_date(value: str | None) -> str | None:
    """The date of a machine-readable value ('2023-07-04T09:00:00Z' included), ISO, or None."""
    if not value:
        return None
    stamp = _MACHINE_DATE.match(value)
    return parse_date(stamp.group(1) if stamp else value)


def is_heading_like(text: str) -> bool:
    """Short, capitalised and unpunctuated at its end: how headings read once flattened."""
    text = text.strip("\u00a0 \t")
    return (
        0 < len(text) <= 80
        and (text[0].isupper() or text[0].isdigit())
        and text[-1] not in ".:;,!?"
        and not text.startswith("<")
    )


def _content_lines(lines: list[str], limit: int | None = None) -> list[str]:
    """The first `limit` lines holding text (all of them for None), stripped."""
    stripped = (line.strip("\u00a0 \t") for line in lines)
    return list(islice((text for text in stripped if text), limit))


def find_title(lines: list[str]) -> str | None:
    for text in _content_lines(lines, TITLE_WINDOW):
        if is_heading_like(text) and not _IMAGE_ALT.search(text) and parse_date(text) is None:
            return text
    return None


def find_author(lines: list[str]) -> str | None:
    content = _content_lines(lines, AUTHOR_WINDOW + 1)  # a label's name may be on the next line
    for index, text in enumerate(content[:AUTHOR_WINDOW]):
        match = _AUTHOR_LABEL.match(text)
        if match is None:
            continue
        name = match.group("name").strip()
        if not name and index + 1 < len(content):
            name = content[index + 1]
        if 0 < len(name) <= 60 and len(name.split()) <= 5 and name[0].isupper():
            return name
    return None


def find_dates(lines: list[str]) -> dict[str, str | None]:
    """The page's own published and last-updated dates, where it states them."""
    published = None
    updated = None
    content = _content_lines(lines)
    for index, text in enumerate(content):
        if len(text) > 200:
            continue
        found = parse_date(text)
        if found is None:
            continue
        if _UPDATED.search(text):
            updated = updated or found
        elif published is None and (_PUBLISHED.search(text) or (index < 10 and len(text) <= 40)):
            published = found
    return {"published_date": published, "last_updated_date": updated}
