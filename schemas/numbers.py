"""Numbers and durations as vendors print them, parsed with polars expressions over whole columns.

Polars' regular expressions run in linear time (no backtracking), so crafted cells cannot
make parsing slow. Every parser returns null for text it cannot read with certainty; the
caller turns that null into a quarantine row with the text that failed.
"""

from __future__ import annotations

import polars as pl

from perfledger.schemas.vocabulary import read_vocab

# Footnote markers glued to a number: superscript digits would become real digits under
# NFKC, so they are removed before folding.
# Trailing space is taken with the markers: "12§\u0085" must fold as "12§" does.
# Markers spaced apart ("* * *") go together: folding again must leave nothing to take.
_FOOTNOTE_TAIL = r"(?:[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#\u203b]+\s*)+$"
_INVISIBLE = r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\u00ad]"
_APPROX = r"^(?:~|\u2248|\u223c|approx\.?|approximately|about|circa|ca\.|c\.)\s*"
_NUMBER = (
    r"^(?P<sign>[+-]?)"
    r"(?P<int>\d{1,3}(?:[, ']\d{3})+|\d*)"
    r"(?P<frac>\.\d+)?"
    r"\s*(?P<suffix>k|thousand|m|mn|million|b|bn|billion)?$"
)
_SUFFIX_FACTOR = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
_EMPTY_OR_NA = r"^(?:|-|\u2013|\u2014|n/?a|na|tbd|tba|none|null|nan|\?)$"
_DURATION = (
    r"^(?:(?P<d>\d+(?:\.\d+)?)\s*(?:d|days?)\s*)?"
    r"(?:(?P<h>\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\s*)?"
    r"(?:(?P<m>\d+(?:\.\d+)?)\s*(?:m|mins?|minutes?)\s*)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\s*)?$"
)
_CLOCK = r"^(?:(?P<h>\d+):)?(?P<m>\d{1,2}):(?P<s>\d{2}(?:\.\d+)?)$"


def fold_text(expr: pl.Expr) -> pl.Expr:
    """Cell text with footnote markers, invisible characters and width variants folded away."""
    return (
        expr.str.replace_all(_INVISIBLE, "")
        .str.replace(_FOOTNOTE_TAIL, "")
        .str.normalize("NFKC")
        .str.replace(_FOOTNOTE_TAIL, "")  # markers NFKC makes of width variants ("＊" -> "*")
        .str.replace_all("\u2212", "-")
        .str.replace_all(r"[\u2010\u2011\u2012]", "-")
        .str.replace_all(r"\s+", " ")
        .str.strip_chars()
        .str.to_lowercase()
    )


def is_empty_cell(expr: pl.Expr) -> pl.Expr:
    """True where a cell holds nothing a reader would call a value ('', U+00A0, '-', 'N/A')."""
    return fold_text(expr).str.contains(_EMPTY_OR_NA).fill_null(True)


def is_approximate(expr: pl.Expr) -> pl.Expr:
    return is_approximate_folded(fold_text(expr))


def is_approximate_folded(folded: pl.Expr) -> pl.Expr:
    """`is_approximate` of text `fold_text` already folded."""
    return folded.str.contains(_APPROX)


def without_approximation(folded: pl.Expr) -> pl.Expr:
    """`fold_text` output with its 'about'/'~' prefix removed: the text the parsers read."""
    return folded.str.replace(_APPROX, "")


def parse_number(expr: pl.Expr) -> pl.Expr:
    """'54,784' -> 54784.0; '1.2k' -> 1200.0; '~5,000' -> 5000.0; null when not a plain number."""
    return number_from_plain(without_approximation(fold_text(expr)))


def number_from_plain(text: pl.Expr) -> pl.Expr:
    """`parse_number` of text already folded and stripped of its approximation prefix.

    The steps work on the fields of one struct, so the regular expression runs once per
    value: an expression used twice in a polars expression tree is evaluated twice."""
    field = pl.field
    integer, fraction = field("integer"), field("fraction")
    return (
        text.str.extract_groups(_NUMBER)
        .struct.with_fields(
            integer=field("int").str.replace_all(r"[, ']", ""),
            fraction=field("frac").fill_null(""),
        )
        .struct.with_fields(
            magnitude=pl.when((integer == "") & (fraction == ""))
            .then(None)
            .otherwise(pl.when(integer == "").then(pl.lit("0")).otherwise(integer) + fraction)
            .cast(pl.Float64, strict=False),
            factor=field("suffix").replace_strict(
                _SUFFIX_FACTOR, default=1.0, return_dtype=pl.Float64
            ),
        )
        .struct.with_fields(
            value=pl.when(field("sign") == "-")
            .then(-field("magnitude"))
            .otherwise(field("magnitude"))
            * field("factor")
        )
        .struct.field("value")
    )


def leading_number_and_rest(expr: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """'0.0719 MAE' -> (0.0719, 'MAE'): a score with its metric name glued on."""
    parts = number_and_rest(expr)
    return parts.struct.field("number"), parts.struct.field("rest")


def number_and_rest(expr: pl.Expr) -> pl.Expr:
    """`leading_number_and_rest` as one struct {number, rest}, to be computed once."""
    text = expr.str.normalize("NFKC").str.strip_chars()
    parts = text.str.extract_groups(r"^(?P<num>[+-]?\d+(?:\.\d+)?)\s*(?P<rest>[^\d].{0,40})?$")
    return parts.struct.with_fields(
        number=pl.field("num").cast(pl.Float64, strict=False),
        rest=pl.field("rest").str.strip_chars(),
    )


def unit_factors() -> pl.DataFrame:
    return read_vocab("units.csv").with_columns(pl.col("factor").cast(pl.Float64))


def parse_duration_seconds(expr: pl.Expr, default_unit_seconds: pl.Expr) -> pl.Expr:
    """'23h 43m' -> 85380; '19.64' with a (mins) header -> 1178.4; null when unreadable.

    A bare number takes the unit the header or the table gave (`default_unit_seconds`);
    a bare number with no known unit stays null rather than being guessed.
    """
    text = without_approximation(fold_text(expr))
    return duration_from_plain(text, parse_number(expr) * default_unit_seconds)


def duration_from_plain(text: pl.Expr, bare_seconds: pl.Expr) -> pl.Expr:
    """`parse_duration_seconds` of text already folded and stripped of its approximation
    prefix; `bare_seconds` is the value of a bare number (its number times the default unit)."""

    def part(name: str) -> pl.Expr:
        return pl.field(name).cast(pl.Float64, strict=False)

    spelled_parts = [part(name) for name in ("d", "h", "m", "s")]
    spelled_seconds = (
        text.str.extract_groups(_DURATION)
        .struct.with_fields(
            seconds=pl.when(pl.any_horizontal(p.is_not_null() for p in spelled_parts)).then(
                spelled_parts[0].fill_null(0) * 86400
                + spelled_parts[1].fill_null(0) * 3600
                + spelled_parts[2].fill_null(0) * 60
                + spelled_parts[3].fill_null(0)
            )
        )
        .struct.field("seconds")
    )
    clock_seconds = (
        text.str.extract_groups(_CLOCK)
        .struct.with_fields(seconds=part("h").fill_null(0) * 3600 + part("m") * 60 + part("s"))
        .struct.field("seconds")
    )
    # Spelled units first, then a clock reading, then the bare number; the spelled total is
    # never null once any unit matched, so coalescing keeps that order of precedence.
    return pl.coalesce(spelled_seconds, clock_seconds, bare_seconds)
