"""Benchmark pages that single-board and SoC vendors publish for their NPUs, in Chinese and in
English, quoted as their pages write them: a real-time factor beside frame rates, token
counts written 词元数, a model's parameter count in a column of its own, and SoC and M.2
module names of edge NPUs."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As radxa-docs/docs writes it (docs/aicore/ax-m1/benchmark.md and its English translation):
# the unit stated once for the page ("单位：FPS"), an audio table of real-time factors, and
# an LLM table whose prompt length is counted in 词元 (tokens).
RADXA_AX_M1_ZH = """# 性能基准测试

## 测试说明

- 测试工具：axcl_run_model
- Batch Size：1 or 8
- 单位：FPS（Frame/Second）

## 视觉模型

| 视觉模型     | 输入尺寸 | 单张推理 (次/秒) | 八张并行推理 (次/秒) |
| ------------ | -------- | ---------------- | -------------------- |
| Inceptionv1  | 224      | 1073             | 2494                 |

## 音频模型

| 音频模型      | 实时因子 |
| ------------- | -------- |
| Whisper-Tiny  | 0.03     |
| Whisper-Small | 0.18     |
| MeloTTS       | 0.04     |

## 大语言模型

| 大语言模型   | 提示长度（词元数） | 首字延迟 (毫秒) | 生成速度 (词元数/秒) |
| ------------ | ------------------ | --------------- | -------------------- |
| Qwen2.5-0.5B | 128                | 188             | 28                   |
"""

RADXA_AX_M1_EN = """# Performance Benchmark

## Test notes

- Test tool: axcl_run_model
- Batch size: 1 or 8
- Unit: FPS (Frames/Second)

## Audio models

| Audio model   | Real-time factor |
| ------------- | ---------------- |
| Whisper-Tiny  | 0.03             |
| Whisper-Small | 0.18             |
| MeloTTS       | 0.04             |
"""


def _rows(page: str):
    return normalized(page).measurements.sort("row_number").iter_rows(named=True)


def test_a_real_time_factor_in_chinese_is_loaded_as_a_ratio_not_lost():
    result = normalized(RADXA_AX_M1_ZH)
    assert result.quarantine.height == 0
    audio = [
        (row["model"], row["value"], row["unit"], row["metric"])
        for row in _rows(RADXA_AX_M1_ZH)
        if row["column_name"] == "实时因子"
    ]
    assert audio == [
        ("Whisper-Tiny", 0.03, "RTF", "other"),
        ("Whisper-Small", 0.18, "RTF", "other"),
        ("MeloTTS", 0.04, "RTF", "other"),
    ]


def test_a_real_time_factor_is_no_frame_rate_where_the_page_states_fps():
    audio = [(row["value"], row["unit"], row["item_kind"]) for row in _rows(RADXA_AX_M1_EN)]
    assert audio == [(0.03, "RTF", None), (0.18, "RTF", None), (0.04, "RTF", None)]


def test_tokens_written_as_ci_yuan_count_a_rate_of_tokens_and_a_prompt_length():
    result = normalized(RADXA_AX_M1_ZH)
    llm = {
        row["column_name"]: (row["value"], row["unit"], row["item_kind"], row["settings"])
        for row in result.measurements.iter_rows(named=True)
        if row["model"] == "Qwen2.5-0.5B"
    }
    assert llm == {
        "首字延迟 (毫秒)": (188.0, "ms", None, "提示长度(词元数)=128"),
        "生成速度 (词元数/秒)": (28.0, "items/s", "tokens", "提示长度(词元数)=128"),
    }


# As radxa-docs/docs writes it (docs/aicore/ax-m1/VLM/qwen3.5.md): the number of images of
# each run in a column of its own.
RADXA_QWEN35 = """## 性能

| 模型         | 输入尺寸 | 图片数量 | TTFT       | 生成速度      | CMM 内存 |
| ------------ | -------- | -------- | ---------- | ------------- | -------- |
| Qwen3.5-0.8B | 384×384  | 1        | 906.48 ms  | 6.86 token/s  | 1159 MB  |
| Qwen3.5-2B   | 384×384  | 1        | 1128.69 ms | 4.40 tokens/s | 2645 MB  |
"""


def test_a_count_of_images_is_a_setting_of_the_run():
    result = normalized(RADXA_QWEN35)
    assert result.quarantine.height == 0
    first = [row for row in _rows(RADXA_QWEN35) if row["model"] == "Qwen3.5-0.8B"]
    assert sorted(row["column_name"] for row in first) == ["CMM 内存", "TTFT", "生成速度"]
    assert {row["settings"] for row in first} == {"输入尺寸=384×384; 图片数量=1"}


# As Amlogic-NN/amlnn-model-playground writes it (PERFORMANCE.md): each model's parameter
# count in a "Param" column under a heading naming FPS, one SoC a column in the CNN table,
# and the latency of one SoC named in its header.
AMLOGIC_PERFORMANCE = """# Performance

## Benchmark List (FPS)

### CNN

| Example            | Model Name              | Input Shapes           | Dtype | S905X5  | A311D2 | A311Y3 |
| ------------------ | ----------------------- | ---------------------- | ----- | ------- | ------ | ------ |
| mobilenet          | mobilenet_v2            | [1, 3, 224, 224]       | w8a8  | 1047.54 | 798.94 | 1014.2 |

### Large Language Models

| Model      | Version | Param | SoC        | Dtype  | SeqLen | Max Context | New Tokens | TTFT (ms) | Tokens/s | Memory (MB) |
| ---------- | ------- | ----- | ---------- | ------ | ------ | ----------- | ---------- | --------- | -------- | ----------- |
| DeepSeek   | R1      | 1.5B  | A9(A311Y3) | w4a16 | 64    | 320         | 256        | 105.36    | 22.74    | 1268.62     |
| Gemma      | 3       | 270M  | A9(A311Y3) | w4a16 | 64    | 320         | 256        | 51.28     | 86.43    | 655.80      |

## Accuracy Evaluation

| Model        | Task           | Input Shapes     | Dtype | Dataset / Validation      | A311Y3 Latency (ms) | Memory (MB) |
| ------------ | -------------- | ---------------- | ----- | ------------------------- | ------------------- | ----------- |
| MobileNetV2  | Classification | [1, 3, 224, 224] | w8a8  | ImageNet val1000          | 2.318               | 11.600      |
"""  # noqa: E501


def test_a_parameter_count_column_is_no_result():
    rows = list(_rows(AMLOGIC_PERFORMANCE))
    assert not [row for row in rows if row["column_name"] == "Param"]
    gemma = {
        row["column_name"]: (row["value"], row["unit"])
        for row in rows
        if row["model"] and row["model"].startswith("Gemma")
    }
    assert gemma == {
        "TTFT (ms)": (51.28, "ms"),
        "Tokens/s": (86.43, "items/s"),
        "Memory (MB)": (655.8, "MB"),
    }


def test_a_family_its_version_and_its_size_in_three_cells_name_one_model():
    named = {
        row["raw_value"]: (row["model_canonical"], row["sdk_version"])
        for row in _rows(AMLOGIC_PERFORMANCE)
        if row["column_name"] == "Tokens/s"
    }
    assert named == {"22.74": ("DeepSeek-R1 1.5B", None), "86.43": ("Gemma 3 270M", None)}


def test_each_amlogic_soc_names_its_values_chip():
    chips = {
        (row["column_name"], row["raw_value"]): (row["vendor"], row["accelerator"])
        for row in _rows(AMLOGIC_PERFORMANCE)
        if row["column_name"] in ("S905X5", "A311D2", "A311Y3", "A311Y3 Latency (ms)", "Tokens/s")
    }
    assert chips == {
        ("S905X5", "1047.54"): ("Amlogic", "S905X5"),
        ("A311D2", "798.94"): ("Amlogic", "A311D2"),
        ("A311Y3", "1014.2"): ("Amlogic", "A311Y3"),
        ("A311Y3 Latency (ms)", "2.318"): ("Amlogic", "A311Y3"),
        ("Tokens/s", "22.74"): ("Amlogic", "A311Y3"),
        ("Tokens/s", "86.43"): ("Amlogic", "A311Y3"),
    }


# As ZIFENG278/radxa-npu-benchmark writes it (README.md): one device a row, M.2 modules of
# DEEPX and Axera beside a board named with its Allwinner SoC, and one model a column, neither
# spelled as a catalogue knows it.
RADXA_NPU_BENCHMARK = """### Performance (FPS)

| Device    | SoC    | DDR Type        | ResNet50-v-2-7 | YOLOv5su |
|-----------|--------|-----------------|----------------|----------|
| DX-M1     | DX-M1  | LPDDR5 5600 MHz | 1035.92        | 248.39   |
| DX-M1M    | DX-M1M | LPDDR4 3200 MHz | 543.08         | 236.51   |
| Rock5B+   | RK3588 | LPDDR4 2400 MHz | 106.864        | 37.584   |
| AX-M1     | AX-M1  | Unknown         | 578            | 303      |
| Cubie A5E | T527   | Unknown         | 65.18          | 19.45    |
"""


def test_edge_npu_modules_name_their_vendor_and_chip():
    chips = {
        row["raw_value"]: (row["vendor"], row["accelerator"], row["system"])
        for row in _rows(RADXA_NPU_BENCHMARK)
        if row["column_name"] == "YOLOv5su"
    }
    assert chips["248.39"][:2] == ("DEEPX", "DX-M1")
    assert chips["236.51"][:2] == ("DEEPX", "DX-M1M")
    assert chips["37.584"][:2] == ("Rockchip", "RK3588")
    assert chips["303"] == ("Axera", "AX8850", "AX-M1")
    # the board's SoC column names the chip, not the board's name beside it
    assert chips["19.45"][:2] == ("Allwinner", "T527")


def test_models_across_devices_down_name_each_columns_values():
    models = {row["raw_value"]: row["model"] for row in _rows(RADXA_NPU_BENCHMARK)}
    assert models == {
        "1035.92": "ResNet50-v-2-7",
        "248.39": "YOLOv5su",
        "543.08": "ResNet50-v-2-7",
        "236.51": "YOLOv5su",
        "106.864": "ResNet50-v-2-7",
        "37.584": "YOLOv5su",
        "578": "ResNet50-v-2-7",
        "303": "YOLOv5su",
        "65.18": "ResNet50-v-2-7",
        "19.45": "YOLOv5su",
    }


# As Amlogic-NN/amlnn-model-playground writes it (PERFORMANCE.md, "Accuracy Evaluation"):
# each score named in its cell, the names holding the IoU range of COCO's AP.
AMLOGIC_ACCURACY = """### CNN

| Model        | Task           | Input Shapes     | Dtype | Dataset / Validation      | Metric                                              | A311Y3 Latency (ms) |
| ------------ | -------------- | ---------------- | ----- | ------------------------- | --------------------------------------------------- | ------------------- |
| MobileNetV2  | Classification | [1, 3, 224, 224] | w8a8  | ImageNet val1000          | Top1=67.00%<br>Top5=89.40%                          | 2.318               |
| YOLO11s      | Detection      | [1, 3, 640, 640] | w8a8  | COCO subset 300           | AP@0.5:0.95=47.83%<br>AP@0.5=65.11%<br>AP@0.75=51.06% | 10.507            |
| YOLOv8n-seg  | Box/Mask       | [1, 3, 640, 640] | w8a8  | COCO subset 300           | Box AP@0.5:0.95=34.93%<br>Mask AP@0.5:0.95=31.22%   | 6.712               |
"""  # noqa: E501


def test_scores_named_with_an_iou_range_each_load():
    result = normalized(AMLOGIC_ACCURACY)
    assert result.quarantine.height == 0
    scores = [
        (row["model"], row["qualifier"], row["value"], row["unit"])
        for row in _rows(AMLOGIC_ACCURACY)
        if row["column_name"] == "Metric"
    ]
    assert sorted(scores) == [
        ("MobileNetV2", "Top1", 67.0, "%"),
        ("MobileNetV2", "Top5", 89.4, "%"),
        ("YOLO11s", "AP@0.5", 65.11, "%"),
        ("YOLO11s", "AP@0.5:0.95", 47.83, "%"),
        ("YOLO11s", "AP@0.75", 51.06, "%"),
        ("YOLOv8n-seg", "Box AP@0.5:0.95", 34.93, "%"),
        ("YOLOv8n-seg", "Mask AP@0.5:0.95", 31.22, "%"),
    ]


# As radxa-docs/docs writes it (docs/common/ai/_deepseek_r1.mdx): each model's context length
# under "模型长度" (model length) beside its "测试模型" (model tested).
RADXA_DEEPSEEK_R1 = """deepseek 通过 DeepSeek-R1 的输出，蒸馏了 6 个小模型给开源社区，包括 Qwen2.5 和 Llama3.1。

## 推理性能

| 测试模型                      | 量化方式 | 模型长度 | first token latency(s) | token per second(tokens/s) |
| ----------------------------- | -------- | -------- | ---------------------- | -------------------------- |
| deepseek-r1-distill-qwen-1.5b | INT4     | 8192     | 5.159                  | 30.448                     |
| deepseek-r1-distill-qwen-7b   | INT4     | 2048     | 2.843                  | 11.008                     |
"""  # noqa: E501


def test_a_model_length_is_the_runs_context_length_not_its_model():
    found = {
        row["raw_value"]: (row["model"], row["value"], row["unit"], row["settings"])
        for row in _rows(RADXA_DEEPSEEK_R1)
    }
    assert found["5.159"] == (
        "deepseek-r1-distill-qwen-1.5b",
        5159.0,
        "ms",
        "量化方式=INT4; 模型长度=8192",
    )
    assert found["11.008"] == (
        "deepseek-r1-distill-qwen-7b",
        11.008,
        "items/s",
        "量化方式=INT4; 模型长度=2048",
    )


def test_images_inferred_at_once_written_in_chinese_are_the_batch_size():
    batches = {
        (row["column_name"], row["batch_size_number"])
        for row in _rows(RADXA_AX_M1_ZH)
        if row["model"] == "Inceptionv1"
    }
    assert batches == {("单张推理 (次/秒)", 1.0), ("八张并行推理 (次/秒)", 8.0)}
