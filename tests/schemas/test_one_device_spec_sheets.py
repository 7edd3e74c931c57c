"""A table of two columns, a property and its value, under a caption naming hardware
specifications ("RNGD Hardware Specification") describes a device: its numbers (clock,
TFLOPS, memory, power) are no results of a run, and its words ("TSMC 5nm", "Yes") are no
values gone unread."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# furiosa-ai/furiosa-ai.github.io, v2026.3.0/en/overview/rngd.html (commit dbde36fc), its
# heading, the sentence stating the chip's throughputs, and its table, markup as published.
RNGD = """<html><head><title>FuriosaAI RNGD</title></head><body>
<section id="furiosaai-rngd">
<h1>FuriosaAI RNGD<a class="headerlink" href="#furiosaai-rngd" title="Link to this heading">#</a></h1>
<p>Fabricated on TSMC’s 5nm process node and operating at a 1.0 GHz clock frequency, RNGD delivers high-throughput execution across diverse precision formats, achieving 256 TFLOPS for BF16, 512 TFLOPS for FP8, 512 TOPS for INT8, and 1024 TOPS for INT4 workloads.</p>
<div class="pst-scrollable-table-container"><table class="table table-center" id="id1">
<caption><span class="caption-text">RNGD Hardware Specification</span><a class="headerlink" href="#id1" title="Link to this table">#</a></caption>
<colgroup>
<col style="width: 40.0%" />
<col style="width: 60.0%" />
</colgroup>
<tbody>
<tr class="row-odd"><td><p>Architecture</p></td>
<td><p>Tensor Contraction Processor</p></td>
</tr>
<tr class="row-even"><td><p>Process Node</p></td>
<td><p>TSMC 5nm</p></td>
</tr>
<tr class="row-odd"><td><p>Frequency</p></td>
<td><p>1.0 GHz</p></td>
</tr>
<tr class="row-even"><td><p>BF16</p></td>
<td><p>256 TFLOPS</p></td>
</tr>
<tr class="row-odd"><td><p>FP8</p></td>
<td><p>512 TFLOPS</p></td>
</tr>
<tr class="row-even"><td><p>INT8</p></td>
<td><p>512 TOPS</p></td>
</tr>
<tr class="row-odd"><td><p>INT4</p></td>
<td><p>1024 TOPS</p></td>
</tr>
<tr class="row-even"><td><p>Memory Bandwidth</p></td>
<td><p>HBM3 1.5TB/s</p></td>
</tr>
<tr class="row-odd"><td><p>Memory Capacity</p></td>
<td><p>HBM3 48GB</p></td>
</tr>
<tr class="row-even"><td><p>On-Chip SRAM</p></td>
<td><p>256MB</p></td>
</tr>
<tr class="row-odd"><td><p>Interconnect Interface</p></td>
<td><p>PCIe Gen5 x16</p></td>
</tr>
<tr class="row-even"><td><p>Thermal Solution</p></td>
<td><p>Passive</p></td>
</tr>
<tr class="row-odd"><td><p>Thermal Design Power (TDP)</p></td>
<td><p>150W</p></td>
</tr>
<tr class="row-even"><td><p>Power Connector</p></td>
<td><p>12VHPWR</p></td>
</tr>
<tr class="row-odd"><td><p>Form Factor</p></td>
<td><p>PCIe dual-slot full-height 3/4 Length</p></td>
</tr>
<tr class="row-even"><td><p>Multi-Instance Support</p></td>
<td><p>8</p></td>
</tr>
<tr class="row-odd"><td><p>Virtualization Support</p></td>
<td><p>Yes</p></td>
</tr>
<tr class="row-even"><td><p>SR-IOV</p></td>
<td><p>8 Virtual Functions</p></td>
</tr>
<tr class="row-odd"><td><p>ECC Memory Support</p></td>
<td><p>Yes</p></td>
</tr>
<tr class="row-even"><td><p>Secure Boot with Root of Trust</p></td>
<td><p>Yes</p></td>
</tr>
</tbody>
</table>
</div
</section></body></html>
"""

# furiosa-ai/furiosa-sdk, docs/en/source/software/performance.rst (commit 6f396351): a table of
# two columns whose caption names no specifications keeps loading.
YOLOX_QUANTIZE = """.. list-table:: Quantization in YOLOX_L
    :align: center
    :header-rows: 1

    * - Input type
      - ``Quantize`` execution time
    * - float32
      - 60.639 ms
    * - uint8
      - 0.277 ms
"""


def test_a_device_specification_sheet_loads_no_values_and_quarantines_none():
    document = normalized(RNGD, "text/html")
    assert document.measurements.height == 0
    assert document.quarantine.height == 0


def test_a_two_column_table_of_results_still_loads():
    rows = normalized(YOLOX_QUANTIZE, "text/x-rst").measurements
    assert rows.select("row_label", "metric", "value", "unit").rows() == [
        ("float32", "latency", 60.639, "ms"),
        ("uint8", "latency", 0.277, "ms"),
    ]
