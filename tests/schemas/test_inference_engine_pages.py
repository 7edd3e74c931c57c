"""Reading gaps found on benchmark pages of inference engines no corpus held: a device's
memory named in a header ("Max. GPU memory" beside "Max. CPU memory") is no device class the
column ran on, and a page's opening prose that reports results in passing ("87.3 top-1
accuracy", "greater efficiency") names no metric for the tables far below it."""

from __future__ import annotations

from perfledger.schemas.context_labels import device_class
from perfledger.schemas.model_names import models_in_text
from perfledger.schemas.placeholders import is_placeholder
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As OpenNMT/CTranslate2's README.md (Benchmarks, GPU) shows its GPU runs: the note under
# the table names the GPU, two memory columns name the GPU's and the host's memory.
CTRANSLATE2_GPU = """## Benchmarks

#### GPU

| | Tokens per second | Max. GPU memory | Max. CPU memory | BLEU |
| --- | --- | --- | --- | --- |
| **OpenNMT-tf WMT14 model** | | | | |
| OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0) | 1483.5 | 3031MB | 3122MB | 26.94 |
| **OPUS-MT model** | | | | |
| Marian 1.11.0 | 3241.0 | 3381MB | 2156MB | 27.92 |

Executed with CUDA 11 on a [*g5.xlarge*](https://aws.amazon.com/ec2/instance-types/g5/) \
Amazon EC2 instance equipped with a NVIDIA A10G GPU (driver version: 510.47.03).
"""


def test_a_devices_memory_in_a_header_names_no_device_the_column_ran_on():
    found = fields_by_raw_value(
        CTRANSLATE2_GPU, "metric", "value", "accelerator", "accelerator_count"
    )
    # Every column of a run on the A10G, not only the memory columns
    assert found["1483.5"] == ("throughput", 1483.5, "A10G", 1)
    assert found["26.94"] == ("accuracy", 26.94, "A10G", 1)
    assert found["3241.0"] == ("throughput", 3241.0, "A10G", 1)
    assert found["3031MB"] == ("other", 3031.0, "A10G", 1)
    assert found["2156MB"] == ("other", 2156.0, "A10G", 1)


def test_a_header_naming_a_device_and_no_memory_still_names_its_class():
    assert device_class("Max. GPU memory") is None
    assert device_class("CPU memory (MB)") is None
    assert device_class("GPU time (ms)") == "accelerator"
    assert device_class("CPU latency") == "cpu"


# As NVIDIA/FasterTransformer's docs/swin_guide.md opens (the paper's abstract), then shows
# its latencies without a unit beside speedups (Performance, Swin-V1 FP32 on T4).
FT_SWIN = """# Faster Swin-Transformer

Swin Transformer, that capably serves as a general-purpose backbone for computer vision. \
The shifted windowing scheme brings greater efficiency by limiting self-attention computation \
to non-overlapping local windows while also allowing for cross-window connection. These \
qualities of Swin Transformer make it compatible with a broad range of vision tasks, \
including image classification (87.3 top-1 accuracy on ImageNet-1K) and dense prediction \
tasks such as object detection (58.7 box AP and 51.1 mask AP on COCO testdev).

## Performance

### Swin Performance on T4
Here, `torch.jit.trace` means using tracing to convert Torch model to TorchScript model and \
then profile its performance.
#### Swin-V1 FP32
| Batch_size | torch.jit.trace |  cpp   | speedup | trt plugin | speedup | torch op | speedup |
| :--------: | :-------------: | :----: | :-----: | :--------: | :-----: | :------: | :-----: |
|     1      |      11.70      |  4.49  |  2.61   |    4.64    |  2.52   |   4.68   |  2.50   |
|     8      |      36.89      | 27.39  |  1.35   |   29.23    |  1.26   |  29.04   |  1.27   |
"""


def test_results_the_opening_prose_reports_name_no_metric_for_a_table_below():
    document = normalized(FT_SWIN)
    loaded = {
        row["raw_value"]: (row["metric"], row["accelerator"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded["2.61"] == ("speedup", "T4")
    assert loaded["1.27"] == ("speedup", "T4")
    # A latency with no unit and no metric of its own is neither an accuracy (the abstract's
    # "87.3 top-1 accuracy") nor a scaling efficiency ("brings greater efficiency")
    for latency in ("11.70", "4.49", "27.39", "29.04"):
        assert latency not in loaded
    quarantined = document.quarantine.filter(document.quarantine["raw_value"] == "11.70")
    assert quarantined["check"].to_list() == ["unknown_metric"]


# A sentence that names the metric of the table under it, with figures of another kind,
# still names it.
THROUGHPUT_NOTE = """## Results

The following table shows the throughput of 8 GPUs at batch size 64.

| Model | Result |
| --- | --- |
| ResNet-50 | 2510 |
"""


def test_a_paragraph_naming_a_metric_beside_other_figures_still_names_it():
    found = fields_by_raw_value(THROUGHPUT_NOTE, "metric")
    assert found["2510"] == ("throughput",)


# As NVIDIA/FasterTransformer's docs/swin_guide.md compares INT8 and FP16 runs of each size
# (Performance on T4, "INT8 vs. FP16 speedup on Swin-V1 TINY/SMALL/BASE/LARGE"), its
# latencies without a unit.
FT_SWIN_INT8 = """### Swin Performance on T4

#### INT8 vs. FP16 speedup on Swin-V1 TINY/SMALL/BASE/LARGE:
| Batch_size | TINY (FP16) | TINY (INT8) | Speedup | SMALL (FP16) | SMALL (INT8) | Speedup |
| :--------: | :---------: | :---------: | :-----: | :----------: | :----------: | :-----: |
|     1      |    1.43     |    1.18     |  1.21   |     2.90     |     2.15     |  1.34   |
|     8      |    6.60     |    4.26     |  1.55   |    11.02     |     6.63     |  1.66   |
"""


def test_a_speedup_the_heading_names_is_the_tables_own_speedup_column():
    document = normalized(FT_SWIN_INT8)
    loaded = {
        row["raw_value"]: (row["metric"], row["value"], row["accelerator"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert loaded["1.21"] == ("speedup", 1.21, "T4")
    assert loaded["1.66"] == ("speedup", 1.66, "T4")
    # The runs compared are latencies without a unit, not speedups
    for latency in ("1.43", "1.18", "11.02", "6.63"):
        assert latency not in loaded
    quarantined = document.quarantine.filter(document.quarantine["raw_value"] == "11.02")
    assert quarantined["check"].to_list() == ["unknown_metric"]


# As SYSTRAN/faster-whisper's README.md (lines 3 to 40) names the model of each GPU table in
# the heading over it.
FASTER_WHISPER_GPU = """# Faster Whisper transcription with CTranslate2

**faster-whisper** is a reimplementation of OpenAI's Whisper model using [CTranslate2](https://github.com/OpenNMT/CTranslate2/), which is a fast inference engine for Transformer models.

This implementation is up to 4 times faster than [openai/whisper](https://github.com/openai/whisper) for the same accuracy while using less memory. The efficiency can be further improved with 8-bit quantization on both CPU and GPU.

## Benchmark

### Whisper

For reference, here's the time and memory usage that are required to transcribe [**13 minutes**](https://www.youtube.com/watch?v=0u7tTptBo9I) of audio using different implementations:

* [openai/whisper](https://github.com/openai/whisper)@[v20240930](https://github.com/openai/whisper/tree/v20240930)
* [whisper.cpp](https://github.com/ggerganov/whisper.cpp)@[v1.7.2](https://github.com/ggerganov/whisper.cpp/tree/v1.7.2)
* [transformers](https://github.com/huggingface/transformers)@[v4.46.3](https://github.com/huggingface/transformers/tree/v4.46.3)
* [faster-whisper](https://github.com/SYSTRAN/faster-whisper)@[v1.1.0](https://github.com/SYSTRAN/faster-whisper/tree/v1.1.0)

### Large-v2 model on GPU

| Implementation | Precision | Beam size | Time | VRAM Usage |
| --- | --- | --- | --- | --- |
| openai/whisper | fp16 | 5 | 2m23s | 4708MB |
| whisper.cpp (Flash Attention) | fp16 | 5 | 1m05s | 4127MB |
| transformers (SDPA)[^1] | fp16 | 5 | 1m52s | 4960MB |
| faster-whisper | fp16 | 5 | 1m03s | 4525MB |
| faster-whisper (`batch_size=8`) | fp16 | 5 | 17s | 6090MB |
| faster-whisper | int8 | 5 | 59s | 2926MB |
| faster-whisper (`batch_size=8`) | int8 | 5 | 16s | 4500MB |

### distil-whisper-large-v3 model on GPU

| Implementation | Precision | Beam size | Time | YT Commons WER |
| --- | --- | --- | --- | --- |
| transformers (SDPA) (`batch_size=16`) | fp16 | 5 | 46m12s | 14.801 |
| faster-whisper (`batch_size=16`) | fp16 | 5 | 25m50s | 13.527 |

*GPU Benchmarks are Executed with CUDA 12.4 on a NVIDIA RTX 3070 Ti 8GB.*
[^1]: transformers OOM for any batch size > 1
"""


def test_a_distilled_whisper_is_a_model_of_its_own():
    found = fields_by_raw_value(
        FASTER_WHISPER_GPU, "metric", "value", "model_canonical", "accelerator"
    )
    assert found["25m50s"] == ("time_to_result", 1550.0, "Distil-Whisper Large v3", "RTX 3070 Ti")
    assert found["46m12s"] == ("time_to_result", 2772.0, "Distil-Whisper Large v3", "RTX 3070 Ti")
    assert found["13.527"] == ("accuracy", 13.527, "Distil-Whisper Large v3", "RTX 3070 Ti")


# As ztxz16/fastllm's test/agent/results/agent_tool_qwen3_8b_fp8_fastllm_vs_vllm.md compares
# its engine with vLLM serving one model (its title, and rows of its "Results" table).
FASTLLM_VS_VLLM = """# Agent Tool-use Qwen3-8B-FP8 FastLLM vs vLLM

## Results

| Metric | FastLLM | vLLM | Delta |
| --- | ---: | ---: | ---: |
| Accuracy | 91.67% | 91.67% | same |
| P50 case latency | 591.82 ms | 532.66 ms | vLLM -10.00% |
| Output tok/s | 376.48 | 439.94 | vLLM +16.85% |
"""


def test_a_model_named_before_a_comparison_of_engines_takes_no_engine_from_it():
    found = fields_by_raw_value(
        FASTLLM_VS_VLLM, "metric", "model_canonical", "framework_canonical", "activation_dtype"
    )
    # "Qwen3-8B-FP8 FastLLM vs vLLM" names the model and the two engines compared: the
    # FastLLM column's values were labeled as vLLM's
    assert found["591.82 ms"] == ("latency", "Qwen3 8B", None, "fp8")
    assert found["376.48"] == ("throughput", "Qwen3 8B", None, "fp8")
    # the vLLM column's own values are vLLM's: its header names the engine
    assert found["532.66 ms"] == ("latency", "Qwen3 8B", "vLLM", "fp8")


def test_a_comparison_word_ends_a_model_name():
    named = models_in_text("Agent Tool-use Qwen3-8B-FP8 FastLLM vs vLLM")
    assert [(phrase, reading.canonical, reading.framework) for phrase, reading in named] == [
        ("Qwen3-8B-FP8", "Qwen3 8B", None)
    ]
    named = models_in_text("Llama 2 70B vs. Llama 2 13B")
    assert [reading.canonical for _phrase, reading in named] == ["Llama 2 70B", "Llama 2 13B"]
    # "on vLLM" still names the engine the model ran on
    assert models_in_text("Qwen3-8B-FP8 on vLLM")[0][1].framework == "vLLM"


# As wang-xinyu/tensorrtx's yolov9/README.md (speed test) publishes the precisions it did
# not run as "-ms".
TENSORRTX_YOLOV9 = """# YOLOv9

The speed test is done on a desktop with R7-5700G CPU and RTX 4060Ti GPU. The input size is \
640x640. The FP32, FP16 and INT8 models are tested.

| frame  | Model | FP32 | FP16 | INT8 |
| --- | --- | --- | --- | --- |
| tensorrt | YOLOv5-n | -ms | 0.58ms | -ms |
| tensorrt | YOLOv9-s | -ms | 1.78ms | -ms |
| tensorrt | YOLOv9-m | -ms | 3.1ms | -ms |
| tensorrt | YOLOv9-c | 13.5ms | 4.6ms | 3.0ms |
| tensorrt | YOLOv9-e | 8.3ms | 3.2ms | 2.15ms |
"""


def test_a_placeholder_written_with_its_unit_is_a_placeholder():
    document = normalized(TENSORRTX_YOLOV9)
    loaded = {
        row["raw_value"]: (row["metric"], row["value"], row["accelerator"], row["activation_dtype"])
        for row in document.measurements.iter_rows(named=True)
    }
    # The FP32 and INT8 columns hold two values each among "-ms": they were read as row
    # labels and their values lost
    assert loaded["13.5ms"] == ("latency", 13.5, "RTX 4060 Ti", "fp32")
    assert loaded["2.15ms"] == ("latency", 2.15, "RTX 4060 Ti", "int8")
    assert loaded["0.58ms"] == ("latency", 0.58, "RTX 4060 Ti", "fp16")
    assert "-ms" not in loaded
    assert len(loaded) == 9


def test_a_label_after_a_dash_is_no_placeholder():
    assert is_placeholder("-ms") and is_placeholder("N/A fps") and is_placeholder("- tok/s")
    # CTranslate2's README lists its runs' variants as "- int8", "- int8 + vmap"
    assert not is_placeholder("- int8") and not is_placeholder("- int8 + vmap")
    assert not is_placeholder("- float16")
