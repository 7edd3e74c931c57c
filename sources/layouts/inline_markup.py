"""Markdown inline markup as a reader sees it: emphasis, links, code spans, escapes, HTML
tags and comments gone, entities decoded (shared by the Markdown layout and the claims
reader, which renders a captured Markdown page's lines itself)."""

from __future__ import annotations

import html
import re

from perfledger.sources.layouts.table_text import superscript

COMMENT = re.compile(r"<!--.*?-->")
_MARKUP_CHARS = re.compile(r"[<\[`*_~\\&]")
_SUP_TAG = re.compile(r"<sup\b[^<>]*>(.*?)</sup>", re.I)
_SUP_CLOSE = re.compile(r"</sup>", re.I)
COMMENT_CLOSE = re.compile(r"-->")
_LINK_CLOSE = re.compile(r"\)")
_BR_TAG = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
# A <sup> or <sub> left open between two words ("mAP<sup>val<br>0.5:0.95"): the raised word
# stands apart from the word before it.
_RAISED_OPEN = re.compile(r"(?<=[^\W\d_])<su[pb]\b[^<>]*>(?=[^\W\d_])", re.I)
_IMAGE_OR_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^)]*\)")
_CODE = re.compile(r"`([^`]*)`")
_STRONG = re.compile(r"(\*\*|__|~~)(?=\S)((?:(?!\1).)+?)(?<=\S)\1")
_EMPHASIS_WHOLE = re.compile(r"^([*_])(?=\S)(.+?)(?<=\S)\1$")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


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
    text = sub_closed(_IMAGE_OR_LINK, _LINK_CLOSE, r"\1", text)
    text = _CODE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS_WHOLE.sub(r"\2", text)
    text = _ESCAPE.sub(r"\1", text)
    return html.unescape(text)


def sub_closed(pattern: re.Pattern[str], closer: re.Pattern[str], replacement, text: str) -> str:
    """`pattern.sub` on the text up to the last `closer`: an opener after it cannot close, and
    each such opener would otherwise cost a scan to the end of the line."""
    end = max((match.end() for match in closer.finditer(text)), default=0)
    return pattern.sub(replacement, text[:end]) + text[end:] if end else text
