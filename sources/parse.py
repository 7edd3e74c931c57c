"""The parse stage: archived bytes to located cells, prose and page metadata."""

from __future__ import annotations

import pandera.polars as pa

from schemas.cells import CellSchema
from sources.decode import UndecodableDocument, decode_document
from sources.layouts import choose_layout
from sources.layouts.base import ParsedDocument

PARSER_VERSION = "1"


class ParseFailure(ValueError):
    """A document that yields nothing usable; the message names the reason."""


def parse_document(
    data: bytes, content_type: str | None, layout: str = "auto"
) -> tuple[ParsedDocument, str]:
    """(parsed document, layout name). Raises ParseFailure with a reason a person can act on."""
    if not data.strip():
        raise ParseFailure("the document is empty (0 bytes of text)")
    try:
        text, _encoding = decode_document(data, content_type)
    except UndecodableDocument as error:
        raise ParseFailure(str(error)) from error
    chosen = choose_layout(data, content_type, layout)
    parsed = chosen.parse(text)
    try:
        CellSchema.validate(parsed.cells, lazy=True)
    except pa.errors.SchemaErrors as error:
        raise ParseFailure(f"layout {chosen.name} produced malformed cells: {error}") from error
    return parsed, chosen.name


def parser_version(layout_name: str) -> str:
    return f"{layout_name}/{PARSER_VERSION}"
