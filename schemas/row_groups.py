"""Rows of a group whose labels a table writes once: a Markdown table cannot span rows, so
its rows under "Llama 3.1 70B | FP8 | 8" leave those cells blank (schemas/chunk_reading.py
reads the label cells this gives back)."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.row_labels import TABLE_KEY

_TABLE = TABLE_KEY


# A label cell saying "as above" wherever it stands: "..." under "Ascend310P3", "〃", "同上",
# "ditto".
_DITTO = r"(?i)^\s*(?:[\u3003\"\u201d\u2026]|''|\.{2,4}|ditto|do\.|同上)\s*$"
# A dash says "as above" only in the first label column, the group's name ("-" under
# "llama2-chat-7b"); in another it says "none" ("-" as an MLPerf model's quality target).
_DASH = r"^\s*[-\u2013\u2014]\s*$"


def dittos_filled(label_cells: pl.DataFrame) -> pl.DataFrame:
    """Label cells saying "as above" given the label written last above them in their column;
    one with none above is blank. Unlike a blank cell, which may mean "none", a ditto names
    the label it repeats."""
    first = _first_label_column()
    ditto = pl.col("raw_value").str.contains(_DITTO) | (
        first & pl.col("raw_value").str.contains(_DASH)
    )
    if not label_cells.select(ditto.any()).item():
        return label_cells
    above = (
        pl.when(~ditto & ~pl.col("_blank"))
        .then(pl.col("raw_value"))
        .forward_fill()
        .over([*_TABLE, "vcol"], order_by="vrow")
    )
    return label_cells.with_columns(
        raw_value=pl.when(ditto & above.is_not_null()).then(above).otherwise(pl.col("raw_value")),
        _blank=pl.col("_blank") | (ditto & above.is_null()),
    )


def continued_groups(label_cells: pl.DataFrame) -> pl.DataFrame:
    """Label cells where a row's leading label cells are blank taken from the row above: a
    Markdown table, which cannot span rows, leaves "Llama 3.1 70B | FP8 | 8" unwritten under
    the row that states them, for the rows of the same group. A row continues a group when
    its first label cell is blank and that column never writes one label on two rows in a
    row (a column that repeats "Object Detection" row after row means a blank cell as blank;
    "Qwen3.5" written again after blank rows starts its group again); then each of
    its blank cells before its first written label is the group's, and a blank cell after it
    is blank. Not in a table read turned around, whose first column was its header."""
    if not label_cells.get_column("_blank").any():
        return label_cells
    firsts = label_cells.group_by(_TABLE).agg(pl.col("vcol").min().alias("_key"))
    grouped = (
        label_cells.join(firsts, on=_TABLE)
        .filter(pl.col("_blank") & (pl.col("vcol") == pl.col("_key")))
        .select(_TABLE)
        .unique()
    )
    if grouped.height == 0:  # no row of any table leaves its first label blank
        return label_cells
    others = label_cells.join(grouped, on=_TABLE, how="anti")
    ordered = label_cells.join(grouped, on=_TABLE, how="semi").sort(
        [*_TABLE, "vrow", "vcol"], maintain_order=True
    )
    blank = pl.col("_blank")
    key = pl.col("vcol") == pl.col("vcol").min().over(_TABLE)
    ordered = ordered.join(
        _repeating(ordered.filter(key)), on=_TABLE, how="left", maintain_order="left"
    )
    groups = ~pl.col("_repeats") & (pl.col("row_number") == pl.col("vrow")).all().over(_TABLE)
    leading = blank.cast(pl.Int8).cum_min().over([*_TABLE, "vrow"]) == 1
    continues = (key & blank).any().over([*_TABLE, "vrow"])
    above = pl.when(~blank).then(pl.col("raw_value")).forward_fill().over([*_TABLE, "vcol"])
    taken = groups & continues & leading & above.is_not_null()
    continued = ordered.with_columns(
        raw_value=pl.when(taken).then(above).otherwise(pl.col("raw_value")),
        _blank=pl.when(taken).then(pl.lit(False)).otherwise(blank),
    ).drop("_repeats")
    return pl.concat([others, continued]) if others.height else continued


def _repeating(keys: pl.DataFrame) -> pl.DataFrame:
    """`_repeats` per table: whether its first label column writes one label on two rows in a
    row ("Object Detection" row after row: a blank there is blank). A label written again
    after blank rows ("Qwen3.5 | 0.8B", two blank rows, "Qwen3.5 | 2B") starts a group again."""
    blank, text = pl.col("_blank"), pl.col("raw_value")
    before_blank = blank.shift(1).over(_TABLE).fill_null(True)
    again = ~blank & ~before_blank & (text == text.shift(1).over(_TABLE)).fill_null(False)
    return keys.group_by(_TABLE).agg(again.any().alias("_repeats"))


# A label cell written as a sub-item of the row above it: "- int8" under "CTranslate2 3.6.0",
# "+ dynamic_ntk" under "Qwen-7B (original)" (a dash or a plus, a space, then words).
_SUB_ITEM_MARK = r"^\s*[-+\u2013\u2014\u2514\u21b3]\s+"
_SUB_ITEM = _SUB_ITEM_MARK + r"\S*[^\W\d]"


def sub_items_joined(label_cells: pl.DataFrame) -> pl.DataFrame:
    """First-column label cells written as a sub-item of a row above, each after the label
    nearest above it that is no sub-item, in brackets as a variant of it: "- int8" under
    "CTranslate2 3.6.0" is "CTranslate2 3.6.0 (int8)", the int8 run of that engine, not a row
    of no engine. A sub-item with no such label above stays as written."""
    first = _first_label_column()
    sub_item = first & pl.col("raw_value").str.contains(_SUB_ITEM)
    if not label_cells.select(sub_item.any()).item():
        return label_cells
    parent = (
        pl.when(first & ~sub_item & ~pl.col("_blank"))
        .then(pl.col("raw_value"))
        .forward_fill()
        .over([*_TABLE, "vcol"], order_by="vrow")
    )
    return label_cells.with_columns(
        raw_value=pl.when(sub_item & parent.is_not_null())
        .then(
            pl.concat_str(
                [
                    parent,
                    pl.lit(" ("),
                    pl.col("raw_value").str.replace(_SUB_ITEM_MARK, ""),
                    pl.lit(")"),
                ]
            )
        )
        .otherwise(pl.col("raw_value"))
    )


def _first_label_column() -> pl.Expr:
    return pl.col("vcol") == pl.col("vcol").min().over(_TABLE)
