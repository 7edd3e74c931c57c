"""A page quoted in a test, read as `perfledger ingest` reads it: parsed by its layout, then
normalized with its outline (captions, headings, paragraphs) as the context of its tables."""

from __future__ import annotations

from perfledger.schemas.normalize import DocumentContext, NormalizedDocument, normalize_documents
from perfledger.sources.parse import parse_document


def normalized(
    page: str, content_type: str = "text/markdown", source_id: str = "page"
) -> NormalizedDocument:
    parsed, layout = parse_document(page.encode(), content_type)
    context = DocumentContext(
        source_id=source_id,
        source_url=f"file:///{source_id}",
        document_sha256="0",
        document_title=parsed.metadata.title,
        captured_at="2026-01-01T00:00:00+00:00",
        parser_version=layout,
        language=parsed.metadata.language,
        outline=parsed.outline,
    )
    return normalize_documents([(parsed.cells, context)])[0]


def fields_by_raw_value(page: str, *fields: str) -> dict[str, tuple]:
    """Each value a quoted Markdown page loads, by its text as published: the `fields` named."""
    return {
        row["raw_value"]: tuple(row[field] for field in fields)
        for row in normalized(page).measurements.iter_rows(named=True)
    }
