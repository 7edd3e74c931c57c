"""Model zoos and benchmark pages of MCU and edge-NPU publishers no corpus holds, quoted as
their pages write them: MLPerf Tiny submitters' result summaries, an MCU vendor's model zoo,
an SoC vendor's reference timings in RST and an NPU vendor's per-model performance tables."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As mlcommons/tiny_results_v1.1 closed/Krai/results/README.md writes it: the rate and the
# energy in each cell, abbreviated with a period ("inf./sec", "uJ/inf.").
KRAI_TINY = """## Krai results for Tiny MLperf Benchmarks
#### X-CUBE-AI-7.3.0
| Board | Benchmark | Performance v1.1| Accuracy v1.1 | Energy v1.1 |
|-|-|-|-|-|
| NUCLEO_L4R5ZI | Anomaly Detection |131.949 inf./sec|Top-1: 77.8%, AUC: 0.86|  529.299 uJ/inf |
| | Image Classification | 4.407 inf./sec | Top-1: 85.0%, AUC: 0.99 | 17755.446 uJ/inf. |
"""

# As STMicroelectronics/stm32ai-modelzoo writes it (image_classification/mobilenetv2/README.md):
# the rate in a column headed by its unit alone, abbreviated ("Inf / sec").
STM32_NPU_TIMES = """### Reference **NPU**  inference time on food-101 and ImageNet dataset (see Accuracy for details on dataset)
| Model  | Dataset          | Format | Resolution  | Board            | Execution Engine | Inference time (ms) | Inf / sec   | STM32Cube.AI version  |  STEdgeAI Core version |
|--------|------------------|--------|-------------|------------------|------------------|---------------------|-------|----------------------|-------------------------|
| [MobileNet v2 0.35 fft](./ST_pretrainedmodel_public_dataset/food-101/mobilenet_v2_0.35_128_fft/mobilenet_v2_0.35_128_fft_int8.tflite) | food-101      | Int8     | 128x128x3  | STM32N6570-DK   |   NPU/MCU      | 3.33 | 300.30 |       10.0.0        |     2.0.0   |
"""  # noqa: E501


def test_inferences_abbreviated_with_a_period_are_a_rate_and_an_energy_per_inference():
    result = normalized(KRAI_TINY)
    assert "unknown_metric" not in result.quarantine["check"].to_list()
    found = fields_by_raw_value(KRAI_TINY, "metric", "value", "unit", "item_kind")
    assert found["131.949 inf./sec"] == ("throughput", 131.949, "items/s", "inferences")
    assert found["4.407 inf./sec"] == ("throughput", 4.407, "items/s", "inferences")
    metric, joules, unit, _items = found["17755.446 uJ/inf."]
    assert (metric, unit) == ("other", "J/inference")
    assert abs(joules - 0.017755446) < 1e-12


def test_a_column_headed_by_an_abbreviated_rate_alone_is_a_throughput():
    result = normalized(STM32_NPU_TIMES)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(STM32_NPU_TIMES, "metric", "value", "unit", "item_kind")
    assert found["300.30"] == ("throughput", 300.3, "items/s", "inferences")
    assert found["3.33"] == ("latency", 3.33, "ms", None)


# As synaptics-synap/doc writes it (manual/benchmark.rst, its test reports included): the unit
# stated once in a list of remarks, the columns named by three stacked header rows, a
# paragraph speaking of "longer init and inference times", and a table of super-resolution
# models whose "Factor" is the upscaling each model does.
SYNAP_TIMINGS = """Reference Models
================

Timings
-------

Remarks:

- In the following tables all timing values are expressed in milliseconds

- Online timings, in particular for init and CPU inference, can be influenced by other processes
  running on the board and the total amount of free memory available. We ran all tests on Android
  AOSP/64bits with 4GB of memory on VS680 and 2GB on VS640. Running on Android GMS or 32-bits OS or
  with less memory can result in longer init and inference times

Inference timings on VS680 and SL1680
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

.. table:: Open models
   :widths: 45,11,11,11,11,11,11,4
   :class: widetable

   ============================================= ======= ======= ======= ======= ======= ======= ==
   Model                                         Online  Online  Online  Online  Offline Offline
                                                 CPU     GPU     NPU     NPU     NPU     NPU
                                                 Infer   Infer   Init    Infer   Init    Infer
   ============================================= ======= ======= ======= ======= ======= ======= ==
   inception_v4_299_quant                          500.42            1041    3.81    4.66    3.70
   mobilenet_v1_0.25_224_quant                       3.37             165    0.36    0.96    0.28
   ============================================= ======= ======= ======= ======= ======= ======= ==

Super Resolution
----------------

Synaptics provides two proprietary families of super resolution models: *fast* and *qdeo*, the former
provides better inference time, the latter better upscaling quality.

.. table:: Synaptics SuperResolution Models on Y+UV Channels
   :widths: 40,20,20,10
   :align: right

   ================================= ================= ================= ===========
   Name                              **Input Image**   **Ouput Image**   **Factor**
   ================================= ================= ================= ===========
   sr_fast_y_uv_960x540_3840x2160    960x540           3840x2160           4
   ================================= ================= ================= ===========
"""


def test_timings_in_the_unit_a_remark_states_and_init_times_apart_from_inference_times():
    result = normalized(SYNAP_TIMINGS, "text/x-rst")
    # an image size under a header naming no metric is set apart, no timing among them
    assert result.quarantine["column_name"].to_list() == ["Ouput Image"]
    loaded = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert loaded[("Online CPU Infer", "500.42")] == ("latency", 500.42, "ms")
    assert loaded[("Offline NPU Infer", "0.28")] == ("latency", 0.28, "ms")
    # the time the runtime takes to set the model up is no inference latency
    assert loaded[("Online NPU Init", "1041")] == ("other", 1041.0, "ms")
    assert loaded[("Offline NPU Init", "0.96")] == ("other", 0.96, "ms")
    # an upscaling factor is a setting of the model, no time
    assert ("Factor", "4") not in loaded
    assert len(loaded) == 10


# As NXP/eiq-model-zoo writes it (tasks/vision/object-detection/yolov8/README.md, eIQ Model Zoo
# 1.4): a page per model, whose performance table's "Model" column holds the precision of the
# model that ran.
EIQ_YOLOV8 = """# YOLOv8

## Performance

Here are performance figures evaluated on i.MX 8MP using BSP 6.6.23:

 Model | Average latency | Platform     | Accelerator     | Command
-------|-----------------|--------------|-----------------|---------------------------------------
 Int8  | 1148 ms         | i.MX 8M Plus | CPU (1 thread)  | benchmark_model --graph=yolov8n_full_integer_quant.tflite
 Int8  | 51 ms           | i.MX 8M Plus | NPU             | benchmark_model --graph=yolov8n_full_integer_quant.tflite --external_delegate_path=libvx_delegate.so
 Int8  | 56 ms           | i.MX 93      | NPU             | benchmark_model --graph=yolov8n_full_integer_quant.tflite --external_delegate_path=ethosu_delegate.so
"""  # noqa: E501

# As the same zoo writes it (tasks/audio/command-recognition/keyword-spotting_DSCNN/README.md).
EIQ_KWS = """# Keyword spotting - DS CNN

## Performance

 Model | Average latency | Platform     | Accelerator     | Command
-------|-----------------|--------------|-----------------|----------------------------------------------
 Int8  | 0.938 ms        | i.MX 8M Plus | CPU (1 thread)  | benchmark_model --graph=kws_ref_model.tflite
 Int8  | 62 ms           | MCX N947     | CPU             | MCUXpresso SDK
 Int8  | 3.329 ms        | MCX N947     | NPU             | MCUXpresso SDK
"""


def test_a_model_column_holding_a_precision_gives_the_precision_and_the_page_its_model():
    result = normalized(EIQ_YOLOV8)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(
        EIQ_YOLOV8, "model", "precision", "activation_dtype", "accelerator", "value"
    )
    assert found["1148 ms"] == ("YOLOv8", "Int8", "int8", "i.MX 8M Plus", 1148.0)
    assert found["56 ms"] == ("YOLOv8", "Int8", "int8", "i.MX 93", 56.0)
    kws = fields_by_raw_value(EIQ_KWS, "model_canonical", "weight_dtype", "accelerator")
    assert kws["0.938 ms"] == ("DS-CNN", "int8", "i.MX 8M Plus")
    assert kws["3.329 ms"] == ("DS-CNN", "int8", "MCX N947")


# As mlcommons/tiny_results_v1.1 closed/plumerai/README.md writes it: each MCU's development
# board, its full ordering part number, its core and clock.
PLUMERAI_TINY = """## The results

Latency results in ms:

| Board               | SoC             | MCU            |  Clock |     KWS |     IC |    VWW |   AD |
|---------------------|-----------------|----------------|-------:|--------:|-------:|-------:|-----:|
| NUCLEO-L4R5ZI       | STM32L4R5ZIT6PU | Arm Cortex-M4  | 120MHz |   47.78 | 167.76 |  98.76 | 4.05 |
| NUCLEO-H7A3ZI-Q     | STM32H7A3ZIT6QU | Arm Cortex-M7  | 280MHz |   13.86 |  50.93 |  26.82 | 1.35 |
| CY8CPROTO_062_4343W | PSoC 62         | Arm Cortex-M4  | 150MHz |   54.06 | 188.96 | 108.30 | 4.46 |
"""


def test_mcu_part_numbers_and_their_development_boards_name_the_mcu():
    found = fields_by_raw_value(PLUMERAI_TINY, "accelerator", "vendor", "value", "unit")
    assert found["167.76"] == ("STM32L4R5", "STMicroelectronics", 167.76, "ms")
    assert found["50.93"] == ("STM32H7A3", "STMicroelectronics", 50.93, "ms")
    assert found["188.96"] == ("PSoC 62", "Infineon", 188.96, "ms")
    # a board alone, with an underscore for the hyphen, names its MCU too (Krai's rows)
    krai = fields_by_raw_value(KRAI_TINY, "platform", "accelerator", "vendor")
    assert krai["131.949 inf./sec"] == ("NUCLEO_L4R5ZI", "STM32L4R5", "STMicroelectronics")


def test_synaptics_socs_named_in_a_heading_are_the_chip_of_its_tables():
    result = normalized(SYNAP_TIMINGS, "text/x-rst")
    chips = {
        (row["accelerator"], row["vendor"])
        for row in result.measurements.iter_rows(named=True)
        if row["column_name"] != "Factor"
    }
    assert chips == {("VS680", "Synaptics")}


# As opencv/opencv_zoo writes it (benchmark/README.md): per board, the printout of its
# benchmark script, the statistics as columns under a header line naming them, then the input
# size and the model of each run, aligned under their names.
OPENCV_ZOO_PI = """## Detailed Results

### Raspberry Pi 4B

Specs: [details](https://www.raspberrypi.com/products/raspberry-pi-4-model-b/specifications/)
- CPU: Broadcom BCM2711, Quad core Cortex-A72 (ARM v8) 64-bit SoC @ 1.5 GHz.

CPU:

```
$ python3 benchmark.py --all
Benchmarking ...
backend=cv.dnn.DNN_BACKEND_OPENCV
target=cv.dnn.DNN_TARGET_CPU
mean       median     min        input size   model
6.23       6.27       6.18       [160, 120]   YuNet with ['face_detection_yunet_2023mar.onnx']
224.10     201.29     200.44     [1280, 720]  CRNN with ['text_recognition_CRNN_EN_2023feb_fp16.onnx']
```
"""


def test_statistics_printed_as_columns_are_a_table_and_none_of_its_values_is_lost():
    result = normalized(OPENCV_ZOO_PI)
    # The page states no unit: every value is set apart with its reason, none dropped, and
    # "min" beside "mean" and "median" is the minimum, never a time in minutes.
    assert result.measurements.height == 0
    quarantined = {
        (row["column_name"], row["raw_value"], row["check"])
        for row in result.quarantine.iter_rows(named=True)
    }
    assert quarantined == {
        (statistic, value, "unknown_metric")
        for statistic, value in [
            ("mean", "6.23"),
            ("median", "6.27"),
            ("min", "6.18"),
            ("mean", "224.10"),
            ("median", "201.29"),
            ("min", "200.44"),
        ]
    }


def test_statistics_printed_as_columns_load_in_the_unit_the_page_states():
    page = OPENCV_ZOO_PI.replace(
        "## Detailed Results\n", "## Detailed Results\n\nAll times in ms.\n"
    )
    result = normalized(page)
    assert result.quarantine.height == 0
    loaded = {
        (row["statistic"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert loaded[("mean", "6.23")] == ("latency", 6.23, "ms")
    assert loaded[("min", "200.44")] == ("latency", 200.44, "ms")
    rows = {
        row["raw_value"]: (row["model"], row["settings"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert rows["6.27"] == (
        "YuNet with ['face_detection_yunet_2023mar.onnx']",
        "input size=[160, 120]",
    )


# The same page's section of a board whose specs state its NPU's rate ("5 TOPS"): a figure of
# the chip, not the unit of the run times printed under it.
OPENCV_ZOO_VIM3 = """### Khadas VIM3

Specs: [details](https://www.khadas.com/vim3)
- (SoC) CPU: Amlogic A311D, 2.2 GHz Quad core ARM Cortex-A73 and 1.8 GHz dual core Cortex-A53
- NPU: 5 TOPS Performance NPU INT8 inference up to 1536 MAC Supports all major deep learning frameworks including TensorFlow and Caffe

CPU:
<!-- config wechat is excluded due to it needs building with opencv_contrib -->
```
$ python3 benchmark.py --all --cfg_exclude wechat
Benchmarking ...
backend=cv.dnn.DNN_BACKEND_OPENCV
target=cv.dnn.DNN_TARGET_CPU
mean       median     min        input size   model
4.62       4.62       4.53       [160, 120]   YuNet with ['face_detection_yunet_2023mar.onnx']
```
"""  # noqa: E501


def test_run_times_printed_under_a_boards_specs_take_no_unit_of_its_specs():
    result = normalized(OPENCV_ZOO_VIM3)
    assert result.measurements.height == 0
    assert set(result.quarantine["check"].to_list()) == {"unknown_metric"}
    assert result.quarantine.height == 3


# As the STM32 model zoo writes its MPU timings: the share of the run each unit took.
STM32_MPU_TIMES = """### Reference **MPU** inference time based on Flowers and ImageNet dataset (see Accuracy for details on dataset)
| Model                                                                                                                                            | Dataset  | Format | Resolution | Quantization  | Board             | Execution Engine | Frequency | Inference time (ms) | %NPU  | %GPU  | %CPU | X-LINUX-AI version |       Framework       |
|--------------------------------------------------------------------------------------------------------------------------------------------------|----------|--------|------------|---------------|-------------------|------------------|-----------|---------------------|-------|-------|------|--------------------|-----------------------|
| [MobileNet v2 1.0_per_tensor](./Public_pretrainedmodel_public_dataset/ImageNet/mobilenet_v2_1.0_224/mobilenet_v2_1.0_224_int8_per_tensor.tflite) | ImageNet | Int8   | 224x224x3  |  per-tensor   | STM32MP257F-DK2   | NPU/GPU          | 800  MHz  | 11.92 ms            | 92.74 | 7.26  |0     | v5.1.0             | OpenVX                |
| [MobileNet v2 0.35 fft](./ST_pretrainedmodel_public_dataset/flowers/mobilenet_v2_0.35_224_fft/mobilenet_v2_0.35_224_fft_int8.tflite)             | Flowers  | Int8   | 224x224x3  |  per-channel  | STM32MP157F-DK2   | 2 CPU            | 800  MHz  | 54.52 ms            | NA    | NA    |100   | v5.1.0             | TensorFlowLite 2.11.0 |
"""  # noqa: E501


def test_the_share_of_a_run_each_unit_took_is_a_percentage_not_a_time():
    result = normalized(STM32_MPU_TIMES)
    # "NA": no share published where the run used no NPU
    assert set(result.quarantine["check"].to_list()) == {"placeholder_value"}
    found = fields_by_raw_value(STM32_MPU_TIMES, "metric", "value", "unit", "accelerator")
    assert found["92.74"] == ("other", 92.74, "%", "STM32MP257")
    assert found["100"] == ("other", 100.0, "%", "STM32MP157")
    assert found["11.92 ms"] == ("latency", 11.92, "ms", "STM32MP257")


# As closed/plumerai/README.md writes its accuracies: each figure after its metric's name.
PLUMERAI_ACCURACY = """Accuracy results (the same for each board):

|     |     accuracy |
|-----|--------------|
| VWW | Top-1: 84.9% |
| IC  | Top-1: 88.0% |
| AD  |    AUC: 0.86 |
"""


def test_a_figure_named_top_1_is_read_once_and_not_reported_as_a_second_figure():
    krai = normalized(KRAI_TINY)
    assert "second_value_not_read" not in krai.quarantine["check"].to_list()
    read = {
        (row["raw_value"], row["qualifier"]): (row["metric"], row["value"], row["unit"])
        for row in krai.measurements.iter_rows(named=True)
    }
    assert read[("Top-1: 77.8%, AUC: 0.86", "Top-1")] == ("accuracy", 77.8, "%")
    assert read[("Top-1: 77.8%, AUC: 0.86", "AUC")] == ("accuracy", 0.86, "score")
    plumerai = normalized(PLUMERAI_ACCURACY)
    assert plumerai.quarantine.height == 0
    found = fields_by_raw_value(PLUMERAI_ACCURACY, "metric", "value", "unit")
    assert found["Top-1: 84.9%"] == ("accuracy", 84.9, "%")
    assert found["AUC: 0.86"] == ("accuracy", 0.86, "score")
