"""The parsed-cell frame every layout hands to normalization, and its quick check.

The pandera model, CellSchema, lives in `schemas.cell_schema` and is imported only when a
frame fails the quick check (pandera brings pandas and numpy, which a document reader
otherwise never loads); `schemas.cells.CellSchema` still names it."""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from perfledger.schemas.on_demand import models_on_demand


class CellColumn(NamedTuple):
    dtype: type[pl.DataType]
    nullable: bool
    least: int | None  # the lowest value allowed, or None


# What CellSchema asks of each column, in its order, stated without pandera so that checking
# a frame needs none; tests/schemas/test_plain_statements.py holds it equal to the model.
CELL_COLUMNS: dict[str, CellColumn] = {
    "table_index": CellColumn(pl.Int32, nullable=False, least=0),
    "table_title": CellColumn(pl.String, nullable=True, least=None),
    "table_note": CellColumn(pl.String, nullable=True, least=None),
    "row_number": CellColumn(pl.Int32, nullable=False, least=0),
    "column_index": CellColumn(pl.Int32, nullable=False, least=0),
    "column_name": CellColumn(pl.String, nullable=False, least=None),
    "raw_value": CellColumn(pl.String, nullable=False, least=None),
    "line_number": CellColumn(pl.Int32, nullable=False, least=1),
}
_DTYPES = [(name, column.dtype) for name, column in CELL_COLUMNS.items()]
_NOT_NULL = [name for name, column in CELL_COLUMNS.items() if not column.nullable]
_BOUNDED = [
    (name, column.least) for name, column in CELL_COLUMNS.items() if column.least is not None
]


def surely_fits(cells: pl.DataFrame) -> bool:
    """True when `cells` certainly passes CellSchema.validate, found with one polars query
    (pandera's own check costs tens of milliseconds whatever the size). False only means
    "not certain": CellSchema.validate then decides and words the failure."""
    if list(cells.schema.items()) != _DTYPES:
        return False
    # Asked of each column as a Series: a column knows its null count, and its minimum is
    # one call into Rust, where a query costs a plan and its run (~0.3 ms for a page).
    if any(cells.get_column(name).null_count() for name in _NOT_NULL):
        return False
    return all(
        (least := cells.get_column(name).min()) is None or (isinstance(least, int) and least >= low)
        for name, low in _BOUNDED
    )


__getattr__ = models_on_demand(__name__, ".cell_schema", ["CellSchema"])
