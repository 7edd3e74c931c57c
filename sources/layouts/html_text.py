"""The text of HTML elements as a reader sees it: runs of whitespace collapsed, scripts and
nested tables left out, footnote digits as superscripts, headings without permalink marks."""

from __future__ import annotations

import re
from operator import methodcaller

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.table_text import NOTE_LINE_SEPARATOR, superscript

SKIPPED = frozenset({"script", "style", "template", "noscript", "textarea", "xmp"})
# Navigation menus and controls are visible but are page chrome, not paragraphs.
NOT_PROSE = SKIPPED | frozenset(
    {"head", "title", "nav", "svg", "math", "select", "button", "iframe", "object", "canvas"}
)
# The runs that collapsing changes: a lone space is left alone, a substitution fewer per word.
_SPACE_TO_COLLAPSE = re.compile(r"[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+")
# The characters str.split() takes for whitespace that HTML does not (U+00A0 among them).
_NOT_HTML_SPACE = re.compile(
    "[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
# The permalink Sphinx and other doc generators end a heading with: a pilcrow or an icon font's
# private-use character, which no reader sees as text.
_PERMALINK_MARK = re.compile("[\u00b6\ue000-\uf8ff]+")


# The whitespace str.split() takes that HTML does not, one by one (see _NOT_HTML_SPACE).
_NOT_HTML_SPACES = (
    "\x0b\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
# Characters that are no whitespace and that text seldom holds, to stand in for those while
# str.split() collapses the runs of HTML whitespace: C0 and C1 controls, one byte wide as
# U+00A0 is, so that the text keeps its width in memory.
_STAND_INS = "".join(map(chr, [*range(0x01, 0x09), *range(0x0E, 0x1C), *range(0x80, 0x85)]))
_SHORT_TEXT = 64  # below this, the regex engine's substitution costs less than the stand-ins


def collapse_space(text: str) -> str:
    """Runs of HTML whitespace become one space, as a browser shows them; U+00A0 is kept."""
    if _NOT_HTML_SPACE.search(text) is None:
        # Only HTML whitespace, whose runs str.split() finds in C: a substitution costs a
        # step of the regex engine per character.
        return " ".join(text.split())
    if len(text) > _SHORT_TEXT:
        collapsed = _collapse_with_stand_ins(text)
        if collapsed is not None:
            return collapsed
    return _SPACE_TO_COLLAPSE.sub(" ", text).strip(" ")


def _collapse_with_stand_ins(text: str) -> str | None:
    """`collapse_space` of a text holding whitespace that HTML does not collapse (U+00A0,
    say), with str.split(): each such character is first replaced by a character the text
    does not hold and that is no whitespace, then put back. None when the stand-ins run out."""
    kept = [space for space in _NOT_HTML_SPACES if space in text]
    free = (stand_in for stand_in in _STAND_INS if stand_in not in text)
    pairs = list(zip(kept, free, strict=False))
    if len(pairs) < len(kept):
        return None
    for space, stand_in in pairs:
        text = text.replace(space, stand_in)
    text = " ".join(text.split())
    for space, stand_in in pairs:
        text = text.replace(stand_in, space)
    return text


def clean_heading(text: str) -> str:
    """A heading or title without the permalink mark a doc generator ends it with ('¶', an
    icon font's private-use character), nor the space before the mark."""
    mark = _PERMALINK_MARK.search(text)
    if mark is None:
        return text  # most headings have none
    if mark.end() == len(text):  # the one mark, at the end: where generators put it
        return text[: mark.start()].strip()
    # Split rather than one pattern with the spaces before the mark: that pattern would
    # rescan a long run of spaces at each of its positions.
    pieces = _PERMALINK_MARK.split(text)
    parts = [pieces[0]]
    for piece in pieces[1:]:
        before = parts[-1]
        parts[-1] = before.rstrip()
        if before != parts[-1] and piece[:1].strip():  # 'a ¶b': the words stay apart
            parts.append(" ")
        parts.append(piece)
    return "".join(parts).strip()


def tag_name(node: etree._Element) -> str | None:
    """Lower-case tag name, or None for comments and processing instructions."""
    return node.tag.lower() if isinstance(node.tag, str) else None


def text_of(element: etree._Element, line_break: str = " ") -> str:
    """The visible text of an element: scripts, comments and nested tables left out, <sup>
    footnote digits as superscripts, <br> as `line_break`, whitespace collapsed."""
    if len(element) == 0:
        return collapse_space(element.text or "")
    if not any(map(len, element)):
        return collapse_space(_flat_text(element, line_break))
    parts = [element.text or ""]
    # A depth-first walk without recursion, comments included (lxml's iterwalk skips them
    # and with them their tail text): (element, its children still to read).
    stack = [(element, iter(element))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:  # the end of `node`
            stack.pop()
            if node is not element:
                parts.append(node.tail or "")
            continue
        tag = tag_name(child)
        if tag is None or tag in SKIPPED or tag == "table":
            parts.append(child.tail or "")
        elif tag == "br":
            parts.append(line_break)
            parts.append(child.tail or "")
        elif tag == "sup":
            parts.append(superscript(text_of(child)))
            parts.append(child.tail or "")
        else:
            parts.append(child.text or "")
            stack.append((child, iter(child)))
    return collapse_space("".join(parts))


def _flat_text(element: etree._Element, line_break: str) -> str:
    """`text_of` an element whose children hold no element, as a number with its footnote
    <sup> is, before its whitespace is collapsed: one pass over the children."""
    parts = [element.text or ""]
    for child in element:
        tag = tag_name(child)
        if tag is None or tag in SKIPPED or tag == "table":
            pass
        elif tag == "br":
            parts.append(line_break)
        elif tag == "sup":
            parts.append(superscript(collapse_space(child.text or "")))
        else:
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return "".join(parts)


_STRIP_HTML_SPACE = methodcaller("strip", " \t\n\r\f")
_JOIN = "\x00"  # never in lxml text (libxml2 strings end at NUL); checked below all the same


def _may_collapse(joined: str) -> bool:
    """Whether collapsing would change one of the texts joined in `joined` with _JOIN: one
    holds a tab, a line break or two spaces in a row, or starts or ends with a space."""
    return (
        "  " in joined
        or "\n" in joined
        or "\t" in joined
        or "\r" in joined
        or "\f" in joined
        or joined.startswith(" ")
        or joined.endswith(" ")
        or " " + _JOIN in joined
        or _JOIN + " " in joined
    )


def collapse_many(texts: list[str]) -> list[str]:
    """[collapse_space(text) for text in texts], in one pass: on a page of short cells a call
    per cell costs more than the substitution itself, and most pages need none."""
    joined = _JOIN.join(texts)
    if not _may_collapse(joined):
        return texts
    # Most cells are a value set between line breaks and indentation ("\n    6,044\n  "):
    # stripped of HTML whitespace at both ends, they hold no run left to collapse.
    stripped = list(map(_STRIP_HTML_SPACE, texts))
    if not _may_collapse(_JOIN.join(stripped)):
        return stripped
    joined = collapse_space(joined)
    # A run of spaces never crosses the separator, so each text keeps at most one space at
    # either end, and that is what strip(" ") would remove.
    pieces = joined.replace(" " + _JOIN, _JOIN).replace(_JOIN + " ", _JOIN).split(_JOIN)
    if len(pieces) != len(texts):
        return [collapse_space(text) for text in texts]
    return pieces


def note_text(element: etree._Element) -> str:
    """A footnote's text, its lines joined with ' | ' as text captures join them."""
    # U+2028 survives the whitespace collapsing that a newline would not.
    lines = text_of(element, line_break="\u2028").split("\u2028")
    return NOTE_LINE_SEPARATOR.join(line.strip() for line in lines if line.strip())
