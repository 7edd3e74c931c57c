"""An HTML page's blocks of code (<pre>): what a benchmark tool prints in them is read as a
Markdown page's fenced code is (its statistic lines, summaries and box tables are tables), the
rest is neither prose nor context; and a label over blank cells heads the rows under it, as
the Markdown group row it renders from. The pages are real pages as GitHub renders them."""

from __future__ import annotations

from perfledger.sources.layouts.html_table import parse_html
from tests.schemas.page_reading import normalized

# Tengine's benchmark README (OAID/Tengine, benchmark/README.md), its Loongson output.
TENGINE = """<html><body>
<h2>Benchmark</h2>
<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>-r</td><td>repeat count</td></tr></table>
<p>Loongson (Loongson-3A4000 1.8GHz x 4)</p>
<pre><code>lshf@lshf-PC:~/tengine$ ./tm_benchmark -r 5 -t 1 -a 1
loop_counts = 5
num_threads = 1
tengine-lite library version: 1.2-dev
     squeezenet_v1.1  min =   89.81 ms   max =   93.23 ms   avg =   90.62 ms
         mobilenetv1  min =  176.65 ms   max =  185.06 ms   avg =  180.75 ms
            resnet50  min =  814.42 ms   max =  845.91 ms   avg =  823.05 ms
ALL TEST DONE
</code></pre>
</body></html>"""

# NVIDIA GenAI-Perf's goodput guide (triton-inference-server/perf_analyzer,
# genai-perf/docs/goodput.md): the first rows of the box table it prints.
GENAI_PERF = """<html><body>
<h2>Run GenAI-Perf with Goodput Constraints</h2>
<pre><code>                                    NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓
┃                         Statistic ┃      avg ┃      min ┃      max ┃      p99 ┃      p90 ┃      p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩
│          Time to first token (ms) │    78.10 │    63.55 │   111.13 │   109.61 │    95.91 │    73.07 │
│          Inter token latency (ms) │    19.32 │    19.30 │    19.36 │    19.36 │    19.35 │    19.33 │
└───────────────────────────────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┘
</code></pre>
</body></html>"""

# CTranslate2's README (OpenNMT/CTranslate2), its CPU table as GitHub renders the Markdown.
CTRANSLATE2 = """<html><body>
<h4>CPU</h4>
<table><thead><tr><th></th><th>Tokens per second</th><th>Max. memory</th><th>BLEU</th></tr>
</thead><tbody>
<tr><td><strong>OpenNMT-tf WMT14 model</strong></td><td></td><td></td><td></td></tr>
<tr><td>OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0)</td><td>209.2</td><td>2653MB</td><td>26.93</td></tr>
<tr><td><strong>OpenNMT-py WMT14 model</strong></td><td></td><td></td><td></td></tr>
<tr><td>OpenNMT-py 3.0.4 (with PyTorch 1.13.1)</td><td>275.8</td><td>2012MB</td><td>26.77</td></tr>
</tbody></table>
<p>Executed with 4 threads on a <a href="https://aws.amazon.com/ec2/instance-types/c5/"><em>c5.2xlarge</em></a>
Amazon EC2 instance equipped with an Intel(R) Xeon(R) Platinum 8275CL CPU.</p>
</body></html>"""


def test_statistic_lines_printed_in_a_code_block_are_a_table_after_the_written_ones():
    parsed = parse_html(TENGINE)
    cells = parsed.cells.filter(parsed.cells["table_index"] == 1)
    # the written table is table 0; what the code prints comes after it
    avg = cells.filter(cells["column_name"] == "avg (ms)")["raw_value"].to_list()
    assert avg == ["avg (ms)", "90.62", "180.75", "823.05"]
    # the caption right above the code block titles the printed table, as in Markdown
    assert parsed.outline.filter(parsed.outline["kind"] == "caption")["text"].to_list() == [
        "Loongson (Loongson-3A4000 1.8GHz x 4)"
    ]
    # the code is no prose: its command line and version are not paragraphs
    assert not any("tm_benchmark" in text for _, text in parsed.prose)
    measurements = normalized(TENGINE, "text/html").measurements
    squeezenet = measurements.filter(measurements["raw_value"] == "90.62")
    assert squeezenet.select("metric", "unit", "value", "statistic").rows() == [
        ("latency", "ms", 90.62, "mean")
    ]


def test_a_box_table_printed_in_a_code_block_loads_its_values():
    measurements = normalized(GENAI_PERF, "text/html").measurements
    first_token = measurements.filter(measurements["raw_value"] == "78.10")
    assert first_token.select("metric", "unit", "value").rows() == [("latency", "ms", 78.1)]
    assert sorted(measurements["value"].to_list()) == sorted(
        [78.10, 63.55, 111.13, 109.61, 95.91, 73.07, 19.32, 19.30, 19.36, 19.36, 19.35, 19.33]
    )


def test_a_label_over_blank_cells_names_the_rows_under_it():
    measurements = normalized(CTRANSLATE2, "text/html").measurements
    tokens = measurements.filter(measurements["column_name"] == "Tokens per second")
    assert tokens.select("raw_value", "model").rows() == [
        ("209.2", "OpenNMT-tf WMT14"),
        ("275.8", "OpenNMT-py WMT14"),
    ]


def test_a_label_over_blank_cells_ending_the_table_is_a_row_of_its_own():
    page = """<table><tr><th>Model</th><th>Batch Size</th><th>Precision</th></tr>
    <tr><td>BERT Large</td><td>8</td><td>FP16</td></tr>
    <tr><td>ResNet-50</td><td></td><td></td></tr></table>"""
    cells = parse_html(page).cells
    assert cells.filter(cells["row_number"] == 2)["raw_value"].to_list() == ["ResNet-50", "", ""]


# PaddleLite's TIM-VX page (PaddlePaddle/Paddle-Lite, docs/demo_guides/verisilicon_timvx.md),
# its results table as GitHub renders it: each board's name over two columns, a blank header
# cell to its right.
PADDLE_LITE = """<html><body><ul><li><p>测试结果</p>
<table><thead><tr><th>模型</th><th>A311D</th><th></th><th>S905D3</th><th></th></tr></thead>
<tbody>
<tr><td></td><td>CPU(ms)</td><td>NPU(ms)</td><td>CPU(ms)</td><td>NPU(ms)</td></tr>
<tr><td>mobilenet_v1_int8_224_per_layer</td><td>81.6321</td><td>5.1125</td><td>280.4659</td>
<td>12.8081</td></tr>
<tr><td>mobilenet_v2_int8_224_per_layer</td><td>124.5915</td><td>7.2110</td><td>350.2003</td>
<td>17.4572</td></tr>
</tbody></table></li></ul></body></html>"""


def test_a_group_header_over_a_blank_header_cell_names_both_columns():
    measurements = normalized(PADDLE_LITE, "text/html").measurements
    first = measurements.filter(measurements["model"] == "mobilenet_v1_int8_224_per_layer")
    assert first.select("column_name", "value", "accelerator").rows() == [
        ("A311D / CPU(ms)", 81.6321, "A311D"),
        ("A311D / NPU(ms)", 5.1125, "A311D"),
        ("S905D3 / CPU(ms)", 280.4659, "S905D3"),
        ("S905D3 / NPU(ms)", 12.8081, "S905D3"),
    ]
