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


# As MyrtleSoftware/vollo-sdk's docs/mdbook/src/benchmark-io.md states its unit in prose, as
# code, after a paragraph that says "difference" in passing, and names its card as a board.
VOLLO_IO = """# IO Round Trip

More specifically this Vollo accelerator program waits for the last input byte to arrive
before it sends the first output byte back. This method takes into account some of the
overheads (such as copying to the DMA buffer in the Vollo runtime) associated with IO
and this test is set up to see how it scales with difference sizes of inputs and
outputs.

The following tables shows the round trip times in `μs` on the V80 board (similar times
were observed on other boards), for different input and output sizes.

## User buffers

**p99**:

|     out\\\\in |   64 B |   128 B |
|------------:|-------:|--------:|
|    **64 B** |   1.75 |    1.77 |
|   **128 B** |   1.71 |    1.79 |
"""


def test_a_unit_stated_as_code_in_prose_names_the_tables_metric() -> None:
    values = fields_by_raw_value(VOLLO_IO, "metric", "value", "unit", "accelerator")
    assert values["1.75"] == ("latency", 0.00175, "ms", "V80")
    assert values["1.79"] == ("latency", 0.00179, "ms", "V80")


VOLLO_LSTM_IA840F = """# Long Short Term Memory (LSTM) networks

## IA-840F: 3 core, block size 64

| Model         |   Layers |   Hidden size | Parameters   |   Mean latency (us) |   99th percentile latency (us) |
|---------------|----------|---------------|--------------|---------------------|--------------------------------|
| lstm_tiny     |        2 |           128 | 268K         |                 1.7 |                            1.8 |
"""

# As synaptics-synap/doc's manual/benchmark.rst states its unit in its remarks and heads the
# timings of its boards (the table stacks its header in three lines).
SYNAPTICS_TIMINGS = """Timings
-------

Remarks:

- In the following tables all timing values are expressed in milliseconds

- The *Offline Infer* column represents the inference time obtained by using a model converted offline

Inference timings on VS680 and SL1680
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

These tables show the inference timings for a set of models on VS680 and SL1680.

.. table:: Synaptics models

   ================================= ======= ======= =======
   Model                             Online  Offline Offline
                                     NPU     NPU     NPU
                                     Infer   Init    Infer
   ================================= ======= ======= =======
   sr_fast_y_uv_1280x720_3840x2160     32.88   18.09   11.46
   ================================= ======= ======= =======
"""


def test_fpga_cards_and_edge_socs_are_named_chips() -> None:
    values = fields_by_raw_value(VOLLO_LSTM_IA840F, "accelerator", "vendor")
    assert values["1.7"] == ("IA-840F", "BittWare")
    document = normalized(SYNAPTICS_TIMINGS, "text/x-rst")
    loaded = {
        (row["raw_value"], row["metric"], row["unit"], row["accelerator"], row["vendor"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded == {
        ("32.88", "latency", "ms", "VS680", "Synaptics"),
        # the time the runtime takes to set the model up ("Init"): no inference latency
        ("18.09", "other", "ms", "VS680", "Synaptics"),
        ("11.46", "latency", "ms", "VS680", "Synaptics"),
    }


# As keras-team/keras-io's templates/getting_started/benchmarks.md states its unit under the
# table's title, its GPU in a section of its own, and heads each column with the framework
# and backend of the run.
KERAS_BENCHMARKS = """# Keras 3 benchmarks

## Hardware

All benchmarks are done with a single NVIDIA A100 GPU with 40GB of GPU memory on
a Google Cloud Compute Engine of machine type `a2-highgpu-1g` with 12 vCPUs and
85GB host memory.

## Results

Table 2 displays benchmarking results in milliseconds per step. Each step
involves training or predicting on a single data batch.

**Table 2**: Benchmarking results. The speed is measured in ms/step. Lower is
better.

| | Batch<br>size | Native<br>PyTorch<br>(eager) | Native<br>PyTorch<br>(compiled) | Keras 2<br>(TensorFlow) | Keras 3<br>(TensorFlow) | Keras 3<br>(JAX) | Keras 3<br>(PyTorch)<br>(eager) | Keras 3<br>(best) |
|:---:|---:|---:|---:|---:|---:|---:|---:|---:|
| **SegmentAnything<br>(fit)** | 1 | 1,305.52 | 1,222.85 | 386.93 | **355.25** | 361.69 | 1,388.87 | **355.25** |
| **Gemma<br>(fit)** | 8 | 253.95 | **211.73** | NA | 232.52 | 273.67 | 525.15 | 232.52 |
"""


def test_columns_named_by_framework_take_the_unit_the_table_states() -> None:
    document = normalized(KERAS_BENCHMARKS)
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert len(loaded) == 13  # 14 values, the Keras 2 "NA" not published
    assert loaded[("Native PyTorch (eager)", "1,305.52")] == ("latency", 1305.52, "ms")
    assert loaded[("Keras 3 (JAX)", "273.67")] == ("latency", 273.67, "ms")
    assert loaded[("Keras 2 (TensorFlow)", "386.93")] == ("latency", 386.93, "ms")
    assert {row["accelerator"] for row in document.measurements.iter_rows(named=True)} == {"A100"}


# As dmlc/dgl's docs/source/performance.rst captions its grid table below it, Pandoc's way
# ("Table: ..."), with a unit for each of its two quantities.
DGL_PERFORMANCE = """v0.5 Benchmarks
---------------

**Microbenchmark on speed and memory usage**:
While leaving tensor and autograd functions to backend frameworks (e.g.
PyTorch, MXNet, and TensorFlow), DGL aggressively optimizes storage and
computation with its own kernels. Here's a comparison to another popular
package -- PyTorch Geometric (PyG). The short story is that raw speed is
similar, but DGL has much better memory management.

+----------+--------------+-----------------+-------------------------+-------------------------+
| Dataset  |    Model     |   Accuracy      |         Time            |           Memory        |
|          |              |                 +------------+------------+------------+------------+
|          |              |                 |  PyG       |  DGL       |  PyG       |  DGL       |
+==========+==============+=================+============+============+============+============+
| Cora     | GCN          | 81.31 ± 0.88    | **0.478**  | 0.666      | 1.1        | 1.1        |
+          +--------------+-----------------+------------+------------+------------+------------+
|          | GAT          | 83.98 ± 0.52    | 1.608      | **1.399**  | 1.2        | **1.1**    |
+----------+--------------+-----------------+------------+------------+------------+------------+

Table: Training time(in seconds) for 200 epochs and memory consumption(GB)
"""


def test_a_caption_under_a_table_gives_each_quantity_its_unit() -> None:
    document = normalized(DGL_PERFORMANCE, "text/x-rst")
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded[("Time / PyG", "0.478")] == ("time_to_train", 0.478, "s")
    assert loaded[("Time / DGL", "1.399")] == ("time_to_train", 1.399, "s")
    assert loaded[("Memory / PyG", "1.2")] == ("other", 1.2, "GB")


# As spacemit-com/docs-ai's zh/compute_stack/ai_compute_stack/modelzoo.md gives the image
# size of each multimodal model beside its latencies.
SPACEMIT_VLM = """### VLM

| 模型名 | 图像规格 | LLM 8 Core + VisionEncoder 4 Core/ms | LLM 8 Core + VisionEncoder 8 Core/ms |
| --- | --- | --- | --- |
| [fastvlm-0.5B](https://archive.spacemit.com/spacemit-ai/model_zoo/vlm/fastvlm-mm-0.5b-q4_1.tar.gz) | 512*512 | 256.47 | 164.50 |
| [Qwen3.5-0.8B](https://archive.spacemit.com/spacemit-ai/model_zoo/vlm/Qwen3.5-0.8B.tar.gz) | 384*384 | 340.42 | 245.61 |
"""


def test_the_image_spec_of_a_chinese_table_is_a_setting() -> None:
    document = normalized(SPACEMIT_VLM)
    assert document.quarantine.height == 0
    values = fields_by_raw_value(SPACEMIT_VLM, "model", "metric", "value", "unit")
    assert set(values) == {"256.47", "164.50", "340.42", "245.61"}
    assert values["256.47"] == ("fastvlm-0.5B", "latency", 256.47, "ms")


VOLLO_IO_MEAN_AND_P99 = """# IO Round Trip

The following tables shows the round trip times in `μs` on the V80 board (similar times
were observed on other boards), for different input and output sizes.

## Raw DMA buffers

**mean**:

|     out\\\\in |   64 B |   128 B |
|------------:|-------:|--------:|
|    **64 B** |   1.45 |    1.48 |

**p99**:

|     out\\\\in |   64 B |   128 B |
|------------:|-------:|--------:|
|    **64 B** |   1.62 |    1.74 |
"""


def test_a_statistic_written_alone_above_a_table_is_its_statistic() -> None:
    values = fields_by_raw_value(VOLLO_IO_MEAN_AND_P99, "metric", "statistic", "value")
    assert values["1.45"] == ("latency", "mean", 0.00145)
    assert values["1.74"] == ("latency", "p99", 0.00174)


DETECTRON2_KEYPOINTS = """### COCO Person Keypoint Detection Baselines with Keypoint R-CNN

<table><tbody>
<th valign="bottom">Name</th>
<th valign="bottom">lr<br/>sched</th>
<th valign="bottom">train<br/>time<br/>(s/iter)</th>
<th valign="bottom">box<br/>AP</th>
 <tr><td align="left"><a href="configs/COCO-Keypoints/keypoint_rcnn_R_50_FPN_1x.yaml">R50-FPN</a></td>
<td align="center">1x</td>
<td align="center">0.315</td>
<td align="center">53.6</td>
</tr>
</tbody></table>
"""


def test_detection_models_named_in_a_heading_label_its_table() -> None:
    values = fields_by_raw_value(DETECTRON2_KEYPOINTS, "model", "metric", "value")
    assert values["0.315"] == ("Keypoint R-CNN", "latency", 315.0)
    assert values["53.6"] == ("Keypoint R-CNN", "accuracy", 53.6)
