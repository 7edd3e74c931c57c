"""The naive reference pipeline: pandas.read_html (or a line splitter), pandas clean-up, DuckDB."""

from __future__ import annotations

import io
import re
from pathlib import Path

import duckdb
import pandas as pd

# The headers a reader of these pages would pick out by hand, and the unit each one implies.
METRICS = {
    "Throughput (items/sec)": ("throughput", 1.0),
    "Latency (ms)": ("latency", 1.0),
    "Time to Train (mins)": ("time_to_train", 60.0),
    "Time To Result (secs)": ("time_to_result", 1.0),
    "Time to Train": ("time_to_train", 1.0),
}
_DURATION = re.compile(r"^(?:(\d+)h)?\s*(?:(\d+)m)?$")
_FOOTNOTE = re.compile(r"[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020]+$")
NBSP = "\u00a0"


def read_html_tables(path: Path) -> list[pd.DataFrame]:
    return pd.read_html(io.StringIO(path.read_text(encoding="utf-8")))


def read_text_tables(path: Path) -> list[pd.DataFrame]:
    """Flattened tables: a block whose first lines are known headers, then cells line by line."""
    known = {"Model", "Division", "Dataset Challenge"}
    tables = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.split("\n")
        if lines[0] not in known:
            continue
        width = _count_header_lines(lines)
        header, cells = lines[:width], lines[width:]
        rows = [cells[i:i + width] for i in range(0, len(cells) - width + 1, width)]
        tables.append(pd.DataFrame(rows, columns=header))
    return tables


def _count_header_lines(lines: list[str]) -> int:
    headers = {"Model", "Variant", "Platform", "SDK Version", "Framework", "Dataset",
               "Batch Size", "Precision", "Division", "MLPerf Quality Target", "MLPerf ID",
               "Dataset Challenge", "Evaluation Metric", "OGB-LSC 2022 Ranking", *METRICS}
    width = 0
    while width < len(lines) and lines[width] in headers:
        width += 1
    return width


def parse_seconds(text: str) -> float | None:
    match = _DURATION.match(text)
    if match and (match.group(1) or match.group(2)):
        return int(match.group(1) or 0) * 3600.0 + int(match.group(2) or 0) * 60.0
    return None


def clean_table(frame: pd.DataFrame, page: str, table_index: int) -> pd.DataFrame:
    """One row per metric cell: page, table, row, metric, value."""
    frame = frame.astype(str).replace({NBSP: None, "nan": None})
    parts = []
    for column, (metric, factor) in METRICS.items():
        if column not in frame.columns:
            continue
        raw = frame[column].dropna().str.replace(_FOOTNOTE, "", regex=True)
        seconds = raw.map(parse_seconds)
        numbers = pd.to_numeric(raw.str.replace(",", "", regex=False), errors="coerce")
        values = seconds.where(seconds.notna(), numbers * factor)
        parts.append(pd.DataFrame({
            "page": page,
            "table_index": table_index,
            "row_number": raw.index + 1,
            "metric": metric,
            "value": values.astype(float),
            "raw_value": frame.loc[raw.index, column],
        }))
    return pd.concat(parts) if parts else pd.DataFrame()


def run_naive(pages: list[Path], database: Path, fmt: str) -> int:
    """Read, clean and insert every page; returns the rows inserted."""
    connection = duckdb.connect(str(database))
    connection.execute(
        "CREATE TABLE IF NOT EXISTS measurements (page VARCHAR, table_index INTEGER, "
        "row_number INTEGER, metric VARCHAR, value DOUBLE, raw_value VARCHAR)"
    )
    reader = read_html_tables if fmt == "html" else read_text_tables
    rows = 0
    for path in pages:
        cleaned = [clean_table(table, path.stem, index)
                   for index, table in enumerate(reader(path))]
        frame = pd.concat([c for c in cleaned if len(c)])
        connection.execute("INSERT INTO measurements SELECT * FROM frame")
        rows += len(frame)
    connection.close()
    return rows
