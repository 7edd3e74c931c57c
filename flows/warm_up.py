"""One small page read and planned before a reader takes its first document: the patterns
the reading compiles on first use (vocabularies of headers, chips, units, precisions) are
compiled then, not inside the first document's time budget, where a small page would be
charged a quarter of a second it did not cost."""

from __future__ import annotations

_PAGE = b"""# Results on 8x H100 (FP16)

| Model | Batch size | Throughput (img/s) | Latency (ms) |
|---|---|---|---|
| ResNet-50 | 32 | 1,234.5 | 2.5 |
"""


def warm_up() -> None:
    from perfledger.schemas.chunk_reading import PageToPlan, plan_documents
    from perfledger.schemas.label_mappings import NO_MAPPINGS
    from perfledger.sources.claims.extract import extract_page_claims, load_lexicon
    from perfledger.sources.parse import parse_document

    load_lexicon()
    parsed, layout = parse_document(_PAGE, "text/markdown")
    extract_page_claims(parsed, layout)
    page = PageToPlan(parsed.cells, parsed.outline, parsed.metadata.title, None, "warm-up")
    plan_documents([page], NO_MAPPINGS)
