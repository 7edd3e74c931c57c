"""Bytes to text: BOMs, declared charsets, and the usual mislabelled encodings."""

from __future__ import annotations

import codecs
import re

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_DECLARED = re.compile(rb"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]{1,40})", re.I)
_WINDOWS_1252_LABELS = {"iso8859-1": "cp1252", "latin-1": "cp1252", "ascii": "cp1252"}
_C1_ERRORS = "perfledger-c1-controls"


class UndecodableDocument(ValueError):
    """The bytes are not text in any encoding perfledger can tell apart."""


def declared_charset(data: bytes, content_type: str | None) -> str | None:
    for text in (content_type.encode("latin-1", "ignore") if content_type else b"", data[:4096]):
        match = _DECLARED.search(text)
        if match:
            name = match.group(1).decode("ascii").lower()
            try:
                return codecs.lookup(name).name
            except LookupError:
                continue
    return None


def decode_document(data: bytes, content_type: str | None = None) -> tuple[str, str]:
    """(text, encoding used). UTF-8 is tried before the declared charset when the two disagree,
    since pages labelled latin-1 are most often UTF-8; windows-1252 is the last resort. The
    bytes themselves are only read: the archive keeps them exactly as fetched."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    if b"\x00" in data[:4096] and not _looks_like_utf16(data):
        raise UndecodableDocument("the document holds NUL bytes: it is binary, not text")
    if _looks_like_utf16(data):
        encoding = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return data.decode(encoding, errors="replace"), encoding
    candidates = ["utf-8"]
    declared = _usable_declaration(declared_charset(data, content_type))
    if declared and declared not in candidates:
        candidates.append(declared)
    for encoding in candidates:
        try:
            return data.decode(encoding), encoding
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("cp1252", errors=_C1_ERRORS), "cp1252"


def _usable_declaration(declared: str | None) -> str | None:
    """The declared charset as browsers apply it (WHATWG Encoding): latin-1 and ASCII labels
    mean windows-1252, and a UTF-16 or UTF-32 label on bytes that are not (no BOM, no NUL
    pattern, both handled before) is ignored."""
    if declared is None or declared.startswith(("utf_16", "utf-16", "utf_32", "utf-32")):
        return None
    return _WINDOWS_1252_LABELS.get(declared, declared)


def _c1_control(error: UnicodeError) -> tuple[str, int]:
    # The five bytes windows-1252 leaves undefined decode to the C1 control of the same
    # number, as browsers do, instead of failing the whole page.
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return chr(error.object[error.start]), error.start + 1


def _looks_like_utf16(data: bytes) -> bool:
    sample = data[:512]
    if len(sample) < 4:
        return False
    even_nuls = sample[0::2].count(0)
    odd_nuls = sample[1::2].count(0)
    half = len(sample) // 2
    return max(even_nuls, odd_nuls) > 0.4 * half and min(even_nuls, odd_nuls) < 0.05 * half


codecs.register_error(_C1_ERRORS, _c1_control)
