"""Markdown inline markup as a reader sees it: emphasis, links, code spans, escapes, HTML
tags and comments gone, entities decoded (shared by the Markdown layout and the claims
reader, which renders a captured Markdown page's lines itself)."""

from __future__ import annotations

import html
import re

from perfledger.sources.layouts.table_text import superscript

COMMENT = re.compile(r"<!--.*?-->")
_MARKUP_CHARS = re.compile(r"[<\[`*_~\\&$]")
_SUP_TAG = re.compile(r"<sup\b[^<>]*>(.*?)</sup>", re.I)
_SUP_CLOSE = re.compile(r"</sup>", re.I)
COMMENT_CLOSE = re.compile(r"-->")
_LINK_CLOSE = re.compile(r"\)")
_BR_TAG = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
# A <sup> or <sub> left open between two words ("mAP<sup>val<br>0.5:0.95"): the raised word
# stands apart from the word before it.
_RAISED_OPEN = re.compile(r"(?<=[^\W\d_])<su[pb]\b[^<>]*>(?=[^\W\d_])", re.I)
# A link's destination may hold balanced parentheses ("/index.php?title=Llama_3.1_(405B)&...")
# and its text balanced brackets ("[SAMD[EAGLE2]](...)"), as CommonMark reads them; the
# innermost links go first, so that an image inside a link ("[![badge](...)](...)") is its text.
_DESTINATION = r"\((?:[^()]|\([^()]*\))*\)"
_IMAGE_OR_LINK = re.compile(r"!?\[([^\[\]]*)\]" + _DESTINATION)
_LINK_AROUND_BRACKETS = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]" + _DESTINATION)
# Bracketed download links after a name are no part of it ("bytetrack_x_mot17 [[google]](...),
# [[baidu(code:ic0i)]](...)" in a model zoo): the cell reads as the name.
_TRAILING_BADGES = re.compile(r"(?<=\S)(?:\s*[,;/|]?\s*\[\[[^\[\]]*\]\]\([^)\s]*\))+\s*$")
_CODE = re.compile(r"`([^`]*)`")
_STRONG = re.compile(r"(\*\*|__|~~)(?=\S)((?:(?!\1).)+?)(?<=\S)\1")
_EMPHASIS_WHOLE = re.compile(r"^([*_])(?=\S)(.+?)(?<=\S)\1$")
# Emphasis on some words of a text ("161 *fps*", "2.8 _ms_"): the opening mark starts a word
# and the closing one ends a word, with no mark between them; a footnote mark ("45.2*"), a
# product ("2*3*4") or a name in code ("batch_size") opens none.
_EMPHASIS_WORDS = re.compile(r"(?<![^\s(])([*_])(?=[^\s*_])([^*_]*?[^\s*_])\1(?![^\s).,;:])")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# Inline TeX a page renders with MathJax or KaTeX ("$1.8\times$", "68.9%$^*$", "TPS
# $\uparrow$"): a span between dollars holding a command or a superscript. A price ("$3.35")
# opens no span, and "$n = 256$" holds no command: both stay as written.
_TEX_SPAN = re.compile(r"\$(?=[^$\n]*[\\^])([^$\n]{1,60})\$")
_TEX_COMMANDS = {
    "times": "\u00d7",
    "uparrow": "\u2191",
    "downarrow": "\u2193",
    "approx": "\u2248",
    "sim": "~",
    "pm": "\u00b1",
    "%": "%",
    ",": "",
    " ": " ",
}
_TEX_COMMAND = re.compile(r"\\([A-Za-z]+|[%, ])")
_TEX_WRAPPER = re.compile(r"\\(?:text|mathrm|mathbf|textbf|mathit)\{([^{}]*)\}")
_TEX_SUPERSCRIPT = re.compile(r"\^\{([^{}]*)\}|\^(\S)")
_FOOTNOTE_MARKS = re.compile(r"[*\u2020\u2021\u00a7#]+")


def render_inline(text: str) -> str:
    """Cell or line text as a reader sees it: markup, links and escapes gone, entities
    decoded, <sup> footnote digits as superscripts (so '6,044<sup>1</sup>' is '6,044¹')."""
    if not _MARKUP_CHARS.search(text):
        return text  # most cells are plain text
    text = sub_closed(COMMENT, COMMENT_CLOSE, "", text)
    text = sub_closed(
        _SUP_TAG, _SUP_CLOSE, lambda match: superscript(_TAG.sub("", match.group(1))), text
    )
    text = _BR_TAG.sub(" ", text)
    text = _RAISED_OPEN.sub(" ", text)
    text = _TAG.sub("", text)
    if "[[" in text:
        text = _TRAILING_BADGES.sub("", text)
    text = sub_closed(_IMAGE_OR_LINK, _LINK_CLOSE, r"\1", text)
    if "](" in text:
        text = sub_closed(_LINK_AROUND_BRACKETS, _LINK_CLOSE, r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS_WHOLE.sub(r"\2", text)
    text = _EMPHASIS_WORDS.sub(r"\2", text)
    text = _TEX_SPAN.sub(_tex_span, text) if "$" in text else text
    text = _ESCAPE.sub(r"\1", text)
    return html.unescape(text)


def _tex_span(match: re.Match[str]) -> str:
    """A TeX span as it renders, when every command in it is one a number is written with;
    else as written."""
    inner = _TEX_WRAPPER.sub(r"\1", match.group(1))
    inner = _TEX_SUPERSCRIPT.sub(_tex_superscript, inner)
    commands = _TEX_COMMAND.findall(inner)
    if any(command not in _TEX_COMMANDS for command in commands):
        return match.group(0)
    return _TEX_COMMAND.sub(lambda found: _TEX_COMMANDS[found.group(1)], inner).strip()


def _tex_superscript(match: re.Match[str]) -> str:
    """A footnote's mark raised ("68.9%$^*$") as the mark; a power ("$R^2$") as written."""
    raised = match.group(1) if match.group(1) is not None else match.group(2)
    return raised if _FOOTNOTE_MARKS.fullmatch(raised) else f"^{raised}"


def sub_closed(pattern: re.Pattern[str], closer: re.Pattern[str], replacement, text: str) -> str:
    """`pattern.sub` on the text up to the last `closer`: an opener after it cannot close, and
    each such opener would otherwise cost a scan to the end of the line."""
    end = max((match.end() for match in closer.finditer(text)), default=0)
    return pattern.sub(replacement, text[:end]) + text[end:] if end else text
