"""An HTML page's markup as the bytes libxml2 reads, and the tree it builds of them."""

from __future__ import annotations

import re

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.base import ParseProblem

_XML_DECLARATION = re.compile(r"\A(\ufeff?\s*)<\?xml[^>]*>")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CARRIAGE_RETURN = re.compile(r"\r\n?")
_ROW_PARTS = frozenset({"td", "th"})


def prepare_markup(text: str, utf8: bytes | None = None) -> bytes:
    """The page as UTF-8 bytes libxml2 accepts, with the lines where they were: HTML reads CR
    and CRLF as one line break, an XML declaration naming an encoding is refused for text that
    is already decoded, and lone surrogates cannot be encoded. libxml2 reads UTF-8 without
    converting it (lxml hands it any other str as UTF-16 or UCS-4, which it converts).

    `utf8`, when given, is `text` encoded as UTF-8 (the page's own bytes, when they decoded
    as UTF-8): used as it is rather than encoding the text again."""
    if text.startswith("\ufeff"):
        text, utf8 = text[1:], None
    if _XML_DECLARATION.match(text):  # which CRs do not change
        text = _CARRIAGE_RETURN.sub("\n", text)
        text = _XML_DECLARATION.sub(lambda m: m.group(1) + "\n" * m.group(0).count("\n"), text)
        utf8 = None  # the text changed
    markup = _utf8(text) if utf8 is None else utf8
    # CR and LF are the bytes 0x0D and 0x0A in UTF-8 and in no other character: looking for
    # them in the bytes costs far less than in a str of wide characters.
    if b"\r" in markup:
        markup = markup.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return markup


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def parse_tree(
    markup: bytes, stopped: list[ParseProblem] | None = None, first_line: int = 1
) -> etree._Element | None:
    """The tree of a page's markup (see `prepare_markup`), or None when it holds no element at
    all. Where libxml2 gave up part way (elements nested deeper than 256, say), a problem
    naming the line joins `stopped`."""
    # The plain etree parser: lxml.html's element classes cost a Python call per element.
    # No table of the elements' ids is kept: nothing looks an element up by its id.
    parser = etree.HTMLParser(
        no_network=True,
        remove_pis=True,
        default_doctype=False,
        encoding="utf-8",
        collect_ids=False,
    )
    try:
        root = etree.fromstring(markup, parser)
    except etree.ParserError:
        return None  # libxml2's word for a document without any element
    if root is not None and (stray := _stray_cells(root)):
        _wrap_stray_cells(stray)
    if root is not None and b"headerlink" in markup:
        _drop_permalinks(root)
    if stopped is not None:
        stopped.extend(
            ParseProblem(
                "html_parser_stopped",
                f"the HTML parser stopped at line {error.line + first_line - 1} "
                f"({error.message.strip()}); "
                "the rest of the page was not read",
                line_number=error.line + first_line - 1,
            )
            for error in parser.error_log
            if error.level_name == "FATAL"
        )
    return root


# The permalink a doc generator ends each heading and caption with ('<a class="headerlink"
# href="#results">#</a>' in Sphinx and MkDocs themes): page chrome, not words of the heading.
_PERMALINKS = etree.XPath(
    "//a[contains(concat(' ', normalize-space(@class), ' '), ' headerlink ')]"
)


def _drop_permalinks(root: etree._Element) -> None:
    """`root` without its permalinks, the text after each kept: "Results#" is "Results"."""
    for link in _PERMALINKS(root):
        parent = link.getparent()
        if parent is None:
            continue
        tail, before = link.tail or "", link.getprevious()
        if before is not None:
            before.tail = (before.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
        parent.remove(link)


def _stray_cells(root: etree._Element) -> list[etree._Element]:
    """Cells standing right inside a table or one of its row groups, outside any <tr>: a
    browser builds a row around them (HTML's "in table body" insertion mode); libxml2 leaves
    them where they are, where no reader of rows finds them. One walk of the page for its
    tables, in C, then only their children (an XPath of the eight parent and cell pairs
    walked the page eight times: 0.86 against 0.31 ms a page)."""
    found: list[etree._Element] = []
    for table in root.iter("table"):
        found += table.iterchildren("td", "th")
        for group in table.iterchildren("thead", "tbody", "tfoot"):
            found += group.iterchildren("td", "th")
    return found


def _wrap_stray_cells(stray: list[etree._Element]) -> None:
    """Give each run of cells that stands outside any <tr> the row a browser gives it: the
    cells in a table row of their own, where the first of them stood (Detectron2's model zoo
    lists its header cells right inside <tbody>, before its first <tr>). Comments and blank
    text between the cells of a run stay in the new row; any other element ends the run."""
    done: set = set()
    for cell in stray:
        if cell in done:
            continue
        row = etree.Element("tr")
        row.sourceline = cell.sourceline
        cell.addprevious(row)
        node = cell
        while node is not None and (
            node.tag in _ROW_PARTS or not isinstance(node.tag, str)  # a comment
        ):
            following = node.getnext()
            if node.tag in _ROW_PARTS:
                done.add(node)
            row.append(node)  # keeps the node's tail text with it
            node = following
