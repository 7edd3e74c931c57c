"""Cell-level accuracy: every expected measurement present in the warehouse with its exact value."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

# A cell by its place: a row may hold several values of one metric (one per precision), and
# two tables on a page may share a heading.
KEY = ["page", "table_index", "row_number", "column_name", "metric"]
# Values are compared to float64 rounding: '19.64' minutes is 1178.4 s, and the product
# 19.64 * 60 may differ from the decimal 1178.4 in its last bit.
RELATIVE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Accuracy:
    expected: int
    found: int
    exact: int
    unexpected: int  # measurements in the warehouse that the ground truth does not hold

    @property
    def ratio(self) -> float:
        return self.exact / self.expected if self.expected else 1.0


def read_measurements(warehouse: Path) -> pl.DataFrame:
    """The warehouse's current measurements, keyed like the ground truth."""
    from perfledger.warehouse import lake

    connection = lake.connect(warehouse, read_only=True)
    try:
        return connection.execute(
            """SELECT regexp_extract(source_url, '([^/]+)\\.[A-Za-z]+$', 1) AS page,
                      table_index, row_number, column_name, metric, value, unit, raw_value
               FROM measurements"""
        ).pl()
    finally:
        connection.close()


def keyed(found: pl.DataFrame) -> pl.DataFrame:
    """The warehouse's rows with their keys typed as the ground truth's."""
    return found.with_columns(pl.col("table_index", "row_number").cast(pl.Int32))


def compare(truth: pl.DataFrame, found: pl.DataFrame) -> Accuracy:
    joined = truth.join(keyed(found), on=KEY, how="left", suffix="_found")
    exact = joined.filter(
        (
            (pl.col("value") - pl.col("value_found")).abs()
            <= pl.col("value").abs() * RELATIVE_TOLERANCE
        )
        & (pl.col("unit") == pl.col("unit_found"))
        & (pl.col("raw_value") == pl.col("raw_value_found"))
    )
    present = joined.filter(pl.col("value_found").is_not_null())
    unexpected = keyed(found).join(truth, on=KEY, how="anti")
    return Accuracy(truth.height, present.height, exact.height, unexpected.height)


def find_mismatches(truth: pl.DataFrame, found: pl.DataFrame, limit: int = 10) -> pl.DataFrame:
    """A few expected measurements that are missing or wrong, to show what went wrong."""
    joined = truth.join(keyed(found), on=KEY, how="left", suffix="_found")
    wrong = joined.filter(
        pl.col("value_found").is_null()
        | (
            (pl.col("value") - pl.col("value_found")).abs()
            > pl.col("value").abs() * RELATIVE_TOLERANCE
        )
        | (pl.col("unit") != pl.col("unit_found"))
        | (pl.col("raw_value") != pl.col("raw_value_found"))
    )
    return wrong.head(limit)


def measure_accuracy(truth_path: Path, warehouse: Path) -> Accuracy:
    return compare(pl.read_parquet(truth_path), read_measurements(warehouse))
