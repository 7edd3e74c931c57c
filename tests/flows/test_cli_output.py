"""What `perfledger` prints, trusted to the digit: numbers, cut cells, refusals and hints."""

from __future__ import annotations

import ipaddress
import json
import shutil
import subprocess
import sys
from datetime import UTC
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from perfledger.flows.cli import _summary_text, main
from perfledger.flows.cli_common import example_query
from perfledger.flows.output import ELLIPSIS, render
from perfledger.flows.pipeline import IngestSummary
from perfledger.sources.fetch import address_refusal
from perfledger.warehouse import lake, query
from perfledger.warehouse.cell_text import number_text
from perfledger.warehouse.report import table_cell


def run(*args: str, expect: int = 0) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == expect, result.output
    return result.output


def sql(warehouse: Path, text: str, *options: str, expect: int = 0) -> str:
    return run("sql", text, "--warehouse", str(warehouse), *options, expect=expect)


# --- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3521863.0, "3521863"),
        (93083.8125, "93083.8125"),
        (0.1, "0.1"),
        (-2.5, "-2.5"),
        (0.0, "0"),
        (0.00001, "0.00001"),
        (123456789012345.67, "123456789012345.67"),
        (9999999999999998.0, "9999999999999998"),
        (1e16, "1e+16"),
        (1.5e-7, "1.5e-07"),
        (float("inf"), "inf"),
        (float("nan"), "nan"),
        (12345678, "12345678"),
    ],
)
def test_a_number_prints_with_every_digit_and_no_exponent_a_person_must_decode(value, text):
    assert number_text(value) == text


@given(st.floats(allow_nan=False))
def test_every_float_prints_as_text_that_reads_back_as_the_same_float(value):
    text = number_text(value)
    assert float(text) == value
    if value == 0 or 1e-6 <= abs(value) < 1e16:
        assert "e" not in text


def test_sql_prints_the_stored_digits_in_table_and_csv(demo_warehouse):
    question = (
        "SELECT 3521863.0::DOUBLE AS big, 93083.8125::DOUBLE AS fine, "
        "123456789012345.678::DECIMAL(18,3) AS exact"
    )
    table = sql(demo_warehouse, question).splitlines()
    assert table[2].split() == ["3521863", "93083.8125", "123456789012345.678"]
    csv = sql(demo_warehouse, question, "--format", "csv").splitlines()
    assert csv == ["big,fine,exact", "3521863,93083.8125,123456789012345.678"]


def test_the_reports_tables_print_the_same_digits():
    assert table_cell(3521863.0) == '<td class="number">3521863</td>'
    assert table_cell(93083.8125) == '<td class="number">93083.8125</td>'
    assert table_cell(12345678) == '<td class="number">12345678</td>'


# --- cut cells -----------------------------------------------------------------------------


def test_a_cut_cell_ends_in_an_ellipsis_and_keeps_the_width():
    lines = render(["text"], [["x" * 60], ["y" * 48]], "table").splitlines()
    assert lines[2] == "x" * 47 + ELLIPSIS
    assert lines[3] == "y" * 48  # exactly as wide as the limit: whole, no ellipsis


def test_sql_max_width_sets_the_cut_and_zero_never_cuts(demo_warehouse):
    question = "SELECT repeat('x', 60) AS text"
    assert sql(demo_warehouse, question, "--max-width", "10").splitlines()[2] == (
        "x" * 9 + ELLIPSIS
    )
    assert sql(demo_warehouse, question, "--max-width", "0").splitlines()[2] == "x" * 60
    assert (
        sql(demo_warehouse, question, "--max-width", "5", "--format", "csv").splitlines()[1]
        == "x" * 60
    )


# --- one statement -------------------------------------------------------------------------


def test_sql_with_several_statements_is_refused_not_half_answered(demo_warehouse, tmp_path):
    output = sql(demo_warehouse, "SELECT 1 AS a; SELECT 2 AS b", expect=2)
    assert "error: `perfledger sql` runs one statement, and the SQL holds 2" in output
    assert "b\n" not in output
    # A trailing semicolon is still one statement.
    assert sql(demo_warehouse, "SELECT 7 AS a;").splitlines()[2].strip() == "7"
    # A write hidden behind a read is refused too, and nothing is written.
    outside = tmp_path / "copied.csv"
    sql(demo_warehouse, f"SELECT 1; COPY (SELECT 1) TO '{outside}'", expect=2)
    assert not outside.exists()


# --- version -------------------------------------------------------------------------------


def test_version_prints_the_installed_distributions_version():
    assert run("--version") == f"perfledger {metadata.version('perfledger')}\n"


def test_the_installed_command_prints_its_version():
    script = shutil.which("perfledger", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the perfledger console script is not installed beside this Python")
    done = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"perfledger {metadata.version('perfledger')}\n"


# --- export and report options -------------------------------------------------------------


def test_export_prints_its_manifest_with_print_json_and_still_with_json(demo_warehouse, tmp_path):
    target = str(tmp_path / "out")
    common = [target, "--format", "csv", "--warehouse", str(demo_warehouse)]
    result = CliRunner().invoke(main, ["export", *common, "--print", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["views"]["measurements"]["rows"] == 358
    assert "deprecated" not in result.stderr
    result = CliRunner().invoke(main, ["export", *common, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["views"]["measurements"]["rows"] == 358
    assert "warning: --json is deprecated; use --print json" in result.stderr
    result = CliRunner().invoke(main, ["export", *common])
    assert result.stdout.startswith("exported ")


def test_report_format_says_it_formats_the_printed_line_not_the_page():
    assert "the page itself is always HTML" in " ".join(run("report", "--help").split())


# --- the hint after ingest -----------------------------------------------------------------


def _summary(*statuses: str) -> IngestSummary:
    documents = [
        SimpleNamespace(
            status=status, claims_found=0, claims_rejected=0, message=f"{status} document"
        )
        for status in statuses
    ]
    counts = SimpleNamespace(
        values_added=1, values_changed=0, values_removed=0, values_quarantined=0
    )
    run_result = SimpleNamespace(documents=documents, counts=counts, tables_found=1, snapshot_id=11)
    return IngestSummary(Path("wh"), [run_result])


@pytest.mark.parametrize(
    ("statuses", "hinted"),
    [
        (("new",), True),
        (("new", "unchanged"), True),
        (("unchanged",), False),  # loaded nothing
        (("new", "failed"), False),  # a document failed entirely
        (("failed",), False),
    ],
)
def test_the_sql_hint_follows_only_a_run_that_loaded_something_and_lost_nothing(statuses, hinted):
    assert ("perfledger sql" in _summary_text(_summary(*statuses))) is hinted


def test_the_suggested_query_is_shown_whole_and_answers_on_the_demo(demo_warehouse):
    """The hint quotes warehouse/queries/example.sql on one line; run as shown, it finds the
    Bow Pod16 ResNet-50 training throughputs of the demo's results pages."""
    hinted = _summary_text(_summary("new")).splitlines()[-1]
    suggested = hinted.split('perfledger sql "', 1)[1].removesuffix('"')
    assert suggested == example_query() and "\n" not in suggested
    columns, rows = query.run_sql(demo_warehouse, suggested)
    values = {row[columns.index("value")] for row in rows}
    assert {44059.0, 38036.0} <= values


# --- loopback ------------------------------------------------------------------------------


def test_a_refused_loopback_or_private_address_names_add_source_local():
    for address in ("127.0.0.1", "192.168.1.5", "::1"):
        refusal = address_refusal(ipaddress.ip_address(address), allow_local=False)
        assert "perfledger add-source URL --local" in refusal, refusal
    # --local opens no link-local address (cloud metadata), so it is not offered there.
    refusal = address_refusal(ipaddress.ip_address("169.254.169.254"), allow_local=False)
    assert "--local" not in refusal


def test_a_failed_ingest_of_a_loopback_url_says_what_to_do_and_offers_no_query(tmp_path):
    output = run(
        "ingest", "http://127.0.0.1:9/results", "--warehouse", str(tmp_path / "wh"), expect=1
    )
    assert "blocked_address" in output
    assert "perfledger add-source URL --local" in output
    assert "perfledger sql" not in output


# --- as of ---------------------------------------------------------------------------------


def test_as_of_before_the_first_snapshot_says_it_means_ingest_time(demo_warehouse):
    with lake.connect(demo_warehouse, read_only=True, views=False) as connection:
        first = query.ingest_snapshot_ids(connection)[0]
        written = (
            connection.execute(
                "SELECT snapshot_time FROM lake.snapshots() WHERE snapshot_id = ?", [first]
            )
            .fetchone()[0]
            .astimezone(UTC)
            .isoformat()
        )
    output = " ".join(sql(demo_warehouse, "SELECT 1", "--as-of", "2001-01-01", expect=2).split())
    assert "--as-of is a time of ingest" in output
    assert f"the first snapshot ({first}) was written at {written}" in output
    assert "WHERE captured_at <= '2001-01-01T00:00:00Z'" in output
