"""The naive reference pipeline: pandas.read_html (or a line splitter), pandas clean-up, DuckDB."""

from __future__ import annotations

import io
import re
from pathlib import Path

import duckdb
import pandas as pd

# The metric a header names, as a reader of these pages would pick them out by hand: the
# first pattern found in the header wins ("Throughput speedup" is a speedup).
METRICS = (
    (re.compile(r"speed-?up", re.I), "speedup"),
    (re.compile(r"weak scaling", re.I), "scaling_efficiency"),
    (re.compile(r"throughput", re.I), "throughput"),
    (re.compile(r"latency", re.I), "latency"),
    (re.compile(r"time to train", re.I), "time_to_train"),
    (re.compile(r"time to result", re.I), "time_to_result"),
    (re.compile(r"accuracy", re.I), "accuracy"),
)
# Seconds per unit of a duration, in a header's brackets or after a number in a cell.
SECONDS = {
    "ms": 0.001,
    "s": 1.0,
    "sec": 1.0,
    "secs": 1.0,
    "min": 60.0,
    "mins": 60.0,
    "hrs": 3600.0,
    "hours": 3600.0,
}
# What each metric is stored in: latency in ms, other durations in s, the rest as printed.
CANONICAL_SECONDS = {"latency": 0.001, "time_to_train": 1.0, "time_to_result": 1.0}
HEADER_LINE = re.compile(
    r"(?:Model|Variant|Platform|System|SDK Version|Framework|Dataset|Batch [Ss]ize|Precision"
    r"|GPUs|Resolution|Division|MLPerf Quality Target|MLPerf ID|Dataset Challenge"
    r"|Evaluation Metric|OGB-LSC 2022 Ranking|Speedup|(?:Throughput|Latency|Time [Tt]o).*)"
)
_HEADER_UNIT = re.compile(r"\(([^()]+)\)\s*$")
_NUMBER_AND_UNIT = r"^~?\s*([\d.,]+)\s*([A-Za-z/%]*)$"
_DURATION = re.compile(r"^(?:(\d+)h)?\s*(?:(\d+)m)?$")
_CLOCK = re.compile(r"^(\d+):(\d\d):(\d\d)$")
_FOOTNOTE = re.compile(r"[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020]+$")
NBSP = "\u00a0"


def read_html_tables(path: Path) -> list[pd.DataFrame]:
    tables = pd.read_html(io.StringIO(path.read_text(encoding="utf-8")))
    for table in tables:
        table.columns = [flatten_header(column) for column in table.columns]
    return tables


def flatten_header(column: str | tuple) -> str:
    """A two-row header's column as 'Top / Sub'; a cell spanning both rows once."""
    if not isinstance(column, tuple):
        return str(column)
    levels = [str(level) for level in column]
    return " / ".join(dict.fromkeys(levels))


def read_text_tables(path: Path) -> list[pd.DataFrame]:
    """Flattened tables: a block whose first lines are known headers, then cells line by line."""
    tables = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.split("\n")
        width = _count_header_lines(lines)
        if width < 2:
            continue
        header, cells = lines[:width], lines[width:]
        rows = [cells[i : i + width] for i in range(0, len(cells) - width + 1, width)]
        tables.append(pd.DataFrame(rows, columns=header))
    return tables


def _count_header_lines(lines: list[str]) -> int:
    width = 0
    while width < len(lines) and HEADER_LINE.fullmatch(lines[width]):
        width += 1
    return width


def metric_of(header: str) -> str | None:
    return next((metric for pattern, metric in METRICS if pattern.search(header)), None)


def parse_seconds(text: str) -> float | None:
    match = _DURATION.match(text)
    if match and (match.group(1) or match.group(2)):
        return int(match.group(1) or 0) * 3600.0 + int(match.group(2) or 0) * 60.0
    match = _CLOCK.match(text)
    if match:
        return int(match.group(1)) * 3600.0 + int(match.group(2)) * 60.0 + int(match.group(3))
    return None


def read_values(raw: pd.Series, metric: str, header: str) -> pd.Series:
    """Numbers in the metric's unit: a cell's own unit ('12.5 ms') first, then the header's."""
    text = raw.str.replace(_FOOTNOTE, "", regex=True)
    numbers = pd.to_numeric(text.str.replace(",", "", regex=False), errors="coerce")
    units = pd.Series("", index=raw.index)
    if numbers.isna().any():  # units or marks in the cells: '1,234 img/s', '1.83x', '~5 hours'
        parts = text.str.strip().str.extract(_NUMBER_AND_UNIT)
        numbers = pd.to_numeric(parts[0].str.replace(",", "", regex=False), errors="coerce")
        units = parts[1].fillna("").str.lower()
    if metric not in CANONICAL_SECONDS:
        return numbers
    match = _HEADER_UNIT.search(header)
    default = match.group(1).lower() if match else ("ms" if metric == "latency" else "s")
    factors = units.where(units != "", default).map(SECONDS).fillna(1.0)
    values = numbers * factors / CANONICAL_SECONDS[metric]
    if values.isna().any():  # durations written as '23h 43m' or '20:04:48'
        values = values.where(values.notna(), text.map(parse_seconds))
    return values


def clean_table(frame: pd.DataFrame, page: str, table_index: int) -> pd.DataFrame:
    """One row per metric cell: page, table, row, column, metric, value."""
    frame = frame.astype(str).replace({NBSP: None, "nan": None})
    parts = []
    for column in frame.columns:
        metric = metric_of(column)
        if metric is None:
            continue
        raw = frame[column].dropna()
        parts.append(
            pd.DataFrame(
                {
                    "page": page,
                    "table_index": table_index,
                    "row_number": raw.index + 1,
                    "column_name": column,
                    "metric": metric,
                    "value": read_values(raw, metric, column).astype(float),
                    "raw_value": raw,
                }
            )
        )
    return pd.concat(parts) if parts else pd.DataFrame()


def run_naive(pages: list[Path], database: Path, fmt: str) -> int:
    """Read, clean and insert every page; returns the rows inserted."""
    connection = duckdb.connect(str(database))
    connection.execute(
        "CREATE TABLE IF NOT EXISTS measurements (page VARCHAR, table_index INTEGER, "
        "row_number INTEGER, column_name VARCHAR, metric VARCHAR, value DOUBLE, "
        "raw_value VARCHAR)"
    )
    reader = read_html_tables if fmt == "html" else read_text_tables
    rows = 0
    for path in pages:
        cleaned = [clean_table(table, path.stem, index) for index, table in enumerate(reader(path))]
        frame = pd.concat([c for c in cleaned if len(c)])
        connection.execute("INSERT INTO measurements SELECT * FROM frame")
        rows += len(frame)
    connection.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    """`python -m bench.naive --pages DIR --database FILE`: the naive pipeline as a process of
    its own, so that it can be timed whole beside `perfledger ingest`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.naive", description=main.__doc__)
    parser.add_argument("--pages", type=Path, required=True, help="a folder of pages")
    parser.add_argument("--database", type=Path, required=True, help="a DuckDB file to write")
    parser.add_argument("--format", choices=("html", "text"), default="html")
    args = parser.parse_args(argv)
    pages = sorted(path for path in args.pages.iterdir() if path.is_file())
    print(run_naive(pages, args.database, args.format))


if __name__ == "__main__":
    main()
