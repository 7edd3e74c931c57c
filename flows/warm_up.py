"""One small page read and planned before a reader takes its first document: the patterns
the reading compiles on first use (vocabularies of headers, chips, units, precisions) are
compiled then, not inside the first document's time budget, where a small page would be
charged a quarter of a second it did not cost. The run's own process normalizes and
validates the same page while its readers start and read their first pages, time in which
it would otherwise wait: its first chunk then costs what the others cost."""

from __future__ import annotations

from functools import cache

_PAGE = b"""# Results on 8x H100 (FP16)

| Model | Batch size | Throughput (img/s) | Latency (ms) |
|---|---|---|---|
| ResNet-50 | 32 | 1,234.5 | 2.5 |
"""


def warm_up() -> None:
    """Read, plan and find the claims of the page, as a reader does."""
    _read_and_plan()


@cache
def warm_up_normalizing() -> None:
    """Read, plan, normalize and validate the page, as a run reading in one process does;
    once a process (an ingest of several runs, or a process of many ingests, needs it once)."""
    from perfledger.schemas.label_mappings import NO_MAPPINGS
    from perfledger.schemas.normalize import DocumentContext, normalize_documents
    from perfledger.schemas.validate import validate_measurements

    parsed, plans = _read_and_plan()
    context = DocumentContext(
        source_id="warm-up",
        source_url="file:///warm-up.md",
        document_sha256="0" * 64,
        document_title=parsed.metadata.title,
        captured_at="2000-01-01T00:00:00Z",
        parser_version="warm-up",
        language=None,
        outline=parsed.outline,
        plans=plans,
    )
    (normalized,) = normalize_documents([(parsed.cells, context)], NO_MAPPINGS)
    validate_measurements(normalized.measurements)


def _read_and_plan():
    from perfledger.schemas.chunk_reading import PageToPlan, plan_documents
    from perfledger.schemas.label_mappings import NO_MAPPINGS
    from perfledger.sources.claims.extract import extract_page_claims, load_lexicon
    from perfledger.sources.parse import parse_document

    load_lexicon()
    parsed, layout = parse_document(_PAGE, "text/markdown")
    extract_page_claims(parsed, layout)
    page = PageToPlan(parsed.cells, parsed.outline, parsed.metadata.title, None, "warm-up")
    (plans,) = plan_documents([page], NO_MAPPINGS)
    return parsed, plans
