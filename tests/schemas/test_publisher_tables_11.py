"""Tables of compiler and accelerator publishers no corpus holds, written as their pages write
them: a compiler's blog naming a model in each column over rows of devices, the metric and
unit stated in the paragraph above the table."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As apache/tvm-site renders it (2018/10/03/auto-opt-all.html, "All Our Results"): an empty
# <thead>, the models in the first body row, section rows naming each device class, and the
# unit only in the paragraph above ("time costs per image in milliseconds"). Rows cut to four.
TVM_ALL_RESULTS = """<html lang="en"><body>
<h2 id="all-our-results">All Our Results</h2>
<p>We tested the following networks on ImageNet (3x224x224) dataset with batch size = 1 and data type = float32.
The reported numbers are time costs per image in milliseconds.</p>
<table>
  <thead>
    <tr><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th></tr>
  </thead>
  <tbody>
    <tr><td> </td><td><strong>densenet121</strong></td><td><strong>inception v3</strong></td><td><strong>mobilenet</strong></td><td><strong>mobilenet v2</strong></td><td><strong>resnet18</strong></td><td><strong>resnet50</strong></td><td><strong>squeezenet v1.0</strong></td><td><strong>squeezenet v1.1</strong></td><td><strong>vgg16</strong></td><td><strong>vgg19</strong></td></tr>
    <tr><td><strong>ARM CPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>Raspberry Pi 3B</td><td>609.5</td><td>2070.4</td><td>122.2</td><td>103.7</td><td>322.5</td><td>725.8</td><td>185.1</td><td>94.1</td><td>1759.6</td><td>2118.6</td></tr>
    <tr><td><strong>NVIDIA GPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>GTX TITAN X</td><td>5.8</td><td>9.7</td><td>1.0</td><td>-</td><td>-</td><td>4.3</td><td>-</td><td>-</td><td>6.4</td><td>7.5</td></tr>
  </tbody>
</table>
</body></html>
"""

_FIELDS = ("row_label", "column_name", "metric", "value", "unit", "model_canonical", "accelerator")


def test_a_column_named_after_a_model_measures_what_the_paragraph_above_states():
    result = normalized(TVM_ALL_RESULTS, "text/html")
    # the Titan's four "-" say no value was published; no number is held back
    assert result.quarantine["check"].to_list() == ["placeholder_value"] * 4
    rows = {
        (row["row_label"], row["column_name"]): tuple(row[field] for field in _FIELDS[2:])
        for row in result.measurements.iter_rows(named=True)
    }
    assert len(rows) == 16  # ten numbers of the Pi's row, six of the Titan's
    assert rows[("Raspberry Pi 3B", "resnet50")] == (
        "latency",
        725.8,
        "ms",
        "ResNet-50",
        "BCM2837",
    )
    assert rows[("GTX TITAN X", "mobilenet")] == ("latency", 1.0, "ms", "MobileNet v1", "Titan X")
    precisions = set(result.measurements["activation_dtype"]) | set(
        result.measurements["weight_dtype"]
    )
    assert precisions == {"fp32"}
