"""Tables of research code and model releases, written as their READMEs write them: a detector's
speeds with the unit in italics, a mobile model's latency per phone chip named by its code, and
a quantization library's news naming its models by their hub ids."""

from __future__ import annotations

from perfledger.schemas.labels import header_batch_shorthand
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As YOLOv7's README writes its results: the unit of a speed in italics after the number
# ("161 *fps*"), and the mean time of a batch of 32 images in ms.
ITALIC_UNITS = """# YOLOv7

## Performance

MS COCO

| Model | Test Size | AP<sup>test</sup> | AP<sub>50</sub><sup>test</sup> | AP<sub>75</sub><sup>test</sup> | batch 1 fps | batch 32 average time |
| :-- | :-: | :-: | :-: | :-: | :-: | :-: |
| [**YOLOv7**](https://github.com/WongKinYiu/yolov7/releases/download/v0.1/yolov7.pt) | 640 | **51.4%** | **69.7%** | **55.9%** | 161 *fps* | 2.8 *ms* |
| [**YOLOv7-X**](https://github.com/WongKinYiu/yolov7/releases/download/v0.1/yolov7x.pt) | 640 | **53.1%** | **71.2%** | **57.8%** | 114 *fps* | 4.3 *ms* |
"""


def test_a_unit_in_italics_after_the_number_is_the_values_unit():
    found = fields_by_raw_value(ITALIC_UNITS, "model", "metric", "value", "unit")
    assert found["161 fps"] == ("YOLOv7", "throughput", 161.0, "items/s")
    assert found["114 fps"] == ("YOLOv7-X", "throughput", 114.0, "items/s")


def test_the_average_time_of_a_batch_is_a_latency_at_that_batch_size():
    found = fields_by_raw_value(ITALIC_UNITS, "metric", "value", "unit", "batch_size_number")
    assert found["2.8 ms"] == ("latency", 2.8, "ms", 32)
    assert found["4.3 ms"] == ("latency", 4.3, "ms", 32)
    assert fields_by_raw_value(ITALIC_UNITS, "batch_size_number")["161 fps"] == (1,)


# As YOLOv6's README writes its mobile benchmark: a latency column per phone chip, headed by
# the chip's code; the table's notes name each chip with its code in brackets.
CHIP_CODES = """## Mobile Benchmark
| Model | Size | mAP<sup>val<br/>0.5:0.95 | sm8350<br/><sup>(ms) | mt6853<br/><sup>(ms) | sdm660<br/><sup>(ms) |Params<br/><sup> (M) |   FLOPs<br/><sup> (G) |
| :----------------------------------------------------------- | ---- | -------------------- | -------------------- | -------------------- | -------------------- | -------------------- | -------------------- |
| [**YOLOv6Lite-S**](https://github.com/meituan/YOLOv6/releases/download/0.4.0/yolov6lite_s.pt) | 320*320 | 22.4                     | 7.99                     | 11.99                     | 41.86                     | 0.55                     | 0.56                     |

<details open>
<summary>Table Notes</summary>

- Speed is tested on MNN 2.3.0 AArch64 with 2 threads by arm82 acceleration. The inference warm-up is performed 10 times, and the cycle is performed 100 times.
- Qualcomm 888(sm8350), Dimensity 720(mt6853) and Qualcomm 660(sdm660) correspond to chips with different performances at the high, middle and low end respectively, which can be used as a reference for model capabilities under different chips.
</details>
"""


def test_a_column_headed_by_a_chips_code_runs_on_the_chip_the_notes_give_that_code():
    found = fields_by_raw_value(CHIP_CODES, "metric", "unit", "vendor", "accelerator")
    assert found["7.99"] == ("latency", "ms", "Qualcomm", "Snapdragon 888")
    assert found["11.99"] == ("latency", "ms", "MediaTek", "Dimensity 720")
    assert found["41.86"] == ("latency", "ms", "Qualcomm", "Snapdragon 660")


# As AQLM's README writes its news: a model named by its hub id, whose quantization scheme
# ("1x8": one codebook of 8 bits) is written like a count of chips ("1x A100").
HUB_IDS = """# AQLM

**[2025.04]** Released aqlm v1.1.7. Added support for arbitrary 8-dimensional codebooks on GPU, improved accuracy for 1-bit models, e.g. [ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf) at ~1 bit achieves WikiText 2 PPL 7.85.

| Model      | AQLM scheme | WikiText-2 PPL | MMLU (5-shot) FP16→AQLM | Model size, Gb | Hub link                                                                 |
|------------|-------------|----------------|---------------|----------------|--------------------------------------------------------------------------|
| Llama-2-7b | 2x8         | 6.69          | - | 2.2            | [Link](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-2Bit-2x8-hf)  |
"""


def test_a_scheme_inside_a_models_hub_id_names_no_chip():
    found = fields_by_raw_value(HUB_IDS, "model", "accelerator", "accelerator_count", "platform")
    assert found["6.69"] == ("Llama-2-7b", None, None, None)


# As AQLM's README writes its kernels: each kernel's speedup as a bound ("Up to ~1.3x"), the
# first row (Triton) as much a row of data as the others.
BOUNDED_SPEEDUPS = """# AQLM

### Inference kernels

AQLM quantization setpus vary mainly on the number of codebooks used as well as the codebook sizes in bits. The most popular setups, as well as inference kernels they support are:

| Kernel | Number of codebooks | Codebook size, bits | Scheme Notation | Accuracy | Speedup     | Fast GPU inference | Fast CPU inference |
|---|---------------------|---------------------|----------|-------------|-------------|--------------------|--------------------|
| Triton | K                   | N                  | KxN     | -        | Up to ~0.7x | ✅                  | ❌                  |
| CUDA | 1                   | 16                  | 1x16     | Best        | Up to ~1.3x | ✅                  | ❌                  |
| CUDA | 2                   | 8                   | 2x8      | OK          | Up to ~3.0x | ✅                  | ❌                  |
| Numba | K                   | 8                   | Kx8      | Good        | Up to ~4.0x | ❌                  | ✅                  |
"""


def test_a_speedup_written_as_a_bound_is_set_apart_as_one_not_lost():
    quarantined = normalized(BOUNDED_SPEEDUPS).quarantine
    bounds = quarantined.filter(quarantined["check"] == "bound_value")
    assert sorted(zip(bounds["column_name"], bounds["raw_value"], strict=True)) == [
        ("Speedup", "Up to ~0.7x"),
        ("Speedup", "Up to ~1.3x"),
        ("Speedup", "Up to ~3.0x"),
        ("Speedup", "Up to ~4.0x"),
    ]


def test_the_number_of_codebooks_is_a_setting_of_the_scheme_not_a_value():
    assert normalized(BOUNDED_SPEEDUPS).measurements.height == 0
    quarantined = normalized(BOUNDED_SPEEDUPS).quarantine
    assert "Number of codebooks" not in quarantined["column_name"].to_list()


# As AQLM's README writes its MMLU scores: the score before and after quantizing, joined by an
# arrow under a header naming both ends ("FP16→AQLM").
CHANGE_WITH_AN_ARROW = """# AQLM

**[2025.04]** Released aqlm v1.1.7. Added support for arbitrary 8-dimensional codebooks on GPU, improved accuracy for 1-bit models, e.g. [ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-1Bit-1x8-hf) at ~1 bit achieves WikiText 2 PPL 7.85.

### Models

This repository is currently designed to work with models of `LLaMA`, `Mistral` and `Mixtral` families.
The models reported below use **full model fine-tuning** as described in appendix A, with cross-entropy objective with teacher logits.

We provide a number of prequantized AQLM models without PV-Tuning (scroll down for PV-Tuned models):

| Model      | AQLM scheme | WikiText-2 PPL | MMLU (5-shot) FP16→AQLM | Model size, Gb | Hub link                                                                 |
|------------|-------------|----------------|---------------|----------------|--------------------------------------------------------------------------|
| Llama-3-8b | 1x16        | -          | 0.65→0.56 | 4.1            | [Link](https://huggingface.co/ISTA-DASLab/Meta-Llama-3-8B-AQLM-2Bit-1x16) |
| Llama-2-7b | 1x16        | 5.92          | 0.46→0.39 | 2.4            | [Link](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-2Bit-1x16-hf) |
"""


def test_a_change_written_with_an_arrow_loads_both_ends_each_under_its_own_name():
    rows = normalized(CHANGE_WITH_AN_ARROW).measurements.filter(
        normalized(CHANGE_WITH_AN_ARROW).measurements["raw_value"] == "0.65→0.56"
    )
    found = sorted(rows.select("value", "precision", "qualifier", "model").rows())
    assert found == [(0.56, "1x16", "AQLM", "Llama-3-8b"), (0.65, "FP16", "FP16", "Llama-3-8b")]


# As MobileSAM's README writes it: a demo's CPU named in its news, then, nearer its tables,
# "On a single GPU, MobileSAM runs around 12ms per image" above the tables of those times.
CPU_DEMO_ABOVE_GPU_TIMES = """# Faster Segment Anything (MobileSAM) and Everything (MobileSAMv2)

**A demo of MobileSAM** running on **CPU** is open at [hugging face demo](https://huggingface.co/spaces/dhkim2810/MobileSAM). On our own Mac i5 CPU, it takes around 3s. On the hugging face demo, the interface and inferior CPUs make it slower but still works fine. Stayed tuned for a new version with more features! You can also run a demo of MobileSAM on [your local PC](https://github.com/ChaoningZhang/MobileSAM/tree/master/app).

:star: **MobileSAM performs on par with the original SAM (at least visually)** and keeps exactly the same pipeline as the original SAM except for a change on the image encoder. Specifically, we replace the original heavyweight ViT-H encoder (632M) with a much smaller Tiny-ViT (5M). On a single GPU, MobileSAM runs around 12ms per image: 8ms on the image encoder and 4ms on the mask decoder.

* The comparison of ViT-based image encoder is summarzed as follows:

    Image Encoder                                      | Original SAM | MobileSAM
    :-----------------------------------------:|:---------|:-----:
    Parameters      |  611M   | 5M
    Speed      |  452ms  | 8ms
"""


def test_a_cpu_named_farther_up_is_not_the_chip_of_times_a_nearer_text_says_ran_on_a_gpu():
    found = fields_by_raw_value(CPU_DEMO_ABOVE_GPU_TIMES, "metric", "value", "accelerator")
    assert found["452ms"] == ("latency", 452.0, None)
    assert found["8ms"] == ("latency", 8.0, None)


# As YOLOv6's README heads its speeds: the batch size written "b1" and "b32" among the chip,
# the engine and the precision.
BATCH_SHORTHAND = """### Benchmark
| Model                                                        | Size | mAP<sup>val<br/>0.5:0.95 | Speed<sup>T4<br/>trt fp16 b1 <br/>(fps) | Speed<sup>T4<br/>trt fp16 b32 <br/>(fps) | Params<br/><sup> (M) | FLOPs<br/><sup> (G) |
| :----------------------------------------------------------- | ---- | :----------------------- | --------------------------------------- | ---------------------------------------- | -------------------- | ------------------- |
| [**YOLOv6-N**](https://github.com/meituan/YOLOv6/releases/download/0.4.0/yolov6n.pt) | 640  | 37.5                     | 779                                     | 1187                                     | 4.7                  | 11.4                |
"""


def test_a_batch_size_written_b_and_its_number_in_a_speed_header_is_read():
    found = fields_by_raw_value(BATCH_SHORTHAND, "metric", "accelerator", "batch_size_number")
    assert found["779"] == ("throughput", "T4", 1)
    assert found["1187"] == ("throughput", "T4", 32)


def test_a_models_letter_and_number_is_no_batch_size():
    assert header_batch_shorthand("EfficientNet B4 (ms)") is None
    assert header_batch_shorthand("vit_b16 (ms)") is None
    assert header_batch_shorthand("ResNet-b2 latency") is None


# As faster-whisper's README compares implementations of one model: the "Implementation"
# column names the software each run used.
IMPLEMENTATIONS = """### Whisper

For reference, here's the time and memory usage that are required to transcribe [**13 minutes**](https://www.youtube.com/watch?v=0u7tTptBo9I) of audio using different implementations:

### Large-v2 model on GPU

| Implementation | Precision | Beam size | Time | VRAM Usage |
| --- | --- | --- | --- | --- |
| openai/whisper | fp16 | 5 | 2m23s | 4708MB |
| whisper.cpp (Flash Attention) | fp16 | 5 | 1m05s | 4127MB |
| faster-whisper (`batch_size=8`) | fp16 | 5 | 17s | 6090MB |
"""


def test_an_implementation_column_names_each_runs_framework():
    found = fields_by_raw_value(IMPLEMENTATIONS, "framework", "value", "unit", "batch_size_number")
    assert found["4127MB"] == ("whisper.cpp (Flash Attention)", 4127.0, "MB", None)
    assert found["6090MB"] == ("faster-whisper (batch_size=8)", 6090.0, "MB", 8)
    assert found["4708MB"][0] == "openai/whisper"
