"""An HTML page's metadata: title, author, published and updated dates and declared language,
from its <meta>, <time> and schema.org elements, else from its text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import methodcaller

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.base import DocumentMetadata, language_tag
from perfledger.sources.layouts.html_head import HeadFacts
from perfledger.sources.layouts.html_stream import Block
from perfledger.sources.layouts.html_text import (
    NOT_PROSE,
    clean_heading,
    collapse_space,
    tag_name,
    text_of,
)
from perfledger.sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    machine_date,
    parse_date,
)

_UPDATED_WORDS = re.compile(r"\b(?:updated|modified|revised)\b", re.I)
_PUBLISHED_META = (
    "article:published_time",
    "datepublished",
    "date",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "pubdate",
    "publish-date",
)
_UPDATED_META = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
)
_AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator")


@dataclass
class _PageElements:
    """The elements page-level facts come from, found in one walk of the tree (each walk of a
    200 KB page's tree costs about as much as reading its largest table)."""

    tables: list[etree._Element] = field(default_factory=list)
    metas: list[etree._Element] = field(default_factory=list)
    with_itemprop: list[etree._Element] = field(default_factory=list)  # the root excepted
    times: list[etree._Element] = field(default_factory=list)
    author_links: list[etree._Element] = field(default_factory=list)  # <a> and <link>
    title: etree._Element | None = None  # the first <title> below the root


_PAGE_TAGS = ("table", "meta", "time", "a", "link", "title")
_WITH_ITEMPROP = etree.XPath("descendant::*[@itemprop]")
# Testing each element's attributes, as the predicate above does, costs four times as much as
# collecting the attributes themselves.
_HAS_ITEMPROP = etree.XPath("boolean(descendant::*/@itemprop)")


def page_elements(root: etree._Element) -> _PageElements:
    """The page's elements of interest, in document order."""
    found = _PageElements()
    by_tag = {
        "table": found.tables,
        "meta": found.metas,
        "time": found.times,
        "a": found.author_links,
        "link": found.author_links,
    }
    # The tag filter runs in lxml's C code: no Python step for the other elements.
    for element in root.iter(*_PAGE_TAGS):
        tag = element.tag
        if tag != "title":
            by_tag[tag].append(element)
        elif found.title is None and element is not root:
            found.title = element
    if _HAS_ITEMPROP(root):
        found.with_itemprop = _WITH_ITEMPROP(root)
    return found


def attribute_names_in(markup: bytes, names: Sequence[str]) -> set[str]:
    """The names among `names` (lower case) that may name an attribute of some element of the
    page. libxml2 takes attribute names from the markup alone and lower-cases them (ASCII
    only), so a name absent from the lower-cased markup names no attribute; a NUL, which
    libxml2 may drop from a name, leaves every name possible."""
    lowered = markup.lower()
    if b"\x00" in lowered:
        return set(names)
    return {name for name in names if name.encode("ascii") in lowered}


def may_hold_spans(text: str) -> bool:
    """Whether a decoded page may give some cell a colspan or rowspan, judged from its markup
    without parsing it: when it says False, `parse_html` finds no span in any table either."""
    markup = text.encode("utf-8", "surrogatepass")
    return bool(attribute_names_in(markup, ("colspan", "rowspan")))


def _meta_values(found: _PageElements, head: HeadFacts) -> dict[str, str]:
    values: dict[str, str] = dict(head.meta)
    for meta in found.metas:
        key = meta.get("property") or meta.get("name") or meta.get("itemprop")
        content = meta.get("content")
        if key and content and content.strip():
            values.setdefault(key.strip().lower(), collapse_space(content))
    for node in found.with_itemprop:
        key = node.get("itemprop")
        value = node.get("datetime") or node.get("content")
        if key and value:
            values.setdefault(key.strip().lower(), value.strip())
    return values


def _first_meta(values: dict[str, str], keys: Sequence[str]) -> str | None:
    return next((values[key] for key in keys if key in values), None)


_REL_OF = methodcaller("get", "rel")


def _meta_author(found: _PageElements, values: dict[str, str]) -> str | None:
    for key in _AUTHOR_META:
        value = values.get(key)
        if value and not value.lower().startswith(("http://", "https://")):
            return value
    # The rel attribute of every link read in C: most links have none.
    for node, rel in zip(found.author_links, map(_REL_OF, found.author_links), strict=True):
        if rel and "author" in rel.lower().split():
            name = text_of(node) if tag_name(node) == "a" else (node.get("title") or "")
            if name.strip():
                return name.strip()
    return None


def _time_dates(found: _PageElements) -> tuple[str | None, str | None]:
    """(published, updated) from <time datetime>: updated when its sentence says so."""
    published = updated = None
    for node in found.times:
        if any(tag_name(a) in NOT_PROSE for a in node.iterancestors()):
            continue
        date = machine_date(node.get("datetime")) or parse_date(text_of(node))
        if date is None:
            continue
        parent = node.getparent()
        context = text_of(parent) if parent is not None else ""
        if _UPDATED_WORDS.search(context):
            updated = updated or date
        else:
            published = published or date
    return published, updated


def page_metadata(
    found: _PageElements, blocks: Sequence[Block], head: HeadFacts, root: etree._Element
) -> DocumentMetadata:
    values = _meta_values(found, head)
    lines = [block.text for block in blocks]
    title_node = found.title
    page_title = head.title or (text_of(title_node) if title_node is not None else "")
    first_h1 = next((block.text for block in blocks if block.tag == "h1"), None)
    # <title> usually carries the site's name as well, so the page's own headings come first.
    title = values.get("og:title") or first_h1 or page_title or find_title(lines)
    title = clean_heading(title) if title else title
    time_published, time_updated = _time_dates(found)
    published = machine_date(_first_meta(values, _PUBLISHED_META)) or time_published
    updated = machine_date(_first_meta(values, _UPDATED_META)) or time_updated
    if not (published and updated):  # the dates the prose states are the last resort
        text_dates = find_dates(lines)
        published = published or text_dates["published_date"]
        updated = updated or text_dates["last_updated_date"]
    return DocumentMetadata(
        title=title or None,
        author=_meta_author(found, values) or head.author_link or find_author(lines),
        published_date=published,
        last_updated_date=updated,
        language=_declared_language(root, found, values),
    )


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _declared_language(
    root: etree._Element, found: _PageElements, values: dict[str, str]
) -> str | None:
    """The language the page declares: <html lang>, else <meta http-equiv=content-language>,
    else its Open Graph locale."""
    html = root if tag_name(root) == "html" else next(root.iter("html"), None)
    if html is not None:
        for name in ("lang", "xml:lang", _XML_LANG):
            declared = language_tag(html.get(name))
            if declared:
                return declared
    for meta in found.metas:
        if (meta.get("http-equiv") or "").strip().lower() == "content-language":
            # "en, de" declares two: the first is the page's main one.
            declared = language_tag((meta.get("content") or "").split(",")[0])
            if declared:
                return declared
    return language_tag(values.get("og:locale"))
