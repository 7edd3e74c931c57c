"""Golden pages: every layout's saved pages beside the values and quarantine rows they give.

Each folder of tests/fixtures/golden holds `page.<ext>` (a page of our own, written in the
layout of a vendor's page), `expected.csv` (every value it must give) and, where cells must
be set apart, `quarantine.csv`. Adding a case is adding a folder."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import polars as pl
import pytest

from perfledger.schemas.normalize import DocumentContext, normalize_cells
from perfledger.sources.parse import parse_document

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
CONTENT_TYPES = {
    ".md": "text/markdown",
    ".html": "text/html",
    ".rst": "text/x-rst",
    ".txt": "text/plain",
}
# The columns expected.csv states of each value, and the key a value is found by.
KEY = ("table_index", "row_number", "column_name", "qualifier")
STATED = (
    "raw_value",
    "metric",
    "value",
    "unit",
    "accelerator",
    "accelerator_count",
    "activation_dtype",
    "statistic",
    "spread",
)


def cases() -> list[Path]:
    return sorted(path for path in GOLDEN.iterdir() if path.is_dir())


def read_page(case: Path):
    page = next(case.glob("page.*"))
    parsed, layout = parse_document(page.read_bytes(), CONTENT_TYPES[page.suffix])
    context = DocumentContext(
        case.name,
        f"file://{page}",
        "0" * 64,
        parsed.metadata.title,
        "2024-01-01T00:00:00Z",
        layout,
        parsed.metadata.language,
        parsed.outline,
    )
    return normalize_cells(parsed.cells, context)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def rows_of(frame: pl.DataFrame, columns: tuple[str, ...]) -> dict[tuple, dict]:
    found = {}
    for row in frame.iter_rows(named=True):
        key = tuple(_text(row[name]) for name in KEY)
        assert key not in found, f"two values at {key}"
        found[key] = {name: row[name] for name in columns}
    return found


def expected_rows(path: Path) -> dict[tuple, dict]:
    with path.open(encoding="utf-8", newline="") as handle:
        return {tuple(row[name] for name in KEY): row for row in csv.DictReader(handle)}


def same(found: object, expected: str) -> bool:
    if isinstance(found, float):
        return expected != "" and math.isclose(found, float(expected), rel_tol=1e-9)
    return _text(found) == expected


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_a_golden_page_gives_exactly_its_expected_values(case):
    normalized = read_page(case)
    found = rows_of(normalized.measurements, STATED)
    expected = expected_rows(case / "expected.csv")
    assert sorted(found) == sorted(expected)
    for key, row in expected.items():
        wrong = {name: found[key][name] for name in STATED if not same(found[key][name], row[name])}
        assert not wrong, f"{case.name} {key}: {wrong} where {row}"
    quarantined = sorted(
        (str(q["table_index"]), str(q["row_number"]), q["column_name"], q["raw_value"], q["check"])
        for q in normalized.quarantine.iter_rows(named=True)
    )
    quarantine_file = case / "quarantine.csv"
    if quarantine_file.exists():
        with quarantine_file.open(encoding="utf-8", newline="") as handle:
            listed = sorted(
                (r["table_index"], r["row_number"], r["column_name"], r["raw_value"], r["check"])
                for r in csv.DictReader(handle)
            )
    else:
        listed = []
    assert quarantined == listed
