"""Capture times: ISO 8601 text as documents carry it, compared as instants.

Files carry their modification time to the second (`2023-07-04T12:00:00Z`), fetches the
end of the fetch to the millisecond (`2023-07-04T12:00:00.250+00:00`): as text, the two
forms order wrongly within a second, so which version is newer is decided on instants."""

from __future__ import annotations

import functools
import math
import time
from datetime import UTC, datetime


@functools.lru_cache(maxsize=8)  # a run sights its files within a few seconds
def utc_text(timestamp: float) -> str:
    """A capture time in the form files' times take: UTC, to the second."""
    # time.strftime, not datetime: a re-run formats every file's modification time.
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(math.floor(timestamp)))


def _moment(text: str) -> datetime:
    """An ISO 8601 time; one without a time zone is UTC."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def instant(text: str) -> float:
    """Seconds since the epoch of an ISO 8601 time; one without a time zone is UTC."""
    return _moment(text).timestamp()


def checked(text: str, what: str = "the capture time") -> str:
    """A capture time a user gave, in UTC and in the form files' times take (with the
    fraction of a second it gave, if any); a ValueError that says what is expected
    otherwise."""
    try:
        moment = _moment(text.strip()).astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError(
            f"{what} {text!r} is not an ISO 8601 date or time "
            "(e.g. 2023-07-04, 2023-07-04T12:00:00Z or 2023-07-04T14:00:00+02:00)"
        ) from None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if moment.microsecond else "%Y-%m-%dT%H:%M:%SZ")


def is_newer(captured_at: str, than_s: float | None) -> bool:
    """Whether a version captured at `captured_at` is newer than one captured at `than_s`
    (seconds; None when there is no such version)."""
    return than_s is None or instant(captured_at) > than_s
