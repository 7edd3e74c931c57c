"""Markdown pages: pipe tables (`| a | b |` over a `|---|` row) and HTML <table> blocks as
located cells, plus prose and the page's outline.

A table is a row of cells followed by a delimiter row with as many cells, as in GitHub's
Markdown; its rows run to the first blank line or line without a pipe. Cells are trimmed of
spaces and tabs only, so a U+00A0 cell keeps its text. A row with more cells than the header
is cut to the header's width, as GitHub shows it, and the cells cut are reported. An HTML
<table> written in the page is read by the HTML layout's own table reader, its lines being
the page's; pipe tables and HTML tables are numbered together in reading order. Fenced code
and HTML comments are not read: a table shown as code or commented out is not published data,
but for the box table a benchmark tool prints ("+---+" borders, see box_tables) and the
summary a serving benchmark prints ("Mean TTFT (ms):  120.45" lines, see console_summaries),
which are its output as the page shows it.
A MyST table directive's fence is no code (see myst_tables). Where the tables stand is found
in markdown_blocks; here they become the page's cells, prose and outline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from perfledger.sources.layouts.base import (
    BOLD_LINE_LEVEL,
    CellColumns,
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    as_caption,
    cells_frame,
    language_tag,
    outline_of,
)
from perfledger.sources.layouts.box_tables import BoxTable
from perfledger.sources.layouts.console_summaries import (
    ConsoleSummary,
)

# An HTML <table> block is read by the HTML layout's own readers.
from perfledger.sources.layouts.html_outline import outline_rows
from perfledger.sources.layouts.html_page import add_table_cells, prose_of, read_html_fragment
from perfledger.sources.layouts.inline_markup import render_inline
from perfledger.sources.layouts.listed_results import find_listed_results
from perfledger.sources.layouts.markdown_blocks import (
    ATX_HEADING,
    HtmlBlock,
    PipeTable,
    find_html_tables,
    find_tables,
    front_matter,
    hidden_lines,
    indent_of,
    is_blank,
    starts_table,
    summary_rows,
    unquoted,
)
from perfledger.sources.layouts.myst_tables import DirectiveTable, read_directive
from perfledger.sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    is_heading_like,
    machine_date,
    split_lines,
)
from perfledger.sources.layouts.pipe_cells import table_cells
from perfledger.sources.layouts.pipe_rows import (
    has_pipe,
    is_delimiter_row,
    split_row,
    with_junction_rules,
)
from perfledger.sources.layouts.pipe_sniff import sniff_pipe_tables
from perfledger.sources.layouts.printed_tables import (
    PrintedTable,
    find_printed_tables,
    first_line,
    printed_cells,
)
from perfledger.sources.layouts.statistic_lines import (
    StatisticLines,
)
from perfledger.sources.layouts.table_links import links_block
from perfledger.sources.layouts.table_text import (
    looks_like_note,
    reads_as_caption,
)

NOTE_LINE_SEPARATOR = " | "

# The patterns below that scan a whole line admit one way to match each stretch of it (the
# heading text ends on a non-blank, a link text holds no bracket, a strong run stops at its
# next delimiter), so a hostile line costs linear time, not a backtracking scan per character.
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BOLD_LINE = re.compile(r"^[ \t]*(\*\*|__)(?P<text>\S(?:.*?\S)?)\1[ \t]*+:?[ \t]*$")
_LIST_OR_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?")
# A line ending with a colon introduces what follows ("TTFT of Llama-3-8B (Unit: ms):"): it
# is the next table's caption, no footnote of the table above.
_INTRODUCES = re.compile(r"[:\uff1a]\s*$")
_BULLET = re.compile(r"^[ \t]*[-+*][ \t]+")
_LIST_ITEM = re.compile(r"[ \t]*(?:>[ \t]?)*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_HTML_TABLE_OPEN = re.compile(r"<table(?![\w-])", re.I)
_PUBLISHED_KEYS = ("date", "published", "pubdate", "publishdate", "published_date", "created")
_UPDATED_KEYS = ("lastmod", "updated", "last_updated", "modified", "last_modified")


def _heading_text(lines: list[str], index: int, hidden: set[int]) -> str | None:
    """The heading a line states: '# ...', a setext heading or a line that is all bold."""
    line = lines[index]
    atx = ATX_HEADING.match(line)
    if atx:
        return render_inline(atx.group("text") or "").strip() or None
    bold = _BOLD_LINE.match(line)
    if bold and is_heading_like(render_inline(bold.group("text"))):
        return render_inline(bold.group("text")).strip()
    below = index + 1
    if (
        below < len(lines)
        and below not in hidden
        and _SETEXT.match(lines[below])
        and not is_blank(line)
        and not has_pipe(line)
        and indent_of(line) < 4
    ):
        return render_inline(line).strip() or None
    return None


def _holds_pipe_tables(lines: list[str], hidden: set[int], block: HtmlBlock) -> bool:
    inside = lines[block.start : block.end]
    shifted = {index - block.start for index in hidden if block.start <= index < block.end}
    return bool(find_tables(inside, shifted))


def _note_lines(lines: list[str], table: PipeTable, hidden: set[int]) -> list[int]:
    """The footnote lines right after a table (one blank line allowed between), same rule as
    text captures; each footnote line is one segment of the note. A list item's bullet is no
    footnote mark: "* huawei P30 Pro (Kirin 980)" is the prose naming the next table's
    device, "* Measured in ms" a note by its words."""
    index = table.end
    if index < len(lines) and is_blank(lines[index]):
        index += 1
    found = []
    while (
        index < len(lines)
        and index not in hidden
        and not is_blank(lines[index])
        and not ATX_HEADING.match(lines[index])
        and not starts_table(lines, index, hidden)
        and looks_like_note(render_inline(_BULLET.sub("", lines[index], count=1)))
        and not _INTRODUCES.search(lines[index])
    ):
        found.append(index)
        index += 1
    return found


# ---- one table to cells --------------------------------------------------------------------


# ---- the page ------------------------------------------------------------------------------


def _prose_text(line: str) -> str:
    atx = ATX_HEADING.match(line)
    if atx:
        return render_inline(atx.group("text") or "").strip()
    return render_inline(_LIST_OR_QUOTE.sub("", line, count=1)).strip()


def _metadata(
    front: dict[str, str], headings: Sequence[tuple[int, int, str]], prose: list[str]
) -> DocumentMetadata:
    first_h1 = next((text for _, level, text in headings if level == 1), None)
    dates = find_dates(prose)
    published = next((machine_date(front[k]) for k in _PUBLISHED_KEYS if k in front), None)
    updated = next((machine_date(front[k]) for k in _UPDATED_KEYS if k in front), None)
    author = front.get("author") or front.get("authors")
    return DocumentMetadata(
        title=front.get("title") or first_h1 or find_title(prose),
        author=author.strip("[]'\" ") if author else find_author(prose),
        published_date=published or dates["published_date"],
        last_updated_date=updated or dates["last_updated_date"],
        language=language_tag(front.get("language") or front.get("lang") or front.get("locale")),
    )


def _headings(lines: list[str], hidden: set[int], taken: set[int]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of every heading; a bold line counts as level 7."""
    found = []
    for index in range(len(lines)):
        if index in hidden or index in taken:
            continue
        text = _heading_text(lines, index, hidden)
        if text:
            atx = ATX_HEADING.match(lines[index])
            found.append((index, len(atx.group("level")) if atx else 7, text))
    return found


@dataclass
class _Page:
    """A Markdown page being read: its lines sorted by role, and what its tables gave."""

    lines: list[str]
    hidden: set[int]  # front matter, fenced code, HTML comments
    headings: list[tuple[int, int, str]]  # see `_headings`
    taken: set[int]  # lines read as tables or their footnotes: not prose
    notes: set[int] = field(default_factory=set)  # the footnote lines among them
    rows: list[tuple] = field(default_factory=list)  # cells, as CELL_SCHEMA's columns
    problems: list[ParseProblem] = field(default_factory=list)
    # By the index of its first line, each table or HTML block: (index one past its last
    # line, its rows in the outline).
    placed: dict[int, tuple[int, list[tuple]]] = field(default_factory=dict)
    html_prose: list[tuple[int, str]] = field(default_factory=list)  # text of the HTML blocks
    # By a pipe table's header line, the title of the `{table}` fence holding it: line, text.
    captions: dict[int, tuple[int, str]] = field(default_factory=dict)

    def title_above(self, index: int) -> str | None:
        """The nearest heading above line `index`."""
        return next((text for at, _, text in reversed(self.headings) if at < index), None)

    def note_after(self, table: PipeTable) -> str | None:
        """The footnote right after a table (lines `table.header` to `table.end`), its lines
        taken from the prose."""
        found = _note_lines(self.lines, table, self.hidden)
        self.notes.update(found)
        self.taken.update(found)
        text = NOTE_LINE_SEPARATOR.join(render_inline(self.lines[i]).strip() for i in found)
        return text or None


def parse_pipe_tables(text: str) -> ParsedDocument:
    """Parse a Markdown page into the cells of its pipe tables and HTML tables, its prose
    lines, its outline and its metadata."""
    lines = split_lines(text.removeprefix("\ufeff"))
    front, start = front_matter(lines)
    if ">" in text:
        lines = unquoted(lines, hidden_lines(lines, start))
    directives: list[DirectiveTable] = []
    hidden = hidden_lines(lines, start, directives)
    if "-+-" in text:  # "--------+-----------" under " | " rows: psql's or tabulate's printout
        lines = with_junction_rules(lines, hidden)
    blocks = find_html_tables(lines, hidden) if _HTML_TABLE_OPEN.search(text) else []
    # A layout table whose cells hold pipe tables ("<table><tr><td>" then a Markdown table in
    # each cell, to show two side by side): the pipe tables are the page's tables.
    blocks = [block for block in blocks if not _holds_pipe_tables(lines, hidden, block)]
    in_blocks = {index for block in blocks for index in range(block.start, block.end)}
    tables = find_tables(lines, hidden | in_blocks if in_blocks else hidden)
    taken = in_blocks | {index for table in tables for index in range(table.header, table.end)}
    page = _Page(lines, hidden, _headings(lines, hidden, taken), taken)
    page.captions = _directive_captions(directives, tables)
    table_index = 0
    read_as_rst = [block for block in directives if block.name != "table"]
    code = hidden - set(range(start))
    printouts, drawn = find_printed_tables(text, lines, code)
    # results written as a list, one per item: its lines are the table's, not prose
    listed = find_listed_results(lines, hidden | taken) if "(" in text or ":" in text else []
    page.taken.update(index for run in listed for index in range(run.start, run.end))
    # Tables printed in code are numbered after the tables written as tables, so that
    # reading a page's code never renumbers (and so never re-identifies) a written table.
    written = sorted([*tables, *blocks, *read_as_rst], key=_first_line)
    printed = sorted([*printouts, *listed], key=_first_line)
    for piece in [*written, *printed]:
        if isinstance(piece, (BoxTable, ConsoleSummary, StatisticLines)):
            _read_printed(page, piece, table_index, drawn)
            table_index += 1
        elif isinstance(piece, PipeTable):
            _read_pipe_table(page, piece, table_index)
            table_index += 1
        elif isinstance(piece, DirectiveTable):
            table_index += _read_directive_table(page, piece, table_index)
        else:
            table_index += _read_html_block(page, piece, table_index)
    page.problems += _stray_rows(lines, hidden, page.taken)
    underlines = {
        index + 1
        for index, level, _ in page.headings
        if level == 7 and index + 1 < len(lines) and _SETEXT.match(lines[index + 1])
    }
    texts = _line_texts(page, underlines)
    prose = [(index + 1, text) for index, text in texts.items()]
    if page.html_prose:  # the text of the HTML blocks, in its place among the lines
        prose = sorted(prose + page.html_prose, key=itemgetter(0))
    return ParsedDocument(
        cells=cells_frame(page.rows),
        metadata=_metadata(front, page.headings, [text for _, text in prose]),
        prose=prose,
        problems=page.problems,
        outline=outline_of(summary_rows(lines[:start], front) + _outline(page, underlines, texts)),
    )


def _line_texts(page: _Page, underlines: set[int]) -> dict[int, str]:
    """By line index, the text each line of prose shows: not the lines of code, tables,
    footnotes, rules and setext underlines, nor lines that show nothing."""
    texts = {}
    for index, line in enumerate(page.lines):
        if (
            index in page.hidden
            or index in page.taken
            or index in underlines
            or _THEMATIC_BREAK.match(line)
        ):
            continue
        text = _prose_text(line)
        if text:
            texts[index] = text
    return texts


def _first_line(
    piece: PipeTable | HtmlBlock | DirectiveTable | BoxTable | ConsoleSummary | StatisticLines,
) -> int:
    return piece.header if isinstance(piece, (PipeTable, BoxTable)) else piece.start


def _directive_captions(
    directives: list[DirectiveTable], tables: list[PipeTable]
) -> dict[int, tuple[int, str]]:
    """By its header line, the title (line, text) of each pipe table a `{table}` fence
    holds."""
    captions = {}
    for block in directives:
        if block.name == "table" and block.argument:
            inside = next(
                (table for table in tables if block.start < table.header < block.end), None
            )
            if inside is not None:
                captions[inside.header] = (block.start + 1, render_inline(block.argument))
    return captions


def _read_directive_table(page: _Page, block: DirectiveTable, first_index: int) -> int:
    """Read a list-table or csv-table directive with the RST layout's reader, numbered from
    `first_index`; returns how many table numbers it takes."""
    found = read_directive(page.lines, block, first_index, page.title_above(block.start))
    page.rows += found.rows
    page.problems += found.problems
    page.placed[block.start] = (block.end, found.outline)
    return found.tables


def _read_pipe_table(page: _Page, table: PipeTable, table_index: int) -> None:
    note = page.note_after(table)
    title = page.title_above(table.header)
    found, trouble = table_cells(page.lines, table, table_index, title, note)
    page.rows += found
    page.problems += trouble
    # (line, kind, level, text, table index), as the outline's columns (layouts/base.py)
    placed: list[tuple] = [(table.header + 1, "table", None, None, table_index)]
    placed += links_block(page.lines[table.header : table.end], table.header + 1, table_index)
    caption = page.captions.get(table.header)
    if caption is not None:
        placed.insert(0, (caption[0], "caption", None, caption[1], table_index))
    page.placed[table.header] = (table.end, placed)


def _read_printed(page: _Page, piece: PrintedTable, table_index: int, drawn: list[str]) -> None:
    """Read a table printed in code (see printed_tables), titled by the heading above it."""
    start = first_line(piece)
    rows, problems, outline = printed_cells(piece, drawn, table_index, page.title_above(start))
    page.rows += rows
    page.problems += problems
    page.placed[start] = (piece.end, outline)


def _read_html_block(page: _Page, block: HtmlBlock, first_index: int) -> int:
    """Read the tables of an HTML block with the HTML layout's reader, numbered from
    `first_index`; returns how many <table> elements it holds, layout ones included."""
    markup = "\n".join(page.lines[block.start : block.end])
    fragment, trouble = read_html_fragment(markup, first_line=block.start + 1)
    page.problems += trouble
    if fragment is None:
        return 0
    last = fragment.table_at_end()
    if last is not None:  # a footnote in Markdown right after the block belongs to the table
        note = page.note_after(PipeTable(block.start, block.end))
        if note:
            fragment.add_note(last, note)
    indexes = fragment.table_indexes(first_index)
    cells = CellColumns()
    page.problems += add_table_cells(fragment, indexes, cells, page.title_above(block.start))
    page.rows += cells.rows()
    page.placed[block.start] = (block.end, outline_rows(fragment, indexes))
    page.html_prose += prose_of(fragment)
    return len(fragment.tables)


# ---- the outline ---------------------------------------------------------------------------


class _Outline:
    """The outline of a Markdown page, built as its lines are read in order."""

    def __init__(self) -> None:
        self.rows: list[tuple] = []
        self.paragraph: list[tuple[int, str]] = []  # (line index, text) read so far
        # Nothing but blank lines since the last block ended: a paragraph names the table
        # right under it only then.
        self.adjacent = False

    def text_line(self, index: int, text: str, starts_item: bool) -> None:
        if starts_item:  # a list item is a paragraph of its own
            self.end_paragraph()
        if text:  # a line of markup alone (<p align="center">) shows nothing
            self.paragraph.append((index, text))

    def end_paragraph(self) -> None:
        if self.paragraph:
            text = " ".join(text for _, text in self.paragraph)
            self.rows.append((self.paragraph[0][0] + 1, "paragraph", None, text, None))
            self.adjacent = True
            self.paragraph = []

    def heading(self, index: int, level: int, text: str) -> None:
        self.end_paragraph()
        self.rows.append((index + 1, "heading", level, text, None))
        self.adjacent = True

    def barrier(self) -> None:
        """Lines that are no block (code, a footnote, a rule): what follows is not adjacent."""
        self.end_paragraph()
        self.adjacent = False

    def tables(self, rows: list[tuple]) -> None:
        """A pipe table's row, or an HTML block's rows; the paragraph right above a table
        that reads as its caption becomes its caption."""
        self.end_paragraph()
        if (
            rows
            and rows[0][1] == "table"
            and self.adjacent
            and self.rows
            and self.rows[-1][1] == "paragraph"
            and reads_as_caption(self.rows[-1][3])
        ):
            self.rows[-1] = as_caption(self.rows[-1], rows[0][4])
        self.rows += rows
        self.adjacent = False


def _outline(page: _Page, underlines: set[int], texts: dict[int, str]) -> list[tuple]:
    """Headings, paragraphs (runs of text lines, `texts` giving what each shows), captions
    and tables in reading order. Front matter, fenced code and footnotes are no blocks."""
    lines = page.lines
    levels = {index: (level, text) for index, level, text in page.headings}
    outline = _Outline()
    index = 0
    while index < len(lines):
        if index in page.placed:
            end, rows = page.placed[index]
            outline.tables(rows)
            index = end
            continue
        line = lines[index]
        if index in page.hidden or index in page.notes:
            outline.barrier()
        elif index in underlines:
            pass  # part of the heading above
        elif index in levels:
            level, text = levels[index]
            outline.heading(index, _outline_level(lines, index, level, underlines), text)
        elif is_blank(line):
            outline.end_paragraph()
        elif _THEMATIC_BREAK.match(line):
            outline.barrier()
        else:
            outline.text_line(index, texts.get(index, ""), _LIST_ITEM.match(line) is not None)
        index += 1
    outline.end_paragraph()
    return outline.rows


def _outline_level(lines: list[str], index: int, level: int, underlines: set[int]) -> int:
    """A heading's level: ATX as written, setext 1 ('===') or 2 ('---'), a bold line 6."""
    if level <= 6:
        return level
    if index + 1 in underlines:
        return 1 if lines[index + 1].strip(" \t").startswith("=") else 2
    return BOLD_LINE_LEVEL


def _stray_rows(lines: list[str], hidden: set[int], taken: set[int]) -> list[ParseProblem]:
    """Lines written as table rows (`| a | b |`) that belong to no table: a row cut off from
    its table by a line of text, or a table without its `|---|` row. Read as text, each is
    also reported, so that no row of numbers passes unnoticed."""
    return [
        ParseProblem(
            check="pipe_row_outside_table",
            reason=(
                f"line {index + 1} is written as a table row of {len(split_row(line))} "
                "cells but belongs to no table (no header and |---| row right above it); "
                "it was read as text"
            ),
            line_number=index + 1,
            raw=line.strip(" \t"),
        )
        for index, line in enumerate(lines)
        if index not in taken and index not in hidden and _looks_like_row(line)
    ]


def _looks_like_row(line: str) -> bool:
    body = line.strip(" \t")
    return (
        indent_of(line) < 4
        and len(body) > 2
        and body.startswith("|")
        and body.endswith("|")
        and not body.endswith("\\|")
        and len(split_row(line)) >= 2
        and not is_delimiter_row(line)
    )


# The media types fetch asks for and keeps for this layout, with their weight in its Accept
# header (text/x-markdown is kept when sent, not asked for), and the file suffixes collect
# reads as this layout's pages.
MEDIA_TYPES = {"text/markdown": 0.9, "text/x-markdown": None}
SUFFIXES = {".md": "text/markdown"}
LAYOUT = Layout(
    name="pipe_table",
    sniff=sniff_pipe_tables,
    parse=parse_pipe_tables,
    media_types=MEDIA_TYPES,
    suffixes=SUFFIXES,
)
