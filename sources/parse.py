"""The parse stage: archived bytes to located cells, prose and page metadata."""

from __future__ import annotations

import pandera.polars as pa
import polars as pl

from schemas.cells import CellSchema, surely_fits
from sources.decode import UndecodableDocument, decode_document
from sources.layouts import choose_layout
from sources.layouts.base import ParsedDocument

PARSER_VERSION = "1"


class ParseFailure(ValueError):
    """A document that yields nothing usable; the message names the reason."""


def parse_document(
    data: bytes, content_type: str | None, layout: str = "auto", check: bool = True
) -> tuple[ParsedDocument, str]:
    """(parsed document, layout name). Raises ParseFailure with a reason a person can act on.

    `check=False` leaves the cell check to the caller (`check_cells`, `cells_pass`), which
    can then check many documents' cells at once."""
    if not data.strip():
        raise ParseFailure("the document is empty (0 bytes of text)")
    try:
        text, _encoding = decode_document(data, content_type)
    except UndecodableDocument as error:
        raise ParseFailure(str(error)) from error
    chosen = choose_layout(data, content_type, layout)
    parsed = chosen.parse(text)
    if check:
        check_cells(parsed, chosen.name)
    return parsed, chosen.name


def check_cells(parsed: ParsedDocument, layout_name: str) -> None:
    """Raise ParseFailure when a layout's cells do not fit the cell schema."""
    if surely_fits(parsed.cells):
        return  # pandera, which words the failures, is only needed when there is one
    try:
        CellSchema.validate(parsed.cells, lazy=True)
    except pa.errors.SchemaErrors as error:
        raise ParseFailure(f"layout {layout_name} produced malformed cells: {error}") from error


def cells_pass(frames: list[pl.DataFrame]) -> bool:
    """True when every frame fits the cell schema; one check, whatever the number of frames
    (the check's cost is mostly fixed, not per row)."""
    cells = pl.concat(frames)
    if surely_fits(cells):
        return True
    try:
        CellSchema.validate(cells, lazy=True)
    except pa.errors.SchemaErrors:
        return False
    return True


def parser_version(layout_name: str) -> str:
    return f"{layout_name}/{PARSER_VERSION}"
