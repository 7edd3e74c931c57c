"""Page-level facts of an HTML page's <head> (meta tags, title, author link), read with
beautifulsoup4's html.parser reader.

Only the head is read: the tables in the body go through lxml, which is far faster on large
pages. The head is tokenized by bs4's own html.parser subclass, so attribute values, entity
and character references come out exactly as BeautifulSoup gives them; what is left out is
bs4's tree, of which the three facts need only the open-tag stack. Building the tree cost
about twice as much as tokenizing the head, often 100 KB of inline styles and scripts.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4.builder._htmlparser import BeautifulSoupHTMLParser, HTMLParserTreeBuilder
from bs4.element import CData
from bs4.exceptions import ParserRejectedMarkup

HEAD_LIMIT = 262_144  # characters: a head longer than this is not a head worth reading
_HEAD_END = re.compile(r"</head\s*>|<body[\s>]", re.I)
_BUILDER = HTMLParserTreeBuilder()  # read-only here: its settings and its parser's arguments
_VOID_TAGS = _BUILDER.empty_element_tags or set()  # an HTML builder's: never None


@dataclass(frozen=True)
class HeadFacts:
    meta: dict[str, str] = field(default_factory=dict)  # lower-case name/property -> content
    title: str | None = None
    author_link: str | None = None  # <link rel="author" title="...">


def head_markup(text: str) -> str:
    match = _HEAD_END.search(text, 0, HEAD_LIMIT)
    return text[: match.start()] if match else text[:HEAD_LIMIT]


def read_head(text: str) -> HeadFacts:
    markup = head_markup(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        # XHTML is read as HTML on purpose: an XML parser could expand or fetch entities.
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        reader = _HeadReader()
        args, kwargs = _BUILDER.parser_args
        # bs4 types the parser's soup as a BeautifulSoup; it calls of it what _HeadReader has.
        parser = _HeadParser(cast(BeautifulSoup, reader), *args, **kwargs)
        try:
            parser.feed(markup)
            parser.close()
        except AssertionError:
            # html.parser gave up on the markup: BeautifulSoup reports that its own way.
            return read_head_with_soup(markup)
    return reader.facts()


def read_head_with_soup(markup: str) -> HeadFacts:
    """The same facts from a BeautifulSoup tree: the reference `_HeadReader` follows."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        try:
            soup = BeautifulSoup(markup, "html.parser")
        except ParserRejectedMarkup:
            return HeadFacts()  # no head a parser reads ('0<![0'): the page states none
    meta: dict[str, str] = {}
    for tag in soup.find_all("meta"):
        _add_meta(
            meta, tag.get("property") or tag.get("name") or tag.get("itemprop"), tag.get("content")
        )
    title_tag = soup.find("title")
    title = " ".join(title_tag.get_text().split()) if title_tag else None
    author = next(
        (
            " ".join(link_title.split())
            for link in soup.find_all("link")
            if "author" in [rel.lower() for rel in (link.get("rel") or [])]
            and isinstance(link_title := link.get("title"), str)
            and link_title
        ),
        None,
    )
    return HeadFacts(meta=meta, title=title or None, author_link=author or None)


def _add_meta(meta: dict[str, str], key: object, content: object) -> None:
    if isinstance(key, str) and isinstance(content, str) and content.strip():
        meta.setdefault(key.strip().lower(), " ".join(content.split()))


class _HeadParser(BeautifulSoupHTMLParser):
    """bs4's html.parser reader, keeping no count of lines and columns: no fact of the head
    depends on them (the reader takes no position), and counting the lines of all it reads,
    a 100 KB inline script say, took a third of the time the head takes to read."""

    def updatepos(self, i: int, j: int) -> int:
        return j


class _OpenTag:
    """What bs4's parser asks of the tag it has just opened."""

    __slots__ = ("is_empty_element",)

    def __init__(self, is_empty_element: bool):
        self.is_empty_element = is_empty_element


_VOID = _OpenTag(True)
_NOT_VOID = _OpenTag(False)


class _HeadReader:
    """Stands in for the BeautifulSoup object bs4's html.parser reader feeds: it keeps bs4's
    open-tag stack (an end tag closes up to the latest open tag of its name, or nothing; a
    void tag closes at once) and its string types (text inside <script>, <style>,
    <template>, <rt>, <rp> is not text; comments and declarations are not; CDATA is), and
    collects the head's facts from them as `read_head_with_soup` reads them from the tree."""

    def __init__(self) -> None:
        self.builder = _BUILDER
        self.contains_replacement_characters = False
        self.stack: list[str] = []  # open tag names, outermost first
        self.open_count: Counter[str] = Counter()
        self.containers: list[int] = []  # stack depths of open string-container tags
        self.title_depth: int | None = None  # the first <title>'s depth while it is open
        self.title_seen = False
        self.title_parts: list[str] = []
        self.meta: dict[str, str] = {}
        self.author: str | None = None
        self.author_seen = False
        self.current: list[str] = []

    # ---- the calls bs4's parser makes ----

    def handle_starttag(self, name, _namespace, _nsprefix, attrs, **_position) -> _OpenTag:
        self.endData()
        self.stack.append(name)
        self.open_count[name] += 1
        if name in self.builder.string_containers:
            self.containers.append(len(self.stack))
        if name == "title" and not self.title_seen:
            self.title_seen = True
            self.title_depth = len(self.stack)
        elif name == "meta":
            _add_meta(
                self.meta,
                attrs.get("property") or attrs.get("name") or attrs.get("itemprop"),
                attrs.get("content"),
            )
        elif name == "link" and not self.author_seen:
            self._read_author_link(attrs)
        return _VOID if name in _VOID_TAGS else _NOT_VOID

    def handle_endtag(self, name: str, _nsprefix: str | None = None) -> None:
        self.endData()
        while self.open_count[name]:
            if self._pop() == name:
                break

    def handle_data(self, data: str) -> None:
        self.current.append(data)

    def endData(self, container_class: type | None = None) -> None:  # noqa: N802 - bs4's name
        if not self.current:
            return
        data = "".join(self.current)
        self.current = []
        is_text = container_class is CData or (container_class is None and not self.containers)
        if self.title_depth is not None and is_text:
            self.title_parts.append(data)

    # ---- the facts ----

    def facts(self) -> HeadFacts:
        self.endData()
        title = " ".join("".join(self.title_parts).split()) if self.title_seen else None
        return HeadFacts(meta=self.meta, title=title or None, author_link=self.author or None)

    def _read_author_link(self, attrs: dict[str, str]) -> None:
        rel = attrs.get("rel")
        rels = re.findall(r"\S+", rel) if isinstance(rel, str) else []
        if "author" in [value.lower() for value in rels] and attrs.get("title"):
            self.author_seen = True
            self.author = " ".join(attrs["title"].split())

    def _pop(self) -> str:
        depth = len(self.stack)
        name = self.stack.pop()
        self.open_count[name] -= 1
        if self.containers and self.containers[-1] == depth:
            self.containers.pop()
        if self.title_depth == depth:
            self.title_depth = None
        return name
