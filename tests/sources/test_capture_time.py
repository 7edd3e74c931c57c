"""Capture times: the forms files, fetches and users give compare as instants."""

from __future__ import annotations

import pytest

from sources.capture_time import checked, instant, is_newer

FILE_FORM = "2023-07-04T12:00:00Z"  # a file's modification time, to the second
FETCH_FORM = "2023-07-04T12:00:00.250+00:00"  # the end of a fetch, to the millisecond


def test_a_fetch_a_quarter_second_after_a_file_version_is_newer():
    # As text, "12:00:00.250+00:00" sorts before "12:00:00Z": '.' < 'Z'.
    assert FETCH_FORM < FILE_FORM
    assert instant(FETCH_FORM) - instant(FILE_FORM) == 0.25
    assert is_newer(FETCH_FORM, instant(FILE_FORM))
    assert not is_newer(FILE_FORM, instant(FETCH_FORM))
    assert not is_newer(FILE_FORM, instant(FILE_FORM))
    assert is_newer(FILE_FORM, None)


@pytest.mark.parametrize(("given", "stored"), [
    ("2023-07-04", "2023-07-04T00:00:00Z"),
    ("2023-07-04T14:00:00+02:00", "2023-07-04T12:00:00Z"),
    ("2023-07-04 12:00:00", "2023-07-04T12:00:00Z"),
    (" 2023-07-04T12:00:00.5Z ", "2023-07-04T12:00:00.500000Z"),
])
def test_a_users_capture_time_is_kept_in_utc(given, stored):
    assert checked(given) == stored


@pytest.mark.parametrize("given", ["July 4 2023", "", "2023-13-01", "yesterday"])
def test_a_capture_time_that_is_not_iso_8601_is_refused_with_an_example(given):
    with pytest.raises(ValueError, match=r"--captured-at .* is not an ISO 8601 date or time "
                                         r"\(e\.g\. 2023-07-04"):
        checked(given, "--captured-at")
