"""Capture times: the forms files, fetches and users give compare as instants."""

from __future__ import annotations

import pytest

from perfledger.sources.capture_time import checked, instant, is_newer

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


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("2023-07-04", "2023-07-04T00:00:00Z"),
        ("2023-07-04T14:00:00+02:00", "2023-07-04T12:00:00Z"),
        ("2023-07-04 12:00:00", "2023-07-04T12:00:00Z"),
        (" 2023-07-04T12:00:00.5Z ", "2023-07-04T12:00:00.500000Z"),
    ],
)
def test_a_users_capture_time_is_kept_in_utc(given, stored):
    assert checked(given) == stored


@pytest.mark.parametrize("given", ["July 4 2023", "", "2023-13-01", "yesterday"])
def test_a_capture_time_that_is_not_iso_8601_is_refused_with_an_example(given):
    with pytest.raises(
        ValueError,
        match=r"--captured-at .* is not an ISO 8601 date or time "
        r"\(e\.g\. 2023-07-04",
    ):
        checked(given, "--captured-at")


def test_a_registry_capture_with_a_time_that_is_not_iso_8601_is_refused(tmp_path):
    from perfledger.sources.registry import RegistryError, load_registry

    registry = tmp_path / "registry.toml"
    registry.write_text(
        '[sources.results]\nurl = "https://example.com/results"\n\n'
        '[[captures]]\nfile = "page.txt"\nsource = "results"\ncaptured_at = "last July"\n',
        encoding="utf-8",
    )
    with pytest.raises(
        RegistryError,
        match=r"capture page\.txt: captured_at 'last July' is "
        r"not an ISO 8601 date or time",
    ):
        load_registry(registry)
    registry.write_text(registry.read_text().replace("last July", "2023-07-31"))
    (capture,) = load_registry(registry).captures
    assert capture.captured_at == "2023-07-31T00:00:00Z"
