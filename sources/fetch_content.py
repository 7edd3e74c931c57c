"""Whether a fetched 2xx body is a page worth versioning: of a media type some layout reads,
not a file whatever its Content-Type claims, not an error page that answered 200."""

from __future__ import annotations

import html
import re

# (leading bytes, what they mean): a body that starts like this is a file, not a page,
# whatever its Content-Type claims.
BINARY_SIGNATURES = (
    (b"%PDF-", "PDF"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"PK\x03\x04", "ZIP"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x1f\x8b", "gzip"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
    (b"Rar!\x1a\x07", "RAR"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE (old Office)"),
    (b"\x7fELF", "ELF"),
    (b"%!PS", "PostScript"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
)

# Phrases that, in a page's <title>, first <h1> or first markdown heading, mark a page that
# answered 200 but carries no content: soft 404s, access walls, bot challenges.
ERROR_PAGE_PHRASES = (
    "404",
    "page not found",
    "not found",
    "410 gone",
    "access denied",
    "403 forbidden",
    "forbidden",
    "401 unauthorized",
    "just a moment",
    "attention required",
    "checking your browser",
    "verify you are human",
    "are you a robot",
    "captcha",
    "pardon our interruption",
    "request blocked",
    "request rejected",
    "too many requests",
    "service unavailable",
    "internal server error",
    "bad gateway",
    "gateway timeout",
    "under maintenance",
)
# How much of a body is decoded to look for a title or heading.
HEAD_SCAN_BYTES = 256 * 1024


def classify_content(headers: dict[str, str], body: bytes) -> tuple[str, str]:
    """Decide whether a 2xx body is a page worth versioning.

    A declared text/plain (or missing) Content-Type is accepted when the bytes are text,
    HTML or not: servers often mislabel pages, and the layouts parse the bytes anyway. The
    media types kept are those the layouts declare (sources/layouts/__init__.py).
    """
    # Imported here: the layouts' registry is only needed once a page has arrived.
    from perfledger.sources.layouts import fetched_media_types

    if not body or body.isspace():
        return "empty_body", "the server answered with an empty body"
    media_type, charset = parse_content_type(headers.get("content-type", ""))
    if media_type and media_type not in fetched_media_types():
        return "not_html", f"Content-Type {media_type} is not HTML, text or markdown"
    signature = binary_signature(body)
    if signature is not None:
        return "not_html", f"the body is a {signature} file, not a page"
    if b"\x00" in body and not body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "not_html", "the body holds NUL bytes, so it is binary"
    heading = error_heading(decode_head(body, charset))
    if heading is not None:
        return "error_page", f"the page looks like an error page: {heading!r}"
    return "ok", ""


def parse_content_type(value: str) -> tuple[str, str | None]:
    media_type, *params = value.split(";")
    charset = None
    for param in params:
        name, _, param_value = param.partition("=")
        if name.strip().lower() == "charset":
            charset = param_value.strip().strip("\"'") or None
    return media_type.strip().lower(), charset


def binary_signature(body: bytes) -> str | None:
    return next((name for magic, name in BINARY_SIGNATURES if body.startswith(magic)), None)


def decode_head(body: bytes, charset: str | None) -> str:
    head = body[:HEAD_SCAN_BYTES]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", "replace")
    try:
        return head.decode(charset or "utf-8", "replace")
    except LookupError:
        return head.decode("utf-8", "replace")


_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.IGNORECASE | re.DOTALL)
_MARKDOWN_H1 = re.compile(r"^#[ \t]+(.+)$", re.MULTILINE)
_HTML_HINT = re.compile(r"<(?:!doctype\s+html|html|head|body|title|h1)\b", re.IGNORECASE)
_PHRASES = [re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)") for phrase in ERROR_PAGE_PHRASES]


def error_heading(text: str) -> str | None:
    """Return the title or heading that marks an error page, if any."""
    for heading in page_headings(text):
        lowered = heading.lower()
        if any(phrase.search(lowered) for phrase in _PHRASES):
            return heading
    return None


def page_headings(text: str) -> list[str]:
    """The title and first h1 of HTML, or the first heading of markdown or plain text."""
    patterns = (_TITLE, _H1) if _HTML_HINT.search(text) else (_MARKDOWN_H1,)
    headings = []
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            headings.append(clean_text(match.group(1)))
    return headings


def clean_text(fragment: str) -> str:
    without_tags = re.sub(r"<[^>]+>", " ", fragment)
    return " ".join(html.unescape(without_tags).split())
