"""The reStructuredText layout: AWS Neuron's real pages, crafted tables of each form, noise."""

from __future__ import annotations

import csv
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.parsers import check_cells_in_place
from perfledger.schemas.cells import CellSchema
from perfledger.sources.layouts import choose_layout
from perfledger.sources.layouts.base import OUTLINE_KINDS
from perfledger.sources.layouts.rst_table import parse_rst, sniff_rst
from perfledger.sources.layouts.rst_text import render_inline
from perfledger.sources.parse import parse_document
from tests.conftest import CORPUS, PROJECT_ROOT
from tests.sources.layout_checks import rows_of

REAL_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "real-pages"
MAMBA = "aws_neuron_nki_fused_mamba_tutorial.rst"
SPECULATIVE = "aws_neuron_nxdi_speculative_decoding_tutorial.rst"
needs_real_pages = pytest.mark.skipif(
    not (REAL_PAGES / "pages").is_dir(),
    reason=f"the real vendor pages are not here ({REAL_PAGES}); they are test data kept "
    "outside the repository",
)


def real_page(name: str) -> str:
    return (REAL_PAGES / "pages" / name).read_text(encoding="utf-8")


def row_where(cells: pl.DataFrame, column: str, value: str, table: int = 0) -> dict[str, str]:
    """The data row of `table` whose `column` cell reads `value`, as column -> value."""
    picked = cells.filter((pl.col("table_index") == table) & (pl.col("row_number") > 0))
    number = picked.filter((pl.col("column_name") == column) & (pl.col("raw_value") == value))
    assert number.height == 1, (column, value)
    row = picked.filter(pl.col("row_number") == number["row_number"][0])
    return dict(zip(row["column_name"], row["raw_value"], strict=True))


def header(cells: pl.DataFrame, table: int = 0) -> list[str]:
    return (
        cells.filter((pl.col("table_index") == table) & (pl.col("row_number") == 0))
        .sort("column_index")["raw_value"]
        .to_list()
    )


# ---- the real pages ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mamba():
    return parse_rst(real_page(MAMBA))


@pytest.fixture(scope="module")
def speculative():
    return parse_rst(real_page(SPECULATIVE))


@needs_real_pages
def test_the_mamba_list_table_is_read_cell_by_cell(mamba):
    cells = mamba.cells
    assert cells["table_index"].unique().to_list() == [0]
    assert cells["row_number"].max() == 9
    assert header(cells) == [
        "seq_len",
        "Perfect Latency (ms)",
        "mamba_v2 Measured Latency (ms)",
        "mamba_v2 Scaling Efficiency",
        "mamba_v3 Measured Latency (ms)",
        "mamba_v3 Scaling Efficiency",
    ]
    row = row_where(cells, "seq_len", "1024")
    assert row["mamba_v2 Scaling Efficiency"] == "72.73%"
    assert row["mamba_v2 Measured Latency (ms)"] == "4.4"
    assert row_where(cells, "seq_len", "512")["Perfect Latency (ms)"] == "N/A"
    assert row_where(cells, "seq_len", "8192")["mamba_v3 Scaling Efficiency"] == "92.09%"
    assert cells["table_title"].unique().to_list() == ["Mitigate spilling by tiling seq_len"]
    assert cells["table_note"].null_count() == cells.height
    assert mamba.problems == []


@needs_real_pages
def test_each_cell_knows_the_line_its_text_starts_on(mamba):
    lines = real_page(MAMBA).split("\n")
    cell = (
        mamba.cells.filter(pl.col("raw_value") == "72.73%").sort("line_number").row(0, named=True)
    )
    assert lines[cell["line_number"] - 1] == "     - 72.73%"
    first = mamba.cells.filter(pl.col("row_number") == 0).row(0, named=True)
    assert lines[first["line_number"] - 1] == "   * - seq_len"


@needs_real_pages
def test_the_transposed_speculative_decoding_table_keeps_its_metrics_as_rows(speculative):
    cells = speculative.cells
    assert header(cells) == ["Metric", "Without SD", "With SD"]
    assert row_where(cells, "Metric", "End-to-End Latency") == {
        "Metric": "End-to-End Latency",
        "Without SD": "6.04 s",
        "With SD": "5.64 s",
    }
    assert row_where(cells, "Metric", "Time to First Token (TTFT)")["With SD"] == "47.4 ms"
    assert row_where(cells, "Metric", "Request Output Throughput")["Without SD"] == (
        "102.3 tokens/s"
    )
    assert cells["row_number"].max() == 5
    assert cells["table_title"].unique().to_list() == ["Performance Comparison"]


@needs_real_pages
def test_the_table_counts_are_those_counted_by_hand(mamba, speculative):
    with (REAL_PAGES / "expected_tables.csv").open(encoding="utf-8") as handle:
        expected = {
            (row["doc"], int(row["table_index"])): int(row["rows"])
            for row in csv.DictReader(handle)
            if row["doc"].endswith(".rst")
        }
    found = {
        (MAMBA, 0): mamba.cells["row_number"].max(),
        (SPECULATIVE, 0): speculative.cells["row_number"].max(),
    }
    assert found == expected


@needs_real_pages
def test_the_outline_puts_the_heading_and_the_paragraph_before_the_table(speculative):
    rows = speculative.outline.rows(named=True)
    table = next(i for i, row in enumerate(rows) if row["kind"] == "table")
    assert rows[table]["table_index"] == 0 and rows[table]["text"] is None
    assert rows[table]["line_number"] == 212  # the list-table directive
    assert rows[table - 1]["kind"] == "paragraph"
    assert rows[table - 1]["text"] == (
        "The table below summarizes the key performance metrics (p99 values) from both "
        "configurations:"
    )
    assert (rows[table - 2]["kind"], rows[table - 2]["text"], rows[table - 2]["level"]) == (
        "heading",
        "Performance Comparison",
        2,
    )
    assert set(speculative.outline["kind"].unique().to_list()) <= set(OUTLINE_KINDS)


@needs_real_pages
def test_heading_levels_follow_the_order_of_the_adornment_styles(speculative, mamba):
    headings = speculative.outline.filter(pl.col("kind") == "heading")
    levels = dict(zip(headings["text"], headings["level"], strict=False))
    assert levels["Environment setup"] == 2  # '-' underline, second style seen
    assert levels["Step 2: Start the vLLM server"] == 3  # '~' underline, third
    assert headings.filter(pl.col("level") == 1)["text"].to_list() == [
        "Tutorial: Using Speculative Decoding (SD) to improve inference performance on Trn2 "
        "instances"
    ]
    step = mamba.outline.filter(pl.col("text").str.starts_with("Step 1: Element-wise"))
    assert step.select("kind", "level", "text").row(0) == (
        "heading",
        3,
        "Step 1: Element-wise multiplication of delta_i and A_i",
    )


@needs_real_pages
def test_the_page_title_is_the_first_level_one_heading(speculative, mamba):
    assert speculative.metadata.title == (
        "Tutorial: Using Speculative Decoding (SD) to improve inference performance on Trn2 "
        "instances"
    )
    assert mamba.metadata.title == "Fused Mamba"


@needs_real_pages
def test_the_prose_holds_the_claim_and_no_literal_block(speculative):
    prose = dict(speculative.prose)
    assert prose[237] == (
        "Throughput improvement: Speculative decoding achieves 35% higher "
        "throughput (137.8 vs 102.3 tokens/s)"
    )
    texts = " ".join(prose.values())
    assert "docker run" not in texts and "ttft_s 0.048" not in texts  # literal blocks
    assert "Table of contents" not in texts  # a directive's argument
    assert prose[30] == "For example, we use the following:"
    assert prose[6].startswith("NeuronX Distributed Inference (NxDI) allows you")


@needs_real_pages
def test_inline_markup_and_figure_captions_read_as_a_reader_sees_them(mamba):
    prose = dict(mamba.prose)
    assert prose[18] == "Using neuron-profile to identify performance bottlenecks and opportunities"
    assert prose[33] == "delta: [batch, channels, seq_len]"
    assert prose[60] == "Profile of Mamba PyTorch Implementation"  # a figure's caption
    assert prose[137].startswith("Option 1: Map seq_len to free dimension. Element-wise")
    assert not any("code-block" in text or "nki_example" in text for text in prose.values())
    assert not any(text.startswith("# ") for text in prose.values())  # code is not prose


@needs_real_pages
@pytest.mark.parametrize("content_type", ["", None, "text/plain", "text/x-rst"])
def test_both_rst_pages_are_read_by_the_rst_layout(content_type):
    for name in (MAMBA, SPECULATIVE):
        parsed, layout = parse_document((REAL_PAGES / "pages" / name).read_bytes(), content_type)
        assert layout == "rst_table" and parsed.table_count == 1


@needs_real_pages
def test_no_markdown_or_html_page_goes_to_the_rst_layout():
    types = {".md": ["text/markdown", None, ""], ".html": ["text/html", None, ""]}
    pages = [path for path in sorted((REAL_PAGES / "pages").iterdir()) if path.suffix in types]
    assert len(pages) == 22
    for path in pages:
        data = path.read_bytes()
        assert sniff_rst(data, None) == 0.0, path.name
        for content_type in types[path.suffix]:
            assert choose_layout(data, content_type).name != "rst_table", path.name


def test_no_demo_page_goes_to_the_rst_layout():
    for path in sorted(CORPUS.glob("*.txt")):
        data = path.read_bytes()
        assert sniff_rst(data, None) == 0.0, path.name
        for content_type in (None, "", "text/plain"):
            assert choose_layout(data, content_type).name == "text_capture", path.name


# ---- crafted tables of each form -----------------------------------------------------------

CSV_TABLE = '''\
Results
=======

.. csv-table:: Training throughput
   :header: "Model", "Platform", "Throughput (items/sec)"
   :widths: 20, 20, 10

   "ResNet-50", "Bow Pod16", "44,059"
   BERT Large, Bow Pod64, 25135
   "GPT-2 ""Medium""", IPU-POD16, "3,212"
'''

GRID_TABLE = """\
Inference
---------

+------------+-----------+------------------+
| Model      | Platform  | Latency (ms)     |
+============+===========+==================+
| ResNet-50  | Bow Pod16 | 1.36             |
| v1.5       |           |                  |
+------------+-----------+------------------+
| BERT Large             | 2.5              |
+------------+-----------+------------------+
| GPT-2      | IPU-POD16 | 3.1              |
+            +-----------+------------------+
|            | Bow Pod64 | 2.9              |
+------------+-----------+------------------+
"""

SIMPLE_TABLE = """\
Latency
-------

=====  =========  ============
Model  Platform   Latency (ms)
=====  =========  ============
BERT   Bow Pod16  1.36
GPT-2  Bow Pod64  2.5
       and more
=====  =========  ============

* Measured in ms at batch size 1.
"""

TWO_HEADER_ROWS = """\
.. list-table:: Latency by percentile
   :header-rows: 2
   :stub-columns: 1
   :widths: 30 20 20

   * - Model
     - Latency
     - Latency
   * -
     - p50 (ms)
     - p99 (ms)
   * - BERT
     - 1.2
     - 3.4
   * - GPT-2 with
       a long name
     - 2.2
     - 4.4
     - 9.9
     - extra
   * - ViT
"""


def test_a_csv_table_takes_its_header_option_and_quoted_fields():
    parsed = parse_rst(CSV_TABLE)
    assert rows_of(parsed.cells) == [
        ["Model", "Platform", "Throughput (items/sec)"],
        ["ResNet-50", "Bow Pod16", "44,059"],
        ["BERT Large", "Bow Pod64", "25135"],
        ['GPT-2 "Medium"', "IPU-POD16", "3,212"],
    ]
    lines = CSV_TABLE.split("\n")
    bert = parsed.cells.filter(pl.col("raw_value") == "BERT Large")["line_number"][0]
    assert lines[bert - 1].strip().startswith("BERT Large")
    assert parsed.cells["table_title"].unique().to_list() == ["Results"]
    assert parsed.outline.rows()[1:] == [
        (4, "caption", None, "Training throughput", 0),
        (4, "table", None, None, 0),
    ]


def test_a_csv_table_with_a_delimiter_and_header_rows():
    text = (
        ".. csv-table::\n   :delim: ;\n   :header-rows: 1\n\n"
        "   Model; Throughput\n   BERT; 1,000\n   GPT-2; 2,000\n"
    )
    assert rows_of(parse_rst(text).cells) == [
        ["Model", "Throughput"],
        ["BERT", "1,000"],
        ["GPT-2", "2,000"],
    ]


def test_a_grid_table_reads_its_header_separator_and_spanning_cells():
    parsed = parse_rst(GRID_TABLE)
    assert rows_of(parsed.cells) == [
        ["Model", "Platform", "Latency (ms)"],
        ["ResNet-50 v1.5", "Bow Pod16", "1.36"],  # a cell over two lines, joined
        ["BERT Large", "", "2.5"],  # spanning two columns: placed in its first
        ["GPT-2", "IPU-POD16", "3.1"],
        ["", "Bow Pod64", "2.9"],  # spanning two rows: placed in its first
    ]
    resnet = parsed.cells.filter(pl.col("raw_value") == "ResNet-50 v1.5").row(0, named=True)
    assert resnet["line_number"] == 7 and resnet["table_title"] == "Inference"
    assert parsed.problems == []


def test_a_grid_table_without_a_header_separator_takes_its_first_row_as_header():
    text = "+---+----+\n| a | bb |\n+---+----+\n| 1 | 22 |\n+---+----+\n"
    assert rows_of(parse_rst(text).cells) == [["a", "bb"], ["1", "22"]]


def test_a_simple_table_joins_continuation_lines_and_keeps_its_footnote():
    parsed = parse_rst(SIMPLE_TABLE)
    assert rows_of(parsed.cells) == [
        ["Model", "Platform", "Latency (ms)"],
        ["BERT", "Bow Pod16", "1.36"],
        ["GPT-2", "Bow Pod64 and more", "2.5"],
    ]
    assert parsed.cells["table_note"].unique().to_list() == ["Measured in ms at batch size 1."]
    assert parsed.prose == []  # the footnote is the table's, not prose


def test_a_simple_table_s_column_span_names_the_columns_below_it():
    text = """\
=====  =====  ======
   Inputs     Output
------------  ------
  A      B    A or B
=====  =====  ======
False  False  False
True   -      True
=====  =====  ======
"""
    assert rows_of(parse_rst(text).cells) == [
        ["Inputs / A", "Inputs / B", "Output / A or B"],
        ["False", "False", "False"],
        ["True", "-", "True"],  # a '-' cell keeps its text
    ]


def test_a_list_table_with_two_header_rows_joins_their_levels():
    parsed = parse_rst(TWO_HEADER_ROWS)
    assert header(parsed.cells) == ["Model", "Latency / p50 (ms)", "Latency / p99 (ms)"]
    assert rows_of(parsed.cells)[1:] == [
        ["BERT", "1.2", "3.4"],
        ["GPT-2 with a long name", "2.2", "4.4"],  # a cell over two lines
        ["ViT", "", ""],  # a short row is padded
    ]
    gpt = parsed.cells.filter(pl.col("raw_value") == "GPT-2 with a long name")["line_number"][0]
    assert gpt == 15
    assert parsed.outline.filter(pl.col("kind") == "caption")["text"].to_list() == [
        "Latency by percentile"
    ]


def test_cells_beyond_the_header_are_reported_and_the_rest_placed():
    problems = parse_rst(TWO_HEADER_ROWS).problems
    assert [(p.check, p.raw, p.line_number, p.table_index) for p in problems] == [
        ("cells_beyond_header", "9.9 | extra", 19, 0)
    ]
    assert "data row 2" in problems[0].reason


def test_a_list_table_cell_holding_a_nested_list_reads_as_its_text():
    text = """\
.. list-table::
   :header-rows: 1

   * - Model
     - Notes
   * - ``bert-large``
     - Measured with:

       * **FP16**
       * `SDK 2.5 <https://example.com/sdk>`_
"""
    assert rows_of(parse_rst(text).cells) == [
        ["Model", "Notes"],
        ["bert-large", "Measured with: FP16 SDK 2.5"],
    ]


def test_list_table_content_that_is_no_list_of_cells_is_reported_not_dropped():
    text = (
        ".. list-table::\n\n   Some text\n   over two lines\n\n   * - a\n     - b\n"
        "   * just text\n   * - c\n     - d\n"
    )
    parsed = parse_rst(text)
    assert rows_of(parsed.cells) == [["a", "b"], ["c", "d"]]
    assert [(p.check, p.line_number, p.raw) for p in parsed.problems] == [
        ("list_table_row_not_a_list", 3, "Some text\nover two lines"),
        ("list_table_row_not_a_list", 8, "* just text"),
    ]


def test_a_csv_table_from_a_file_is_reported_and_nothing_is_read(tmp_path):
    (tmp_path / "throughput.csv").write_text("Model,Throughput\nBERT,1000\n")
    text = (
        f"Results\n=======\n\n.. csv-table:: External\n   :file: {tmp_path}/throughput.csv\n"
        "   :header-rows: 1\n\nAfter the table.\n"
    )
    parsed = parse_rst(text)
    assert parsed.cells.height == 0
    assert [(p.check, p.line_number, p.raw) for p in parsed.problems] == [
        ("external_table_content", 4, f"{tmp_path}/throughput.csv")
    ]
    assert parsed.prose == [(8, "After the table.")]


def test_a_pipe_table_in_a_literal_block_or_code_block_is_neither_table_nor_prose():
    text = """\
Example::

    | Model | Throughput |
    |-------|------------|
    | BERT  | 1,000      |

.. code-block:: markdown

   | Model | Throughput |
   |-------|------------|

.. this comment holds a
   | Model | Throughput |

After the code.
"""
    parsed = parse_rst(text)
    assert parsed.cells.height == 0 and parsed.problems == []
    assert parsed.prose == [(1, "Example:"), (15, "After the code.")]


def test_a_short_paragraph_before_a_table_is_its_caption():
    text = "Intro.\n\nTable 1: throughput\n\n" + GRID_TABLE.split("\n\n", 1)[1]
    outline = parse_rst(text).outline
    assert outline.rows()[:3] == [
        (1, "paragraph", None, "Intro.", None),
        (3, "caption", None, "Table 1: throughput", 0),
        (5, "table", None, None, 0),
    ]


def test_a_table_directive_s_title_is_its_caption():
    text = (
        ".. table:: Inference latency\n\n   =====  =====\n   Model  ms\n   =====  =====\n"
        "   BERT   1.2\n   =====  =====\n"
    )
    parsed = parse_rst(text)
    assert rows_of(parsed.cells) == [["Model", "ms"], ["BERT", "1.2"]]
    assert parsed.outline.rows() == [
        (1, "caption", None, "Inference latency", 0),
        (3, "table", None, None, 0),
    ]


def test_admonitions_are_prose_and_directives_comments_and_targets_are_not():
    text = """\
.. _results:

Title
=====

.. note::
   Results were measured on **one** NeuronCore.

.. warning:: Numbers may change.

.. image:: chart.png
   :alt: A chart

..
   A comment block
   over two lines.

.. |sub| replace:: substituted

##############
Overline title
##############
"""
    parsed = parse_rst(text)
    assert parsed.prose == [
        (7, "Results were measured on one NeuronCore."),
        (9, "Numbers may change."),
    ]
    headings = parsed.outline.filter(pl.col("kind") == "heading").rows()
    assert headings == [
        (3, "heading", 1, "Title", None),
        (21, "heading", 2, "Overline title", None),
    ]


def test_inline_markup_is_rendered():
    assert render_inline("``code`` and **bold** and *em*") == "code and bold and em"
    assert render_inline("see `the docs <https://example.com>`_ now") == "see the docs now"
    assert render_inline(":ref:`Guide <label>` and :doc:`/path/page`") == "Guide and /path/page"
    assert render_inline("``delta_i``\\ , state") == "delta_i, state"
    assert render_inline("6,044 [1]_") == "6,044 ¹"
    assert render_inline("a * b * c") == "a * b * c"  # no emphasis between spaces


# ---- sniffing ------------------------------------------------------------------------------


def test_the_sniffer_wants_rst_and_leaves_markdown_and_html_alone():
    assert sniff_rst(CSV_TABLE.encode(), None) > 0.5
    assert sniff_rst(b"Title\n=====\n\nText.\n\nPart\n----\n\nMore.\n", None) > 0.5
    assert sniff_rst(CSV_TABLE.encode(), "text/x-rst") == 0.9
    markdown = b"# Results\n\n| Model | Throughput |\n|---|---|\n| BERT | 1 |\n"
    assert sniff_rst(markdown, None) == 0.0
    assert sniff_rst(CSV_TABLE.encode(), "text/markdown") == 0.0
    assert sniff_rst(b"<html><body><table><tr><td>1</td></tr></table></body></html>", None) == 0
    assert sniff_rst(b".. list-table::\n\n<table><tr><td>1</td></tr></table>", None) == 0.0
    assert sniff_rst(b"Plain text\nwith no markup\n", None) == 0.0


# ---- hostile pages -------------------------------------------------------------------------


# Timed in a fresh interpreter, in CPU seconds: a long test session's heap makes each
# garbage collection a big page triggers slower, and other processes share the machine;
# neither says anything of the parser. The best of two runs absorbs a moment's noise; a
# hang or a quadratic path fails either way.
TIMER = """
import sys, time
from perfledger.sources.parse import parse_document
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    runs = []
    for _ in range(2):
        started = time.process_time()
        parse_document(data, "text/x-rst")
        runs.append(time.process_time() - started)
    print(min(runs))
"""


def seconds_to_parse(pages: list[str], folder: Path) -> list[float]:
    paths = []
    for number, text in enumerate(pages):
        paths.append(folder / f"page-{number}.rst")
        paths[-1].write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *map(str, paths)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [float(line) for line in done.stdout.split()]


def test_200000_bullet_lines_parse_in_well_under_a_second(tmp_path):
    pages = ["* -\n" * 200_000, ".. list-table::\n\n" + "   * -\n" * 200_000]
    bullets, table_rows = seconds_to_parse(pages, tmp_path)
    assert bullets < 1.0
    assert table_rows < 2.0  # 200,000 rows, each a cell of its own to build
    parsed = parse_rst(pages[0])
    assert parsed.cells.height == 0 and parsed.prose == []
    table = parse_rst(pages[1]).cells
    assert table["row_number"].max() == 199_999 and set(table["raw_value"]) == {""}


def test_unterminated_directives_and_tables_parse_in_well_under_a_second(tmp_path):
    pages = [
        ".. code-block:: python\n\n" + "   * - x = 1\n" * 200_000,  # never dedented
        '.. csv-table::\n   :header: a, b\n\n   "' + "x, y\n   " * 100_000,  # open quote
        "=====  =====\n" + "a      b\n" * 100_000,  # a simple table with no bottom border
        "+---+---+\n" + "| a | b |\n" * 100_000,  # a grid table never closed
        ".. list-table::\n   :header-rows: 1\n\n" + "   * - a\n       * - b\n" * 50_000,
    ]
    seconds = seconds_to_parse(pages, tmp_path)
    assert max(seconds) < 1.0, seconds
    for text in pages:
        check_cells_in_place(parse_rst(text).cells)
    unclosed = parse_rst(pages[3])
    assert [p.check for p in unclosed.problems] == ["malformed_table"]
    assert len(unclosed.problems[0].raw) <= 2000


def test_lines_that_would_make_a_backtracking_pattern_hang_are_read_quickly():
    lines = [
        ":a" * 100_000,
        "``" * 100_000 + "x",
        "*a " * 50_000,
        "**a " * 50_000,
        "`a " * 50_000,
        "`" + " " * 100_000 + "<",
        " " * 200_000 + "deep",
        "\t" * 50_000 + "x",
        "\\" * 100_000,
        ".. " + "a:" * 50_000,
        "   in the comment",
    ]
    text = "\n\n".join(lines) + "\n"
    started = time.process_time()  # CPU time: other work on the machine does not count
    parsed = parse_rst(text)
    assert time.process_time() - started < 1.0
    # A line of one repeated punctuation character is a transition; the last two a comment.
    assert [line for line, _ in parsed.prose] == [1, 3, 5, 7, 9, 11, 13, 15]
    assert dict(parsed.prose)[9] == "aa " * 24_999 + "aa"  # '`a `a ...': interpreted text
    assert dict(parsed.prose)[15] == "x"


RST_PIECES = st.sampled_from(
    [
        "Title",
        "=====",
        "-----",
        "",
        "   ",
        ".. list-table::",
        ".. csv-table::",
        "   :header-rows: 1",
        "   :header-rows: x",
        "   :file: a.csv",
        '   :header: a, "b',
        "   * - a",
        "     - 1",
        "   * -",
        "     -",
        "* - x",
        "  - y",
        "+---+---+",
        "| a | b |",
        "+===+===+",
        "|   +---+",
        "=====  =====",
        "a      b",
        "-----  -----",
        ".. table:: T",
        ".. note::",
        "   text",
        "Text::",
        "    literal",
        ".. _t:",
        "..",
        "``x``",
        "**b",
        "`t <u>`_",
        '1,2,"3',
        "\t\tx",
        ".. [1] note",
        "#. item",
        ":field: value",
        "+---+",
        "   ",
        "| c |",
    ]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RST_PIECES, max_size=40))
def test_any_arrangement_of_rst_pieces_gives_cells_in_place(pieces):
    parsed = parse_rst("\n".join(pieces))
    CellSchema.validate(parsed.cells)
    check_cells_in_place(parsed.cells)
    assert set(parsed.outline["kind"].unique().to_list()) <= set(OUTLINE_KINDS)
    lines = len("\n".join(pieces).split("\n"))
    assert parsed.cells.height == 0 or parsed.cells["line_number"].max() <= lines
    tables = parsed.outline.filter(pl.col("kind") == "table")["table_index"].to_list()
    assert tables == sorted(set(parsed.cells["table_index"].to_list()))
    # A table none of whose rows could be read keeps its number, and its problems name it.
    unread = {p.table_index for p in parsed.problems if p.table_index is not None}
    assert set(range(max([*tables, *unread], default=-1) + 1)) == set(tables) | unread


def test_wide_characters_in_grid_and_simple_tables_stand_two_columns_wide():
    text = """\
+------------+--------+
| 模型       | 耗时   |
+============+========+
| ResNet50   | 3.5    |
+------------+--------+
| 量化 ✅    | 1.2    |
+------------+--------+

========  ======
模型      耗时
========  ======
量化      1.2
========  ======
"""
    parsed = parse_rst(text)
    assert not parsed.problems
    assert header(parsed.cells, 0) == ["模型", "耗时"]
    assert rows_of(parsed.cells)[1:] == [["ResNet50", "3.5"], ["量化 ✅", "1.2"]]
    assert rows_of(parsed.cells, 1) == [["模型", "耗时"], ["量化", "1.2"]]
    assert parsed.cells.filter(pl.col("raw_value") == "量化")["line_number"].to_list() == [12]


def test_a_table_that_cannot_be_read_keeps_its_number_and_its_problem_names_it():
    text = """\
+-----+-----+
| a   | b  |
+-----+-----+

.. list-table::
   :header-rows: 1

   * - Model
     - Latency (ms)
   * - BERT
     - 5.1
"""
    parsed = parse_rst(text)
    assert [(p.check, p.table_index) for p in parsed.problems] == [("malformed_table", 0)]
    assert set(parsed.cells["table_index"]) == {1}
