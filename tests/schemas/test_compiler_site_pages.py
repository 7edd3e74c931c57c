"""Reading gaps found on the built HTML sites of deep learning compilers no corpus held: the
sentence above a table saying what was tested states its batch size, a dash followed by a note
reference still says no value was published, and a shape written with its dtype states the
precision."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As apache/tvm-site's 2018/10/03/auto-opt-all.html shows "All Our Results": an empty header
# row, the networks in the first body row, the device classes as rows of their own, and two
# cells pointing at the notes below the table.
TVM_ALL_RESULTS = """<html><body>
<h2 id="all-our-results">All Our Results</h2>
<p>We tested the following networks on ImageNet (3x224x224) dataset with batch size = 1 and \
data type = float32.
The reported numbers are time costs per image in milliseconds.</p>
<table>
  <thead><tr><th> </th><th> </th><th> </th><th> </th><th> </th></tr></thead>
  <tbody>
    <tr><td> </td><td><strong>densenet121</strong></td><td><strong>mobilenet v2</strong></td>
      <td><strong>resnet50</strong></td><td><strong>vgg16</strong></td></tr>
    <tr><td><strong>ARM CPU</strong></td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>Raspberry Pi 3B</td><td>609.5</td><td>103.7</td><td>725.8</td><td>1759.6</td></tr>
    <tr><td>Xilinx PYNQ</td><td>2888.3</td><td>514.3</td><td>3580.5</td>
      <td><sup>-(Note 1)</sup></td></tr>
    <tr><td><strong>NVIDIA GPU</strong></td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>GTX 1080 Ti</td><td>3.6</td><td>- <sup>(Note 2) </sup></td><td>2.7</td>
      <td>4.0</td></tr>
  </tbody>
</table>
<ul>
  <li>Note 1: Out of memory on this board.</li>
  <li>Note 2: We didn't tune some small networks on GPU due to time constraints.</li>
</ul>
</body></html>
"""


def _rows() -> dict[str, tuple]:
    found = normalized(TVM_ALL_RESULTS, "text/html").measurements
    return {
        f"{row['platform']} {row['model']}": (
            row["value"],
            row["unit"],
            row["metric"],
            row["precision"],
            row["batch_size"],
        )
        for row in found.iter_rows(named=True)
    }


def test_the_sentence_saying_what_was_tested_states_the_batch_size():
    rows = _rows()
    assert rows["Raspberry Pi 3B densenet121"] == (609.5, "ms", "latency", "float32", "1")
    assert rows["Xilinx PYNQ resnet50"] == (3580.5, "ms", "latency", "float32", "1")
    assert rows["GTX 1080 Ti vgg16"] == (4.0, "ms", "latency", "float32", "1")
    assert len(rows) == 10


def test_a_dash_with_a_note_reference_is_a_value_not_published():
    document = normalized(TVM_ALL_RESULTS, "text/html")
    problems = {row["raw_value"]: row["check"] for row in document.quarantine.iter_rows(named=True)}
    assert problems == {"- (Note 2)": "placeholder_value", "-(Note 1)": "placeholder_value"}


# As iree-org/iree's community/blog/2026-05-28-virtual-dense-mfmas-for-skinny-gemm shows its
# kernel timings: each row's GEMM shape written with the dtype its operands hold.
IREE_SKINNY_GEMM = """<html><body>
<h2 id="performance">Performance</h2>
<p>The first end-to-end 16-bit selection change reported the following numbers on
CDNA3, compared with the padded dense baseline:</p>
<table>
<thead><tr><th>Shape</th><th style="text-align: right;">VDMFMA</th>
<th style="text-align: right;">Baseline</th><th style="text-align: right;">Improvement</th></tr>
</thead>
<tbody>
<tr><td><code>f16_8x13312x16384</code></td><td style="text-align: right;">189 us</td>
<td style="text-align: right;">206 us</td><td style="text-align: right;">+8.3%</td></tr>
<tr><td><code>f16_8x13312x8192</code></td><td style="text-align: right;">117 us</td>
<td style="text-align: right;">116 us</td><td style="text-align: right;">-</td></tr>
</tbody>
</table>
</body></html>
"""


def test_a_shape_written_with_its_dtype_states_the_precision():
    found = normalized(IREE_SKINNY_GEMM, "text/html").measurements
    rows = {
        (row["raw_value"], row["column_name"]): (row["value"], row["unit"], row["precision"])
        for row in found.iter_rows(named=True)
    }
    assert rows[("189 us", "VDMFMA")] == (0.189, "ms", "f16")
    assert rows[("206 us", "Baseline")] == (0.206, "ms", "f16")
    assert rows[("116 us", "Baseline")] == (0.116, "ms", "f16")
    assert {row["activation_dtype"] for row in found.iter_rows(named=True)} == {"fp16"}


# As apache/tvm-site's 2018/03/23/nmt-transformer-optimize.html shows its search for the
# best thread numbers: two columns of a kernel's launch parameters beside its time.
TVM_THREAD_SEARCH = """<html><body>
<h4 id="finding-the-best-combination-of-number_thread">Finding the best combination of \
number_thread</h4>
<p>The results below are obtained on a NVIDIA M40 GPU device with CUDA8.0.</p>
<table>
  <thead><tr><th>Input Shape [batch,features,M,N,K]</th><th>num_thread_y, num_thread_x</th>
    <th>num_vthread_y, num_vthread_x</th><th>Time(us)</th></tr></thead>
  <tbody>
    <tr><td>[64,8,1,17,128]</td><td>8,1</td><td>32,1</td><td>37.62</td></tr>
    <tr><td>[64,8,1,17,128]</td><td>1,1</td><td>32,1</td><td>38.82</td></tr>
    <tr><td>[64,8,1,17,128]</td><td>1,1</td><td>256,1</td><td>41.95</td></tr>
  </tbody>
</table>
</body></html>
"""


def test_a_kernels_launch_parameters_are_settings_of_its_time():
    document = normalized(TVM_THREAD_SEARCH, "text/html")
    assert document.quarantine.height == 0
    rows = {
        row["raw_value"]: (row["value"], row["unit"], row["accelerator"], row["settings"])
        for row in document.measurements.iter_rows(named=True)
    }
    shape = "Input Shape [batch,features,M,N,K]=[64,8,1,17,128]"
    assert rows["37.62"] == (
        0.03762,
        "ms",
        "M40",
        f"{shape}; num_thread_y=8; num_thread_x=1; num_vthread_y=32; num_vthread_x=1",
    )
    assert rows["41.95"][3].endswith("num_vthread_y=256; num_vthread_x=1")
    assert len(rows) == 3
