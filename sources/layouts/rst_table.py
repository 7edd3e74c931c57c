"""reStructuredText pages (Sphinx docs such as AWS Neuron's): tables as located cells, plus
the page's headings, paragraphs and outline.

Four table forms are read: `.. list-table::`, `.. csv-table::` with inline content, grid
tables (`+---+` borders) and simple tables (`=====  =====` borders). The page is read in one
pass over its lines, a block at a time: a section title, an explicit markup block (directive,
comment, target, footnote), a table, a literal block or a paragraph. A directive's body is
skipped unless it holds prose a reader sees (admonitions, a figure's caption, containers):
that body is read in place, as if it were not indented, so no block is read by recursion.
Every loop moves forward through the lines, and the regular expressions admit one way to
match each stretch of a line, so a hostile page costs time in proportion to its size.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from sources.layouts.base import (
    CellColumns,
    DocumentMetadata,
    Layout,
    ParsedDocument,
    ParseProblem,
    outline_frame,
)
from sources.layouts.html_table import looks_like_note, superscript
from sources.layouts.page_text import find_author, find_dates
from sources.layouts.pipe_table import is_delimiter_row
from sources.layouts.text_capture import split_lines

SNIFF_BYTES = 65_536
TAB_WIDTH = 8  # docutils' tab stops
CAPTION_MAX_CHARS = 80
MAX_HEADING_LEVEL = 6
MIN_TRANSITION_CHARS = 4  # as docutils: a shorter line of punctuation is text
HEADER_LEVEL_SEPARATOR = " / "
NOTE_SEPARATOR = " | "  # how the other layouts join a table's footnote lines
PROBLEM_RAW_CHARS = 2000  # of a table's text kept in its problem
MAX_COLUMNS = 1000  # as the HTML layout: wider header cells are reported, not placed
MAX_PAGE_CELLS = 1_000_000  # padding short rows could otherwise multiply a hostile page
MAX_GRID_WORK = 2_000_000  # a grid table's lines x column borders, each looked at once

_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_TRANSPARENT_DIRECTIVES = frozenset({
    "note", "warning", "tip", "important", "hint", "attention", "caution", "danger", "error",
    "seealso", "admonition", "figure", "container", "topic", "sidebar", "rst-class", "class",
    "only", "compound", "epigraph", "highlights", "pull-quote", "tab", "tabs", "group-tab",
    "tab-set", "tab-item", "dropdown", "card", "grid", "grid-item", "grid-item-card",
})
# Directives whose argument is text a reader sees, not a path or an expression.
_ARGUMENT_IS_PROSE = frozenset({
    "note", "warning", "tip", "important", "hint", "attention", "caution", "danger", "error",
    "seealso", "rubric",
})

_DIRECTIVE = re.compile(r"\.\.[ \t]+(?P<name>[A-Za-z0-9][\w:.+-]*?)::(?=[ \t]|$)")
_FOOTNOTE = re.compile(r"\.\.[ \t]+\[(?P<label>[^\]\s]+)\](?:[ \t]+|$)")
_OPTION = re.compile(r":(?P<name>[^:\s][^:]*):(?:[ \t]+(?P<value>.*))?$")
_GRID_TOP = re.compile(r"\+(?:-+\+)+")
_SIMPLE_BORDER = re.compile(r"=+(?:[ ]+=+)+")
_SPAN_RULE = re.compile(r"-+(?:[ ]+-+)*")
_RUN_OF_EQUALS = re.compile(r"=+")
_RUN_OF_DASHES = re.compile(r"-+")
_RULE_SEGMENT = re.compile(r"\+[-=]+\+")
_RULE_CORNER = re.compile(r"\+(?=[-=])|(?<=[-=])\+")
_HEADER_RULE = re.compile(r"\+(?:=+\+)+")
# A list item's or field's marker at the start of a stripped line.
_ITEM = re.compile(
    r"(?:[-*+\u2022\u2023\u2043]|(?:\d{1,9}|#)[.)]|\(\d{1,9}\))(?:[ \t]+|$)"
    r"|:[^:`\s][^:`]*:(?:[ \t]+|$)"
)
_BULLET_CHARS = frozenset("-*+\u2022\u2023\u2043")
_ITEM_STARTS = _BULLET_CHARS | frozenset("0123456789#(:")
_BLOCK_STARTS = frozenset(".+=")  # what may open an explicit markup block or a table
_ITEM_OR_BLOCK_STARTS = _BLOCK_STARTS | _ITEM_STARTS
# Markers of nested list items, dropped from a paragraph's text: '* - a' reads 'a'.
_MARKERS = re.compile(r"(?:(?:[-*+\u2022\u2023\u2043]|(?:\d{1,9}|#)[.)]|\(\d{1,9}\))(?:[ \t]+|$))+")
# In a cell only bullets followed by text are list markers: a cell '-' means "none".
_CELL_BULLETS = re.compile(r"(?:[-*+\u2022\u2023\u2043][ \t]+)+(?=\S)")
_FIELD = re.compile(r":(?P<name>[^:`\s][^:`]*):(?:[ \t]+|$)")
# Inline markup, leftmost construct first. Each alternative scans only to the next character
# that could close it (a backtick, an asterisk, a bracket), so a line costs linear time.
_INLINE = re.compile(
    r"``(?P<literal>[^`]+)``"
    r"|:[\w.+-]+(?::[\w.+-]+)?:`(?P<role>[^`]*)`"
    r"|`(?P<reference>[^`]+)`(?:__?|:[\w.+-]+:)?"
    r"|\*\*(?P<strong>[^*]+)\*\*"
    r"|\*(?P<emphasis>[^*\s][^*]*)\*"
    r"|\[(?P<footnote>[\w#*.-]+)\]_"
    r"|\\(?P<escaped>.)"
)
_MARKUP_CHARS = re.compile(r"[`*\\_]")
_HTML_MARKS = (b"<html", b"<!doctype", b"<table", b"<body", b"<div", b"<td", b"<tr")
_SNIFF_DIRECTIVE = re.compile(
    rb"^[ \t]*\.\.[ \t]+(?:[A-Za-z][\w:.+-]*::|_[^:\n]+:)", re.MULTILINE
)
# Markdown's own marks at a line's start: an ATX heading or a code fence. Unindented only: an
# RST code block holds '   # comment' lines, and '~~~' underlines RST titles.
_SNIFF_MARKDOWN = re.compile(rb"^(?:#{1,6}[ \t]+\S|```)", re.MULTILINE)

_Cell = tuple[str, int]  # (text as a reader sees it, 0-based line where it starts)


# ---- lines and inline text -----------------------------------------------------------------


def is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def page_lines(text: str) -> list[str]:
    """The page's lines, tabs expanded as docutils expands them (indentation is structure)."""
    lines = split_lines(text.removeprefix("\ufeff"))
    return [line.expandtabs(TAB_WIDTH) if "\t" in line else line for line in lines]


def render_inline(text: str) -> str:
    """Text as a reader sees it: ``code`` -> code, **bold** -> bold, `text <url>`_ -> text,
    :ref:`text <target>` -> text, escapes gone, [1]_ footnote references as superscripts."""
    if _MARKUP_CHARS.search(text) is None:
        return text  # most cells and many paragraphs hold no markup
    return _INLINE.sub(_rendered_piece, text)


def _rendered_piece(match: re.Match[str]) -> str:
    found = match.groupdict()
    if found["literal"] is not None:
        return found["literal"]
    for name in ("role", "reference"):
        if found[name] is not None:
            return _reference_text(found[name])
    for name in ("strong", "emphasis"):
        inner = found[name]
        if inner is not None:
            # '*a *' is no emphasis; what it holds may still be a literal or a link.
            return match.group(0) if inner[-1].isspace() else render_inline(inner)
    if found["footnote"] is not None:
        label = found["footnote"]
        return superscript(label) if label.isdigit() else f"[{label}]"
    escaped = found["escaped"]
    return "" if escaped.isspace() else escaped  # an escaped space joins its neighbours


def _reference_text(content: str) -> str:
    """The text shown for `text <target>`, `<target>` or `~module.name`."""
    text = content.strip()
    if text.endswith(">") and "<" in text:
        opening = text.rindex("<")
        shown = text[:opening].strip()
        text = shown or text[opening + 1 : -1].strip()
    if text.startswith("~"):
        text = text[1:].rsplit(".", 1)[-1]  # Sphinx shows the last part only
    return text.lstrip("!")


# ---- the blocks of a page ------------------------------------------------------------------


class _Heading(NamedTuple):
    line: int  # 0-based
    level: int
    text: str


class _Paragraph(NamedTuple):  # a page may hold one per line: a tuple is quick to build
    line: int
    text: str


@dataclass
class _Table:
    line: int  # the directive's line, or the table's top border
    header: list[list[_Cell]]  # spanning cells repeated in every column they cover
    body: list[list[_Cell]]  # spanning cells in their first column, the rest blank
    caption: tuple[int, str] | None = None  # (line, text) of a directive's title argument


class _PageReader:
    """Reads a page's lines into headings, paragraphs and tables, block after block."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        # Each line's text without its indentation ('' for a blank line) and its indentation,
        # found once: every block below looks at them, most more than once.
        self.texts = [line.strip(" ") for line in lines]
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.blocks: list[_Heading | _Paragraph | _Table] = []
        self.problems: list[ParseProblem] = []
        self.styles: list[tuple[str, bool]] = []  # heading adornment styles, as first seen

    def read(self) -> None:
        index = 0
        while index < len(self.lines):
            # Each reader returns the line after what it used; never less than one line on.
            index = max(self._read_block(index), index + 1)

    def _read_block(self, index: int) -> int:
        text = self.texts[index]
        if not text:
            return index + 1
        first, indent = text[0], self.indents[index]
        if indent == 0:
            heading_end = self._read_heading(index)
            if heading_end:
                return heading_end
        if first == "." and _is_explicit_markup(text):
            return self._read_explicit(index, indent, text)
        if first == "_" and text.startswith("__ "):  # an anonymous hyperlink target
            return self._skip_indented(index + 1, indent)
        if first in "+=":
            table_end = self._read_table_at(index, None)
            if table_end:
                return table_end
        if first in _ADORNMENT_CHARS and len(text) >= MIN_TRANSITION_CHARS and is_adornment(text):
            return index + 1  # a transition, or an underline with no title ('::' is not one)
        if first == ">" and text.startswith(">>>"):  # a doctest block: code, not prose
            return self._paragraph_end(index, in_list=False)
        return self._read_paragraph(index, indent)

    # -- section titles ---------------------------------------------------------------------

    def _read_heading(self, index: int) -> int:
        """The line after a section title starting at `index`, or 0 when none starts there."""
        texts = self.texts
        if index + 1 >= len(texts):
            return 0
        line, below = texts[index], texts[index + 1]
        if not below and line[0] not in _ADORNMENT_CHARS:
            return 0  # the usual paragraph's first line: neither an overline nor underlined
        if line[0] in _ADORNMENT_CHARS and is_adornment(line):
            under = texts[index + 2] if index + 2 < len(texts) else ""
            if (below and not is_adornment(below) and under == line
                    and len(below) <= len(line) and self.indents[index + 2] == 0):
                self._add_heading(index + 1, below, (line[0], True))
                return index + 3
            return 0
        if (below and below[0] in _ADORNMENT_CHARS and self.indents[index + 1] == 0
                and len(below) >= len(line) and is_adornment(below)
                and not _is_explicit_markup(line) and line[0] not in "+|"):
            self._add_heading(index, line, (below[0], False))
            return index + 2
        return 0

    def _add_heading(self, index: int, title: str, style: tuple[str, bool]) -> None:
        # Levels follow the order in which adornment styles first appear, as in docutils.
        if style not in self.styles:
            self.styles.append(style)
        level = min(self.styles.index(style) + 1, MAX_HEADING_LEVEL)
        self.blocks.append(_Heading(index, level, render_inline(title).strip(" \t")))

    # -- explicit markup: directives, comments, targets, footnotes --------------------------

    def _read_explicit(self, index: int, indent: int, text: str) -> int:
        directive = _DIRECTIVE.match(text)
        if directive:
            argument = text[directive.end():].strip(" \t")
            return self._read_directive(index, indent, directive.group("name").lower(), argument)
        footnote = _FOOTNOTE.match(text)
        if footnote:
            label = footnote.group("label")
            marker = superscript(label) if label.isdigit() else f"[{label}]"
            return self._read_paragraph(index, indent, f"{marker} {text[footnote.end():]}")
        if text == ".." and (index + 1 >= len(self.texts) or not self.texts[index + 1]):
            return index + 1  # an empty comment ends a construct and holds nothing
        return self._skip_indented(index + 1, indent)  # a comment, target or substitution

    def _read_directive(self, index: int, indent: int, name: str, argument: str) -> int:
        if name == "list-table":
            return self._read_list_table(index, indent, argument)
        if name == "csv-table":
            return self._read_csv_table(index, indent, argument)
        if name == "table":
            return self._read_titled_table(index, indent, argument)
        if name in _ARGUMENT_IS_PROSE and argument:
            end = self._read_paragraph(index, indent, first=argument)
            return end if name in _TRANSPARENT_DIRECTIVES else self._skip_indented(end, indent)
        if name in _TRANSPARENT_DIRECTIVES:
            return self._directive_options(index, indent)[2]
        return self._skip_indented(index + 1, indent)

    def _directive_options(self, index: int, indent: int) -> tuple[dict, dict, int]:
        """(option name -> value, option name -> line, first line after the options) of the
        directive at `index`; a value may go on over more indented lines."""
        values: dict[str, str] = {}
        where: dict[str, int] = {}
        last: tuple[str, int] | None = None  # the option being read, and its indentation
        line_index = index + 1
        while line_index < len(self.texts):
            text, depth = self.texts[line_index], self.indents[line_index]
            if not text or depth <= indent:
                break
            option = _OPTION.match(text)
            if option:
                name = option.group("name").strip(" \t").lower()
                values[name] = (option.group("value") or "").strip(" \t")
                where[name] = line_index
                last = (name, depth)
            elif last is not None and depth > last[1]:
                values[last[0]] += " " + text
            else:
                break
            line_index += 1
        return values, where, line_index

    def _skip_indented(self, start: int, indent: int) -> int:
        """The first line from `start` on that is not blank and not indented past `indent`."""
        texts, indents = self.texts, self.indents
        index = start
        while index < len(texts) and (not texts[index] or indents[index] > indent):
            index += 1
        return index

    # -- list-table -------------------------------------------------------------------------

    def _read_list_table(self, index: int, indent: int, argument: str) -> int:
        options, _where, start = self._directive_options(index, indent)
        end = self._skip_indented(start, indent)
        rows = self._list_table_rows(start, end)
        self._add_table(index, rows, self._header_rows_option(options, index),
                        _caption(index, argument))
        return end

    def _list_table_rows(self, start: int, end: int) -> list[list[_Cell]]:
        """Each item of the outer bullet list is a row, each item of its inner list a cell.
        Read in one pass with the row's state in local names, as a hostile page may hold
        hundreds of thousands of rows."""
        texts, indents = self.texts, self.indents
        # The outer list is the first bullet's; any text before it is reported.
        first = next((i for i in range(start, end) if texts[i][:1] in _BULLET_CHARS
                      and _opens_bullet(texts[i], texts[i][0])), None)
        outer_depth, outer_marker = (
            (indents[first], texts[first][0]) if first is not None else (-1, ""))
        rows: list[list[_Cell]] = []
        row_line: int | None = None  # the first line of the row being read
        last_line = start  # its last line holding text
        cells: list[list[tuple[int, str]]] = []  # its cells' (line, text) parts
        inner: tuple[int, str] | None = None  # column and bullet of its list of cells
        broken = False  # its content is not a bullet list
        for index in range(start, end):
            text, depth = texts[index], indents[index]
            if not text:
                continue  # blank lines between a cell's paragraphs: its text is joined
            if depth == outer_depth and _opens_bullet(text, outer_marker):
                if row_line is not None:
                    self._close_list_row(row_line, last_line, cells, broken, rows)
                row_line, cells, inner, broken = index, [], None, False
                after = _after_bullet(text)
                if after == len(text):
                    continue
                depth, text = depth + after, text[after:]
            elif row_line is None:
                row_line, broken = index, True  # text before the first item
            last_line = index
            if broken:
                continue
            if inner is None:
                if text[0] not in _BULLET_CHARS or not _opens_bullet(text, text[0]):
                    broken = True
                    continue
                inner = (depth, text[0])
            if depth == inner[0] and _opens_bullet(text, inner[1]):
                cells.append([(index, text[_after_bullet(text):])])
            elif cells:
                cells[-1].append((index, text))
        if row_line is not None:
            self._close_list_row(row_line, last_line, cells, broken, rows)
        return rows

    def _close_list_row(self, line: int, last_line: int, cells: list[list[tuple[int, str]]],
                        broken: bool, rows: list[list[_Cell]]) -> None:
        if broken or not cells:
            self.problems.append(ParseProblem(
                check="list_table_row_not_a_list",
                reason=(f"lines {line + 1}-{last_line + 1} of a list-table are not a list of "
                        "cells under a list item; they were not placed"),
                line_number=line + 1,
                raw="\n".join(self.texts[line:min(last_line + 1, line + 50)])[:PROBLEM_RAW_CHARS]))
            return
        rows.append([_cell_of(parts) for parts in cells])

    # -- csv-table --------------------------------------------------------------------------

    def _read_csv_table(self, index: int, indent: int, argument: str) -> int:
        options, where, start = self._directive_options(index, indent)
        end = self._skip_indented(start, indent)
        external = next((name for name in ("file", "url") if name in options), None)
        if external is not None:
            self.problems.append(ParseProblem(
                check="external_table_content",
                reason=(f"the csv-table at line {index + 1} takes its content from its "
                        f":{external}: option ({options[external]}); external content is not "
                        "fetched or read, so none of its cells were placed"),
                line_number=index + 1, raw=options[external][:PROBLEM_RAW_CHARS]))
            return end
        dialect = self._csv_dialect(options, index)
        rows = self._csv_rows([(i, self.lines[i]) for i in range(start, end)], dialect, index)
        header_count = self._header_rows_option(options, index)
        if "header" in options:
            header = self._csv_rows([(where["header"], options["header"])], dialect, index)
            rows = header[:1] + rows
            header_count += len(header[:1])
        self._add_table(index, rows, header_count, _caption(index, argument))
        return end

    def _csv_dialect(self, options: dict, index: int) -> dict:
        delimiter = options.get("delim", ",")
        delimiter = {"tab": "\t", "space": " "}.get(delimiter, delimiter)
        quote = options.get("quote", '"')
        if len(delimiter) != 1 or len(quote) != 1 or delimiter == quote:
            self._option_problem(index, "delim", f"{delimiter!r} / quote {quote!r}")
            delimiter, quote = ",", '"'
        dialect = {"delimiter": delimiter, "quotechar": quote,
                   "skipinitialspace": "keepspace" not in options, "strict": False}
        escape = options.get("escape")
        if escape is not None and len(escape) == 1 and escape not in (delimiter, quote):
            dialect["escapechar"] = escape
        return dialect

    def _csv_rows(self, numbered: list[tuple[int, str]], dialect: dict,
                  index: int) -> list[list[_Cell]]:
        """The rows of CSV text given as (line, text) pairs; a quoted field may hold lines."""
        depths = [indent_of(text) for _, text in numbered if not is_blank(text)]
        if not depths:
            return []
        depth = min(depths)
        reader = csv.reader((text[depth:] + "\n" for _, text in numbered), **dialect)
        rows = []
        try:
            while True:
                start = reader.line_num  # lines read before this row: its first line's index
                fields = next(reader, None)
                if fields is None:
                    break
                if fields:
                    rows.append(_csv_cells(fields, numbered[min(start, len(numbered) - 1)][0]))
        except csv.Error as error:  # a field past csv's size limit, a NUL byte...
            self.problems.append(ParseProblem(
                check="malformed_table",
                reason=(f"the csv-table at line {index + 1} cannot be read past its row "
                        f"{len(rows)} ({error}); the rows after it were not placed"),
                line_number=index + 1,
                raw="\n".join(text for _, text in numbered)[:PROBLEM_RAW_CHARS]))
        return rows

    def _header_rows_option(self, options: dict, index: int) -> int:
        value = options.get("header-rows", "0")
        if value.isascii() and value.isdigit():
            return int(value)
        self._option_problem(index, "header-rows", value)
        return 0

    def _option_problem(self, index: int, name: str, value: str) -> None:
        self.problems.append(ParseProblem(
            check="bad_table_option",
            reason=(f"the table at line {index + 1} has an unreadable :{name}: option; "
                    "its default was used instead"),
            line_number=index + 1, raw=value[:PROBLEM_RAW_CHARS]))

    # -- grid and simple tables -------------------------------------------------------------

    def _read_titled_table(self, index: int, indent: int, argument: str) -> int:
        """`.. table:: Title` around a grid or simple table: the title is its caption."""
        after = self._directive_options(index, indent)[2]
        body = after
        while body < len(self.texts) and not self.texts[body]:
            body += 1
        if body < len(self.texts) and self.indents[body] > indent:
            found = self._read_table_at(body, _caption(index, argument))
            if found:
                return found
        return after

    def _read_table_at(self, index: int, caption: tuple[int, str] | None) -> int:
        """The line after a grid or simple table starting at `index`, or 0 when none does."""
        text = self.texts[index]
        if _GRID_TOP.fullmatch(text):
            return self._read_grid(index, caption)
        if _SIMPLE_BORDER.fullmatch(text):
            return self._read_simple(index, caption)
        return 0

    def _read_grid(self, index: int, caption: tuple[int, str] | None) -> int:
        indent = self.indents[index]
        end = index
        while (end < len(self.texts) and self.indents[end] == indent
               and self.texts[end][:1] in ("+", "|")):
            end += 1
        block = [self.lines[i][indent:].rstrip(" ") for i in range(index, end)]
        closed = max(i for i, line in enumerate(block) if line.startswith("+"))
        if closed == 0:
            self._table_problem(index, end, "no border below its first row")
            return end
        if closed < len(block) - 1:
            self._table_problem(index + closed + 1, end, "rows after its last border")
        found = _grid_rows(block[: closed + 1], index)
        if isinstance(found, str):
            self._table_problem(index, index + closed + 1, found)
        else:
            self._add_table(index, [*found[0], *found[1]], len(found[0]), caption)
        return end

    def _read_simple(self, index: int, caption: tuple[int, str] | None) -> int:
        borders, stop, trouble = self._simple_borders(index)
        if trouble:
            self._table_problem(index, stop, trouble)
            return stop
        lines = self.lines
        columns = [(m.start(), m.end()) for m in _RUN_OF_EQUALS.finditer(lines[index])]
        groups = _simple_row_lines(lines, borders[0] + 1, borders[1], columns)
        if len(borders) == 3:
            heads, bodies = groups, _simple_row_lines(lines, borders[1] + 1, borders[2], columns)
        else:
            heads, bodies = groups[:1], groups[1:]
        header = [_simple_row(lines, rows, spans, columns, True) for rows, spans in heads]
        body = [_simple_row(lines, rows, spans, columns, False) for rows, spans in bodies]
        self._add_table(index, [*header, *body], len(header), caption)
        return stop

    def _simple_borders(self, index: int) -> tuple[list[int], int, str | None]:
        """(border lines, line after the table, trouble) of a simple table, found as docutils
        finds them: the border after the top one ends the table when a blank line follows
        it, the one after that in any case."""
        texts, indents = self.texts, self.indents
        top, indent = texts[index], indents[index]
        borders = [index]
        line_index = index + 1
        while line_index < len(texts):
            text = texts[line_index]
            if text:
                if indents[line_index] < indent:
                    break  # the table's context ended before its bottom border
                if text[0] == "=" and _SIMPLE_BORDER.fullmatch(text):
                    if len(text) != len(top):
                        return borders, line_index + 1, "a border not as wide as its top border"
                    borders.append(line_index)
                    if (len(borders) == 3 or line_index + 1 == len(texts)
                            or not texts[line_index + 1]):
                        return borders, line_index + 1, None
            line_index += 1
        if len(borders) > 1:
            return borders, borders[-1] + 1, "no blank line after its bottom border"
        stop = index + 1
        while stop < line_index and texts[stop]:
            stop += 1
        return borders, stop, "no bottom border"

    def _table_problem(self, start: int, stop: int, trouble: str) -> None:
        self.problems.append(ParseProblem(
            check="malformed_table",
            reason=(f"the table at line {start + 1} cannot be read ({trouble}); "
                    f"lines {start + 1}-{stop} were not placed"),
            line_number=start + 1,
            raw="\n".join(self.lines[start:min(stop, start + 50)])[:PROBLEM_RAW_CHARS]))

    def _add_table(self, index: int, rows: list[list[_Cell]], header_count: int,
                   caption: tuple[int, str] | None) -> None:
        if not rows:
            return
        # A table without header rows takes its first row as its header, as HTML tables do.
        count = min(max(header_count, 1), len(rows))
        self.blocks.append(_Table(index, rows[:count], rows[count:], caption))

    # -- paragraphs and literal blocks ------------------------------------------------------

    def _read_paragraph(self, index: int, indent: int, first: str | None = None) -> int:
        texts = self.texts
        if first is None and _starts_item(texts[index]):
            return self._read_list(index)
        end = self._paragraph_end(index, in_list=False)
        pieces = [first if first is not None else texts[index], *texts[index + 1:end]]
        written = self._add_paragraph(index, pieces, in_list=False)
        if written.endswith("::"):
            return self._skip_literal(end, indent)
        return end

    def _read_list(self, index: int) -> int:
        """The items of a list (or field list) from `index` on, each item a paragraph; read
        here item after item, as a page may hold a list of thousands of items."""
        texts = self.texts
        while True:
            end = self._paragraph_end(index, in_list=True)
            written = self._add_paragraph(index, texts[index:end], in_list=True)
            if written.endswith("::"):
                return self._skip_literal(end, self.indents[index])
            if end >= len(texts) or not texts[end] or not _starts_item(texts[end]):
                return end
            index = end

    def _paragraph_end(self, index: int, in_list: bool) -> int:
        texts = self.texts
        starts = _ITEM_OR_BLOCK_STARTS if in_list else _BLOCK_STARTS
        end = index + 1
        while end < len(texts):
            text = texts[end]
            if not text or (text[0] in starts and self._breaks_paragraph(text, in_list)):
                break
            end += 1
        return end

    @staticmethod
    def _breaks_paragraph(text: str, in_list: bool) -> bool:
        first = text[0]
        if first == ".":
            return _is_explicit_markup(text)
        if (first == "+" and _GRID_TOP.fullmatch(text)) or (
                first == "=" and _SIMPLE_BORDER.fullmatch(text)):
            return True
        return in_list and _ITEM.match(text) is not None

    def _add_paragraph(self, index: int, pieces: list[str], in_list: bool) -> str:
        """Add the paragraph; returns its text as written, for its closing '::'."""
        written = pieces[0] if len(pieces) == 1 else " ".join(pieces)
        if in_list:
            written = _without_item_marker(written)
        shown = written
        if shown.endswith("::"):
            # 'Text::' reads 'Text:'; 'Text ::' reads 'Text'; '::' alone reads as nothing.
            before = shown[:-2]
            shown = before.rstrip(" \t") if not before or before[-1] in " \t" else shown[:-1]
        shown = render_inline(shown).strip(" \t")
        if shown:
            self.blocks.append(_Paragraph(index, shown))
        return written

    def _skip_literal(self, index: int, indent: int) -> int:
        """The line after the literal block that a paragraph's closing '::' introduces."""
        texts, indents = self.texts, self.indents
        start = index
        while start < len(texts) and not texts[start]:
            start += 1
        if start >= len(texts):
            return start
        if indents[start] > indent:
            return self._skip_indented(start, indent)
        quote = texts[start][0]
        if quote in _ADORNMENT_CHARS:  # a quoted literal block: each line opens with `quote`
            end = start
            while end < len(texts) and texts[end][:1] == quote and indents[end] == indents[start]:
                end += 1
            return end
        return start


def _is_explicit_markup(text: str) -> bool:
    return text.startswith("..") and (len(text) == 2 or text[2] in " \t")


def is_adornment(text: str) -> bool:
    """A line's text (stripped) that is one punctuation character repeated: a title's
    underline or overline, or a transition."""
    return (bool(text) and text[0] in _ADORNMENT_CHARS and text[-1] == text[0]
            and text.count(text[0]) == len(text))


def _opens_bullet(text: str, marker: str) -> bool:
    return text[0] == marker and (len(text) == 1 or text[1] in " \t")


def _after_bullet(text: str) -> int:
    """Where an item's text starts after its one-character bullet and the spaces after it."""
    return len(text) - len(text[1:].lstrip(" \t"))


def _starts_item(text: str) -> bool:
    return text[0] in _ITEM_STARTS and _ITEM.match(text) is not None


def _without_item_marker(text: str) -> str:
    """A list item's or field's text: its markers dropped, a field's name kept as 'Name:'."""
    field_found = _FIELD.match(text) if text[:1] == ":" else None
    if field_found:
        return f"{field_found.group('name')}: {text[field_found.end():]}".rstrip(" \t")
    found = _MARKERS.match(text)
    return text[found.end():] if found else text


def _caption(index: int, argument: str) -> tuple[int, str] | None:
    shown = render_inline(argument).strip(" \t")
    return (index, shown) if shown else None


def _cell_of(parts: list[tuple[int, str]]) -> _Cell:
    """A cell from its (line, text) parts: the text joined, the line where text starts."""
    if len(parts) == 1:  # most cells: one line, often with no markup
        line, text = parts[0]
        if text[:1] not in _BULLET_CHARS and _MARKUP_CHARS.search(text) is None:
            return text.strip(" \t"), line
        return render_inline(_without_cell_bullet(text.strip(" \t"))).strip(" \t"), line
    texts = [_without_cell_bullet(piece.strip(" \t")) for _, piece in parts]
    line = next((index for (index, _), text in zip(parts, texts, strict=True) if text),
                parts[0][0])
    return render_inline(" ".join(text for text in texts if text)).strip(" \t"), line


def _without_cell_bullet(text: str) -> str:
    # A nested bullet list in a cell reads as its items' text.
    return _CELL_BULLETS.sub("", text, count=1) if text[:1] in _BULLET_CHARS else text


def _csv_cells(fields: list[str], first_line: int) -> list[_Cell]:
    cells = []
    line = first_line
    for value in fields:
        text = " ".join(part.strip(" \t") for part in value.split("\n") if part.strip(" \t"))
        cells.append((render_inline(text).strip(" \t"), line))
        line += value.count("\n")  # a quoted field's lines push the next field down
    return cells


# ---- grid and simple tables ----------------------------------------------------------------


def _grid_rows(block: list[str], first: int) -> tuple[list, list] | str:
    """(header rows, body rows) of a grid table, or why it cannot be read.

    The table is cut into atomic cells by every row rule and column corner; neighbours with
    no border between them belong to one cell (a union-find), which is placed in its first
    row and column."""
    width = len(block[0])
    if any(len(line) != width or line[-1] not in "+|" for line in block):
        return "its lines are not all as wide as its top border"
    rules = [r for r, line in enumerate(block) if _RULE_SEGMENT.search(line)]
    if len(rules) < 2 or rules[-1] != len(block) - 1:
        return "no border line closes it"
    if sum(block[r].count("+") for r in rules) + len(block) > MAX_GRID_WORK:
        return "too large to read"
    corners = sorted({m.start() for r in rules for m in _RULE_CORNER.finditer(block[r])})
    if corners[0] != 0 or corners[-1] != width - 1:
        return "its column borders do not line up"
    if len(corners) - 1 > MAX_COLUMNS:
        return f"more than {MAX_COLUMNS} columns"
    if len(block) * len(corners) > MAX_GRID_WORK:
        return "too large to read"
    owner = _grid_owners(block, rules, corners)
    cells = _grid_cell_texts(block, rules, corners, owner, first)
    if isinstance(cells, str):
        return cells
    separator = next((r for r in rules[1:-1] if _HEADER_RULE.fullmatch(block[r])), None)
    header_count = rules.index(separator) if separator is not None else 1
    rows = []
    for band in range(len(rules) - 1):
        row = []
        for column in range(len(corners) - 1):
            root = owner[band][column]
            cell = cells[root]
            placed = root == (band, column) or band < header_count
            row.append(cell if placed else ("", first + rules[band] + 1))
        rows.append(row)
    return rows[:header_count], rows[header_count:]


def _grid_owners(block: list[str], rules: list[int], corners: list[int]) -> list[list]:
    """For each (band, column) of atomic cells, the (band, column) of the cell holding it."""
    bands, columns = len(rules) - 1, len(corners) - 1
    parent = list(range(bands * columns))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    def join(one: int, other: int) -> None:
        first, second = root(one), root(other)
        parent[max(first, second)] = min(first, second)  # the top-left cell stays the root

    for band in range(bands):
        inside = block[rules[band] + 1 : rules[band + 1]]
        for column in range(1, columns):
            corner = corners[column]
            if not all(line[corner] == "|" for line in inside):
                join(band * columns + column - 1, band * columns + column)
    for band in range(1, bands):
        rule = block[rules[band]]
        for column in range(columns):
            segment = rule[corners[column] + 1 : corners[column + 1]]
            if segment.strip("-") and segment.strip("="):
                join((band - 1) * columns + column, band * columns + column)
    return [[divmod(root(band * columns + column), columns) for column in range(columns)]
            for band in range(bands)]


def _grid_cell_texts(block: list[str], rules: list[int], corners: list[int],
                     owner: list[list], first: int) -> dict | str:
    """The (text, line) of each cell, keyed by its top-left atomic cell."""
    extent: dict[tuple[int, int], list[int]] = {}  # root -> [last band, last column, size]
    for band, row in enumerate(owner):
        for column, root in enumerate(row):
            found = extent.setdefault(root, [band, column, 0])
            found[0], found[1] = max(found[0], band), max(found[1], column)
            found[2] += 1
    cells = {}
    for (top, left), (bottom, right, size) in extent.items():
        if (bottom - top + 1) * (right - left + 1) != size:
            return "a cell that is not a rectangle"
        start, stop = rules[top] + 1, rules[bottom + 1]
        parts = [(first + r, block[r][corners[left] + 1 : corners[right + 1]])
                 for r in range(start, stop)]
        cells[(top, left)] = _cell_of(parts) if parts else ("", first + rules[top])
    return cells


def _simple_row_lines(lines: list[str], start: int, stop: int,
                      columns: list[tuple[int, int]]) -> list[tuple[list[int], list]]:
    """(line indexes, column spans) of each row of a simple table between two borders. A
    line whose first column is blank goes on the row above; a line of dashes under a row
    joins the columns it spans."""
    groups: list[tuple[list[int], list[tuple[int, int]]]] = []
    first_end = columns[1][0] if len(columns) > 1 else None
    for index in range(start, stop):
        line = lines[index]
        if is_blank(line):
            continue
        spans = _span_groups(line, columns) if groups else None
        if spans is not None:
            groups[-1] = (groups[-1][0], spans)
        elif groups and not line[:first_end].strip(" "):
            groups[-1][0].append(index)
        else:
            groups.append(([index], [(k, k) for k in range(len(columns))]))
    return groups


def _span_groups(line: str, columns: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """(first, last) column of each cell a line of dashes marks, None for any other line."""
    if not _SPAN_RULE.fullmatch(line.strip(" ")):
        return None
    groups = []
    for run in _RUN_OF_DASHES.finditer(line):
        covered = [k for k, (begin, end) in enumerate(columns)
                   if begin >= run.start() and end <= run.end()]
        if not covered:
            return None  # a row of '-' cells, not a span rule
        groups.append((covered[0], covered[-1]))
    return groups


def _simple_row(lines: list[str], indexes: list[int], spans: list[tuple[int, int]],
                columns: list[tuple[int, int]], as_header: bool) -> list[_Cell]:
    row: list[_Cell] = []
    for first, last in spans:
        begin = columns[first][0]
        end = columns[last + 1][0] if last + 1 < len(columns) else None
        cell = _cell_of([(index, lines[index][begin:end]) for index in indexes])
        row.append(cell)
        filler = cell if as_header else ("", indexes[0])
        row.extend([filler] * (last - first))
    return row


# ---- the page ------------------------------------------------------------------------------


def _column_names(header: list[list[_Cell]], width: int) -> list[_Cell]:
    """Each column's name: its header rows' texts joined with ' / ', a cell spanning rows
    named once; its line is where the first of those texts starts."""
    names = []
    fallback = header[0][0][1]
    for column in range(width):
        stack = [row[column] for row in header if column < len(row)]
        texts: list[str] = []
        line = None
        previous = None
        for cell in stack:
            if cell != previous and cell[0]:
                texts.append(cell[0])
                line = cell[1] if line is None else line
            previous = cell
        names.append((HEADER_LEVEL_SEPARATOR.join(texts),
                      line if line is not None else (stack[0][1] if stack else fallback)))
    return names


@dataclass
class _Assembly:
    """The page's blocks turned into cells, outline rows, prose and problems."""

    cells: CellColumns = field(default_factory=CellColumns)
    cell_count: int = 0
    outline: list[tuple] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    problems: list[ParseProblem] = field(default_factory=list)
    headings: list[_Heading] = field(default_factory=list)
    table_count: int = 0

    def add_table(self, table: _Table, note: str | None) -> None:
        index = self.table_count
        self.table_count += 1
        title = self.headings[-1].text if self.headings else None
        if table.caption is not None:
            self.outline.append((table.caption[0] + 1, "caption", None, table.caption[1], index))
        elif self.outline and _reads_as_caption(self.outline[-1]):
            line, _kind, _level, text, _ = self.outline[-1]
            self.outline[-1] = (line, "caption", None, text, index)
        self.outline.append((table.line + 1, "table", None, None, index))
        self._table_cells(table, index, title, note)

    def _table_cells(self, table: _Table, index: int, title: str | None,
                     note: str | None) -> None:
        width = max(len(row) for row in table.header)
        if width > MAX_COLUMNS:
            self._cut_problem(index, title, 0, table.header[0][MAX_COLUMNS:], MAX_COLUMNS,
                              "table_too_wide")
            width = MAX_COLUMNS
        names = _column_names(table.header, width)
        # The data rows the page still has room for, after this table's header.
        room = max((MAX_PAGE_CELLS - self.cell_count) // width - 1, 0)
        if len(table.body) > room:
            self._too_many_cells(index, title, room + 1, len(table.body))
        body = [self._fitted(row, width, index, title, number, table.line)
                for number, row in enumerate(table.body[:room], start=1)]
        column_names = [name for name, _ in names]
        values = column_names + [text for row in body for text, _ in row]
        lines = [line + 1 for _, line in names] + [line + 1 for row in body for _, line in row]
        self.cell_count += len(values)
        self.cells.add_rows(index, note, column_names, [title] * (len(body) + 1),
                            list(range(len(body) + 1)), values, lines)

    def _fitted(self, row: list[_Cell], width: int, index: int, title: str | None,
                number: int, table_line: int) -> list[_Cell]:
        """The row as wide as the header: a short one padded with empty cells, a long one
        cut to it and its cut cells reported."""
        if len(row) == width:
            return row
        if len(row) > width:
            self._cut_problem(index, title, number, row[width:], width, "cells_beyond_header")
            return row[:width]
        filler = ("", row[-1][1] if row else table_line)
        return row + [filler] * (width - len(row))

    def _cut_problem(self, index: int, title: str | None, number: int, cut: list[_Cell],
                     width: int, check: str) -> None:
        label = title or f"#{index}"
        where = "the header row" if number == 0 else f"data row {number}"
        self.problems.append(ParseProblem(
            check=check,
            reason=(f"{where} of table '{label}' has {len(cut)} cell(s) past its {width} "
                    f"columns; the first {width} cells were placed, these were not"),
            line_number=cut[0][1] + 1, table_index=index,
            raw=" | ".join(text for text, _ in cut)[:PROBLEM_RAW_CHARS]))

    def _too_many_cells(self, index: int, title: str | None, number: int, rows: int) -> None:
        self.problems.append(ParseProblem(
            check="table_too_large",
            reason=(f"table '{title or index}' would take the page past {MAX_PAGE_CELLS} cells; "
                    f"its data rows {number} to {rows} were not placed"),
            table_index=index))

    def add_heading(self, heading: _Heading) -> None:
        self.headings.append(heading)
        self.outline.append((heading.line + 1, "heading", heading.level, heading.text, None))

    def add_paragraph(self, paragraph: _Paragraph) -> None:
        self.outline.append((paragraph.line + 1, "paragraph", None, paragraph.text, None))
        self.prose.append((paragraph.line + 1, paragraph.text))


def _reads_as_caption(row: tuple) -> bool:
    _line, kind, _level, text, _table = row
    return kind == "paragraph" and len(text) <= CAPTION_MAX_CHARS and not text.endswith(".")


def _notes_after(blocks: list, position: int) -> list[int]:
    """Positions of the footnote paragraphs right after the table at `position`."""
    found = []
    after = position + 1
    while (after < len(blocks) and isinstance(blocks[after], _Paragraph)
           and looks_like_note(blocks[after].text)):
        found.append(after)
        after += 1
    return found


def _assemble(blocks: list, problems: list[ParseProblem]) -> ParsedDocument:
    page = _Assembly(problems=problems)
    notes: set[int] = set()
    for position, block in enumerate(blocks):
        if position in notes:
            continue
        if isinstance(block, _Heading):
            page.add_heading(block)
        elif isinstance(block, _Paragraph):
            page.add_paragraph(block)
        else:
            found = _notes_after(blocks, position)
            notes.update(found)
            note = NOTE_SEPARATOR.join(blocks[i].text for i in found) or None
            page.add_table(block, note)
    title = next((h.text for h in page.headings if h.level == 1), None)
    texts = [text for _, text in page.prose]
    dates = find_dates(texts)
    return ParsedDocument(
        cells=page.cells.frame(),
        metadata=DocumentMetadata(title=title, author=find_author(texts), **dates),
        prose=page.prose,
        problems=page.problems,
        outline=outline_frame(page.outline),
    )


def parse_rst(text: str) -> ParsedDocument:
    """Parse a reStructuredText page into table cells, prose, outline and page metadata."""
    reader = _PageReader(page_lines(text))
    reader.read()
    return _assemble(reader.blocks, reader.problems)


# ---- sniffing ------------------------------------------------------------------------------


def sniff_rst(data: bytes, content_type: str | None) -> float:
    """High for a page that is clearly reStructuredText; 0 for HTML or Markdown."""
    kind = (content_type or "").lower()
    if "html" in kind or "markdown" in kind:
        return 0.0
    head = data[:SNIFF_BYTES].replace(b"\x00", b"")
    lowered = head.lower()
    if any(mark in lowered for mark in _HTML_MARKS) or _looks_like_markdown(head):
        return 0.0
    if "rst" in kind:
        return 0.9
    if _SNIFF_DIRECTIVE.search(head):
        return 0.8
    return 0.6 if _underlined_titles(head) >= 2 else 0.0


def _looks_like_markdown(head: bytes) -> bool:
    if _SNIFF_MARKDOWN.search(head):
        return True
    if b"|" not in head:
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    return any(is_delimiter_row(line) for line in lines if "---" in line and "|" in line)


def _underlined_titles(head: bytes) -> int:
    lines = [line.rstrip() for line in head.decode("utf-8", errors="replace").splitlines()]
    return sum(
        1 for above, below in zip(lines, lines[1:], strict=False)
        if above and not above[0].isspace() and not is_adornment(above)
        and is_adornment(below) and len(below) >= len(above)
    )


LAYOUT = Layout(name="rst_table", sniff=sniff_rst, parse=parse_rst)
