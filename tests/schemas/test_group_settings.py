"""A batch size stated once per group of columns ("Throughput Inference" and "Realtime
Inference", each with its own "Batch Size" and "Boost Ratio") is the batch size of that
group's results."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As intel/intel-extension-for-pytorch's Sphinx page shows it (gh-pages,
# cpu/2.0.100+cpu/tutorials/performance.html, "INT8 with v1.11"), its first two rows.
TWO_GROUPS = """<h3>Performance Numbers</h3>
<table border="1" cellpadding="10" align="center" class="perf_table">
<tbody>
  <tr>
    <th rowspan="2" scope="col">Hardware</th>
    <th rowspan="2" scope="col">Workload<sup>1</sup></th>
    <th rowspan="2" scope="col">Precision</th>
    <th colspan="2" scope="colgroup">Throughput Inference<sup>2</sup></th>
    <th colspan="2" scope="colgroup">Realtime Inference<sup>3</sup></th>
    <th rowspan="2" scope="col">Model Type</th>
  </tr>
  <tr>
    <th scope="col">Batch Size</th>
    <th scope="col">Boost Ratio</th>
    <th scope="col">Batch Size</th>
    <th scope="col">Boost Ratio</th>
  </tr>
  <tr>
    <td rowspan="2" scope="col">Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz</td>
    <td scope="col">ResNet50</td>
    <td scope="col">INT8</td>
    <td scope="col">80</td>
    <td scope="col">1.83x</td>
    <td scope="col">1</td>
    <td scope="col">1.44x</td>
    <td scope="col">Computer Vision</td>
  </tr>
  <tr>
    <td scope="col">SSD-ResNet34</td>
    <td scope="col">INT8</td>
    <td scope="col">80</td>
    <td scope="col">2.16x</td>
    <td scope="col">1</td>
    <td scope="col">1.83x</td>
    <td scope="col">Computer Vision</td>
  </tr>
</tbody>
</table>
"""

ONE_RUN_TWO_SIZES = """## Training

| Model | Batch size | Global batch size | Throughput (samples/s) |
|---|---|---|---|
| BERT-Large | 32 | 256 | 1234.5 |
"""


def _by_cell(page: str, content_type: str) -> dict[tuple[str, str], tuple]:
    measurements = normalized(page, content_type).measurements
    return {
        (row["model"], row["column_name"]): (row["value"], row["batch_size"])
        for row in measurements.iter_rows(named=True)
    }


def test_each_group_of_columns_has_its_own_batch_size():
    found = _by_cell(TWO_GROUPS, "text/html")
    assert found[("ResNet50", "Throughput Inference² / Boost Ratio")] == (1.83, "80")
    assert found[("ResNet50", "Realtime Inference³ / Boost Ratio")] == (1.44, "1")
    assert found[("SSD-ResNet34", "Realtime Inference³ / Boost Ratio")] == (1.83, "1")


def test_two_sizes_before_the_results_state_one_run():
    found = _by_cell(ONE_RUN_TWO_SIZES, "text/markdown")
    assert found[("BERT-Large", "Throughput (samples/s)")] == (1234.5, "32")
