"""Tables of publishers no corpus holds, written as their pages write them: a kernel library
naming its kernels' modes with a metric word over a section that states a unit of time, and
the pages of vendors of Chinese and other non-NVIDIA accelerators and of Chinese model
makers."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a kernel library's MoE benchmark notes write it: the section states the unit of all its
# tables ("All µs/call"); each table's caption names the kernels' mode, "High-Throughput" or
# "Low-Latency", not what its numbers measure.
MODE_CAPTIONS = """# MoE benchmarks

## 3. Results

All µs/call, BF16, hidden 7168 / top-k 8 / 256 experts, Pre-Nyx B200 (8 GPU/node, NDR IB).

### 3.1 Same kernels, same GPU time — and the host-call comparison

**Low-Latency (em), 128 tok/rank:**

| GPUs | stage | ep kernel | ep event meas | FI kernel | FI measured (fast) |
|---:|---|---:|---:|---:|---:|
| 8 | dispatch | 43.9 | 50.0 | 45.3 | 65.0 |

**High-Throughput (flat), 4096 tok/rank:**

| GPUs | stage | ep kernel | ep event meas | FI kernel | FI measured (fast) |
|---:|---|---:|---:|---:|---:|
| 8 | dispatch | 545.9 | 691.2 | 529.2 | 714.6 |
| 64 | combine | 6024.0 | 6172.8 | 5933.7 | 7116.3 |
"""


def test_a_mode_named_high_throughput_yields_to_the_time_unit_its_section_states():
    found = fields_by_raw_value(MODE_CAPTIONS, "metric", "unit", "value", "accelerator_count")
    assert found["545.9"] == ("latency", "ms", 0.5459, 8)
    assert found["7116.3"] == ("latency", "ms", 7.1163, 64)
    assert found["43.9"] == ("latency", "ms", 0.0439, 8)


# A caption naming a throughput with no unit of another dimension stated still gives it.
MODE_WITHOUT_UNIT = """# Serving

**High-Throughput mode, 8 GPUs:**

| Model | Llama 3 8B |
|---|---:|
| Result | 5120.5 |
"""


def test_a_mode_named_high_throughput_still_names_a_throughput_when_nothing_contradicts():
    assert fields_by_raw_value(MODE_WITHOUT_UNIT, "metric")["5120.5"] == ("throughput",)


# As a model maker's speed benchmark writes it (HTML in Markdown): the memory each run took
# beside its speed, under a device word ("GPU Memory(MB)") that counts no devices.
SPEED_AND_MEMORY = """# Speed Benchmark

- **Hardware**: NVIDIA H20 96GB

### Qwen3-0.6B (Transformers)

<table>
    <thead>
        <tr>
            <th>Model</th><th>Input Length</th><th>Quantization</th><th>GPU Num</th>
            <th>Speed (tokens/s)</th><th>GPU Memory(MB)</th>
        </tr>
    </thead>
    <tbody>
        <tr>
            <td rowspan="2">Qwen3-0.6B</td>
            <td rowspan="2">1</td><td>BF16</td><td>1</td><td>58.57</td><td>1394</td>
        </tr>
        <tr>
            <td>FP8</td><td>1</td><td>24.60</td><td>1217</td>
        </tr>
    </tbody>
</table>
"""


def test_a_device_word_before_a_measure_in_bytes_is_no_count_of_devices():
    found = fields_by_raw_value(SPEED_AND_MEMORY, "metric", "unit", "accelerator_count")
    assert found["1394"] == ("other", "MB", 1)
    assert found["1217"] == ("other", "MB", 1)
    assert found["58.57"] == ("throughput", "items/s", 1)


# As a training framework's llama.cpp notes write it: "ngl" (defined above the tables as the
# number of GPU layers) is a setting of the run, not the number of GPUs.
GPU_LAYERS = """# Efficiency Test

Abbreviations:
- t/s: tokens per second
- ngl: number of gpu layers

### GPU(CUDA)

| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| qwen3 0.6B F16                 |   1.40 GiB |   751.63 M | CUDA       |  99 |           pp512 |    24335.09 ± 171.34 |
| qwen3 0.6B F16                 |   1.40 GiB |   751.63 M | CUDA       |  99 |           tg128 |        168.67 ± 0.53 |
"""


def test_the_number_of_gpu_layers_is_a_setting_and_no_count_of_gpus():
    found = fields_by_raw_value(GPU_LAYERS, "metric", "accelerator_count", "settings")
    assert found["24335.09 ± 171.34"][:2] == ("throughput", None)
    assert "ngl=99" in found["168.67 ± 0.53"][2]


# As the same notes write their host: a section naming a GPU and a CPU, with a subsection per
# device class; the "CPU" subsection's numbers ran on the CPU (backend CPU, 64 threads).
DEVICE_SUBSECTIONS = """# Efficiency Test

## A800, Intel Xeon Platinum 8358 CPU (128 core)

### CPU

| model                          |       size |     params | backend    | threads |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | ------: | --------------: | -------------------: |
| qwen3 0.6B F16                 |   1.40 GiB |   751.63 M | CPU        |      64 |           pp512 |     1088.26 ± 128.44 |

### GPU(CUDA)

| model                          |       size |     params | backend    | ngl |            test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | --------------: | -------------------: |
| qwen3 0.6B F16                 |   1.40 GiB |   751.63 M | CUDA       |  99 |           pp512 |    24335.09 ± 171.34 |
"""


def test_a_subsection_naming_a_class_of_device_takes_the_sections_chip_of_that_class():
    found = fields_by_raw_value(DEVICE_SUBSECTIONS, "accelerator", "vendor")
    assert found["1088.26 ± 128.44"] == ("Xeon 8358", "Intel")
    assert found["24335.09 ± 171.34"] == ("A800", "NVIDIA")


def test_a_ggml_tensor_type_in_a_llama_bench_model_cell_is_its_precision():
    found = fields_by_raw_value(GPU_LAYERS, "activation_dtype", "weight_dtype")
    assert found["168.67 ± 0.53"] == ("fp16", "fp16")


# As an IPU vendor's Swin example writes its accuracies: "mix" is the GPU reference's mixed
# precision, beside the IPU's "16.16" and "32.32" (inputs.weights).
SHORT_PRECISIONS = """# SWIN

Accuracy is as follows:

| model | input size | precision | machine |     acc     |
|-------|------------|-----------|---------|-------------|
| tiny  |   224      |    16.16  |  pod16  |    80.9%    |
| tiny  |   224      |     mix   |  v100   |  81.3%(SOTA)|
"""


def test_mix_is_mixed_precision():
    found = fields_by_raw_value(SHORT_PRECISIONS, "activation_dtype", "accelerator")
    assert found["81.3%(SOTA)"] == ("mixed", "V100")
    assert found["80.9%"] == ("fp16", "GC200 IPU")


# As an inference toolkit's Chinese quantization page writes its benchmark: latencies in ms
# (stated under the section's "Benchmark表格说明"), the largest speedup ("最大加速比"), the
# accuracies before and after quantizing.
CN_QUANTIZE = """## 量化模型 Benchmark

Benchmark表格说明:
- 所测时延均为推理1000次后求得的平均值, 单位是毫秒.
- 最大加速比, 为FP32时延除以INT8推理的最快时延,得到最大加速比.

### YOLO 系列
#### Runtime Benchmark
| 模型                 |推理后端            |部署硬件    | FP32 Runtime时延   | INT8 Runtime时延 | INT8 + FP16 Runtime时延  | INT8+FP16+PM Runtime时延  | 最大加速比    | FP32 mAP | INT8 mAP | 量化方式   |
| ------------------- | -----------------|-----------|  --------     |--------      |--------      | --------- |-------- |----- |----- |----- |
| [YOLOv5s](../../examples/vision/detection/yolov5/quantize/)             | TensorRT   |    GPU    |  7.87    | 4.51 |  4.31     | 3.17     |      2.48         | 37.6  | 36.7 | 量化蒸馏训练 |
"""


def test_a_chinese_speedup_column_is_a_speedup_not_an_accuracy():
    found = fields_by_raw_value(CN_QUANTIZE, "metric", "unit", "value")
    assert found["2.48"] == ("speedup", "x", 2.48)
    assert found["7.87"] == ("latency", "ms", 7.87)
    assert found["37.6"][0] == "accuracy"


# The same page's hardware: a platform column naming only the class of device each row ran
# on ("GPU", "CPU"), the chips written once in the notes above ("CPU为Intel(R) Xeon(R) Gold
# 6271C ... GPU为Tesla T4").
CN_HARDWARE = """## 量化模型 Benchmark

Benchmark表格说明:
- 所测时延均为推理1000次后求得的平均值, 单位是毫秒.
- CPU为Intel(R) Xeon(R) Gold 6271C, 所有测试中固定CPU线程数为1.  GPU为Tesla T4, TensorRT版本8.4.15.

### YOLO 系列
#### Runtime Benchmark
| 模型                 |推理后端            |部署硬件    | FP32 Runtime时延   | INT8 Runtime时延 |
| ------------------- | -----------------|-----------|  --------     |--------      |
| [YOLOv5s](../../examples/vision/detection/yolov5/quantize/)             | TensorRT   |    GPU    |  7.87    | 4.51 |
| [YOLOv5s](../../examples/vision/detection/yolov5/quantize/)              | ONNX Runtime   |    CPU    |  176.41      |    91.90   |
"""


def test_a_row_naming_only_a_class_of_device_takes_the_pages_chip_of_that_class():
    found = fields_by_raw_value(CN_HARDWARE, "accelerator", "vendor", "platform")
    assert found["7.87"] == ("T4", "NVIDIA", "GPU")
    assert found["176.41"] == ("Xeon 6271C", "Intel", "CPU")


# As an NPU vendor's model zoo writes its training results: "精度模式" (precision mode) names
# the precision of each row, "混合精度" (mixed precision) or "FP32"; "CER" is the accuracy.
CN_PRECISION_MODE = """# 训练结果展示

**表 2**  训练结果展示表

| NAME          | 精度模式 | CER   | FPS    | Epochs | Torch_version |
|--------       |-------------|:-------|--------| :------------ |--------       |
| 8p-竞品       | 混合精度    | 95.4        | 398.8  | 50     | -             |
| 8p-NPU(ARM)   | 混合精度    | 95.4        | 540  | 50     | 1.8           |
| 8p-NPU(ARM) | FP32 | 95.4 | 670 | 50 | 1.8 |
"""


def test_a_chinese_precision_mode_column_is_the_rows_precision_not_an_accuracy():
    found = fields_by_raw_value(
        CN_PRECISION_MODE, "metric", "activation_dtype", "weight_dtype", "accelerator_count"
    )
    assert found["540"] == ("throughput", "mixed", "fp32", 8)
    assert found["670"] == ("throughput", "fp32", "fp32", 8)
    assert found["398.8"] == ("throughput", "mixed", "fp32", 8)


# As a Chinese model maker's README compares its model (in Chinese): an average score
# ("平均分"), English and Chinese mean scores ("英文均分", "中文均分") and the scored benchmarks
# Chinese pages report beside MMLU (C-Eval, CMMLU, MBPP, BBH, ARC-E, ARC-C).
CN_SCORES = """**越级比较:**
|模型|平均分|英文均分|中文均分|C-Eval|CMMLU|MMLU|HumanEval|MBPP|GSM8K|MATH|BBH|ARC-E|ARC-C|HellaSwag|
|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|
|Llama2-7B|35.40|36.21|31.765|32.42|31.11|44.32|12.2|27.17|13.57|1.8|33.23|75.25|42.75|75.62*|
|MiniCPM-2B|52.33|52.6|51.1|51.13|51.07|53.46|50.00|47.31|53.83|10.24|36.87|85.44|68.00|68.25|

**DPO后模型比较：**

|模型|MT-bench|
|---|---|
|GPT-4-turbo|9.32|
"""


def test_chinese_score_words_and_chinese_benchmarks_name_accuracies():
    found = fields_by_raw_value(CN_SCORES, "metric", "model")
    assert found["35.40"] == ("accuracy", "Llama2-7B")  # 平均分
    assert found["31.765"] == ("accuracy", "Llama2-7B")  # 中文均分
    assert found["51.13"] == ("accuracy", "MiniCPM-2B")  # C-Eval
    assert found["51.07"] == ("accuracy", "MiniCPM-2B")  # CMMLU
    assert found["47.31"] == ("accuracy", "MiniCPM-2B")  # MBPP
    assert found["85.44"] == ("accuracy", "MiniCPM-2B")  # ARC-E
    assert found["9.32"] == ("accuracy", "GPT-4-turbo")  # MT-bench


def test_math_written_in_capitals_is_a_scored_benchmark():
    found = fields_by_raw_value(CN_SCORES, "metric", "model")
    assert found["1.8"] == ("accuracy", "Llama2-7B")
    assert found["10.24"] == ("accuracy", "MiniCPM-2B")


# baichuan-inc/Baichuan2, README.md, "法律、医疗" (law, medicine), its 7B table's first rows:
# the medical subjects of three benchmarks pooled ("CEval-MMLU-CMMLU"), which no vocabulary
# knows, head a column of scores.
LAW_MEDICINE = """### 7B 模型结果

|                       | **JEC-QA** | **CEval-MMLU-CMMLU** | **MedQA-USMLE** | **MedQA-MCMLE** | **MedMCQA** |
|:---------------------:|:----------:|:--------------------:|:---------------:|:---------------:|:-----------:|
|                       | 5-shot     | 5-shot               | 5-shot          | 5-shot          | 5-shot      |
| **GPT-4**             | 59.32      | 77.16                | 80.28           | 74.58           | 72.51       |
"""


def test_a_benchmark_no_vocabulary_knows_is_quarantined_not_guessed():
    quarantined = normalized(LAW_MEDICINE).quarantine
    # the row of shot counts under the benchmarks is a level of their header
    pooled = quarantined.filter(quarantined["column_name"] == "CEval-MMLU-CMMLU / 5-shot")
    assert pooled["raw_value"].to_list() == ["77.16"]
    assert set(pooled["check"].to_list()) == {"unknown_metric"}


# As Cambricon/magicmind_cloud writes it (buildin/cv/segmentation/mmsegmentation/README.md):
# MagicMind's precision modes in a column headed "Percision", the quantized one
# "qint8_mixed_float16" (int8 where the network quantizes, float16 elsewhere).
MAGICMIND_MMSEG = """通过5.2精度benchmark测试的脚本跑出 mmsegmentation 各个模型 在 cityscapes 数据集上500张测试图片的 mAP 如下：

| Model | Batch_Size | Shape | Percision | aAcc(%) | mIoU(%) | mAcc |
| --------- | ---------- | ---------- | --------- | --------- |--------- |--------- |
| OCRNet | 1 | 1024x2048 | force_float32 | 96.4 | 79.45 | 86.75 |
| OCRNet | 1 | 1024x2048 | force_float16 | 96.4 | 79.44 | 86.74 |
| OCRNet | 1 | 1024x2048 | qint8_mixed_float16 | 96.27 | 78.93 | 87.32 |
"""


def test_a_quantized_int8_mode_mixed_with_float16_is_an_int8_run_not_a_float16_one():
    found = fields_by_raw_value(MAGICMIND_MMSEG, "precision", "weight_dtype", "activation_dtype")
    # 78.93 is the qint8 run's mIoU: it loaded as float16, the same as the row above it
    assert found["78.93"] == ("qint8", "int8", "int8")
    assert found["79.44"] == ("float16", "fp16", "fp16")
    assert found["79.45"] == ("float32", "fp32", "fp32")
