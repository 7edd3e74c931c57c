"""Bytes to text: byte-order marks, declared charsets and mislabelled pages."""

from __future__ import annotations

import hashlib

import pytest

from perfledger.sources.decode import UndecodableDocument, decode_document

TEXT = "<p>Caf\u00e9 \u201cresults\u201d: 54\u00a0784 items/s</p>"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (b"\xef\xbb\xbf" + TEXT.encode("utf-8"), "utf-8"),
        (b"\xff\xfe" + TEXT.encode("utf-16-le"), "utf-16-le"),
        (b"\xfe\xff" + TEXT.encode("utf-16-be"), "utf-16-be"),
        (b"\xff\xfe\x00\x00" + TEXT.encode("utf-32-le"), "utf-32-le"),
    ],
    ids=["utf-8 BOM", "utf-16-le BOM", "utf-16-be BOM", "utf-32-le BOM"],
)
def test_a_byte_order_mark_decides_and_is_not_part_of_the_text(data, encoding):
    assert decode_document(data, "text/html; charset=iso-8859-1") == (TEXT, encoding)


def test_utf16_without_a_bom_is_recognised_by_its_nul_pattern():
    assert decode_document(TEXT.encode("utf-16-le")) == (TEXT, "utf-16-le")
    assert decode_document(TEXT.encode("utf-16-be")) == (TEXT, "utf-16-be")


def test_cp1252_bytes_labelled_utf8_read_as_cp1252():
    text, encoding = decode_document(b"\x93quoted\x94 54\xa0784", "text/html; charset=utf-8")
    assert text == "\u201cquoted\u201d 54\u00a0784"
    assert encoding == "cp1252"


def test_a_latin1_meta_charset_reads_as_windows_1252_as_browsers_do():
    data = b'<meta charset="iso-8859-1"><p>caf\xe9 \x93x\x94 54\xa0784</p>'
    text, encoding = decode_document(data)
    assert text == '<meta charset="iso-8859-1"><p>caf\u00e9 \u201cx\u201d 54\u00a0784</p>'
    assert encoding == "cp1252"


def test_a_meta_http_equiv_content_type_charset_is_read():
    data = (
        b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
        b"<p>\xcf\xf0\xe8\xe2\xe5\xf2</p>"
    )
    text, encoding = decode_document(data)
    assert "\u041f\u0440\u0438\u0432\u0435\u0442" in text
    assert encoding == "cp1251"


def test_utf8_wins_over_a_wrong_latin1_label():
    data = TEXT.encode("utf-8")
    assert decode_document(data, "text/html; charset=ISO-8859-1") == (TEXT, "utf-8")


def test_a_utf16_label_on_single_byte_text_is_ignored():
    data = b'<meta charset="utf-16"><p>caf\xe9</p>'
    assert decode_document(data) == ('<meta charset="utf-16"><p>caf\u00e9</p>', "cp1252")


def test_bytes_windows_1252_leaves_undefined_become_c1_controls_not_a_failure():
    text, encoding = decode_document(b"a\x81b\x9dc\x93")
    assert text == "a\x81b\x9dc\u201c"
    assert encoding == "cp1252"


def test_an_unknown_declared_charset_falls_back():
    text, _ = decode_document(b"<meta charset=x-no-such-thing><p>\x93x\x94</p>")
    assert text.endswith("<p>\u201cx\u201d</p>")


def test_binary_bytes_are_refused():
    with pytest.raises(UndecodableDocument):
        decode_document(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + TEXT.encode("utf-8"),
        b"\xff\xfe" + TEXT.encode("utf-16-le"),
        b"\x93quoted\x94 54\xa0784",
        b'<meta charset="iso-8859-1"><p>caf\xe9</p>',
    ],
)
def test_decoding_returns_text_and_never_touches_the_bytes(data):
    buffer = bytearray(data)
    digest = hashlib.sha256(data).hexdigest()
    text, encoding = decode_document(bytes(buffer))
    decode_document(buffer)  # a mutable buffer is read, never written
    assert isinstance(text, str) and isinstance(encoding, str)
    assert bytes(buffer) == data
    assert hashlib.sha256(bytes(buffer)).hexdigest() == digest
