"""What the quick checks state of the pandera models without pandera agrees with the models."""

from __future__ import annotations

from schemas.cell_schema import CellSchema
from schemas.cells import CELL_COLUMNS, CellColumn
from schemas.claim_schema import ClaimSchema, RejectedClaimSchema
from schemas.claims import (
    CLAIM_COLUMNS,
    NULLABLE_CLAIM_COLUMNS,
    NULLABLE_REJECTED_COLUMNS,
    REJECTED_COLUMNS,
)


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


def test_the_models_are_still_named_where_they_were():
    from schemas import cells, claims

    assert cells.CellSchema is CellSchema
    assert claims.ClaimSchema is ClaimSchema
    assert claims.RejectedClaimSchema is RejectedClaimSchema
