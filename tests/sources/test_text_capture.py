"""The flattened text layout, on the real captures and on small crafted ones."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import pytest

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.normalize import normalize_cells
from perfledger.sources.layouts import text_capture
from perfledger.sources.layouts.base import ParseProblem
from perfledger.sources.layouts.flat_table_width import BLANK, NUMBER, TEXT, cell_shape
from perfledger.sources.layouts.text_capture import parse_text_capture
from tests.conftest import BLOG_MLPERF_V2, CORPUS, JANUARY_2022, JULY_2023, read_page
from tests.sources.layout_checks import CONTEXT, measurements, rows_of

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def july():
    return parse_text_capture(read_page(JULY_2023))


def _row(cells: pl.DataFrame, table: int, row: int) -> dict[str, str]:
    picked = cells.filter((pl.col("table_index") == table) & (pl.col("row_number") == row))
    return dict(zip(picked["column_name"], picked["raw_value"], strict=True))


def test_every_table_of_the_july_2023_page_has_its_rows(july):
    rows = (
        july.cells.filter(pl.col("row_number") > 0)
        .group_by("table_index")
        .agg(pl.col("row_number").max())
        .sort("table_index")["row_number"]
        .to_list()
    )
    assert rows == [2, 64, 37, 11, 62, 1, 71]
    assert sum(rows) == 248
    assert july.problems == []


def test_table_titles_are_the_headings_above_the_tables(july):
    titles = (
        july.cells.group_by("table_index")
        .agg(pl.col("table_title").first())
        .sort("table_index")["table_title"]
        .to_list()
    )
    assert titles[1:] == [
        "Bow Platform - Training",
        "Bow Platform - Inference",
        "MLPerf v2.0 Training Performance",
        "IPU-POD Classic - Training",
        "IPU-POD Classic - Time to Result",
        "IPU-POD Classic - Inference",
    ]


def test_mlperf_header_and_a_row_are_read_cell_by_cell(july):
    header = july.cells.filter((pl.col("table_index") == 3) & (pl.col("row_number") == 0))
    assert header["raw_value"].to_list() == [
        "Division",
        "Model",
        "MLPerf Quality Target",
        "Platform",
        "SDK Version",
        "Framework",
        "MLPerf ID",
        "Dataset",
        "Precision",
        "Time to Train (mins)",
    ]
    assert _row(july.cells, 3, 1) == {
        "Division": "Closed",
        "Model": "ResNet50 v1.5",
        "MLPerf Quality Target": "75.90% classification",
        "Platform": "Bow Pod16",
        "SDK Version": "SDK 2.5.1",
        "Framework": "TensorFlow",
        "MLPerf ID": "2.0-2047",
        "Dataset": "ImageNet2012",
        "Precision": "16.16",
        "Time to Train (mins)": "19.64",
    }


def test_empty_cells_stay_empty_and_keep_their_place(july):
    tgn = next(
        _row(july.cells, 1, row)
        for row in range(1, 65)
        if _row(july.cells, 1, row)["Model"] == "TGN"
    )
    assert tgn["Dataset"] == NBSP and tgn["Batch Size"] == NBSP and tgn["Precision"] == NBSP
    assert tgn["Platform"] == "1x Bow IPU"
    assert tgn["Throughput (items/sec)"] == "31,617"


def test_cells_know_their_source_line(july):
    lines = read_page(JULY_2023).split("\n")
    first_bert = july.cells.filter(
        (pl.col("table_index") == 1)
        & (pl.col("row_number") == 1)
        & (pl.col("column_name") == "Throughput (items/sec)")
    ).row(0, named=True)
    assert lines[first_bert["line_number"] - 1] == "6,044"
    assert lines[first_bert["line_number"] - 9] == "BERT Large"


def test_the_ogb_footnote_is_attached_to_its_table(july):
    note = july.cells.filter(pl.col("table_index") == 0)["table_note"].unique().to_list()
    assert note == [
        "Evaluation Metric using ensembled results using test-challenge dataset | PQM4Mv2 "
        "throughput measured in graphs/s | WikiKG90M2 throughput measured in triples/s"
    ]
    prose = " ".join(text for _, text in july.prose)
    assert "PQM4Mv2 throughput measured in graphs/s" not in prose
    assert "Precision Terminology" in prose


def test_page_metadata_is_read_where_the_page_states_it(july):
    assert july.metadata.title == "Performance Results"
    assert july.metadata.last_updated_date == "2023-07-04"
    blog = parse_text_capture(read_page(BLOG_MLPERF_V2)).metadata
    assert blog.title == "Baidu results underscore big MLPerf gains for Graphcore"
    assert blog.author == "Matt Fyles"
    assert blog.published_date == "2022-06-29"


def test_a_page_without_tables_gives_no_rows_and_no_error():
    parsed = parse_text_capture(read_page(JANUARY_2022))
    assert parsed.cells.height == 0
    assert parsed.problems == []
    assert parsed.metadata.last_updated_date == "2022-01-25"
    for name in (
        "000_c64c95d4643991ea.txt",
        "001_84a8bfaf07a6e90f.txt",
        "004_daef20c563bded08.txt",
    ):
        assert parse_text_capture(read_page(CORPUS / name)).cells.height == 0


def test_an_incomplete_last_row_is_reported_not_dropped():
    text = "\n".join(
        [
            "Intro",
            "",
            "Model",
            "Platform",
            "Throughput (items/sec)",
            "ResNet-50",
            "Bow Pod16",
            "44,059",
            "BERT",
            "Bow Pod64",
            "",
            "After",
        ]
    )
    parsed = parse_text_capture(text)
    assert parsed.cells.filter(pl.col("row_number") > 0)["row_number"].max() == 1
    assert len(parsed.problems) == 1
    problem = parsed.problems[0]
    assert problem.check == "incomplete_row"
    assert problem.raw == "BERT\nBow Pod64"
    assert problem.line_number == 9


def test_prose_lines_that_look_like_cells_do_not_start_a_table():
    text = "\n".join(
        [
            "Model",
            "We compare models.",
            "",
            "Model",
            "Platform",
            "Latency (ms)",
            "BERT",
            "Bow-2000",
            "1.36",
            "",
            "Model quality matters.",
        ]
    )
    parsed = parse_text_capture(text)
    assert parsed.table_count == 1
    assert parsed.cells.filter(pl.col("row_number") == 1)["raw_value"].to_list() == [
        "BERT",
        "Bow-2000",
        "1.36",
    ]


def test_an_unknown_header_between_known_ones_keeps_the_width():
    text = "\n".join(
        [
            "",
            "Model",
            "Platform",
            "Power (W)",
            "Throughput (items/sec)",
            "BERT",
            "Bow Pod16",
            "1200",
            "5,600",
            "",
        ]
    )
    parsed = parse_text_capture(text)
    assert parsed.cells.filter(pl.col("row_number") == 0).height == 4
    assert _row(parsed.cells, 0, 1)["Throughput (items/sec)"] == "5,600"


def test_unicode_line_breaks_and_a_bom_are_handled():
    text = "\ufeffIntro\u2028\u2028Model\x0cPlatform\rThroughput (items/sec)\r\nBERT\nBow Pod16\n1,000\n"
    parsed = parse_text_capture(text)
    assert _row(parsed.cells, 0, 1) == {
        "Model": "BERT",
        "Platform": "Bow Pod16",
        "Throughput (items/sec)": "1,000",
    }


# ---- the outline, and the cells it must leave as they were ---------------------------------

# Per demo page: (cells, tables, prose lines, problems) as the demo's 358 values rely on them.
DEMO_COUNTS = {
    "000_c64c95d4643991ea.txt": (0, 0, 50, 0),
    "001_84a8bfaf07a6e90f.txt": (0, 0, 53, 0),
    "002_74c88246ac92525e.txt": (2417, 7, 37, 0),
    "003_e05cfacb797e1ed5.txt": (0, 0, 18, 0),
    "004_daef20c563bded08.txt": (0, 0, 19, 0),
}


@pytest.fixture(scope="module")
def demo_pages():
    return {name: parse_text_capture(read_page(CORPUS / name)) for name in DEMO_COUNTS}


def _before_table(outline: pl.DataFrame, table: int) -> list[dict]:
    """The outline rows before the table's own row, nearest first."""
    rows = outline.rows(named=True)
    position = next(
        i for i, row in enumerate(rows) if row["kind"] == "table" and row["table_index"] == table
    )
    return rows[:position][::-1]


def test_the_outline_leaves_every_demo_page_s_cells_prose_and_problems_as_they_were(demo_pages):
    for name, (cells, tables, prose, problems) in DEMO_COUNTS.items():
        parsed = demo_pages[name]
        assert (
            parsed.cells.height,
            parsed.table_count,
            len(parsed.prose),
            len(parsed.problems),
        ) == (cells, tables, prose, problems), name
    cells = demo_pages["002_74c88246ac92525e.txt"].cells
    body = (
        cells.filter(pl.col("row_number") > 0)
        .group_by("table_index")
        .len()
        .sort("table_index")["len"]
        .to_list()
    )
    assert body == [18, 576, 370, 110, 558, 9, 710]
    last = cells.filter((pl.col("table_index") == 6) & (pl.col("row_number") == 71))
    assert last.select("column_name", "raw_value", "line_number").rows()[:3] == [
        ("Model", "Unet (Medical)", 2498),
        ("Variant", NBSP, 2499),
        ("Platform", "IPU-M2000", 2500),
    ]
    wiki = _row(cells, 0, 2)
    assert wiki["Throughput (items/sec)"] == "1,260,000" and wiki["Time to Train"] == "11h 50m"
    assert _row(cells, 5, 1)["Time To Result (secs)"] == "49"


def test_a_table_s_heading_comes_before_it_in_the_outline(demo_pages):
    outline = demo_pages["002_74c88246ac92525e.txt"].outline
    lines = read_page(JULY_2023).split("\n")
    heading = next(row for row in _before_table(outline, 1) if row["kind"] == "heading")
    assert (heading["text"], heading["level"]) == ("Bow Platform - Training", 2)
    table = outline.filter((pl.col("kind") == "table") & (pl.col("table_index") == 1)).row(
        0, named=True
    )
    assert table["text"] is None and lines[table["line_number"] - 1] == "Model"
    assert outline.filter(pl.col("kind") == "table")["table_index"].to_list() == list(range(7))


def test_the_page_title_is_the_only_level_one_heading(demo_pages):
    outline = demo_pages["002_74c88246ac92525e.txt"].outline
    first = outline.filter(pl.col("level") == 1)
    assert first.select("line_number", "text").rows() == [(3, "Performance Results")]
    assert set(outline["kind"].unique().to_list()) == {"heading", "paragraph", "caption", "table"}


def test_a_short_line_before_a_table_is_its_caption(demo_pages):
    outline = demo_pages["002_74c88246ac92525e.txt"].outline
    caption = _before_table(outline, 3)[0]
    assert caption["kind"] == "caption" and caption["table_index"] == 3
    assert caption["text"].startswith("MLPerf v2.0 Training Results | MLPerf ID: 2.0-2047")
    # A long sentence before table 0 stays a paragraph.
    assert _before_table(outline, 0)[0]["kind"] == "paragraph"


def test_the_outline_s_text_rows_are_the_prose_lines(demo_pages):
    for name, parsed in demo_pages.items():
        text_rows = parsed.outline.filter(pl.col("kind") != "table")
        assert (
            list(zip(text_rows["line_number"], text_rows["text"], strict=True)) == parsed.prose
        ), name
        assert text_rows["line_number"].is_sorted(), name


def test_a_crafted_capture_has_its_heading_caption_and_table_in_order():
    text = "\n".join(
        [
            "Results",
            "",
            "Training results for:",
            "",
            "Model",
            "Platform",
            "Throughput (items/sec)",
            "BERT",
            "Bow Pod16",
            "1,000",
            "",
            "The end.",
        ]
    )
    outline = parse_text_capture(text).outline
    assert outline.rows() == [
        (1, "heading", 1, "Results", None),
        (3, "caption", None, "Training results for:", 0),
        (5, "table", None, None, 0),
        (12, "paragraph", None, "The end.", None),
    ]


# ---- other vendors' tables: the width told by the body as well as the header ---------------


def _capture(*blocks: list[str]) -> str:
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def _values(cells: pl.DataFrame) -> list[tuple]:
    """(cell as published, metric, value, unit) of every value the cells give, sorted."""
    return sorted(measurements(cells).select("raw_value", "metric", "value", "unit").rows())


DLE_TRAINING = [
    "GPUs",
    "Throughput - TF32",
    "Throughput - mixed precision",
    "Throughput speedup (TF32 - mixed precision)",
    "1",
    "1209",
    "3454",
    "2.85",
    "8",
    "9500",
    "27000",
    "2.84",
]


def test_a_table_whose_first_header_the_column_vocabulary_does_not_know_is_read():
    parsed = parse_text_capture(
        _capture(["Training performance: NVIDIA DGX A100 (8x A100 80GB)"], DLE_TRAINING)
    )
    assert parsed.problems == []
    assert rows_of(parsed.cells) == [DLE_TRAINING[0:4], DLE_TRAINING[4:8], DLE_TRAINING[8:12]]
    assert _values(parsed.cells) == [
        ("1209", "throughput", 1209.0, "items/s"),
        ("2.84", "speedup", 2.84, "x"),
        ("2.85", "speedup", 2.85, "x"),
        ("27000", "throughput", 27000.0, "items/s"),
        ("3454", "throughput", 3454.0, "items/s"),
        ("9500", "throughput", 9500.0, "items/s"),
    ]


def test_a_table_led_by_a_per_gpu_batch_size_is_read():
    table = [
        "Batch size / GPU",
        "GPUs",
        "Throughput - TF32",
        "Throughput - mixed precision",
        "256",
        "1",
        "1209",
        "3454",
        "256",
        "8",
        "9500",
        "27000",
    ]
    parsed = parse_text_capture(_capture(["Training performance"], table))
    assert rows_of(parsed.cells) == [table[0:4], table[4:8], table[8:12]]
    assert [value for _, _, value, _ in _values(parsed.cells)] == [1209.0, 27000.0, 3454.0, 9500.0]


AMD_UNITS_IN_CELLS = [
    "Model",
    "Batch size",
    "Throughput",
    "Latency",
    "Speedup",
    "Llama 2 70B",
    "8",
    "1,234 tokens/s",
    "12.5 ms",
    "1.83x",
]


def test_a_header_ending_with_a_column_the_column_vocabulary_does_not_know_keeps_its_width():
    parsed = parse_text_capture(_capture(["MI300X, FP16"], AMD_UNITS_IN_CELLS))
    assert parsed.problems == []
    assert rows_of(parsed.cells) == [AMD_UNITS_IN_CELLS[:5], AMD_UNITS_IN_CELLS[5:]]
    # The batch size "8" is no throughput: every cell loads under its own column.
    assert _values(parsed.cells) == [
        ("1,234 tokens/s", "throughput", 1234.0, "items/s"),
        ("1.83x", "speedup", 1.83, "x"),
        ("12.5 ms", "latency", 12.5, "ms"),
    ]


def test_a_header_word_no_vocabulary_knows_is_taken_in_when_the_rows_show_it():
    # "Wobble" names no role anywhere: the rows, five cells wide in every column's shape,
    # show that it heads a column. Read four wide, each row would wrap into the next.
    table = [
        "Model",
        "Batch size",
        "Throughput",
        "Latency (ms)",
        "Wobble",
        "BERT",
        "8",
        "1,000",
        "2.5",
        "0.1",
        "GPT-2",
        "4",
        "2,000",
        "5.1",
        "0.2",
        "ResNet",
        "16",
        "3,000",
        "2.2",
        "0.3",
    ]
    parsed = parse_text_capture(_capture(["Results"], table))
    assert parsed.problems == []
    assert rows_of(parsed.cells)[1:] == [table[5:10], table[10:15], table[15:20]]


def test_a_body_cell_reading_as_a_header_word_does_not_widen_the_header():
    # "Server" names a platform to the header reader; under "Scenario" it is a value.
    table = [
        "Model",
        "Platform",
        "Throughput (items/sec)",
        "Scenario",
        "Server",
        "Bow Pod16",
        "1,000",
        "Offline",
        "Server",
        "Bow Pod64",
        "2,000",
        "Online",
        "Edge",
        "Bow Pod16",
        "3,000",
        "Offline",
    ]
    parsed = parse_text_capture(_capture(["Results"], table))
    assert parsed.problems == []
    assert rows_of(parsed.cells)[1] == table[4:8]


def _only_problem(parsed) -> ParseProblem:
    assert parsed.cells.height == 0
    assert len(parsed.problems) == 1
    return parsed.problems[0]


def test_a_table_two_widths_read_equally_well_is_reported_not_guessed():
    # Three columns of labels and a fourth header no vocabulary knows: read three wide or
    # four, every column holds labels. The lines are reported, not read under either.
    table = [
        "Model",
        "Platform",
        "Precision",
        "Owner",
        "BERT",
        "Bow Pod16",
        "FP16",
        "Alice",
        "GPT-2",
        "Bow Pod64",
        "FP32",
        "Bob",
    ]
    parsed = parse_text_capture(_capture(["Supported models"], table, ["After."]))
    problem = _only_problem(parsed)
    assert problem.check == "table_width_unclear"
    assert problem.line_number == 3 and problem.table_index == 0
    assert problem.raw == "\n".join(table)
    assert "lines 3-14" in problem.reason and "several widths" in problem.reason
    assert "3 columns" in problem.reason and "4 columns" in problem.reason
    assert [text for _, text in parsed.prose] == ["Supported models", "After."]


def test_rows_read_shifted_after_a_lost_cell_are_reported_not_read():
    # BERT's latency cell is missing: read four wide, GPT-2's latency 5.1 would load as the
    # next row's throughput. No width reads the lines, so they are reported.
    table = [
        "Model",
        "Batch size",
        "Throughput",
        "Latency",
        "BERT",
        "8",
        "1,000",
        "GPT-2",
        "4",
        "2,000",
        "5.1",
        "ResNet",
        "16",
        "3,000",
        "2.2",
    ]
    problem = _only_problem(parse_text_capture(_capture(["Results"], table)))
    assert problem.check == "table_width_unclear"
    assert "fits no width" in problem.reason and "4 columns" in problem.reason
    assert problem.raw == "\n".join(table)


def test_a_last_row_cut_short_still_reads_the_rows_before_it():
    table = [
        "Model",
        "Batch size",
        "Throughput",
        "Latency",
        "BERT",
        "8",
        "1,000",
        "2.5",
        "GPT-2",
        "4",
        "2,000",
        "5.1",
        "ResNet",
        "16",
    ]
    parsed = parse_text_capture(_capture(["Results"], table))
    assert rows_of(parsed.cells)[1:] == [table[4:8], table[8:12]]
    assert [(p.check, p.raw) for p in parsed.problems] == [("incomplete_row", "ResNet\n16")]


def test_a_paragraph_right_after_the_rows_ends_the_table():
    table = [
        "Model",
        "Platform",
        "Throughput (items/sec)",
        "BERT",
        "Bow Pod16",
        "1,000",
        "GPT-2",
        "Bow Pod64",
        "2,000",
        "Results were measured with the latest software release.",
    ]
    parsed = parse_text_capture(_capture(["Results"], table))
    assert parsed.problems == []
    assert rows_of(parsed.cells)[1:] == [table[3:6], table[6:9]]
    assert parsed.prose[-1] == (12, table[-1])


def test_a_short_line_under_a_heading_is_the_table_s_caption_and_the_heading_stays():
    text = _capture(
        ["Inference performance: NVIDIA DGX A100 (1x A100 80GB)"],
        ["Our results were obtained by running the inference scripts in the release container."],
        ["FP16 Inference Latency"],
        [
            "Batch size",
            "Throughput Avg",
            "Latency Avg (ms)",
            "1",
            "1,250.5",
            "0.80",
            "8",
            "6,400.2",
            "1.25",
        ],
    )
    parsed = parse_text_capture(text)
    assert parsed.outline.rows() == [
        (1, "heading", 1, "Inference performance: NVIDIA DGX A100 (1x A100 80GB)", None),
        (3, "paragraph", None, parsed.prose[1][1], None),
        (5, "caption", None, "FP16 Inference Latency", 0),
        (7, "table", None, None, 0),
    ]
    assert parsed.cells["table_title"].unique().to_list() == [
        "Inference performance: NVIDIA DGX A100 (1x A100 80GB)"
    ]
    context = replace(CONTEXT, outline=parsed.outline)
    labels = (
        normalize_cells(parsed.cells, context)
        .measurements.select("accelerator", "accelerator_count", "activation_dtype")
        .unique()
        .rows()
    )
    assert labels == [("A100", 1, "fp16")]  # the chip from the heading, the precision below it


def test_a_heading_alone_above_its_table_stays_its_heading():
    text = _capture(["Bow Platform - Training"], DLE_TRAINING)
    parsed = parse_text_capture(text)
    assert parsed.outline.select("kind", "text").rows()[0] == ("heading", "Bow Platform - Training")
    assert parsed.cells["table_title"].unique().to_list() == ["Bow Platform - Training"]


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("1,234", NUMBER),
        ("6,044¹", NUMBER),
        ("12.5 ms", NUMBER),
        ("~5 hours", NUMBER),
        ("1.83x", NUMBER),
        ("0.72 Mask-LM accuracy", NUMBER),
        ("\uff13,\uff12\uff11\uff12", NUMBER),
        ("224x224", TEXT),
        ("8x H100", TEXT),
        ("11h 50m", TEXT),
        ("1st", TEXT),
        ("FP16", TEXT),
        (NBSP, BLANK),
        ("-", BLANK),
        ("N/A", BLANK),
        ("OOM", BLANK),
    ],
)
def test_a_cell_s_shape_is_a_number_with_its_unit_a_label_or_blank(text, shape):
    assert cell_shape(text) == shape


def test_a_page_of_many_label_blocks_asks_the_header_reader_a_bounded_number_of_times(monkeypatch):
    asked: list[str] = []

    def counting(text):
        asked.append(text)
        return read_header(text)

    monkeypatch.setattr(text_capture, "read_header", counting)
    blocks = [[f"Model {i}", f"Widget {i}", f"Gadget {i}", f"Thing {i}"] for i in range(2000)]
    parse_text_capture(_capture(*blocks))
    assert len(asked) <= text_capture.MAX_HEADER_READINGS


def test_a_flattened_table_no_known_header_starts_is_read_by_its_cells_shapes():
    # a header of words no vocabulary knows, then two whole rows whose columns keep one
    # shape each (labels, labels, numbers): read three cells wide, its unknown header words
    # kept as published (the values are quarantined as unknown_metric, for map-label)
    text = (
        "Benchmark results\n\nThe numbers below were measured on our boards with the "
        "latest release.\n\nKit\nNet\nQuux\nRK3588\nYOLOv5s\n45.2\n"
        "RK3568\nYOLOv5s\n12.1\n\nA sentence after the table, which ends here.\n"
    )
    parsed = parse_text_capture(text)
    assert parsed.problems == []
    quux = parsed.cells.filter(parsed.cells["column_index"] == 2)
    assert quux.select("row_number", "raw_value").rows() == [(0, "Quux"), (1, "45.2"), (2, "12.1")]


def test_a_flattened_table_no_width_reads_is_reported_not_left_as_prose():
    # the same cells out of order: at no width do the columns keep their shapes
    text = (
        "Benchmark results\n\nThe numbers below were measured on our boards with the "
        "latest release.\n\nKit\nNet\nQuux\nRK3588\n45.2\nYOLOv5s\n"
        "12.1\nRK3568\nYOLOv5s\n\nA sentence after the table, which ends here.\n"
        "Released\n2023\nUpdated\n2024\n"
    )
    parsed = parse_text_capture(text)
    assert parsed.cells.height == 0
    (problem,) = parsed.problems
    assert (problem.check, problem.line_number) == ("table_not_read", 5)
    assert problem.raw.splitlines()[-1] == "YOLOv5s"
    assert "lines 5-13" in problem.reason
