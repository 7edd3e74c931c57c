"""Every number of every results table of both real-page corpora (../shared/real-pages and
../shared/real-pages-2), ingested as a user would, ends as a measurement or as a quarantine
row that says why: nothing is lost without a trace. And every table the corpora's
expected_tables.csv lists is found, under its own index.

expected_tables.csv counts, per table, its result cells, a cell of two values counting twice.
A table's numbers are accounted for by its measurements and by its quarantine rows, each of
which holds back every number of the text it keeps (a cell of two values set apart whole holds
back both; a row whose cells could not be placed holds back the row). A table where the two
come short of its result cells has lost values silently: the test names it with its counts.
Cell by cell, every cell labels.csv names is a measurement or a quarantine row too. The pages
stay in ../shared and are never copied into the project."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main
from perfledger.schemas.folding import clean_text
from perfledger.sources.layouts.markdown_blocks import front_matter, hidden_lines
from perfledger.sources.layouts.page_text import split_lines

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPORA = ("real-pages", "real-pages-2")
# A number as a page writes it ("1,671", "0.8824", "2.50E-01", "1310k"): each is one value.
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def document(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def read_csv(corpus: str, name: str) -> list[dict]:
    path = SHARED / corpus / name
    if not path.is_file():
        pytest.skip(f"../shared/{corpus} is not here ({path} is missing)")
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> str:
    missing = [name for name in CORPORA if not (SHARED / name / "pages").is_dir()]
    if missing:
        pytest.skip(
            f"../shared/{missing[0]} is not here ({SHARED / missing[0]} holds no "
            "pages/ folder); these tests read the real pages from there"
        )
    folder = str(tmp_path_factory.mktemp("accounting") / "warehouse")
    run(
        "ingest",
        *(str(SHARED / name / "pages") for name in CORPORA),
        "--warehouse",
        folder,
        "--quiet",
    )
    return folder


def query(warehouse: str, sql: str) -> list[dict]:
    return json.loads(run("sql", sql, "--format", "json", "--warehouse", warehouse))


@pytest.fixture(scope="module")
def expected() -> list[dict]:
    return [
        {**row, "corpus": corpus}
        for corpus in CORPORA
        for row in read_csv(corpus, "expected_tables.csv")
    ]


@pytest.fixture(scope="module")
def loaded(warehouse) -> Counter:
    rows = query(warehouse, "SELECT source_url, table_index FROM measurements")
    return Counter((document(row["source_url"]), row["table_index"]) for row in rows)


@pytest.fixture(scope="module")
def held_back(warehouse) -> Counter:
    """Per table, the numbers its quarantine rows hold back, each with its reason."""
    rows = query(
        warehouse,
        "SELECT source_url, table_index, raw_value, reason FROM quarantine "
        "WHERE table_index IS NOT NULL",
    )
    found: Counter = Counter()
    for row in rows:
        assert row["reason"], row  # a quarantine row always says why
        numbers = len(_NUMBER.findall(row["raw_value"] or ""))
        found[(document(row["source_url"]), row["table_index"])] += max(numbers, 1)
    return found


def test_every_result_number_is_a_measurement_or_a_quarantine_row(expected, loaded, held_back):
    results = [table for table in expected if int(table["result_cells"]) > 0]
    assert len(results) > 100
    lost = []
    for table in results:
        key = (table["doc"], int(table["table_index"]))
        cells = int(table["result_cells"])
        if loaded[key] + held_back[key] < cells:
            lost.append(
                f"{table['corpus']}/{key[0]} table {key[1]}: {cells} result cells, "
                f"{loaded[key]} loaded, {held_back[key]} held back in quarantine, "
                f"{cells - loaded[key] - held_back[key]} lost without a trace"
            )
    assert not lost, "\n".join(lost)


def folded(text: str | None) -> str:
    return re.sub(r"[^a-z0-9%]", "", clean_text(text or "").lower())


def test_every_labeled_cell_is_a_measurement_or_a_quarantine_row(warehouse):
    """Cell by cell, on the cells labels.csv names: a column of results read as settings
    (counts, names) loses its numbers without a trace, which a table's count alone may not
    show when other numbers of the table are set apart."""
    rows = query(
        warehouse,
        "SELECT source_url, table_index, column_name, raw_value "
        "FROM measurements UNION ALL SELECT source_url, table_index, "
        "column_name, raw_value FROM quarantine WHERE table_index IS NOT NULL",
    )
    accounted: dict[tuple, set[str]] = {}
    for row in rows:
        key = (document(row["source_url"]), row["table_index"], folded(row["raw_value"]))
        accounted.setdefault(key, set()).add(folded(row["column_name"]))
    lost = []
    for corpus in CORPORA:
        for label in read_csv(corpus, "labels.csv"):
            columns = accounted.get(
                (label["doc"], int(label["table_index"]), folded(label["raw_cell"])), set()
            )
            # labels.csv joins header levels with ' / ' as the layouts do; the last level
            # alone names the column where a page's upper levels are read otherwise.
            header = label["column_header"]
            if not columns & {folded(header), folded(header.split(" / ")[-1])}:
                lost.append(
                    f"{corpus}/{label['doc']} table {label['table_index']} "
                    f"[{label['row_label']}] [{header}] {label['raw_cell']!r}"
                )
    assert not lost, f"{len(lost)} labeled cells lost without a trace:\n" + "\n".join(lost)


@cache
def code_lines(name: str) -> frozenset[int]:
    """The 1-based lines of fenced code on a Markdown page of either corpus."""
    paths = [SHARED / corpus / "pages" / name for corpus in CORPORA]
    path = next((path for path in paths if path.is_file()), None)
    if path is None or path.suffix != ".md":
        return frozenset()
    lines = split_lines(path.read_text(encoding="utf-8"))
    return frozenset(index + 1 for index in hidden_lines(lines, front_matter(lines)[1]))


def test_every_table_of_every_page_is_found_under_its_own_index(warehouse, expected):
    rows = query(
        warehouse,
        "SELECT d.source_url, c.table_index, min(c.line_number) AS line "
        "FROM lake.main.cells AS c JOIN lake.main.documents AS d "
        "USING (document_sha256) GROUP BY ALL",
    )
    found: dict[str, set[int]] = {}
    for row in rows:
        name = document(row["source_url"])
        # A tool's output read from fenced code (a box table, a serving benchmark's summary)
        # is beyond expected_tables.csv, which counts only tables written as tables.
        if row["line"] not in code_lines(name):
            found.setdefault(name, set()).add(row["table_index"])
    wrong = []
    for name in sorted({table["doc"] for table in expected}):
        listed = [table for table in expected if table["doc"] == name]
        every = {int(table["table_index"]) for table in listed}
        # A table laying out the page (MLCommons' outer tables) may give no cells.
        data = {int(table["table_index"]) for table in listed if table["kind"] != "layout"}
        got = found.get(name, set())
        if not data <= got <= every:
            wrong.append(
                f"{name}: tables {sorted(got)} found, {sorted(data)} expected "
                f"(of {len(every)} tables)"
            )
    assert not wrong, "\n".join(wrong)


def test_tables_whose_header_is_taller_than_its_markup_load_their_values(warehouse):
    rows = query(
        warehouse,
        "SELECT source_url, table_index, column_name, raw_value, metric, "
        "value, unit FROM measurements WHERE source_url LIKE '%vitis_ai%' "
        "OR source_url LIKE '%tensorrt_demo_deberta%'",
    )
    found = {
        (document(row["source_url"]), row["table_index"], row["column_name"], row["raw_value"]): (
            row["metric"],
            row["value"],
            row["unit"],
        )
        for row in rows
    }
    # Board, board setting and column name in three rows of plain cells of a sheet
    assert found[
        (
            "amd_xilinx_vitis_ai_3.5_model_zoo_github.htm",
            0,
            "V70 / 4PE DPUCVDX8H @350MHz Gen4x8 / E2E throughput (fps) Multi Thread",
            "2173.85",
        )
    ] == ("throughput", 2173.85, "items/s")
    # the GPU in the row under a Markdown header, the metric and unit over the row labels
    metric, value, unit = found[
        (
            "nvidia_tensorrt_demo_deberta_README.md",
            0,
            "TensorRT 8.4 GA Update 2 (8.4.3), CUDA 11.6 / T4",
            "6.2",
        )
    ]
    assert (metric, unit) == ("latency", "ms") and value == pytest.approx(6.2)
