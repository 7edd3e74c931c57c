"""Tables of LLM serving, training and edge inference projects, quoted as their pages write
them: a label column saying "as above" with "-", a column named by its baseline alone ("v.s.
kv fp16"), a measure headed by a label word with its unit ("System Memory (MB)"), llama.cpp's
"pp512 + tg128" tests beside a chip, and quantized models named with a "_quant" suffix."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.context_labels import _labels_of, _with_metric
from perfledger.schemas.header_reading import read_header
from perfledger.schemas.model_names import read_model
from perfledger.schemas.thread_counts import threads_stated
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import normalized

# InternLM/lmdeploy, docs/en/quantization/kv_quant.md: each model's first row names it, the
# rows of its other KV cache types say "-".
KV_CACHE_THROUGHPUT = """## Performance

| model             | kv type | test settings                            | RPS   | v.s. kv fp16 |
| ----------------- | ------- | ---------------------------------------- | ----- | ------------ |
| llama2-chat-7b    | fp16    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 14.98 | 1.0          |
| -                 | int8    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 19.01 | 1.27         |
| -                 | int4    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 20.81 | 1.39         |
| llama2-chat-13b   | fp16    | tp1 / ratio 0.9 / bs 128 / prompts 10000 | 8.55  | 1.0          |
| -                 | int8    | tp1 / ratio 0.9 / bs 256 / prompts 10000 | 10.96 | 1.28         |
"""

# InternLM/InternEvo, doc/en/train_performance.md: memory of the web demo's runs.
WEB_DEMO_MEMORY = """Web_demo test:

|model|GPU|GPU Memory (GB)|System Memory (MB)|
|:-:|:-:|:-:|:-:|
| 7B | A800 | 14.5 | 2465 |
| 20B | A800 | 39 | 9547 |
"""

# alibaba/MNN, docs/perf/metal_prefill_optimization_summary.md
METAL_PREFILL = """## 性能数据

测试环境：Apple M4, 16GB, Metal 4, 4 线程, pp512 + tg128

| 模型 | 指标 | 优化前 | 优化后 | 变化 |
|------|------|--------|--------|------|
| Qwen3-0.6B | Metal prefill | 2957 | 2974 | +0.6% |
| Qwen3-0.6B | Metal decode | 178.34 | 178.35 | 0% |
"""


def _rows(page: str, *fields: str) -> list[tuple]:
    measurements = normalized(page).measurements.sort("line_number", "column_index")
    return [tuple(row[field] for field in fields) for row in measurements.iter_rows(named=True)]


def test_a_dash_in_a_label_column_is_the_label_of_the_row_above():
    rows = _rows(KV_CACHE_THROUGHPUT, "model", "precision", "metric", "value")
    throughputs = [row for row in rows if row[2] == "throughput"]
    assert throughputs == [
        ("llama2-chat-7b", "fp16", "throughput", 14.98),
        ("llama2-chat-7b", "int8", "throughput", 19.01),
        ("llama2-chat-7b", "int4", "throughput", 20.81),
        ("llama2-chat-13b", "fp16", "throughput", 8.55),
        ("llama2-chat-13b", "int8", "throughput", 10.96),
    ]
    assert all(row[0] != "-" for row in rows)


def test_a_column_named_by_its_baseline_alone_holds_speedups():
    assert read_header("v.s. kv fp16").role == "speedup"
    assert read_header("vs. A100").role == "speedup"
    assert read_header("compared to FP16").role == "speedup"
    assert read_header("VS_LIST").role is None  # a parameter's name in code
    ratios = [row for row in _rows(KV_CACHE_THROUGHPUT, "model", "precision", "metric", "value")]
    assert ("llama2-chat-7b", "int4", "speedup", 1.39) in ratios
    assert ("llama2-chat-13b", "int8", "speedup", 1.28) in ratios


def test_a_label_word_with_a_unit_heads_a_measure_and_every_value_loads():
    reading = read_header("System Memory (MB)")
    assert (reading.kind, reading.unit.canonical) == ("metric", "MB")
    rows = _rows(WEB_DEMO_MEMORY, "model", "platform", "column_name", "value", "unit")
    assert rows == [
        ("7B", "A800", "GPU Memory (GB)", 14.5, "GB"),
        ("7B", "A800", "System Memory (MB)", 2465.0, "MB"),
        ("20B", "A800", "GPU Memory (GB)", 39.0, "GB"),
        ("20B", "A800", "System Memory (MB)", 9547.0, "MB"),
    ]


def test_llama_cpp_test_names_beside_a_chip_count_no_chips():
    mention = read_hardware("测试环境：Apple M4, 16GB, Metal 4, 4 线程, pp512 + tg128", "prose")
    assert (mention.accelerator, mention.count) == ("M4", None)
    assert read_hardware("8 H100 tp2 pp4", "prose").count == 8  # a pipeline's stages count
    counts = {row[1] for row in _rows(METAL_PREFILL, "accelerator", "accelerator_count")}
    assert counts == {None}


def test_a_quantized_model_named_with_a_suffix_is_its_model_quantized():
    # PaddlePaddle/Paddle-Lite, docs/performance/benchmark.md: "MobileNetV1_quant" beside the
    # float "MobileNetV1" of the same tables
    reading = read_model("MobileNetV1_quant")
    assert (reading.canonical, reading.variant) == ("MobileNet v1", "quantized")
    assert read_model("ResNet50_quant").canonical == "ResNet-50"
    assert read_model("MobileNetV1").canonical == "MobileNet v1"


# InternLM/lmdeploy, docs/en/quantization/kv_quant.md: a table of a serving run's figures, one
# row each, under a caption naming the chip, the model and the dataset.
TURBOQUANT = """### Performance Benchmark

Tested on H200 with Qwen3-30B-A3B-Base model and ShareGPT dataset:

| Metric             | Baseline (quant_policy=0) | TurboQuant (quant_policy=42) | Change     |
| ------------------ | ------------------------- | ---------------------------- | ---------- |
| Input throughput   | 2368.8 tok/s              | 2195.8 tok/s                 | -7.3%      |
| Output throughput  | 2186.7 tok/s              | 2027.0 tok/s                 | -7.3%      |
| Mean E2E latency   | 5.888s                    | 6.348s                       | +7.8%      |
| Mean TTFT          | 1.139s                    | 1.235s                       | +8.4%      |
| Mean TPOT          | 0.024s                    | 0.026s                       | +8.3%      |
"""


def test_a_row_naming_which_latency_keeps_that_name_beside_the_metric():
    found = {
        row[0]: row[1:]
        for row in _rows(TURBOQUANT, "raw_value", "metric", "statistic", "variant", "value")
    }
    assert found["5.888s"] == ("latency", "mean", "E2E latency", 5888.0)
    assert found["1.139s"] == ("latency", "mean", "TTFT", 1139.0)
    assert found["0.024s"] == ("latency", "mean", "TPOT", 24.0)
    assert found["2368.8 tok/s"][:3] == ("throughput", None, "Input")
    assert found["2186.7 tok/s"][:3] == ("throughput", None, "Output")


def test_a_caption_naming_the_model_and_the_dataset_labels_the_table():
    rows = _rows(TURBOQUANT, "model_canonical", "dataset", "accelerator", "label_sources")
    assert {row[:3] for row in rows} == {("Qwen3 30B-A3B Base", "ShareGPT", "H200")}
    assert all("dataset=caption" in row[3] for row in rows)
    assert read_model("Qwen3-8B-Base").variant == "Base"
    assert read_model("bert-base-uncased").canonical == "BERT-Base"  # a size, not a stage


# hailo-ai/hailo_model_zoo, docs/public_models/HAILO8/HAILO8_semantic_segmentation.rst: a
# section per dataset, each heading its table (two of its rows).
SEGMENTATION_ZOO = """Cityscapes
^^^^^^^^^^

.. list-table::
   :header-rows: 1

   * - Network Name
     - float
     - FPS (Batch Size=1)
   * - fcn8_resnet_v1_18
     - 69.4
     - 42
   * - stdc1
     - 74.6
     - 57
"""


def test_a_section_heading_naming_a_dataset_is_the_dataset_of_its_table():
    page = normalized(SEGMENTATION_ZOO, "text/x-rst").measurements
    assert set(page["dataset"]) == {"Cityscapes"}
    fps = page.filter(page["raw_value"] == "57").row(0, named=True)
    assert (fps["model"], fps["metric"], fps["batch_size"]) == ("stdc1", "throughput", "1")


# Tencent/TNN, doc/benchmark_data.md: a phone's CPU times on one thread beside its GPU times.
PHONE_TIMES = """# v0.3 benchmark

* huawei P30 Pro(Kirin 980, Mali-G76 MP10)

| benchmark model | cpu time(thread 1,fp16, ms) | gpu time(ms) |
|-----------------|-----------------------------|--------------|
| DenseNet 121    | 65.70                       | 45.83        |
| MobileNet v1    | 16.39                       | 11.18        |
"""


def test_the_threads_a_header_or_the_text_above_states_are_a_setting_of_the_run():
    found = {row[0]: row[1:] for row in _rows(PHONE_TIMES, "raw_value", "settings", "precision")}
    assert found["65.70"] == ("threads=1", "fp16")
    assert found["45.83"] == (None, None)  # the GPU's column states no threads
    above = PHONE_TIMES.replace("(thread 1,fp16, ms)", "(fp16, ms)").replace(
        "* huawei", "测试统一使用 8 线程。\n\n* huawei"
    )
    found = {row[0]: row[1] for row in _rows(above, "raw_value", "settings")}
    assert (found["65.70"], found["45.83"]) == ("threads=8", None)  # the CPU's, not the GPU's
    assert threads_stated("1 thread and 4 threads") is None  # a sweep: each row says its own


# google/XNNPACK, README.md: the same models timed single-threaded, then multi-threaded.
PIXEL_TIMES = """### Mobile phones

The table below presents **single-threaded** performance of XNNPACK library on three generations of MobileNet models and three generations of Pixel phones.

| Model                   | Pixel, ms | Pixel 2, ms | Pixel 3a, ms |
| ----------------------- | :-------: | :---------: | :----------: |
| FP32 MobileNet v1 1.0X  |    82     |      86     |      88      |

The following table presents **multi-threaded** (using as many threads as there are big cores) performance of XNNPACK library on three generations of MobileNet models and three generations of Pixel phones.

| Model                   | Pixel, ms | Pixel 2, ms | Pixel 3a, ms |
| ----------------------- | :-------: | :---------: | :----------: |
| FP32 MobileNet v1 1.0X  |    43     |      27     |      46      |
"""


def test_threads_said_to_be_several_are_no_single_thread_stated_farther_up():
    found = {row[0]: row[1] for row in _rows(PIXEL_TIMES, "raw_value", "settings")}
    assert (found["82"], found["86"]) == ("threads=1", "threads=1")
    assert (found["43"], found["27"]) == ("threads=multi", "threads=multi")


# Ascend/ModelZoo-PyTorch, ACL_PyTorch/built-in/nlp/Bert_Uncased_Huggingface/README.md: the
# chip written once, "..." under it on the rows of other sequence lengths.
NPU_THROUGHPUT = """| 芯片型号    | Sequence Length | Batch Size | NPU 性能（FPS） |
| ----------- | --------------- | ---------- | --------------- |
| Ascend310P3 | 64              | 1          | 421.30          |
| ...         | ...             | 4          | 1672.77         |
| ...         | 128             | 1          | 289.64          |
"""


def test_an_ellipsis_in_a_label_column_repeats_the_label_above_it():
    rows = _rows(NPU_THROUGHPUT, "raw_value", "accelerator", "settings", "batch_size")
    found = {row[0]: row[1:] for row in rows}
    assert found["1672.77"] == ("Ascend 310P", "Sequence Length=64", "4")
    assert found["289.64"] == ("Ascend 310P", "Sequence Length=128", "1")


# Ascend/MindSpeed-LLM, docs/en/pytorch/features/README.md: an HTML table in a Markdown page.
FINE_TUNING = """## Distributed Fine-Tuning

The measured instruction fine-tuning performance of MindSpeed LLM is as follows.

<table>
  <tr>
    <th>Model</th>
    <th>Hardware</th>
    <th>Cluster</th>
    <th>Scheme</th>
    <th>Sequence</th>
    <th>Throughput (Tokens/s)</th>
  </tr>
  <tr>
    <td rowspan="1">Qwen3-32B</td>
    <td rowspan="1">Atlas 900 A3 SuperPoD</td>
    <td rowspan="1">8x16</td>
    <td>Full Parameters</td>
    <td><a href="../../../../examples/mcore/qwen3/tune_qwen3_32b_256K_full_pack_A3_ptd.sh">256K</a></td>
    <td>1435.603</td>
  </tr>
  <tr>
    <td rowspan="1">DeepSeek-V3-671B</td>
    <td rowspan="1">Atlas 900 A2 PODc</td>
    <td rowspan="1">8x8</td>
    <td>LoRA</td>
    <td><a href="../../../../examples/mcore/deepseek3/tune_deepseek3_671b_4k_lora_ptd.sh">4K</a></td>
    <td>978.914</td>
  </tr>
</table>
"""


def test_an_ascend_pod_its_cluster_and_its_tuning_scheme_label_the_run():
    rows = _rows(
        FINE_TUNING, "raw_value", "vendor", "accelerator", "accelerator_count", "precision"
    )
    found = {row[0]: row[1:] for row in rows}
    assert found["1435.603"] == ("Huawei", "Ascend 910C", 128, None)
    assert found["978.914"] == ("Huawei", "Ascend 910B", 64, None)  # no NVIDIA A2
    settings = {row[0]: row[1] for row in _rows(FINE_TUNING, "raw_value", "settings")}
    assert settings["978.914"] == "Scheme=LoRA; Sequence=4K"
    assert normalized(FINE_TUNING).quarantine.height == 0  # "256K" is a setting, no value


# turboderp/exllamav2, README.md: models quantized to bit rates between whole bits.
BIT_RATES = """## Performance

| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |
|------------|--------------|-------|-------|-----|---------|-------------|
| Llama2     | EXL2 3.0 bpw | 7B    | -     | -   | 217 t/s | **257** t/s |
| Llama2     | EXL2 4.0 bpw | 7B    | -     | -   | 185 t/s | **211** t/s |
| Llama2     | EXL2 5.0 bpw | 7B    | -     | -   | 164 t/s | **179** t/s |
| Llama2     | EXL2 2.5 bpw | 70B   | -     | -   | 33 t/s  | **38** t/s  |
"""


def test_bits_per_weight_name_the_width_of_the_weights():
    found = {row[0]: row[1:] for row in _rows(BIT_RATES, "raw_value", "weight_dtype", "platform")}
    assert found["217 t/s"] == ("int3", "3090Ti")
    assert found["185 t/s"] == ("int4", "3090Ti")
    assert found["164 t/s"] == ("int5", "3090Ti")
    assert found["33 t/s"] == ("int2", "3090Ti")


# InternLM/InternEvo, doc/en/train_performance.md: the machine described part by part in a
# table of its own, the host's processor among the parts; results in a later subsection.
TRAINING_MACHINE = """## Training Performance

We tested the performance of training the 7B model in InternEvo using various parallel configurations on a GPU cluster. In each test group, the number of tokens processed per GPU in a single iteration remained consistent. The hardware and parameter configurations used in the tests are shown in the table below:

| Hardware                | Model                         |
| ----------------------- | ----------------------------- |
| GPU                     | nvidia_a100-sxm4-80gb         |
| Memory                  | 2TB                           |
| Inter-machine bandwidth | 4 * 100Gb RoCE                |
| CPU                     | 128 core Intel(R) Xeon(R) CPU |

### Throughput Measurement

Throughput is defined as TGS, the average number of tokens processed per GPU per second.

| Parallel Configuration | 8 GPUs | 16 GPUs | 32 GPUs |
| ---------------------- | ------ | ------- | ------- |
| (tp=1, zero1=-1)       | 4062   | 3842    | 3752    |
| (tp=1, zero1=8)        | 4078   | 3939    | 3919    |
"""


def test_a_table_describing_the_machine_names_the_chip_of_the_results_below():
    rows = _rows(TRAINING_MACHINE, "raw_value", "accelerator", "accelerator_count", "metric")
    found = {row[0]: row[1:] for row in rows}
    assert found["4062"] == ("A100", 8, "throughput")
    assert found["3919"] == ("A100", 32, "throughput")
    assert "2TB" not in found  # the machine's memory is no result of the runs


def test_a_header_naming_the_difference_of_a_score_names_no_score():
    # microsoft/Olive, docs/source/blogs/quant-slms.md: "| Base model | Best schema | Δ mean
    # quality vs Original (%) | ... |" over "+2.724": a difference, no accuracy of 2.7%
    assert read_header("Δ mean quality vs Original (%)").role == "other"
    assert read_header("Delta accuracy").role == "other"
    assert read_header("Accuracy").role == "accuracy"
    assert read_header("Model Size").role == "model_size"  # what ran, no figure of it


def test_words_after_a_time_or_a_multiple_are_a_remark_not_its_unit():
    # vllm-project.github.io, _posts/2025-10-26-sleep-mode.md: "| **Initial Load Time** |
    # 108.7s (includes 8.4s warm-up) | 101.1s (no warm-up) | 7.6s saved initially |"
    (saved,) = read_cell("7.6s saved initially").values
    assert (saved.number, saved.unit.canonical, saved.qualifier) == (7.6, "s", "saved initially")
    (slower,) = read_cell("**5.8x slower** without warm-up").values
    assert (slower.number, slower.unit.canonical, slower.qualifier) == (5.8, "x", "slower")
    # a time followed by a second figure is no remark of it
    assert [value.number for value in read_cell("12 ms 3.1 GB").values] == [12.0, 3.1]


def test_a_paragraph_naming_several_counts_of_devices_states_none():
    # volcengine/verl, docs/advance/fully_async.md: the runs of the tables below it differ
    sentence = (
        "Using the `async stream pipeline with stale samples` strategy, we achieved about 2x "
        "performance improvement on 32 cards, 64 cards, and 128 cards without significantly "
        "affecting experimental results."
    )
    assert dict(_labels_of(sentence, "paragraph")).get("count") is None
    assert dict(_labels_of("All runs used 8 cards.", "paragraph"))["count"].count == 8


def test_scaling_said_in_passing_names_no_metric():
    # QwenLM/qwenlm.github.io, content/blog/qwen: the paragraph above its L-Eval scores
    sentence = (
        "For simplicity and stability, we did not introduce more tasks for the language model "
        "but focus on model size scaling and data scaling."
    )
    assert "metric" not in dict(_with_metric((), sentence, "paragraph"))
    named = dict(_with_metric((), "Weak scaling efficiency from 8 to 64 GPUs.", "paragraph"))
    assert named["metric"] == "scaling_efficiency"


# casper-hansen/AutoAWQ, README.md: two kernels of the software compared under "Version".
KERNEL_VERSIONS = """| Model Name | Size | Version | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s | Memory (VRAM)     |
| ---------- | ---- | ------- | ---------- | -------------- | ------------- | ---------------- | --------------- | ----------------- |
| Vicuna     | 7B   | 🟢GEMV   | 1          | 64             | 64            | 639.65           | 198.848         | 4.50 GB (19.05%)  |
| Mistral    | 7B   | 🔵GEMM   | 1          | 64             | 64            | 1093.35          | 156.317         | 4.35 GB (18.41%)  |
"""


def test_a_named_variant_under_a_version_header_is_a_setting():
    found = {
        row[0]: row[1:] for row in _rows(KERNEL_VERSIONS, "raw_value", "sdk_version", "settings")
    }
    assert found["639.65"] == (None, "Size=7B; Version=GEMV; Prefill Length=64; Decode Length=64")
    assert found["1093.35"][1].split("; ")[1] == "Version=GEMM"


# sipeed/TinyMaix, benchmark.md: times of one model under each option or architecture.
MCU_TIMES = """# Infer Time & Input Size
mbnet infer time under different input size
BL808 C906 core 480M, use RV64V, FP16 model
|input size|infer time|
|---    |---   |
| 96x 96|  60ms|
|128x128|  81ms|

## TM_ARCH_ARM_NEON
Raspberry Pi4 single core run mbnet 1.0, 224x224x3 input

|ARCH|MDL_TYPE|OPT0 time|OPT1 time|
|---|---|---|---|
|TM_ARCH_CPU     | INT8| 860ms| 821ms|
|TM_ARCH_ARM_NEON| FP32| 1275ms|  1223ms|
"""


def test_a_small_table_of_times_is_results_not_a_list_of_settings():
    found = {row[0]: row[1:] for row in _rows(MCU_TIMES, "raw_value", "metric", "value", "unit")}
    assert found["60ms"] == ("latency", 60.0, "ms")
    assert found["81ms"] == ("latency", 81.0, "ms")
    assert found["860ms"] == ("latency", 860.0, "ms")
    assert found["1223ms"] == ("latency", 1223.0, "ms")
    assert len(found) == 6  # none of them lost


# sipeed/TinyMaix, benchmark.md: boards described by their clock and memories, then the time
# each model took on them, the unit said once above the table.
BOARD_RECORDS = """## Test Record
model infer time unit is ms;
Sort by performance, compare priority: mbnet128 > vww96 > cifar > mnist

|Chip/Board  |Core      |Flash|RAM     |Freq |mbnet|vww96|cifar|mnist|Note|
|---         |---       |---  |---     |---  |---  |---  |---  |---  |---|
|RK3399's A72|ARM A72   | 32GB|     4GB|1800M| 15  | 10  |  3  | 0.07||
"""


def test_a_boards_clock_and_memories_are_no_results_beside_its_times():
    found = {row[0]: row[1:] for row in _rows(BOARD_RECORDS, "column_name", "metric", "value")}
    assert found == {
        "mbnet": ("latency", 15.0),
        "vww96": ("latency", 10.0),
        "cifar": ("latency", 3.0),
        "mnist": ("latency", 0.07),
    }
    settings = {row[0] for row in _rows(BOARD_RECORDS, "settings")}
    assert settings == {"Core=ARM A72; Flash=32GB; RAM=4GB; Freq=1800M"}


# mit-han-lab/llm-awq, tinychat/README.md: first-token times by the history's length, which
# the top-left header names over the lengths its columns give.
TTFT_BY_HISTORY = """Time-To-First-Token (TTFT) of Llama-3-8B (Unit: ms):

| History length            | 16    | 32    | 64    |
|---------------------------|:-----:|:-----:|:-----:|
| FP16                      | 21.49 | 21.38 | 23.51 |
| TinyChat 2.0              | 14.30 | 14.05 | 14.05 |
| Speedup                   | 1.54x | 1.54x | 1.69x |
"""


def test_a_corner_of_no_known_role_names_the_axis_of_numbered_columns():
    found = {
        row[0]: row[1:]
        for row in _rows(TTFT_BY_HISTORY, "raw_value", "metric", "settings", "precision")
    }
    assert found["21.49"] == ("latency", "History length=16", "FP16")
    assert found["23.51"] == ("latency", "History length=64", "FP16")
    assert found["1.69x"][:2] == ("speedup", "History length=64")


# wenet-e2e/wenet, runtime/gpu/README.md: a line listing the run above its table.
SPEECH_RUN = """### Offline Model Perf
Here are the wenetspeech conformer model and aishell2 u2++ perf on T4.
* Aishell2, FP16, onnx, [U2++ Conformer](http://mobvoi-speech-public.ufile.ucloud.cn/public/wenet/aishell2/20210618_u2pp_conformer_exp.tar.gz)

|input length|Concurrency|RTF / GPU  |Throughput|Latency_p50 (ms)|
|------------|-----------|-----------|----------|----------------|
|5s          | 50        |0.0010     |204       |245.003         |
"""


def test_a_line_listing_the_run_names_the_dataset_of_its_table():
    rows = _rows(SPEECH_RUN, "raw_value", "dataset", "dataset_canonical", "statistic")
    found = {row[0]: row[1:] for row in rows}
    assert found["204"][:2] == ("Aishell2", "AISHELL-2")
    assert found["245.003"] == ("Aishell2", "AISHELL-2", "p50")
