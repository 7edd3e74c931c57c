"""A file's source is its path below the folder ingested: two files are never one source.
Warehouses whose file sources were named by the stem of the file's name (`file-index` for
every index.html) keep them, and get back what two files sharing one lost."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from perfledger.flows import pipeline
from perfledger.warehouse import lake, query

REAL_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages" / "pages"
# Where each real page goes in the docs tree, and its values (every one of them loads when
# the page is ingested under its own name).
PLACED = {
    "a/index.html": ("intel_itex_v2.15.0.1_gpu_performance.html", 55),
    "b/index.html": ("mlcommons_inference_v4.1_nvidia_dgx_h100_summary.html", 14),
    "Results 2023.html": ("mlcommons_inference_v4.1_amd_8xmi300x_summary.html", 4),
    "results_2023.html": ("mlcommons_inference_v4.1_intel_xeon_gnr_summary.html", 14),
    "x.html": ("mlcommons_inference_v4.1_untetherai_r760_u6_slim_summary.html", 2),
    "x.md": ("nvidia_dle_mxnet_rn50v1.5_README.md", 471),
}
VALUES = "SELECT source_url, count(*) FROM measurements GROUP BY 1"


@pytest.fixture
def docs(tmp_path) -> Path:
    """A docs tree of real pages whose names collide by their stems; each file is one minute
    newer than the one listed before it."""
    if not REAL_PAGES.is_dir():
        pytest.skip(f"no real pages at {REAL_PAGES}")
    folder = tmp_path / "docs"
    for position, (place, (page, _)) in enumerate(PLACED.items()):
        target = folder / place
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REAL_PAGES / page, target)
        os.utime(target, (1_700_000_000 + 60 * position,) * 2)
    return folder


def values_by_file(warehouse: Path, docs: Path) -> dict[str, int]:
    prefix = docs.resolve().as_uri() + "/"
    return {
        url.removeprefix(prefix).replace("%20", " "): count
        for url, count in query.run_sql(warehouse, VALUES)[1]
    }


def test_files_whose_names_collide_are_sources_of_their_own(docs, tmp_path):
    warehouse = tmp_path / "warehouse"
    summary = pipeline.ingest([str(docs)], warehouse)
    assert (summary.count_status("new"), summary.total("values_removed")) == (6, 0)
    sources = query.run_sql(
        warehouse, "SELECT source_id, count(*) FROM measurements GROUP BY 1 ORDER BY 1"
    )[1]
    assert sources == sorted((f"file-{place}", count) for place, (_, count) in PLACED.items())
    assert values_by_file(warehouse, docs) == {place: count for place, (_, count) in PLACED.items()}
    again = pipeline.ingest([str(docs)], warehouse)
    assert again.count_status("unchanged") == 6 and not again.runs


def test_a_file_named_itself_is_its_name_and_odd_names_stay_one_to_one(tmp_path):
    from perfledger.sources.collect import file_source_id

    assert file_source_id("Results 2023.html") == "file-Results 2023.html"
    assert file_source_id("a/index.html") == "file-a/index.html"
    assert file_source_id("100%.html") == "file-100%25.html"
    assert file_source_id("line\nbreak.html") == "file-line%0Abreak.html"
    assert file_source_id(os.fsdecode(b"caf\xe9.html")) == "file-caf%E9.html"
    assert file_source_id("café.html") == "file-café.html"


def as_made_before_path_ids(warehouse: Path) -> None:
    """What a warehouse written before this version holds: migration 012 not applied."""
    connection = lake.connect(warehouse, views=False)
    try:
        connection.execute("DROP TABLE legacy_file_sources")
        connection.execute("DELETE FROM schema_migrations WHERE name = '015_file_source_ids.sql'")
    finally:
        connection.close()


def test_a_warehouse_of_stem_named_sources_is_migrated_losing_and_doubling_nothing(docs, tmp_path):
    """The warehouse as the earlier ids left it: a/index.html and b/index.html both source
    `file-index` (b, newer, current: a's values removed), and so `file-results-2023` and
    `file-x`. Migrated, the current files keep their sources; the others come back as
    sources of their own with their values; no value is held twice."""
    warehouse = tmp_path / "warehouse"
    for legacy, places in {
        "file-index": ["a/index.html", "b/index.html"],
        "file-results-2023": ["Results 2023.html", "results_2023.html"],
        "file-x": ["x.html", "x.md"],
    }.items():
        pipeline.ingest([str(docs / place) for place in places], warehouse, source_name=legacy)
    assert values_by_file(warehouse, docs) == {
        "b/index.html": 14,
        "results_2023.html": 14,
        "x.md": 471,
    }
    as_made_before_path_ids(warehouse)

    migrated = pipeline.ingest([str(docs)], warehouse)  # the connection applies 012 again

    statuses = sorted((d.source_id, d.status) for run in migrated.all_runs for d in run.documents)
    assert statuses == [
        ("file-Results 2023.html", "new"),
        ("file-a/index.html", "new"),
        ("file-index", "unchanged"),
        ("file-results-2023", "unchanged"),
        ("file-x", "unchanged"),
        ("file-x.html", "new"),
    ]
    assert (
        migrated.total("values_added"),
        migrated.total("values_removed"),
        migrated.total("values_changed"),
    ) == (55 + 4 + 2, 0, 0)
    assert values_by_file(warehouse, docs) == {place: count for place, (_, count) in PLACED.items()}
    sources = dict(
        query.run_sql(warehouse, "SELECT source_id, count(*) FROM measurements GROUP BY 1")[1]
    )
    assert sources == {
        "file-index": 14,
        "file-results-2023": 14,
        "file-x": 471,
        "file-a/index.html": 55,
        "file-Results 2023.html": 4,
        "file-x.html": 2,
    }
    again = pipeline.ingest([str(docs)], warehouse)
    assert again.count_status("unchanged") == 6 and not again.runs
