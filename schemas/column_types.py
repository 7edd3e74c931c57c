"""The column table of a frame ({name: polars dtype}) and the cast of a frame to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias, cast

import polars as pl
from polars.datatypes import DataTypeClass

# A dtype is written as its class (pl.String) or as an instance (pl.List(pl.String)).
ColumnTypes: TypeAlias = dict[str, pl.DataType | DataTypeClass]


def cast_columns(frame: pl.DataFrame, columns: ColumnTypes) -> pl.DataFrame:
    """`frame` with each named column cast to its dtype."""
    # polars types the argument as a Mapping keyed by "name, selector or dtype"; a Mapping's
    # key type is invariant, so its stubs refuse the {name: dtype} dict it accepts at run time.
    return frame.cast(cast("dict[Any, Any]", columns))


def frame_of_rows(rows: Sequence[Sequence[Any]], columns: ColumnTypes) -> pl.DataFrame:
    """The frame of `rows` (tuples of the fields of `columns`, in order), built column by
    column: a series from each field's list costs a third of polars' reading of rows."""
    fields = zip(*rows, strict=True) if rows else ([] for _ in columns)
    return pl.DataFrame(
        [
            pl.Series(name, values, dtype=dtype)
            for (name, dtype), values in zip(columns.items(), fields, strict=True)
        ]
    )
