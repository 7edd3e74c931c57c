"""Hostile and broken documents never crash or hang a run, nor slip a wrong number into it."""

from __future__ import annotations

import csv
import io
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.sources.parse import parse_document
from perfledger.warehouse import query
from tests.reliability.hostile import (
    FORMULA,
    GOOD_PAGE,
    GOOD_VALUES,
    PASSWD,
    SQL_TEXT,
    Hostile,
    all_hostile,
    entity_expansion,
)

CASES = all_hostile()
GOOD_SOURCE = "file-good-page.txt"
RUN_SECONDS = 60  # every document here reads in well under a second; 60 s means a hang


@dataclass
class HostileRun:
    summary: pipeline.IngestSummary
    warehouse: Path
    seconds: float
    rows: dict[str, list[tuple]]  # what each query of OUTCOME_QUERIES returned


# One query per kind of outcome, every source at once (opening the warehouse costs more
# than any of these queries).
OUTCOME_QUERIES = {
    "values": "SELECT source_id, model, platform, value FROM measurements ORDER BY ALL",
    "counts": "SELECT source_id, model, accelerator_count FROM measurements ORDER BY ALL",
    "raw_cells": "SELECT DISTINCT raw_value FROM lake.main.cells",
    "checks": "SELECT source_id, stage || ':' || \"check\", count(*), bool_and(reason <> '') "
    "FROM quarantine GROUP BY ALL",
    "status": "SELECT source_id, status FROM lake.main.run_documents",
    "errors": "SELECT source_id, stage, reason FROM lake.main.document_errors",
    "tables": "SELECT table_name FROM information_schema.tables WHERE table_catalog = 'lake' "
    "AND table_schema = 'main' AND table_type = 'BASE TABLE'",
}


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory) -> HostileRun:
    """One run over the good page and every hostile document, as one would arrive."""
    folder = tmp_path_factory.mktemp("hostile")
    documents = folder / "documents"
    documents.mkdir()
    shutil.copy(GOOD_PAGE, documents / "good-page.txt")
    for case in CASES:
        (documents / case.filename).write_bytes(case.data)
    started = time.monotonic()
    summary = pipeline.ingest([str(documents)], folder / "warehouse")
    seconds = time.monotonic() - started
    connection = query.open_for_queries(folder / "warehouse")
    try:
        rows = {name: connection.execute(text).fetchall() for name, text in OUTCOME_QUERIES.items()}
        for (table,) in rows["tables"]:
            rows[table] = connection.execute(f"SELECT * FROM lake.main.{table}").fetchall()
    finally:
        connection.close()
    return HostileRun(summary, folder / "warehouse", seconds, rows)


def rows_of(run: HostileRun, name: str, source: str) -> list[tuple]:
    return [row[1:] for row in run.rows[name] if row[0] == source]


def source_of(case: Hostile) -> str:
    return "file-" + case.filename


def test_the_good_page_loads_every_value(hostile_run):
    assert len(rows_of(hostile_run, "values", GOOD_SOURCE)) == GOOD_VALUES
    assert rows_of(hostile_run, "checks", GOOD_SOURCE) == []


def test_invisible_characters_split_no_label_and_the_cells_keep_them(hostile_run):
    values = rows_of(hostile_run, "values", "file-unicode.txt")
    assert ("ResNet-50 v1.5", "Bow Pod16", 44059.0) in values
    raw = {raw for (raw,) in hostile_run.rows["raw_cells"]}
    assert {"ResNet-50\u200b v1.5", "Bow\u00a0Pod16"} <= raw


def test_a_platform_past_any_count_loads_its_value_with_no_count(hostile_run):
    counts = dict(rows_of(hostile_run, "counts", "file-huge-platforms.html"))
    assert counts == {"ResNet-50 v1.5": None, "BERT Large": None, "GPT-2 Medium": 16}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_a_hostile_document_ends_exactly_as_expected(hostile_run, case):
    source = source_of(case)
    assert rows_of(hostile_run, "values", source) == sorted(case.values)
    checks = rows_of(hostile_run, "checks", source)
    assert {check: n for check, n, _ in checks} == case.checks
    assert all(has_reason for _, _, has_reason in checks)
    status = rows_of(hostile_run, "status", source)
    errors = rows_of(hostile_run, "errors", source)
    if case.error is None:
        assert (status, errors) == ([("new",)], [])
    else:
        assert status == [("failed",)]
        assert [stage for stage, _ in errors] == ["parse"]
        assert case.error in errors[0][1]


def test_the_run_summary_counts_each_outcome(hostile_run):
    summary = hostile_run.summary
    quarantined = Counter()
    for case in CASES:
        quarantined.update(
            {check: n for check, n in case.checks.items() if not check.startswith("claims:")}
        )
    assert len(summary.runs) == 1 and summary.runs[0].snapshot_id is not None
    assert summary.documents_read == len(CASES) + 1
    assert sorted(failure.source_id for failure in summary.failures) == sorted(
        source_of(case) for case in CASES if case.error
    )
    assert summary.count_status("new") == len(CASES) + 1 - len(summary.failures)
    assert summary.total("values_added") == GOOD_VALUES + sum(len(c.values) for c in CASES)
    assert summary.total("values_quarantined") == sum(quarantined.values())
    for failure in summary.failures:
        assert failure.message  # the summary names what went wrong with each


def test_no_hostile_document_holds_the_run_up(hostile_run):
    assert hostile_run.seconds < RUN_SECONDS


def test_a_truncated_page_loads_its_complete_rows_only(hostile_run):
    """Every value the cut page yields is one the whole page gives too."""
    cut = rows_of(hostile_run, "values", "file-truncated-html.html")
    whole = set(rows_of(hostile_run, "values", GOOD_SOURCE))
    assert len(cut) == 10 and set(cut) <= whole


def test_external_entities_are_never_resolved(hostile_run):
    secret = PASSWD.read_text(encoding="utf-8").splitlines()[0]
    parsed, _layout = parse_document(entity_expansion().data, "application/xhtml+xml")
    texts = [
        *parsed.cells["raw_value"].to_list(),
        *(text for _, text in parsed.prose),
        parsed.metadata.title or "",
    ]
    assert not any(secret in text for text in texts)
    assert all(len(text) < 1_000 for text in texts)  # "&lol9;" stayed six characters
    tables = [name for (name,) in hostile_run.rows["tables"]]
    assert "cells" in tables and "measurement_values" in tables
    for table in tables:
        assert not any(secret in str(row) for row in hostile_run.rows[table]), table


def test_formula_and_sql_text_is_stored_verbatim_and_stays_inert(hostile_run, tmp_path):
    warehouse = hostile_run.warehouse
    assert len(hostile_run.rows["measurement_values"]) > GOOD_VALUES  # the table still exists
    raw = query.run_sql(
        warehouse,
        "SELECT raw_value FROM quarantine "
        "WHERE source_id = 'file-formulas.html' ORDER BY raw_value",
    )[1]
    assert raw == sorted([(FORMULA,), (SQL_TEXT,)])
    models = {model for model, _, _ in rows_of(hostile_run, "values", "file-formulas.html")}
    assert models == {FORMULA, "@SUM(1+1)", SQL_TEXT}

    output = run_cli(
        "sql",
        "SELECT model FROM measurements WHERE source_id = 'file-formulas.html' ORDER BY model",
        "--format",
        "csv",
        "--warehouse",
        str(warehouse),
    )
    assert sorted(row[0] for row in csv.reader(io.StringIO(output))) == sorted(
        ["model", "'" + FORMULA, "'@SUM(1+1)", SQL_TEXT]
    )

    run_cli("export", str(tmp_path / "export"), "--format", "csv", "--warehouse", str(warehouse))
    with (tmp_path / "export" / "measurements.csv").open(encoding="utf-8", newline="") as handle:
        exported = list(csv.DictReader(handle))
    cells = {row["model"] for row in exported} | {row["raw_value"] for row in exported}
    assert {"'" + FORMULA, "'@SUM(1+1)", SQL_TEXT} <= cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


def run_cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout
