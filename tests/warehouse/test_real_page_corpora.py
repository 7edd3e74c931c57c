"""Both real-page corpora, ingested as a user would: ../shared/real-pages (8 publishers, the
pages the reading was first developed on) and ../shared/real-pages-2 (26 other publishers:
edge boards, phones, LLM serving, a page in Chinese).

Each corpus's `labels.csv` holds hand-checked cells and `expected_tables.csv` every table's
count of result cells; both are read as they are. A labeled cell is right when a value of its
page and table reads as it in the canonical unit (within 0.5%) with the labeled metric, and
the accelerator, chip count and precision agree wherever the label states them (a label left
empty says the page does not state it: LABELS.md). The pages stay in ../shared."""

from __future__ import annotations

import csv
import json
import math
import re
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfledger.flows.cli import main

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
LABELED_RIGHT = 0.95
RESULT_CELLS_LOADED = 0.90
VALUE_TOLERANCE = 0.005


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module", params=["real-pages", "real-pages-2"])
def corpus(request, tmp_path_factory) -> tuple[Path, list[dict]]:
    folder = SHARED / request.param
    if not (folder / "pages").is_dir():
        pytest.skip(f"{folder} holds no pages/ folder; these tests read the real pages there")
    warehouse = str(tmp_path_factory.mktemp(request.param) / "warehouse")
    run("ingest", str(folder / "pages"), "--warehouse", warehouse, "--quiet")
    measurements = json.loads(
        run(
            "sql",
            "SELECT source_url, table_index, metric, value, accelerator, accelerator_count, "
            "activation_dtype, precision FROM measurements",
            "--format",
            "json",
            "--warehouse",
            warehouse,
        )
    )
    return folder, measurements


def read_csv(folder: Path, name: str) -> list[dict]:
    with (folder / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def document(url: str) -> str:
    return url.rsplit("/", 1)[-1]


def squashed(text) -> str:
    return re.sub(r"[\s_.-]+", "", str(text or "").lower())


def agrees(label: dict, found: dict) -> bool:
    if found["metric"] != label["metric"]:
        return False
    if label["accelerator"] and squashed(found["accelerator"]) != squashed(label["accelerator"]):
        return False
    if (
        label["accelerator_count"]
        and str(found["accelerator_count"] or "") != label["accelerator_count"]
    ):
        return False
    if label["precision"]:
        ours = (found["activation_dtype"] or found["precision"] or "").lower()
        if ours != label["precision"] and not (label["precision"] == "mixed" and ours == "fp16"):
            return False
    return True


def test_labeled_cells_come_out_right(corpus):
    folder, measurements = corpus
    by_table: dict[tuple, list[dict]] = {}
    for found in measurements:
        by_table.setdefault((document(found["source_url"]), found["table_index"]), []).append(found)
    labels = read_csv(folder, "labels.csv")
    wrong = []
    for label in labels:
        value = float(label["value"])
        candidates = [
            found
            for found in by_table.get((label["doc"], int(label["table_index"])), [])
            if math.isclose(found["value"], value, rel_tol=VALUE_TOLERANCE, abs_tol=1e-9)
        ]
        if not any(agrees(label, found) for found in candidates):
            wrong.append(
                f"{label['doc']}#{label['table_index']} [{label['row_label']}] "
                f"[{label['column_header']}] {label['raw_cell']!r}: "
                f"{'loaded as ' + str(candidates[:1]) if candidates else 'not loaded'}"
            )
    right = len(labels) - len(wrong)
    assert right >= LABELED_RIGHT * len(labels), f"{right} of {len(labels)} right:\n" + "\n".join(
        wrong
    )


def test_result_cells_load_as_measurements(corpus):
    folder, measurements = corpus
    loaded: dict[tuple, int] = {}
    for found in measurements:  # a cell of two values counts twice, as the counts do
        key = (document(found["source_url"]), found["table_index"])
        loaded[key] = loaded.get(key, 0) + 1
    expected = read_csv(folder, "expected_tables.csv")
    total = sum(int(table["result_cells"]) for table in expected)
    found = sum(
        min(loaded.get((table["doc"], int(table["table_index"])), 0), int(table["result_cells"]))
        for table in expected
    )
    assert found >= RESULT_CELLS_LOADED * total, f"{found} of {total} result cells loaded"


def test_named_values_of_publishers_first_read_here():
    """A few values of ../shared/real-pages-2 as they must load, one per kind of reading."""
    folder = SHARED / "real-pages-2" / "pages"
    if not folder.is_dir():
        pytest.skip(f"{folder} is not here")
    pages = (
        "intel_openvino_docs_model_accuracy_int8_fp32.rst",
        "paddleclas_deploy_slim_act_README.md",
        "deepseek_deepep_README.md",
        "microsoft_deepspeed_chat_blog_README.md",
    )
    with tempfile.TemporaryDirectory() as scratch:
        warehouse = str(Path(scratch) / "warehouse")
        run("ingest", *(str(folder / page) for page in pages), "--warehouse", warehouse, "--quiet")
        rows = json.loads(
            run(
                "sql",
                "SELECT source_url, table_index, column_name, raw_value, value, accelerator, "
                "accelerator_count, activation_dtype, label_sources FROM measurements",
                "--format",
                "json",
                "--warehouse",
                warehouse,
            )
        )

    def one(page: str, table: int, column: str, raw: str) -> dict:
        found = [
            row
            for row in rows
            if document(row["source_url"]) == page
            and row["table_index"] == table
            and row["column_name"] == column
            and row["raw_value"] == raw
        ]
        assert len(found) == 1, found
        return found[0]

    # OpenVINO: "C, INT8" resolved through the page's list "C - Intel® Xeon 8480+ ...".
    legend = one(pages[0], 0, "C, INT8", "-0.18%")
    assert (legend["accelerator"], legend["activation_dtype"]) == ("Xeon 8480+", "int8")
    # PaddleClas: "GPU 耗时(ms)" takes the GPU of the environments listed under the table.
    gpu = one(pages[1], 0, "GPU 耗时(ms)", "2.4")
    assert (gpu["value"], gpu["accelerator"], gpu["accelerator_count"]) == (2.4, "V100", 1)
    cpu = one(pages[1], 0, "CPU 耗时(ms)", "27.2")
    assert cpu["accelerator"] == "Xeon 6271C"
    # DeepEP: "FP8 dispatching and BF16 combining"; the count from the "#EP" column.
    combine = [
        row
        for row in rows
        if document(row["source_url"]) == pages[2]
        and row["table_index"] == 1
        and row["raw_value"] == "114 us"
    ][0]
    assert (combine["value"], combine["activation_dtype"], combine["accelerator_count"]) == (
        0.114,
        "bf16",
        8,
    )
    # DeepSpeed: the caption under table 6 ("on a single commodity NVIDIA A6000 GPU").
    a6000 = one(pages[3], 5, "Step 1", "2900 secs")
    assert (a6000["accelerator"], a6000["accelerator_count"]) == ("A6000", 1)
    assert "accelerator=caption" in a6000["label_sources"]
