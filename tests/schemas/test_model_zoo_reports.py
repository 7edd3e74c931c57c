"""Model zoo reports and framework READMEs quoted as they are published: a page that defines
its test sets in a list before a table of per-test-set accuracies, a generated report naming
each row's metric in a "metric_name" column with a column of values per chip and precision, a
paragraph calling the test set a dataset, a paragraph giving the most GPUs any run used, a
model named in the top-left header beside "Metric", benchmark tasks as row labels,
latencies with their standard deviation written after them, amp levels as precisions, and
the framework a setup sentence names with its release, and memory named by rows ("Max Mem
Used")."""

from __future__ import annotations

from perfledger.schemas.context_datasets import dataset_of_context
from perfledger.schemas.labels import framework_of_run
from tests.schemas.page_reading import normalized

# mindspore-lab/mindocr configs/rec/crnn/README.md: the evaluation sets listed with their
# sizes, then a table of accuracies headed by those sets' names.
MINDOCR_PER_DATASET = """**Evaluation:** (total 12,067 samples)
- [CUTE80](http://cs-chan.com/downloads_CUTE80_dataset.html): 8.8 MB, 288 samples
- [IC03_860](http://www.iapr-tc11.org/mediawiki/index.php/ICDAR_2003_Robust_Reading_Competitions): 36 MB, 860 samples
- [SVT](http://www.iapr-tc11.org/mediawiki/index.php/The_Street_View_Text_Dataset): 2.4 MB, 647 samples

#### Training Performance

Experiments are tested on ascend 910* with mindspore 2.5.0 graph mode.

Detailed accuracy results for each benchmark dataset (IC03, IC13, IC15, IIIT, SVT, SVTP, CUTE):

| **model name** | **backbone** | **cards** | **IC03_860** | **SVT** | **CUTE80** | **average** |
| :------------: | :----------: | :-------: |:------------:|:-------:|:----------:|:-----------:|
|      CRNN      |     VGG7     |     1     |    93.72%    | 82.84%  |   67.36%   |   81.31%    |
|      CRNN      | ResNet34_vd  |     1     |    95.35%    | 86.09%  |   72.92%   |   84.73%    |
"""


def test_columns_named_after_test_sets_the_page_defines_load_as_accuracies():
    # The list defines "IC03_860" as "36 MB, 860 samples": a description of the test set,
    # which had made its column one of words, and its numbers labels of the rows.
    rows = normalized(MINDOCR_PER_DATASET).measurements
    found = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["accelerator"])
        for row in rows.iter_rows(named=True)
    }
    assert found[("IC03_860", "93.72%")] == ("accuracy", 93.72, "Ascend 910")
    assert found[("SVT", "86.09%")] == ("accuracy", 86.09, "Ascend 910")
    assert found[("CUTE80", "72.92%")] == ("accuracy", 72.92, "Ascend 910")
    assert rows.height == 8


# TexasInstruments/edgeai-tensorlab edgeai-modelzoo/reports/accuracy_report_20250310-190344_pc.md
# (columns after "metric_reference" left out): the metric in a column of its own, the values
# in a column per chip and precision.
TI_ACCURACY_REPORT = """| serial_num | model_id | runtime_name | task_type | dataset_name | model_path | input_resolution | metric_name | AM68A_32bits-float-simulation_metric | AM68A_8bits_metric | metric_reference |
| ---------- | -------- | ------------ | --------- | ------------ | ---------- | ---------------- | ----------- | ------------------------------------ | ------------------ | ---------------- |
| 25         | cl-0000  | tflitert     | classification     | imagenet                 | mobilenet_v1_1.0_224.tflite                                       | 224              | accuracy_top1%       | 71.3                                 | 71.2               | 71.676           |
| 9          | cl-0080  | tflitert     | classification     | imagenet                 | mobilenet_edgetpu_224_1.0_float.tflite                            | 224              | accuracy_top1%       | 76.7                                 | 76.6               | 75.6             |
"""


def test_a_column_of_values_per_chip_and_precision_beside_a_metric_name_column_loads():
    # "AM68A_8bits_metric" reads as the name of a column of metric names, as "metric_name"
    # does, but it states a chip and a precision over numbers: the values of that run.
    rows = normalized(TI_ACCURACY_REPORT).measurements
    found = {
        (row["column_name"], row["raw_value"]): (
            row["metric"],
            row["accelerator"],
            row["activation_dtype"],
            row["dataset"],
        )
        for row in rows.iter_rows(named=True)
    }
    assert found[("AM68A_8bits_metric", "71.2")] == ("accuracy", "AM68A", "int8", "imagenet")
    assert found[("AM68A_32bits-float-simulation_metric", "71.3")] == (
        "accuracy",
        "AM68A",
        "fp32",
        "imagenet",
    )
    # "edgetpu" in the model's file name names the model, not the chip the column names
    assert found[("AM68A_8bits_metric", "76.6")] == ("accuracy", "AM68A", "int8", "imagenet")
    assert rows.height == 4


# TexasInstruments/edgeai-tensorlab docs/tech_reports/...-object-detection-models/README.md,
# "Accuracy impact of Model surgery" (the paragraph cut after the sentence naming the set).
TI_MODEL_SURGERY = """## Accuracy impact of Model surgery

The layers that are not supported in TIDL are replaced with similar layers that are supported in TIDL. This makes the model embedded friendly but with a small loss in accuracy. Here is a comparison of few models which show how much accuracy drops we get in this process. This accuracy is obtained from running test on COCO dataset in PC.

| models\\_name | non-lite-model-acc | lite-model-acc |
| --- | --- | --- |
| yolov5\\_small | 37.7 | 35.5 |
| yolox\\_tiny | 32.7 | 31.1 |
"""


def test_a_paragraph_calling_a_known_set_a_dataset_names_the_tables_dataset():
    rows = normalized(TI_MODEL_SURGERY).measurements
    assert set(rows.get_column("dataset").to_list()) == {"COCO"}
    assert sorted(rows.get_column("value").to_list()) == [31.1, 32.7, 35.5, 37.7]


def test_a_paragraph_naming_two_sets_or_calling_none_a_dataset_names_none():
    assert (
        dataset_of_context("We pretrain on ImageNet and evaluate on the COCO dataset.", "paragraph")
        is None
    )
    assert dataset_of_context("We used a synthetic dataset.", "paragraph") is None
    assert (
        dataset_of_context(
            "The BF16 quantized model accuracy is evaluated on COCO dataset", "paragraph"
        )
        == "COCO"
    )


# microsoft/Megatron-DeepSpeed README.md: the most GPUs any configuration used, above a table
# of model sizes.
MEGATRON_UTILIZATION = """To demonstrate how the code scales with multiple GPUs and model sizes, we consider GPT models from 1 billion all the way to 1 trillion parameters. We leverage [NVIDIA's Selene supercomputer](https://www.top500.org/system/179842/) to perform scaling studies and use up to 3072 [A100](https://www.nvidia.com/en-us/data-center/a100/) GPUs for the largest model.

The following table shows both model (MFU) and hardware (HFU) FLOPs utilization for select configurations up to 1T parameters.

| Model Size | Model FLOPs Utilization | Hardware FLOPs Utilization |
| :---: | :---: | :---: |
| 22B   | 41.5% | 43.7% |
| 1T    | 56.3% | 57.0% |
"""


def test_up_to_a_count_of_gpus_in_prose_is_no_count_of_each_row():
    rows = normalized(MEGATRON_UTILIZATION).measurements
    assert set(rows.get_column("accelerator").to_list()) == {"A100"}
    assert rows.get_column("accelerator_count").null_count() == rows.height == 4


# intel/auto-round docs/tips_and_tricks.md: the model named in the top-left header beside
# the word "Metric", over rows of benchmarks.
AUTOROUND_LM_HEAD = """| GLM4-chat Metric                           | BF16   | INT4 (6.4G) | INT4-quantized-LM-head (5.5G) |
|--------------------------------------------|--------|-------------|-------------------------------|
| Avg (16 tasks)                             | 0.6260 | 0.6230      | 0.6204                        |
| CMMLU                                      | 0.7213 | 0.7137      | 0.7086                        |
| GSM8K 5-shot strict match                  | 0.7794 | 0.7597      | 0.7589                        |
"""


def test_a_top_left_header_naming_a_model_and_the_word_metric_names_the_tables_model():
    rows = normalized(AUTOROUND_LM_HEAD).measurements
    assert set(rows.get_column("model").to_list()) == {"GLM4-chat"}
    found = {
        (row["row_label"], row["column_name"]): (row["value"], row["weight_dtype"])
        for row in rows.iter_rows(named=True)
    }
    assert found[("CMMLU", "INT4 (6.4G)")] == (0.7137, "int4")


# intel/neural-compressor docs/source/PT_FP8Quant.md, "FP8 Accuracy": the model in the
# top-left header, the lm-evaluation-harness tasks as the rows.
INC_FP8_ACCURACY = """### FP8 Accuracy
"lm_eval.tasks", "lm_eval.evaluator", "lm_eval" are installed from the above requirements_lm_eval.txt. The tasks can be set and the default is ["hellaswag", "lambada_openai", "piqa", "winogrande"], [more info](https://github.com/EleutherAI/lm-evaluation-harness/)

| `Llama-3.1-8B-Instruct`| fp8 w/ fp8 KVCache| bf16 w/ bf16 KVCache|
|---------------|---------|--------|
| lambada_openai| 0.7299  | 0.7359 |
| hellaswag     | 0.5892  | 0.5911 |
| piqa          | 0.7965  | 0.7998 |
"""


def test_known_task_names_under_a_header_naming_no_role_are_the_rows_datasets():
    rows = normalized(INC_FP8_ACCURACY).measurements
    found = {
        (row["dataset"], row["column_name"]): (row["value"], row["model"])
        for row in rows.iter_rows(named=True)
    }
    assert found[("lambada_openai", "fp8 w/ fp8 KVCache")] == (0.7299, "Llama-3.1-8B-Instruct")
    assert found[("piqa", "bf16 w/ bf16 KVCache")] == (0.7998, "Llama-3.1-8B-Instruct")
    assert set(rows.get_column("dataset_canonical").to_list()) == {"LAMBADA", "HellaSwag", "PIQA"}


# luxonis/depthai-python docs/source/tutorials/low-latency.rst: latencies with their standard
# deviation written after them, with and without brackets.
LUXONIS_POE_LATENCY = """Low Latency
===========

.. list-table::
   :header-rows: 1

   * - What
     - Resolution
     - PoE Latency [ms]
     - USB Latency [ms]
   * - Color (isp)
     - 1080P
     - 51
     - 33 Std: 0.8
   * - Mono
     - 400P
     - 12 Std: 5.0
     - 83 (Std: 3.6)
"""


def test_a_standard_deviation_written_after_a_latency_is_its_spread():
    found = {
        row["raw_value"]: (row["metric"], row["value"], row["unit"], row["spread"])
        for row in normalized(LUXONIS_POE_LATENCY, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert found["33 Std: 0.8"] == ("latency", 33.0, "ms", 0.8)
    assert found["12 Std: 5.0"] == ("latency", 12.0, "ms", 5.0)
    assert found["83 (Std: 3.6)"] == ("latency", 83.0, "ms", 3.6)
    assert found["51"] == ("latency", 51.0, "ms", None)


# mindspore-lab/mindocr docs/en/mkdocs/modelzoo_training.md: the level of automatic mixed
# precision each run used, in a column headed "amp".
MINDOCR_AMP_LEVELS = """### Text Recognition

| model  |dataset |bs | cards | acc | ms/step | fps | amp | config |
:-:     |   :-:   | :-: | :-: |  :-:   |  :-:    | :-:  |  :-: |  :-:    |
| svtr_tiny          | IC03,13,15,IIIT,etc | 512 | 4 | 90.23 | 459 | 4560 | O2 |  [mindocr_svtr](https://github.com/mindspore-lab/mindocr/tree/main/configs/rec/svtr)   |
| crnn_vgg7          | IC03,13,15,IIIT,etc | 16 | 8 | 82.03 | 22.06 | 5802.71 | O3 |  [mindocr_crnn](https://github.com/mindspore-lab/mindocr/tree/main/configs/rec/crnn)   |
| dbnet_resnet18     | icdar2015  | 20 | 1 | 81.73 | 186 | 108 | O0 | [mindocr_dbnet](https://github.com/mindspore-lab/mindocr/tree/main/configs/det/dbnet)  |
"""


def test_an_amp_level_is_the_runs_precision():
    found = {
        (row["raw_value"], row["metric"]): (
            row["precision"],
            row["activation_dtype"],
            row["weight_dtype"],
        )
        for row in normalized(MINDOCR_AMP_LEVELS).measurements.iter_rows(named=True)
    }
    assert found[("4560", "throughput")] == ("O2", "mixed", "fp32")
    assert found[("5802.71", "throughput")] == ("O3", "fp16", "fp16")
    assert found[("108", "throughput")] == ("O0", "fp32", "fp32")


def test_the_framework_a_setup_sentence_names_with_its_release_is_the_runs():
    # "Experiments are tested on ascend 910* with mindspore 2.5.0 graph mode."
    rows = normalized(MINDOCR_PER_DATASET).measurements
    assert set(rows.get_column("framework_canonical").to_list()) == {"MindSpore"}
    assert framework_of_run("tested on ascend 310P with mindspore lite 2.5.0") == "mindspore lite"
    assert framework_of_run("Models exported from PyTorch run on T4.") is None


# siliconflow/onediff onediff_diffusers_extensions/examples/sd3/README.md: metrics named by
# the rows of a table of one column, each row's engine first.
ONEDIFF_SD3 = """## Performance comparation

Testing on H800-NVL-80GB, with image size of 1024*1024, iterating 28 steps:
| Metric                                           |                     |
| ------------------------------------------------ | ------------------- |
| Data update date(yyyy-mm-dd)                     | 2024-06-29          |
| PyTorch iteration speed                          | 15.56 it/s          |
| OneDiff iteration speed                          | 24.12 it/s (+55.0%) |
| PyTorch E2E time                                 | 1.96 s              |
| OneDiff E2E time                                 | 1.31 s (-33.2%)     |
| PyTorch Max Mem Used                             | 18.784 GiB          |
| OneDiff Max Mem Used                             | 18.324 GiB          |
| PyTorch Warmup with Run time                     | 2.86 s              |
| OneDiff Warmup with Compilation time<sup>1</sup> | 889.25 s            |
| OneDiff Warmup with Cache time                   | 44.38 s             |
"""


def test_memory_used_named_by_rows_reads_as_such_with_each_rows_engine():
    found = {
        (row["raw_value"], row["metric"]): (row["value"], row["unit"], row["framework"])
        for row in normalized(ONEDIFF_SD3).measurements.iter_rows(named=True)
    }
    # the memory a run used, named by its row
    assert found[("18.324 GiB", "other")] == (18.324, "GiB", "OneDiff")
    assert found[("24.12 it/s (+55.0%)", "throughput")] == (24.12, "items/s", "OneDiff")
