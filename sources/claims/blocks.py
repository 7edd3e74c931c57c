"""A page's prose lines assembled into the blocks a reader sees: headings, paragraphs, list
items and captions, each with the lines it was joined from.

Layouts hand prose over in two shapes. Layouts that read a page's structure (Markdown with
tables, reST, HTML) give an outline whose headings, paragraphs and captions are its blocks,
already rendered and joined. A text capture gives the page's physical lines as they are,
Markdown and HTML markup included, and the blocks are made here. Either way a sentence must
not be cut where a line was wrapped, a list item must stay apart from the next, and code,
front matter and markup must not pass for prose:

* a line's own shape starts a block: a heading (`#`), a list item (`-`, `*`, `+`, `1.`), a
  quotation (`>`), a table row, a line of HTML tags alone, a rule; fenced code and
  `<script>`/`<style>` are no prose;
* in Markdown source (front matter, `#` headings, fences, bullets), a line that follows
  another directly carries on its paragraph, as Markdown renders it; in a plain capture it
  does only when the block above reads as cut mid-sentence (no closing punctuation, an open
  bracket or emphasis, a last word that cannot end a sentence), so that headings and one-line
  paragraphs of a capture stay apart;
* YAML front matter is no prose, but its `summary`/`description` is what the page says of
  itself (a claim restated there is a claim) and its `title` names the page.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import polars as pl

from perfledger.sources.layouts.inline_markup import render_inline

# Layouts whose prose is the page's lines as captured, markup and all; the others read the
# page's structure and give it as their outline.
LINE_LAYOUTS = frozenset({"text_capture"})
HEADING_MAX_WORDS = 8
HEADING_MAX_CHARS = 80


@dataclass(frozen=True)
class Block:
    """A heading, paragraph, list item or caption as a reader sees it."""

    kind: str  # "heading" | "paragraph" | "item" | "caption" | "summary"
    text: str
    lines: tuple[tuple[int, int], ...]  # (offset in text, line number) of each joined line
    level: int | None = None  # a heading's level; 7 for a line that only reads as one

    @property
    def line_number(self) -> int:
        return self.lines[0][1]

    def line_at(self, offset: int) -> int:
        """The page line holding the character at `offset` of the text."""
        index = bisect.bisect_right([start for start, _ in self.lines], offset) - 1
        return self.lines[max(index, 0)][1]


@dataclass
class Page:
    """The blocks of a page and what its front matter says."""

    blocks: list[Block] = field(default_factory=list)
    title: str | None = None


# --- the shapes of raw lines ------------------------------------------------------------------

QUOTE = re.compile(r"^(?:>[ \t]?)+")
ADMONITION = re.compile(r"^\[!\w+\]\s*")
FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
ATX = re.compile(r"^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
ITEM = re.compile(r"^(?:[-*+•]|\(?\d{1,3}[.)]|\([ivx]{1,4}\))[ \t]+(?=\S)")
TABLE_ROW = re.compile(r"^\|.*\|$")
RULE = re.compile(r"^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:=[ \t]*){3,})$")
TAGS_ONLY = re.compile(r"^(?:<[^<>]*>[ \t]*)+$")
RAW_OPEN = re.compile(r"^<(script|style)\b", re.IGNORECASE)
FRONT_KEY = re.compile(r"""^["']?([A-Za-z_][\w -]*?)(?:[ \t]+lang=\w+)?["']?[ \t]*:[ \t]*(.*)$""")
FRONT_TITLE_KEYS = frozenset({"title", "blog_title"})
FRONT_SUMMARY_KEYS = frozenset({"summary", "description", "excerpt", "subtitle"})
LEFT_OVER = re.compile(r"\]\([^()\s]*\)|\*\*|\[(?=[^\]]*$)")
# A block that ends like this is complete; one that does not may be a wrapped line.
CLOSED = re.compile(r"""[.!?:;][\"'”’)\]*_]*$""")
# Words a sentence or a heading does not end with: the line was wrapped after them.
OPEN_WORD = re.compile(
    r"(?:^|[\s(])(?:the|a|an|of|to|and|or|with|for|in|on|at|by|than|vs\.?|versus|from|as|"
    r"into|over|per|its|their|our|this|that|which|is|are|was|were|up|via|using)[,]?$|,$",
    re.IGNORECASE,
)


def assemble_blocks(prose: list[tuple[int, str]], outline: pl.DataFrame | None = None) -> Page:
    """The page's blocks in reading order: the outline's, when the layout read the page's
    structure, else those the raw lines' own shapes make."""
    if outline is not None and outline.height:
        return Page(outline_blocks(prose, outline))
    page = Page()
    reader = _Reader(page, written_in_markdown(prose))
    for line_number, text in prose:
        reader.read(line_number, text)
    reader.close()
    return page


def outline_blocks(prose: list[tuple[int, str]], outline: pl.DataFrame) -> list[Block]:
    """The outline's headings, paragraphs and captions, each with the prose lines it joins
    (a paragraph of a Markdown page is its wrapped lines joined by a space)."""
    rows = [
        row
        for row in zip(
            *(
                outline.get_column(name).to_list()
                for name in ("line_number", "kind", "level", "text")
            ),
            strict=True,
        )
        if row[1] in ("heading", "paragraph", "caption") and row[3]
    ]
    lines = [line for line, _ in prose]
    blocks = []
    for index, (line, kind, level, text) in enumerate(rows):
        end = rows[index + 1][0] if index + 1 < len(rows) else None
        low = bisect.bisect_left(lines, line)
        high = bisect.bisect_left(lines, end) if end is not None else len(lines)
        blocks.append(Block(kind, text, line_offsets(prose[low:high], text, line), level))
    return blocks


def line_offsets(
    parts: list[tuple[int, str]], text: str, first_line: int
) -> tuple[tuple[int, int], ...]:
    """(offset, line) of each prose line a block's text joins, when it is their join."""
    offsets, position = [], 0
    for number, piece in parts:
        piece = piece.strip()
        if text.startswith(piece, position) and piece:
            offsets.append((position, number))
            position += len(piece) + 1
    return tuple(offsets) if offsets and offsets[0][0] == 0 else ((0, first_line),)


class _Reader:
    """Reads prose lines in order and closes a block where the page's structure says."""

    def __init__(self, page: Page, markdown: bool = False) -> None:
        self.page = page
        self.markdown = markdown  # a paragraph runs on to the next blank line
        self.kind = ""
        self.level: int | None = None
        self.parts: list[tuple[int, str, bool]] = []  # (line number, rendered text, left open)
        self.last_line = -10
        self.fence: str | None = None  # the fence that opened the code being skipped
        self.raw_end: re.Pattern[str] | None = None  # closes the <script>/<style> skipped
        self.front: bool | None = None  # None: not seen yet; True: inside front matter

    def read(self, line_number: int, text: str) -> None:
        line = text.strip()
        if self.front is None:
            self.front = line == "---" and line_number <= 1
            if self.front:
                self.last_line = line_number
                return
        if self.front:
            self.read_front(line_number, line)
            return
        if self.skipping(line):
            return
        if not line:
            self.close()
            return
        adjacent = line_number == self.last_line + 1
        self.last_line = line_number
        self.read_shape(line_number, line, adjacent)

    def skipping(self, line: str) -> bool:
        """Fenced code and raw HTML text (scripts, styles) are no prose."""
        bare = QUOTE.sub("", line)
        if self.fence is not None:
            if bare.startswith(self.fence) and not bare[len(self.fence) :].strip():
                self.fence = None
            return True
        if self.raw_end is not None:
            if self.raw_end.search(line):
                self.raw_end = None
            return True
        fence = FENCE.match(bare)
        if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            self.close()
            self.fence = fence.group(1)[0] * len(fence.group(1))
            return True
        raw = RAW_OPEN.match(bare)
        if raw:
            self.close()
            closing = re.compile(rf"</{raw.group(1)}\s*>", re.IGNORECASE)
            if not closing.search(bare):
                self.raw_end = closing
            return True
        return False

    def read_shape(self, line_number: int, line: str, adjacent: bool) -> None:
        quoted = QUOTE.match(line)
        if quoted:
            line = ADMONITION.sub("", line[quoted.end() :])
            if not line:
                self.close()
                return
        heading = ATX.match(line)
        if heading:
            self.close()
            self.open("heading", len(heading.group(1)))
            self.add(line_number, heading.group(2) or "")
            self.close()
            return
        if RULE.match(line):
            if (
                self.kind == "paragraph"
                and adjacent
                and len(self.parts) == 1
                and "=" not in line[:1]
            ):
                self.kind, self.level = "heading", 2  # a setext underline
            elif self.kind == "paragraph" and adjacent and len(self.parts) == 1:
                self.kind, self.level = "heading", 1
            self.close()
            return
        if TABLE_ROW.match(line) or TAGS_ONLY.match(line):
            self.close()
            return
        item = ITEM.match(line)
        if item:
            self.close()
            self.open("item", None)
            self.add(line_number, line[item.end() :])
            return
        if not (adjacent and self.parts and self.continues(line)):
            self.close()
            self.open("paragraph", None)
        self.add(line_number, line)

    def continues(self, line: str) -> bool:
        """Whether `line` carries on the block above it rather than starting one."""
        if self.kind == "heading":
            return False
        _, before, left_open = self.parts[-1]
        if not before or left_open or self.markdown:
            return True
        if CLOSED.search(before):
            return False
        return line[:1].islower() or bool(OPEN_WORD.search(before))

    def open(self, kind: str, level: int | None) -> None:
        self.kind, self.level, self.parts = kind, level, []

    def add(self, line_number: int, line: str) -> None:
        # Markup the line does not close on itself (emphasis or a link wrapped onto the next
        # line) is dropped here, so that each line keeps its own offsets.
        text = LEFT_OVER.sub("", render_inline(line))
        self.parts.append((line_number, " ".join(text.split()), unbalanced(line)))

    def close(self) -> None:
        parts = [(number, text) for number, text, _ in self.parts if text]
        self.parts = []
        if not parts:
            return
        offsets, pieces, position = [], [], 0
        for number, text in parts:
            offsets.append((position, number))
            pieces.append(text)
            position += len(text) + 1
        kind, level = self.kind or "paragraph", self.level
        if kind == "paragraph" and len(parts) == 1 and reads_as_heading(pieces[0]):
            kind, level = "heading", 7
        self.page.blocks.append(Block(kind, " ".join(pieces), tuple(offsets), level))

    def read_front(self, line_number: int, line: str) -> None:
        if line in ("---", "..."):
            self.front = False
            return
        match = FRONT_KEY.match(line)
        if not match:
            return
        key, value = match.group(1).strip().lower(), match.group(2).strip()
        value = (
            value[1:-1]
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            else value
        )
        if not value:
            return
        if key in FRONT_TITLE_KEYS and self.page.title is None:
            self.page.title = value
        elif key in FRONT_SUMMARY_KEYS or key.endswith(" description"):
            text = " ".join(render_inline(value).split())
            self.page.blocks.append(Block("summary", text, ((0, line_number),)))


MARKDOWN_SHAPES = re.compile(r"^(?:#{1,6}[ \t]+\S|```|~~~|[-*+][ \t]+\S.*$)")


def written_in_markdown(prose: list[tuple[int, str]]) -> bool:
    """Whether a capture is Markdown source (front matter, `#` headings, fences or bullets on
    several lines): its paragraphs then run on to the next blank line, however wrapped."""
    if prose and prose[0][1].strip() == "---":
        return True
    shaped = 0
    for _, text in prose:
        if MARKDOWN_SHAPES.match(text.strip()):
            shaped += 1
            if shaped >= 3:
                return True
    return False


def unbalanced(text: str) -> bool:
    """An open bracket or emphasis the line does not close: the line was wrapped inside it."""
    return (
        text.count("(") > text.count(")")
        or text.count("[") > text.count("]")
        or text.count("**") % 2 == 1
    )


HEADING_END = re.compile(r"[.!?,;:”\"]\s*$")


def reads_as_heading(text: str) -> bool:
    """A short line without closing punctuation reads as a heading (text captures)."""
    words = text.split()
    return (
        0 < len(words) <= HEADING_MAX_WORDS
        and len(text) <= HEADING_MAX_CHARS
        and not HEADING_END.search(text)
    )
