"""The pandera model of the parsed-cell frame, which words a malformed frame's failures.

Imported only when a frame fails the quick check of `schemas.cells` (and by the data
dictionary): pandera brings pandas and numpy, about 90 MB per process, which a document
reader never needs for a well-formed page."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl
from pandera.api.polars.model_config import BaseConfig


class CellSchema(pa.DataFrameModel):
    """One published table cell and where it stands in its document."""

    table_index: pl.Int32 = pa.Field(ge=0, description="0-based order of the table in the document")
    table_title: str = pa.Field(nullable=True, description="Nearest heading above the table")
    table_note: str = pa.Field(nullable=True, description="Footnote attached to the table")
    row_number: pl.Int32 = pa.Field(
        ge=0, description="0 for the header row, then 1, 2, ... in order"
    )
    column_index: pl.Int32 = pa.Field(ge=0, description="0-based column position")
    column_name: str = pa.Field(description="Header text of the column, as published")
    raw_value: str = pa.Field(description="The cell exactly as published")
    line_number: pl.Int32 = pa.Field(ge=1, description="1-based source line where the cell starts")

    class Config(BaseConfig):
        strict = True
