"""The permalink a doc generator writes into each heading and caption ('<a
class="headerlink">#</a>' in the PyData Sphinx theme and its like) is no word of the heading:
titles read "Results", not "Results#"."""

from __future__ import annotations

from perfledger.sources.parse import parse_document

# furiosa-ai/furiosa-ai.github.io, v2026.3.0/en/overview/rngd.html (commit dbde36fc), its
# heading and the first rows of its table, markup as published.
RNGD = """<html><head><title>FuriosaAI RNGD</title></head><body>
<section id="furiosaai-rngd">
<span id="rngd"></span><h1>FuriosaAI RNGD<a class="headerlink" href="#furiosaai-rngd" title="Link to this heading">#</a></h1>
<p>RNGD is FuriosaAI’s second-generation Neural Processing Unit (NPU) designed to accelerate deep learning inference.</p>
<p>RNGD implements the Tensor Contraction Processor (TCP), a novel architecture designed to natively execute complex tensor contractions—the core mathematical operations underlying modern deep learning—directly in hardware.
By leveraging this paradigm, the NPU maximizes both compute utilization and energy efficiency.
Fabricated on TSMC’s 5nm process node and operating at a 1.0 GHz clock frequency, RNGD delivers high-throughput execution across diverse precision formats, achieving 256 TFLOPS for BF16, 512 TFLOPS for FP8, 512 TOPS for INT8, and 1024 TOPS for INT4 workloads.</p>
<div class="pst-scrollable-table-container"><table class="table table-center" id="id1">
<caption><span class="caption-text">RNGD Hardware Specification</span><a class="headerlink" href="#id1" title="Link to this table">#</a></caption>
<tbody>
<tr class="row-odd"><td><p>Architecture</p></td>
<td><p>Tensor Contraction Processor</p></td>
</tr>
<tr class="row-odd"><td><p>Frequency</p></td>
<td><p>1.0 GHz</p></td>
</tr>
<tr class="row-even"><td><p>On-Chip SRAM</p></td>
<td><p>256MB</p></td>
</tr>
</tbody>
</table></div>
</section></body></html>
"""


def test_headings_and_captions_leave_out_their_permalinks():
    parsed, _layout = parse_document(RNGD.encode(), "text/html")
    outline = parsed.outline.filter(parsed.outline["kind"].is_in(["heading", "caption"]))
    assert outline.select("kind", "text").rows() == [
        ("heading", "FuriosaAI RNGD"),
        ("caption", "RNGD Hardware Specification"),
    ]


def test_cells_carry_the_caption_without_its_mark():
    parsed, _layout = parse_document(RNGD.encode(), "text/html")
    assert set(parsed.cells.get_column("table_title")) == {"RNGD Hardware Specification"}
    assert parsed.metadata.title == "FuriosaAI RNGD"
