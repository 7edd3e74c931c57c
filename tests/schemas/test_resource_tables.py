"""Tables of what running or finetuning a model costs (LLM libraries' resource and speed
tables): the memory a run took and the time a number of iterations took are measured
values, and the lengths a serving benchmark was run at (prefill, decode) are its settings."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As Lightning-AI/litgpt's tutorials/resource-tables.md shows it ("Finetuning with LoRA on 1
# GPU"), its first rows.
FINETUNE_RESOURCES = """# Resource Tables

- Hardware: NVIDIA A100-SXM4-40GB

## Finetuning with LoRA on 1 GPU

The following experiments were conducted on 1xA100 with a minibatch size of 128 using the `litgpt finetune_lora` command.

| Size  | Model          | Quantization | Microbatch size | Trainable parameters | Max GPU RAM | Time 1k iterations |
|-------|----------------|--------------|-----------------|----------------------|-------------|--------------------|
| 1.3 B | phi-1.5        | None         | 1               | 1,572,864            | 4.82 GB     | 1.62 min           |
| 1.3 B | phi-1.5        | bnb.nf4      | 1               | 1,572,864            | 3.78 GB     | 1.77 min           |
| 7 B   | Llama 2        | None         | 4               | 4,194,304            | OOM         | -                  |
"""

# As casper-hansen/AutoAWQ's README.md shows it ("Benchmarks"), its first rows.
AWQ_SPEED = """# AutoAWQ

## Benchmarks

- GPU: RTX 4090 (AMD Ryzen 9 7950X)

| Model Name | Size | Version | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s | Memory (VRAM)     |
| ---------- | ---- | ------- | ---------- | -------------- | ------------- | ---------------- | --------------- | ----------------- |
| Vicuna     | 7B   | 🟢GEMV   | 1          | 64             | 64            | 639.65           | 198.848         | 4.50 GB (19.05%)  |
| Mistral    | 7B   | 🔵GEMM   | 8          | 2048           | 2048          | 3661.46          | 829.754         | 16.82 GB (71.12%) |
"""

# As AutoGPTQ/AutoGPTQ's README.md shows it ("Inference Speed").
GPTQ_SPEED = """# AutoGPTQ

### Inference Speed
> The result is generated using [this script](examples/benchmark/generation_speed.py), batch size of input is 1, decode strategy is beam search and enforce the model to generate 512 tokens, speed metric is tokens/s (the larger, the better).
>
> The quantized model is loaded using the setup that can gain the fastest inference speed.

| model         | GPU           | num_beams | fp16  | gptq-int4 |
|---------------|---------------|-----------|-------|-----------|
| llama-7b      | 1xA100-40G    | 4         | 68.79 | 91.30     |
"""


def test_the_memory_a_finetuning_run_took_is_a_value_not_a_count_of_gpus():
    loaded = fields_by_raw_value(
        FINETUNE_RESOURCES, "metric", "value", "unit", "statistic", "model_canonical"
    )
    assert loaded["4.82 GB"] == ("other", 4.82, "GB", "max", "Phi-1.5 1.3B")
    assert loaded["3.78 GB"] == ("other", 3.78, "GB", "max", "Phi-1.5 1.3B")
    quarantined = normalized(FINETUNE_RESOURCES).quarantine
    assert quarantined.filter(quarantined["raw_value"] == "OOM")["check"].to_list() == [
        "placeholder_value"
    ]


def test_the_time_a_thousand_iterations_took_is_a_duration():
    loaded = fields_by_raw_value(FINETUNE_RESOURCES, "metric", "value", "unit", "accelerator")
    assert loaded["1.62 min"] == ("latency", 97200.0, "ms", "A100")
    assert loaded["1.77 min"] == ("latency", 106200.0, "ms", "A100")


def test_prefill_and_decode_lengths_are_settings_of_the_row():
    rows = normalized(AWQ_SPEED).measurements
    assert sorted(set(rows["column_name"])) == [
        "Decode tokens/s",
        "Memory (VRAM)",
        "Prefill tokens/s",
    ]
    loaded = fields_by_raw_value(AWQ_SPEED, "metric", "value", "settings")
    assert loaded["3661.46"] == (
        "throughput",
        3661.46,
        "Size=7B; Version=GEMM; Prefill Length=2048; Decode Length=2048",
    )
    assert loaded["198.848"][:2] == ("throughput", 198.848)
    assert loaded["16.82 GB (71.12%)"][:2] == ("other", 71.12)  # the share of the card's


def test_the_number_of_beams_is_a_setting_not_a_value():
    rows = normalized(GPTQ_SPEED).measurements
    assert sorted(rows["raw_value"]) == ["68.79", "91.30"]
    assert set(rows["settings"]) == {"num_beams=4"}


def test_a_verb_of_gaining_in_the_note_names_no_speedup():
    # "speed metric is tokens/s" is the metric; "can gain the fastest inference speed" is
    # how the model was loaded, no ratio to a baseline
    loaded = fields_by_raw_value(
        GPTQ_SPEED, "metric", "unit", "item_kind", "precision", "accelerator", "accelerator_count"
    )
    assert loaded["68.79"] == ("throughput", "items/s", "tokens", "fp16", "A100", 1)
    assert loaded["91.30"] == ("throughput", "items/s", "tokens", "gptq-int4", "A100", 1)


# As EricLBuehler/mistral.rs's releases/v0.8.2/report.md shows it ("Appendix: Full Tables"):
# the chip, then the model, then the precision and phase, each a heading of its own.
ENGINE_APPENDIX = """# mistral.rs v0.8.2 Report

## Appendix: Full Tables

All appendix values are tokens per second. The speedup column is mistral.rs divided by the comparison engine in the same row.

### GB10

#### Gemma 4 E4B

##### Q4_K_M Decode

| Depth | mistral.rs UQFF q4 | llama.cpp GGUF Q4_K_M | mistral.rs speedup |
|---:|---:|---:|---:|
| 128 | 68.0 | 61.6 | 1.104x |
"""


def test_a_gemma_size_in_effective_parameters_names_the_model():
    loaded = fields_by_raw_value(
        ENGINE_APPENDIX, "metric", "model_canonical", "accelerator", "settings"
    )
    assert loaded["68.0"] == ("throughput", "Gemma 4 E4B", "GB10", "Depth=128")
    assert loaded["61.6"] == ("throughput", "Gemma 4 E4B", "GB10", "Depth=128")
    assert loaded["1.104x"] == ("speedup", "Gemma 4 E4B", "GB10", "Depth=128")


def test_a_family_named_in_one_column_and_its_size_in_the_next_is_one_model():
    # AutoAWQ's "Vicuna | 7B": Vicuna is a family whose sizes are parameters
    loaded = fields_by_raw_value(AWQ_SPEED, "model_canonical")
    assert loaded["639.65"] == ("Vicuna 7B",)
    assert loaded["3661.46"] == ("Mistral 7B",)


# As pytorch/torchtune's README.md shows them ("Models", "Memory and training speed",
# "Optimization flags"), their first rows.
FINETUNE_README = """# torchtune

## Overview 📚

- Best-in-class memory efficiency, performance improvements, and scaling, utilizing the latest PyTorch APIs

### Models

Some of our supported models:

| Model                                         | Sizes     |
|-----------------------------------------------|-----------|
| [Llama3.3](https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_3)    | 70B [[models](torchtune/models/llama3_3/_model_builders.py), [configs](recipes/configs/llama3_3/)]        |
| [Llama3.1](https://llama.meta.com/docs/model-cards-and-prompt-formats/llama3_1)    | 8B, 70B, 405B [[models](torchtune/models/llama3_1/_model_builders.py), [configs](recipes/configs/llama3_1/)]        |

### Memory and training speed

Below is an example of the memory requirements and training speed for different Llama 3.1 models.

| Model | Finetuning Method | Runnable On | Peak Memory per GPU | Tokens/sec * |
|:-:|:-:|:-:|:-:|:-:|
| Llama 3.1 8B | Full finetune | 1x A6000 | 37.4 GiB |  2579|
| Llama 3.1 70B | LoRA | 8x A100 | 27.6 GiB  | 3497  |

### Optimization flags

torchtune exposes a number of levers for memory efficiency and performance.

| Technique | Peak Memory Active (GiB) | % Change Memory vs Previous | Tokens Per Second | % Change Tokens/sec vs Previous|
|:--|:-:|:-:|:-:|:-:|
| Baseline | 25.5 | - | 2091 | - |
| [+ Compile](https://pytorch.org/tutorials/intermediate/torch_compile_tutorial.html) | 51.0 | -14.93% | 8998 | +27.18% |
"""

# As Vahe1994/AQLM's README.md shows it: a scheme of codebooks beside each model.
QUANTIZED_MODELS = """# AQLM

| Model      | AQLM scheme | WikiText-2 PPL | Model size, Gb | Hub link                                                                 |
|------------|-------------|----------------|----------------|--------------------------------------------------------------------------|
| Llama-2-7b | 1x16g8        | 5.68          | 2.4            | [Link](https://huggingface.co/ISTA-DASLab/Llama-2-7b-AQLM-PV-2Bit-1x16-hf) |
"""


def test_a_column_saying_where_the_run_went_names_its_chips():
    loaded = fields_by_raw_value(FINETUNE_README, "accelerator", "accelerator_count")
    assert loaded["2579"] == ("A6000", 1)
    assert loaded["37.4 GiB"] == ("A6000", 1)
    assert loaded["3497"] == ("A100", 8)


def test_a_list_of_the_sizes_of_each_family_holds_no_values():
    rows = normalized(FINETUNE_README).measurements
    assert "Sizes" not in set(rows["column_name"])
    quarantined = normalized(FINETUNE_README).quarantine
    assert "Sizes" not in set(quarantined["column_name"])


def test_a_percent_change_from_the_previous_row_is_no_scaling_efficiency():
    loaded = fields_by_raw_value(FINETUNE_README, "metric", "value", "unit")
    assert loaded["-14.93%"] == ("other", -14.93, "%")
    assert loaded["+27.18%"] == ("other", 27.18, "%")


def test_a_quantization_scheme_is_the_precision_of_the_row_not_a_score():
    rows = normalized(QUANTIZED_MODELS).measurements
    assert rows["raw_value"].to_list() == ["5.68"]
    assert rows.row(0, named=True)["precision"] == "1x16g8"
    assert rows.row(0, named=True)["metric"] == "accuracy"


# As microsoft/T-MAC's docs/profiling_data.md shows it, its first rows: the first engine's
# column gives the unit, the second's names only the engine and where it ran.
ENGINES_PROFILED = """# Profiling Results


| Model              | Device         | NUM_THREADS | llama.cpp (CPU) (tokens/sec) | T-MAC (CPU) |
|--------------------|----------------|-------------|------------------------------|-------------|
| BitNet-3B          | M2-Ultra       | 1           | 6.49                         | 22.08       |
| Llama-2-7B (W2)    | M2-Ultra       | 8           | 22.06                        | 51.01       |
"""

# As microsoft/T-MAC's README.md shows it ("Prefill Speedup"): a speedup heading over the
# throughputs of each engine, the first of them giving the unit.
ENGINES_UNDER_SPEEDUP = """# T-MAC

### Prefill Speedup

> TODO: add more results

We have compared the prefill throughput (input_len=256) for Llama-2-7b (W2) on Surface Laptop 7 with two baselines:

- llama.cpp: llama.cpp optimized dequant-based low-bit kernels
- llama.cpp (OpenBLAS): llama.cpp OpenBLAS backend

| Model           | NUM_THREADS | Batch Size | T-MAC (tokens/sec)      | llama.cpp (OpenBLAS) | llama.cpp |
|-----------------|-------------|------------|:------------------------|:---------------------|:----------|
| llama-2-7b (W2) |      4      |    256     |         50.1            |        21.5          |   12.0    |
"""


def test_an_engine_named_beside_one_whose_header_gives_the_unit_shares_it():
    loaded = fields_by_raw_value(ENGINES_PROFILED, "metric", "value", "unit", "item_kind")
    assert loaded["6.49"] == ("throughput", 6.49, "items/s", "tokens")
    assert loaded["22.08"] == ("throughput", 22.08, "items/s", "tokens")
    assert loaded["51.01"] == ("throughput", 51.01, "items/s", "tokens")
    assert normalized(ENGINES_PROFILED).quarantine.height == 0


def test_the_engines_throughputs_under_a_speedup_heading_are_throughputs():
    loaded = fields_by_raw_value(ENGINES_UNDER_SPEEDUP, "metric", "unit", "model_canonical")
    assert loaded["50.1"] == ("throughput", "items/s", "Llama 2 7B")
    assert loaded["21.5"] == ("throughput", "items/s", "Llama 2 7B")
    assert loaded["12.0"] == ("throughput", "items/s", "Llama 2 7B")


# As FastFlowLM's LLaMA 3 benchmarks put the watts each method draws while decoding, and how
# many times the NPU's efficiency each other method's is: "Efficiency Gain" had read as a
# scaling efficiency.
POWER_DRAWN = """### Power Consumption (Watts) During Decoding

| **Model**        | **Method**         | **CPU** | **NPU** | **iGPU** | **Total Power (W)** | **Efficiency Gain** |
|------------------|--------------------|--------:|--------:|--------:|---------------------:|----------------------:|
| **LLaMA 3.2 1B**  | NPU (FastFlowLM)   | 0.07    | 1.57    | 0       | **1.64**             | –                    |
|                  | NPU (Ryzen™ AI SW)  | 0.85    | 2.05    | 0       | 2.90                 | 1.77×                |
|                  | iGPU               | 0.12    | 0       | 14.00   | 14.12                | 8.61×                |
"""


def test_an_efficiency_gain_over_a_baseline_is_no_scaling_efficiency():
    found = fields_by_raw_value(POWER_DRAWN, "column_name", "metric", "value", "unit")
    assert found["1.77×"] == ("Efficiency Gain", "other", 1.77, "x")
    assert found["8.61×"] == ("Efficiency Gain", "other", 8.61, "x")
    assert found["14.12"] == ("Total Power (W)", "other", 14.12, "W")
    metrics = set(normalized(POWER_DRAWN).measurements.get_column("metric"))
    assert metrics == {"other"}


# As AI-image-gen-battle's benchmarks compare a Snapdragon X Elite's NPU with an Intel Core
# Ultra's GPU: the seconds each SDXL image took, under "Time" and "Snapdragon Time" in tables
# naming no metric, had been quarantined as naming none.
IMAGE_TIMES = """### Primary Benchmarks (768x768 Resolution)

| Platform | Model | Steps | Time | ms/step | Quality Score |
|----------|-------|-------|------|---------|---------------|
| **Snapdragon** | SDXL-Lightning-Q8 | 4 | **3.2s** | 800ms | 9.2/10 |
| **Intel** | SDXL-Base-FP16 | 25 | **38.7s** | 1548ms | 9.8/10 |

### Performance Advantage Analysis

| Comparison | Snapdragon Time | Intel Time | **Speed Advantage** |
|------------|-----------------|------------|-------------------|
| **Lightning vs Lightning** | 3.2s | 14.2s | **4.4x faster** |
"""


def test_seconds_under_a_time_header_are_the_time_of_each_run():
    document = normalized(IMAGE_TIMES)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(IMAGE_TIMES, "column_name", "metric", "value", "unit")
    assert found["3.2s"][1:] == ("time_to_result", 3.2, "s")
    assert found["38.7s"] == ("Time", "time_to_result", 38.7, "s")
    assert found["14.2s"] == ("Intel Time", "time_to_result", 14.2, "s")
    assert found["800ms"] == ("ms/step", "latency", 800.0, "ms")


# As strix-halo-testing's llm-bench summary lists each model's parameters in billions, all of
# them and those a token activates, beside its llama-bench speeds on a Ryzen Max+ 395: the
# counts had been quarantined as results naming no metric.
MODEL_PARAMETERS = """# Strix Halo LLM Benchmark Results

All testing was done on pre-production Framework Desktop systems with an AMD Ryzen Max+ 395 (Strix Halo)/128GB LPDDR5x-8000 configuration.

| Model Name                   | Architecture   |   Weights (B) |   Active (B) | Backend       | Flags          |   pp512 |   tg128 |   Memory (Max MiB) |
|------------------------------|----------------|---------------|--------------|---------------|----------------|---------|---------|--------------------|
| Llama 2 7B Q4_0              | Llama 2        |             7 |            7 | Vulkan AMDVLK | fa=1           |  1294.1 |    47.7 |               4281 |
| Qwen 3 30B-A3B UD-Q4_K_XL    | Qwen 3 MoE     |            30 |            3 | HIP rocWMMA   | fa=1 hipBLASLt |   669.4 |    58.5 |              17533 |
"""


def test_parameter_counts_in_billions_are_settings_of_the_model():
    document = normalized(MODEL_PARAMETERS)
    assert document.quarantine.height == 0
    found = fields_by_raw_value(MODEL_PARAMETERS, "column_name", "metric", "value", "settings")
    assert found["669.4"][:3] == ("pp512", "throughput", 669.4)
    assert "Weights (B)=30" in found["669.4"][3]
    assert "Active (B)=3" in found["669.4"][3]
    assert found["47.7"][:3] == ("tg128", "throughput", 47.7)
    assert document.measurements.height == 6


# As FastFlowLM's LLaMA 3 benchmarks name each row's device and, in brackets, the runtime it
# ran on, under "Hardware" and under "Method": the runtime is the row's framework.
DEVICES_AND_RUNTIMES = """### Decoding Speed (Tokens per Second, or TPS, at different sequence lengths)

| **Model**        | **Hardware**       | **1k** | **2k** |
|------------------|--------------------|--------|--------|
| **LLaMA 3.2 1B**  | NPU (FastFlowLM)    | 36.7   | 35.8   |
|                  | NPU (Ryzen™ AI SW)   | 18.6   | 14.9   |
|                  | iGPU                | 28.7   | 19.0   |

### Power Consumption (Watts) During Decoding

| **Model**        | **Method**         | **NPU** | **Total Power (W)** |
|------------------|--------------------|--------:|---------------------:|
| **LLaMA 3.2 1B**  | NPU (FastFlowLM)   | 1.57    | **1.64**             |
|                  | NPU (Ryzen™ AI SW)  | 2.05    | 2.90                 |
"""


def test_a_runtime_in_brackets_after_the_device_is_the_rows_framework():
    found = fields_by_raw_value(
        DEVICES_AND_RUNTIMES, "column_name", "metric", "framework", "framework_canonical"
    )
    assert found["36.7"] == ("1k", "throughput", "FastFlowLM", "FastFlowLM")
    assert found["14.9"] == ("2k", "throughput", "Ryzen AI SW", "Ryzen AI Software")
    assert found["28.7"] == ("1k", "throughput", None, None)
    assert found["1.57"] == ("NPU", "other", "FastFlowLM", "FastFlowLM")
    assert found["2.90"] == ("Total Power (W)", "other", "Ryzen AI SW", "Ryzen AI Software")
