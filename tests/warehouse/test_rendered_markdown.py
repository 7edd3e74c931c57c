"""A Markdown page and the HTML a Markdown renderer makes of it (as GitHub shows a README, as a
docs site publishes its pages) load the same values with the same labels: the reading of a
page does not depend on the form it is published in. Every Markdown page of both shared
corpora is read both ways."""

from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.schemas.page_reading import normalized

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PAGES = sorted(
    page
    for corpus in ("real-pages", "real-pages-2")
    for page in (SHARED / corpus / "pages").glob("*.md")
)
LABELS = (
    "value",
    "metric",
    "unit",
    "accelerator",
    "accelerator_count",
    "precision",
    "model",
    "batch_size",
)
_RENDERER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def as_html(markdown: str) -> str:
    """The page as a renderer publishes it: its first heading the page's title."""
    title = next(
        (line.lstrip("# ").strip() for line in markdown.splitlines() if line[:1] == "#"), ""
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head><body>{_RENDERER.render(markdown)}</body></html>"
    )


def labelled_values(page: str, content_type: str) -> Counter:
    measurements = normalized(page, content_type).measurements
    return Counter(measurements.select(LABELS).rows())


@pytest.mark.skipif(not PAGES, reason=f"no Markdown pages under {SHARED}")
@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_a_markdown_page_and_its_html_load_the_same_labelled_values(path):
    markdown = path.read_text(encoding="utf-8")
    as_markdown = labelled_values(markdown, "text/markdown")
    as_rendered = labelled_values(as_html(markdown), "text/html")
    assert as_markdown - as_rendered == Counter()
    assert as_rendered - as_markdown == Counter()
