"""The quick cell check never passes a frame that the pandera cell schema fails."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl
import pytest

from perfledger.schemas.cells import CellSchema, surely_fits
from perfledger.sources.layouts.base import CELL_SCHEMA, ParsedDocument, cells_frame
from perfledger.sources.parse import ParseFailure, cells_pass, check_cells

GOOD_ROW = (0, "Results", None, 0, 0, "Model", "Model", 3)


def good() -> pl.DataFrame:
    return cells_frame([GOOD_ROW, (0, None, "note", 1, 0, "Model", "BERT", 4)])


def variants() -> list[pl.DataFrame]:
    frame = good()
    return [
        frame,
        cells_frame(),
        frame.with_columns(pl.col("table_index").cast(pl.Int64)),
        frame.with_columns(pl.col("line_number").cast(pl.String)),
        frame.with_columns(pl.lit(None, pl.String).alias("raw_value")),
        frame.with_columns(pl.lit(None, pl.String).alias("column_name")),
        frame.with_columns(pl.lit(None, pl.Int32).alias("row_number")),
        frame.with_columns(pl.lit(-1, pl.Int32).alias("column_index")),
        frame.with_columns(pl.lit(0, pl.Int32).alias("line_number")),
        frame.with_columns(pl.lit(1, pl.Int32).alias("line_number")),
        frame.with_columns(pl.lit(None, pl.String).alias("table_title")),
        frame.with_columns(pl.lit("x").alias("extra")),
        frame.drop("table_note"),
        frame.select(reversed(CELL_SCHEMA)),
        frame.with_columns(pl.col("table_title").cast(pl.Categorical)),
    ]


def pandera_passes(frame: pl.DataFrame) -> bool:
    try:
        CellSchema.validate(frame, lazy=True)
    except pa.errors.SchemaErrors:
        return False
    return True


@pytest.mark.parametrize("index", range(len(variants())))
def test_the_quick_check_passes_only_frames_pandera_passes(index):
    frame = variants()[index]
    assert not surely_fits(frame) or pandera_passes(frame)


def test_a_well_formed_frame_needs_no_pandera_check():
    assert surely_fits(good())
    assert surely_fits(cells_frame())


@pytest.mark.parametrize("index", range(len(variants())))
def test_check_cells_and_cells_pass_give_pandera_s_verdict(index):
    frame = variants()[index]
    assert cells_pass([frame]) == pandera_passes(frame)
    if pandera_passes(frame):
        check_cells(ParsedDocument(cells=frame), "test")
    else:
        with pytest.raises(ParseFailure, match="layout test produced malformed cells"):
            check_cells(ParsedDocument(cells=frame), "test")
