"""The column table of a frame ({name: polars dtype}) and the cast of a frame to it."""

from __future__ import annotations

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
