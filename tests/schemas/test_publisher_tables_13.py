"""Reading gaps found on documentation sites' performance pages: a metric stated once for a
subsection that each platform's section repeats, a GPU named alone above its table, a count
of chips in a bracket after the chip ("K80 (single GPU)"), a sentence introducing the next
table, a board's name written in one word ("JetsonNano2GB")."""

from __future__ import annotations

from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As apache/mxnet's docs/static_site/src/pages/api/faq/perf.md states what its CPU scoring
# results measure, then gives the GPUs' scoring results under a heading of the same name,
# each GPU named above its table, the float16 table introduced under the float32 one.
MXNET_SCORING = """# Performance

## Intel CPU

### Scoring results
The following table shows performance of MXNet-1.2.0.rc1,
namely number of images that can be predicted per second.

AWS EC2 C5.18xlarge:

| Batch | Alexnet | VGG 16    | Inception-BN | Inception-v3 | Resnet 50 | Resnet 152 |
|-------|---------|--------|--------------|--------------|-----------|------------|
| 1     | 390.53  | 81.57  | 124.13       | 62.26        | 76.22     | 32.92      |

## Nvidia GPU

We show results when using various GPUs including K80 (EC2 p2.2xlarge), M60 (EC2 g3.4xlarge),
and V100 (EC2 p3.2xlarge).

### Scoring results

Based on
[example/image-classification/benchmark_score.py](https://github.com/apache/mxnet/blob/master/example/image-classification/benchmark_score.py)
and  MXNet-1.2.0.rc1, with cuDNN 7.0.5

- K80 (single GPU)

| Batch | Alexnet | VGG 16    | Inception-BN | Inception-v3 | Resnet 50 | Resnet 152 |
|-------|---------|--------|--------------|--------------|-----------|------------|
| 1     | 243.93  | 43.59  | 68.62        | 35.52        | 67.41     | 23.65      |

- M60

| Batch | Alexnet | VGG 16    | Inception-BN | Inception-v3 | Resnet 50 | Resnet 152 |
|-------|---------|--------|--------------|--------------|-----------|------------|
| 1     | 243.49  | 59.95  | 101.97       | 48.30        | 95.46     | 39.29      |

- V100

| Batch | Alexnet | VGG 16    | Inception-BN | Inception-v3 | Resnet 50 | Resnet 152 |
|-------|---------|--------|--------------|--------------|-----------|------------|
| 1     | 659.51  | 205.16 | 157.37 | 87.71 | 162.15    | 61.38      |

Below is the performance result on V100 using float 16.

| Batch | VGG 16  | Inception-BN | Inception-v3 | Resnet 50 | Resnet 152 |
| ----- | ------- | ------------ | ------------ | --------- | ---------- |
| 1     | 276.29  | 155.53       | 150.99       | 270.89    | 96.79      |
"""


def test_a_repeated_subsection_takes_the_metric_its_first_occurrence_states():
    found = fields_by_raw_value(MXNET_SCORING, "metric", "unit", "value", "model")
    assert found["76.22"] == ("throughput", "items/s", 76.22, "Resnet 50")  # CPU: stated there
    assert found["67.41"] == ("throughput", "items/s", 67.41, "Resnet 50")  # K80: not restated
    assert found["162.15"] == ("throughput", "items/s", 162.15, "Resnet 50")


def test_each_gpu_named_above_its_table_labels_that_table_alone():
    found = fields_by_raw_value(
        MXNET_SCORING, "accelerator", "vendor", "accelerator_count", "activation_dtype"
    )
    assert found["390.53"] == (None, None, None, None)  # a CPU instance: no accelerator
    assert found["243.93"] == ("K80", "NVIDIA", 1, None)  # "K80 (single GPU)"
    assert found["243.49"] == ("M60", "NVIDIA", None, None)  # not the K80 named before
    # the float32 table is not the float16 one the sentence under it introduces
    assert found["659.51"] == ("V100", "NVIDIA", None, None)
    assert found["270.89"] == ("V100", "NVIDIA", None, "fp16")


def test_a_count_of_chips_in_a_bracket_after_the_chip():
    for text, count in (("K80 (single GPU)", 1), ("V100 (8 GPUs)", 8), ("MI250 (2 cards)", 2)):
        mention = read_hardware(text, "label")
        assert mention is not None and mention.count == count, text
    assert read_hardware("V100 (16 GB)", "label").count is None


# As open-mmlab/mmdeploy's docs/en/03-benchmark/benchmark.md writes its boards in one word.
MMDEPLOY_LATENCY = """## Latency benchmark

<table class="docutils">
<thead>
  <tr>
    <th align="center" colspan="2">mmcls</th>
    <th align="center" colspan="2">TensorRT(ms)</th>
  </tr>
</thead>
<tbody>
  <tr>
    <td align="center" colspan="1" rowspan="2">model</td>
    <td align="center" colspan="1" rowspan="2">spatial</td>
    <td align="center" colspan="2">JetsonNano2GB</td>
  </tr>
  <tr>
    <td align="center" colspan="1">fp32</td>
    <td align="center" colspan="1">fp16</td>
  </tr>
  <tr>
    <td align="center">ResNet</td>
    <td align="center">224x224</td>
    <td align="center">59.32</td>
    <td align="center">30.54</td>
  </tr>
</tbody>
</table>
"""


def test_a_board_written_in_one_word_names_the_board():
    found = fields_by_raw_value(
        MMDEPLOY_LATENCY, "accelerator", "vendor", "metric", "unit", "activation_dtype"
    )
    assert found["59.32"] == ("Jetson Nano", "NVIDIA", "latency", "ms", "fp32")
    assert found["30.54"] == ("Jetson Nano", "NVIDIA", "latency", "ms", "fp16")


# As justincdavis/trtutils' docs/benchmark/orinnx-16gb.rst names its board in its title only,
# written in one word.
TRTUTILS_ORIN_NX = """OrinNX-16GB
===========

Developer Kit with Jetpack 6

This section contains benchmarking results for various YOLO models on the OrinNX-16GB platform.

Performance Table
-----------------

The following table shows detailed performance metrics for all tested models:

.. csv-table:: Performance Metrics
   :header: Framework,Model,Input Size,Mean (ms),Median (ms),Min (ms),Max (ms)
   :widths: 10,10,10,10,10,10,10

   tensorrt,yolov10n,160,2.1,1.9,1.8,3.5
   ultralytics(torch),yolov8m,1280,133.7,133.6,132.8,136.3
"""


def test_a_board_named_in_one_word_in_a_page_title_labels_its_tables():
    rows = {
        row["raw_value"]: (row["accelerator"], row["vendor"], row["platform"], row["statistic"])
        for row in normalized(TRTUTILS_ORIN_NX, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert rows["2.1"] == ("Jetson Orin NX", "NVIDIA", "OrinNX-16GB", "mean")
    assert rows["133.6"] == ("Jetson Orin NX", "NVIDIA", "OrinNX-16GB", "p50")


def test_one_word_names_of_boards_and_cards():
    for text, chip in (
        ("XavierNX-8GB", "Jetson Xavier NX"),
        ("OrinAGX-64GB", "Jetson AGX Orin"),
        ("OrinNano-8GB", "Jetson Orin Nano"),
        ("TitanRTX", "Titan RTX"),
    ):
        mention = read_hardware(text, "label")
        assert mention is not None and (mention.accelerator, mention.text) == (chip, text)
    assert read_hardware("TensorRT", "label") is None  # a word of software stays none
    assert read_hardware("GaudiLlamaForCausalLM()", "label") is None  # an identifier of code


def test_a_model_no_catalogue_knows_among_known_models_columns_is_kept_as_published():
    found = fields_by_raw_value(MXNET_SCORING, "model", "model_canonical", "label_sources")
    assert found["124.13"][:2] == ("Inception-BN", "Inception-BN")  # CPU table
    assert "model=column" in found["124.13"][2]
    assert found["68.62"][:2] == ("Inception-BN", "Inception-BN")  # K80 table
    assert found["62.26"][:2] == ("Inception-v3", "Inception v3")


# As open-mmlab/mmdeploy's docs/en/03-benchmark/benchmark.md scores its super-resolution
# models in a metric column: PSNR and SSIM, each backend's numbers under its precision.
MMDEPLOY_MMAGIC = """## Performance benchmark

<table class="docutils">
<thead>
  <tr>
    <th align="center" colspan="4">mmagic</th>
    <th align="center">Pytorch</th>
    <th align="center">TorchScript</th>
    <th align="center" colspan="2">TensorRT</th>
  </tr>
</thead>
<tbody>
  <tr>
    <td align="center">model</td>
    <td align="center">task</td>
    <td align="center">dataset</td>
    <td align="center">metric</td>
    <td align="center">fp32</td>
    <td align="center">fp32</td>
    <td align="center">fp16</td>
    <td align="center">int8</td>
  </tr>
  <tr>
    <td align="center" rowspan="2">SRCNN</td>
    <td align="center" rowspan="2">Super Resolution</td>
    <td align="center" rowspan="2">Set5</td>
    <td align="center">PSNR</td>
    <td align="center">28.4316</td>
    <td align="center">28.4120</td>
    <td align="center">28.4286</td>
    <td align="center">28.1995</td>
  </tr>
  <tr>
    <td align="center">SSIM</td>
    <td align="center">0.8099</td>
    <td align="center">0.8106</td>
    <td align="center">0.8096</td>
    <td align="center">0.7934</td>
  </tr>
</tbody>
</table>
"""


def test_psnr_and_ssim_score_a_models_quality():
    found = fields_by_raw_value(MMDEPLOY_MMAGIC, "metric", "unit", "model", "activation_dtype")
    assert found["28.4316"] == ("accuracy", "score", "SRCNN", "fp32")
    assert found["28.1995"] == ("accuracy", "score", "SRCNN", "int8")
    assert found["0.8106"] == ("accuracy", "score", "SRCNN", "fp32")
    assert found["0.7934"] == ("accuracy", "score", "SRCNN", "int8")
