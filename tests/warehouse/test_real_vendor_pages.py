"""Real benchmark pages of eight publishers (../shared/real-pages), ingested as a user would:
the labeled cells come out right and the result cells load as measurements.

`labels.csv` holds hand-checked cells (value in the canonical unit, metric, accelerator, chip
count, precision) and `expected_tables.csv` every table's count of result cells; both are read
as they are. The pages stay in ../shared and are never copied into the project."""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main
from perfledger.schemas.folding import clean_text

REAL_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages"
LABELED_RIGHT = 0.95
RESULT_CELLS_LOADED = 0.90


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> str:
    if not (REAL_PAGES / "pages").is_dir():
        pytest.skip(
            f"../shared/real-pages is not here ({REAL_PAGES} holds no pages/ folder); "
            "these tests read the real vendor pages from there"
        )
    folder = str(tmp_path_factory.mktemp("real-pages") / "warehouse")
    run("ingest", str(REAL_PAGES / "pages"), "--warehouse", folder, "--quiet")
    return folder


def query(warehouse: str, sql: str) -> list[dict]:
    return json.loads(run("sql", sql, "--format", "json", "--warehouse", warehouse))


def document(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def folded(text: str | None) -> str:
    return re.sub(r"[^a-z0-9%]", "", clean_text(text or "").lower())


@pytest.fixture(scope="module")
def measurements(warehouse) -> list[dict]:
    return query(
        warehouse,
        "SELECT source_url, table_index, row_number, column_name, raw_value, "
        "metric, value, unit, accelerator, accelerator_count, "
        "activation_dtype, label_sources FROM measurements",
    )


@pytest.fixture(scope="module")
def row_cells(warehouse) -> dict[tuple, set[str]]:
    cells = query(
        warehouse,
        "SELECT d.source_url, c.table_index, c.row_number, c.raw_value "
        "FROM lake.main.cells AS c JOIN lake.main.documents AS d "
        "USING (document_sha256) WHERE c.row_number > 0",
    )
    found: dict[tuple, set[str]] = {}
    for cell in cells:
        key = (document(cell["source_url"]), cell["table_index"], cell["row_number"])
        found.setdefault(key, set()).add(folded(cell["raw_value"]))
    return found


def read_csv(name: str) -> list[dict]:
    with (REAL_PAGES / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def matching(label: dict, measurements: list[dict], row_cells: dict) -> dict | None:
    """The measurement of a labeled cell: its page, table, column and text, in a row holding
    the label's row cells (several cells are joined by ' / ' in labels.csv)."""
    found = [
        m
        for m in measurements
        if document(m["source_url"]) == label["doc"]
        and m["table_index"] == int(label["table_index"])
        and folded(m["column_name"]) == folded(label["column_header"])
        and m["raw_value"].strip() == label["raw_cell"].strip()
    ]
    parts = {folded(part) for part in label["row_label"].split(" / ")}
    in_row = [
        m
        for m in found
        if parts <= row_cells.get((label["doc"], m["table_index"], m["row_number"]), set())
    ] or found
    same_value = [
        m for m in in_row if math.isclose(m["value"], float(label["value"]), rel_tol=1e-6)
    ]
    return (same_value or in_row or [None])[0]


def wrong_fields(label: dict, found: dict) -> list[str]:
    wrong = []
    if not math.isclose(found["value"], float(label["value"]), rel_tol=1e-6):
        wrong.append(f"value {found['value']}")
    for name, ours, theirs in (
        ("unit", found["unit"], label["unit"]),
        ("metric", found["metric"], label["metric"]),
        ("accelerator", folded(found["accelerator"]), folded(label["accelerator"])),
        ("count", str(found["accelerator_count"] or ""), label["accelerator_count"]),
        ("precision", found["activation_dtype"] or "", label["precision"]),
    ):
        # A count left unlabeled is not checked, as the corpus's own scorer
        # (../shared/tools/score_pages.py) does: the labels leave the chips of a TPU slice
        # ("v5p-128", 64 chips) unstated.
        if (ours or "") != theirs and (theirs or name != "count"):
            wrong.append(f"{name} {ours!r} (labeled {theirs!r})")
    return wrong


def test_labeled_cells_come_out_right(measurements, row_cells):
    labels = read_csv("labels.csv")
    failures = []
    for label in labels:
        found = matching(label, measurements, row_cells)
        problem = ["not loaded"] if found is None else wrong_fields(label, found)
        if problem:
            failures.append(
                f"{label['doc']}#{label['table_index']} [{label['row_label']}] "
                f"[{label['column_header']}] {label['raw_cell']!r}: {problem}"
            )
    right = len(labels) - len(failures)
    assert right >= LABELED_RIGHT * len(labels), "\n".join(failures)


def test_result_cells_load_as_measurements(measurements):
    loaded: dict[tuple, int] = {}
    for m in measurements:  # a cell of two values counts twice, as expected_tables.csv says
        key = (document(m["source_url"]), m["table_index"])
        loaded[key] = loaded.get(key, 0) + 1
    expected = read_csv("expected_tables.csv")
    total = sum(int(table["result_cells"]) for table in expected)
    found = sum(
        min(loaded.get((table["doc"], int(table["table_index"])), 0), int(table["result_cells"]))
        for table in expected
    )
    assert found >= RESULT_CELLS_LOADED * total, f"{found} of {total} result cells loaded"
    # A table holding no result gives none: a spec sheet or a command list loads nothing.
    given = [
        f"{t['doc']}#{t['table_index']}"
        for t in expected
        if t["result_cells"] == "0" and loaded.get((t["doc"], int(t["table_index"])))
    ]
    assert not given


def test_named_values_of_four_vendors(measurements):
    def one(doc: str, table: int, column: str, raw: str) -> dict:
        found = [
            m
            for m in measurements
            if document(m["source_url"]) == doc
            and m["table_index"] == table
            and m["column_name"] == column
            and m["raw_value"] == raw
        ]
        assert len(found) == 1, found
        return found[0]

    # NVIDIA: the platform in the heading, the GPU count in the row, the unit in the cell.
    ttt = one("nvidia_dle_tf2_efficientnet_v1_README.md", 1, "Time to train - TF32", "19.5hrs")
    assert (ttt["value"], ttt["unit"], ttt["accelerator"], ttt["accelerator_count"]) == (
        70200.0,
        "s",
        "A100",
        8,
    )
    assert "accelerator=heading" in ttt["label_sources"]
    # AMD: the chip named once, in the setup's prose three sections above the table.
    amd = one("amd_rocm_blogs_int8_quantization_mi210_README.md", 0, "Tokens/Second", "112.45")
    assert (amd["accelerator"], amd["accelerator_count"], amd["activation_dtype"]) == (
        "MI210",
        1,
        "int8",
    )
    # Intel: a table with its metrics in its first column, read turned around.
    intel = one("intel_itex_v2.15.0.1_gpu_performance.html", 2, "Pre-training Phase2", "20.40")
    assert (intel["metric"], intel["value"], intel["accelerator"], intel["accelerator_count"]) == (
        "time_to_train",
        73440.0,
        "Max 1550",
        4,
    )
    # MLCommons: the unit in the cell beside the value, the system in the page's title bar.
    mlperf = one(
        "mlcommons_inference_v4.1_nvidia_dgx_h100_summary.html",
        8,
        "Offline / Performance",
        "595658.0",
    )
    assert (
        mlperf["metric"],
        mlperf["unit"],
        mlperf["accelerator"],
        mlperf["accelerator_count"],
    ) == ("throughput", "items/s", "H100", 8)
