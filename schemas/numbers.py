"""Numbers and durations as vendors print them, parsed with polars expressions over whole columns.

Polars' regular expressions run in linear time (no backtracking), so crafted cells cannot
make parsing slow. Every parser returns null for text it cannot read with certainty; the
caller turns that null into a quarantine row with the text that failed.
"""

from __future__ import annotations

import polars as pl

from schemas.vocabulary import read_vocab

# Footnote markers glued to a number: superscript digits would become real digits under
# NFKC, so they are removed before folding.
_FOOTNOTE_TAIL = r"[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#]+$"
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
    return fold_text(expr).str.contains(_APPROX)


def parse_number(expr: pl.Expr) -> pl.Expr:
    """'54,784' -> 54784.0; '1.2k' -> 1200.0; '~5,000' -> 5000.0; null when not a plain number."""
    text = fold_text(expr).str.replace(_APPROX, "")
    parts = text.str.extract_groups(_NUMBER)
    integer = parts.struct.field("int").str.replace_all(r"[, ']", "")
    fraction = parts.struct.field("frac").fill_null("")
    digits = pl.when((integer == "") & (fraction == "")).then(None).otherwise(
        pl.when(integer == "").then(pl.lit("0")).otherwise(integer) + fraction
    )
    magnitude = digits.cast(pl.Float64, strict=False)
    factor = parts.struct.field("suffix").replace_strict(
        _SUFFIX_FACTOR, default=1.0, return_dtype=pl.Float64
    )
    signed = pl.when(parts.struct.field("sign") == "-").then(-magnitude).otherwise(magnitude)
    return signed * factor


def leading_number_and_rest(expr: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """'0.0719 MAE' -> (0.0719, 'MAE'): a score with its metric name glued on."""
    text = expr.str.normalize("NFKC").str.strip_chars()
    parts = text.str.extract_groups(r"^(?P<num>[+-]?\d+(?:\.\d+)?)\s*(?P<rest>[^\d].{0,40})?$")
    return (
        parts.struct.field("num").cast(pl.Float64, strict=False),
        parts.struct.field("rest").str.strip_chars(),
    )


def unit_factors() -> pl.DataFrame:
    return read_vocab("units.csv").with_columns(pl.col("factor").cast(pl.Float64))


def parse_duration_seconds(expr: pl.Expr, default_unit_seconds: pl.Expr) -> pl.Expr:
    """'23h 43m' -> 85380; '19.64' with a (mins) header -> 1178.4; null when unreadable.

    A bare number takes the unit the header or the table gave (`default_unit_seconds`);
    a bare number with no known unit stays null rather than being guessed.
    """
    text = fold_text(expr).str.replace(_APPROX, "")
    spelled = text.str.extract_groups(_DURATION)
    clock = text.str.extract_groups(_CLOCK)

    def part(struct: pl.Expr, name: str) -> pl.Expr:
        return struct.struct.field(name).cast(pl.Float64, strict=False)

    spelled_parts = [part(spelled, name) for name in ("d", "h", "m", "s")]
    has_spelled = pl.any_horizontal(p.is_not_null() for p in spelled_parts)
    spelled_total = (
        spelled_parts[0].fill_null(0) * 86400
        + spelled_parts[1].fill_null(0) * 3600
        + spelled_parts[2].fill_null(0) * 60
        + spelled_parts[3].fill_null(0)
    )
    clock_total = (
        part(clock, "h").fill_null(0) * 3600 + part(clock, "m") * 60 + part(clock, "s")
    )
    bare = parse_number(expr) * default_unit_seconds
    return (
        pl.when(has_spelled)
        .then(spelled_total)
        .when(clock_total.is_not_null())
        .then(clock_total)
        .otherwise(bare)
    )
