"""HTML pages: every data <table> as located cells, plus the page's prose and metadata.

One lxml tree serves tables, prose and metadata. On a 300 KB page with five 200-row tables,
lxml builds its tree in about 8 ms and the whole parse takes about 45 ms, where
BeautifulSoup needs about 375 ms with html.parser for its tree alone (and 285 ms with its
lxml builder, which drops `sourceline`, the cells' line numbers). libxml2 also closes omitted
</td>, </tr> and </p> tags the way browsers do, and one tree means the prose and the tables
never disagree about where a table starts or ends.

libxml2's HTML parser never loads a DTD nor expands entities a document declares; only
the predefined HTML character references (&nbsp;, &amp;, ...) become characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from lxml import etree

from sources.layouts.base import (
    CellColumns,
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    cells_frame,
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
# Realigning a short row tries every gap against every cell: the square of the width per row.
MAX_REALIGN_COLUMNS = 64
SECTION_SEPARATOR = " \u2014 "
NOTE_LINE_SEPARATOR = " | "  # how text captures join a multi-line footnote

_SKIPPED = frozenset({"script", "style", "template", "noscript", "textarea", "xmp"})
# Navigation menus and controls are visible but are page chrome, not paragraphs.
_NOT_PROSE = _SKIPPED | frozenset(
    {"head", "title", "nav", "svg", "math", "select", "button", "iframe", "object", "canvas"}
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
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
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
# The runs that collapsing changes: a lone space is left alone, a substitution fewer per word.
_SPACE_TO_COLLAPSE = re.compile(r"[\t\n\r\f][ \t\n\r\f]*| [ \t\n\r\f]+")
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
    return _HTML_SPACE.sub(" ", text).strip(" ")


def superscript(text: str) -> str:
    """Footnote digits as superscripts, so '6,044' + <sup>1</sup> reads '6,044¹', not '6,0441'.

    Other <sup> text ('st' in 1<sup>st</sup>, '*', '†') is kept as published, glued to the
    text before it, since that is how the page reads."""
    compact = text.strip()
    if _SUPERSCRIPTABLE.fullmatch(compact):
        return compact.translate(_SUPERSCRIPTS)
    return compact


def _tag(node: etree._Element) -> str | None:
    """Lower-case tag name, or None for comments and processing instructions."""
    return node.tag.lower() if isinstance(node.tag, str) else None


def traverse(
    root: etree._Element,
    enter: Callable[[etree._Element], bool],
    leave: Callable[[etree._Element, bool], None],
) -> None:
    """Depth-first walk without recursion, comments included (lxml's iterwalk skips them and
    with them their tail text). `enter` returns False to skip a node's children; `leave` is
    told whether the node was entered."""
    if not enter(root):
        leave(root, False)
        return
    stack = [(root, iter(root))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            leave(node, True)
        elif enter(child):
            stack.append((child, iter(child)))
        else:
            leave(child, False)


def text_of(element: etree._Element, line_break: str = " ") -> str:
    """The visible text of an element: scripts, comments and nested tables left out, <sup>
    footnote digits as superscripts, <br> as `line_break`, whitespace collapsed."""
    if len(element) == 0:
        return collapse_space(element.text or "")
    parts: list[str] = []

    def enter(node: etree._Element) -> bool:
        tag = _tag(node)
        if node is element:
            parts.append(node.text or "")
            return True
        if tag is None or tag in _SKIPPED or tag == "table":
            return False
        if tag == "br":
            parts.append(line_break)
            return False
        if tag == "sup":
            parts.append(superscript(text_of(node)))
            return False
        parts.append(node.text or "")
        return True

    def leave(node: etree._Element, _entered: bool) -> None:
        if node is not element:
            parts.append(node.tail or "")

    traverse(element, enter, leave)
    return collapse_space("".join(parts))


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


@dataclass(slots=True, eq=False)  # eq=False: slots compare by identity; frozen inits are slow
class _Slot:
    """One grid position. A spanned cell fills every position it covers with the same slot,
    so its value is repeated in each covered cell, as a reader sees it."""

    text: str
    line: int
    origin_row: int  # the row index where the cell starts
    header: bool  # a <th>


# C-level getters: a list comprehension costs a Python step per cell.
_TEXT_OF_SLOT = attrgetter("text")
_LINE_OF_SLOT = attrgetter("line")


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


def _raw_text(cell: etree._Element) -> str:
    """The cell's text before its whitespace is collapsed (see `collapse_slot_texts`)."""
    return text_of(cell) if len(cell) else (cell.text or "")


def collapse_slot_texts(slots: list[_Slot]) -> None:
    """Collapse the whitespace of every slot's text in one regex pass over all of them: on a
    page of short cells a call per cell costs more than the substitution itself."""
    if not slots:
        return
    texts = _collapse_many(list(map(_TEXT_OF_SLOT, slots)))
    for slot, text in zip(slots, texts, strict=True):
        slot.text = text


_JOIN = "\x00"  # never in lxml text (libxml2 strings end at NUL); checked below all the same


def _collapse_many(texts: list[str]) -> list[str]:
    """[collapse_space(text) for text in texts], in one pass."""
    joined = _SPACE_TO_COLLAPSE.sub(" ", _JOIN.join(texts)).strip(" ")
    # A run of spaces never crosses the separator, so each text keeps at most one space at
    # either end, and that is what strip(" ") would remove.
    pieces = joined.replace(" " + _JOIN, _JOIN).replace(_JOIN + " ", _JOIN).split(_JOIN)
    if len(pieces) != len(texts):
        return [collapse_space(text) for text in texts]
    return pieces


def expand_rows(rows: Sequence[etree._Element], spans: bool = True) -> list[list[_Slot | None]]:
    """The row group as a grid with colspan and rowspan expanded; None is a hole no cell fills.
    `spans=False` says that no cell has a colspan or rowspan attribute."""
    grid: list[list[_Slot | None]] = [[] for _ in rows]
    made: list[_Slot] = []
    for index, row in enumerate(rows):
        row_line = _line(row)
        # Most rows span nothing and receive no span from above: one slot per cell.
        plain = None if grid[index] else _plain_row(row, index, row_line, spans)
        if plain is not None:
            grid[index] = plain
            made += plain
        else:
            made += _place_spanning_cells(grid, index, _cells_of(row), row_line)
    collapse_slot_texts(made)
    return grid


def _plain_row(
    row: etree._Element, index: int, row_line: int, spans: bool = True
) -> list[_Slot] | None:
    """A slot per cell of the row, or None when a cell spans columns or rows. One pass over
    the cells: each read of an element's tag or text builds a new string."""
    slots = []
    for cell in row:
        tag = cell.tag
        if tag != "td" and tag != "th":
            continue
        if spans and (cell.get("colspan") or cell.get("rowspan")):
            return None
        text = text_of(cell) if len(cell) else (cell.text or "")  # collapsed later
        slots.append(_Slot(text, cell.sourceline or row_line, index, tag == "th"))
    return slots[:MAX_COLUMNS]


def _place_spanning_cells(
    grid: list[list[_Slot | None]], index: int, cells: list[etree._Element], row_line: int
) -> list[_Slot]:
    """Place one row's cells around the spans from above; returns the slots made."""
    made = []
    column = 0
    for cell in cells:
        slots = grid[index]
        while column < len(slots) and slots[column] is not None:
            column += 1
        if column >= MAX_COLUMNS:
            break
        colspan = min(max(_span(cell, "colspan", 1, MAX_COLSPAN), 1), MAX_COLUMNS - column)
        rowspan = _span(cell, "rowspan", 1, MAX_ROWSPAN)
        # rowspan="0" reaches to the end of the row group.
        last = len(grid) if rowspan == 0 else min(len(grid), index + rowspan)
        slot = _Slot(_raw_text(cell), cell.sourceline or row_line, index, cell.tag == "th")
        made.append(slot)
        for covered in range(index, max(last, index + 1)):
            target = grid[covered]
            if len(target) < column + colspan:
                target.extend([None] * (column + colspan - len(target)))
            for position in range(column, column + colspan):
                if target[position] is None:  # overlapping spans: the first cell keeps it
                    target[position] = slot
        column += colspan
    return made


def _is_section_row(slots: Sequence[_Slot | None], width: int) -> bool:
    """One cell spanning the table's full width: a label for the rows under it."""
    first = slots[0] if slots else None
    if first is None or len(slots) < width or (len(slots) > 1 and slots[1] is not first):
        return False  # the cheap tests first: most rows are not one cell
    return all(slot is first for slot in slots)


@dataclass
class _Grid:
    header_rows: list[list[_Slot | None]]
    body_rows: list[tuple[etree._Element, list[_Slot | None], int]]  # (tr, slots, row index)
    foot_notes: list[str]  # the text of each <tfoot> cell
    lead_section: str | None

    @property
    def width(self) -> int:
        return max((len(slots) for slots in self.header_rows), default=0)


def _row_groups(rows: Iterable[etree._Element]) -> tuple[list, list[list], list]:
    """The table's rows (all its <tr>, in document order): thead rows, body groups in order
    (rowspans stop at a group's end), tfoot rows."""
    head: list[etree._Element] = []
    foot: list[etree._Element] = []
    body: dict[etree._Element, list[etree._Element]] = {}
    for row in rows:
        parent = row.getparent()
        group = _tag(parent) if parent is not None else None
        if group == "thead":
            head.append(row)
        elif group == "tfoot":
            foot.append(row)
        else:
            body.setdefault(parent, []).append(row)
    return head, list(body.values()), foot


def _take_sections(rows: list[tuple[etree._Element, list, int]], width: int) -> list[str]:
    """Remove and return the labels of the full-width single-cell rows leading `rows`."""
    labels = []
    while rows and _is_section_row(rows[0][1], width):
        labels.append(rows.pop(0)[1][0].text)
    return labels


def build_grid(
    table: etree._Element, rows: list[etree._Element] | None = None, spans: bool = True
) -> _Grid:
    """Header rows, body rows and footer rows of a table, spans expanded. `rows`, when given,
    are the table's <tr> elements (see `rows_by_table`); `spans=False` says that no cell
    has a colspan or rowspan attribute.

    The header is the <thead>; without one, the leading rows made only of <th>, else the first
    row. Full-width single cells above the header are a label for the whole table."""
    head, body_groups, foot = _row_groups(table.iter("tr") if rows is None else rows)
    header = [
        (row, slots, index)
        for index, (row, slots) in enumerate(zip(head, expand_rows(head, spans), strict=True))
    ]
    body = [
        (group[index], slots, index)
        for group in body_groups
        for index, slots in enumerate(expand_rows(group, spans))
    ]
    widest = max((len(slots) for _row, slots, _index in header + body), default=0)
    lead = _take_sections(header, widest)
    if not header:
        lead += _take_sections(body, widest)
        while body and body[0][1] and all(s is not None and s.header for s in body[0][1]):
            header.append(body.pop(0))
        if not header and body:
            header.append(body.pop(0))
    label = " ".join(text for text in lead if text.strip(" \u00a0")) or None
    notes = [note_text(cell) for row in foot for cell in _cells_of(row)]
    return _Grid(
        [slots for _row, slots, _index in header],
        body,
        [note for note in notes if note.strip()],
        label,
    )


def _header_names(rows: list[list[_Slot | None]], width: int) -> list[tuple[str, int]]:
    """(name, line) per column; the texts of a multi-row header are joined with a space, a
    cell spanning several header rows counted once."""
    names = []
    for column in range(width):
        seen: list[_Slot] = []
        for slots in rows:
            slot = slots[column] if column < len(slots) else None
            if slot is not None and all(slot is not other for other in seen):
                seen.append(slot)
        texts = [slot.text for slot in seen if slot.text.strip(" \u00a0")]
        line = seen[0].line if seen else 1
        names.append((" ".join(texts) if texts else (seen[0].text if seen else ""), line))
    return names


def rows_by_table(
    rows: list[etree._Element], tables: list[etree._Element]
) -> dict[etree._Element, list[etree._Element]]:
    """The rows (the page's <tr> elements, in document order) of each of `tables`, tables that
    hold no table: a row belongs to its nearest table. Walking up from each row costs far less
    than walking down through every table's cells."""
    found: dict[etree._Element, list[etree._Element]] = {table: [] for table in tables}
    for row in rows:
        owner = found.get(next(row.iterancestors("table"), None))
        if owner is not None:
            owner.append(row)
    return found


def data_tables(tables: list[etree._Element]) -> list[etree._Element]:
    """The page's tables (all of them, in document order) that may hold data: not marked as
    presentation, holding no table (a table holding tables lays out the page), and not inside
    a script, template or the like."""
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
        and table not in holders
        and table not in hidden
    ]


# ---- one table to cells --------------------------------------------------------------------


def _is_complete(slots: list[_Slot | None], width: int) -> bool:
    return len(slots) == width and None not in slots


def _fit_row(
    slots: list[_Slot | None], index: int, width: int, profile: ColumnProfile | None, line: int
) -> list[_Slot] | None:
    """The row's slot per column, or None when its cells cannot be placed with certainty."""
    inside = slots[:width]
    extra = slots[width:]
    if len(inside) == width and None not in inside:
        # Surplus slots are a span running past the edge or empty cells: nothing is lost.
        if all(
            s is None or any(s is o for o in inside) or cell_kind(s.text) == "blank" for s in extra
        ):
            return inside
        return None
    own = [s for s in slots if s is not None]
    distinct = len({id(s) for s in own}) == len(own)
    if (
        profile is not None
        and len(own) == width - 1
        and len(slots) == width - 1
        and distinct
        and all(s.origin_row == index for s in own)
    ):
        gap = realign_position([s.text for s in own], profile)
        if gap is not None:
            return [*own[:gap], _Slot("", line, index, False), *own[gap:]]
    return None


def table_cells(
    grid: _Grid, table_index: int, title: str | None, note: str | None, out: CellColumns
) -> list[ParseProblem]:
    """Add the cells of one data table to `out`; rows whose cells cannot be placed are
    returned as problems."""
    width = grid.width
    note = NOTE_LINE_SEPARATOR.join([*grid.foot_notes, *([note] if note else [])]) or None
    names = _header_names(grid.header_rows, width)
    header_texts = [
        [fold_header_text(s.text if s else "") for s in slots] for slots in grid.header_rows
    ]
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
    # Only a row that does not fit needs the columns' type pattern.
    profile = None
    if not all(_is_complete(slots, width) for _, slots, _, _ in entries):
        complete = [
            [s.text for s in slots] for _, slots, _, _ in entries if _is_complete(slots, width)
        ]
        profile = profile_columns(complete, width)
    problems = []
    placed: list[_Slot] = []
    row_titles: list[str | None] = []
    row_numbers: list[int] = []
    for row_number, (row, slots, index, row_title) in enumerate(entries, start=1):
        # A complete row, the common case, is placed as it stands.
        fitted = slots if _is_complete(slots, width) else _fit_row(
            slots, index, width, profile, _line(row)
        )
        if fitted is None:
            texts = [s.text for s in slots if s is not None]
            problems.append(
                width_problem(table_index, row_title, row_number, texts, width, _line(row))
            )
            continue
        placed += fitted
        row_titles.append(row_title)
        row_numbers.append(row_number)
    out.add_rows(
        table_index, note, columns, row_titles, row_numbers,
        list(map(_TEXT_OF_SLOT, placed)), list(map(_LINE_OF_SLOT, placed)),
    )
    return problems


def _published_rows(
    grid: _Grid, width: int, header_texts: list[list[str]], heading: str | None
) -> list[tuple[etree._Element, list[_Slot | None], int, str | None]]:
    """(tr, slots, row index, title) of the body rows that publish values: not empty, not a
    section label (which extends the title of the rows under it), not the header repeated."""
    entries = []
    title = heading
    header_firsts = {texts[0] for texts in header_texts if texts}
    folded: dict[str, str] = {}  # many rows share their first cell's text
    for row, slots, index in grid.body_rows:
        if slots.count(None) == len(slots):
            continue  # an empty <tr> publishes nothing
        if _is_section_row(slots, width):
            label = slots[0].text
            if label.strip(" \u00a0"):  # an empty full-width row only spaces the table out
                title = with_section(heading, label)
            continue
        if _repeats_header(slots, header_texts, header_firsts, folded):
            continue  # the header repeated inside the body, as long tables do
        entries.append((row, slots, index, title))
    return entries


def _repeats_header(
    slots: Sequence[_Slot | None],
    header_texts: list[list[str]],
    header_firsts: set[str],
    folded: dict[str, str],
) -> bool:
    text = slots[0].text if slots and slots[0] is not None else ""
    first = folded.get(text)
    if first is None:
        first = folded[text] = fold_header_text(text)
    if not first or first not in header_firsts:
        return False  # the cheap test first: most rows differ from the header in cell one
    return [fold_header_text(s.text if s else "") for s in slots] in header_texts


# ---- the page: a stream of text blocks and tables ------------------------------------------


@dataclass(frozen=True)
class _Block:
    line: int
    text: str
    tag: str
    heading: bool  # h1-h6, or a paragraph that is a single bold run
    owner: int  # serial of the element the text belongs to: <br> cuts one element's text


@dataclass(frozen=True)
class _TableMark:
    table: etree._Element


@dataclass
class _Open:
    tag: str
    heading: bool
    serial: int
    line: int | None = None
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
        joined = "".join(block.parts)
        # Most flushes, at the edges of nested blocks, have no text or only the line breaks
        # between tags: only the rest needs collapsing.
        text = collapse_space(joined).strip() if joined.strip() else ""
        if text:
            self.items.append(
                _Block(block.line or self.last_line, text, block.tag, block.heading, block.serial)
            )
        block.parts.clear()
        block.line = None

    def enter(self, node: etree._Element) -> bool:
        tag = _tag(node)
        if tag is None:
            return False
        self.last_line = max(self.last_line, node.sourceline or 0)
        if node in self.data_tables:
            self.flush()
            self.items.append(_TableMark(node))
            return False
        if tag in _NOT_PROSE:
            return False
        if tag in ("br", "hr"):
            self.flush()
            return False
        if tag == "sup":
            self.add(superscript(text_of(node)))
            return False
        if tag in _BLOCKS:
            self.flush()
            heading = tag in _HEADINGS or (tag in ("p", "div") and _is_bold_line(node))
            self.serial += 1
            self.open.append(_Open(tag, heading, self.serial, node.sourceline))
        self.add(node.text)
        return True

    def leave(self, node: etree._Element, entered: bool) -> None:
        if entered and _tag(node) in _BLOCKS:
            self.flush()
            self.open.pop()
        self.add(node.tail)


# ---- page metadata -------------------------------------------------------------------------


@dataclass
class _PageElements:
    """The elements page-level facts come from, found in one walk of the tree (each walk of a
    200 KB page's tree costs about as much as reading its largest table)."""

    tables: list[etree._Element] = field(default_factory=list)
    rows: list[etree._Element] = field(default_factory=list)  # every <tr>
    metas: list[etree._Element] = field(default_factory=list)
    with_itemprop: list[etree._Element] = field(default_factory=list)  # the root excepted
    times: list[etree._Element] = field(default_factory=list)
    author_links: list[etree._Element] = field(default_factory=list)  # <a> and <link>
    title: etree._Element | None = None  # the first <title> below the root


_PAGE_TAGS = ("table", "tr", "meta", "time", "a", "link", "title")
_WITH_ITEMPROP = etree.XPath("descendant::*[@itemprop]")


def page_elements(root: etree._Element, itemprop: bool = True) -> _PageElements:
    """The page's elements of interest, in document order. `itemprop=False` says that no
    element has an itemprop attribute (see `attribute_names_in`), which spares looking."""
    found = _PageElements()
    by_tag = {
        "table": found.tables,
        "tr": found.rows,
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
    if itemprop:
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
    """Whether a decoded page may give some cell a colspan or rowspan: the test `parse_html`
    itself makes before placing cells."""
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


def _meta_author(found: _PageElements, values: dict[str, str]) -> str | None:
    for key in _AUTHOR_META:
        value = values.get(key)
        if value and not value.lower().startswith(("http://", "https://")):
            return value
    for node in found.author_links:
        if "author" in (node.get("rel") or "").lower().split():
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
    found: _PageElements, blocks: Sequence[_Block], head: HeadFacts
) -> DocumentMetadata:
    values = _meta_values(found, head)
    lines = [block.text for block in blocks]
    title_node = found.title
    page_title = head.title or (text_of(title_node) if title_node is not None else "")
    first_h1 = next((block.text for block in blocks if block.tag == "h1"), None)
    # <title> usually carries the site's name as well, so the page's own headings come first.
    title = values.get("og:title") or first_h1 or page_title or find_title(lines)
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
    )


# ---- parse and sniff -----------------------------------------------------------------------


def prepare_markup(text: str) -> bytes:
    """The page as UTF-8 bytes libxml2 accepts, with the lines where they were: HTML reads CR
    and CRLF as one line break, an XML declaration naming an encoding is refused for text that
    is already decoded, and lone surrogates cannot be encoded. libxml2 reads UTF-8 without
    converting it (lxml hands it any other str as UTF-16 or UCS-4, which it converts)."""
    text = text.removeprefix("\ufeff")
    if "\r" in text:  # each test below is a scan of the page: skip the work it would not do
        text = _CARRIAGE_RETURN.sub("\n", text)
    if _XML_DECLARATION.match(text):
        text = _XML_DECLARATION.sub(lambda m: m.group(1) + "\n" * m.group(0).count("\n"), text)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def parse_tree(markup: bytes, stopped: list[ParseProblem] | None = None) -> etree._Element | None:
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
                f"the HTML parser stopped at line {error.line} ({error.message.strip()}); "
                "the rest of the page was not read",
                line_number=error.line,
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


def parse_html(text: str) -> ParsedDocument:
    """Parse an HTML page into table cells, prose paragraphs and page metadata."""
    stopped: list[ParseProblem] = []
    try:
        markup = prepare_markup(text)
        root = parse_tree(markup, stopped)
    except (ValueError, etree.LxmlError) as error:
        problem = ParseProblem("unparseable_html", f"the HTML parser refused the page: {error}")
        return ParsedDocument(cells=cells_frame(), problems=[problem])
    if root is None:
        return ParsedDocument(cells=cells_frame())
    named = attribute_names_in(markup, ("colspan", "rowspan", "itemprop"))
    found = page_elements(root, itemprop="itemprop" in named)
    tables = rows_by_table(found.rows, data_tables(found.tables))
    spans = bool(named & {"colspan", "rowspan"})
    grids = {table: build_grid(table, rows, spans) for table, rows in tables.items()}
    # A table too narrow for results is page layout: its text is prose like any other.
    grids = {table: grid for table, grid in grids.items() if grid.width >= MIN_DATA_COLUMNS}
    stream = _Stream(set(grids))
    traverse(root, stream.enter, stream.leave)
    stream.flush()
    context, note_items = _assign_titles_and_notes(stream.items)
    cells = CellColumns()
    problems: list[ParseProblem] = list(stopped)
    for table_index, (table, grid) in enumerate(grids.items()):
        heading, note = context.get(table, (None, None))
        caption = table.find("caption")
        title = (text_of(caption) if caption is not None else "") or heading
        problems += table_cells(grid, table_index, title, note, cells)
    blocks = [item for item in stream.items if isinstance(item, _Block)]
    prose = [
        (item.line, item.text)
        for position, item in enumerate(stream.items)
        if isinstance(item, _Block) and position not in note_items
    ]
    return ParsedDocument(
        cells=cells.frame(),
        metadata=page_metadata(found, blocks, read_head(text)),
        prose=prose,
        problems=problems,
    )


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
