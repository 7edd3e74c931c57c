"""The parse stage: archived bytes to located cells, prose and page metadata."""

from __future__ import annotations

from codecs import BOM_UTF8

import polars as pl

from perfledger.schemas.cells import surely_fits
from perfledger.sources.decode import UndecodableDocument, decode_document
from perfledger.sources.layouts import choose_layout
from perfledger.sources.layouts.base import ParsedDocument

PARSER_VERSION = "1"


class ParseFailure(ValueError):
    """A document that yields nothing usable; the message names the reason."""


def parse_document(
    data: bytes, content_type: str | None, layout: str = "auto", check: bool = True
) -> tuple[ParsedDocument, str]:
    """(parsed document, layout name). Raises ParseFailure with a reason a person can act on.

    `check=False` leaves the cell check to the caller (`check_cells`, `cells_pass`), which
    can then check many documents' cells at once."""
    if not data or data.isspace():  # as `not data.strip()`, without a copy of the page
        raise ParseFailure("the document is empty (0 bytes of text)")
    try:
        text, encoding = decode_document(data, content_type)
    except UndecodableDocument as error:
        raise ParseFailure(str(error)) from error
    chosen = choose_layout(data, content_type, layout)
    # Bytes read as UTF-8 without a BOM decoded strictly: they are the text's UTF-8, which a
    # layout reading UTF-8 need not encode again.
    if chosen.parse_utf8 is not None and encoding == "utf-8" and not data.startswith(BOM_UTF8):
        parsed = chosen.parse_utf8(text, data)
    else:
        parsed = chosen.parse(text)
    if check:
        check_cells(parsed, chosen.name)
    return parsed, chosen.name


def check_cells(parsed: ParsedDocument, layout_name: str) -> None:
    """Raise ParseFailure when a layout's cells do not fit the cell schema."""
    if surely_fits(parsed.cells):
        return  # pandera, which words the failures, is only needed when there is one
    failures = schema_failures(parsed.cells)
    if failures is not None:
        raise ParseFailure(
            f"layout {layout_name} produced malformed cells: {failures}"
        ) from failures


def cells_pass(frames: list[pl.DataFrame]) -> bool:
    """True when every frame fits the cell schema; one check, whatever the number of frames
    (the check's cost is mostly fixed, not per row)."""
    cells = pl.concat(frames)
    return surely_fits(cells) or schema_failures(cells) is None


def schema_failures(cells: pl.DataFrame) -> Exception | None:
    """pandera's SchemaErrors for cells that fail CellSchema, None when they fit. Imported
    here, as only a doubtful frame needs it: pandera costs a process about 90 MB."""
    import pandera.polars as pa

    from perfledger.schemas.cell_schema import CellSchema

    try:
        CellSchema.validate(cells, lazy=True)
    except pa.errors.SchemaErrors as error:
        return error
    return None


def parser_version(layout_name: str) -> str:
    return f"{layout_name}/{PARSER_VERSION}"
