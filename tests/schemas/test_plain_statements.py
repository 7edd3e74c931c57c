"""What the quick checks state of the pandera models without pandera agrees with the models."""

from __future__ import annotations

from perfledger.schemas.cell_schema import CellSchema
from perfledger.schemas.cells import CELL_COLUMNS, CellColumn
from perfledger.schemas.claim_schema import ClaimSchema, RejectedClaimSchema
from perfledger.schemas.claims import (
    CLAIM_COLUMNS,
    NULLABLE_CLAIM_COLUMNS,
    NULLABLE_REJECTED_COLUMNS,
    REJECTED_COLUMNS,
)
from perfledger.schemas.measurement_schema import MeasurementSchema
from perfledger.schemas.measurements import (
    FRAME_CHECKS,
    MEASUREMENT_COLUMNS,
    MEASUREMENT_DTYPES,
    MeasurementColumn,
)
from perfledger.schemas.validate import _BUILTIN_CHECKS


def plain_cell_columns() -> dict[str, CellColumn]:
    """CELL_COLUMNS as read off CellSchema; fails on anything the quick check cannot state."""
    schema = CellSchema.to_schema()
    assert not (schema.checks or schema.unique or schema.coerce)
    assert schema.strict is True
    found = {}
    for name, column in schema.columns.items():
        assert not (column.unique or column.coerce or column.regex) and column.required, name
        assert all(check.name == "greater_than_or_equal_to" for check in column.checks), name
        bounds = [check.statistics["min_value"] for check in column.checks]
        found[name] = CellColumn(column.dtype.type, column.nullable, max(bounds, default=None))
    return found


def test_cell_columns_state_the_cell_schema():
    stated = plain_cell_columns()
    assert list(stated) == list(CELL_COLUMNS)
    for name, column in CELL_COLUMNS.items():
        assert column.dtype == stated[name].dtype, name
        assert (column.nullable, column.least) == (stated[name].nullable, stated[name].least), name


def nullable_columns(model) -> set[str]:
    return {name for name, column in model.to_schema().columns.items() if column.nullable}


def test_nullable_claim_columns_state_the_claim_schemas():
    assert nullable_columns(ClaimSchema) == NULLABLE_CLAIM_COLUMNS
    assert nullable_columns(RejectedClaimSchema) == NULLABLE_REJECTED_COLUMNS
    assert list(ClaimSchema.to_schema().columns) == list(CLAIM_COLUMNS)
    assert list(RejectedClaimSchema.to_schema().columns) == list(REJECTED_COLUMNS)


# The one argument of each built-in check, as pandera records it.
_CHECK_ARGUMENTS = {
    "greater_than": "min_value",
    "greater_than_or_equal_to": "min_value",
    "isin": "allowed_values",
    "str_length": "exact_value",
}


def plain_measurement_columns() -> dict[str, MeasurementColumn]:
    """MEASUREMENT_COLUMNS as read off MeasurementSchema; fails on anything the screen of
    schemas/validate.py cannot state."""
    schema = MeasurementSchema.to_schema()
    assert not (
        schema.unique
        or schema.ordered
        or schema.coerce
        or schema.drop_invalid_rows
        or schema.add_missing_columns
    )
    assert schema.strict is True
    found = {}
    for name, column in schema.columns.items():
        assert (
            not (column.unique or column.coerce or column.regex or column.drop_invalid_rows)
            and column.required
        ), name
        checks = []
        for check in column.checks:
            assert check.ignore_na and not check.element_wise and check.groupby is None, name
            statistics = dict(check.statistics)
            if check.name == "str_length":  # pandera records the unused bounds as None
                assert statistics.pop("min_value", None) is None, name
                assert statistics.pop("max_value", None) is None, name
            assert list(statistics) == [_CHECK_ARGUMENTS[check.name]], (name, check.name)
            checks.append((check.name, statistics[_CHECK_ARGUMENTS[check.name]]))
        found[name] = MeasurementColumn(column.dtype.type, column.nullable, tuple(checks))
    return found


def test_measurement_columns_state_the_measurement_schema():
    stated = plain_measurement_columns()
    assert list(stated) == list(MEASUREMENT_COLUMNS)
    for name, column in MEASUREMENT_COLUMNS.items():
        assert column.dtype == stated[name].dtype, name
        assert column.nullable == stated[name].nullable, name
        assert [
            (check, list(argument) if isinstance(argument, list) else argument)
            for check, argument in column.checks
        ] == list(stated[name].checks), name
        assert all(check in _BUILTIN_CHECKS for check, _ in column.checks), name


def test_measurement_dtypes_are_the_schema_dtypes():
    schema = MeasurementSchema.to_schema()
    modelled = {name: column.dtype.type for name, column in schema.columns.items()}
    assert list(modelled.items()) == list(MEASUREMENT_DTYPES.items())


def test_frame_checks_are_the_measurement_schema_checks():
    # The model runs the expressions of FRAME_CHECKS themselves; the names must match.
    checks = MeasurementSchema.to_schema().checks
    assert [check.name for check in checks] == list(FRAME_CHECKS)
    assert all(check.ignore_na and check.groupby is None for check in checks)


def test_the_models_are_still_named_where_they_were():
    from perfledger.schemas import cells, claims, measurements, mlperf, mlperf_schema

    assert cells.CellSchema is CellSchema
    assert claims.ClaimSchema is ClaimSchema
    assert claims.RejectedClaimSchema is RejectedClaimSchema
    assert measurements.MeasurementSchema is MeasurementSchema
    assert mlperf.MlperfSystemSchema is mlperf_schema.MlperfSystemSchema
    assert mlperf.MlperfRunSchema is mlperf_schema.MlperfRunSchema
    assert mlperf.MlperfScoreSchema is mlperf_schema.MlperfScoreSchema
