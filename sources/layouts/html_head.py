"""Page-level facts of an HTML page's <head> (meta tags, title, author link), read with
beautifulsoup4.

Only the head is handed to BeautifulSoup: it is small, so bs4's convenience costs little,
while the tables in the body go through lxml, which is far faster on large pages.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning

HEAD_LIMIT = 262_144  # characters: a head longer than this is not a head worth reading
_HEAD_END = re.compile(r"</head\s*>|<body[\s>]", re.I)


@dataclass(frozen=True)
class HeadFacts:
    meta: dict[str, str] = field(default_factory=dict)  # lower-case name/property -> content
    title: str | None = None
    author_link: str | None = None  # <link rel="author" title="...">


def head_markup(text: str) -> str:
    match = _HEAD_END.search(text, 0, HEAD_LIMIT)
    return text[: match.start()] if match else text[:HEAD_LIMIT]


def read_head(text: str) -> HeadFacts:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        # XHTML is read as HTML on purpose: an XML parser could expand or fetch entities.
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(head_markup(text), "html.parser")
    meta: dict[str, str] = {}
    for tag in soup.find_all("meta"):
        key = tag.get("property") or tag.get("name") or tag.get("itemprop")
        content = tag.get("content")
        if isinstance(key, str) and isinstance(content, str) and content.strip():
            meta.setdefault(key.strip().lower(), " ".join(content.split()))
    title_tag = soup.find("title")
    title = " ".join(title_tag.get_text().split()) if title_tag else None
    author = next(
        (" ".join((link.get("title") or "").split()) for link in soup.find_all("link")
         if "author" in [rel.lower() for rel in (link.get("rel") or [])] and link.get("title")),
        None,
    )
    return HeadFacts(meta=meta, title=title or None, author_link=author or None)
