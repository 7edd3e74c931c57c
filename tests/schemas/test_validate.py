"""Validation: the vectorised screen in front of pandera must give pandera's own verdicts."""

from __future__ import annotations

import math

import pandera.polars as pa
import polars as pl
import pytest

from perfledger.schemas.measurements import MEASUREMENT_DTYPES, MeasurementSchema
from perfledger.schemas.normalize import normalize_cells
from perfledger.schemas.validate import _split, validate_measurements
from perfledger.sources.layouts.text_capture import parse_text_capture
from tests.conftest import JULY_2023, read_page
from tests.sources.layout_checks import CONTEXT


@pytest.fixture(scope="module")
def measurements() -> pl.DataFrame:
    cells = parse_text_capture(read_page(JULY_2023)).cells
    return normalize_cells(cells, CONTEXT).measurements.cast(MEASUREMENT_DTYPES)


def pandera_alone(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every row validated by pandera, as validation did before the screen existed."""
    indexed = frame.cast(MEASUREMENT_DTYPES).with_row_index("_row")
    try:
        MeasurementSchema.validate(indexed.drop("_row"), lazy=True)
    except pa.errors.SchemaErrors as errors:
        return _split(indexed, errors.failure_cases)
    return frame, pl.DataFrame()


def spoil(frame: pl.DataFrame, row: int, **values) -> pl.DataFrame:
    columns = {}
    for name, value in values.items():
        column = frame[name].clone()
        column[row] = value
        columns[name] = column
    return frame.with_columns(**columns)


def test_sound_rows_skip_nothing_and_lose_nothing(measurements):
    good, quarantine = validate_measurements(measurements)
    assert good.equals(measurements)
    assert quarantine.height == 0


def test_rows_that_break_the_schema_get_pandera_checks_and_reasons(measurements):
    frame = measurements
    frame = spoil(frame, 3, batch_size_number=0.0)
    frame = spoil(frame, 10, accelerator_count=0, value_per_accelerator=-1.0)
    frame = spoil(frame, 20, value=math.nan)
    frame = spoil(frame, 21, value=math.inf)
    frame = spoil(frame, 30, workload="pretraining", activation_dtype="fp13")
    frame = spoil(frame, 40, metric="power")
    frame = spoil(frame, 50, document_sha256="abc")
    frame = spoil(frame, 60, vendor=None, value=-3.0)
    frame = spoil(frame, 61, batch_size_number=None, activation_dtype=None)  # nulls allowed
    good, quarantine = validate_measurements(frame)
    expected_good, expected_quarantine = pandera_alone(frame)
    assert quarantine.height == 8
    assert good.equals(expected_good)
    assert quarantine.equals(expected_quarantine)
    assert quarantine["check"].str.starts_with("schema:").all()


def test_a_frame_with_a_column_the_schema_lacks_is_a_schema_bug(measurements):
    with pytest.raises(pa.errors.SchemaError):
        validate_measurements(measurements.with_columns(power=pl.lit(1.0)))
