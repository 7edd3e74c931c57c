"""The lines and inline text of a reStructuredText page: tabs expanded as docutils expands
them, inline markup rendered as a reader sees it, a table cell's text from its lines."""

from __future__ import annotations

import re
from unicodedata import east_asian_width

from perfledger.sources.layouts.page_text import split_lines
from perfledger.sources.layouts.table_text import superscript

TAB_WIDTH = 8  # docutils' tab stops

ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
BULLET_CHARS = frozenset("-*+\u2022\u2023\u2043")
# In a cell only bullets followed by text are list markers: a cell '-' means "none".
_CELL_BULLETS = re.compile(r"(?:[-*+\u2022\u2023\u2043][ \t]+)+(?=\S)")
# A line block's mark ("| 1 Cortex A55 CPU" over "| with int8 ONNX model"): each line of the
# block is the cell's text without it.
_LINE_BLOCK = re.compile(r"\|(?:[ \t]+|$)")
# Inline markup, leftmost construct first. Each alternative scans only to the next character
# that could close it (a backtick, an asterisk, a bracket), so a line costs linear time.
_INLINE = re.compile(
    r"``(?P<literal>[^`]+)``"
    r"|:[\w.+-]+(?::[\w.+-]+)?:`(?P<role>[^`]*)`"
    r"|`(?P<reference>[^`]+)`(?:__?|:[\w.+-]+:)?"
    r"|\*\*(?P<strong>[^*]+)\*\*"
    r"|\*(?P<emphasis>[^*\s][^*]*)\*"
    r"|\[(?P<footnote>[\w#*.-]+)\]_"
    r"|\\(?P<escaped>.)"
    # A substitution reference ("yolov8m_pose |rocket|"): most stand for an icon, an image
    # that shows no text, and the definition is the page's, not the cell's; it is left out.
    r"|(?<![\w|])\|(?P<substitution>[^|\s](?:[^|]{0,38}[^|\s])?)\|(?:__?)?(?![\w|])"
)
MARKUP_CHARS = re.compile(r"[`*\\_|]")

Cell = tuple[str, int]  # (text as a reader sees it, 0-based line where it starts)
# Put after each wide character of a table's line, which a monospace display shows two
# columns wide; taken out of the cells' texts. A noncharacter: no page holds it as text.
WIDE_PAD = "\uffff"


def is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def in_display_columns(line: str) -> str:
    """The line with WIDE_PAD after each wide character (CJK, full-width forms, most emoji:
    East Asian Width W or F), so that each character stands in the column a monospace
    display shows it in: a grid table's borders line up with its cells as its author drew
    them ('| ✅ Supported |' is as wide as '+---------------+'), as docutils reads them."""
    if line.isascii():
        return line
    return "".join(
        character + WIDE_PAD if east_asian_width(character) in "WF" else character
        for character in line
    )


def page_lines(text: str) -> list[str]:
    """The page's lines, tabs expanded as docutils expands them (indentation is structure)."""
    lines = split_lines(text.removeprefix("\ufeff"))
    return [line.expandtabs(TAB_WIDTH) if "\t" in line else line for line in lines]


def render_inline(text: str) -> str:
    """Text as a reader sees it: ``code`` -> code, **bold** -> bold, `text <url>`_ -> text,
    :ref:`text <target>` -> text, escapes gone, [1]_ footnote references as superscripts,
    |substitution| references left out."""
    if MARKUP_CHARS.search(text) is None:
        return text  # most cells and many paragraphs hold no markup
    return _INLINE.sub(_rendered_piece, text)


def _rendered_piece(match: re.Match[str]) -> str:
    found = match.groupdict()
    if found["literal"] is not None:
        return found["literal"]
    for name in ("role", "reference"):
        if found[name] is not None:
            return _reference_text(found[name])
    for name in ("strong", "emphasis"):
        inner = found[name]
        if inner is not None:
            # '*a *' is no emphasis; what it holds may still be a literal or a link.
            return match.group(0) if inner[-1].isspace() else render_inline(inner)
    if found["footnote"] is not None:
        label = found["footnote"]
        return superscript(label) if label.isdigit() else f"[{label}]"
    if found["substitution"] is not None:
        return ""
    escaped = found["escaped"]
    return "" if escaped.isspace() else escaped  # an escaped space joins its neighbours


def _reference_text(content: str) -> str:
    """The text shown for `text <target>`, `<target>` or `~module.name`."""
    text = content.strip()
    if text.endswith(">") and "<" in text:
        opening = text.rindex("<")
        shown = text[:opening].strip()
        text = shown or text[opening + 1 : -1].strip()
    if text.startswith("~"):
        text = text[1:].rsplit(".", 1)[-1]  # Sphinx shows the last part only
    return text.lstrip("!")


def is_adornment(text: str) -> bool:
    """A line's text (stripped) that is one punctuation character repeated: a title's
    underline or overline, or a transition."""
    return (
        bool(text)
        and text[0] in ADORNMENT_CHARS
        and text[-1] == text[0]
        and text.count(text[0]) == len(text)
    )


def cell_of(parts: list[tuple[int, str]]) -> Cell:
    """A cell from its (line, text) parts: the text joined, the line where text starts."""
    if len(parts) == 1:  # most cells: one line, often with no markup
        line, text = parts[0]
        if text[:1] not in BULLET_CHARS and MARKUP_CHARS.search(text) is None:
            return text.strip(" \t"), line
        return render_inline(_without_cell_bullet(text.strip(" \t"))).strip(" \t"), line
    texts = [_without_cell_bullet(piece.strip(" \t")) for _, piece in parts]
    line = next((index for (index, _), text in zip(parts, texts, strict=True) if text), parts[0][0])
    return render_inline(" ".join(text for text in texts if text)).strip(" \t"), line


def _without_cell_bullet(text: str) -> str:
    # A nested bullet list in a cell reads as its items' text, and a line block as its lines.
    if text[:1] == "|":
        return _LINE_BLOCK.sub("", text, count=1) if _LINE_BLOCK.match(text) else text
    return _CELL_BULLETS.sub("", text, count=1) if text[:1] in BULLET_CHARS else text
