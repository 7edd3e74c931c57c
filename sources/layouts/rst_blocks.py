"""A reStructuredText page's lines read into headings, paragraphs and tables, block after
block: section titles, explicit markup (directives, comments, targets, footnotes), list-,
csv-, grid and simple tables, paragraphs, lists and literal blocks."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.console_summaries import find_console_summaries
from perfledger.sources.layouts.header_levels import (
    MAX_EXTRA_LEVELS,
    SAMPLED_ROWS,
    header_levels_below,
    is_data_row,
    publishes_a_number,
)
from perfledger.sources.layouts.rst_grid import grid_rows, simple_row, simple_row_lines
from perfledger.sources.layouts.rst_text import (
    ADORNMENT_CHARS,
    BULLET_CHARS,
    Cell,
    cell_of,
    in_display_columns,
    indent_of,
    is_adornment,
    is_blank,
    render_inline,
)
from perfledger.sources.layouts.table_text import fold_header_text, superscript

MAX_HEADING_LEVEL = 6
MIN_TRANSITION_CHARS = 4  # as docutils: a shorter line of punctuation is text
PROBLEM_RAW_CHARS = 2000  # of a table's text kept in its problem

_TRANSPARENT_DIRECTIVES = frozenset(
    {
        "note",
        "warning",
        "tip",
        "important",
        "hint",
        "attention",
        "caution",
        "danger",
        "error",
        "seealso",
        "admonition",
        "figure",
        "container",
        "topic",
        "sidebar",
        "rst-class",
        "class",
        "only",
        "compound",
        "epigraph",
        "highlights",
        "pull-quote",
        "tab",
        "tabs",
        "group-tab",
        "tab-set",
        "tab-item",
        "dropdown",
        "card",
        "grid",
        "grid-item",
        "grid-item-card",
    }
)
# Directives whose argument is text a reader sees, not a path or an expression.
_ARGUMENT_IS_PROSE = frozenset(
    {
        "note",
        "warning",
        "tip",
        "important",
        "hint",
        "attention",
        "caution",
        "danger",
        "error",
        "seealso",
        "rubric",
    }
)

# Directives whose body is code as written: a benchmark's printed summary in one is its output.
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "parsed-literal"})

_DIRECTIVE = re.compile(r"\.\.[ \t]+(?P<name>[A-Za-z0-9][\w:.+-]*?)::(?=[ \t]|$)")
_FOOTNOTE = re.compile(r"\.\.[ \t]+\[(?P<label>[^\]\s]+)\](?:[ \t]+|$)")
_OPTION = re.compile(r":(?P<name>[^:\s][^:]*):(?:[ \t]+(?P<value>.*))?$")
_GRID_TOP = re.compile(r"\+(?:-+\+)+")
_SIMPLE_BORDER = re.compile(r"=+(?:[ ]+=+)+")
_RUN_OF_EQUALS = re.compile(r"=+")
# A list item's or field's marker at the start of a stripped line.
_ITEM = re.compile(
    r"(?:[-*+\u2022\u2023\u2043]|(?:\d{1,9}|#)[.)]|\(\d{1,9}\))(?:[ \t]+|$)"
    r"|:[^:`\s][^:`]*:(?:[ \t]+|$)"
)
_ITEM_STARTS = BULLET_CHARS | frozenset("0123456789#(:")
_BLOCK_STARTS = frozenset(".+=")  # what may open an explicit markup block or a table
_ITEM_OR_BLOCK_STARTS = _BLOCK_STARTS | _ITEM_STARTS
# Markers of nested list items, dropped from a paragraph's text: '* - a' reads 'a'.
_MARKERS = re.compile(r"(?:(?:[-*+\u2022\u2023\u2043]|(?:\d{1,9}|#)[.)]|\(\d{1,9}\))(?:[ \t]+|$))+")
_FIELD = re.compile(r":(?P<name>[^:`\s][^:`]*):(?:[ \t]+|$)")


class Heading(NamedTuple):
    line: int  # 0-based
    level: int
    text: str


class Paragraph(NamedTuple):  # a page may hold one per line: a tuple is quick to build
    line: int
    text: str


@dataclass
class Table:
    line: int  # the directive's line, or the table's top border
    header: list[list[Cell]]  # spanning cells repeated in every column they cover
    body: list[list[Cell]]  # spanning cells in their first column, the rest blank
    caption: tuple[int, str] | None = None  # (line, text) of a directive's title argument
    # What could not be read of it; a table none of whose rows could be has no header.
    problems: list[ParseProblem] = field(default_factory=list)
    # A summary a tool printed in a literal block (see console_summaries): numbered after
    # the tables written as tables, so that reading code never renumbers one of them.
    printed: bool = False


class PageReader:
    """Reads a page's lines into headings, paragraphs and tables, block after block."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        # Each line's text without its indentation ('' for a blank line) and its indentation,
        # found once: every block below looks at them, most more than once.
        self.texts = [line.strip(" ") for line in lines]
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        self.blocks: list[Heading | Paragraph | Table] = []
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
        if first in ADORNMENT_CHARS and len(text) >= MIN_TRANSITION_CHARS and is_adornment(text):
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
        if not below and line[0] not in ADORNMENT_CHARS:
            return 0  # the usual paragraph's first line: neither an overline nor underlined
        if line[0] in ADORNMENT_CHARS and is_adornment(line):
            under = texts[index + 2] if index + 2 < len(texts) else ""
            if (
                below
                and not is_adornment(below)
                and under == line
                and len(below) <= len(line)
                and self.indents[index + 2] == 0
            ):
                self._add_heading(index + 1, below, (line[0], True))
                return index + 3
            return 0
        if (
            below
            and below[0] in ADORNMENT_CHARS
            and self.indents[index + 1] == 0
            and len(below) >= len(line)
            and is_adornment(below)
            and not _is_explicit_markup(line)
            and line[0] not in "+|"
        ):
            self._add_heading(index, line, (below[0], False))
            return index + 2
        return 0

    def _add_heading(self, index: int, title: str, style: tuple[str, bool]) -> None:
        # Levels follow the order in which adornment styles first appear, as in docutils.
        if style not in self.styles:
            self.styles.append(style)
        level = min(self.styles.index(style) + 1, MAX_HEADING_LEVEL)
        self.blocks.append(Heading(index, level, render_inline(title).strip(" \t")))

    # -- explicit markup: directives, comments, targets, footnotes --------------------------

    def _read_explicit(self, index: int, indent: int, text: str) -> int:
        directive = _DIRECTIVE.match(text)
        if directive:
            argument = text[directive.end() :].strip(" \t")
            return self._read_directive(index, indent, directive.group("name").lower(), argument)
        footnote = _FOOTNOTE.match(text)
        if footnote:
            label = footnote.group("label")
            marker = superscript(label) if label.isdigit() else f"[{label}]"
            return self._read_paragraph(index, indent, f"{marker} {text[footnote.end() :]}")
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
        end = self._skip_indented(index + 1, indent)
        if name in _CODE_DIRECTIVES:
            self._read_printed_summaries(index + 1, end)
        return end

    def _read_printed_summaries(self, start: int, end: int) -> None:
        """The summaries a benchmark printed in the code of lines `start` to `end`, each a
        table of one row: a column per line, its label the header over its value."""
        if not any(":" in self.texts[index] for index in range(start, end)):
            return
        for summary in find_console_summaries(self.lines, set(range(start, end))):
            header = [(label, index) for index, label, _value in summary.fields]
            body = [(value, index) for index, _label, value in summary.fields]
            caption = (summary.start, summary.caption) if summary.caption else None
            self.blocks.append(Table(summary.start, [header], [body], caption, printed=True))

    def _directive_options(
        self, index: int, indent: int
    ) -> tuple[dict[str, str], dict[str, int], int]:
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
        since = len(self.problems)
        options, _where, start = self._directive_options(index, indent)
        end = self._skip_indented(start, indent)
        rows = self._list_table_rows(start, end)
        self._add_table(
            index, rows, self._header_rows_option(options, index), _caption(index, argument), since
        )
        return end

    def _list_table_rows(self, start: int, end: int) -> list[list[Cell]]:
        """Each item of the outer bullet list is a row, each item of its inner list a cell.
        Read in one pass with the row's state in local names, as a hostile page may hold
        hundreds of thousands of rows."""
        texts, indents = self.texts, self.indents
        # The outer list is the first bullet's; any text before it is reported.
        first = next(
            (
                i
                for i in range(start, end)
                if texts[i][:1] in BULLET_CHARS and _opens_bullet(texts[i], texts[i][0])
            ),
            None,
        )
        outer_depth, outer_marker = (
            (indents[first], texts[first][0]) if first is not None else (-1, "")
        )
        rows: list[list[Cell]] = []
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
                if text[0] not in BULLET_CHARS or not _opens_bullet(text, text[0]):
                    broken = True
                    continue
                inner = (depth, text[0])
            if depth == inner[0] and _opens_bullet(text, inner[1]):
                cells.append([(index, text[_after_bullet(text) :])])
            elif cells:
                cells[-1].append((index, text))
        if row_line is not None:
            self._close_list_row(row_line, last_line, cells, broken, rows)
        return rows

    def _close_list_row(
        self,
        line: int,
        last_line: int,
        cells: list[list[tuple[int, str]]],
        broken: bool,
        rows: list[list[Cell]],
    ) -> None:
        if broken or not cells:
            self.problems.append(
                ParseProblem(
                    check="list_table_row_not_a_list",
                    reason=(
                        f"lines {line + 1}-{last_line + 1} of a list-table are not a list of "
                        "cells under a list item; they were not placed"
                    ),
                    line_number=line + 1,
                    raw="\n".join(self.texts[line : min(last_line + 1, line + 50)])[
                        :PROBLEM_RAW_CHARS
                    ],
                )
            )
            return
        rows.append([cell_of(parts) for parts in cells])

    # -- csv-table --------------------------------------------------------------------------

    def _read_csv_table(self, index: int, indent: int, argument: str) -> int:
        since = len(self.problems)
        options, where, start = self._directive_options(index, indent)
        end = self._skip_indented(start, indent)
        external = next((name for name in ("file", "url") if name in options), None)
        if external is not None:
            self.problems.append(
                ParseProblem(
                    check="external_table_content",
                    reason=(
                        f"the csv-table at line {index + 1} takes its content from its "
                        f":{external}: option ({options[external]}); external content is not "
                        "fetched or read, so none of its cells were placed"
                    ),
                    line_number=index + 1,
                    raw=options[external][:PROBLEM_RAW_CHARS],
                )
            )
            self._add_table(index, [], 0, _caption(index, argument), since)
            return end
        dialect = self._csv_dialect(options, index)
        rows = self._csv_rows([(i, self.lines[i]) for i in range(start, end)], dialect, index)
        header_count = self._header_rows_option(options, index)
        if "header" in options:
            header = self._csv_rows([(where["header"], options["header"])], dialect, index)
            rows = header[:1] + rows
            header_count += len(header[:1])
        self._add_table(index, rows, header_count, _caption(index, argument), since)
        return end

    def _csv_dialect(self, options: dict[str, str], index: int) -> dict:
        delimiter = options.get("delim", ",")
        delimiter = {"tab": "\t", "space": " "}.get(delimiter, delimiter)
        quote = options.get("quote", '"')
        if len(delimiter) != 1 or len(quote) != 1 or delimiter == quote:
            self._option_problem(index, "delim", f"{delimiter!r} / quote {quote!r}")
            delimiter, quote = ",", '"'
        dialect = {
            "delimiter": delimiter,
            "quotechar": quote,
            "skipinitialspace": "keepspace" not in options,
            "strict": False,
        }
        escape = options.get("escape")
        if escape is not None and len(escape) == 1 and escape not in (delimiter, quote):
            dialect["escapechar"] = escape
        return dialect

    def _csv_rows(
        self, numbered: list[tuple[int, str]], dialect: dict, index: int
    ) -> list[list[Cell]]:
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
            self.problems.append(
                ParseProblem(
                    check="malformed_table",
                    reason=(
                        f"the csv-table at line {index + 1} cannot be read past its row "
                        f"{len(rows)} ({error}); the rows after it were not placed"
                    ),
                    line_number=index + 1,
                    raw="\n".join(text for _, text in numbered)[:PROBLEM_RAW_CHARS],
                )
            )
        return rows

    def _header_rows_option(self, options: dict, index: int) -> int:
        value = options.get("header-rows", "0")
        if value.isascii() and value.isdigit():
            return int(value)
        self._option_problem(index, "header-rows", value)
        return 0

    def _option_problem(self, index: int, name: str, value: str) -> None:
        self.problems.append(
            ParseProblem(
                check="bad_table_option",
                reason=(
                    f"the table at line {index + 1} has an unreadable :{name}: option; "
                    "its default was used instead"
                ),
                line_number=index + 1,
                raw=value[:PROBLEM_RAW_CHARS],
            )
        )

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
        since = len(self.problems)
        indent = self.indents[index]
        end = index
        while (
            end < len(self.texts)
            and self.indents[end] == indent
            and self.texts[end][:1] in ("+", "|")
        ):
            end += 1
        block = [in_display_columns(self.lines[i][indent:].rstrip(" ")) for i in range(index, end)]
        closed = max(i for i, line in enumerate(block) if line.startswith("+"))
        if closed == 0:
            self._table_problem(index, end, "no border below its first row")
            self._add_table(index, [], 0, caption, since)
            return end
        if closed < len(block) - 1:
            self._table_problem(index + closed + 1, end, "rows after its last border")
        found = grid_rows(block[: closed + 1], index)
        if isinstance(found, str):
            self._table_problem(index, index + closed + 1, found)
            self._add_table(index, [], 0, caption, since)
        else:
            self._add_table(index, [*found[0], *found[1]], len(found[0]), caption, since)
        return end

    def _read_simple(self, index: int, caption: tuple[int, str] | None) -> int:
        since = len(self.problems)
        borders, stop, trouble = self._simple_borders(index)
        if trouble:
            self._table_problem(index, stop, trouble)
            self._add_table(index, [], 0, caption, since)
            return stop
        # The table's lines in display columns (see in_display_columns), counted from its
        # top border: its cells' lines are moved back to the page's below.
        lines = [in_display_columns(line) for line in self.lines[index:stop]]
        local = [border - index for border in borders]
        columns = [(m.start(), m.end()) for m in _RUN_OF_EQUALS.finditer(lines[0])]
        groups = simple_row_lines(lines, local[0] + 1, local[1], columns)
        if len(local) == 3:
            heads, bodies = groups, simple_row_lines(lines, local[1] + 1, local[2], columns)
        else:
            heads, bodies = groups[:1], groups[1:]
        header = [simple_row(lines, rows, spans, columns, True) for rows, spans in heads]
        body = [simple_row(lines, rows, spans, columns, False) for rows, spans in bodies]
        rows = [[(text, line + index) for text, line in row] for row in [*header, *body]]
        self._add_table(index, rows, len(header), caption, since)
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
                    if (
                        len(borders) == 3
                        or line_index + 1 == len(texts)
                        or not texts[line_index + 1]
                    ):
                        return borders, line_index + 1, None
            line_index += 1
        if len(borders) > 1:
            return borders, borders[-1] + 1, "no blank line after its bottom border"
        stop = index + 1
        while stop < line_index and texts[stop]:
            stop += 1
        return borders, stop, "no bottom border"

    def _table_problem(self, start: int, stop: int, trouble: str) -> None:
        self.problems.append(
            ParseProblem(
                check="malformed_table",
                reason=(
                    f"the table at line {start + 1} cannot be read ({trouble}); "
                    f"lines {start + 1}-{stop} were not placed"
                ),
                line_number=start + 1,
                raw="\n".join(self.lines[start : min(stop, start + 50)])[:PROBLEM_RAW_CHARS],
            )
        )

    def _add_table(
        self,
        index: int,
        rows: list[list[Cell]],
        header_count: int,
        caption: tuple[int, str] | None,
        since: int,
    ) -> None:
        """A table block of `rows`; the problems found since `since` are its own. A table
        none of whose rows could be read keeps its place among the page's tables, so that
        the tables after it keep their numbers, and its problems name it."""
        problems = self.problems[since:]
        del self.problems[since:]
        if not rows:
            if problems:
                self.blocks.append(Table(index, [], [], caption, problems))
            return
        # A table without header rows takes its first row as its header, as HTML tables do,
        # unless that row reads as data: then its columns are unnamed. The rows under the
        # header that are more levels of it join it (see header_levels).
        if header_count == 0 and is_data_row([text for text, _line in rows[0]]):
            width = max(map(len, rows))
            rows = [[("", rows[0][0][1] if rows[0] else index)] * width, *rows]
        count = min(max(header_count, 1), len(rows))
        below = rows[count : count + 1]
        if below and not publishes_a_number([text for text, _line in below[0]]):
            sample = rows[count : count + MAX_EXTRA_LEVELS + SAMPLED_ROWS]
            count += header_levels_below([[text for text, _line in row] for row in sample])
        header = rows[:count]
        # The header repeated inside the body, any of its levels, is no data row.
        # The cheap test first: most rows differ from every level in their first cell.
        repeated = [folded for folded in map(_folded, header) if any(folded)]
        firsts = {level[0] for level in repeated if level}
        body = [
            row
            for row in rows[count:]
            if not (row and fold_header_text(row[0][0]) in firsts and _folded(row) in repeated)
        ]
        self.blocks.append(Table(index, header, body, caption, problems))

    # -- paragraphs and literal blocks ------------------------------------------------------

    def _read_paragraph(self, index: int, indent: int, first: str | None = None) -> int:
        texts = self.texts
        if first is None and _starts_item(texts[index]):
            return self._read_list(index)
        end = self._paragraph_end(index, in_list=False)
        pieces = [first if first is not None else texts[index], *texts[index + 1 : end]]
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
            first == "=" and _SIMPLE_BORDER.fullmatch(text)
        ):
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
            self.blocks.append(Paragraph(index, shown))
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
            end = self._skip_indented(start, indent)
            self._read_printed_summaries(start, end)
            return end
        quote = texts[start][0]
        if quote in ADORNMENT_CHARS:  # a quoted literal block: each line opens with `quote`
            end = start
            while end < len(texts) and texts[end][:1] == quote and indents[end] == indents[start]:
                end += 1
            return end
        return start


def _is_explicit_markup(text: str) -> bool:
    return text.startswith("..") and (len(text) == 2 or text[2] in " \t")


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
        return f"{field_found.group('name')}: {text[field_found.end() :]}".rstrip(" \t")
    found = _MARKERS.match(text)
    return text[found.end() :] if found else text


def _folded(row: list[Cell]) -> list[str]:
    return [fold_header_text(text) for text, _line in row]


def _caption(index: int, argument: str) -> tuple[int, str] | None:
    shown = render_inline(argument).strip(" \t")
    return (index, shown) if shown else None


def _csv_cells(fields: list[str], first_line: int) -> list[Cell]:
    cells = []
    line = first_line
    for value in fields:
        text = " ".join(part.strip(" \t") for part in value.split("\n") if part.strip(" \t"))
        cells.append((render_inline(text).strip(" \t"), line))
        line += value.count("\n")  # a quoted field's lines push the next field down
    return cells
