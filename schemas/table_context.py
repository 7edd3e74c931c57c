"""The text around each table that may state its labels, in the order it is consulted.

A value's labels come from its own row and column first; what they leave open comes from the
table's caption, the headings above the table (nearest first), the paragraphs of the table's
own section (nearest first), then the page title. The accelerator alone may also come from
the page's earlier prose, nearest first ("we use an MI210 GPU" three sections up), since a
page names the hardware it ran on once, in its setup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache

import polars as pl

from perfledger.schemas.abbreviations import page_abbreviations, with_long_forms
from perfledger.schemas.folding import clean_text
from perfledger.schemas.legends import (
    aliases_of,
    definitions,
    glossary_of,
    legend_of,
    named_rows_of,
)
from perfledger.schemas.page_units import page_unit
from perfledger.schemas.units import Unit
from perfledger.schemas.vocabulary import read_vocab
from perfledger.sources.layouts.base import BOLD_LINE_LEVEL

SECTION_PARAGRAPHS = 6  # paragraphs of the table's section consulted, nearest first
# A paragraph naming a table by its number ("Table 4. E2E time breakdown ... on 8 A100 GPUs",
# "表 2 ..."), or opened as Pandoc writes a caption ("Table: Training time(in seconds) ..." under
# DGL's table): the caption of the table it stands against, whichever side the page writes it.
_NUMBERED_CAPTION = re.compile(r"^\W{0,3}(?:table|tab\.|\u8868)\s*(?:\d{1,3}(?!\d)|:)", re.I)
# A paragraph opening as a figure's numbered caption ("Fig.7 ...", "Figure 3:", "图 2").
_FIGURE_CAPTION = re.compile(r"^\W{0,3}(?:fig(?:ure)?\.?|\u56fe)\s*\d{1,3}(?!\d)", re.I)
PROSE_PARAGRAPHS = 80  # earlier paragraphs consulted for the accelerator, nearest first
MAX_NOTE_CHARS = 240  # a note under a table is brief; a paragraph discussing it is not
# What a note under a table looks like, not a sentence discussing the results ("We achieved
# significant gains ... on a single card"): its run's setup listed between bars ("Llama2-70B |
# 1xH200 | FP8"), or opened as one ("Note:", "Source:", "*", "†"), or saying how it was measured.
_NOTE_SHAPE = re.compile(
    r" \| |^\W{0,3}(?:notes?|source|measured|preliminary measured)\b|^\s*[*\u2020\u2021]|"
    r"\b(?:measured|evaluated|tested|benchmarked) (?:in|on|with)\b",
    re.I,
)
MAX_CONTEXT_CHARS = 2000  # of each text: a label sits near its start, and crafted pages are long


@dataclass(frozen=True)
class ContextText:
    source: str  # caption, heading, note, link, paragraph or title: where a label came from
    text: str


@dataclass(frozen=True, eq=False)
class TableContext:
    texts: tuple[ContextText, ...]  # caption, headings, section paragraphs, title, in order
    earlier: tuple[str, ...] = ()  # the page's paragraphs before the table's section
    heading: str | None = None  # the nearest heading
    legend: tuple[tuple[str, str], ...] = ()  # keys the page defines for its hardware
    glossary: dict[str, str] = field(default_factory=dict)  # header words the page defines
    named_rows: dict[str, str] = field(default_factory=dict)  # row names it defines
    page_unit: Unit | None = None  # the unit the page states for its numbers as a whole
    # The paragraphs of the page's first section of the table's heading, when the table stands
    # in a later one: per-platform sections repeat their subsections ("Scoring results" under
    # "Intel CPU", then under "Nvidia GPU") and state what the numbers measure in the first
    # only ("namely number of images that can be predicted per second"). Read for the metric
    # and unit the table's own context leaves open, and nothing else.
    repeated: tuple[str, ...] = ()

    @property
    def prose(self) -> tuple[str, ...]:
        """The earlier paragraphs consulted for the accelerator, nearest first."""
        return self.earlier[::-1][:PROSE_PARAGRAPHS]


def with_note(context: TableContext, note: str | None) -> TableContext:
    """`context` with the note its table's layout attached to the table ("*Note: Comparison
    uses equivalent-sized models (2B parameters) on NVIDIA A100 40GB GPU.*" under a Markdown
    table), where the page's outline gave it none: read right after the nearest heading, as
    a note under the table is (see `_context`)."""
    if not note or len(note) > MAX_NOTE_CHARS or not _NOTE_SHAPE.search(note):
        return context
    if any(text.source == "note" for text in context.texts):
        return context
    texts = list(context.texts)
    at = next((index + 1 for index, text in enumerate(texts) if text.source == "heading"), 0)
    at = max(at, sum(1 for text in texts if text.source == "caption"))
    texts.insert(at, ContextText("note", _clipped(note)))
    return replace(context, texts=tuple(texts))


def _clipped(text: str) -> str:
    return clean_text(text[:MAX_CONTEXT_CHARS])


def table_contexts(
    outline: pl.DataFrame | None,
    title: str | None,
    titles: dict[int, str | None],
    setups: dict[int, tuple[str, ...]] | None = None,
    defined: dict[str, str] | None = None,
) -> dict[int, TableContext]:
    """The context of each table of a document, by table index.

    `titles` gives each table's heading as its cells carry it: a table the outline does not
    place (a layout without one) gets that heading and the page title. `setups` gives the
    rows of tables that list a run's settings ("Instance: inf2.48xlarge"): they read as the
    paragraphs of their section. `defined` gives the header words the page's tables define
    (schemas/definition_tables.py): a glossary of every table's."""
    page_title = ContextText("title", _clipped(title)) if title else None
    contexts: dict[int, TableContext] = {}
    # The open sections, outermost first: (level, heading, the paragraphs written under the
    # heading before its next subsection); level 0 is the page's text before any heading.
    sections: list[tuple[int, str | None, list[str]]] = [(0, None, [])]
    earlier: list[str] = []
    captions: dict[int, str] = {}
    blocks = [
        (kind, level, _clipped(text) if text else text, table)
        for kind, level, text, table in _blocks(outline)
        if kind != "links"
    ]
    links = {table: text for kind, _level, text, table in _blocks(outline) if kind == "links"}
    # "P-EAGLE (AL):" over a table, on a page saying "acceptance length (AL)" in its prose
    abbreviations = page_abbreviations(
        text for kind, _level, text, _table in blocks if kind == "paragraph" and text
    )
    if abbreviations:
        blocks = [
            (kind, level, with_long_forms(text, abbreviations) if text else text, table)
            for kind, level, text, table in blocks
        ]
    # The paragraphs of the first section of each heading, and of each later section of a
    # heading seen before those of its first (by the id of its list of paragraphs).
    first_of: dict[tuple[int, str], list[str]] = {}
    with_tables: set[int] = set()  # the sections holding a table (by their paragraphs' id)
    repeats: dict[int, list[str]] = {}
    numbered = _numbered_captions(blocks)
    below: dict[int, str] = {}
    for position, table in numbered.items():
        if blocks[position - 1][3] == table:  # written under its table
            below[table] = blocks[position][2]
        else:
            captions.setdefault(table, blocks[position][2])
    # A paragraph repeating a heading is an entry of the page's table of contents.
    heading_texts = {text for kind, _level, text, _table in blocks if kind == "heading"}
    after = _paragraphs_after(blocks)
    notes = _notes_under(blocks)
    note_texts = set(notes.values())
    # A configuration the page defines by its file ("configs/v100_x8.py : Full precision GPU
    # training") names its rows wherever on the page the definition stands.
    named_rows = named_rows_of(
        definitions(text for kind, _level, text, _table in blocks if kind == "paragraph" and text)
    )
    stated = page_unit(
        text for kind, _level, text, _table in blocks if kind == "paragraph" and text
    )
    for position, (kind, level, text, table) in enumerate(blocks):
        if kind == "heading" and text:
            level = level or 6
            while len(sections) > 1 and sections[-1][0] >= level:
                closed = sections.pop()
                # News items speak of their own runs, and so do links to other projects; a
                # section with results tables of its own ("### X86": "We evaluate this
                # example on Intel(R) Xeon(R) ..." over its table) describes those, not the
                # tables of the sections after it ("### AArch64").
                if not is_news_heading(closed[1]) and id(closed[2]) not in with_tables:
                    # a closed section's prose; a note under one of its tables is that
                    # table's ("precision and infer time are evaluated on AMD Ryzen 9 3950X")
                    earlier.extend(text for text in closed[2] if text not in note_texts)
            paragraphs: list[str] = []
            first = first_of.setdefault((level, text.strip().casefold()), paragraphs)
            if first is not paragraphs:
                repeats[id(paragraphs)] = first
            sections.append((level, text, paragraphs))
        elif position in numbered:
            continue  # its table's own caption; it says nothing of the page's other tables
        elif kind == "paragraph" and text and text not in heading_texts:
            sections[-1][2].append(text)
        elif kind == "caption" and text and table is not None:
            captions[table] = text
        elif kind == "table" and setups is not None and table in setups:
            sections[-1][2].extend(_clipped(row) for row in setups[table])
        elif kind == "table" and table is not None and table not in contexts:
            with_tables.add(id(sections[-1][2]))
            if table not in captions and position and blocks[position - 1][0] == "table":
                # "x86 (Sapphire Rapids), qwen3-4b, per-point ratios:" over two tables written
                # back to back, nothing between them: the second is the first's sequel
                shared = captions.get(blocks[position - 1][3])
                if shared is not None:
                    captions[table] = shared
            contexts[table] = _context(
                captions.get(table),
                below.get(table),
                sections,
                tuple(earlier[-PROSE_PARAGRAPHS:]),
                page_title,
                after.get(table, ()),
                named_rows,
                defined,
                stated,
                notes.get(table),
                links.get(table),
                tuple(repeats.get(id(sections[-1][2]), ())[-SECTION_PARAGRAPHS:]),
            )
    for table, heading in titles.items():
        if table not in contexts:
            fallback = [ContextText("heading", _clipped(heading))] if heading else []
            contexts[table] = TableContext(
                tuple(fallback + ([page_title] if page_title else [])), (), heading
            )
    return contexts


def is_news_heading(heading: str | None) -> bool:
    """Whether a section heading names a list of news ("Latest News", "最新更新") or of other
    projects ("Related projects", "友情链接"): what its items ran on ("fine-tuned on 8 Intel
    Max 1550 GPUs", "在算能端侧芯片BM1684X上实时运行") says nothing of the page's tables."""
    return (
        heading is not None
        and _news_heading().fullmatch(heading.strip(" #:：*🔥").lower()) is not None
    )


@cache
def _news_heading() -> re.Pattern[str]:
    words = "|".join(
        f"(?:{row['pattern']})" for row in read_vocab("news_headings.csv").iter_rows(named=True)
    )
    return re.compile(rf"(?:{words})")


def _paragraphs_after(blocks: list[tuple]) -> dict[int, tuple[str, ...]]:
    """The paragraphs written right under each table, up to the next table, heading or
    figure caption (a legend or glossary of its headers often stands there; "Fig.7 The
    relationship between η and training throughput" speaks of its figure, not of the table
    of evaluation scores above it)."""
    found: dict[int, list[str]] = {}
    current: int | None = None
    previous = None
    for kind, level, text, table in blocks:
        if kind == "heading" and level == BOLD_LINE_LEVEL:
            # "**Plots for 250 epoch configuration**" under a table: a Markdown line in bold,
            # which its HTML rendering writes as the paragraph it is
            kind = "paragraph"
        if kind == "table":
            if current is not None and previous == "after" and found[current]:
                # the paragraph right above the next table introduces that one ("Below is
                # the performance result on V100 using float 16."), not the table above it
                found[current].pop()
            current = table
            found.setdefault(table, [])
        elif kind == "heading" or (kind == "paragraph" and text and _FIGURE_CAPTION.match(text)):
            current = None
        elif kind == "paragraph" and text and current is not None:
            found[current].append(text)
        previous = "after" if kind == "paragraph" and text and current is not None else kind
    return {table: tuple(texts) for table, texts in found.items()}


def _notes_under(blocks: list[tuple]) -> dict[int, str]:
    """The brief note written right under each table that has one: a paragraph shaped as a
    note (see _NOTE_SHAPE), not introducing what follows (a closing colon, or a table right
    under it: "B200 measurements for the same shape:", "Rockchip RV1126." are the next
    table's captions)."""
    found = {}
    for position in range(len(blocks) - 1):
        kind, _level, _text, table = blocks[position]
        below_kind, _level, text, _table = blocks[position + 1]
        if kind != "table" or table is None or below_kind != "paragraph" or not text:
            continue
        after = blocks[position + 2][0] if position + 2 < len(blocks) else None
        if (
            len(text) <= MAX_NOTE_CHARS
            and _NOTE_SHAPE.search(text)
            and not text.rstrip().endswith((":", "\uff1a"))
            and after not in ("table", "caption")
        ):
            found[table] = text
    return found


def _numbered_captions(blocks: list[tuple]) -> dict[int, int]:
    """{position of a numbered caption paragraph: the table it captions}. One written right
    under a table and not right above another is that table's; one right above a table and
    not right under another, the next table's; one between two tables follows what the
    page's other numbered captions do (above, when none tells)."""

    def table_at(position: int) -> int | None:
        if 0 <= position < len(blocks) and blocks[position][0] == "table":
            return blocks[position][3]
        return None

    found: dict[int, tuple[int | None, int | None]] = {}
    for position, (kind, _level, text, _table) in enumerate(blocks):
        if kind == "paragraph" and text and _NUMBERED_CAPTION.match(text):
            above, under = table_at(position - 1), table_at(position + 1)
            if above is not None or under is not None:
                found[position] = (above, under)
    written_under = sum(1 for above, under in found.values() if above is not None and under is None)
    written_above = sum(1 for above, under in found.values() if under is not None and above is None)
    attached = {}
    for position, (above, under) in found.items():
        if above is not None and (under is None or written_under > written_above):
            attached[position] = above
        else:
            attached[position] = under
    return attached


def _blocks(outline: pl.DataFrame | None):
    if outline is None or outline.height == 0:
        return ()
    return zip(
        *(outline.get_column(name).to_list() for name in ("kind", "level", "text", "table_index")),
        strict=True,
    )


def paragraphs_of(outline: pl.DataFrame | None, limit: int) -> list[str]:
    """The first `limit` paragraphs of a page, as its outline gives them."""
    if outline is None or outline.height == 0:
        return []
    kinds, texts = outline.get_column("kind").to_list(), outline.get_column("text").to_list()
    return [text for kind, text in zip(kinds, texts, strict=True) if kind == "paragraph" and text][
        :limit
    ]


def _context(
    caption: str | None,
    caption_below: str | None,
    sections: list[tuple[int, str | None, list[str]]],
    earlier: tuple[str, ...],
    page_title: ContextText | None,
    after: tuple[str, ...] = (),
    named_rows: dict[str, str] | None = None,
    defined: dict[str, str] | None = None,
    stated: Unit | None = None,
    note_under: str | None = None,
    links: str | None = None,
    repeated: tuple[str, ...] = (),
) -> TableContext:
    """The texts a table's labels may come from, nearest first: its captions, the headings
    above it, the paragraphs of its own section, then those its enclosing sections open
    with (a "Performance" section's "The test environment is 2 * A10" speaks of every table
    of its subsections), then the notes written under it ("1. 时间单位均为毫秒(ms)"), then
    the page title. A brief note under it also states its hardware and precision right after
    the nearest heading."""
    texts = [ContextText("caption", text) for text in (caption, caption_below) if text]
    headings = [
        ContextText("heading", heading) for _level, heading, _ in reversed(sections) if heading
    ]
    # A brief note right under the table ("... | Llama2-70B | 1xH200 | FP8 | BS ...") states
    # the hardware and precision of its runs more nearly than the headings of enclosing
    # sections (a page's "... with INT4 AWQ" about another model); it gives nothing else from
    # there (context_labels reads a "note" for hardware and precision only): a sentence under
    # a table more often discusses the results than says what they measure.
    note = [ContextText("note", note_under)] if note_under else []
    texts += [*headings[:1], *note, *headings[1:]]
    # The model files its cells link to ("…/hailo8/cas_vit_m.hef"), compiled for the device
    # its numbers were measured on: read for that device alone (context_labels).
    texts += [ContextText("link", links)] if links else []
    own = sections[-1][2]
    # The text before the page's first heading (level 0) is often its navigation: it is
    # earlier prose, not the opening of a section that holds the table.
    enclosing = [
        text
        for level, _heading, paragraphs in reversed(sections[:-1])
        if level
        for text in reversed(paragraphs[-SECTION_PARAGRAPHS:])
    ]
    if len(sections) > 1:
        earlier = (*sections[0][2][-PROSE_PARAGRAPHS:], *earlier)
    texts += [
        ContextText("paragraph", text)
        for text in [*reversed(own[-SECTION_PARAGRAPHS:]), *enclosing, *after[:SECTION_PARAGRAPHS]]
    ]
    if page_title and not any(text.text == page_title.text for text in texts):
        texts.append(page_title)
    nearest_first = [*after, *reversed(own), *enclosing, *reversed(earlier)]
    written = definitions(nearest_first)
    # The open sections' paragraphs farther up than those read above are earlier prose too:
    # a setup listed line by line ("- NVIDIA A100 80GB", "- CUDA 12.1", ...) under the same
    # heading as the table, many paragraphs above it, names the hardware its numbers ran on.
    last = len(sections) - 1
    earlier = (
        *earlier,
        *(
            text
            for index, (level, _heading, paragraphs) in enumerate(sections)
            if level or index == last
            for text in paragraphs[:-SECTION_PARAGRAPHS]
        ),
    )
    nearest = next((heading for _level, heading, _ in reversed(sections) if heading), None)
    return TableContext(
        tuple(texts),
        earlier,
        nearest,
        (*legend_of(written), *aliases_of(nearest_first)),
        {**(defined or {}), **glossary_of(written)},  # what prose near the table says first
        named_rows or {},
        stated,
        repeated,
    )
