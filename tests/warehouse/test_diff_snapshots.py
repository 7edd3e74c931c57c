"""What runs report: `diff` read at a glance, `snapshots` listing runs, no snapshot for a
run that changed nothing, and counts that agree between a run's lines, its summary and
`perfledger quarantine`."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from perfledger.flows import pipeline
from perfledger.flows.cli import main
from perfledger.sources import archive
from perfledger.warehouse import lake, query
from tests.conftest import JULY_2023
from tests.warehouse.test_history import SOURCE, _edited_version

CLAIMS_PAGE = "\n".join(
    [
        "IPU against GPU",
        "",
        "The IPU-M2000 delivers 2.6x higher throughput than the A100 on ResNet-50.",
        "",
        "Training results",
        "",
        "Model",
        "Platform",
        "Precision",
        "Throughput (items/sec)",
        "ResNet-50 v1.5",
        "IPU-M2000",
        "16.16",
        "7,864",
        "ResNet-50 v1.5",
        "A100",
        "16.16",
        "2,500",
        "",
    ]
)


def cli(*args: str, code: int = 0):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    return result


def sql(warehouse, text: str) -> list[tuple]:
    return query.run_sql(warehouse, text)[1]


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """Three versions of the results page: an edit, then new bytes with the same figures;
    then the last one read again, which changes nothing."""
    folder = tmp_path_factory.mktemp("history")
    warehouse = folder / "warehouse"
    original = JULY_2023.read_text(encoding="utf-8")
    edited = _edited_version(original)
    pages = {
        "v1.txt": original,
        "v2.txt": edited,
        "v3.txt": edited.replace("tr?id=999999999999999", "tr?id=1"),
    }
    snapshots = []
    for (name, text), month in zip(pages.items(), ("07-31", "08-31", "09-30"), strict=True):
        (folder / name).write_text(text, encoding="utf-8")
        summary = pipeline.ingest(
            [str(folder / name)],
            warehouse,
            source_name=SOURCE,
            captured_at=f"2023-{month}T00:00:00Z",
        )
        snapshots.append(summary.runs[0].snapshot_id)
    listed_before = query.snapshots(warehouse)[1]
    again = cli(
        "ingest",
        str(folder / "v3.txt"),
        "--source",
        SOURCE,
        "--captured-at",
        "2023-10-31T00:00:00Z",
        "--warehouse",
        str(warehouse),
    )
    return warehouse, snapshots, listed_before, again, folder


def test_diff_starts_with_the_counts_per_source_and_metric_then_rows_with_units(history):
    warehouse, (first, second, _third), *_ = history
    lines = cli("diff", "--warehouse", str(warehouse)).output.splitlines()
    # The default: the last run that changed a value (not the third, which changed none),
    # against the run before it.
    assert lines[:3] == [
        f"changes from snapshot {first} to {second}: 1 added, 1 changed, 1 removed",
        f"  {SOURCE}  throughput  1 added, 1 changed, 1 removed",
        "",
    ]
    header = lines[3].split()
    assert header == [
        "change",
        "source",
        "model",
        "platform",
        "metric",
        "configuration",
        "old",
        "new",
    ]
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[5:8]]
    assert rows == [
        [
            "added",
            SOURCE,
            "ViT",
            "Bow Pod64",
            "throughput",
            "training, Fine-Tuning, PyTorch, ImageNet1k, batch 2,040, 16.16, SDK 3.3",
            "-",
            "30112 items/s",
        ],
        [
            "changed",
            SOURCE,
            "ResNet-50 v1.5",
            "Bow Pod16",
            "throughput",
            "training, TensorFlow1, ImageNet2012, batch 3,520, 16.16, SDK 3.0",
            "44059 items/s",
            "45100 items/s",
        ],
        [
            "removed",
            SOURCE,
            "Mini DALL-E",
            "Bow Pod64",
            "throughput",
            "training, PyTorch, COCO 2017, batch 24,576, 16.16, SDK 3.3",
            "6787 items/s",
            "-",
        ],
    ]
    assert lines[8] == "(3 rows)"


def test_diff_between_equal_snapshots_says_nothing_changed(history):
    warehouse, (first, *_), *_ = history
    output = cli("diff", str(first), str(first), "--warehouse", str(warehouse)).output
    assert output == f"no value changed from snapshot {first} to {first}\n"


def test_diff_as_csv_and_json_gives_every_column_of_every_row_whole(history):
    warehouse, (first, second, _third), *_ = history
    rows = json.loads(
        cli(
            "diff", str(first), str(second), "--format", "json", "--warehouse", str(warehouse)
        ).output
    )
    changed = next(row for row in rows if row["change"] == "changed")
    assert changed["row_identity"].endswith("|division=|metric=throughput")
    assert (changed["model"], changed["platform"], changed["metric"]) == (
        "ResNet-50 v1.5",
        "Bow Pod16",
        "throughput",
    )
    assert (
        changed["old_value"],
        changed["old_unit"],
        changed["new_value"],
        changed["new_unit"],
    ) == (44059.0, "items/s", 45100.0, "items/s")
    csv_lines = cli(
        "diff", str(first), str(second), "--format", "csv", "--warehouse", str(warehouse)
    ).output.splitlines()
    assert csv_lines[0].split(",") == list(changed)
    assert len(csv_lines) == 4
    assert any(changed["row_identity"] in line for line in csv_lines)


def test_diff_help_states_the_default_range_it_uses():
    text = " ".join(cli("diff", "--help").output.split())
    assert (
        "Default TO: the last run that changed any value; default FROM: the ingest run "
        "before TO" in text
    )
    assert "diff [OPTIONS] [FROM] [TO]" in text


def test_a_run_that_changed_nothing_writes_no_snapshot(history):
    warehouse, snapshots, listed_before, again, folder = history
    assert "documents read:      1 (0 new, 1 unchanged" in again.output
    assert "snapshots:           none" in again.output
    assert query.snapshots(warehouse)[1] == listed_before
    assert sql(warehouse, "SELECT count(*) FROM lake.main.runs") == [(3,)]
    # The run is recorded outside the catalog: the sightings log names the file it read.
    v3 = folder / "v3.txt"
    seen = archive.sightings(lake.archive_dir(warehouse), archive.sha256_of(v3.read_bytes()))
    assert [s["location"] for s in seen] == [str(v3), str(v3)]
    # A run that changed no value but read new bytes is recorded: the diff skips it.
    assert snapshots[2] > snapshots[1]


def test_snapshots_lists_the_runs_and_all_of_them_with_all(history):
    warehouse, snapshots, *_ = history
    result = cli("snapshots", "--format", "json", "--warehouse", str(warehouse))
    assert [row["snapshot_id"] for row in json.loads(result.stdout)] == snapshots
    everything = json.loads(
        cli("snapshots", "--all", "--format", "json", "--warehouse", str(warehouse)).stdout
    )
    assert everything[0]["snapshot_id"] == 0
    # A new warehouse's migrations are applied in one transaction, named in its message.
    messages = [row["commit_message"] or "" for row in everything]
    assert any(message.startswith("migrations 001_core_tables.sql to ") for message in messages)
    assert [row["snapshot_id"] for row in everything if row["run_id"]] == snapshots
    table = cli("snapshots", "--warehouse", str(warehouse))
    hidden = len(everything) - len(snapshots)
    assert (
        f"({hidden} snapshots of the warehouse's creation and schema migrations not "
        "shown: --all lists them)"
    ) in table.stderr


def test_a_run_that_changes_only_a_review_or_fails_is_still_recorded(tmp_path):
    page = tmp_path / "versus.txt"
    page.write_text(CLAIMS_PAGE, encoding="utf-8")
    warehouse = str(tmp_path / "wh")
    cli("ingest", str(page), "--warehouse", warehouse, "--quiet")
    (claim_id,) = sql(warehouse, "SELECT claim_id FROM claims")[0]
    cli("review-claim", claim_id, "accept", "--warehouse", warehouse)
    before = len(query.snapshots(warehouse)[1])

    applied = cli("ingest", str(page), "--warehouse", warehouse, "--quiet").output
    assert "snapshots:           none" not in applied
    assert sql(warehouse, "SELECT review_status FROM claims") == [("accepted",)]
    assert len(query.snapshots(warehouse)[1]) == before + 1
    # Once applied, the same review changes nothing: no snapshot.
    assert (
        "snapshots:           none"
        in cli("ingest", str(page), "--warehouse", warehouse, "--quiet").output
    )
    broken = tmp_path / "broken.html"
    broken.write_bytes(b"\x00\x01\x02PNG\x00binary")
    failed = cli(
        "ingest", str(page), str(broken), "--warehouse", warehouse, "--quiet", code=0
    ).output
    assert "snapshots:           none" not in failed
    assert len(query.snapshots(warehouse)[1]) == before + 2
    assert sql(warehouse, "SELECT count(*) FROM lake.main.document_errors") == [(1,)]


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    warehouse = tmp_path_factory.mktemp("counts") / "warehouse"
    result = cli("ingest", "--warehouse", str(warehouse))
    return warehouse, result


def _summary_number(output: str, label: str) -> int:
    (line,) = [line for line in output.splitlines() if line.startswith(label)]
    return int(line.split()[len(label.split())])


def test_the_document_lines_the_summary_and_quarantine_agree(demo_run):
    warehouse, result = demo_run
    lines = [line for line in result.stderr.splitlines() if ": new - " in line]
    assert len(lines) == 5
    values = sum(int(re.search(r"(\d+) values quarantined", line)[1]) for line in lines)
    sentences = sum(
        int(found[1])
        if (found := re.search(r"\((\d+) claim-like sentences? set aside\)", line))
        else 0
        for line in lines
    )
    summary = result.stdout
    assert _summary_number(summary, "values quarantined:") == values
    assert f"({sentences} claim-like sentences set aside)" in summary
    stages = dict(sql(warehouse, "SELECT stage = 'claims', count(*) FROM quarantine GROUP BY 1"))
    assert stages.get(False, 0) == values
    assert stages.get(True, 0) == sentences == 2
    listed = json.loads(cli("quarantine", "--format", "json", "--warehouse", str(warehouse)).stdout)
    assert len(listed) == values + sentences
    assert sql(warehouse, "SELECT sum(values_quarantined) FROM lake.main.runs") == [(values,)]


def test_the_snapshots_listed_are_the_ones_the_run_wrote(demo_run):
    warehouse, result = demo_run
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("snapshots:")]
    written = [int(number) for number in line.split(":")[1].split(",")]
    listed = json.loads(cli("snapshots", "--format", "json", "--warehouse", str(warehouse)).stdout)
    assert [row["snapshot_id"] for row in listed] == written
    assert all(row["run_id"] for row in listed)
