"""Headers taller than the markup says, in every layout: the rows under a table's header that
are more levels of it join it, and rows of data never do."""

from __future__ import annotations

import time

import polars as pl

from perfledger.sources.layouts.header_levels import header_levels_below, joined_levels
from perfledger.sources.layouts.html_table import parse_html
from perfledger.sources.layouts.pipe_table import parse_pipe_tables
from perfledger.sources.layouts.rst_table import parse_rst


def columns(cells: pl.DataFrame, index: int = 0) -> list[str]:
    return (
        cells.filter((pl.col("table_index") == index) & (pl.col("row_number") == 0))
        .sort("column_index")["column_name"]
        .to_list()
    )


def body(cells: pl.DataFrame, index: int = 0) -> list[list[str]]:
    rows = cells.filter((pl.col("table_index") == index) & (pl.col("row_number") > 0))
    return [
        group.sort("column_index")["raw_value"].to_list()
        for _, group in rows.group_by("row_number", maintain_order=True)
    ]


# ---- the rule ----------------------------------------------------------------------------------


def test_a_row_of_names_over_the_columns_of_numbers_is_a_level():
    assert (
        header_levels_below(
            [
                ["", "", "A100", "T4"],
                ["512", "PyTorch", "23.7", "35.6"],
                ["", "TensorRT", "3.9", "12.4"],
            ]
        )
        == 1
    )
    assert header_levels_below([["", "ms", "img/s"], ["ResNet", "5.1", "1200"]]) == 1


def test_rows_of_chips_or_precisions_over_the_columns_of_numbers_are_levels():
    # mmdeploy's benchmark: backends in the <thead>, then body rows of devices and precisions
    rows = [
        ["model", "spatial", "T4", "T4", "T4", "Jetson TX2", "SnapDragon888", "Ascend310"],
        ["model", "spatial", "fp32", "fp16", "int8", "fp32", "fp32", "fp32"],
        ["ResNet", "224x224", "2.97", "1.26", "1.21", "24.13", "33.91", "2.49"],
        ["ResNeXt", "224x224", "4.31", "1.42", "1.37", "37.45", "133.44", "-"],
    ]
    assert header_levels_below(rows) == 2
    # a property row naming one chip is data, and so is a row led by a model's name
    assert header_levels_below([["GPU", "A100"], ["Throughput", "1,200"]]) == 0
    assert (
        header_levels_below(
            [["ResNet-50", "Bow Pod16", "Bow Pod16"], ["BERT", "Bow Pod64", "25,135"]]
        )
        == 0
    )


def test_rows_of_data_are_never_levels():
    # a row publishing a number; a row of placeholders; a property table's row
    assert header_levels_below([["ResNet", "5.1", "1200"], ["BERT", "9.0", "300"]]) == 0
    assert (
        header_levels_below([["Falcon 7B", "coming soon", "N/A"], ["Llama 2", "12.5", "1,024"]])
        == 0
    )
    assert (
        header_levels_below(
            [["Model", "Llama-3.1-8B-Instruct"], ["Batch size", "32"], ["Sequence length", "4096"]]
        )
        == 0
    )
    # a table of words: nothing tells a header from its rows
    assert header_levels_below([["", "Supported"], ["FSDP", "Yes"]]) == 0


def test_levels_join_top_to_bottom_without_blanks_or_repeats():
    assert joined_levels(["TensorRT 8.4", "T4"]) == "TensorRT 8.4 / T4"
    assert joined_levels(["", "A100-80GB"]) == "A100-80GB"
    assert joined_levels(["Server", "Server", "Metric"]) == "Server / Metric"


# ---- HTML --------------------------------------------------------------------------------------


def test_an_empty_thead_takes_the_names_from_the_first_body_row():
    cells = parse_html(
        "<table><thead><tr><th></th><th></th></tr></thead><tbody>"
        "<tr><td>Model</td><td>Throughput (img/s)</td></tr>"
        "<tr><td>ResNet-50</td><td>1,200</td></tr></tbody></table>"
    ).cells
    assert columns(cells) == ["Model", "Throughput (img/s)"]
    assert body(cells) == [["ResNet-50", "1,200"]]


def test_header_rows_of_plain_cells_under_a_title_cell_join_and_the_title_names_the_table():
    cells = parse_html(
        "<h2>Zoo</h2><table>"
        "<tr><td></td><td></td><td></td><td colspan=2>VEK280</td></tr>"
        "<tr><td colspan=3>Model Zoo Details &amp; Performance</td>"
        "<td colspan=2>1* C20B14CU1 @ 300MHz</td></tr>"
        "<tr><td>Task</td><td>Model</td><td>Accuracy</td><td>FPS Single</td><td>FPS Multi</td>"
        "</tr><tr><td>Detection</td><td>yolo</td><td>0.61</td><td>512.65</td><td>1024.67</td>"
        "</tr></table>"
    ).cells
    assert columns(cells) == [
        "Task",
        "Model",
        "Accuracy",
        "VEK280 / 1* C20B14CU1 @ 300MHz / FPS Single",
        "VEK280 / 1* C20B14CU1 @ 300MHz / FPS Multi",
    ]
    assert cells["table_title"][0] == "Zoo \u2014 Model Zoo Details & Performance"
    assert body(cells) == [["Detection", "yolo", "0.61", "512.65", "1024.67"]]


def test_th_rows_outside_thead_with_a_blank_corner_and_a_repeated_header_in_the_body():
    cells = parse_html(
        "<table><tr><th>Model</th><th colspan=2>Latency (ms)</th></tr>"
        "<tr><td></td><th>A100</th><th>H100</th></tr>"
        "<tr><td>BERT</td><td>5.1</td><td>3.2</td></tr>"
        "<tr><td></td><th>A100</th><th>H100</th></tr>"
        "<tr><td>GPT-J</td><td>51</td><td>30</td></tr></table>"
    ).cells
    assert columns(cells) == ["Model", "Latency (ms) / A100", "Latency (ms) / H100"]
    assert body(cells) == [["BERT", "5.1", "3.2"], ["GPT-J", "51", "30"]]


def test_a_row_of_placeholders_under_an_html_header_stays_a_row():
    cells = parse_html(
        "<table><tr><th>Model</th><th>Tokens/s</th></tr>"
        "<tr><td>Falcon 40B</td><td>coming soon</td></tr>"
        "<tr><td>Llama 2 7B</td><td>1,024</td></tr></table>"
    ).cells
    assert columns(cells) == ["Model", "Tokens/s"]
    assert body(cells) == [["Falcon 40B", "coming soon"], ["Llama 2 7B", "1,024"]]


# ---- Markdown and RST --------------------------------------------------------------------------


def test_a_units_row_under_a_pipe_header_and_its_repeat_in_the_body():
    cells = parse_pipe_tables(
        "| Model | Latency | Throughput |\n|---|---|---|\n|  | ms | img/s |\n"
        "| ResNet-50 | 5.1 | 1,200 |\n| Model | Latency | Throughput |\n|  | ms | img/s |\n"
        "| BERT | 9.0 | 300 |\n"
    ).cells
    assert columns(cells) == ["Model", "Latency / ms", "Throughput / img/s"]
    assert body(cells) == [["ResNet-50", "5.1", "1,200"], ["BERT", "9.0", "300"]]


def test_an_empty_pipe_header_takes_the_names_from_the_first_row():
    cells = parse_pipe_tables(
        "|  |  |\n|---|---|\n| Model | Throughput (img/s) |\n| ResNet-50 | 1,200 |\n"
    ).cells
    assert columns(cells) == ["Model", "Throughput (img/s)"]
    assert body(cells) == [["ResNet-50", "1,200"]]


def test_a_list_table_with_a_gpu_row_under_its_header_row():
    cells = parse_rst(
        ".. list-table::\n   :header-rows: 1\n\n"
        "   * - Model\n     - Latency (ms)\n     - Latency (ms)\n"
        "   * -\n     - A100\n     - H100\n"
        "   * - BERT\n     - 5.1\n     - 3.2\n"
    ).cells
    assert columns(cells) == ["Model", "Latency (ms) / A100", "Latency (ms) / H100"]
    assert body(cells) == [["BERT", "5.1", "3.2"]]


def test_a_page_of_tables_under_rows_of_words_reads_as_fast_as_plain_tables():
    """Each table's rows of words are looked at for a role in a bounded number of cells: a
    page of 2,000 such tables reads about as fast as one of plain tables (timed together, so
    that a busy machine slows both)."""
    width = 20
    header = "| " + " | ".join(f"h{i}" for i in range(width)) + " |\n|" + "---|" * width
    words = "| x | " + " | ".join(f"wq{j}" for j in range(width - 1)) + " |"
    numbers = "| y | " + " | ".join(str(j) for j in range(width - 1)) + " |"

    def page(first_rows: str) -> str:
        return "\n\n".join(
            "\n".join([header, *[first_rows.replace("q", f"{i}x")] * 4, numbers])
            for i in range(2000)
        )

    seconds = {"plain": [], "worded": []}
    for _ in range(3):  # the best of three, each: a busy machine slows one run, not all
        for kind, text in (("plain", page(numbers)), ("worded", page(words))):
            started = time.perf_counter()
            cells = parse_pipe_tables(text).cells
            seconds[kind].append(time.perf_counter() - started)
            assert cells.filter(pl.col("row_number") > 0).height == 2000 * 5 * width
    assert min(seconds["worded"]) < 3 * min(seconds["plain"]) + 1.0, seconds


# ---- sheets published as HTML ------------------------------------------------------------------

SHEET_ROW = (
    '<tr style="height: 20px"><th id="0R{n}" class="row-headers-background">'
    '<div class="row-header-wrapper" style="line-height: 20px">{n}</div></th>{cells}</tr>'
)


def sheet(rows: list[str], letters: str = "ABCE") -> str:
    """A sheet as Google Sheets publishes it: column letters (a hidden column skipped) in the
    thead, each row's number in a th leading it."""
    head = '<th class="row-header freezebar-origin-ltr"></th>' + "".join(
        f'<th class="column-headers-background">{letter}</th>' for letter in letters
    )
    body = "".join(SHEET_ROW.format(n=n, cells=cells) for n, cells in rows)
    return (
        f'<div class="ritz grid-container" dir="ltr"><table class="waffle"><thead><tr>'
        f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def test_a_published_sheet_is_read_without_its_column_letters_and_row_numbers():
    cells = parse_html(
        sheet(
            [
                (
                    1,
                    '<td rowspan="2">Model</td><td rowspan="2">Batch</td>'
                    '<td colspan="2">Throughput (img/s)</td>',
                ),
                (2, "<td>A100</td><td>H100</td>"),
                (3, "<td>ResNet-50</td><td>256</td><td>2,800</td><td>5,100</td>"),
                (5, "<td>BERT</td><td>64</td><td>1,200</td><td>2,600</td>"),
            ]
        )
    ).cells
    assert columns(cells) == [
        "Model",
        "Batch",
        "Throughput (img/s) / A100",
        "Throughput (img/s) / H100",
    ]
    assert body(cells) == [["ResNet-50", "256", "2,800", "5,100"], ["BERT", "64", "1,200", "2,600"]]


def test_letters_naming_a_tables_own_columns_stay_its_names():
    cells = parse_html(
        "<table><tr><th></th><th>A</th><th>B</th></tr>"
        "<tr><td>ResNet-50</td><td>2,800</td><td>5,100</td></tr></table>"
    ).cells
    assert columns(cells) == ["", "A", "B"]
    assert body(cells) == [["ResNet-50", "2,800", "5,100"]]


def test_a_tbody_row_of_th_cells_under_the_thead_is_a_level_of_the_header():
    cells = parse_html(
        "<table><thead><tr><th></th><th colspan=2>Throughput (img/s)</th></tr></thead>"
        "<tbody><tr><th>Model</th><th>A100</th><th>H100</th></tr>"
        "<tr><th>ResNet-50</th><td>2,800</td><td>5,100</td></tr></tbody></table>"
    ).cells
    assert columns(cells) == ["Model", "Throughput (img/s) / A100", "Throughput (img/s) / H100"]
    assert body(cells) == [["ResNet-50", "2,800", "5,100"]]


def test_a_title_in_a_row_of_its_own_over_a_row_of_th_names_the_table():
    cells = parse_html(
        "<h3>Inference</h3><table><tr><td>Results on A100</td><td></td><td></td></tr>"
        "<tr><th>Model</th><th>Batch</th><th>Throughput (img/s)</th></tr>"
        "<tr><td>ResNet-50</td><td>256</td><td>2,800</td></tr></table>"
    ).cells
    assert columns(cells) == ["Model", "Batch", "Throughput (img/s)"]
    assert cells["table_title"][0] == "Inference \u2014 Results on A100"
    assert body(cells) == [["ResNet-50", "256", "2,800"]]


# ---- tables with no header row -----------------------------------------------------------------


def test_a_first_row_of_data_is_no_header_and_stays_data():
    cells = parse_html(
        "<table><tr><td>ResNet-50</td><td>2,800</td></tr>"
        "<tr><td>BERT</td><td>1,200</td></tr></table>"
    ).cells
    assert columns(cells) == ["", ""]
    assert body(cells) == [["ResNet-50", "2,800"], ["BERT", "1,200"]]
    rst = parse_rst(
        ".. list-table::\n\n   * - ResNet-50\n     - 2,800\n   * - BERT\n     - 1,200\n"
    ).cells
    assert columns(rst) == ["", ""]
    assert body(rst) == [["ResNet-50", "2,800"], ["BERT", "1,200"]]


def test_a_first_row_naming_settings_with_numbers_stays_the_header():
    cells = parse_html(
        "<table><tr><td>Batch</td><td>1</td><td>8</td></tr>"
        "<tr><td>ResNet-50</td><td>900</td><td>2,800</td></tr></table>"
    ).cells
    assert columns(cells) == ["Batch", "1", "8"]
    assert body(cells) == [["ResNet-50", "900", "2,800"]]
