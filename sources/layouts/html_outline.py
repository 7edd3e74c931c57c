"""An HTML page's outline: headings, paragraphs, captions and data tables in reading order."""

from __future__ import annotations

import lxml.etree as etree  # compiled: pyright finds it in this form, not "from lxml import"

from perfledger.sources.layouts.base import BOLD_LINE_LEVEL, as_caption
from perfledger.sources.layouts.html_grid import first_row_line
from perfledger.sources.layouts.html_page import TablesAndText
from perfledger.sources.layouts.html_stream import HEADING_LEVELS, Block, CodeMark, TableMark
from perfledger.sources.layouts.table_links import links_of
from perfledger.sources.layouts.table_text import reads_as_caption


def outline_rows(
    page: TablesAndText,
    indexes: dict[etree._Element, int],
    printed: dict[int, list[tuple]] | None = None,
) -> list[tuple]:
    """The outline (OUTLINE_SCHEMA's columns, in order) of the page: headings, paragraphs,
    captions and data tables in reading order. A table's footnotes stay out of it, as they
    stay out of the prose. `printed`: by its place among the page's items, the outline rows
    of the tables a block of code prints (see html_printed)."""
    rows: list[tuple] = []
    items = page.items
    for position, item in enumerate(items):
        if isinstance(item, TableMark):
            if item.table not in page.captions and _names_next_table(page, position - 1, item):
                rows[-1] = as_caption(rows[-1], indexes[item.table])
            _add_table_rows(rows, item.table, page, indexes)
        elif isinstance(item, CodeMark):
            placed = printed.get(position) if printed else None
            if placed:
                _add_printed_rows(rows, placed, page, position)
        elif position not in page.note_items:
            rows.append(_block_row(item))
    return rows


def _names_next_table(page: TablesAndText, position: int, table: TableMark) -> bool:
    """Whether the item at `position`, right above `table`, is the table's caption."""
    if position < 0 or position in page.note_items:
        return False
    item = page.items[position]
    return (
        isinstance(item, Block)
        and not item.heading
        and item.cell == table.cell
        and reads_as_caption(item.text)
    )


def _add_printed_rows(rows: list[tuple], placed: list[tuple], page: TablesAndText, at: int) -> None:
    """The rows of the tables a block of code prints; the paragraph right above the block
    that reads as a caption is the first one's caption, as above a Markdown page's code."""
    first = placed[0]
    above = page.items[at - 1] if at else None
    if (
        first[1] == "table"
        and isinstance(above, Block)
        and not above.heading
        and at - 1 not in page.note_items
        and rows
        and rows[-1][1] == "paragraph"
        and reads_as_caption(above.text)
    ):
        rows[-1] = as_caption(rows[-1], first[4])
    rows += placed


def _add_table_rows(
    rows: list[tuple], table: etree._Element, page: TablesAndText, indexes: dict
) -> None:
    index = indexes[table]
    caption = page.captions.get(table)
    if caption is not None:
        rows.append((caption[1], "caption", None, caption[0], index))
    line = first_row_line(page.grids[table])
    rows.append((line, "table", None, None, index))
    rows += links_of((link.get("href") or "" for link in table.iter("a")), line, index)
    for inner in page.nested.get(table, ()):
        _add_table_rows(rows, inner, page, indexes)


def _block_row(block: Block) -> tuple:
    if block.heading:
        level = HEADING_LEVELS.get(block.tag, BOLD_LINE_LEVEL)
        return (block.line, "heading", level, block.text, None)
    return (block.line, "paragraph", None, block.text, None)
