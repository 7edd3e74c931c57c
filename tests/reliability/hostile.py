"""Hostile and broken documents, built as bytes, each with the outcome perfledger owes it."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
GOOD_PAGE = PROJECT_ROOT / "sources" / "corpus" / "002_74c88246ac92525e.txt"
GOOD_VALUES = 358  # every metric cell of the July 2023 results page
FIXTURES = PROJECT_ROOT / "tests" / "fixtures"
HTML_PAGE = FIXTURES / "html" / "graphcore_performance_results_2023_07.html"
MARKDOWN_PAGE = FIXTURES / "markdown" / "graphcore_performance_results_2023_07.md"
PASSWD = Path("/etc/passwd")
# 'root:' starts the first line of /etc/passwd on every Linux system.
PASSWD_MARKER = "root:"

HEADER = ("Model", "Platform", "Throughput (items/sec)")
ROWS = (
    ("ResNet-50 v1.5", "Bow Pod16", "44,059"),
    ("BERT Large", "Bow Pod64", "25,135"),
    ("GPT-2 Medium", "IPU-POD16", "3,212"),
)


@dataclass(frozen=True)
class Hostile:
    """A document and what perfledger must make of it.

    `values` are the exact (model, platform, value) triples that may load; `checks` the
    quarantine checks expected (stage:check -> count); `error` a phrase of the document
    error when the document fails as a whole."""

    name: str
    filename: str
    data: bytes
    values: tuple[tuple[str, str, float], ...] = ()
    checks: dict[str, int] = field(default_factory=dict)
    error: str | None = None


def html_page(
    body: str, head: str = '<meta charset="utf-8"><title>Results</title>', lang: str = "en"
) -> str:
    # Declared as real pages declare it: "44,059" is forty-four thousand on an English page,
    # and on a page that says nothing of its language it could be forty-four.
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head>{head}</head><body>\n{body}\n</body></html>\n'
    )


def html_table(rows, header=HEADER, attributes: str = "") -> str:
    head = "".join(f"<th>{cell}</th>" for cell in header)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table{attributes}>\n<tr>{head}</tr>\n{body}\n</table>"


# A text capture declares no language: its prose tells it.
ENGLISH_PROSE = (
    "The results of the training runs on the systems listed below are measured "
    "with the latest SDK and are shown in the order of the table."
)


def text_table(rows, header=HEADER, title: str = "Training results") -> str:
    lines = [title, "", ENGLISH_PROSE, "", *header]
    for row in rows:
        lines += list(row)
    return "\n".join(lines) + "\n"


def all_values(rows=ROWS) -> tuple[tuple[str, str, float], ...]:
    return tuple(
        (model, platform, float(value.replace(",", ""))) for model, platform, value in rows
    )


def png_bytes() -> bytes:
    """A real one-pixel PNG."""
    raw = b"\x00\xff\x00\x00"

    def chunk(kind: bytes, payload: bytes) -> bytes:
        body = kind + payload
        return len(payload).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = (1).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def truncated_html() -> Hostile:
    page = HTML_PAGE.read_bytes()
    # Cut inside the third row of the second results table.
    second = page.index(b"<table", page.index(b"<table") + 1)
    rows = [i for i in range(len(page)) if page.startswith(b"<tr", i) and i > second]
    cut = rows[3] + 12
    # The first table whole, two rows of the second; the cut row is reported, not guessed.
    return Hostile(
        "truncated_html",
        "truncated-html.html",
        page[:cut],
        values=(
            ("BERT Large", "Bow Pod16", 4527.0),
            ("BERT Large", "Bow Pod16", 6044.0),
            ("GPS++", "Bow Pod16", 0.0719),
            ("GPS++", "Bow Pod16", 1.0),
            ("GPS++", "Bow Pod16", 17800.0),
            ("GPS++", "Bow Pod16", 85380.0),
            ("TransE (256)", "Bow Pod16", 0.2562),
            ("TransE (256)", "Bow Pod16", 1.0),
            ("TransE (256)", "Bow Pod16", 42600.0),
            ("TransE (256)", "Bow Pod16", 1260000.0),
        ),
        checks={"parse:row_width_mismatch": 1},
    )


def truncated_text() -> Hostile:
    page = text_table(ROWS).encode("utf-8")
    cut = page.index(b"3,212") - len("IPU-POD16\n")  # mid-row: model and platform only
    return Hostile(
        "truncated_text",
        "truncated-text.txt",
        page[:cut],
        values=all_values(ROWS[:2]),
        checks={"parse:incomplete_row": 1},
    )


def row_widths() -> Hostile:
    rows = [ROWS[0], ("BERT Large", "Bow Pod64", "25,135", "extra", "cells"), ("GPT-2 Medium",)]
    return Hostile(
        "row_widths",
        "row-widths.html",
        html_page(html_table(rows)).encode(),
        values=all_values(ROWS[:1]),
        checks={"parse:row_width_mismatch": 2},
    )


def repeated_headers() -> Hostile:
    rows = [ROWS[0], HEADER, ROWS[1], HEADER, ROWS[2]]
    return Hostile(
        "repeated_headers",
        "repeated-headers.html",
        html_page(html_table(rows)).encode(),
        values=all_values(),
    )


def spans() -> Hostile:
    table = """<table>
<tr><th colspan="3">Training</th></tr>
<tr><th>Model</th><th>Platform</th><th>Throughput (items/sec)</th></tr>
<tr><td rowspan="2">ResNet-50 v1.5</td><td>Bow Pod16</td><td>44,059</td></tr>
<tr><td>Bow Pod64</td><td>150,000</td></tr>
<tr><td colspan="3">Language models</td></tr>
<tr><td>BERT Large</td><td>Bow Pod64</td><td>25,135</td></tr>
</table>"""
    return Hostile(
        "spans",
        "spans.html",
        html_page(table).encode(),
        values=(
            ("ResNet-50 v1.5", "Bow Pod16", 44059.0),
            ("ResNet-50 v1.5", "Bow Pod64", 150000.0),
            ("BERT Large", "Bow Pod64", 25135.0),
        ),
    )


def huge_span_numbers() -> Hostile:
    digits = "9" * 5000  # int() refuses more than 4,300 digits
    table = html_table(ROWS).replace("<td>Bow Pod16</td>", f'<td colspan="{digits}">Bow Pod16</td>')
    table = table.replace("<td>BERT Large</td>", f'<td rowspan="{digits}">BERT Large</td>')
    # The colspan runs to the 1,000-column edge, so the row's throughput cell reads
    # "Bow Pod16"; the rowspan shifts the row under it. Neither becomes a number.
    # The throughput cell after it has no column left: reported, not dropped.
    return Hostile(
        "huge_span_numbers",
        "huge-spans.html",
        html_page(table).encode(),
        values=all_values(ROWS[1:2]),
        checks={
            "normalize:unparseable_value": 1,
            "parse:row_width_mismatch": 1,
            "parse:table_too_wide": 1,
        },
    )


def too_many_columns() -> Hostile:
    """Rows wider than the 1,000 columns the parser places: the cells past the edge are
    reported row by row, each filler column once, and the values before the edge load."""

    def row(cells, tag):
        return "<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in cells) + "</tr>"

    width, past = 1000, 5
    header = [*HEADER, *["Comment"] * (width - len(HEADER)), *[f"Past {i}" for i in range(past)]]
    body = [
        [*values, *[""] * (width - len(values)), *[f"cut {i}" for i in range(past)]]
        for values in ROWS
    ]
    table = "<table>\n" + "\n".join([row(header, "th"), *(row(cells, "td") for cells in body)])
    return Hostile(
        "too_many_columns",
        "too-many-columns.html",
        html_page(table + "\n</table>").encode(),
        values=all_values(),
        checks={"parse:table_too_wide": 1 + len(ROWS)},
    )


def hidden_tables() -> Hostile:
    fake = html_table([("Fake Model", "Bow Pod16", "999,999")])
    body = (
        f"<script>document.write('{fake}');</script>\n<!-- {fake} -->\n"
        f"<template>{fake}</template>\n<noscript>{fake}</noscript>\n"
        f"<textarea>{fake}</textarea>\n" + html_table(ROWS)
    )
    return Hostile(
        "hidden_tables", "hidden-tables.html", html_page(body).encode(), values=all_values()
    )


def deep_nesting() -> Hostile:
    depth = 10_000
    body = html_table(ROWS[:1]) + "<div>" * depth + "deep" + "</div>" * depth + html_table(ROWS[1:])
    # libxml2 stops at depth 256: the first table loads, the rest is reported, not dropped.
    return Hostile(
        "deep_nesting",
        "deep-divs.html",
        html_page(body).encode(),
        values=all_values(ROWS[:1]),
        checks={"parse:html_parser_stopped": 1},
    )


def deep_tables() -> Hostile:
    depth = 10_000
    body = html_table(ROWS[:1]) + "<table><tr><td>" * depth + "1" + "</td></tr></table>" * depth
    return Hostile(
        "deep_tables",
        "deep-tables.html",
        html_page(body).encode(),
        values=all_values(ROWS[:1]),
        checks={"parse:html_parser_stopped": 1},
    )


def entity_expansion() -> Hostile:
    entities = ['<!ENTITY lol "lol">'] + [
        f'<!ENTITY lol{level} "{("&lol" + (str(level - 1) if level > 2 else "") + ";") * 10}">'
        for level in range(2, 10)
    ]
    entities.append(f'<!ENTITY xxe SYSTEM "file://{PASSWD}">')
    page = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html [\n'
        + "\n".join(entities)
        + '\n]>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>&xxe;</title>'
        '<meta http-equiv="Content-Language" content="en"/></head>'
        "<body><p>&lol9; &xxe;</p>\n"
        + html_table(
            [
                ("&lol9;", "Bow Pod16", "1,000"),
                ("&xxe;", "Bow Pod16", "2,000"),
                ("ResNet-50 v1.5", "Bow Pod16", "44,059"),
            ]
        )
        + "\n</body></html>\n"
    )
    return Hostile(
        "entity_expansion",
        "entities.xhtml",
        page.encode(),
        values=(
            ("&lol9;", "Bow Pod16", 1000.0),
            ("&xxe;", "Bow Pod16", 2000.0),
            ("ResNet-50 v1.5", "Bow Pod16", 44059.0),
        ),
    )


def unicode_traps() -> Hostile:
    rows = [
        ("ResNet-50\u200b v1.5", "Bow\u00a0Pod16", "44\u2009059"),  # zero-width, NBSP, thin space
        ("BERT Large", "Bow Pod64", "\u202e25,135\u202c"),  # bidi override around the number
        ("GPT-2 Medium", "IPU-POD16", "\uff13,\uff12\uff11\uff12"),  # full-width digits
        ("ViT", "Bow Pod16", "12\x0734"),  # a control character inside a number
    ]
    lines = ["Training results", "", *HEADER]
    for row in rows:
        lines += list(row)
    # U+2028 and form feed are line breaks, as in the text captures the layout reads.
    text = (
        "\ufeff"
        + ENGLISH_PROSE
        + "\n\n"
        + "\u2028".join(lines[:3])
        + "\x0c"
        + "\n".join(lines[3:])
        + "\n"
    )
    # Labels lose their invisible characters (one platform, not two); `cells` keeps them.
    return Hostile(
        "unicode_traps",
        "unicode.txt",
        text.encode("utf-8"),
        values=(
            ("ResNet-50 v1.5", "Bow Pod16", 44059.0),
            ("BERT Large", "Bow Pod64", 25135.0),
            ("GPT-2 Medium", "IPU-POD16", 3212.0),
        ),
        checks={"normalize:unparseable_value": 1},
    )


def wrong_charset() -> Hostile:
    # UTF-8 bytes (and an 'é' that windows-1252 would misread) under a utf-16 label.
    body = html_table([("Résnet Modèle", "Bow Pod16", "1,234"), *ROWS])
    page = html_page(body, head='<meta charset="utf-16"><title>Résultats</title>')
    return Hostile(
        "wrong_charset",
        "wrong-charset.html",
        page.encode("utf-8"),
        values=(("Résnet Modèle", "Bow Pod16", 1234.0), *all_values()),
    )


def missing_charset() -> Hostile:
    # windows-1252 bytes, no declaration anywhere: the bytes are not UTF-8.
    body = html_table([("Modèle Ø", "Bow Pod16", "1,234"), *ROWS])
    page = html_page(body, head="<title>Results</title>")
    return Hostile(
        "missing_charset",
        "no-charset.html",
        page.encode("cp1252"),
        values=(("Modèle Ø", "Bow Pod16", 1234.0), *all_values()),
    )


def empty_file() -> Hostile:
    return Hostile("empty_file", "empty.html", b"", error="the document is empty")


def binary_as_html() -> Hostile:
    return Hostile("binary_as_html", "image.html", png_bytes(), error="binary, not text")


FORMULA = '=HYPERLINK("http://x","y")'
SQL_TEXT = "'; DROP TABLE measurements; --"


def formula_cells() -> Hostile:
    rows = [
        (FORMULA, "Bow Pod16", "1,000"),
        ("@SUM(1+1)", "Bow Pod16", "2,000"),
        ("ResNet-50 v1.5", "Bow Pod16", FORMULA),
        ("BERT Large", "Bow Pod16", SQL_TEXT),
        (SQL_TEXT, "Bow Pod64", "3,000"),
    ]
    return Hostile(
        "formula_cells",
        "formulas.html",
        html_page(html_table(rows)).encode(),
        values=(
            (FORMULA, "Bow Pod16", 1000.0),
            ("@SUM(1+1)", "Bow Pod16", 2000.0),
            (SQL_TEXT, "Bow Pod64", 3000.0),
        ),
        checks={"normalize:unparseable_value": 2},
    )


def extreme_numbers() -> Hostile:
    rows = [
        ("ResNet-50 v1.5", "Bow Pod16", "1" + "0" * 400),  # beyond a float: infinite
        ("BERT Large", "Bow Pod16", "1e400"),
        ("GPT-2 Medium", "Bow Pod16", "NaN"),
        ("ViT", "Bow Pod16", "inf"),
        ("DeiT", "Bow Pod16", "\u221e"),
        ("Conformer", "Bow Pod16", "-5,000"),
        ("EfficientNet-B4", "Bow Pod16", "0"),
        ("Cluster-GCN", "Bow Pod16", "1,7976931348623157e308"),
    ]
    return Hostile(
        "extreme_numbers",
        "extreme.html",
        html_page(html_table(rows)).encode(),
        checks={
            "normalize:non_finite_value": 4,
            "normalize:unparseable_value": 2,
            "normalize:non_positive_value": 2,
        },
    )


def backtracking_cells() -> Hostile:
    rows = [
        ("ResNet-50 v1.5", "Bow Pod16", "1," * 100_000),
        ("BERT Large", "Bow Pod16", "1 " * 100_000 + "x"),
        ("GPT-2 Medium", "Bow Pod16", "9" * 100_000),  # a number too long for a float
        ("ViT", "Bow Pod16", "*" * 100_000 + "1"),
        (ROWS[2][0], ROWS[2][1], ROWS[2][2]),
    ]
    return Hostile(
        "backtracking_cells",
        "backtracking-cells.html",
        html_page(html_table(rows)).encode(),
        values=all_values(ROWS[2:]),
        checks={"normalize:unparseable_value": 4},
    )


def backtracking_text() -> Hostile:
    prose = [
        "1," * 100_000,
        "1 " * 100_000 + "x",
        "1.5x faster than A100 " * 5_000,  # one endless sentence holding 5,000 claims
        "." * 100_000 + "!",
        "January " * 50_000 + "1",
    ]
    # A cell line may be 500 characters long: as long a run of "1," is a cell, not prose.
    table = text_table([*ROWS, ("ViT", "Bow Pod16", "1," * 240)])
    text = "\n\n".join(prose) + "\n\n" + table
    # The two claim-like endless "sentences" are set aside with a reason, not read.
    return Hostile(
        "backtracking_text",
        "backtracking-text.txt",
        text.encode(),
        values=all_values(),
        checks={"claims:sentence_too_long": 2, "normalize:unparseable_value": 1},
    )


def backtracking_markdown() -> Hostile:
    table = [
        "| " + " | ".join(HEADER) + " |",
        "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in ROWS),
        "| ViT | Bow Pod16 | " + "**a " * 20_000 + "|",
    ]
    # Lines that made the Markdown patterns backtrack; the table comes first because an
    # unclosed '<!--' hides the rest of the page, as Markdown says it does.
    lines = [
        "# " + "a" + " " * 100_000 + "#x",
        "**a " * 50_000,
        "__a " * 50_000,
        "<sup>" * 50_000,
        "[" * 100_000,
        "[a](" * 50_000,
        "**a**" + " " * 100_000 + "!",
        "<!--" * 50_000,
    ]
    text = ENGLISH_PROSE + "\n\n" + "\n".join(table) + "\n\n" + "\n\n".join(lines) + "\n"
    return Hostile(
        "backtracking_markdown",
        "backtracking-markdown.md",
        text.encode(),
        values=all_values(),
        checks={"normalize:unparseable_value": 1},
    )


def long_printed_box() -> Hostile:
    """A tool's printout in a code block, 80,000 rows each drawn between borders: read as a
    box table in one pass (its borders were once compared with its rows pairwise)."""
    table = [
        "| " + " | ".join(HEADER) + " |",
        "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in ROWS),
    ]
    border = "+------+------+"
    printout = [border, "| step | done |", border, *["| ok   | yes  |", border] * 80_000]
    text = "\n".join([ENGLISH_PROSE, "", *table, "", "```", *printout, "```"]) + "\n"
    return Hostile("long_printed_box", "long-printout.md", text.encode(), values=all_values())


def wide_short_rows() -> Hostile:
    width = 1000
    header = "| " + " | ".join(["Model"] * width) + " |"
    delimiter = "|" + "---|" * width
    # Blank rows but for a last "1": a short row drawn as the browser does would put its "1"
    # in a column of blanks, so its cells' places are not certain.
    full = "|" + " |" * (width - 1) + " 1 |"
    short = "|" + " |" * (width - 2) + " 1 |"
    text = "\n".join([header, delimiter, full, full, *[short] * 200]) + "\n"
    return Hostile(
        "wide_short_rows", "wide.md", text.encode(), checks={"parse:row_width_mismatch": 200}
    )


def huge_platform_numbers() -> Hostile:
    rows = [
        ("ResNet-50 v1.5", "Bow Pod" + "9" * 30, "1,000"),  # past Int64
        ("BERT Large", "9" * 5_000 + "x DGX A100", "2,000"),  # past what int() reads
        ROWS[2],
    ]
    # The platforms are kept as published, their counts left unknown: a label never costs
    # its value.
    return Hostile(
        "huge_platform_numbers",
        "huge-platforms.html",
        html_page(html_table(rows)).encode(),
        values=(
            (rows[0][0], rows[0][1], 1000.0),
            (rows[1][0], rows[1][1], 2000.0),
            *all_values(ROWS[2:]),
        ),
    )


def note_with_blank_subject() -> Hostile:
    text = text_table(ROWS) + "\nNote |  measured in items/s\n"
    return Hostile("note_with_blank_subject", "note.txt", text.encode(), values=all_values())


def markdown_note_on_last_line() -> Hostile:
    table = [
        "| " + " | ".join(HEADER) + " |",
        "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in ROWS),
    ]
    # No newline at the end: the footnote is the page's very last line.
    text = "\n".join([ENGLISH_PROSE, "", *table, "Throughput measured in images/s"])
    return Hostile("markdown_note_on_last_line", "note-last.md", text.encode(), values=all_values())


def late_markdown_table() -> Hostile:
    """A README whose first table comes after 64 KiB of prose, past what the layouts sniff:
    it is still read as Markdown (before, as a text capture with no table, nothing said)."""
    table = [
        "| " + " | ".join(HEADER) + " |",
        "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in ROWS),
    ]
    prose = "\n\n".join([ENGLISH_PROSE] * 500)  # about 70 KB
    text = "\n".join(["Results", "", prose, "", *table]) + "\n"
    return Hostile("late_markdown_table", "late-table.txt", text.encode(), values=all_values())


def wide_text_capture() -> Hostile:
    """A flattened table wider than a capture's header is read from (64 lines): reported
    with its lines, never read shifted nor dropped without a word."""
    width = 120
    header = ["Model", "Platform", *[f"Throughput {i} (items/sec)" for i in range(width - 2)]]
    rows = [
        [model, platform, *[str(i + 1) for i in range(width - 2)]]
        for model, platform, _value in ROWS
    ]
    text = text_table(rows, header=header)
    return Hostile(
        "wide_text_capture",
        "wide-capture.txt",
        text.encode(),
        checks={"parse:table_width_unclear": 1},
    )


def unknown_locale() -> Hostile:
    """A page that gives no clue to its decimal mark (no declared language, no prose, no
    number that reads one way only): "44,059" may be 44059 or 44.059, and is never guessed."""
    return Hostile(
        "unknown_locale",
        "unknown-locale.html",
        html_page(html_table(ROWS), lang="").encode(),
        checks={"normalize:ambiguous_number": len(ROWS)},
    )


def all_hostile() -> list[Hostile]:
    return [
        truncated_html(),
        truncated_text(),
        row_widths(),
        repeated_headers(),
        spans(),
        huge_span_numbers(),
        hidden_tables(),
        deep_nesting(),
        deep_tables(),
        entity_expansion(),
        unicode_traps(),
        wrong_charset(),
        missing_charset(),
        empty_file(),
        binary_as_html(),
        formula_cells(),
        extreme_numbers(),
        backtracking_cells(),
        backtracking_text(),
        backtracking_markdown(),
        wide_short_rows(),
        long_printed_box(),
        huge_platform_numbers(),
        note_with_blank_subject(),
        markdown_note_on_last_line(),
        too_many_columns(),
        unknown_locale(),
        late_markdown_table(),
        wide_text_capture(),
    ]


def slow_markdown(short_rows: int = 2_000) -> bytes:
    """A legitimate but slow page: a 60-column table whose rows each lack a cell before their
    last, so every row is realigned cell by cell (about a millisecond a row)."""
    width = 60
    lines = [
        "|" + "Model|" * width,
        "|" + "---|" * width,
        *["|" + " |" * (width - 1) + " 1 |"] * 2,
        *["|" + " |" * (width - 2) + " 1 |"] * short_rows,
    ]
    return ("\n".join(lines) + "\n").encode()


def big_page(size: int, table_rows: int = 0) -> bytes:
    """An HTML page of about `size` bytes: the three-row results table and inline scripts of
    a megabyte each (a page's bundled data), or with `table_rows` the same row repeated."""
    if table_rows:
        row = "<tr><td>ResNet-50 v1.5</td><td>Bow Pod16</td><td>44,059</td></tr>\n"
        table = html_table([], header=HEADER).replace("\n</table>", row * table_rows + "</table>")
        return html_page("<h1>Results</h1>\n" + table).encode()
    block = '<script>var chunk = "' + "x" * 1_000_000 + '";</script>\n<p>Filler paragraph.</p>\n'
    blocks = max(0, (size - 1_000) // len(block))
    return html_page("<h1>Results</h1>\n" + html_table(ROWS) + "\n" + block * blocks).encode()
