"""Number and duration parsing: vendor spellings, and round trips over generated values."""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from perfledger.schemas.numbers import fold_text, parse_duration_seconds, parse_number


def number(text: str) -> float | None:
    return pl.select(parse_number(pl.lit(text, dtype=pl.String))).item()


def seconds(text: str, default: float | None = None) -> float | None:
    return pl.select(
        parse_duration_seconds(pl.lit(text, dtype=pl.String), pl.lit(default, dtype=pl.Float64))
    ).item()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("54,784", 54784.0),
        ("1,260,000", 1260000.0),
        ("1.2k", 1200.0),
        ("~5,000", 5000.0),
        ("6,044\u00b9", 6044.0),
        ("6,044*", 6044.0),
        ("\u221212", -12.0),
        ("\uff11\uff12\uff13", 123.0),
        ("54\u202f784", 54784.0),
        ("54\u00a0784", 54784.0),
        ("54\u2009784", 54784.0),
        ("4\u200b2", 42.0),
        (".5", 0.5),
        ("3.5 million", 3.5e6),
    ],
)
def test_vendor_spellings_of_numbers(text, expected):
    assert number(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    "text", ["1,2", "N/A", "TBD", "", "\u00a0", "inf", "nan", "12abc", "1,23,456", "16.16.16"]
)
def test_text_that_is_not_a_plain_number_is_null(text):
    assert number(text) is None


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("23h 43m", None, 85380.0),
        ("1h 2m 3s", None, 3723.0),
        ("90 mins", None, 5400.0),
        ("2.5 hours", None, 9000.0),
        ("19.64", 60.0, 1178.4),
        ("49", 1.0, 49.0),
        ("1:02:03", None, 3723.0),
        ("2 days", None, 172800.0),
    ],
)
def test_durations_in_seconds(text, default, expected):
    assert seconds(text, default) == pytest.approx(expected)


def test_a_bare_number_without_a_unit_is_not_guessed():
    assert seconds("19.64", None) is None


def _vendor_format(value: int, fraction: int, style: str) -> str:
    grouped = f"{value:,}"
    text = grouped if fraction == 0 else f"{grouped}.{fraction:02d}"
    return {
        "plain": text,
        "nbsp": text.replace(",", "\u00a0"),
        "thin": text.replace(",", "\u2009"),
        "approx": "~" + text,
        "footnote": text + "\u00b2",
        "fullwidth": text.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"}),
    }[style]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**12),
    st.integers(min_value=0, max_value=99),
    st.sampled_from(["plain", "nbsp", "thin", "approx", "footnote", "fullwidth"]),
)
def test_a_number_formatted_as_vendors_do_parses_back(value, fraction, style):
    expected = value + fraction / 100
    assert number(_vendor_format(value, fraction, style)) == pytest.approx(expected)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 99), st.integers(0, 59), st.integers(0, 59))
def test_a_spelled_duration_parses_back(hours, minutes, secs):
    text = (
        " ".join(
            part
            for part, amount in ((f"{hours}h", hours), (f"{minutes}m", minutes), (f"{secs}s", secs))
            if amount
        )
        or "0s"
    )
    assert seconds(text) == hours * 3600 + minutes * 60 + secs


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
@example("\u00a7\u0085")  # a marker before trailing space once survived the first fold
@example("12\uff0a")  # a full-width marker becomes "*" only under NFKC
@example("* * *")  # markers spaced apart once lost one a fold
def test_parsing_never_raises_and_folding_is_idempotent(text):
    frame = pl.DataFrame({"x": [text]})
    once = frame.select(fold_text(pl.col("x"))).item()
    twice = pl.DataFrame({"x": [once]}).select(fold_text(pl.col("x"))).item()
    assert once == twice
    result = frame.select(parse_number(pl.col("x"))).item()
    assert result is None or not math.isnan(result)
    frame.select(parse_duration_seconds(pl.col("x"), pl.lit(1.0)))


def test_a_crafted_cell_does_not_make_parsing_slow():
    frame = pl.DataFrame({"x": ["1," * 50_000 + "x", "9" * 100_000 + "!", " " * 100_000]})
    result = frame.select(parse_number(pl.col("x"))).to_series().to_list()
    assert result == [None, None, None]
