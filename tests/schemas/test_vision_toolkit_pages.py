"""Speed and accuracy pages of applied computer-vision toolkits (OCR and document AI, face
analysis, tracking, depth), quoted as their pages write them."""

from __future__ import annotations

from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import normalized

# As mindee/doctr writes it (docs/source/using_doctr/using_models.rst): grid tables of
# detection models, the batch in the timing column's header ("sec/it (B: 1)"), the CPU in the
# paragraph below, and further down the page a sample hOCR export quoted in a code block.
DOCTR_MODELS = """Text Detection
--------------

Available detection architectures
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

For a comprehensive comparison, we have compiled a detailed benchmark on publicly available datasets:

+------------------------------------------------------------------------------------+----------------------------+----------------------------+--------------------+
|                                                                                    |        FUNSD               |        CORD                |                    |
+==================================================+=================+===============+============+===============+============+===============+====================+
| **Architecture**                                 | **Input shape** | **# params**  | **Recall** | **Precision** | **Recall** | **Precision** | **sec/it (B: 1)**  |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+
| db_resnet34                                      | (1024, 1024, 3) | 22.4 M        | 82.76      | 76.75         | 89.20      | 71.74         | 0.8                |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+
| db_mobilenet_v3_large                            | (1024, 1024, 3) | 4.2 M         | 82.69      | 84.63         | 94.51      | 70.28         | 0.5                |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+

Seconds per iteration (with a batch size of 1) is computed after a warmup phase of 100 tensors, by measuring the average number of processed tensors per second over 1000 samples. Those results were obtained on a `11th Gen Intel(R) Core(TM) i7-11800H @ 2.30GHz`.

For reference, here is a sample XML byte string output:

.. code-block:: xml

  <?xml version="1.0" encoding="UTF-8"?>
  <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
    <head>
      <title>docTR - hOCR</title>
    </head>
    <body>
      <div class="ocr_page" id="page_1" title="image; bbox 0 0 3456 3456; ppageno 0" />
    </body>
  </html>
"""  # noqa: E501


def test_an_rst_page_quoting_html_in_a_code_block_is_read_as_rst():
    parsed, layout = parse_document(DOCTR_MODELS.encode(), "text/x-rst")
    assert layout == "rst_table"
    assert parsed.table_count == 1
    found = {
        (row["model"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in normalized(DOCTR_MODELS, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert len(found) == 10
    assert found["db_resnet34", "FUNSD / Recall"] == ("accuracy", 82.76, "score")
    assert found["db_mobilenet_v3_large", "CORD / Precision"] == ("accuracy", 70.28, "score")
    assert found["db_resnet34", "sec/it (B: 1)"] == ("latency", 800.0, "ms")


def test_a_batch_written_b_colon_in_a_timing_header_is_the_batch_size():
    rows = (
        normalized(DOCTR_MODELS, "text/x-rst")
        .measurements.filter(metric="latency")
        .select("model", "batch_size", "accelerator")
    )
    assert sorted(rows.rows()) == [
        ("db_mobilenet_v3_large", "1", "Core i7-11800H"),
        ("db_resnet34", "1", "Core i7-11800H"),
    ]


# As deepinsight/insightface writes it (detection/scrfd/README.md): WIDER FACE's three subsets
# as the accuracy columns of face detectors, beside their inference time.
SCRFD_FAMILY = """## Performance

Precision, flops and infer time are all evaluated on **VGA resolution**.

#### ResNet family

| Method              | Backbone        | Easy  | Medium | Hard  | \\#Params(M) | \\#Flops(G) | Infer(ms) |
| ------------------- | --------------- | ----- | ------ | ----- | ----------- | ---------- | --------- |
| DSFD (CVPR19)       | ResNet152       | 94.29 | 91.47  | 71.39 | 120.06      | 259.55     | 55.6      |
| **SCRFD-34GF**      | Bottleneck Res  | 96.06 | 94.92  | 85.29 | 9.80        | 34.13      | 11.7      |
"""


def test_the_easy_medium_and_hard_subsets_of_a_detection_benchmark_are_accuracies():
    result = normalized(SCRFD_FAMILY)
    assert "unknown_metric" not in result.quarantine["check"].to_list()
    found = {
        (row["row_number"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert found[1, "Easy"] == ("accuracy", 94.29, "score")
    assert found[1, "Medium"] == ("accuracy", 91.47, "score")
    assert found[2, "Hard"] == ("accuracy", 85.29, "score")
    assert found[2, "Infer(ms)"] == ("latency", 11.7, "ms")


# As ifzhang/ByteTrack writes it (README.md): a tracker's CLEAR-MOT, identity and HOTA scores
# and its speed; the models of its zoo named with their download links ("[[google]](...)").
BYTETRACK = """## Tracking performance
### Results on MOT challenge test set
| Dataset    |  MOTA | IDF1 | HOTA | MT | ML | FP | FN | IDs | FPS |
|------------|-------|------|------|-------|-------|------|------|------|------|
|MOT17       | 80.3 | 77.3 | 63.1 | 53.2% | 14.5% | 25491 | 83721 | 2196 | 29.6 |

### MOT17 test model

| Model    |  MOTA | IDF1 | IDs | FPS |
|------------|-------|------|------|------|
|bytetrack_x_mot17 [[google]](https://drive.google.com/file/d/1P4mY0Yyd3PPTybgZkjMYhFri88nTmJX5/view?usp=sharing), [[baidu(code:ic0i)]](https://pan.baidu.com/s/1OJKrcQa_JP9zofC6ZtGBpw) | 90.0 | 83.3 | 422 | 29.6 |
"""  # noqa: E501


def test_multi_object_tracking_scores_are_accuracies():
    found = {
        (row["table_index"], row["column_name"]): (row["metric"], row["value"])
        for row in normalized(BYTETRACK).measurements.iter_rows(named=True)
    }
    assert found[0, "MOTA"] == ("accuracy", 80.3)
    assert found[0, "IDF1"] == ("accuracy", 77.3)
    assert found[0, "HOTA"] == ("accuracy", 63.1)
    assert found[0, "IDs"] == ("accuracy", 2196.0)
    assert found[0, "FPS"] == ("throughput", 29.6)
    assert found[1, "MOTA"] == ("accuracy", 90.0)


def test_download_links_after_a_model_name_are_no_part_of_it():
    models = normalized(BYTETRACK).measurements.filter(table_index=1)
    assert set(models["model"]) == {"bytetrack_x_mot17"}
    assert set(models["row_label"]) == {"bytetrack_x_mot17"}


# As VikParuchuri/marker writes it (README.md): times per page and per document with no unit,
# on a page that speaks of throughput in pages per second just below.
MARKER_THROUGHPUT = """## Throughput

We benchmarked throughput using a [single long PDF](https://www.greenteapress.com/thinkpython/thinkpython.pdf).

| Method  | Time per page | Time per document | VRAM used |
|---------|---------------|-------------------|---------- |
| marker  | 0.18          | 43.42             |  3.17GB   |

The projected throughput is 122 pages per second on an H100 - we can run 22 individual processes given the VRAM used.
"""  # noqa: E501

# As VikParuchuri/surya writes it (README.md): an OCR model's time per page beside its average
# similarity to the ground truth.
SURYA_OCR = """## OCR

| Model     | Time per page (s) | Avg similarity (⬆) |
|-----------|-------------------|--------------------|
| surya     | .62               | 0.97               |
| tesseract | .45               | 0.88               |
"""


def test_a_time_per_page_or_document_is_a_time_never_a_throughput():
    result = normalized(MARKER_THROUGHPUT)
    assert "throughput" not in result.measurements["metric"].to_list()
    unstated = result.quarantine.filter(check="unit_not_stated")
    assert sorted(unstated["raw_value"]) == ["0.18", "43.42"]
    assert all("latency" in reason for reason in unstated["reason"])


def test_an_average_similarity_is_an_accuracy():
    found = {
        (row["model"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in normalized(SURYA_OCR).measurements.iter_rows(named=True)
    }
    assert found["surya", "Avg similarity (⬆)"] == ("accuracy", 0.97, "score")
    assert found["tesseract", "Avg similarity (⬆)"] == ("accuracy", 0.88, "score")
    assert found["surya", "Time per page (s)"] == ("latency", 620.0, "ms")


# As deepinsight/insightface writes it (cpp-package/inspireface/doc/Benchmark-Remark
# (Updating).md): each table names the device and precision in its heading, and counts the
# loops a total and an average time summarize.
INSPIREFACE = """## Megatron_Apple(ANE, Apple Neural Engine)

### Device: iPhone13, Apple A15[FP32]
| **Benchmark**          | **Loops** | **Total Time** | **Average Time** |
| ---------------------- | --------- | -------------- | ---------------- |
| Face Detect@160        | 1000      | 711 ms         | **0.71 ms**      |
| Face Extract(**R50**)  | 1000      | 3856ms         | **3.86ms**       |
"""


def test_the_loops_a_time_summarizes_are_a_setting_not_a_result():
    result = normalized(INSPIREFACE)
    assert result.quarantine.height == 0
    found = {
        (row["model"], row["column_name"]): (row["value"], row["accelerator"], row["settings"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert len(found) == 4
    assert found["Face Detect@160", "Average Time"] == (0.71, "A15", "Loops=1000")
    assert found["Face Extract(R50)", "Total Time"] == (3856.0, "A15", "Loops=1000")


# As LiheYoung/Depth-Anything writes it (README.md): relative-depth errors and accuracies per
# dataset, and a model's inference time on one chip with its unit, then on two more chips
# headed by their names alone.
DEPTH_ANYTHING = """| Method | Params | KITTI || NYUv2 ||
|-|-:|:-:|:-:|:-:|:-:|
| | | AbsRel | $\\delta_1$ | AbsRel | $\\delta_1$ |
| MiDaS | 345.0M | 0.127 | 0.850 | 0.048 | *0.980* |

We highlight the **best** and *second best* results in **bold** and *italic* respectively (**better results**: AbsRel $\\downarrow$ , $\\delta_1 \\uparrow$).

## Pre-trained models

| Model | Params | Inference Time on V100 (ms) | A100 | RTX4090 ([TensorRT](https://github.com/spacewalk01/depth-anything-tensorrt)) |
|:-|-:|:-:|:-:|:-:|
| Depth-Anything-Small | 24.8M | 12 | 8 | 3 |
| Depth-Anything-Large | 335.3M | 20 | 13 | 12 |
"""  # noqa: E501


def test_depth_errors_and_threshold_accuracies_are_accuracies():
    depth = normalized(DEPTH_ANYTHING).measurements.filter(table_index=0)
    assert sorted(zip(depth["column_name"], depth["metric"], depth["value"], strict=True)) == [
        ("KITTI / $\\delta_1$", "accuracy", 0.85),
        ("KITTI / AbsRel", "accuracy", 0.127),
        ("NYUv2 / $\\delta_1$", "accuracy", 0.98),
        ("NYUv2 / AbsRel", "accuracy", 0.048),
    ]


def test_chips_headed_alone_after_a_time_on_a_chip_share_its_metric_and_unit():
    found = {
        (row["model"], row["accelerator"]): (row["metric"], row["value"], row["unit"])
        for row in normalized(DEPTH_ANYTHING)
        .measurements.filter(table_index=1)
        .iter_rows(named=True)
    }
    assert found["Depth-Anything-Small", "V100"] == ("latency", 12.0, "ms")
    assert found["Depth-Anything-Small", "A100"] == ("latency", 8.0, "ms")
    assert found["Depth-Anything-Small", "RTX 4090"] == ("latency", 3.0, "ms")
    assert found["Depth-Anything-Large", "A100"] == ("latency", 13.0, "ms")
    assert found["Depth-Anything-Large", "RTX 4090"] == ("latency", 12.0, "ms")


# As PeterL1n/RobustVideoMatting writes it (README.md): frame rates per GPU, in columns headed
# by the frame size of the video they ran on.
RVM_SPEED = """## Speed

Speed is measured with `inference_speed_test.py` for reference.

| GPU            | dType | HD (1920x1080) | 4K (3840x2160) |
| -------------- | ----- | -------------- |----------------|
| RTX 3090       | FP16  | 172 FPS        | 154 FPS        |
| GTX 1080 Ti    | FP32  | 104 FPS        | 74 FPS         |
"""


def test_a_column_headed_by_a_frame_size_names_no_model():
    rows = normalized(RVM_SPEED).measurements
    found = {
        (row["accelerator"], row["column_name"]): (row["value"], row["precision"], row["model"])
        for row in rows.iter_rows(named=True)
    }
    assert found["RTX 3090", "HD (1920x1080)"] == (172.0, "FP16", None)
    assert found["RTX 3090", "4K (3840x2160)"] == (154.0, "FP16", None)
    assert found["GTX 1080 Ti", "4K (3840x2160)"] == (74.0, "FP32", None)
    assert set(rows["metric"]) == {"throughput"}


# As deepinsight/insightface writes it (detection/scrfd/README.md): a note under one table
# names the CPU its times were taken on; a later section's table of pretrained models says
# nothing of its hardware.
SCRFD_CPU_NOTE = """## Performance

**X64 CPU Performance of SCRFD-0.5GF:**

| Test-Input-Size         | CPU Single-Thread   | Easy  | Medium | Hard  |
| ----------------------- | -----------------   | ----- | ------ | ----- |
| 640x480                 | 28.3ms              | 90.57 | 88.12  | 68.51 |
| 320x240                 | 11.4ms              | -     | -      | -     |

*precision and infer time are evaluated on AMD Ryzen 9 3950X, using the simple PyTorch CPU inference by setting `OMP_NUM_THREADS=1` (no mkldnn).*

## Installation

Please refer to [mmdetection](https://github.com/open-mmlab/mmdetection/blob/master/docs/en/get_started.md#installation) for installation.

## Pretrained-Models

|      Name      | Easy  | Medium | Hard  | FLOPs | Params(M) | Infer(ms) | Link                                                         |
| :------------: | ----- | ------ | ----- | ----- | --------- | --------- | ------------------------------------------------------------ |
|   SCRFD_500M   | 90.57 | 88.12  | 68.51 | 500M  | 0.57      | 3.6       | [download](https://1drv.ms/u/s!AswpsDO2toNKqyYWxScdiTITY4TQ?e=DjXof9) |

mAP, FLOPs and inference latency are all evaluated on VGA resolution.
"""  # noqa: E501


def test_a_note_under_one_table_names_no_chip_of_a_later_sections_table():
    rows = normalized(SCRFD_CPU_NOTE).measurements
    cpu = rows.filter(table_index=0, column_name="CPU Single-Thread")
    assert sorted(zip(cpu["value"], cpu["accelerator"], strict=True)) == [
        (11.4, "Ryzen 9 3950X"),
        (28.3, "Ryzen 9 3950X"),
    ]
    pretrained = rows.filter(table_index=1)
    assert pretrained.height == 4
    assert set(pretrained["accelerator"]) == {None}


def test_a_framework_bracketed_after_a_chip_header_is_the_columns_framework():
    rows = normalized(DEPTH_ANYTHING).measurements.filter(table_index=1)
    found = {
        (row["model"], row["accelerator"]): row["framework"] for row in rows.iter_rows(named=True)
    }
    assert found["Depth-Anything-Small", "RTX 4090"] == "TensorRT"
    assert found["Depth-Anything-Large", "RTX 4090"] == "TensorRT"
    assert found["Depth-Anything-Small", "A100"] is None
    assert found["Depth-Anything-Small", "V100"] is None


# As deepinsight/insightface writes it (recognition/arcface_torch/docs/speed_benchmark.md): the
# memory of three ways of training side by side, model parallelism among them.
ARCFACE_MEMORY = """2. GPU memory cost of different parallel methods (GB per GPU), Tesla V100 32GB * 8. (Smaller is better)

| Number of Identities in Dataset | Data Parallel | Model Parallel | Partial FC 0.1 |
| :---    | :---  | :---  | :---  |
|125000   | 7358  | 5306  | 4868  |
|250000   | 9940  | 5826  | 5004  |
"""  # noqa: E501


def test_a_model_parallel_column_is_a_way_of_running_not_the_rows_model():
    rows = normalized(ARCFACE_MEMORY).measurements
    assert set(rows["model"]) == {None}
    first = rows.filter(raw_value="4868").row(0, named=True)
    assert "Model Parallel=5306" in first["settings"]
    assert (first["value"], first["accelerator"]) == (4868.0, "V100")
