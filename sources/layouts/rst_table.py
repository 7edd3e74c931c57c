"""reStructuredText pages (Sphinx docs such as AWS Neuron's): tables as located cells, plus
the page's headings, paragraphs and outline.

Four table forms are read: `.. list-table::`, `.. csv-table::` with inline content, grid
tables (`+---+` borders) and simple tables (`=====  =====` borders). The page is read in one
pass over its lines, a block at a time: a section title, an explicit markup block (directive,
comment, target, footnote), a table, a literal block or a paragraph. A directive's body is
skipped unless it holds prose a reader sees (admonitions, a figure's caption, containers):
that body is read in place, as if it were not indented, so no block is read by recursion.
Every loop moves forward through the lines, and the regular expressions admit one way to
match each stretch of a line, so a hostile page costs time in proportion to its size.

The page's lines and inline text are read in rst_text, its blocks in rst_blocks, grid and
simple tables in rst_grid, and rst_assembly makes the blocks the page's cells, prose and
outline; here the layout is declared and told apart from others by sniffing.
"""

from __future__ import annotations

import re

from perfledger.sources.layouts.base import Layout, ParsedDocument
from perfledger.sources.layouts.pipe_rows import is_delimiter_row
from perfledger.sources.layouts.rst_assembly import read_rst
from perfledger.sources.layouts.rst_text import is_adornment

SNIFF_BYTES = 65_536

_HTML_MARKS = (b"<html", b"<!doctype", b"<table", b"<body", b"<div", b"<td", b"<tr")
# A `.. raw:: html` block and its indented body (sherpa's docs play each voice in one): HTML
# a Sphinx page embeds, which does not make the page HTML.
_RAW_HTML = re.compile(
    rb"^([ \t]*)\.\.[ \t]+raw::[ \t]*html[^\n]*\n(?:(?:\1[ \t]+\S[^\n]*|[ \t]*)\n)*",
    re.MULTILINE | re.IGNORECASE,
)
# A code block and its indented body (docTR's docs show a sample hOCR export in one): markup
# the page quotes, which does not make the page HTML.
_CODE_BLOCK = re.compile(
    rb"^([ \t]*)\.\.[ \t]+(?:code|code-block|sourcecode)::[^\n]*\n(?:(?:\1[ \t]+\S[^\n]*|[ \t]*)\n)*",
    re.MULTILINE | re.IGNORECASE,
)
_SNIFF_DIRECTIVE = re.compile(rb"^[ \t]*\.\.[ \t]+(?:[A-Za-z][\w:.+-]*::|_[^:\n]+:)", re.MULTILINE)
# Markdown's own marks at a line's start: an ATX heading or a code fence. Unindented only: an
# RST code block holds '   # comment' lines, and '~~~' underlines RST titles.
_SNIFF_MARKDOWN = re.compile(rb"^(?:#{1,6}[ \t]+\S|```)", re.MULTILINE)

# The file suffixes collect reads as this layout's pages. No media type is fetched for it:
# fetch keeps no text/x-rst answer (a served .rst file comes as text/plain, which the sniffers
# hand on here).
MEDIA_TYPES: dict[str, float | None] = {}
SUFFIXES = {".rst": "text/x-rst"}


def parse_rst(text: str) -> ParsedDocument:
    """Parse a reStructuredText page into table cells, prose, outline and page metadata."""
    return read_rst(text)


# ---- sniffing ------------------------------------------------------------------------------


def sniff_rst(data: bytes, content_type: str | None) -> float:
    """High for a page that is clearly reStructuredText; 0 for HTML or Markdown."""
    kind = (content_type or "").lower()
    if "html" in kind or "markdown" in kind:
        return 0.0
    head = data[:SNIFF_BYTES].replace(b"\x00", b"")
    embeds_html = b"raw::" in head and _RAW_HTML.search(head) is not None
    quoted = _RAW_HTML.sub(b"", head) if embeds_html else head
    unquoted = _CODE_BLOCK.sub(b"", quoted) if b"::" in quoted else quoted
    lowered = unquoted.lower()
    if any(mark in lowered for mark in _HTML_MARKS) or _looks_like_markdown(head):
        return 0.0
    if len(unquoted) < len(quoted) and any(mark in quoted.lower() for mark in _HTML_MARKS):
        return 0.95  # above the HTML layout, which takes the quoted "<html" for a page's own
    if embeds_html and ("rst" in kind or _SNIFF_DIRECTIVE.search(head)):
        # Above the HTML layout's score for the page its raw HTML makes it look like
        # ("<html xmlns=...>" inside `.. raw:: html`): every mark of HTML is in such a block.
        return 0.95
    if "rst" in kind:
        return 0.9
    if _SNIFF_DIRECTIVE.search(head):
        return 0.8
    return 0.6 if _underlined_titles(head) >= 2 else 0.0


def _looks_like_markdown(head: bytes) -> bool:
    if _SNIFF_MARKDOWN.search(head):
        return True
    if b"|" not in head:
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    return any(is_delimiter_row(line) for line in lines if "---" in line and "|" in line)


def _underlined_titles(head: bytes) -> int:
    lines = [line.rstrip() for line in head.decode("utf-8", errors="replace").splitlines()]
    return sum(
        1
        for above, below in zip(lines, lines[1:], strict=False)
        if above
        and not above[0].isspace()
        and not is_adornment(above)
        and is_adornment(below)
        and len(below) >= len(above)
    )


LAYOUT = Layout(
    name="rst_table", sniff=sniff_rst, parse=parse_rst, media_types=MEDIA_TYPES, suffixes=SUFFIXES
)
