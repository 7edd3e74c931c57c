"""Tables planned where their page is read (a reader process, `plan_document`) give the very
values, labels and quarantine rows that planning them with the rest of a chunk gives; a
reader planning the pages it was sent together (`plan_documents`) plans each as alone."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from perfledger.schemas.chunk_reading import PageToPlan, plan_document, plan_documents
from perfledger.schemas.label_mappings import NO_MAPPINGS
from perfledger.schemas.normalize import DocumentContext, normalize_documents
from perfledger.sources.parse import parse_document

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPORA = ("real-pages", "real-pages-2")
MEDIA_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".rst": "text/x-rst",
    ".txt": "text/plain",
}


def documents_of(corpus: str) -> list:
    pages = SHARED / corpus / "pages"
    if not pages.is_dir():
        pytest.skip(f"../shared/{corpus} is not here")
    documents = []
    for path in sorted(pages.iterdir()):
        parsed, layout = parse_document(
            path.read_bytes(), MEDIA_TYPES.get(path.suffix), "auto", check=False
        )
        context = DocumentContext(
            source_id=path.stem,
            source_url=path.as_uri(),
            document_sha256=path.stem,
            document_title=parsed.metadata.title,
            captured_at="2026-01-01T00:00:00+00:00",
            parser_version=layout,
            language=parsed.metadata.language,
            outline=parsed.outline,
        )
        documents.append((parsed.cells, context))
    return documents


@pytest.mark.parametrize("corpus", CORPORA)
def test_tables_planned_where_read_give_what_the_chunk_gives(corpus):
    documents = documents_of(corpus)
    # Planned by each document's reader and sent over (pickled), all of them; then one of
    # two, as a chunk may mix documents read in a reader process and in this one.
    planned = [
        (
            cells,
            dataclasses.replace(
                context,
                plans=pickle.loads(
                    pickle.dumps(
                        plan_document(
                            cells,
                            context.outline,
                            context.document_title,
                            context.language,
                            context.source_id,
                            NO_MAPPINGS,
                        )
                    )
                ),
            ),
        )
        for cells, context in documents
    ]
    mixed = [planned[index] if index % 2 else documents[index] for index in range(len(documents))]
    expected = normalize_documents(documents)
    assert sum(found.measurements.height for found in expected) > 1000
    for chunk in (planned, mixed):
        for found, wanted in zip(normalize_documents(chunk), expected, strict=True):
            assert_frame_equal(found.measurements, wanted.measurements)
            assert_frame_equal(found.quarantine, wanted.quarantine)


@pytest.mark.parametrize("corpus", CORPORA)
def test_pages_planned_together_are_planned_as_each_alone(corpus):
    pages = [
        PageToPlan(
            cells, context.outline, context.document_title, context.language, context.source_id
        )
        for cells, context in documents_of(corpus)
    ]
    alone = [plan_document(*page, NO_MAPPINGS) for page in pages]
    together = [
        plans
        for start in range(0, len(pages), 8)
        for plans in plan_documents(pages[start : start + 8], NO_MAPPINGS)
    ]
    assert together == alone
    assert sum(len(plans.plans) for plans in alone) > 50
    assert sum(len(plans.turned) for plans in alone) > 0
