"""Reading gaps found on benchmark pages of inference runtimes and serving engines no corpus
held: a number sign inside a rate's header ("Requests # / sec") is no count of a setting."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As michaelfeil/infinity's docs/docs/benchmarking.md shows its GPU run: requests per second
# headed with a number sign, beside the time the run took.
INFINITY_L4 = """## Results

### Results: NVIDIA L4 (_BAAI/bge-large-en-v1.5_ | _bert-large_)

| Model                                        | Requests # / sec (mean) | Time (seconds) |
|---------------------------------------------|-------------------------|----------------|
| huggingface/TEI (candle, flashbert)         | 0.54                    | 18.491         |
| infinity (torch + compile + fa2)            | 0.51                    | 19.562         |
| sentence-transformers (fp16)                | 0.17                    | 59.107         |
"""


def test_a_number_sign_in_a_rate_header_reads_as_the_rate():
    found = fields_by_raw_value(
        INFINITY_L4, "metric", "value", "unit", "item_kind", "statistic", "accelerator"
    )
    assert found["0.54"] == ("throughput", 0.54, "items/s", "requests", "mean", "L4")
    assert found["0.51"] == ("throughput", 0.51, "items/s", "requests", "mean", "L4")
    assert found["0.17"] == ("throughput", 0.17, "items/s", "requests", "mean", "L4")
    assert found["18.491"][0] == "latency"
    assert len(normalized(INFINITY_L4).measurements) == 6


# As RWKV/rwkv.cpp's README.md shows its GPU latencies: under a section heading that joins
# two figures, a sentence of the table's own section says what its numbers are.
RWKV_CUBLAS = """## Quality and performance

| Format    | Perplexity (169M) | Latency, ms (1.5B) | File size, GB (1.5B) |
|-----------|-------------------|--------------------|----------------------|
| `Q4_0`    | 17.507            | *76*               | **1.53**             |

### With cuBLAS

Measurements were made on Intel i7 13700K & NVIDIA 3060 Ti 8 GB. The model is \
`RWKV-4-Pile-169M`, 12 layers were offloaded to GPU.

Latency per token in ms shown.

| Format | 1 thread | 2 threads | 4 threads | 8 threads | 24 threads |
|--------|----------|-----------|-----------|-----------|------------|
| `Q4_0` | 7.9      | 6.2       | 6.9       | 8.6       | 20         |
| `Q5_1` | 8.1      | 6.7       | 6.9       | 9.0       | 22         |
"""


def test_a_heading_joining_two_figures_names_neither_metric():
    found = fields_by_raw_value(RWKV_CUBLAS, "metric", "value", "unit", "precision")
    assert found["7.9"] == ("latency", 7.9, "ms", "Q4_0")
    assert found["6.2"] == ("latency", 6.2, "ms", "Q4_0")
    assert found["22"] == ("latency", 22.0, "ms", "Q5_1")
    # the columns that name their figure keep it
    assert found["17.507"][0] == "accuracy"
    assert found["76"][:3] == ("latency", 76.0, "ms")


# As shouxieai/tensorRT_Pro's README.md shows its fast YoloX runs: the paragraph above the
# table praises a change "without any loss in precision"; its "Elapsed Time" states no unit.
TENSORRT_PRO_FAST = """## YoloX and YoloV5-series Model Test Report

- <b>Highlight:</b>   0.5 ms faster without any loss in precision compared with the above. \
Specifically, we remove the Focus and some transpose nodes etc, and implement them in CUDA \
kenel function. But the rest remains the same.

|Model|Resolution|Type|Precision|Elapsed Time|FPS|
|---|---|---|---|---|---|
|yolox_x_fast|640x640|YoloX|FP32|21.598 |46.30 |
|yolox_s_fast|640x640|YoloX|INT8|0.954 |1048.47 |
"""


def test_a_loss_in_precision_said_in_passing_names_no_loss_metric():
    document = normalized(TENSORRT_PRO_FAST)
    assert "loss" not in document.measurements["metric"].to_list()
    found = fields_by_raw_value(TENSORRT_PRO_FAST, "metric", "value", "unit", "precision")
    assert found["46.30"] == ("throughput", 46.3, "items/s", "FP32")
    assert found["1048.47"] == ("throughput", 1048.47, "items/s", "INT8")
    # the times name no unit and no metric: set apart with the reason, not loaded as a loss
    quarantined = dict(
        zip(document.quarantine["raw_value"], document.quarantine["check"], strict=True)
    )
    assert quarantined["21.598"] == "unknown_metric"
    assert quarantined["0.954"] == "unknown_metric"


# As Vahe1994/AQLM's README.md opens (its news) and then lists its quantized models: the
# models' names hold their codebook shapes ("1x8", "1x16"), which count no chips.
AQLM_MODELS = """# AQLM

**[2025.04]** Released aqlm v1.1.7. Added support for arbitrary 8-dimensional codebooks on \
GPU, improved accuracy for 1-bit models, e.g. \
[ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf) \
at ~1 bit achieves WikiText 2 PPL 7.85.

## Models

| Model      | AQLM scheme | WikiText-2 PPL | Model size, Gb | Hub link |
|------------|-------------|----------------|----------------|----------|
| Llama-2-7b | 1x16g8        | 5.68          | 2.4            | [Link](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-PV-2Bit-1x16-hf) |
| Llama-2-7b | 2x8g8         | 5.90          | 2.2            | [Link](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-PV-2Bit-2x8-hf)  |
"""


def test_a_shape_inside_a_models_name_counts_no_chip():
    found = fields_by_raw_value(
        AQLM_MODELS, "metric", "value", "model", "accelerator", "accelerator_count"
    )
    assert found["5.68"] == ("accuracy", 5.68, "Llama-2-7b", None, None)
    assert found["5.90"] == ("accuracy", 5.9, "Llama-2-7b", None, None)


# As michaelfeil/infinity's docs/docs/benchmarking.md lists its machines, then shows its
# CPU-only run under a heading naming that class of device.
INFINITY_CPU = """# Benchmarking details

## Benchmarking machines:
CPU and NVIDIA:

*  GCP g2-standard-16
*  Intel Cascade Lake
*  1 x NVIDIA L4, cu122

## Results

### Results: CPU-only (_BAAI/bge-small-en-v1.5_ | _bert-small_)

| Model                             | Time (seconds) | Requests # / sec (mean) |
|-----------------------------------|----------------|-------------------------|
| infinity-optimum-int8             | 100.490        | 0.10                    |
| fastembed (onnx)                  | 125.770        | 0.08                    |
"""


def test_a_cpu_only_section_takes_the_earlier_prose_cpu_not_its_gpu():
    found = fields_by_raw_value(INFINITY_CPU, "metric", "value", "accelerator")
    assert found["100.490"] == ("latency", 100490.0, "Cascade Lake")
    assert found["0.10"] == ("throughput", 0.1, "Cascade Lake")
    assert found["0.08"] == ("throughput", 0.08, "Cascade Lake")


# As ELS-RD/kernl's experimental/benchmarks/README.md opens: the GPU named by its number with
# its family's word after it ("Nvidia 3090 RTX GPU").
KERNL_TENSORRT = """# Benchmark of Third-Party Libraries

This directory contains benchmarks of third-party libraries. The benchmarks are
written as simple Python script and have been run on a Nvidia 3090 RTX GPU, 128 Gb RAM, 12 cores Intel CPU.

Measures are done in wall-clock time, and output tensors are kept on GPU.

## [TensorRT](https://github.com/NVIDIA/TensorRT/)

### Results

| batch | sequence length | Time (ms) |
|-------|-----------------|-----------|
| 1     | 16              | 0.0010    |
| 8     | 384             | 0.0139    |
"""


def test_a_gpu_number_with_its_family_word_after_it_names_the_gpu():
    found = fields_by_raw_value(KERNL_TENSORRT, "metric", "value", "unit", "accelerator")
    assert found["0.0010"] == ("latency", 0.001, "ms", "RTX 3090")
    assert found["0.0139"] == ("latency", 0.0139, "ms", "RTX 3090")


# As SYSTRAN/faster-whisper's README.md (Benchmark, Small model on CPU) compares
# implementations of one model, each row named in an "Implementation" column.
FASTER_WHISPER_CPU = """## Benchmark

### Whisper

For reference, here's the time and memory usage that are required to transcribe [**13 minutes**](https://www.youtube.com/watch?v=0u7tTptBo9I) of audio using different implementations:

### Small model on CPU

| Implementation | Precision | Beam size | Time | RAM Usage |
| --- | --- | --- | --- | --- |
| openai/whisper | fp32 | 5 | 6m58s | 2335MB |
| whisper.cpp | fp32 | 5 | 2m05s | 1049MB |
| whisper.cpp (OpenVINO) | fp32 | 5 | 1m45s | 1642MB |
| faster-whisper | fp32 | 5 | 2m37s | 2257MB |
| faster-whisper (`batch_size=8`) | fp32 | 5 | 1m06s | 4230MB |
| faster-whisper | int8 | 5 | 1m42s | 1477MB |
| faster-whisper (`batch_size=8`) | int8 | 5 | 51s | 3608MB |

*Executed with 8 threads on an Intel Core i7-12700K.*
"""


def test_an_implementation_column_names_the_framework_of_its_row():
    found = fields_by_raw_value(
        FASTER_WHISPER_CPU, "metric", "value", "unit", "framework", "precision", "batch_size_number"
    )
    assert found["1049MB"] == ("other", 1049.0, "MB", "whisper.cpp", "fp32", None)
    assert found["1642MB"] == ("other", 1642.0, "MB", "whisper.cpp (OpenVINO)", "fp32", None)
    assert found["3608MB"] == ("other", 3608.0, "MB", "faster-whisper (batch_size=8)", "int8", 8.0)
    assert found["2335MB"][3] == "openai/whisper"


# As shouxieai/tensorRT_Pro's README.md shows its fast YoloX and YoloV5 builds: each row's
# model is a known model with "_fast" appended, under a heading naming YoloX.
TENSORRT_PRO_MODELS = """## YoloX and YoloV5-series Model Test Report

|Model|Resolution|Type|Precision|Elapsed Time|FPS|
|---|---|---|---|---|---|
|yolox_x_fast|640x640|YoloX|FP32|21.598 |46.30 |
|yolov5x_fast|640x640|YoloV5_P5|FP32|18.554 |53.90 |
|yolov5s_fast|640x640|YoloV5_P5|INT8|1.006 |994.04 |
"""


def test_a_models_name_with_a_fast_suffix_is_that_model_not_the_headings():
    found = fields_by_raw_value(
        TENSORRT_PRO_MODELS, "model", "model_canonical", "model_variant", "precision"
    )
    assert found["46.30"] == ("yolox_x_fast", "YOLOX-X", "fast", "FP32")
    assert found["53.90"] == ("yolov5x_fast", "YOLOv5x", "fast", "FP32")
    assert found["994.04"] == ("yolov5s_fast", "YOLOv5s", "fast", "INT8")


# As li-plus/chatglm.cpp's README.md lists the machine of each backend (Performance), then
# shows the models' perplexity in a section of its own that names no device.
CHATGLM_CPP_QUALITY = """## Performance

Environment:
* CPU backend performance is measured on a Linux server with Intel(R) Xeon(R) Platinum 8260 \
CPU @ 2.40GHz using 16 threads.
* CUDA backend is measured on a V100-SXM2-32GB GPU using 1 thread.
* MPS backend is measured on an Apple M2 Ultra device using 1 thread.

ChatGLM4-9B:

|                                | Q4_0 | Q8_0 | F16  |
|--------------------------------|------|------|------|
| ms/token (CPU @ Platinum 8260) | 105  | 158  | 279  |
| ms/token (MPS @ M2 Ultra)      | 14.4 | 20.7 | 32.4 |

## Model Quality

We measure model quality by evaluating the perplexity over the WikiText-2 test dataset, \
following the strided sliding window strategy in \
https://huggingface.co/docs/transformers/perplexity. Lower perplexity usually indicates a \
better model.

|                         | Q4_0  | Q8_0  | F16   |
|-------------------------|-------|-------|-------|
| [ChatGLM3-6B-Base][1]   | 6.215 | 5.971 | 5.972 |
"""


def test_prose_listing_each_backends_machine_gives_no_chip_to_a_table_naming_none():
    found = fields_by_raw_value(CHATGLM_CPP_QUALITY, "metric", "value", "accelerator")
    assert found["6.215"] == ("accuracy", 6.215, None)
    assert found["5.972"] == ("accuracy", 5.972, None)
    # the rows naming their backend's chip keep it
    assert found["105"] == ("latency", 105.0, "Xeon 8260")
    assert found["14.4"] == ("latency", 14.4, "M2 Ultra")
