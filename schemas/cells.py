"""The parsed-cell frame every layout hands to normalization."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl


class CellSchema(pa.DataFrameModel):
    """One published table cell and where it stands in its document."""

    table_index: pl.Int32 = pa.Field(ge=0, description="0-based order of the table in the document")
    table_title: str = pa.Field(nullable=True, description="Nearest heading above the table")
    table_note: str = pa.Field(nullable=True, description="Footnote attached to the table")
    row_number: pl.Int32 = pa.Field(ge=0, description="0 for the header row, then 1, 2, ... in order")
    column_index: pl.Int32 = pa.Field(ge=0, description="0-based column position")
    column_name: str = pa.Field(description="Header text of the column, as published")
    raw_value: str = pa.Field(description="The cell exactly as published")
    line_number: pl.Int32 = pa.Field(ge=1, description="1-based source line where the cell starts")

    class Config:
        strict = True


_Expectation = tuple[str, pl.DataType, bool, "int | None"]  # column, dtype, nullable, lower bound


def _plain_expectations(schema: pa.DataFrameSchema) -> list[_Expectation] | None:
    """Per column, in order, what the schema asks for, when it asks for nothing more than a
    dtype, nulls or not and lower bounds; None when it asks for more (then only pandera can
    tell)."""
    if schema.checks or schema.unique or schema.coerce:
        return None
    expected = []
    for name, column in schema.columns.items():
        if column.unique or column.coerce or column.regex or not column.required:
            return None
        bounds = []
        for check in column.checks:
            if check.name != "greater_than_or_equal_to":
                return None
            bounds.append(check.statistics["min_value"])
        expected.append((name, column.dtype.type, column.nullable, max(bounds, default=None)))
    return expected


_EXPECTED = _plain_expectations(CellSchema.to_schema())


def surely_fits(cells: pl.DataFrame) -> bool:
    """True when `cells` certainly passes CellSchema.validate, found with one polars query
    (pandera's own check costs tens of milliseconds whatever the size). False only means
    "not certain": CellSchema.validate then decides and words the failure."""
    if _EXPECTED is None or list(cells.schema.items()) != [(n, t) for n, t, _, _ in _EXPECTED]:
        return False
    nulls = [pl.col(name).null_count() for name, _, nullable, _ in _EXPECTED if not nullable]
    lows = [pl.col(name).min().alias(f"{name} min") for name, _, _, low in _EXPECTED
            if low is not None]
    found = cells.select(*nulls, *lows).row(0)
    low_bounds = [low for _, _, _, low in _EXPECTED if low is not None]
    counts, least_values = found[: len(nulls)], found[len(nulls):]
    return all(count == 0 for count in counts) and all(
        least is None or least >= low for least, low in zip(least_values, low_bounds, strict=True)
    )
