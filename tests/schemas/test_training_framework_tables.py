"""Tables of training frameworks and fine-tuning tools: memory written as devices times what
each holds ("8*64GB"), device counts and parallel degrees as settings, the date a run was
made beside its figures, and the count of chips a page's setup line or sentence states."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As modelscope/ms-swift's docs/source_en/Megatron-SWIFT/Quick-start.md shows it ("Benchmark").
MS_SWIFT_BENCHMARK = r"""## Benchmark
The training speed comparison for full-parameter dense models with 8K context length, using `megatron sft` and `swift sft`, under a single-node, eight-GPU A800 environment is as follows: ([shell](https://github.com/modelscope/ms-swift/blob/main/examples/megatron/benchmark/deepspeed.sh))

**Dense** Qwen2.5-14B:


|                  | Megatron-LM | Deepspeed-ZeRO2 | Deepspeed-ZeRO3 |
| ---------------- | ----------- | --------------- | --------------- |
| Training Speed   | 9.04s/it    | 10.32s/it       | 10.56s/it       |
| GPU Memory Usage | 8\*64GB      | 8\*80GB          | 8\*58GB          |
"""

# As modelscope/ms-swift's docs/source_en/Megatron-SWIFT/Quick-start.md lists the versions it
# runs with, its first rows; and as hiyouga/LLaMA-Factory's README.md does ("Requirement").
MS_SWIFT_ENVIRONMENT = """Recommended Operating Environment:

|        | Range | Recommended | Notes |
|--------------|--------------|-------------|--------------------|
| python       | >=3.10        | 3.12    |                    |
| cuda         |              | cuda12.8/13.0   |                    |
| torch        | >=2.0        | 2.8.0/2.11.0    |                    |
| transformer-engine    | >=2.3       |  2.16.0  |                  |
| apex |   |  0.1 | |
| megatron-core    |    >=0.16,<0.20    | 0.18.0      |                  |
"""
LLAMA_FACTORY_REQUIREMENT = """## Requirement

| Optional     | Minimum | Recommend |
| ------------ | ------- | --------- |
| CUDA         | 11.6    | 12.2      |
| deepspeed    | 0.10.0  | 0.16.4    |
| bitsandbytes | 0.39.0  | 0.43.1    |
"""

# As modelscope/ms-swift's docs/source_en/BestPractices/NPU-support.md shows it ("Training").
MS_SWIFT_NPU_MEMORY = """## Training

The following examples introduce LoRA fine-tuning.

| Model size | NPU count | DeepSpeed type | Max memory usage |
| ---------- | --------- | -------------- | ---------------- |
| 7B         | 1         | None           | 1 * 28 GB        |
| 7B         | 4         | zero2          | 4 * 28 GB        |
| 14B        | 8         | zero3          | 8 * 31 GB        |
"""

# As PaddlePaddle/PaddleNLP's llm/docs/pretrain.md shows it ("模型预训练性能": pretraining
# performance), two of its eleven rows.
PADDLENLP_PRETRAIN = """## 模型预训练性能

以下测试结果基于以下机器环境：

- **GPU**: A100 80G * 8, CUDA 11.8, NCCL 2.15
- **CPU**: Intel(R) Xeon(R) Platinum 8350C CPU @ 2.60GHz

## 模型性能测试汇总

| 模型                              | 序列长度 | 分布式策略    | 速度 (tokens/card/sec) | 显存占用 (MB) | 配置文件                                                 | 测试时间            |
| --------------------------------- | -------- | ------------- | ---------------------- | ------------- | -------------------------------------------------------- | ------------------- |
| FlagAlpha/Llama2-Chinese-13b-Chat | 4096     | tp2sd4_stage2 | 1980.22                | 64323         | ./llama/pretrain-flagalpha_llama2_13b-tp2sd4_stage2.json | 2023-11-27 21:42:38 |
| baichuan-inc/Baichuan2-13B-Base   | 4096     | sd8_stage2    | 1354.99                | 74767         | ./baichuan/pretrain-baichuan2_13b-sd8_stage2.json        | 2023-11-27 21:51:26 |
"""

# As hiyouga/LLaMA-Factory's docs/en/advanced/distributed/fsdpturbo-ep-efsdp.md shows its
# validation runs.
LLAMA_FACTORY_RUNS = """The current implementation has completed the following BF16 AdamW full SFT validations with Qwen3.5-35B-A3B on Atlas 900 A3 SuperPoD and Atlas 950 SuperPoD systems.

| Machine | CP | EP | EFSDP | Checkpoint | Kernel / Dispatcher | Steps | Loss (first -> last) | Performance | Result |
| --- | ---: | ---: | ---: | --- | --- | ---: | --- | ---: | --- |
| Atlas 900 A3 SuperPoD | 1 | 16 | 1 | Off | FLA (chunk size 16) / eager | 100 | 1.3361 -> 0.0793 | 2.51 s/it | Passed and saved |
| Atlas 900 A3 SuperPoD | 1 | 16 | 1 | Off | FLA (chunk size 16) / fused | 100 | 1.3354 -> 0.1179 | 2.17 s/it | Passed and saved |
| Atlas 900 A3 SuperPoD | 2 | 4 | 2 | Off | auto + FLA (chunk size 64) / fused | 100 | 1.8114 -> 0.5260 | 7.65 s/it | Passed and saved |
| Atlas 900 A3 SuperPoD | 2 | 4 | 2 | Off | auto + FLA (chunk size 64) / eager | 100 | 1.8095 -> 0.5596 | 5.88 s/it | Passed and saved |
| Atlas 950 SuperPoD | 1 | 8 | 1 | Off | no kernel plugin configured / eager | 100 | 1.3575 -> 0.4439 | 2.68 s/it | Passed and saved |
"""

# As huggingface/accelerate's benchmarks/big_model_inference/README.md shows it ("Results"),
# two of its seven rows.
ACCELERATE_BIG_MODEL = """## Results

On a setup with two Titan RTXs (24GB of RAM) and 32GB of RAM, we get the following benchmarks (T0pp does not run in float16, which is why it's not included).

| Model | Model load time | Generation time | dtype | GPU 0 use | GPU 1 use | CPU use | Disk offload |
|:-----:|:---------------:|:---------------:|:-----:|:---------:|:---------:|:-------:|:------------:|
| GPT-J-6B | 8.7s | 0.05s per token | float16 | 11.7GB | 0GB | 0GB | no |
| OPT-30B | 112.3s | 33.9s per token | float32 | 20.2GB | 21.2GB | 23.5GB | yes |
"""


def test_memory_as_devices_times_each_loads_what_each_device_holds():
    found = fields_by_raw_value(
        MS_SWIFT_BENCHMARK, "metric", "value", "unit", "qualifier", "accelerator"
    )
    assert found["8*64GB"] == ("other", 64.0, "GB", "each of 8", "A800")
    assert found["8*58GB"] == ("other", 58.0, "GB", "each of 8", "A800")
    assert found["9.04s/it"][:3] == ("latency", 9040.0, "ms")


def test_a_spelled_count_before_its_noun_and_chip_counts_the_run():
    # "a single-node, eight-GPU A800 environment"
    found = fields_by_raw_value(MS_SWIFT_BENCHMARK, "accelerator", "accelerator_count")
    assert found["9.04s/it"] == ("A800", 8)
    assert found["8*80GB"] == ("A800", 8)


def test_a_column_of_npu_counts_counts_the_devices_of_its_row():
    result = normalized(MS_SWIFT_NPU_MEMORY)
    found = fields_by_raw_value(MS_SWIFT_NPU_MEMORY, "metric", "value", "unit", "accelerator_count")
    assert found == {
        "1 * 28 GB": ("other", 28.0, "GB", 1),
        "4 * 28 GB": ("other", 28.0, "GB", 4),
        "8 * 31 GB": ("other", 31.0, "GB", 8),
    }
    assert result.quarantine.height == 0


def test_a_sequence_length_and_a_test_date_are_no_values():
    result = normalized(PADDLENLP_PRETRAIN)
    found = fields_by_raw_value(PADDLENLP_PRETRAIN, "metric", "value", "unit")
    assert set(found) == {"1980.22", "64323", "1354.99", "74767"}
    assert found["1980.22"] == ("throughput", 1980.22, "items/s")
    assert found["74767"] == ("other", 74767.0, "MB")
    assert result.quarantine.height == 0


def test_a_chip_with_its_memory_times_a_count_counts_its_chips():
    # "GPU: A100 80G * 8"
    found = fields_by_raw_value(PADDLENLP_PRETRAIN, "model", "accelerator", "accelerator_count")
    assert found["1980.22"] == ("FlagAlpha/Llama2-Chinese-13b-Chat", "A100", 8)
    assert found["1354.99"] == ("baichuan-inc/Baichuan2-13B-Base", "A100", 8)


def test_an_expert_sharding_degree_is_a_setting():
    result = normalized(LLAMA_FACTORY_RUNS)
    assert set(result.measurements["column_name"]) == {"Loss (first -> last)", "Performance"}
    assert result.measurements.height == 10
    assert result.quarantine.height == 0  # no degree is a value of an unknown metric
    found = fields_by_raw_value(LLAMA_FACTORY_RUNS, "column_name", "metric", "value")
    assert found["7.65 s/it"] == ("Performance", "latency", 7650.0)


def test_a_model_load_time_is_a_measured_figure_not_the_model():
    found = fields_by_raw_value(ACCELERATE_BIG_MODEL, "model", "metric", "value", "unit")
    assert found["8.7s"] == ("GPT-J-6B", "other", 8700.0, "ms")
    assert found["112.3s"] == ("OPT-30B", "other", 112300.0, "ms")
    assert found["0.05s per token"] == ("GPT-J-6B", "latency", 50.0, "ms")


def test_a_count_before_a_plural_chip_counts_the_run():
    # "On a setup with two Titan RTXs": the plural counts as "two Titan RTX GPUs" does. The
    # memory each device used is the figure of a device; the table's times, beside columns
    # of GPU and CPU figures, name none.
    found = fields_by_raw_value(ACCELERATE_BIG_MODEL, "metric", "accelerator", "accelerator_count")
    assert found["11.7GB"] == ("other", "Titan RTX", 2)  # "GPU 0 use": no count of GPUs
    assert found["23.5GB"] == ("other", "Titan RTX", 2)  # "CPU use"


def test_recommended_versions_are_no_values():
    for page in (MS_SWIFT_ENVIRONMENT, LLAMA_FACTORY_REQUIREMENT):
        result = normalized(page)
        assert "Recommended" not in set(result.quarantine["column_name"])
        assert "Recommend" not in set(result.quarantine["column_name"])
        assert "Recommended" not in set(result.measurements["column_name"])
        assert "Recommend" not in set(result.measurements["column_name"])
    assert normalized(MS_SWIFT_ENVIRONMENT).quarantine.height == 0
