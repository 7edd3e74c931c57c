"""Reading gaps found on the benchmark pages of documentation sources (HTML tables kept in a
Markdown page, reStructuredText tables, a book of Markdown chapters): header cells that stand
outside any row, a time per iteration under a "train time" header, the settings of a model
written as columns beside its results."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As facebookresearch/detectron2's MODEL_ZOO.md writes its tables: the header cells right
# inside <tbody>, before the first <tr> (the page's own generator writes them so; a browser
# builds a row around them), and the times per training iteration and per image.
DETECTRON2_FASTER_RCNN = """# Detectron2 Model Zoo and Baselines

All numbers were obtained on Big Basin servers with 8 NVIDIA V100 GPUs & NVLink.

#### Faster R-CNN:

<table><tbody>
<!-- START TABLE -->
<!-- TABLE HEADER -->
<th valign="bottom">Name</th>
<th valign="bottom">lr<br/>sched</th>
<th valign="bottom">train<br/>time<br/>(s/iter)</th>
<th valign="bottom">inference<br/>time<br/>(s/im)</th>
<th valign="bottom">train<br/>mem<br/>(GB)</th>
<th valign="bottom">box<br/>AP</th>
<th valign="bottom">model id</th>
<th valign="bottom">download</th>
<!-- TABLE BODY -->
<!-- ROW: faster_rcnn_R_50_C4_1x -->
 <tr><td align="left"><a href="configs/COCO-Detection/faster_rcnn_R_50_C4_1x.yaml">R50-C4</a></td>
<td align="center">1x</td>
<td align="center">0.551</td>
<td align="center">0.102</td>
<td align="center">4.8</td>
<td align="center">35.7</td>
<td align="center">137257644</td>
<td align="center"><a href="https://dl.fbaipublicfiles.com/detectron2/model_final_721ade.pkl">model</a>&nbsp;|&nbsp;<a href="https://dl.fbaipublicfiles.com/detectron2/metrics.json">metrics</a></td>
</tr>
<!-- ROW: faster_rcnn_R_50_DC5_1x -->
 <tr><td align="left"><a href="configs/COCO-Detection/faster_rcnn_R_50_DC5_1x.yaml">R50-DC5</a></td>
<td align="center">1x</td>
<td align="center">0.380</td>
<td align="center">0.068</td>
<td align="center">5.0</td>
<td align="center">37.3</td>
<td align="center">137847829</td>
<td align="center"><a href="https://dl.fbaipublicfiles.com/detectron2/model_final_51d356.pkl">model</a>&nbsp;|&nbsp;<a href="https://dl.fbaipublicfiles.com/detectron2/metrics.json">metrics</a></td>
</tr>
</tbody></table>
"""


def test_header_cells_outside_any_row_head_the_table() -> None:
    document = normalized(DETECTRON2_FASTER_RCNN)
    assert document.quarantine.height == 0
    loaded = {
        (row["raw_value"], row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert ("35.7", "accuracy", 35.7, "score") in loaded
    assert ("5.0", "other", 5.0, "GB") in loaded
    assert {row["accelerator"] for row in document.measurements.iter_rows(named=True)} == {"V100"}


def test_a_time_per_iteration_under_train_time_is_the_time_of_one_iteration() -> None:
    values = fields_by_raw_value(DETECTRON2_FASTER_RCNN, "metric", "value", "unit")
    # "train time (s/iter)": 0.551 s per iteration, not a whole training run of 0.551 s
    assert values["0.551"] == ("latency", 551.0, "ms")
    assert values["0.380"] == ("latency", 380.0, "ms")
    # "inference time (s/im)": seconds per image
    assert values["0.102"] == ("latency", 102.0, "ms")
    assert values["0.068"] == ("latency", 68.0, "ms")


def test_the_learning_rate_schedule_is_a_setting() -> None:
    values = fields_by_raw_value(DETECTRON2_FASTER_RCNN, "metric")
    assert "1x" not in values  # "lr sched" 1x: not a speedup of 1


# As MyrtleSoftware/vollo-sdk's docs/mdbook/src/benchmark-cnn.md gives its models' shape
# beside their latencies.
VOLLO_CNN = """# 1D Convolutional neural networks (CNN)

## V80: 6 cores, block size 32

| Model     |   Layers |   Channels | Parameters   |   Mean latency (us) |   99th percentile latency (us) |
|-----------|----------|------------|--------------|---------------------|--------------------------------|
| cnn_tiny  |        3 |        128 | 393K         |                 1.5 |                            1.8 |
| cnn_small |        3 |        256 | 1.6M         |                 1.8 |                            2.0 |
"""


def test_channels_of_a_model_are_a_setting_not_a_latency() -> None:
    document = normalized(VOLLO_CNN)
    assert document.quarantine.height == 0
    values = fields_by_raw_value(VOLLO_CNN, "model", "metric", "value", "unit")
    assert set(values) == {"1.5", "1.8", "2.0"}
    assert values["1.5"] == ("cnn_tiny", "latency", 0.0015, "ms")
