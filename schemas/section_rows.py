"""What the section row each row of a table stands under says of it: the layouts give a row
under a full-width label or a bold group row the title "<heading> — <label>"
(sources/layouts/table_text.py)."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.row_labels import SECTION_SCHEMA, TABLE_KEY, section_labels

SECTION_SEPARATOR = " \u2014 "  # how the HTML layout joins a table's heading and a section row
_TABLE = TABLE_KEY
_PUBLISHED_ROW = [*TABLE_KEY, "row_number"]  # a row as published, whichever way it is read


def sections(cells: pl.DataFrame) -> pl.DataFrame | None:
    """What the section row each row stands under says of it (the layouts give a row under
    a full-width label or a bold group row the title "<heading> — <label>"), per published
    row that has one: in a table read turned around, the section of a metric's row."""
    titles = (
        cells.filter(pl.col("row_number") > 0)
        .group_by(_PUBLISHED_ROW)
        .agg(pl.col("table_title").first().alias("_row_title"))
    )
    headings = (
        cells.filter(pl.col("row_number") == 0)
        .group_by(_TABLE)
        .agg(pl.col("table_title").first().alias("_heading"))
    )
    title, heading = pl.col("_row_title"), pl.col("_heading")
    prefix = heading + SECTION_SEPARATOR
    section = (
        pl.when(heading.is_not_null() & title.str.starts_with(prefix))
        .then(title.str.slice(prefix.str.len_chars()))
        .otherwise(title)
    )
    found = (
        titles.join(headings, on=_TABLE, how="left")
        .filter(title.is_not_null() & title.ne_missing(heading))
        .select(*_PUBLISHED_ROW, section.alias("_section"))
    )
    if found.height == 0:
        return None
    distinct = found.get_column("_section").unique().to_list()
    said = pl.DataFrame(
        [(text, *section_labels(text)) for text in distinct],
        schema={"_section": pl.String, **SECTION_SCHEMA},
        orient="row",
    )
    return found.join(said, on="_section", how="left").drop("_section")
