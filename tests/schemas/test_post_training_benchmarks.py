"""Benchmark pages of LLM fine-tuning and RL post-training frameworks no corpus holds: a
framework's table of RL and SFT runs (MFU, tokens per second, step time, peak memory per
hardware), and a time-per-step breakdown of an RL trainer's modes."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As PrimeIntellect-ai/prime-rl's benchmarks/results/BENCHMARKS.md writes its tables.
PRIME_RL_BENCHMARKS = """# Performance Benchmarks

Automated benchmark results for prime-rl using `--bench` flag.

## Qwen3-0.6B

| Type | SeqLen | AC | Attn | EP | CP | Hardware | MFU | TPS | Step Time | Peak Mem |
|------|--------|----|----|----|----|----------|-----|-----|-----------|----------|
| RL Full | 16384 | Recompute | FA3 | 1 | 1 | 1xH100 HBM3 | 11.1% | 11.90k | 1.38s | 12.5 GiB |
| RL Full | 65536 | Recompute | FA2 | 1 | 1 | 4xA6000 | 16.2% | 7.72k | 33.94s | 12.4 GiB |
| SFT Full | 8192 | Recompute | FA3 | 1 | 1 | 1xH100 HBM3 | 16.8% | 26.01k | 0.32s | 31.7 GiB |
"""


def test_a_step_time_beside_mfu_is_a_training_figure_not_an_inference_latency():
    found = fields_by_raw_value(
        PRIME_RL_BENCHMARKS, "metric", "value", "unit", "accelerator", "accelerator_count"
    )
    assert found["1.38s"] == ("latency", 1380.0, "ms", "H100", 1)
    assert found["33.94s"] == ("latency", 33940.0, "ms", "A6000", 4)
    assert found["7.72k"] == ("throughput", 7720.0, "items/s", "A6000", 4)
    rows = normalized(PRIME_RL_BENCHMARKS).measurements
    # the headers "MFU" and "Step Time" name training: every value of the table is a training
    # run's, its time per step among them
    assert set(rows["workload"]) == {"training"}
    assert len(rows) == 12
    assert all("workload=column" in sources for sources in rows["label_sources"])


# As volcengine/verl's docs/advance/fully_async.md and docs/advance/one_step_off.md write their
# comparisons of training modes: the total time of N steps in days, hours and minutes, the
# faster mode's speedup or gain in brackets after it.
VERL_MODES = """# Fully async

### Asynchronous Training on 7B Model

- Machine: H20
- Model: Qwen2.5-Math-7B

|   training mode    | resource allocation | total time<br>100 step | total time<br>400 step |
| :----------------: | :-----------------: | :--------------------: | :--------------------: |
|   colocate sync    |         32          |        13h 44m         |       3d 17h 5m        |
| fully_async_policy |        16:16        |   7h 58m<br>(1.72x)    |  1d 9h 26m<br>(2.66x)  |

### One step off

| training mode          | engine        | total time     |
| ---------------------- | ------------- | -------------- |
| colocate sync          | VLLM+FSDP2    | 19h18m         |
| one-step-overlap async | VLLM+FSDP2    | 15h34m（+23%） |
"""


def test_a_total_time_in_days_hours_and_minutes_loads_with_the_speedup_after_it():
    rows = normalized(VERL_MODES).measurements
    found = {
        (row["raw_value"], row["metric"]): (row["value"], row["unit"])
        for row in rows.iter_rows(named=True)
    }
    assert found[("13h 44m", "time_to_train")] == (49440.0, "s")
    assert found[("3d 17h 5m", "time_to_train")] == (320700.0, "s")
    assert found[("7h 58m (1.72x)", "time_to_train")] == (28680.0, "s")
    assert found[("7h 58m (1.72x)", "speedup")] == (1.72, "x")
    assert found[("1d 9h 26m (2.66x)", "time_to_train")] == (120360.0, "s")
    assert found[("19h18m", "time_to_train")] == (69480.0, "s")
    assert found[("15h34m（+23%）", "time_to_train")] == (56040.0, "s")
    assert found[("15h34m（+23%）", "other")] == (23.0, "%")
    assert normalized(VERL_MODES).quarantine.height == 0


# As inclusionAI/AReaL's blog/AReaL_v0_3.md writes its ablation of data staleness: a table of
# evaluation scores, its discussion, then the caption of the next figure, on throughput.
AREAL_ABLATION = """# AReaL v0.3

#### Algorithm Ablations

We vary the maximum allowed staleness η and compare configurations with and without the
decoupled PPO objective.

|  η  | **AIME 24** | **AIME 25** |
| :-: | :---------: | :---------: |
|  0  |    42.0     |    32.9     |
|  1  |    41.8     |    30.7     |

However, the decoupled PPO objective substantially improves training stability when handling
stale data.

![](/assets/figures/staleness_throughput.png)

*Fig.7 The relationship between η and training throughput. Larger η leads to higher throughput.*
"""


def test_the_caption_of_a_figure_under_a_table_does_not_name_the_tables_metric():
    document = normalized(AREAL_ABLATION)
    # the scores are no throughput: without a metric named for them, they are set apart
    assert "throughput" not in set(document.measurements["metric"])
    assert set(document.quarantine["raw_value"]) == {"42.0", "32.9", "41.8", "30.7"}


# As NovaSky-AI/SkyRL's docs/content/docs/examples/megatron.mdx compares its two backends: the
# hardware of each run under "Compute", as many GPUs times the chip, nodes times GPUs for
# the largest.
SKYRL_BACKENDS = """# Megatron Backend

| Model | Backend | Compute | Policy Training Time (s) | Forward Pass Time (s) |
|-------|---------|---------|--------------------------|----------------------|
| Qwen2.5-3B-Instruct | Megatron | 8xH100 | 48 | 39 |
| Qwen2.5-7B-Instruct | FSDP | 8xH100 | 100 | 33 |
| Qwen3-30B-A3B | Megatron | 4x8xH100 | 189 | 145 |
"""


def test_a_column_of_gpus_times_a_chip_names_the_hardware_whatever_its_header():
    document = normalized(SKYRL_BACKENDS)
    found = fields_by_raw_value(
        SKYRL_BACKENDS, "metric", "value", "accelerator", "accelerator_count"
    )
    assert found["48"] == ("time_to_train", 48.0, "H100", 8)
    assert found["33"] == ("latency", 33000.0, "H100", 8)
    assert found["189"] == ("time_to_train", 189.0, "H100", 32)
    assert found["145"] == ("latency", 145000.0, "H100", 32)
    # "8xH100" is no value of a metric the table leaves unnamed
    assert document.quarantine.height == 0


# As OpenRLHF/OpenRLHF's README.md (2024 to mid 2025) compared its PPO time with DeepSpeed-Chat's.
OPENRLHF_PERFORMANCE = """# OpenRLHF

## Performance

The average time (seconds) it took to train 1024 prompts with 1 PPO epoch using the Optimized
DSChat and OpenRLHF:

| **Size** | **NVIDIA A800-80GB GPUs** | **Optimized DSChat (with  Hybrid Engine)** | **OpenRLHF** | **Speedup** |
| :---: | :---: | :---: | :---: | :---: |
| 7B | 16 | 855.09 | 471.11 | 1.82x |
| 70B | 32 | 10407.0 | 4488.53 | 2.3x |
"""


def test_a_column_headed_by_a_named_engine_holding_decimals_holds_its_results():
    found = fields_by_raw_value(
        OPENRLHF_PERFORMANCE, "column_name", "value", "unit", "accelerator", "accelerator_count"
    )
    # the baseline's times, which had been taken for the rows' names and lost
    dschat = "Optimized DSChat (with  Hybrid Engine)"
    assert found["855.09"] == (dschat, 855.09, "s", "A800", 16)
    assert found["10407.0"] == (dschat, 10407.0, "s", "A800", 32)
    assert found["471.11"] == ("OpenRLHF", 471.11, "s", "A800", 16)
    assert found["2.3x"][1:3] == (2.3, "x")


def test_the_time_a_paragraph_says_it_took_to_train_is_a_training_time():
    found = fields_by_raw_value(OPENRLHF_PERFORMANCE, "metric", "value", "unit", "workload")
    # "The average time (seconds) it took to train 1024 prompts": no latency of a request
    assert found["471.11"] == ("time_to_train", 471.11, "s", "training")
    assert found["4488.53"] == ("time_to_train", 4488.53, "s", "training")


# As hiyouga/LLaMA-Factory's README.md estimates the memory each fine-tuning method needs.
LLAMA_FACTORY_MEMORY = """# LLaMA Factory

### Hardware Requirement

| Method                              | Bits |   7B  |  14B  |  30B  |   70B  |
| ----------------------------------- | ---- | ----- | ----- | ----- | ------ |
| QLoRA / QOFT                        |   4  |   6GB |  12GB |  24GB |   48GB |
| QLoRA / QOFT                        |   2  |   4GB |   8GB |  16GB |   24GB |
"""


def test_two_bits_quantize_the_weights_only():
    found = fields_by_raw_value(
        LLAMA_FACTORY_MEMORY, "value", "unit", "precision", "activation_dtype", "weight_dtype"
    )
    assert found["6GB"] == (6.0, "GB", "4-bit", "int4", "int4")
    # a 2-bit QLoRA run keeps its activations in a float type the table does not name
    assert found["4GB"] == (4.0, "GB", "2-bit", None, "int2")
    assert found["16GB"] == (16.0, "GB", "2-bit", None, "int2")


# As inclusionAI/AReaL's blog/AReaL_v0_3.md lists the settings of its runs.
AREAL_HYPERPARAMETERS = """# AReaL v0.3

### Key Hyperparameters

|      **Parameter**       | **Value** |
| :----------------------: | :-------: |
|     PPO Minibatches      |     1     |
|      Learning Rate       |   2e-5    |
|        Batch Size        |   2,048   |
| max_head_offpolicyness η |    16     |
|     success_rate_ub      |   0.95    |
"""


def test_a_table_under_a_hyperparameters_heading_lists_settings_not_results():
    document = normalized(AREAL_HYPERPARAMETERS)
    assert document.measurements.height == 0
    assert document.quarantine.height == 0


# As hiyouga/LLaMA-Factory's docs/en/advanced/distributed/fsdpturbo-ep-efsdp.md reports its
# validation runs of full SFT: a loss column beside the seconds each iteration took.
LLAMA_FACTORY_SFT_RUNS = """# FSDPTurbo EP/EFSDP and LlamaFactory FSDP2/CP Design

## 8. CP Runtime Constraints and Validation Scope

| Machine | CP | EP | EFSDP | Checkpoint | Kernel / Dispatcher | Steps | Loss (first -> last) | Performance | Result |
| --- | ---: | ---: | ---: | --- | --- | ---: | --- | ---: | --- |
| Atlas 900 A3 SuperPoD | 1 | 16 | 1 | Off | FLA (chunk size 16) / eager | 100 | 1.3361 -> 0.0793 | 2.51 s/it | Passed and saved |
| Atlas 900 A3 SuperPoD | 2 | 4 | 2 | Off | auto + FLA (chunk size 64) / fused | 100 | 1.8114 -> 0.5260 | 7.65 s/it | Passed and saved |
"""


def test_a_loss_column_says_the_seconds_per_iteration_beside_it_are_training_figures():
    found = fields_by_raw_value(LLAMA_FACTORY_SFT_RUNS, "metric", "value", "unit", "workload")
    assert found["2.51 s/it"] == ("latency", 2510.0, "ms", "training")
    assert found["7.65 s/it"] == ("latency", 7650.0, "ms", "training")


# As volcengine/verl's docs/advance/fully_async.md times the checkpoint engine's weight sync.
VERL_SYNC = """# Fully async

### checkpoint-engine Ablation Experiment

| model | trainer rank | rollout rank | checkpoint-engine | total sync time |
|:-----------------:|:--------:|:-------:|:--------------:|:--------------:|
| Qwen2.5-Math-7B | 4 | 4 | False | 0.12s |
| Qwen3-30B-A3B | 16 | 16 | True | 4.38s |
"""


def test_the_ranks_of_a_trainer_are_a_setting_not_a_place_in_a_ranking():
    document = normalized(VERL_SYNC)
    assert "ranking" not in set(document.measurements["metric"])
    # the sync times alone are values: times to result, under a header naming a time
    assert document.measurements.select("raw_value", "metric", "unit").rows() == [
        ("0.12s", "time_to_result", "s"),
        ("4.38s", "time_to_result", "s"),
    ]
    assert document.quarantine.height == 0
