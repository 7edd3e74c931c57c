"""A name written across the columns one header spans: an HTML table whose "Model" header spans
two columns writes a model's family in the one and its size or variant in the other
("ConvMixer | 768-32", "EfficientNet | Lite0"), so the two cells of a row name one model
(schemas/chunk_reading.py reads the label cells this gives back)."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.folding import clean_text
from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.row_labels import ROW_KEY, TABLE_KEY

# The labels a name may be written across columns for: a model ("EfficientNet | Lite0") and a
# platform ("Jetson | AGX Orin"); a count, a precision or a batch size is one cell's.
_NAME_ROLES = ("model", "platform")
_NO_WORD = ("n/a", "na", "none", "null", "tbd")


def joined_spans(
    label_cells: pl.DataFrame, label_columns: pl.DataFrame, readings: list[HeaderReading]
) -> pl.DataFrame:
    """`label_cells` with the cells of a row under one header spanning columns joined into its
    first: adjacent label columns (`label_columns`: one row per column) with one header naming
    a model or a platform. A cell repeating the one before it (a name spanning both columns of
    the row, "LeNet5") or holding no word ("-") adds nothing."""
    named = [index for index, reading in enumerate(readings) if reading.role in _NAME_ROLES]
    if not named:
        return label_cells
    # The columns first (a few per table), the cells only of tables that span a name.
    columns = label_columns.sort([*TABLE_KEY, "vcol"])
    same = pl.col("reading_id") == pl.col("reading_id").shift(1).over(TABLE_KEY)
    adjacent = pl.col("vcol") == pl.col("vcol").shift(1).over(TABLE_KEY) + 1
    spanning = columns.filter(
        (same & adjacent & pl.col("reading_id").is_in(named)).fill_null(False)
    ).select(*TABLE_KEY, "vcol", _follows=pl.lit(True))
    if spanning.height == 0:
        return label_cells
    tables = spanning.select(TABLE_KEY).unique()
    others = label_cells.join(tables, on=TABLE_KEY, how="anti")
    ordered = (
        label_cells.join(tables, on=TABLE_KEY, how="semi")
        .sort([*ROW_KEY, "vcol"], maintain_order=True)
        .join(spanning, on=[*TABLE_KEY, "vcol"], how="left", maintain_order="left")
        .with_columns(pl.col("_follows").fill_null(False))
    )
    texts = ordered.get_column("raw_value").drop_nulls().unique().to_list()
    adds = {text: _adds_a_word(text) for text in texts}
    spans = ordered.with_columns(
        _span=(~pl.col("_follows")).cast(pl.Int32).cum_sum().over(ROW_KEY),
        _adds=pl.col("raw_value").replace_strict(adds, default=False, return_dtype=pl.Boolean),
    )
    first = spans.filter(~pl.col("_follows"))
    added = (
        spans.filter(pl.col("_follows") & pl.col("_adds"))
        .group_by([*ROW_KEY, "_span"], maintain_order=True)
        .agg(pl.col("raw_value").alias("_more"))
    )
    joined = first.join(added, on=[*ROW_KEY, "_span"], how="left", maintain_order="left")
    # Few rows continue: their names are joined in Python, each once.
    key = pl.concat_str([pl.col("raw_value"), pl.col("_more").list.join("\x1f")], separator="\x1f")
    keys = joined.select(key.alias("_key")).get_column("_key").drop_nulls().unique().to_list()
    names = {text: _joined_name(text.split("\x1f")) for text in keys}
    joined = joined.with_columns(
        raw_value=pl.when(pl.col("_more").is_null())
        .then(pl.col("raw_value"))
        .otherwise(key.replace_strict(names, default=None, return_dtype=pl.String))
    ).select(label_cells.columns)
    return pl.concat([others, joined]) if others.height else joined


def _adds_a_word(text: str) -> bool:
    """Whether a cell adds to a name: a size's letter does ("x" of "YOLOX | x", which a
    result cell would hold for "not run"), a dash or "N/A" does not."""
    cleaned = clean_text(text)
    return any(char.isalnum() for char in cleaned) and cleaned.lower() not in _NO_WORD


def _joined_name(parts: list[str]) -> str:
    """The first cell's text followed by each later cell's that it does not already hold."""
    words = clean_text(parts[0])
    for part in map(clean_text, parts[1:]):
        if part.lower() not in words.lower().split():  # "LeNet5" spanning both: once
            words = f"{words} {part}".strip()
    return words
