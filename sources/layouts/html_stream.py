"""An HTML page cut into text blocks in reading order, its data tables as markers among them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.html_text import (
    NOT_PROSE,
    clean_heading,
    collapse_space,
    tag_name,
    text_of,
)
from perfledger.sources.layouts.page_text import is_heading_like
from perfledger.sources.layouts.table_text import superscript

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
HEADING_LEVELS = {tag: int(tag[1]) for tag in _HEADINGS}
# The elements that hold a layout table's text apart from the text around the table: the
# title bar of a page laid out with tables does not name the table below it.
_TABLE_PARTS = frozenset({"table", "td", "th"})
_BLOCKS = _HEADINGS | frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "html",
        "li",
        "main",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)


class Block(NamedTuple):  # a tuple: made without a Python call per field
    line: int
    text: str
    tag: str
    heading: bool  # h1-h6, or a paragraph that is a single bold run
    owner: int  # serial of the element the text belongs to: <br> cuts one element's text
    cell: int  # serial of the table cell (or table) the text is in; 0 outside any table


class TableMark(NamedTuple):
    table: etree._Element
    cell: int  # as Block.cell: a block names the table after it only from the same cell


class CodeMark(NamedTuple):
    """A block of code (<pre>): no prose, as a Markdown page's fenced code is none, but what a
    benchmark tool prints in it may be a table (see html_printed)."""

    code: etree._Element
    line: int


@dataclass
class _Open:
    tag: str
    heading: bool
    serial: int
    line: int | None = None
    cell: int = 0  # see Block.cell
    parts: list[str] = field(default_factory=list)


def _is_bold_line(element: etree._Element) -> bool:
    children = list(element)
    if len(children) != 1 or tag_name(children[0]) not in ("strong", "b"):
        return False
    if (element.text or "").strip() or (children[0].tail or "").strip():
        return False
    return is_heading_like(text_of(children[0]))


class Stream:
    """Cuts the page into text blocks in reading order, with data tables as markers."""

    def __init__(self, data_tables: set[etree._Element]):
        self.data_tables = data_tables
        self.items: list[Block | TableMark | CodeMark] = []
        self.open = [_Open("#document", False, 0)]
        self.serial = 0
        self.last_line = 1

    def add(self, text: str | None) -> None:
        if not text:
            return
        block = self.open[-1]
        if block.line is None:
            # Text after a nested block has no line of its own in the tree: it starts at or
            # after the last element seen, which is the closest line known.
            block.line = self.last_line
        block.parts.append(text)

    def flush(self) -> None:
        block = self.open[-1]
        if not block.parts:  # most flushes, at the edges of nested blocks, have no text
            block.line = None
            return
        joined = "".join(block.parts)
        # Many flushes have only the line breaks between tags: only the rest needs collapsing.
        text = collapse_space(joined).strip() if joined.strip() else ""
        if text and block.heading:
            text = clean_heading(text)
        if text:
            self.items.append(
                Block(
                    block.line or self.last_line,
                    text,
                    block.tag,
                    block.heading,
                    block.serial,
                    block.cell,
                )
            )
        block.parts.clear()
        block.line = None

    def read(self, root: etree._Element) -> None:
        """Walk the tree from `root` in document order, without recursion and comments
        included (lxml's iterwalk skips them and with them their tail text)."""
        # (element, its children still to read, whether it opened a block); the first entry
        # holds `root` alone.
        stack: list[tuple[etree._Element | None, Iterator, bool]] = [(None, iter((root,)), False)]
        while stack:
            node, children, opened = stack[-1]
            child = next(children, None)
            if child is None:  # the end of `node`
                stack.pop()
                if node is not None:
                    if opened:
                        self.flush()
                        self.open.pop()
                    self.add(node.tail)
                continue
            opened = self._enter(child)
            if opened is None:
                self.add(child.tail)
            else:
                stack.append((child, iter(child), opened))

    def _holds_data_table(self, node: etree._Element) -> bool:
        """Whether a data table stands inside `node` (a <sup> a broken page opened around
        one): its table is read as any other, not as the superscript's text."""
        return any(table in self.data_tables for table in node.iter("table"))

    def _enter(self, node: etree._Element) -> bool | None:
        """Read what `node` starts with. None: its children are not read; else whether it
        opened a block."""
        tag = node.tag
        if not isinstance(tag, str):  # a comment: not shown, though its tail is
            return None
        tag = tag.lower()
        line = node.sourceline
        if line is not None and line > self.last_line:
            self.last_line = line
        if node in self.data_tables:
            self.flush()
            self.items.append(TableMark(node, self.open[-1].cell))
            return None
        if tag in NOT_PROSE or (
            node.get("hidden") not in (None, "until-found") and not self._holds_data_table(node)
        ):
            # An element the page hides (an off-canvas menu, a template) shows no text; a
            # data table inside one (a tab not open) is still read. "until-found" content is
            # shown when searched for.
            return None
        if tag == "br" or tag == "hr":
            self.flush()
            return None
        if tag == "pre" and not self._holds_data_table(node):
            self.flush()
            self.items.append(CodeMark(node, line or self.last_line))
            return None
        if tag == "sup" and not self._holds_data_table(node):
            self.add(superscript(text_of(node)))
            return None
        opens = tag in _BLOCKS
        if opens:
            self.flush()
            heading = tag in _HEADINGS or (tag in ("p", "div") and _is_bold_line(node))
            self.serial += 1
            cell = self.serial if tag in _TABLE_PARTS else self.open[-1].cell
            self.open.append(_Open(tag, heading, self.serial, line, cell))
        self.add(node.text)
        return opens
