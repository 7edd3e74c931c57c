"""A frame's rows per value of a column, where each value's rows stand together."""

from __future__ import annotations

import polars as pl


def parts_by(
    frame: pl.DataFrame, column: str, *, include_key: bool = True
) -> dict[tuple, pl.DataFrame]:
    """`frame.partition_by(column, as_dict=True, include_key=...)`, the parts in the order
    of their first rows. Where each value's rows stand together (a chunk's rows, document
    after document), the parts are slices of the frame: partitioning copies every column of
    every part, and costs a query per part."""
    runs = frame.get_column(column).rle()
    values = runs.struct.field("value").to_list()
    if len(set(values)) != len(values):  # a value's rows apart
        return frame.partition_by(
            column, as_dict=True, maintain_order=True, include_key=include_key
        )
    if not include_key:
        frame = pl.DataFrame([series for series in frame.get_columns() if series.name != column])
    parts, start = {}, 0
    for value, length in zip(values, runs.struct.field("len").to_list(), strict=True):
        parts[(value,)] = frame.slice(start, length)
        start += length
    return parts
