"""A document the reading of tables fails on (a fault in perfledger, not in the page) fails
alone: the run loads every other document, names the failed one with the error, and keeps its
bytes in the archive so that `perfledger reprocess` reads it once the reading is mended."""

from __future__ import annotations

import shutil

from perfledger.flows import pipeline
from perfledger.sources import archive
from perfledger.warehouse import lake, query
from tests.reliability.hostile import GOOD_PAGE, GOOD_VALUES

FAULTY_TITLE = "Results the reading fails on"
FAULTY_PAGE = f"""# {FAULTY_TITLE}

| Model | Platform | Throughput (items/sec) |
| --- | --- | --- |
| BERT Large | Bow Pod16 | 25,135 |
"""


def test_a_document_whose_reading_fails_fails_alone_and_stays_archived(tmp_path, monkeypatch):
    pages = tmp_path / "pages"
    pages.mkdir()
    shutil.copy(GOOD_PAGE, pages / "good.txt")
    faulty = pages / "faulty.md"
    faulty.write_text(FAULTY_PAGE, encoding="utf-8")
    reading = pipeline.normalize_documents

    def failing_on_one_page(documents, mappings):
        if any(context.document_title == FAULTY_TITLE for _cells, context in documents):
            raise KeyError("a fault of the reading")
        return reading(documents, mappings)

    monkeypatch.setattr(pipeline, "normalize_documents", failing_on_one_page)
    warehouse = tmp_path / "warehouse"
    summary = pipeline.ingest([str(pages)], warehouse)

    assert summary.total("values_added") == GOOD_VALUES
    errors = query.run_sql(
        warehouse, "SELECT source_id, stage, reason FROM lake.main.document_errors"
    )[1]
    assert [(stage, reason) for _source, stage, reason in errors] == [
        ("normalize", "reading its tables failed (KeyError: 'a fault of the reading')")
    ]
    statuses = dict(
        query.run_sql(warehouse, "SELECT source_id, status FROM lake.main.run_documents")[1]
    )
    assert statuses[errors[0][0]] == "failed"
    data = faulty.read_bytes()
    assert archive.read(lake.archive_dir(warehouse), archive.sha256_of(data)) == data
