"""Upper bounds: extracting cells with nothing else done, and DuckDB reading finished rows."""

from __future__ import annotations

from pathlib import Path

import duckdb
from lxml import etree
from selectolax.lexbor import LexborHTMLParser


def extract_with_lxml(data: bytes) -> list[list[list[str]]]:
    """Every table's rows as lists of cell texts, through libxml2."""
    root = etree.HTML(data)
    if root is None:
        return []
    return [
        [["".join(cell.itertext()) for cell in row] for row in table.iter("tr")]
        for table in root.iter("table")
    ]


def extract_with_selectolax(data: bytes) -> list[list[list[str]]]:
    """Every table's rows as lists of cell texts, through lexbor."""
    tree = LexborHTMLParser(data)
    return [
        [[cell.text() for cell in row.css("td, th")] for row in table.css("tr")]
        for table in tree.css("table")
    ]


def split_text(data: bytes) -> list[list[str]]:
    """A text capture split into blocks of lines: each line of a table block is one cell."""
    return [block.split("\n") for block in data.decode("utf-8").split("\n\n")]


def parse_all(pages: list[Path], extract) -> int:
    """Read and extract every page; returns the tables (or text blocks) found."""
    return sum(len(extract(path.read_bytes())) for path in pages)


def read_rows(truth: Path) -> int:
    """DuckDB reading the finished rows from Parquet into a table: the load stage's ceiling."""
    connection = duckdb.connect()
    connection.execute(f"CREATE TABLE rows AS SELECT * FROM read_parquet('{truth}')")
    count = connection.execute("SELECT count(*) FROM rows").fetchone()[0]
    connection.close()
    return count
