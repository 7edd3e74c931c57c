"""Property-based fuzzing of the parsers: no exception escapes, and every cell is where it says."""

from __future__ import annotations

import html
import math

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.parsers import check_cells_in_place, check_one_input, seed_inputs
from perfledger.schemas.cells import CellSchema
from perfledger.schemas.labels import split_precision
from perfledger.schemas.normalize import DocumentContext, normalize_cells
from perfledger.schemas.numbers import (
    is_empty_cell,
    leading_number_and_rest,
    parse_duration_seconds,
    parse_number,
)
from perfledger.schemas.validate import validate_measurements
from perfledger.sources.decode import UndecodableDocument, decode_document
from perfledger.sources.layouts.html_table import collapse_space, parse_html
from perfledger.sources.layouts.pipe_table import parse_pipe_tables
from perfledger.sources.layouts.text_capture import parse_text_capture, split_lines
from perfledger.sources.parse import ParseFailure, parse_document
from tests.reliability.hostile import all_hostile

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEADERS = (
    "Model",
    "Platform",
    "Precision",
    "Throughput (items/sec)",
    "Batch Size",
    "Latency (ms)",
    "SDK Version",
    "Framework",
    "Time to Train (mins)",
    "Dataset",
)
LINE_BREAKS = ("\n", "\r\n", "\r", "\u2028", "\x0c")
CONTEXT = DocumentContext(
    "fuzz", "https://example.invalid/", "0" * 64, None, "2024-01-01T00:00:00Z", "fuzz/1"
)

# Cell text: digits, separators and words that look like values, plus the Unicode a page
# may hold (no-break and thin spaces, zero-width and bidi marks, full-width digits).
cell_alphabet = st.sampled_from(
    list("0123456789,.  %xkms-~aAbBzZ")
    + [
        "\u00a0",
        "\u2009",
        "\u200b",
        "\u202e",
        "\uff11",
        "\u00b9",
        "*",
        "Bow Pod16 ",
        "ResNet-50 ",
        "A100",
        "16.16",
        "N/A",
        "\u2013",
    ]
)
cell_texts = st.lists(cell_alphabet, max_size=12).map("".join)
plain_floats = st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False)


def evaluate(expression: pl.Expr, texts: list[str | None]) -> list:
    return (
        pl.DataFrame({"text": texts}, schema={"text": pl.String})
        .select(expression.alias("out"))["out"]
        .to_list()
    )


def column(expression_of) -> pl.Expr:
    return expression_of(pl.col("text"))


# ---- text captures ----------------------------------------------------------------------


@st.composite
def text_captures(draw) -> str:
    header = draw(st.lists(st.sampled_from(HEADERS), min_size=3, max_size=6, unique=True))
    rows = draw(
        st.lists(
            st.lists(cell_texts, min_size=len(header) - 1, max_size=len(header) + 1), max_size=6
        )
    )
    lines = [draw(cell_texts), "", *header] + [cell for row in rows for cell in row]
    lines += draw(st.lists(st.one_of(cell_texts, st.just("")), max_size=4))
    cut = draw(st.integers(min_value=0, max_value=len(lines)))
    lines = lines[:cut] if draw(st.booleans()) else lines
    return "".join(line + draw(st.sampled_from(LINE_BREAKS)) for line in lines)


@FAST
@given(st.one_of(text_captures(), st.text(max_size=400)))
def test_text_capture_cells_are_lines_of_the_input(text):
    parsed = parse_text_capture(text)
    CellSchema.validate(parsed.cells)
    check_cells_in_place(parsed.cells)
    lines = split_lines(text.removeprefix("\ufeff"))
    for raw_value, line_number in parsed.cells.select("raw_value", "line_number").iter_rows():
        assert lines[line_number - 1] == raw_value


# ---- HTML tables ------------------------------------------------------------------------

span_values = st.one_of(
    st.none(),
    st.integers(min_value=-3, max_value=3000).map(str),
    st.sampled_from(["", "x", " 2 ", "1e9", "9" * 5000, "0", "-1"]),
)


@st.composite
def html_tables(draw) -> tuple[str, set[str], bool]:
    texts: set[str] = set()

    def cell(tag: str) -> str:
        text = draw(cell_texts)
        texts.add(collapse_space(text))
        spans = "".join(
            f' {name}="{html.escape(value)}"'
            for name in ("colspan", "rowspan")
            if (value := draw(span_values)) is not None
        )
        return f"<{tag}{spans}>{html.escape(text)}</{tag}>"

    header = "<tr>" + "".join(cell("th") for _ in range(draw(st.integers(2, 5)))) + "</tr>"
    rows = [
        "<tr>"
        + "".join(
            cell(draw(st.sampled_from(["td", "td", "th"]))) for _ in range(draw(st.integers(0, 6)))
        )
        + "</tr>"
        for _ in range(draw(st.integers(0, 6)))
    ]
    table = "<table>" + header + "".join(rows) + "</table>"
    wrapper = draw(
        st.sampled_from(
            [
                "{}",
                "<div>{}</div>",
                "<!-- {} -->{}",
                "<script>{}</script>{}",
                "<table><tr><td>{}</td></tr></table>",
                "{}<p>after",
            ]
        )
    )
    page = wrapper.replace("{}", table)
    cut = draw(st.integers(min_value=len(page) // 2, max_value=len(page)))
    truncated = cut < len(page) and draw(st.booleans())
    return page[:cut] if truncated else page, texts, truncated


@FAST
@given(html_tables())
def test_html_cells_are_cells_of_the_input(generated):
    page, texts, truncated = generated
    parsed = parse_html(page)
    CellSchema.validate(parsed.cells)
    check_cells_in_place(parsed.cells)
    data = parsed.cells.filter(pl.col("row_number") > 0)["raw_value"].to_list()
    if not truncated:  # a page cut inside a tag shows the tag's first characters as text
        # A slot no cell fills, or the cell a short row lost, reads as an empty cell.
        assert set(data) <= texts | {""}


@FAST
@given(st.text(max_size=300))
def test_html_parser_takes_any_text(text):
    check_cells_in_place(parse_html(text).cells)


# ---- Markdown pipe tables ---------------------------------------------------------------

pipe_cell_texts = cell_texts.map(lambda text: text.replace("*", "").strip(" \t"))


@st.composite
def pipe_tables(draw) -> tuple[str, set[str]]:
    width = draw(st.integers(1, 5))
    header = draw(st.lists(st.sampled_from(HEADERS), min_size=width, max_size=width))
    rows = draw(
        st.lists(
            st.lists(pipe_cell_texts, min_size=max(1, width - 1), max_size=width + 1), max_size=6
        )
    )
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n", {cell for row in rows for cell in row}


@FAST
@given(pipe_tables())
def test_pipe_table_cells_are_cells_of_the_input(table_and_texts):
    table, texts = table_and_texts
    parsed = parse_pipe_tables(table)
    CellSchema.validate(parsed.cells)
    check_cells_in_place(parsed.cells)
    data = parsed.cells.filter(pl.col("row_number") > 0)["raw_value"].to_list()
    assert set(data) <= texts | {""}


@FAST
@given(st.text(alphabet=st.sampled_from(list("|-:# *_[]()<>!`\\~a1 \n")), max_size=300))
def test_pipe_table_parser_takes_any_markdown(text):
    check_cells_in_place(parse_pipe_tables(text).cells)


# ---- numbers, durations, precisions -----------------------------------------------------


@FAST
@given(
    plain_floats,
    st.integers(0, 4),
    st.sampled_from([",", " ", "'", "\u00a0", "\u2009"]),
    st.sampled_from(["", "-", "~", "\u2248 "]),
    st.sampled_from(["", "\u00b9", "*", "\u2020"]),
)
def test_a_formatted_number_reads_back(value, decimals, separator, prefix, footnote):
    printed = f"{value:,.{decimals}f}"
    expected = float(printed.replace(",", ""))
    cell = prefix + printed.replace(",", separator) + footnote
    (number,) = evaluate(column(parse_number), [cell])
    assert number == pytest.approx(-expected if prefix == "-" else expected, rel=1e-12)


@FAST
@given(st.integers(0, 10**9), st.sampled_from(["k", "K", " thousand", "m", " million", "bn"]))
def test_a_number_with_a_magnitude_word_reads_back(value, suffix):
    factor = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9}
    (number,) = evaluate(column(parse_number), [f"{value}{suffix}"])
    assert number == value * factor[suffix.strip().lower()]


@FAST
@given(st.integers(0, 30), st.integers(0, 23), st.integers(0, 59), st.integers(0, 59))
def test_a_written_duration_reads_back(days, hours, minutes, seconds):
    spelled = f"{days}d {hours}h {minutes}m {seconds}s"
    clock = f"{hours}:{minutes:02d}:{seconds:02d}"
    durations = column(lambda text: parse_duration_seconds(text, pl.lit(None, pl.Float64)))
    assert evaluate(durations, [spelled, clock]) == [
        days * 86400 + hours * 3600 + minutes * 60 + seconds,
        hours * 3600 + minutes * 60 + seconds,
    ]


@FAST
@given(
    st.sampled_from(["8", "16", "32"]),
    st.sampled_from(["8", "16", "32"]),
    st.sampled_from([".", "/", " . "]),
)
def test_a_precision_pair_splits_into_its_two_types(activation, weight, separator):
    activations, weights = split_precision(pl.col("text"))
    assert evaluate(activations, [activation + separator + weight]) == [f"fp{activation}"]
    assert evaluate(weights, [activation + separator + weight]) == [f"fp{weight}"]


@FAST
@given(st.lists(st.one_of(st.none(), st.text(max_size=60), cell_texts), max_size=20))
def test_no_text_makes_a_number_parser_raise(texts):
    activations, weights = split_precision(pl.col("text"))
    score, rest = leading_number_and_rest(pl.col("text"))
    expressions = [
        column(parse_number),
        column(is_empty_cell),
        activations,
        weights,
        score,
        rest,
        column(lambda text: parse_duration_seconds(text, pl.lit(60.0))),
    ]
    for expression in expressions:
        values = evaluate(expression, texts)
        assert len(values) == len(texts)
    for number in evaluate(column(parse_number), texts):
        assert number is None or isinstance(number, float)


# ---- bytes to cells to measurements ------------------------------------------------------


@FAST
@given(
    st.binary(max_size=400),
    st.sampled_from([None, "text/html; charset=utf-16", "text/plain; charset=shift_jis", "x"]),
)
def test_any_bytes_decode_or_are_refused(data, content_type):
    try:
        text, encoding = decode_document(data, content_type)
    except UndecodableDocument:
        return
    assert isinstance(text, str) and encoding


@FAST
@given(st.binary(max_size=600), st.sampled_from(["", "text/html", "text/markdown", "text/plain"]))
def test_any_bytes_parse_or_fail_with_a_reason(data, content_type):
    try:
        parsed, _layout = parse_document(data, content_type)
    except ParseFailure as failure:
        assert str(failure)
        return
    check_cells_in_place(parsed.cells)


@SLOW
@given(text_captures())
def test_normalized_values_are_finite_numbers_from_the_cells(text):
    parsed = parse_text_capture(text)
    normalized = normalize_cells(parsed.cells, CONTEXT)
    good, invalid = validate_measurements(normalized.measurements)
    raw_values = set(parsed.cells["raw_value"].to_list())
    for raw_value, value in good.select("raw_value", "value").iter_rows():
        assert raw_value in raw_values
        assert value is not None and math.isfinite(value)
    assert good.height + invalid.height == normalized.measurements.height


# ---- the atheris target, run over its seeds so it cannot rot -------------------------------


@pytest.mark.parametrize("seed", seed_inputs(), ids=lambda path: path.name)
def test_the_fuzz_target_accepts_its_seed_corpus(seed):
    check_one_input(seed.read_bytes())


@pytest.mark.parametrize("case", all_hostile(), ids=lambda case: case.name)
def test_the_fuzz_target_accepts_every_hostile_document(case):
    check_one_input(case.data)
