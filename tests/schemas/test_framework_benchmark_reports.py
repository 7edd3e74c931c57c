"""Benchmark reports of deep-learning frameworks and inference engines, written as their pages
write them: FLOP rates spelled with their whole SI prefix ("Achieved teraFLOP/s per GPU") and a
share of the chip's peak beside them; runs named with their nodes and GPUs per node ("2n8g");
a model's layers and heads among the settings of its runs; compile times in seconds; unknown
models named with their quantization ("-q4"); and the measure named in a Chinese sentence above
the table."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.precisions import find_precisions
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As Oneflow-Inc/DLPerf writes it (OneFlow/LanguageModeling/GPT/README.md): the results of
# each parallel layout of GPT pre-training on V100s, its header row left unclosed.
ONEFLOW_GPT = """## 测试结果

所有 case 测试的结果统计如下：

| group | case | lantency | memory | throuthput(sample/sec) | Achieved teraFLOP/s per GPU | Percentage of theoretical peak FLOP/s | Achieved aggregate petaFLOP/s
| - | - | - | - | - | - | - | -
| DP |   |   |   |   |   |   |
|  | DP_1x1x1_2_1536x16 |  406.16 (ms) |  11066 (MiB) |  4.92 |  49.43 |  40% |  0.05
|  | DP_32x1x1_64_1536x16 |  518.64 (ms) |  12208 (MiB) |  123.4 |  38.71 |  31% |  1.24
"""


def test_flop_rates_spelled_with_their_whole_prefix_load_in_their_units():
    found = fields_by_raw_value(ONEFLOW_GPT, "metric", "value", "unit", "item_kind")
    assert found["49.43"] == ("other", 49.43, "TFLOP/s/GPU", None)
    assert found["38.71"] == ("other", 38.71, "TFLOP/s/GPU", None)
    # an aggregate FLOP rate, not a throughput in the samples of the column beside it
    assert found["0.05"] == ("other", 0.05, "PFLOP/s", None)
    assert found["1.24"] == ("other", 1.24, "PFLOP/s", None)
    assert found["4.92"] == ("throughput", 4.92, "items/s", "samples")
    assert normalized(ONEFLOW_GPT).quarantine.is_empty()
    assert read_header("teraFLOPS").unit.canonical == "TFLOP/s"


def test_a_percentage_of_the_theoretical_peak_is_a_measured_share_not_a_reference():
    found = fields_by_raw_value(ONEFLOW_GPT, "metric", "value", "unit")
    assert found["40%"] == ("other", 40.0, "%")
    assert found["31%"] == ("other", 31.0, "%")
    assert read_header("Percentage of theoretical peak FLOP/s").kind == "metric"
    # the peak itself stays a reference figure, never a measured one
    assert read_header("Theoretical peak TFLOPS").kind == "reference"


# As Oneflow-Inc/libai writes it (docs/source/tutorials/get_started/Benchmark.md): its legend,
# then the runs of BERT, each named with its nodes and GPUs per node ("2n8g"); the links to
# the logs around the numbers are left out.
LIBAI = """## Main Results
Here we explain the evaluation indicators in the following tables:
- **1n1g**: 1 node, 1 gpu
- **2n8g**: 2 nodes, 8 gpus per node, 16 gpus in total
- **4n8g**: 4 nodes, 8 gpus per node, 32 gpus in total
- **samples/s**: throughput


### Data Parallel

<table class="docutils">
    <thead>
        <tr class="header">
            <th>BERT</th>
            <th>LiBai</th>
            <th>Megatron</th>
        </tr>
    </thead>
    <tbody>
        <tr class="odd">
            <td>nl24_fp16_1x1x1_mb24_gb24_1n1g</td>
            <td>46.91
                samples/s</td>
            <td>42.6
                samples/s</td>
        </tr>
        <tr class="even">
            <td>nl24_fp16_16x1x1_mb16_gb256_2n8g</td>
            <td>675.87
                samples/s</td>
            <td>534.7
                samples/s</td>
        </tr>
        <tr class="odd">
            <td>nl24_fp16_32x1x1_mb16_gb512_4n8g</td>
            <td>1207.65
                samples/s</td>
            <td>950.3
                samples/s</td>
        </tr>
    </tbody>
</table>
"""


def test_a_run_named_with_its_nodes_and_gpus_per_node_counts_their_product():
    found = fields_by_raw_value(LIBAI, "accelerator_count", "value", "unit", "precision")
    # every run had the legend's 8 GPUs per node as its count
    assert found["46.91 samples/s"] == (1, 46.91, "items/s", "fp16")
    assert found["675.87 samples/s"] == (16, 675.87, "items/s", "fp16")
    assert found["950.3 samples/s"] == (32, 950.3, "items/s", "fp16")


def test_a_top_left_header_naming_a_known_model_alone_is_the_tables_model():
    found = fields_by_raw_value(LIBAI, "model", "model_canonical", "framework")
    assert found["46.91 samples/s"][:2] == ("BERT", "BERT")
    assert found["534.7 samples/s"][:2] == ("BERT", "BERT")


# As MegEngine/InferLLM writes it (docs/profile.md): models no catalogue knows, each named with
# its size and its 4-bit quantization ("-q4"), in a list item under the CPU that ran them.
INFERLLM = """# 模型测速

## alpaca 结果

1. 硬件 11th Gen Intel(R) Core(TM) i7-11700 @ 2.50GHz

    | 模型 | 生成速度(token/s) | 线程数 |
    | :-: | :-: | :-: |
    | chinese-alpaca-7b-q4 | 3.2 | 1 |
    | chinese-alpaca-7b-q4 | 9.2 | 4 |
"""


def test_an_unknown_models_name_ending_in_its_quantization_gives_its_weights_dtype():
    found = fields_by_raw_value(INFERLLM, "model", "weight_dtype", "unit", "item_kind")
    assert found["3.2"] == ("chinese-alpaca-7b-q4", "int4", "items/s", "tokens")
    assert found["9.2"] == ("chinese-alpaca-7b-q4", "int4", "items/s", "tokens")
    # a "Q4" apart from a model's name is no precision of running text ("Q4 2024")
    assert find_precisions("Q4 2024 results") == ()


# As mindspore-lab/mindcv writes it (benchmark_results.md), two rows of many: the seconds each
# model's graph took to compile beside its step time and throughput.
MINDCV = """<details open markdown>
<summary><b>performance tested on Ascend 910(8p) with graph mode</b></summary>

| model name             | params(M) | cards | batch size | resolution | jit level | graph compile | ms/step | img/s    | acc@top1 | acc@top5 | recipe                                                                                                              | weight                                                                                                              |
| ---------------------- | --------- | ----- | ---------- | ---------- | --------- | ------------- | ------- | -------- | -------- | -------- | ------------------------------------------------------------------------------------------------------------------- | ------------------------------------------------------------------------------------------------------------------- |
| bit_resnet50           | 25.55     | 8     | 32         | 224x224    | O2        | 146s          | 74.52   | 3413.33  | 76.81    | 93.17    | [yaml](https://github.com/mindspore-lab/mindcv/blob/main/configs/bit/bit_resnet50_ascend.yaml)                      | [weights](https://download.mindspore.cn/toolkits/mindcv/bit/BiT_resnet50-1e4795a4.ckpt)                             |
| cmt_small              | 26.09     | 8     | 128        | 224x224    | O2        | 1268s         | 500.64  | 2048.01  | 83.24    | 96.41    | [yaml](https://github.com/mindspore-lab/mindcv/blob/main/configs/cmt/cmt_small_ascend.yaml)                         | [weights](https://download.mindspore.cn/toolkits/mindcv/cmt/cmt_small-6858ee22.ckpt)                                |
</details>
"""


def test_a_graph_compile_column_of_seconds_is_a_measured_time():
    result = normalized(MINDCV)
    assert result.quarantine.is_empty()  # 146s and 1268s were quarantined as unknown metrics
    found = fields_by_raw_value(MINDCV, "metric", "value", "unit", "accelerator_count")
    assert found["146s"] == ("other", 146_000.0, "ms", 8)
    assert found["1268s"] == ("other", 1_268_000.0, "ms", 8)
    assert found["3413.33"] == ("throughput", 3413.33, "items/s", 8)


# As Oneflow-Inc/DLPerf writes it (OneFlow/LanguageModeling/GPT/README.md): the setup of each
# case, the model's layers and attention heads among its settings.
ONEFLOW_GPT_CASES = """## 测试用例

| group | case | num_nodes | num_gpus_per_node | data_parallel_size | tensor_model_parallel_size | pipeline_model_parallel_size | micro_batch_size | micro_batch_size_times_data_parallel_size | num_accumulation_steps | global_batch_size | hidden_size | num_attention_heads | num_layers
| - | - | - | - | - | - | - | - | - | - | - | - | - | -
| DP |  |  |  |  |  |  |  |  |  |  |  |  |
| | DP_1x1x1_2_1536x16 | 1 | 1 | 1 | 1 | 1 | 2 | 2 | 1 | 2 | 1536 | 16 | 16
| | DP_8x1x1_16_1536x16 | 1 | 8 | 8 | 1 | 1 | 2 | 16 | 1 | 16 | 1536 | 16 | 16
"""


def test_a_models_layers_and_attention_heads_are_settings_of_its_runs():
    result = normalized(ONEFLOW_GPT_CASES)
    # 18 of each were quarantined as columns naming no metric
    unknown = result.quarantine.filter(result.quarantine["check"] == "unknown_metric")
    assert unknown.is_empty()
    assert result.measurements.is_empty()  # a table of setups holds no results
    assert read_header("num_layers").kind == "config"
    assert read_header("num_attention_heads").kind == "config"
    assert read_header("Attention heads").kind == "config"


# As UbiquitousLearning/mllm writes it (README-ZH.md): columns of precisions, the measure named
# in the sentence above the table, after a setting and a full-width comma ("`input_len=2048`，
# TPS 为多次运行的 mean latency 计算结果").
MLLM_JETSON = """## Jetson Orin CUDA Runtime

对于多模态 prefill，`bench_one_batch --image` 测量“视觉编码 + 图像/文本 token prefill”的完整路径。下表使用 `input_len=2048`，TPS 为多次运行的 mean latency 计算结果。

| Device | Model | FP16 | W4A16 | W8A8 |
|---|---|---:|---:|---:|
| AGX Orin 32GB | Qwen3-VL-2B | 4875.75 | 4700.28 | 6443.59 |
| AGX Orin 32GB | Qwen3-VL-4B | - | 2499.46 | 3837.07 |
| Orin NX 16GB | Qwen3-VL-2B | 2438.27 | 2494.89 | 3200.40 |
| Orin NX 16GB | Qwen3-VL-4B | - | 1231.21 | 1673.93 |
"""


def test_a_measure_named_after_a_setting_and_a_chinese_comma_is_the_tables():
    found = fields_by_raw_value(MLLM_JETSON, "metric", "value", "unit", "item_kind", "precision")
    # all ten were quarantined as latencies with no unit: "TPS" was read as part of the
    # setting's name before it
    assert found["4875.75"] == ("throughput", 4875.75, "items/s", "tokens", "FP16")
    assert found["6443.59"] == ("throughput", 6443.59, "items/s", "tokens", "W8A8")
    assert found["1673.93"] == ("throughput", 1673.93, "items/s", "tokens", "W8A8")
    assert len(found) == 10
