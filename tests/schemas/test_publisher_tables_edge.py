"""Tables of edge, embedded and mobile publishers no corpus holds, written as their pages write
them: an NPU vendor's LLM table naming the tokens generated, a microcontroller zoo stating the
clock each board ran at, a chip vendor's model zoo naming its target device and its top-1
precision, a PC NPU example quantizing to XINT8."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As an NPU vendor's LLM benchmark writes it: prompt length and tokens generated are the run's
# settings, time to first token, decode rate and memory its results.
NEW_TOKENS = """### RK3588

| Model       | Model Size | Dtype | Seqlen | New_tokens | TTFT(ms) | Tokens/s | memory(MB) |
| :---------- | :--------: | :---: | :----: | :--------: | :------: | :------: | :--------: |
| Qwen2       |    0.5B    | w8a8  |  128   |     64     |  145.90  |  41.58   |   669.56   |
| MiniCPM4    |    0.5B    | w8a8  |  128   |     64     |  135.29  |  45.34   |   534.82   |
"""


def test_the_tokens_generated_are_a_setting_of_the_run_not_a_value():
    result = normalized(NEW_TOKENS)
    assert result.quarantine.height == 0
    assert sorted(result.measurements["raw_value"].to_list()) == [
        "135.29",
        "145.90",
        "41.58",
        "45.34",
        "534.82",
        "669.56",
    ]
    found = fields_by_raw_value(NEW_TOKENS, "metric", "accelerator", "settings")
    assert found["145.90"][:2] == ("latency", "RK3588")
    assert "New_tokens=64" in found["145.90"][2]


# As a microcontroller model zoo writes it: each board runs at its own clock, a setting of the
# run; the board is named by its kit ("-DISCO", "-DK2"), the chip by the kit's name.
BOARD_CLOCK = """### Reference inference time based on Flowers dataset

| Model             | Format | Resolution | Board            | Execution Engine | Frequency   | Inference time (ms) | STM32Cube.AI version  |
|-------------------|--------|------------|------------------|------------------|-------------|---------------------|-----------------------|
| [MobileNet v2 0.35](mobilenet_v2_0.35_128_int8.tflite) | Int8   | 128x128x3   | STM32H747I-DISCO | 1 CPU | 400 MHz       | 110.27  ms      | 7.3.0                 |
| [MobileNet v2 0.35](mobilenet_v2_0.35_128_int8.tflite) | Int8   | 128x128x3   | STM32MP157F-DK2  | 2 CPU | 800 MHz       | 47.57  ms **    | 7.3.0                 |
"""


def test_a_clock_frequency_is_a_setting_and_a_kit_names_its_chip():
    result = normalized(BOARD_CLOCK)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(BOARD_CLOCK, "metric", "value", "accelerator", "settings")
    assert found["110.27  ms"][:3] == ("latency", 110.27, "STM32H747")
    assert "Frequency=400 MHz" in found["110.27  ms"][3]
    assert found["47.57  ms **"][:3] == ("latency", 47.57, "STM32MP157")
    assert "Frequency=800 MHz" in found["47.57  ms **"][3]
    # What executed the model ("1 CPU", "2 CPU") is a setting, no framework.
    engines = fields_by_raw_value(BOARD_CLOCK, "framework", "settings")
    assert engines["110.27  ms"][0] is None
    assert "Execution Engine=1 CPU" in engines["110.27  ms"][1]


# As a chip vendor's model zoo writes it: the target device of each row in a column headed
# "Target" (no quality target), the stride a setting, and a note under the table naming one
# of the two chips.
TARGET_DEVICE = """# Motion Detection Models

## Model Latency

| Target | Input | Stride | Latency (ms) | FPS |
|--------|-------|--------|--------------|-----|
| ESP32-S3 | rgb888 1280x720 | 1 | 197.03 | 5.08 |
| ESP32-P4 | rgb888 640x360 | 2 | 6.92 | 144.51 |

> [!NOTE]
> - The ESP32-P4 latency data above was tested on chips >= ECO5, with PSRAM frequency at 250MHz and CPU frequency at 400MHz.
"""


def test_a_target_column_naming_chips_names_each_rows_device():
    result = normalized(TARGET_DEVICE)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(TARGET_DEVICE, "metric", "accelerator", "settings")
    assert found["197.03"] == ("latency", "ESP32-S3", "Input=rgb888 1280x720; Stride=1")
    assert found["144.51"][:2] == ("throughput", "ESP32-P4")


# The same zoo's classification table under a "Model Latency" heading: "Prec@1" is the
# top-1 precision of the model, no latency; its verification model's equal error rate too.
TOP1_PRECISION = """## Model Latency

| name                                             | input(h*w*c)  | preprocess(ms) | model(ms) | postprocess(ms)  | Prec@1 on imagenet_val |
| ------------------------------------------------ | ------------- | -------------- | --------- | ---------------- | ---------------------- |
| mobilenetv2_s8_v1_s3 (RUNTIME_MODE_SINGLE_CORE)  | 224 * 224 * 3 | 8.5            | 1309.5    | 1.1              | 70.543                 |
| mobilenetv2_s8_v1_p4 (RUNTIME_MODE_MULTI_CORE)   | 224 * 224 * 3 | 2.7            | 223.0     | 0.4              | 70.441                 |

## Model Accuracy

| name            | dataset      | EER   |
|-----------------|--------------|-------|
| sv_tdnn_tiny_3s | vox1-O-clean | 4.51% |
"""


def test_a_precision_at_one_and_an_equal_error_rate_are_accuracies():
    result = normalized(TOP1_PRECISION)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(TOP1_PRECISION, "metric", "value")
    assert found["70.543"][0] == "accuracy"
    assert found["1309.5"] == ("latency", 1309.5)
    assert found["4.51%"] == ("accuracy", 4.51)


# As a PC NPU example writes it: AMD Quark's XINT8 is an 8-bit integer quantization.
XINT8 = """| Yolov8m      | Avg time for each Inference (Latency) |  Frames per Second (FPS)|
|---------------|---------------------------------------|-------------------------|
| Float32 (CPU) |       0.486 sec                       |     2.1                 |
| XINT8   (NPU) |       0.021 sec                       |     48.2                |
"""


def test_xint8_is_an_eight_bit_integer_precision():
    found = fields_by_raw_value(XINT8, "metric", "value", "activation_dtype", "weight_dtype")
    assert found["0.021 sec"] == ("latency", 21.0, "int8", "int8")
    assert found["48.2"] == ("throughput", 48.2, "int8", "int8")
    assert found["2.1"][2:] == ("fp32", "fp32")


# As a robotics board vendor's model zoo writes it: one cell holds two runs written one under
# the other, each a latency and a frame rate with the thread count in brackets; the header
# names both metrics, parted by " / ".
RUNS_IN_A_CELL = """#### Obeject Detection
| Model | Size(Pixels) | Classes |  BPU Task Latency  /<br>BPU Throughput (Threads) | CPU Latency<br>(Single Core) | params(M) | FLOPs(B) |
|----------|---------|----|---------|---------|----------|----------|
| YOLOv5nu | 640×640 | 80 | 6.3 ms / 157.4 FPS (1 thread  ) <br/> 6.8 ms / 291.8 FPS (2 threads)  | 5 ms |  2.6  M  |  7.7   B |
| YOLOv5su | 640×640 | 80 | 12.3 ms / 81.0 FPS (1 thread  ) <br/> 18.9 ms / 105.6 FPS (2 threads) | 5 ms |  9.1  M  |  24.0  B |
"""


def test_each_run_of_a_cell_loads_as_its_own_values_with_its_remark():
    result = normalized(RUNS_IN_A_CELL)
    assert result.quarantine.height == 0
    runs = result.measurements.filter(result.measurements["column_name"].str.contains("BPU"))
    found = {
        (row["row_number"], row["value"]): (row["metric"], row["unit"], row["qualifier"])
        for row in runs.iter_rows(named=True)
    }
    assert found == {
        (1, 6.3): ("latency", "ms", "1 thread"),
        (1, 157.4): ("throughput", "items/s", "1 thread"),
        (1, 6.8): ("latency", "ms", "2 threads"),
        (1, 291.8): ("throughput", "items/s", "2 threads"),
        (2, 12.3): ("latency", "ms", "1 thread"),
        (2, 81.0): ("throughput", "items/s", "1 thread"),
        (2, 18.9): ("latency", "ms", "2 threads"),
        (2, 105.6): ("throughput", "items/s", "2 threads"),
    }
    assert runs["row_identity"].n_unique() == 8


def test_runs_of_different_figures_or_without_units_are_not_read_as_runs():
    # Left as one value with text after it, which is quarantined as an unknown unit.
    for text in (
        "6.3 ms / 157.4 FPS (1 thread) 6.8 ms (2 threads)",
        "12 (1 thread) 14 (2 threads)",
    ):
        reading = read_cell(text)
        assert len(reading.values) == 1
        assert reading.values[0].rest is not None


# As the NPU vendor's multimodal table writes it: each stage's time in the unit that suits it,
# seconds for the image encoder beside milliseconds for the prefill of the same column.
SECONDS_BESIDE_MILLISECONDS = """### Multimodal

| model                 |        Stage         |  RK3588(w8a8)  | RK3576(w4a16)  |
| :-------------------- | :------------------: | :------------: | :------------: |
| Qwen2-VL-2B           | img-encoder(392*392) |     3.28s      |     3.55s      |
|                       |   Prefill(len=196)   |    632.6ms     |    1234.9ms    |
|                       |        Decode        | 16.6 tokens/s  | 14.57 tokens/s |
"""


def test_seconds_in_a_column_of_latencies_are_a_latency():
    result = normalized(SECONDS_BESIDE_MILLISECONDS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(SECONDS_BESIDE_MILLISECONDS, "metric", "value", "accelerator")
    assert found["3.28s"] == ("latency", 3280.0, "RK3588")
    assert found["3.55s"] == ("latency", 3550.0, "RK3576")
    assert found["632.6ms"] == ("latency", 632.6, "RK3588")
    assert found["16.6 tokens/s"][0] == "throughput"


def test_seconds_alone_still_name_no_metric():
    page = SECONDS_BESIDE_MILLISECONDS.replace("632.6ms", "0.63s").replace("1234.9ms", "1.23s")
    result = normalized(page)
    assert result.quarantine.filter(result.quarantine["check"] == "unknown_metric").height == 4


# As a framework's model zoo writes a training run, metrics in rows: a time per step above the
# whole run's time; the run's time is no latency (here written in seconds).
RUN_TIME_BESIDE_STEP_TIME = """| 参数                 | Ascend 910                                                   | GPU |
| -------------------------- | -------------------------------------- | -------------------------------------- |
| 模型版本              | ResNet18                                                | ResNet18 |
| 速度                      | 13毫秒/步（8卡）                     | 29毫秒/步（8卡）       |
| 总时长                 | 240 s                          | 11分钟       |
"""


def test_seconds_beside_times_per_step_name_no_metric():
    result = normalized(RUN_TIME_BESIDE_STEP_TIME)
    assert fields_by_raw_value(RUN_TIME_BESIDE_STEP_TIME, "metric")["13毫秒/步（8卡）"] == (
        "latency",
    )
    unknown = result.quarantine.filter(result.quarantine["check"] == "unknown_metric")
    assert sorted(unknown["raw_value"].to_list()) == ["11分钟", "240 s"]


def test_a_model_family_takes_the_size_its_row_states_in_a_column_of_its_own():
    page = (
        NEW_TOKENS
        + "| Gemma2      |     2B     | w8a8  |  128   |     64     |  598.41  |  10.37   |  2779.22   |\n"
    )
    found = fields_by_raw_value(page, "model", "model_canonical", "model_base")
    assert found["145.90"] == ("Qwen2", "Qwen2 0.5B", "Qwen2 0.5B")
    assert found["598.41"] == ("Gemma2", "Gemma 2 2B", "Gemma 2 2B")
    # A model the catalogue does not read as a family keeps its name as published, and so
    # does a name saying more than its family.
    assert found["135.29"][1] == "MiniCPM4"
    named_more = fields_by_raw_value(page.replace("Gemma2 ", "Gemma-3n"), "model_canonical")
    assert named_more["598.41"] == ("Gemma-3n",)


# As a deployment toolkit's RKNPU2 page writes it: one column for two runs, the header naming
# each ("ARM CPU/RKNN speed(ms)"), the cell giving each figure in the same order.
FIGURES_NAMED_BY_HEADER = """* Device Model: RK3588

| Mission Scenario                 | Model                                                                                       | Model Version(tested version)          | ARM CPU/RKNN speed(ms) |
|----------------------|------------------------------------------------------------------------------------------|--------------------------|--------------------|
| Detection            | [Picodet](../../../../examples/vision/detection/paddledetection/rknpu2/README.md)        | Picodet-s                | 162/112            |
| Detection            | [RKYOLOV5](../../../../examples/vision/detection/rkyolo/README.md)                       | YOLOV5-S-Relu(int8)      | -/57               |
| Detection            | [RKYOLOX](../../../../examples/vision/detection/rkyolo/README.md)                        | -                        | -/-                |
"""


def test_figures_parted_by_a_slash_take_the_names_their_header_parts_give():
    result = normalized(FIGURES_NAMED_BY_HEADER)
    found = {
        (row["raw_value"], row["value"]): (row["metric"], row["unit"], row["qualifier"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert found == {
        ("162/112", 162.0): ("latency", "ms", "ARM CPU"),
        ("162/112", 112.0): ("latency", "ms", "RKNN speed"),
        ("-/57", 57.0): ("latency", "ms", "RKNN speed"),
    }
    assert result.quarantine["check"].to_list() == ["placeholder_value"]


def test_a_used_out_of_total_figure_under_a_header_of_one_part_is_unchanged():
    page = "| Model | Memory (GiB) |\n| --- | --- |\n| Llama 2 7B | 76/80 |\n"
    assert fields_by_raw_value(page, "value", "qualifier")["76/80"] == (76.0, "of 80")


# As a microcontroller vendor's model zoo names its models: the model, its input size, "s8"
# for its signed 8-bit quantization, its version and the chip it was built for, in one
# identifier.
MODEL_IDENTIFIERS = """## Model Latency

| name                 | input(h*w*c)  | Flash(MB) | PSRAM(MB) | preprocess(ms) | model(ms) | postprocess(ms) | mAP50-95 on COCO val2017 |
| ---------------------- | --------------- | ----------- | ----------- | ---------------- | ----------- | ----------------- | -------------------------- |
|  yolo11n_s8_v1_s3 |  640 * 640 * 3 |  8 |  8 | 51.5 | 26014.2 | 58.9 |  0.370 |
|  yolo11n_320_s8_v1_p4 |  320 * 320 * 3 |  16 |  32 | 5.2 | 550.1 | 5.3 |  0.278 |
|  yolo26n_512_s8_p4 |  512×512×3 |  16 |  32 | 12.0 | 2067.0 | 13.0 |  0.365 |
"""


def test_a_model_identifier_names_its_model_and_its_signed_8_bit_precision():
    found = fields_by_raw_value(
        MODEL_IDENTIFIERS, "model_canonical", "metric", "activation_dtype", "weight_dtype"
    )
    assert found["26014.2"] == ("YOLO11n", "latency", "int8", "int8")
    assert found["550.1"] == ("YOLO11n", "latency", "int8", "int8")
    assert found["2067.0"] == ("YOLO26n", "latency", "int8", "int8")
    assert found["0.370"][:2] == ("YOLO11n", "accuracy")


def test_a_metric_header_names_the_dataset_it_was_scored_on_after_on():
    found = fields_by_raw_value(MODEL_IDENTIFIERS, "dataset", "dataset_canonical")
    assert found["0.370"] == ("COCO val2017", "COCO")
    assert found["26014.2"] == (None, None)
    top1 = fields_by_raw_value(TOP1_PRECISION, "dataset", "dataset_canonical")
    assert top1["70.543"] == ("imagenet_val", "ImageNet")


# The NPU vendor's table for a second chip: each model's quantizations on rows under it, one
# family written again for its next size after its blank rows.
GROUP_WRITTEN_AGAIN = """### RK3576

| Model       | Model Size |   Dtype    | Seqlen | New_tokens | TTFT(ms) | Tokens/s | memory(MB) |
| :---------- | :--------: | :--------: | :----: | :--------: | :------: | :------: | :--------: |
| Qwen3.5     |    0.8B    |   w4a16    |  128   |     64     | 1369.31  |  18.79   |   689.50   |
|             |    0.8B    |    w8a8    |  128   |     64     | 1342.54  |  13.18   |  1047.08   |
| Qwen3.5     |     2B     |   w4a16    |  128   |     64     | 1661.01  |  11.03   |  1236.12   |
|             |     2B     |    w8a8    |  128   |     64     | 1678.11  |   6.73   |  2131.55   |
"""


def test_a_group_label_written_again_after_blank_rows_still_continues_its_rows():
    found = fields_by_raw_value(GROUP_WRITTEN_AGAIN, "model", "model_canonical", "weight_dtype")
    assert found["1342.54"] == ("Qwen3.5", "Qwen3.5 0.8B", "int8")
    assert found["1678.11"] == ("Qwen3.5", "Qwen3.5 2B", "int8")
    assert found["1661.01"] == ("Qwen3.5", "Qwen3.5 2B", "int4")


def test_a_label_repeated_row_after_row_leaves_a_blank_cell_blank():
    page = """| Task | Model | Latency (ms) |
| --- | --- | --- |
| Object Detection | YOLOv8n | 5.1 |
| Object Detection | YOLOv8s | 7.3 |
|  | ResNet-50 | 2.2 |
"""
    found = fields_by_raw_value(page, "dataset", "row_label")
    assert found["5.1"] == ("Object Detection", "Object Detection / YOLOv8n")
    assert found["2.2"] == (None, "ResNet-50")
