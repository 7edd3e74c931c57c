"""What a table's plan says of each column (`ColumnPlan`) and what its body cells look like
(`ColumnStats`): the shapes schemas/table_plans.py plans with and the readers after it share."""

from __future__ import annotations

from dataclasses import dataclass

from perfledger.schemas.found import Found
from perfledger.schemas.header_reading import HeaderReading


@dataclass(frozen=True)
class ColumnStats:
    """What a column's body cells look like."""

    filled: int = 0  # cells holding something other than a placeholder ("N/A", "-")
    numeric: int = 0  # of those, cells starting with a number
    units: int = 0  # of those, cells that are only a unit ("Tokens/s")
    point: int = 0  # numbers that can only be read with a decimal point ("1,234.5", "0.25")
    comma: int = 0  # numbers that can only be read with a decimal comma ("1.234,5", "0,25")
    named: int = 0  # cells naming the metric of their number ("TTFT: 27.0s")
    precisions: int = 0  # cells that are a precision label ("FP16", "INT8")
    flags: int = 0  # numbers that are 0 or 1 alone
    zeros: int = 0  # numbers that are 0 alone
    measured: int = 0  # numbers followed by a unit of time or rate ("~175 s", "40 fps")
    sized: int = 0  # numbers followed by a size in bytes ("9.23 GB")
    labelled: int = 0  # cells of a figure after its name, whatever it names ("text:292")

    @property
    def switch(self) -> bool:
        """A column of 0s and 1s, both (MNNVL's "0", "1", "1"): whether a feature was on."""
        return self.filled > 1 and self.flags == self.filled and 0 < self.zeros < self.filled


@dataclass(frozen=True)
class ColumnPlan:
    column: int  # position in the orientation read
    role: str  # result, label, config, reference, unit, metric_name
    reading: HeaderReading
    metric: Found | None = None  # the metric of a result column, when the table states it
    annotation: int | None = None  # the unit or metric-name column that qualifies it
    annotation_role: str | None = None
    decimal: str | None = None  # the decimal mark its numbers are read with
    group: str | None = None  # the part of the run its column group is named after
