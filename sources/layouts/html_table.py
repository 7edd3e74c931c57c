"""HTML pages: every data <table> as located cells, plus the page's prose and metadata.

One lxml tree serves tables, prose and metadata. On a 300 KB page with five 200-row tables,
lxml builds its tree in about 7 ms and the whole parse takes about 20 ms, where
BeautifulSoup needs about 375 ms with html.parser for its tree alone (and 285 ms with its
lxml builder, which drops `sourceline`, the cells' line numbers). libxml2 also closes omitted
</td>, </tr> and </p> tags the way browsers do, and one tree means the prose and the tables
never disagree about where a table starts or ends.

Most of the time left is lxml's: building the tree, and a Python object for each element
read. A table's cells are read a field at a time, the texts of all the cells of a row group
at once, then their lines (see `expand_rows`); each cell is known by its place in those
lists rather than as an object of its own (see `_Cells`).

libxml2's HTML parser never loads a DTD nor expands entities a document declares; only
the predefined HTML character references (&nbsp;, &amp;, ...) become characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, compress, count, groupby, islice, repeat
from operator import attrgetter, methodcaller
from typing import NamedTuple

import polars as pl
from lxml import etree

from sources.layouts.base import (
    OUTLINE_SCHEMA,
    CellColumns,
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    cells_frame,
    language_tag,
    outline_frame,
)

# The same footnote rule as text captures, so a page yields the same notes in every layout.
from sources.layouts.html_head import HeadFacts, read_head
from sources.layouts.page_text import (
    find_author,
    find_dates,
    find_title,
    is_heading_like,
    parse_date,
)
from sources.layouts.text_capture import NOTE_HINT, NOTE_MAX_CHARS

MIN_DATA_COLUMNS = 2  # a one-column table is page layout, not a results table
MIN_PROFILE_ROWS = 2  # complete rows needed before a column's type pattern counts as evidence
MAX_COLSPAN = 1000  # the HTML table model's own limits, which also bound hostile input
MAX_ROWSPAN = 65534
MAX_COLUMNS = 1000
CUT_RAW_CHARS = 2000  # of the text of a row's cells past MAX_COLUMNS kept in its problem
# Realigning a short row tries every gap against every cell: the square of the width per row.
MAX_REALIGN_COLUMNS = 64
SECTION_SEPARATOR = " \u2014 "
NOTE_LINE_SEPARATOR = " | "  # how text captures join a multi-line footnote
HEADER_LEVEL_SEPARATOR = " / "  # between the levels of a multi-row header
CAPTION_MAX_CHARS = 80  # a line right above a table that names it is short

_SKIPPED = frozenset({"script", "style", "template", "noscript", "textarea", "xmp"})
# Navigation menus and controls are visible but are page chrome, not paragraphs.
_NOT_PROSE = _SKIPPED | frozenset(
    {"head", "title", "nav", "svg", "math", "select", "button", "iframe", "object", "canvas"}
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_HEADING_LEVELS = {tag: int(tag[1]) for tag in _HEADINGS}
BOLD_LINE_LEVEL = 6  # a paragraph that is one bold run reads as the lowest heading
_BOLD_TAGS = frozenset({"b", "strong"})
# The elements that hold a layout table's text apart from the text around the table: the
# title bar of a page laid out with tables does not name the table below it.
_TABLE_PARTS = frozenset({"table", "td", "th"})
_BLOCKS = _HEADINGS | frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "html",
        "li",
        "main",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
# The runs that collapsing changes: a lone space is left alone, a substitution fewer per word.
_SPACE_TO_COLLAPSE = re.compile(r"[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+")
# The characters str.split() takes for whitespace that HTML does not (U+00A0 among them).
_NOT_HTML_SPACE = re.compile(
    "[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
_XML_DECLARATION = re.compile(r"\A(\ufeff?\s*)<\?xml[^>]*>")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CARRIAGE_RETURN = re.compile(r"\r\n?")
_SUPERSCRIPTABLE = re.compile(r"[0-9+\-=()]+")
_SUPERSCRIPTS = str.maketrans("0123456789+-=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")
# Starts only where a run of markers starts, so a long run not at the end costs one scan.
_FOOTNOTE_TAIL = re.compile(
    r"(?<![\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#])"
    r"[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021\u00a7\u00b6#]+$"
)
# The permalink Sphinx and other doc generators end a heading with: a pilcrow or an icon font's
# private-use character, which no reader sees as text.
_PERMALINK_MARK = re.compile("[\u00b6\ue000-\uf8ff]+")
_INTEGER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_DECIMAL = re.compile(r"\d*\.\d+")
# "[.,]*\d" rather than "[\d.,]*\d": one way to match, so "1,1,1,...!" fails in linear time.
_NUMBERISH = re.compile(r"[~\u2248<>+\-]?\s*[.,]*\d[\d.,]*\s*(?:%|x|k|m|b|ms|s)?", re.I)
_MACHINE_DATE = re.compile(r"\s*(\d{4}-\d{2}-\d{2})(?:[T ]|$)")
_UPDATED_WORDS = re.compile(r"\b(?:updated|modified|revised)\b", re.I)
_PUBLISHED_META = (
    "article:published_time",
    "datepublished",
    "date",
    "dc.date",
    "dcterms.date",
    "dcterms.created",
    "pubdate",
    "publish-date",
)
_UPDATED_META = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "last-modified",
)
_AUTHOR_META = ("author", "article:author", "dc.creator", "dcterms.creator")


# ---- text of elements ----------------------------------------------------------------------


def collapse_space(text: str) -> str:
    """Runs of HTML whitespace become one space, as a browser shows them; U+00A0 is kept."""
    if _NOT_HTML_SPACE.search(text) is None:
        # Only HTML whitespace, whose runs str.split() finds in C: a substitution costs a
        # step of the regex engine per character.
        return " ".join(text.split())
    return _SPACE_TO_COLLAPSE.sub(" ", text).strip(" ")


def superscript(text: str) -> str:
    """Footnote digits as superscripts, so '6,044' + <sup>1</sup> reads '6,044¹', not '6,0441'.

    Other <sup> text ('st' in 1<sup>st</sup>, '*', '†') is kept as published, glued to the
    text before it, since that is how the page reads."""
    compact = text.strip()
    if _SUPERSCRIPTABLE.fullmatch(compact):
        return compact.translate(_SUPERSCRIPTS)
    return compact


def clean_heading(text: str) -> str:
    """A heading or title without the permalink mark a doc generator ends it with ('¶', an
    icon font's private-use character), nor the space before the mark."""
    mark = _PERMALINK_MARK.search(text)
    if mark is None:
        return text  # most headings have none
    if mark.end() == len(text):  # the one mark, at the end: where generators put it
        return text[: mark.start()].strip()
    # Split rather than one pattern with the spaces before the mark: that pattern would
    # rescan a long run of spaces at each of its positions.
    pieces = _PERMALINK_MARK.split(text)
    parts = [pieces[0]]
    for piece in pieces[1:]:
        before = parts[-1]
        parts[-1] = before.rstrip()
        if before != parts[-1] and piece[:1].strip():  # 'a ¶b': the words stay apart
            parts.append(" ")
        parts.append(piece)
    return "".join(parts).strip()


def _tag(node: etree._Element) -> str | None:
    """Lower-case tag name, or None for comments and processing instructions."""
    return node.tag.lower() if isinstance(node.tag, str) else None


def text_of(element: etree._Element, line_break: str = " ") -> str:
    """The visible text of an element: scripts, comments and nested tables left out, <sup>
    footnote digits as superscripts, <br> as `line_break`, whitespace collapsed."""
    if len(element) == 0:
        return collapse_space(element.text or "")
    if not any(map(len, element)):
        return collapse_space(_flat_text(element, line_break))
    parts = [element.text or ""]
    # A depth-first walk without recursion, comments included (lxml's iterwalk skips them
    # and with them their tail text): (element, its children still to read).
    stack = [(element, iter(element))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:  # the end of `node`
            stack.pop()
            if node is not element:
                parts.append(node.tail or "")
            continue
        tag = _tag(child)
        if tag is None or tag in _SKIPPED or tag == "table":
            parts.append(child.tail or "")
        elif tag == "br":
            parts.append(line_break)
            parts.append(child.tail or "")
        elif tag == "sup":
            parts.append(superscript(text_of(child)))
            parts.append(child.tail or "")
        else:
            parts.append(child.text or "")
            stack.append((child, iter(child)))
    return collapse_space("".join(parts))


def _flat_text(element: etree._Element, line_break: str) -> str:
    """`text_of` an element whose children hold no element, as a number with its footnote
    <sup> is, before its whitespace is collapsed: one pass over the children."""
    parts = [element.text or ""]
    for child in element:
        tag = _tag(child)
        if tag is None or tag in _SKIPPED or tag == "table":
            pass
        elif tag == "br":
            parts.append(line_break)
        elif tag == "sup":
            parts.append(superscript(collapse_space(child.text or "")))
        else:
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return "".join(parts)


# ---- realignment of rows with a missing cell (shared with pipe tables) ---------------------


def cell_kind(text: str) -> str:
    """blank, integer, decimal, number or text: the coarse shape a column's cells share."""
    value = _FOOTNOTE_TAIL.sub("", text.strip(" \t\u00a0")).strip()
    if not value:
        return "blank"
    if _INTEGER.fullmatch(value):
        return "integer"
    if _DECIMAL.fullmatch(value):
        return "decimal"
    if _NUMBERISH.fullmatch(value):
        return "number"
    return "text"


@dataclass(frozen=True)
class ColumnProfile:
    """What the complete rows of a table show about each column."""

    kinds: tuple[frozenset[str], ...]  # non-blank kinds seen in the column
    can_be_blank: tuple[bool, ...]
    rows: int

    @property
    def width(self) -> int:
        return len(self.kinds)


def profile_columns(rows: Sequence[Sequence[str]], width: int) -> ColumnProfile:
    kinds: list[set[str]] = [set() for _ in range(width)]
    blank = [False] * width
    complete = [row for row in rows if len(row) == width]
    for row in complete:
        for column, text in enumerate(row):
            kind = cell_kind(text)
            if kind == "blank":
                blank[column] = True
            else:
                kinds[column].add(kind)
    return ColumnProfile(tuple(frozenset(k) for k in kinds), tuple(blank), len(complete))


def _fits(text: str, column: int, profile: ColumnProfile) -> bool:
    kind = cell_kind(text)
    return profile.can_be_blank[column] if kind == "blank" else kind in profile.kinds[column]


def realign_position(cells: Sequence[str], profile: ColumnProfile) -> int | None:
    """Where the one empty cell a row lost belongs, or None when the evidence is not clear.

    A row one cell short is placed only when the table's complete rows (at least
    MIN_PROFILE_ROWS) leave a single reading: the gap must fall in a column that is empty
    elsewhere in the table, and every other cell must have a shape its column already shows.
    Gaps at different places of one run of empty cells read the same and count as one."""
    width = profile.width
    if profile.rows < MIN_PROFILE_ROWS or len(cells) != width - 1 or width > MAX_REALIGN_COLUMNS:
        return None
    readings: dict[tuple[str, ...], int] = {}
    for gap in range(width):
        if not profile.can_be_blank[gap]:
            continue
        candidate = [*cells[:gap], "", *cells[gap:]]
        if all(_fits(text, column, profile) for column, text in enumerate(candidate)):
            folded = tuple("" if cell_kind(text) == "blank" else text for text in candidate)
            readings.setdefault(folded, gap)
    return next(iter(readings.values())) if len(readings) == 1 else None


def note_text(element: etree._Element) -> str:
    """A footnote's text, its lines joined with ' | ' as text captures join them."""
    # U+2028 survives the whitespace collapsing that a newline would not.
    lines = text_of(element, line_break="\u2028").split("\u2028")
    return NOTE_LINE_SEPARATOR.join(line.strip() for line in lines if line.strip())


def looks_like_note(text: str) -> bool:
    """The text-capture rule for a table's footnote: 'measured in', a unit, *, †, Note, ..."""
    text = text.strip()
    return (
        bool(text)
        and len(text) <= NOTE_MAX_CHARS
        and bool(NOTE_HINT.search(text) or NOTE_LINE_SEPARATOR in text)
    )


def fold_header_text(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split()).casefold()


def with_section(title: str | None, section: str | None) -> str | None:
    """A section label is context for the rows under it: it extends the table's title."""
    if not section:
        return title
    return f"{title}{SECTION_SEPARATOR}{section}" if title else section


def width_problem(
    table_index: int,
    title: str | None,
    row_number: int,
    texts: Sequence[str],
    width: int,
    line_number: int,
) -> ParseProblem:
    label = title or f"#{table_index}"
    return ParseProblem(
        check="row_width_mismatch",
        reason=(
            f"data row {row_number} of table '{label}' has {len(texts)} cells where the header "
            f"has {width}; which column each cell belongs to is not certain, so the row was "
            "not placed"
        ),
        line_number=line_number,
        table_index=table_index,
        raw=" | ".join(texts),
    )


# ---- the table grid ------------------------------------------------------------------------


@dataclass
class _Cells:
    """The cells of one table, each known by its place in these lists, its id. The grid holds
    ids: a cell is no object of its own, and a row of plain cells is a range of ids. A spanned
    cell fills every position it covers with its one id, so its value is repeated in each
    covered cell, as a reader sees it."""

    texts: list[str] = field(default_factory=list)  # whitespace collapsed
    lines: list[int] = field(default_factory=list)
    # The element of each cell, while the grid is built: a proxy object per cell of the page
    # held any longer costs memory and the collector's time.
    elements: list[etree._Element] = field(default_factory=list)
    # The row, in its group, where each cell placed around spans starts. The cells of a range
    # row start in that row: such a row neither spans nor receives a span.
    origin_rows: dict[int, int] = field(default_factory=dict)
    # Rows with cells past MAX_COLUMNS, which the grid has no place for: (line, cells cut,
    # their text, up to CUT_RAW_CHARS), each reported as a problem rather than dropped.
    cut_rows: list[tuple[int, int, str]] = field(default_factory=list)

    def add_cut(self, line: int, cut: list[etree._Element]) -> None:
        texts: list[str] = []
        length = 0
        for cell in cut:
            if length > CUT_RAW_CHARS:
                texts.append("...")
                break
            texts.append(text_of(cell))  # whitespace collapsed already
            length += len(texts[-1]) + 3
        self.cut_rows.append((line, len(cut), " | ".join(texts)))

    def add_blank(self, line: int) -> int:
        self.texts.append("")
        self.lines.append(line)
        return len(self.texts) - 1

    def add_elements(
        self, elements: list[etree._Element], row_lines: Callable[[], Iterable[int]]
    ) -> int:
        """Add a cell per <td> or <th> of `elements`; returns the id of the first. Each field
        is read for all the elements at once, in C. `row_lines()` gives, element by element,
        the line of the row each starts in."""
        first = len(self.texts)
        texts = list(map(_TEXT_OF_NODE, elements))
        # A cell holding markup: its visible text (see `text_of`). Few cells do: they are
        # picked out in C.
        for index in compress(count(), map(len, elements)):
            texts[index] = text_of(elements[index])
        if not all(texts):  # an empty cell, whose text lxml gives as None
            texts = [text or "" for text in texts]
        self.texts += _collapse_many(texts)
        lines = list(map(_LINE_OF_NODE, elements))
        if not all(lines):  # libxml2 knew no line: the cell starts where its row does
            lines = [line or fallback for line, fallback in zip(lines, row_lines(), strict=True)]
        self.lines += lines
        self.elements += elements
        return first

    def is_header(self, cell: int) -> bool:
        return self.elements[cell].tag == "th"


# A row of the grid: cell ids by column, None where no cell is; a range for a plain row.
_Row = list[int | None] | range

# C-level getters: a list comprehension costs a Python step per cell.
_CELL_ELEMENTS_OF = methodcaller("iterchildren", "td", "th")  # the tag filter runs in C
_TEXT_OF_NODE = attrgetter("text")
_TAG_OF = attrgetter("tag")
_LINE_OF_NODE = attrgetter("sourceline")
_PARENT_OF = methodcaller("getparent")
_COLSPAN_OF = methodcaller("get", "colspan")
_ROWSPAN_OF = methodcaller("get", "rowspan")


def _span(cell: etree._Element, name: str, default: int, limit: int) -> int:
    value = cell.get(name)
    if value is None:
        return default
    # Nine digits are past every limit; more would make int() refuse a 5,000-digit span.
    match = re.match(r"\s*0*(\d{1,9})", value)
    return min(int(match.group(1)), limit) if match else default


def _line(node: etree._Element, fallback: int = 1) -> int:
    return node.sourceline or fallback


_CELL_TAGS = frozenset({"td", "th"})  # a set test: one read of `.tag`, which builds a string


def _cells_of(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if cell.tag in _CELL_TAGS]


# Whether an element of a table has a span attribute, in one walk of the table in C: reading
# the two attributes of every cell from Python costs four times as much.
_HOLDS_SPANS = etree.XPath("boolean(descendant::*/@colspan | descendant::*/@rowspan)")
_HOLDS_TABLE = etree.XPath("boolean(descendant::table)")
# A cell that is a number as published: digits with separators, a sign, a decimal point.
_NUMBER_LIKE = re.compile(r"[-+\u2212]?\d[\d,.\s\u00a0\u202f]*")


def _any_span(cells: list[etree._Element]) -> bool:
    """Whether a cell has a colspan or rowspan attribute (an empty one spans nothing)."""
    return any(map(_COLSPAN_OF, cells)) or any(map(_ROWSPAN_OF, cells))


_JOIN = "\x00"  # never in lxml text (libxml2 strings end at NUL); checked below all the same


def _may_collapse(texts: list[str]) -> bool:
    """Whether collapsing would change one of `texts`: one holds a tab, a line break or two
    spaces in a row, or starts or ends with a space. Joined with spaces, the texts that are
    not empty show all but the first and the last of these as two spaces in a row."""
    joined = " ".join(filter(None, texts))
    return (
        "  " in joined
        or "\n" in joined
        or "\t" in joined
        or "\r" in joined
        or "\f" in joined
        or joined.startswith(" ")
        or joined.endswith(" ")
    )


def _collapse_many(texts: list[str]) -> list[str]:
    """[collapse_space(text) for text in texts], in one pass: on a page of short cells a call
    per cell costs more than the substitution itself, and most pages need none."""
    if not _may_collapse(texts):
        return texts
    joined = collapse_space(_JOIN.join(texts))
    # A run of spaces never crosses the separator, so each text keeps at most one space at
    # either end, and that is what strip(" ") would remove.
    pieces = joined.replace(" " + _JOIN, _JOIN).replace(_JOIN + " ", _JOIN).split(_JOIN)
    if len(pieces) != len(texts):
        return [collapse_space(text) for text in texts]
    return pieces


def expand_rows(rows: Sequence[etree._Element], cells: _Cells, spans: bool = True) -> list[_Row]:
    """The row group as a grid of the ids of its cells, added to `cells`, with colspan and
    rowspan expanded; None is a hole no cell fills. `spans=False` says that no cell has a
    colspan or rowspan attribute."""
    counts = list(map(len, rows))
    elements = list(chain.from_iterable(map(_CELL_ELEMENTS_OF, rows)))
    if (
        len(elements) != sum(counts)  # a comment or another element among the cells
        or max(counts, default=0) > MAX_COLUMNS
        or (spans and _any_span(elements))
    ):
        return _expand_rows_one_by_one(rows, cells, spans)
    # The common case, every row plain: its cells in order, all the group's cells added at
    # once; each row is the range of its cells' ids.
    first = cells.add_elements(
        elements, lambda: chain.from_iterable(map(repeat, map(_line, rows), counts))
    )
    bounds = list(accumulate(counts, initial=first))
    return list(map(range, bounds, islice(bounds, 1, None)))


def _expand_rows_one_by_one(
    rows: Sequence[etree._Element], cells: _Cells, spans: bool
) -> list[_Row]:
    """`expand_rows` a row at a time: a row that spans nothing and receives no span from
    above is plain, a cell per column; the cells of any other row are placed around the
    spans. The grid holds the ids the cells will have; they are added at the end, at once."""
    grid: list[_Row] = [[] for _ in rows]
    placed: list[etree._Element] = []
    row_lines: list[int] = []
    first = len(cells.texts)
    for index, row in enumerate(rows):
        row_cells = _cells_of(row)
        start = len(placed)
        if not grid[index] and not (spans and _any_span(row_cells)):
            placed += row_cells[:MAX_COLUMNS]
            grid[index] = range(first + start, first + len(placed))
            cut = row_cells[MAX_COLUMNS:]
        else:
            cut = _place_spanning_cells(grid, index, row_cells, placed, first, cells.origin_rows)
        if cut:
            cells.add_cut(_line(row), cut)
        row_lines += [_line(row)] * (len(placed) - start)
    cells.add_elements(placed, lambda: row_lines)
    return grid


def _place_spanning_cells(
    grid: list[_Row],
    index: int,
    row_cells: list[etree._Element],
    placed: list[etree._Element],
    first: int,
    origin_rows: dict[int, int],
) -> list[etree._Element]:
    """Place one row's cells around the spans from above: each cell joins `placed`, and its
    id, first + its place there, fills the positions it covers. Returns the cells left
    without a place, past MAX_COLUMNS."""
    column = 0
    for order, cell in enumerate(row_cells):
        ids = grid[index]
        while column < len(ids) and ids[column] is not None:
            column += 1
        if column >= MAX_COLUMNS:
            return row_cells[order:]
        colspan = min(max(_span(cell, "colspan", 1, MAX_COLSPAN), 1), MAX_COLUMNS - column)
        rowspan = _span(cell, "rowspan", 1, MAX_ROWSPAN)
        # rowspan="0" reaches to the end of the row group.
        last = len(grid) if rowspan == 0 else min(len(grid), index + rowspan)
        cell_id = first + len(placed)
        placed.append(cell)
        origin_rows[cell_id] = index
        for covered in range(index, max(last, index + 1)):
            target = grid[covered]  # a list: only rows not yet reached receive spans
            if len(target) < column + colspan:
                target.extend([None] * (column + colspan - len(target)))
            for position in range(column, column + colspan):
                if target[position] is None:  # overlapping spans: the first cell keeps it
                    target[position] = cell_id
        column += colspan
    return []


def _is_empty(ids: _Row) -> bool:
    # range.count(None) would compare None with each id
    return not ids if isinstance(ids, range) else ids.count(None) == len(ids)


def _is_section_row(ids: _Row, width: int) -> bool:
    """One cell spanning the table's full width: a label for the rows under it."""
    first = ids[0] if ids else None
    if first is None or len(ids) < width or (len(ids) > 1 and ids[1] != first):
        return False  # the cheap tests first: most rows are not one cell
    return ids.count(first) == len(ids)


@dataclass
class _Grid:
    cells: _Cells
    header_rows: list[_Row]
    body_rows: list[tuple[etree._Element, _Row, int]]  # (tr, cell ids, row index in group)
    foot_notes: list[str]  # the text of each <tfoot> cell
    lead_section: str | None
    # Added to the lines of the rows' elements: the lines before a piece of HTML read apart
    # from the document it sits in (see `TablesAndText.shift_lines`).
    line_offset: int = 0

    @property
    def width(self) -> int:
        return max((len(ids) for ids in self.header_rows), default=0)


def _row_groups(rows: Iterable[etree._Element]) -> tuple[list, list[list], list]:
    """The table's rows (all its <tr>, in document order): thead rows, body groups in order
    (rowspans stop at a group's end), tfoot rows."""
    head: list[etree._Element] = []
    foot: list[etree._Element] = []
    body: dict[etree._Element, list[etree._Element]] = {}
    # The rows of a group follow each other: a step per run of rows with the same parent.
    for parent, run in groupby(rows, _PARENT_OF):
        group = _tag(parent) if parent is not None else None
        if group == "thead":
            head += run
        elif group == "tfoot":
            foot += run
        else:
            body.setdefault(parent, []).extend(run)
    return head, list(body.values()), foot


def _take_sections(
    rows: list[tuple[etree._Element, _Row, int]], width: int, cells: _Cells
) -> list[str]:
    """Remove and return the labels of the full-width single-cell rows leading `rows`."""
    labels = []
    while rows and _is_section_row(rows[0][1], width):
        labels.append(cells.texts[rows.pop(0)[1][0]])
    return labels


def _all_header_cells(ids: _Row, cells: _Cells) -> bool:
    return None not in ids and all(map(cells.is_header, ids))


def _spanned_from(ids: _Row, header: list[tuple[etree._Element, _Row, int]]) -> bool:
    """Whether a header cell's rowspan reaches into the row: the row is a header level too."""
    if isinstance(ids, range):
        return False  # a plain row receives no span
    header_cells = {cell for _row, above, _index in header for cell in above}
    return not header_cells.isdisjoint(ids)


def _wholly_bold(element: etree._Element) -> bool:
    """Whether every visible character of the element is inside <b> or <strong>. (Recursive:
    libxml2 nests elements 256 deep at most.)"""
    if (element.text or "").strip():
        return False
    for child in element:
        tag = _tag(child)
        if tag is not None and tag not in _BOLD_TAGS and tag != "br" and not _wholly_bold(child):
            return False
        if (child.tail or "").strip():
            return False
    return True


def _is_bold_row(ids: _Row, cells: _Cells) -> bool:
    """A row of cells written bold, as a header is where a page does without <th>."""
    shown = [cell for cell in ids if cell is not None and cells.texts[cell].strip(" \u00a0")]
    return bool(shown) and all(_wholly_bold(cells.elements[cell]) for cell in shown)


def _take_header(body: list[tuple[etree._Element, _Row, int]], cells: _Cells) -> list:
    """Remove and return the header rows leading a table without <thead>: the rows made only
    of <th>, else the bold rows of a table without <th> followed by a row that is not bold;
    each with the rows a header cell's rowspan reaches. Else the first row alone."""
    header = []
    while body and body[0][1] and _all_header_cells(body[0][1], cells):
        header.append(body.pop(0))
    # The first row tested first: the cells' tags are only read when it is bold.
    if not header and body and _is_bold_row(body[0][1], cells):
        bold = 1
        while bold < len(body) and _is_bold_row(body[bold][1], cells):
            bold += 1
        if bold < len(body) and "th" not in map(_TAG_OF, cells.elements):
            header = body[:bold]
            del body[:bold]
    while header and body and _spanned_from(body[0][1], header):
        header.append(body.pop(0))
    if not header and body:
        header.append(body.pop(0))
    return header


def build_grid(table: etree._Element) -> _Grid:
    """Header rows, body rows and footer rows of a data table, spans expanded; the rows of
    a table nested in one of its cells are that table's, not its own.

    The header is the <thead>; without one, the leading rows made only of <th> or, in a table
    without <th>, made only of bold text, and the rows their rowspans reach; else the first
    row. Full-width single cells above the header are a label for the whole table."""
    cells = _Cells()
    head, body_groups, foot = _row_groups(own_rows(table))
    spans = _HOLDS_SPANS(table)
    header = [
        (row, ids, index)
        for index, (row, ids) in enumerate(zip(head, expand_rows(head, cells, spans), strict=True))
    ]
    body = [
        (group[index], ids, index)
        for group in body_groups
        for index, ids in enumerate(expand_rows(group, cells, spans))
    ]
    widest = max((len(ids) for _row, ids, _index in header + body), default=0)
    lead = _take_sections(header, widest, cells)
    if not header:
        lead += _take_sections(body, widest, cells)
        header = _take_header(body, cells)
    label = " ".join(text for text in lead if text.strip(" \u00a0")) or None
    cells.elements.clear()
    notes = [note_text(cell) for row in foot for cell in _cells_of(row)]
    return _Grid(
        cells,
        [ids for _row, ids, _index in header],
        body,
        [note for note in notes if note.strip()],
        label,
    )


def _header_names(rows: list[_Row], width: int, cells: _Cells) -> list[tuple[str, int]]:
    """(name, line) per column: the texts of a multi-row header joined top to bottom with
    ' / ', a cell spanning several header rows counted once and empty levels left out."""
    names = []
    for column in range(width):
        seen: list[int] = []
        for ids in rows:
            cell = ids[column] if column < len(ids) else None
            if cell is not None and cell not in seen:
                seen.append(cell)
        texts: list[str] = []
        for cell in seen:
            text = cells.texts[cell]
            # The same label written again in the level below adds nothing to the name.
            if text.strip(" \u00a0") and (not texts or texts[-1] != text):
                texts.append(text)
        line = cells.lines[seen[0]] if seen else 1
        fallback = cells.texts[seen[0]] if seen else ""
        names.append((HEADER_LEVEL_SEPARATOR.join(texts) if texts else fallback, line))
    return names


def first_row_line(grid: _Grid) -> int:
    """The line where the table's first row (its header) starts."""
    lines = grid.cells.lines
    return min((lines[cell] for cell in grid.header_rows[0] if cell is not None), default=1)


def own_rows(table: etree._Element) -> Iterable[etree._Element]:
    """The table's rows, without those of the tables nested in its cells."""
    if not _HOLDS_TABLE(table):  # the usual table: every row inside is its own (C walks)
        return table.iter("tr")
    return [row for row in table.iter("tr") if next(row.iterancestors("table")) is table]


def reads_as_data(table: etree._Element) -> bool:
    """Whether a table that holds tables is a results table with a table in some cell rather
    than a table laying out the page: two rows of its own or more, one with two cells or
    more, and a cell of its own (nested tables left out) that reads as a number."""
    rows = list(own_rows(table))
    if len(rows) < 2 or max(len(_cells_of(row)) for row in rows) < MIN_DATA_COLUMNS:
        return False
    return any(_NUMBER_LIKE.fullmatch(text_of(cell))
               for row in rows[1:] for cell in _cells_of(row))


def data_tables(tables: list[etree._Element]) -> list[etree._Element]:
    """The page's tables (all of them, in document order) that may hold data: not marked as
    presentation, not inside a script, template or the like, and holding no table unless it
    `reads_as_data` (a table holding tables usually lays out the page)."""
    holders: set[etree._Element] = set()
    hidden: set[etree._Element] = set()
    for table in tables:
        # Walking up from every table finds the tables that hold one, without walking down
        # through every table's cells.
        for ancestor in table.iterancestors():
            if ancestor.tag == "table":
                holders.add(ancestor)
            if _tag(ancestor) in _SKIPPED:
                hidden.add(table)
    return [
        table
        for table in tables
        if (table.get("role") or "").lower() not in ("presentation", "none")
        and (table not in holders or reads_as_data(table))
        and table not in hidden
    ]


# ---- one table to cells --------------------------------------------------------------------


def _fit_row(
    ids: _Row, index: int, width: int, profile: ColumnProfile | None, line: int, cells: _Cells
) -> _Row | None:
    """The row's cell id per column, or None when its cells cannot be placed with certainty."""
    inside = ids[:width]
    extra = ids[width:]
    if len(inside) == width and None not in inside:
        # Surplus cells are a span running past the edge or empty cells: nothing is lost.
        if all(
            cell is None or cell in inside or cell_kind(cells.texts[cell]) == "blank"
            for cell in extra
        ):
            return inside
        return None
    own = [cell for cell in ids if cell is not None]
    distinct = len(set(own)) == len(own)
    if (
        profile is not None
        and len(own) == width - 1
        and len(ids) == width - 1
        and distinct
        and (isinstance(ids, range) or all(cells.origin_rows[cell] == index for cell in own))
    ):
        gap = realign_position([cells.texts[cell] for cell in own], profile)
        if gap is not None:
            return [*own[:gap], cells.add_blank(line), *own[gap:]]
    return None


def table_cells(
    grid: _Grid, table_index: int, title: str | None, note: str | None, out: CellColumns
) -> list[ParseProblem]:
    """Add the cells of one data table to `out`; rows whose cells cannot be placed are
    returned as problems."""
    cells = grid.cells
    texts = cells.texts
    width = grid.width
    note = NOTE_LINE_SEPARATOR.join([*grid.foot_notes, *([note] if note else [])]) or None
    names = _header_names(grid.header_rows, width, cells)
    header_texts = [_folded_texts(ids, texts) for ids in grid.header_rows]
    header_texts.append([fold_header_text(name) for name, _ in names])
    heading = with_section(title, grid.lead_section)
    # As in text captures, the column's name is its header text stripped; the header cell's
    # raw value keeps the text as published.
    columns = [name.strip() for name, _ in names]
    out.add_rows(
        table_index, note, columns, [heading], [0], [name for name, _ in names],
        [line for _, line in names],
    )
    entries = _published_rows(grid, width, header_texts, heading)
    # A range, a plain row, has no hole.
    complete = [
        len(ids) == width and (isinstance(ids, range) or None not in ids)
        for _, ids, _, _ in entries
    ]
    problems = []
    if all(complete):  # the common case: every row placed as it stands
        placed = [ids for _, ids, _, _ in entries]
        row_titles = [row_title for _, _, _, row_title in entries]
        row_numbers = list(range(1, len(entries) + 1))
    else:
        placed, row_titles, row_numbers = _place_rows(
            entries, complete, width, grid, table_index, problems
        )
    out.add_rows(
        table_index, note, columns, row_titles, row_numbers,
        _values_of(texts, placed), _values_of(cells.lines, placed),
    )
    label = heading or f"#{table_index}"
    problems += [
        ParseProblem(
            check="table_too_wide",
            reason=(f"a row of table '{label}' has {count} cells past column {MAX_COLUMNS}, "
                    "the most this parser places; those cells were not read"),
            line_number=line,
            table_index=table_index,
            raw=raw,
        )
        for line, count, raw in cells.cut_rows
    ]
    return problems


def _values_of(values: list, rows: list[_Row]) -> list:
    """values[cell] for every cell of `rows`, in order. Plain rows whose ids follow on, as
    most do, are read as one slice: reading the cells one by one costs a step each."""
    out: list = []
    start = stop = 0  # the run of ids not read yet
    for ids in rows:
        if isinstance(ids, range) and ids.start == stop:
            stop = ids.stop
            continue
        out += values[start:stop]
        if isinstance(ids, range):
            start, stop = ids.start, ids.stop
        else:
            out += map(values.__getitem__, ids)
            start = stop = 0
    out += values[start:stop]
    return out


def _place_rows(
    entries: list[tuple[etree._Element, _Row, int, str | None]],
    complete: list[bool],
    width: int,
    grid: _Grid,
    table_index: int,
    problems: list[ParseProblem],
) -> tuple[list[_Row], list[str | None], list[int]]:
    """(cell ids, row titles, row numbers) of the rows that can be placed, some of them
    not complete; the others join `problems`."""
    cells = grid.cells
    # Only a row that does not fit needs the columns' type pattern.
    profile = profile_columns(
        [
            [cells.texts[cell] for cell in ids]
            for (_, ids, _, _), whole in zip(entries, complete, strict=True)
            if whole
        ],
        width,
    )
    placed: list[_Row] = []
    row_titles: list[str | None] = []
    row_numbers: list[int] = []
    for row_number, ((row, ids, index, row_title), whole) in enumerate(
        zip(entries, complete, strict=True), start=1
    ):
        # A complete row, the common case, is placed as it stands.
        line = 0 if whole else _line(row) + grid.line_offset
        fitted = ids if whole else _fit_row(ids, index, width, profile, line, cells)
        if fitted is None:
            texts = [cells.texts[cell] for cell in ids if cell is not None]
            problems.append(width_problem(table_index, row_title, row_number, texts, width, line))
            continue
        placed.append(fitted)
        row_titles.append(row_title)
        row_numbers.append(row_number)
    return placed, row_titles, row_numbers


def _published_rows(
    grid: _Grid, width: int, header_texts: list[list[str]], heading: str | None
) -> list[tuple[etree._Element, _Row, int, str | None]]:
    """(tr, cell ids, row index, title) of the body rows that publish values: not empty, not a
    section label (which extends the title of the rows under it), not the header repeated."""
    entries = []
    title = heading
    texts = grid.cells.texts
    header_firsts = {row[0] for row in header_texts if row}
    folded: dict[str, str] = {}  # many rows share their first cell's text
    for row, ids, index in grid.body_rows:
        if isinstance(ids, range) and len(ids) > 1:
            pass  # plain cells, two or more: neither empty nor a section label
        elif _is_empty(ids):
            continue  # an empty <tr> publishes nothing
        elif _is_section_row(ids, width):
            label = texts[ids[0]]
            if label.strip(" \u00a0"):  # an empty full-width row only spaces the table out
                title = with_section(heading, label)
            continue
        # The header repeated inside the body, as long tables do, is left out. The cheap test
        # first: most rows differ from the header in cell one.
        text = texts[ids[0]] if ids and ids[0] is not None else ""
        first = folded.get(text)
        if first is None:
            first = folded[text] = fold_header_text(text)
        if first and first in header_firsts and _folded_texts(ids, texts) in header_texts:
            continue
        entries.append((row, ids, index, title))
    return entries


def _folded_texts(ids: _Row, texts: list[str]) -> list[str]:
    return [fold_header_text(texts[cell] if cell is not None else "") for cell in ids]


# ---- the page: a stream of text blocks and tables ------------------------------------------


class _Block(NamedTuple):  # a tuple: made without a Python call per field
    line: int
    text: str
    tag: str
    heading: bool  # h1-h6, or a paragraph that is a single bold run
    owner: int  # serial of the element the text belongs to: <br> cuts one element's text
    cell: int  # serial of the table cell (or table) the text is in; 0 outside any table


class _TableMark(NamedTuple):
    table: etree._Element
    cell: int  # as _Block.cell: a block names the table after it only from the same cell


@dataclass
class _Open:
    tag: str
    heading: bool
    serial: int
    line: int | None = None
    cell: int = 0  # see _Block.cell
    parts: list[str] = field(default_factory=list)


def _is_bold_line(element: etree._Element) -> bool:
    children = list(element)
    if len(children) != 1 or _tag(children[0]) not in ("strong", "b"):
        return False
    if (element.text or "").strip() or (children[0].tail or "").strip():
        return False
    return is_heading_like(text_of(children[0]))


class _Stream:
    """Cuts the page into text blocks in reading order, with data tables as markers."""

    def __init__(self, data_tables: set[etree._Element]):
        self.data_tables = data_tables
        self.items: list[_Block | _TableMark] = []
        self.open = [_Open("#document", False, 0)]
        self.serial = 0
        self.last_line = 1

    def add(self, text: str | None) -> None:
        if not text:
            return
        block = self.open[-1]
        if block.line is None:
            # Text after a nested block has no line of its own in the tree: it starts at or
            # after the last element seen, which is the closest line known.
            block.line = self.last_line
        block.parts.append(text)

    def flush(self) -> None:
        block = self.open[-1]
        if not block.parts:  # most flushes, at the edges of nested blocks, have no text
            block.line = None
            return
        joined = "".join(block.parts)
        # Many flushes have only the line breaks between tags: only the rest needs collapsing.
        text = collapse_space(joined).strip() if joined.strip() else ""
        if text and block.heading:
            text = clean_heading(text)
        if text:
            self.items.append(
                _Block(block.line or self.last_line, text, block.tag, block.heading,
                       block.serial, block.cell)
            )
        block.parts.clear()
        block.line = None

    def read(self, root: etree._Element) -> None:
        """Walk the tree from `root` in document order, without recursion and comments
        included (lxml's iterwalk skips them and with them their tail text)."""
        # (element, its children still to read, whether it opened a block); the first entry
        # holds `root` alone.
        stack: list[tuple[etree._Element | None, Iterator, bool]] = [(None, iter((root,)), False)]
        while stack:
            node, children, opened = stack[-1]
            child = next(children, None)
            if child is None:  # the end of `node`
                stack.pop()
                if node is not None:
                    if opened:
                        self.flush()
                        self.open.pop()
                    self.add(node.tail)
                continue
            opened = self._enter(child)
            if opened is None:
                self.add(child.tail)
            else:
                stack.append((child, iter(child), opened))

    def _enter(self, node: etree._Element) -> bool | None:
        """Read what `node` starts with. None: its children are not read; else whether it
        opened a block."""
        tag = node.tag
        if not isinstance(tag, str):  # a comment: not shown, though its tail is
            return None
        tag = tag.lower()
        line = node.sourceline
        if line is not None and line > self.last_line:
            self.last_line = line
        if node in self.data_tables:
            self.flush()
            self.items.append(_TableMark(node, self.open[-1].cell))
            return None
        if tag in _NOT_PROSE:
            return None
        if tag == "br" or tag == "hr":
            self.flush()
            return None
        if tag == "sup":
            self.add(superscript(text_of(node)))
            return None
        opens = tag in _BLOCKS
        if opens:
            self.flush()
            heading = tag in _HEADINGS or (tag in ("p", "div") and _is_bold_line(node))
            self.serial += 1
            cell = self.serial if tag in _TABLE_PARTS else self.open[-1].cell
            self.open.append(_Open(tag, heading, self.serial, line, cell))
        self.add(node.text)
        return opens


# ---- page metadata -------------------------------------------------------------------------


@dataclass
class _PageElements:
    """The elements page-level facts come from, found in one walk of the tree (each walk of a
    200 KB page's tree costs about as much as reading its largest table)."""

    tables: list[etree._Element] = field(default_factory=list)
    metas: list[etree._Element] = field(default_factory=list)
    with_itemprop: list[etree._Element] = field(default_factory=list)  # the root excepted
    times: list[etree._Element] = field(default_factory=list)
    author_links: list[etree._Element] = field(default_factory=list)  # <a> and <link>
    title: etree._Element | None = None  # the first <title> below the root


_PAGE_TAGS = ("table", "meta", "time", "a", "link", "title")
_WITH_ITEMPROP = etree.XPath("descendant::*[@itemprop]")
# Testing each element's attributes, as the predicate above does, costs four times as much as
# collecting the attributes themselves.
_HAS_ITEMPROP = etree.XPath("boolean(descendant::*/@itemprop)")


def page_elements(root: etree._Element) -> _PageElements:
    """The page's elements of interest, in document order."""
    found = _PageElements()
    by_tag = {
        "table": found.tables,
        "meta": found.metas,
        "time": found.times,
        "a": found.author_links,
        "link": found.author_links,
    }
    # The tag filter runs in lxml's C code: no Python step for the other elements.
    for element in root.iter(*_PAGE_TAGS):
        tag = element.tag
        if tag != "title":
            by_tag[tag].append(element)
        elif found.title is None and element is not root:
            found.title = element
    if _HAS_ITEMPROP(root):
        found.with_itemprop = _WITH_ITEMPROP(root)
    return found


def attribute_names_in(markup: bytes, names: Sequence[str]) -> set[str]:
    """The names among `names` (lower case) that may name an attribute of some element of the
    page. libxml2 takes attribute names from the markup alone and lower-cases them (ASCII
    only), so a name absent from the lower-cased markup names no attribute; a NUL, which
    libxml2 may drop from a name, leaves every name possible."""
    lowered = markup.lower()
    if b"\x00" in lowered:
        return set(names)
    return {name for name in names if name.encode("ascii") in lowered}


def may_hold_spans(text: str) -> bool:
    """Whether a decoded page may give some cell a colspan or rowspan, judged from its markup
    without parsing it: when it says False, `parse_html` finds no span in any table either."""
    markup = text.encode("utf-8", "surrogatepass")
    return bool(attribute_names_in(markup, ("colspan", "rowspan")))


def _meta_values(found: _PageElements, head: HeadFacts) -> dict[str, str]:
    values: dict[str, str] = dict(head.meta)
    for meta in found.metas:
        key = meta.get("property") or meta.get("name") or meta.get("itemprop")
        content = meta.get("content")
        if key and content and content.strip():
            values.setdefault(key.strip().lower(), collapse_space(content))
    for node in found.with_itemprop:
        key = node.get("itemprop")
        value = node.get("datetime") or node.get("content")
        if key and value:
            values.setdefault(key.strip().lower(), value.strip())
    return values


def machine_date(value: str | None) -> str | None:
    """The date of a machine-readable value ('2023-07-04T09:00:00Z' included), ISO, or None."""
    if not value:
        return None
    stamp = _MACHINE_DATE.match(value)
    return parse_date(stamp.group(1) if stamp else value)


def _first_meta(values: dict[str, str], keys: Sequence[str]) -> str | None:
    return next((values[key] for key in keys if key in values), None)


_REL_OF = methodcaller("get", "rel")


def _meta_author(found: _PageElements, values: dict[str, str]) -> str | None:
    for key in _AUTHOR_META:
        value = values.get(key)
        if value and not value.lower().startswith(("http://", "https://")):
            return value
    # The rel attribute of every link read in C: most links have none.
    for node, rel in zip(found.author_links, map(_REL_OF, found.author_links), strict=True):
        if rel and "author" in rel.lower().split():
            name = text_of(node) if _tag(node) == "a" else (node.get("title") or "")
            if name.strip():
                return name.strip()
    return None


def _time_dates(found: _PageElements) -> tuple[str | None, str | None]:
    """(published, updated) from <time datetime>: updated when its sentence says so."""
    published = updated = None
    for node in found.times:
        if any(_tag(a) in _NOT_PROSE for a in node.iterancestors()):
            continue
        found = machine_date(node.get("datetime")) or parse_date(text_of(node))
        if found is None:
            continue
        parent = node.getparent()
        context = text_of(parent) if parent is not None else ""
        if _UPDATED_WORDS.search(context):
            updated = updated or found
        else:
            published = published or found
    return published, updated


def page_metadata(
    found: _PageElements, blocks: Sequence[_Block], head: HeadFacts, root: etree._Element
) -> DocumentMetadata:
    values = _meta_values(found, head)
    lines = [block.text for block in blocks]
    title_node = found.title
    page_title = head.title or (text_of(title_node) if title_node is not None else "")
    first_h1 = next((block.text for block in blocks if block.tag == "h1"), None)
    # <title> usually carries the site's name as well, so the page's own headings come first.
    title = values.get("og:title") or first_h1 or page_title or find_title(lines)
    title = clean_heading(title) if title else title
    time_published, time_updated = _time_dates(found)
    published = machine_date(_first_meta(values, _PUBLISHED_META)) or time_published
    updated = machine_date(_first_meta(values, _UPDATED_META)) or time_updated
    if not (published and updated):  # the dates the prose states are the last resort
        text_dates = find_dates(lines)
        published = published or text_dates["published_date"]
        updated = updated or text_dates["last_updated_date"]
    return DocumentMetadata(
        title=title or None,
        author=_meta_author(found, values) or head.author_link or find_author(lines),
        published_date=published,
        last_updated_date=updated,
        language=_declared_language(root, found, values),
    )


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _declared_language(root: etree._Element, found: _PageElements,
                       values: dict[str, str]) -> str | None:
    """The language the page declares: <html lang>, else <meta http-equiv=content-language>,
    else its Open Graph locale."""
    html = root if _tag(root) == "html" else next(root.iter("html"), None)
    if html is not None:
        for name in ("lang", "xml:lang", _XML_LANG):
            declared = language_tag(html.get(name))
            if declared:
                return declared
    for meta in found.metas:
        if (meta.get("http-equiv") or "").strip().lower() == "content-language":
            # "en, de" declares two: the first is the page's main one.
            declared = language_tag((meta.get("content") or "").split(",")[0])
            if declared:
                return declared
    return language_tag(values.get("og:locale"))


# ---- parse and sniff -----------------------------------------------------------------------


def prepare_markup(text: str) -> bytes:
    """The page as UTF-8 bytes libxml2 accepts, with the lines where they were: HTML reads CR
    and CRLF as one line break, an XML declaration naming an encoding is refused for text that
    is already decoded, and lone surrogates cannot be encoded. libxml2 reads UTF-8 without
    converting it (lxml hands it any other str as UTF-16 or UCS-4, which it converts)."""
    text = text.removeprefix("\ufeff")
    if _XML_DECLARATION.match(text):  # which CRs do not change
        text = _CARRIAGE_RETURN.sub("\n", text)
        text = _XML_DECLARATION.sub(lambda m: m.group(1) + "\n" * m.group(0).count("\n"), text)
    markup = _utf8(text)
    # CR and LF are the bytes 0x0D and 0x0A in UTF-8 and in no other character: looking for
    # them in the bytes costs far less than in a str of wide characters.
    if b"\r" in markup:
        markup = markup.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return markup


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def parse_tree(
    markup: bytes, stopped: list[ParseProblem] | None = None, first_line: int = 1
) -> etree._Element | None:
    """The tree of a page's markup (see `prepare_markup`), or None when it holds no element at
    all. Where libxml2 gave up part way (elements nested deeper than 256, say), a problem
    naming the line joins `stopped`."""
    # The plain etree parser: lxml.html's element classes cost a Python call per element.
    parser = etree.HTMLParser(
        no_network=True, remove_pis=True, default_doctype=False, encoding="utf-8"
    )
    try:
        root = etree.fromstring(markup, parser)
    except etree.ParserError:
        return None  # libxml2's word for a document without any element
    if stopped is not None:
        stopped.extend(
            ParseProblem(
                "html_parser_stopped",
                f"the HTML parser stopped at line {error.line + first_line - 1} "
                f"({error.message.strip()}); "
                "the rest of the page was not read",
                line_number=error.line + first_line - 1,
            )
            for error in parser.error_log
            if error.level_name == "FATAL"
        )
    return root


def _note_after(items: Sequence[_Block | _TableMark], start: int) -> list[str]:
    """The footnote lines right after a table: blocks that read as footnotes, with the rest of
    a footnote paragraph that <br> cut into lines."""
    lines: list[str] = []
    owner = None
    for item in items[start:]:
        if not isinstance(item, _Block) or item.heading:
            break
        if item.owner != owner and not looks_like_note(item.text):
            break
        lines.append(item.text)
        owner = item.owner
    return lines


def _assign_titles_and_notes(
    items: Sequence[_Block | _TableMark],
) -> tuple[dict[etree._Element, tuple[str | None, str | None]], set[int]]:
    """Per table: the nearest heading above it and the footnote right after it."""
    found: dict[etree._Element, tuple[str | None, str | None]] = {}
    note_items: set[int] = set()
    heading: str | None = None
    for position, item in enumerate(items):
        if isinstance(item, _TableMark):
            lines = _note_after(items, position + 1)
            note_items.update(range(position + 1, position + 1 + len(lines)))
            found[item.table] = (heading, NOTE_LINE_SEPARATOR.join(lines) or None)
        elif item.heading:
            heading = item.text
    return found, note_items


# ---- the page's tables and text, read once -------------------------------------------------


@dataclass
class TablesAndText:
    """A tree read once: its tables, the grids of its data tables and the text blocks around
    them in reading order."""

    tables: list[etree._Element]  # every <table>, in the order of their opening tags
    grids: dict[etree._Element, _Grid]  # the data tables, in the same order
    items: list[_Block | _TableMark]  # text blocks and data tables in reading order
    context: dict[etree._Element, tuple[str | None, str | None]]  # heading above, note after
    note_items: set[int]  # the places in `items` of the blocks that are a table's footnote
    captions: dict[etree._Element, tuple[str, int]]  # a data table's <caption>: text, line
    nested: dict[etree._Element, list[etree._Element]]  # data tables inside a data table

    def table_indexes(self, first: int = 0) -> dict[etree._Element, int]:
        """Each table's index: its place among all the tables, layout ones included."""
        return {table: first + place for place, table in enumerate(self.tables)}

    def shift_lines(self, offset: int) -> None:
        """Count lines from `offset` + 1, as the document a piece of HTML read apart sits in
        does. (Line breaks put before the piece would do it too, but cost a scan of them for
        each piece: a page of many pieces would take the square of its length.)"""
        for grid in self.grids.values():
            cells = grid.cells
            cells.lines = [line + offset for line in cells.lines]
            cells.cut_rows = [(line + offset, cut, raw) for line, cut, raw in cells.cut_rows]
            grid.line_offset += offset
        self.items = [
            item._replace(line=item.line + offset) if isinstance(item, _Block) else item
            for item in self.items
        ]
        self.captions = {
            table: (text, line + offset) for table, (text, line) in self.captions.items()
        }

    def table_at_end(self) -> etree._Element | None:
        """The data table the text ends with, if it does: what follows the text in the
        document it sits in (a Markdown page) may be that table's footnote."""
        last = self.items[-1] if self.items else None
        return last.table if isinstance(last, _TableMark) else None

    def add_note(self, table: etree._Element, note: str) -> None:
        heading, known = self.context.get(table, (None, None))
        self.context[table] = (heading, NOTE_LINE_SEPARATOR.join(filter(None, (known, note))))


def read_tables_and_text(root: etree._Element, tables: list[etree._Element]) -> TablesAndText:
    """Read the tree under `root`, whose <table> elements are `tables` in document order."""
    grids = {table: build_grid(table) for table in data_tables(tables)}
    # A table too narrow for results is page layout: its text is prose like any other.
    grids = {table: grid for table, grid in grids.items() if grid.width >= MIN_DATA_COLUMNS}
    stream = _Stream(set(grids))
    stream.read(root)
    stream.flush()
    context, note_items = _assign_titles_and_notes(stream.items)
    return TablesAndText(
        tables, grids, stream.items, context, note_items, _captions(grids), _nested(grids)
    )


def _captions(grids: dict[etree._Element, _Grid]) -> dict[etree._Element, tuple[str, int]]:
    found = {}
    for table in grids:
        caption = next(table.iterchildren("caption"), None)
        text = clean_heading(text_of(caption)) if caption is not None else ""
        if text:
            found[table] = (text, _line(caption, _line(table)))
    return found


def _nested(grids: dict[etree._Element, _Grid]) -> dict[etree._Element, list[etree._Element]]:
    """The data tables inside each data table, which the stream does not read into."""
    nested: dict[etree._Element, list[etree._Element]] = {}
    for table in grids:
        holder = next((above for above in table.iterancestors("table") if above in grids), None)
        if holder is not None:
            nested.setdefault(holder, []).append(table)
    return nested


def add_table_cells(
    page: TablesAndText,
    indexes: dict[etree._Element, int],
    out: CellColumns,
    title_above: str | None = None,
) -> list[ParseProblem]:
    """Add the cells of the page's data tables to `out`; rows whose cells cannot be placed
    are returned as problems. `title_above` titles a table without a heading of its own above
    it (the heading of the document a piece of HTML sits in)."""
    problems: list[ParseProblem] = []
    for table, grid in page.grids.items():
        heading, note = page.context.get(table, (None, None))
        caption = page.captions.get(table)
        title = (caption[0] if caption else None) or heading or title_above
        problems += table_cells(grid, indexes[table], title, note, out)
    return problems


def prose_of(page: TablesAndText) -> list[tuple[int, str]]:
    """(line, text) of the text blocks, a table's footnotes left out (they are its note)."""
    return [
        (item.line, item.text)
        for position, item in enumerate(page.items)
        if isinstance(item, _Block) and position not in page.note_items
    ]


# ---- the outline ---------------------------------------------------------------------------


def reads_as_caption(text: str) -> bool:
    """Whether the block right above a table names it: short, and not a sentence ended with a
    period ('FP16 Inference Latency', 'RTX 6000 Pro Blackwell Server Edition')."""
    text = text.strip()
    return 0 < len(text) <= CAPTION_MAX_CHARS and not text.endswith(".")


def as_caption(row: tuple, table_index: int) -> tuple:
    """An outline paragraph row made the caption of the table after it."""
    line, _kind, _level, text, _table = row
    return (line, "caption", None, text, table_index)


def outline_of(rows: list[tuple]) -> pl.DataFrame:
    """`outline_frame(rows)`, built from the rows as they are: polars takes the columns apart
    in Rust in a third of the time (0.06 ms for a page of 40 blocks), and a page's frame is
    built on every parse."""
    return pl.DataFrame(rows, schema=OUTLINE_SCHEMA, orient="row") if rows else outline_frame()


def outline_rows(page: TablesAndText, indexes: dict[etree._Element, int]) -> list[tuple]:
    """The outline (OUTLINE_SCHEMA's columns, in order) of the page: headings, paragraphs,
    captions and data tables in reading order. A table's footnotes stay out of it, as they
    stay out of the prose."""
    rows: list[tuple] = []
    items = page.items
    for position, item in enumerate(items):
        if isinstance(item, _TableMark):
            if item.table not in page.captions and _names_next_table(page, position - 1, item):
                rows[-1] = as_caption(rows[-1], indexes[item.table])
            _add_table_rows(rows, item.table, page, indexes)
        elif position not in page.note_items:
            rows.append(_block_row(item))
    return rows


def _names_next_table(page: TablesAndText, position: int, table: _TableMark) -> bool:
    """Whether the item at `position`, right above `table`, is the table's caption."""
    if position < 0 or position in page.note_items:
        return False
    item = page.items[position]
    return (
        isinstance(item, _Block)
        and not item.heading
        and item.cell == table.cell
        and reads_as_caption(item.text)
    )


def _add_table_rows(
    rows: list[tuple], table: etree._Element, page: TablesAndText, indexes: dict
) -> None:
    index = indexes[table]
    caption = page.captions.get(table)
    if caption is not None:
        rows.append((caption[1], "caption", None, caption[0], index))
    rows.append((first_row_line(page.grids[table]), "table", None, None, index))
    for inner in page.nested.get(table, ()):
        _add_table_rows(rows, inner, page, indexes)


def _block_row(block: _Block) -> tuple:
    if block.heading:
        level = _HEADING_LEVELS.get(block.tag, BOLD_LINE_LEVEL)
        return (block.line, "heading", level, block.text, None)
    return (block.line, "paragraph", None, block.text, None)


# ---- parse and sniff -----------------------------------------------------------------------


def parse_html(text: str) -> ParsedDocument:
    """Parse an HTML page into table cells, prose paragraphs, its outline and metadata."""
    stopped: list[ParseProblem] = []
    try:
        markup = prepare_markup(text)
        root = parse_tree(markup, stopped)
    except (ValueError, etree.LxmlError) as error:
        problem = ParseProblem("unparseable_html", f"the HTML parser refused the page: {error}")
        return ParsedDocument(cells=cells_frame(), problems=[problem])
    if root is None:
        return ParsedDocument(cells=cells_frame())
    head = read_head(text)
    found = page_elements(root)
    page = read_tables_and_text(root, found.tables)
    indexes = page.table_indexes()
    cells = CellColumns()
    problems = stopped + add_table_cells(page, indexes, cells)
    blocks = [item for item in page.items if isinstance(item, _Block)]
    return ParsedDocument(
        cells=cells.frame(),
        metadata=page_metadata(found, blocks, head, root),
        prose=prose_of(page),
        problems=problems,
        outline=outline_of(outline_rows(page, indexes)),
    )


def read_html_fragment(
    text: str, first_line: int = 1
) -> tuple[TablesAndText | None, list[ParseProblem]]:
    """The tables and text of a piece of HTML inside another document (a <table> block of a
    Markdown page) that starts at its line `first_line`, with the problems of reading it;
    lines are the document's."""
    stopped: list[ParseProblem] = []
    try:
        root = parse_tree(prepare_markup(text), stopped, first_line)
    except (ValueError, etree.LxmlError) as error:
        return None, [ParseProblem("unparseable_html", f"the HTML parser refused a block: {error}",
                                   line_number=first_line)]
    if root is None:
        return None, stopped
    page = read_tables_and_text(root, list(root.iter("table")))
    if first_line != 1:
        page.shift_lines(first_line - 1)
    return page, stopped


def sniff_html(data: bytes, content_type: str | None) -> float:
    kind = (content_type or "").lower()
    if "text/html" in kind or "application/xhtml+xml" in kind:
        return 0.9
    # NUL bytes removed so that UTF-16 pages are recognised too.
    head = data[:8192].replace(b"\x00", b"").lower()
    if b"<!doctype html" in head or b"<html" in head:
        return 0.9
    body = data[:1_048_576].replace(b"\x00", b"").lower()
    if b"<table" in body and (b"<td" in body or b"<th" in body):
        return 0.8
    return 0.0


LAYOUT = Layout(name="html_table", sniff=sniff_html, parse=parse_html)
