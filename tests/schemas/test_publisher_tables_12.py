"""Reading gaps found on pages of publishers no corpus held: a chip's number with its
device's noun written against it ("MI250GPU"), a count of devices before a bare model number
("1x 4090"), a count glued to an accelerator's noun ("8xGCU"), an energy per token."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.units import Unit, unit_named
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As ROCm/rocm-blogs' blogs/artificial-intelligence/llama2-Qlora/README.md names the GPU of
# its runs, then compares three ways of fine-tuning.
ROCM_QLORA = """# Fine-tuning Llama 2 with QLoRA

In this blog, we conducted our experiment using a single MI250GPU with the Docker image \
rocm/pytorch:rocm6.1.2_ubuntu22.04_py3.10_pytorch_release-2.1.2.

## 4. Comparison between QLoRA, LoRA, and full-parameter fine tuning

| Metric | Full-parameter | LoRA | **QLoRA**|
|--------------------|-----------|-----------|-----------|
|Trainable parameters| 6,738,415,616 | 4,194,304 | 4,194,304 |
|Mem usage/GB |128 | 83.2 | 10.88|
|Number of GCDs |2 | 2 | 1|
|Training Speed|3 hours| 9 minutes |6 minutes|
|Training Loss|1.368|1.377|1.347|
"""

# As pytorch/torchtune's README.md (Memory and training speed) names the hardware each
# fine-tuning runs on.
TORCHTUNE_SPEED = """### Memory and training speed

| Model | Finetuning Method | Runnable On | Peak Memory per GPU | Tokens/sec * |
|:-:|:-:|:-:|:-:|:-:|
| Llama 3.1 8B | Full finetune | 1x 4090 | 18.9 GiB | 1650 |
| Llama 3.1 8B | Full finetune | 1x A6000 | 37.4 GiB |  2579|
| Llama 3.1 70B | LoRA | 8x A100 | 27.6 GiB  | 3497  |
"""


def test_a_chip_number_with_its_device_noun_written_against_it_names_the_chip():
    found = fields_by_raw_value(ROCM_QLORA, "accelerator", "vendor", "accelerator_count")
    assert found["83.2"] == ("MI250", "AMD", 1)  # "a single MI250GPU": one MI250
    assert found["1.347"] == ("MI250", "AMD", 1)


def test_a_count_of_devices_before_a_bare_model_number_names_the_card():
    found = fields_by_raw_value(
        TORCHTUNE_SPEED, "metric", "value", "accelerator", "accelerator_count"
    )
    assert found["1650"] == ("throughput", 1650.0, "RTX 4090", 1)
    assert found["18.9 GiB"] == ("other", 18.9, "RTX 4090", 1)
    assert found["2579"] == ("throughput", 2579.0, "A6000", 1)
    assert found["3497"] == ("throughput", 3497.0, "A100", 8)


# As EnflameTechnology/ModelZoo's training_models/tensorflow/vision/resnet/README.md names
# the card in a heading and counts its GCUs before each table.
ENFLAME_RESNET = """# ResNet-50 v1.5

### GCU Results On T20

#### Training Accuracy Results
- Training accuracy(top1) for 1 GCU under different dtype with fixed batchsize.

    Our results were obtrained by runing the Training Performance Benchmark on Enflame 1xGCU.

    | **Epochs** | **Batch Size**          | **Accuracy - TF32**  |
    | ---------- | ----------------------- | -------------------- |
    | 90         | 128(TF32)               | 76.26                |

- Training accuracy(top1) multiple GCU under different dtype with fixed batchsize.

    Our results were obtrained by runing the Training Performance Benchmark on Enflame 8xGCU.

    | **Epochs** | **Batch Size/GCU**      | **Accuracy - TF32** |
    | ---------- | ----------------------- | ------------------- |
    | 90         | 128(TF32)               | 76.3                |
"""


def test_a_count_written_against_an_accelerators_noun_counts_the_card_a_heading_names():
    found = fields_by_raw_value(
        ENFLAME_RESNET, "metric", "value", "accelerator", "vendor", "accelerator_count"
    )
    # "8xGCU" is eight of Enflame's GCUs, not a chip named "8xGCU"; the card is the T20 that
    # the heading names beside "GCU"
    assert found["76.26"] == ("accuracy", 76.26, "CloudBlazer T20", "Enflame", 1)
    assert found["76.3"] == ("accuracy", 76.3, "CloudBlazer T20", "Enflame", 8)


def test_a_count_glued_to_a_devices_noun_is_a_count_of_devices():
    for text, count in (("8xGPU", 8), ("Enflame 8xGCU", 8), ("1xGCU", 1), ("4 MLUs", 4)):
        mention = read_hardware(text, "label")
        assert mention is not None
        assert (mention.accelerator, mention.count) == (None, count)


# As microsoft/T-MAC's README.md (Compared to CUDA GPU) compares throughput, power and energy,
# the hardware in the caption under the table and a throughput in the paragraph above it.
TMAC_ENERGY = """### Compared to CUDA GPU

T-MAC achieves comparable 2-bit mpGEMM performance compared to CUDA GPU on Jetson AGX Orin.

| Framework       | Throughput (tokens/sec) | Power (W)   | Energy (J/token) |
|-----------------|:------------------------|:------------|:-----------------|
| llama.cpp (CPU) |         7.08            |     15.0    | 2.12             |
| llama.cpp (GPU) |        <b>20.03</b>     |     30.8    | 1.54             |
| T-MAC (CPU)     |         15.62           | <b>10.4</b> | <b>0.66</b>      |
"""


def test_an_energy_per_token_is_kept_in_joules_per_token_not_read_as_a_rate():
    found = fields_by_raw_value(TMAC_ENERGY, "metric", "value", "unit")
    assert found["2.12"] == ("other", 2.12, "J/token")
    assert found["0.66"] == ("other", 0.66, "J/token")
    assert found["7.08"] == ("throughput", 7.08, "items/s")
    assert found["15.0"] == ("other", 15.0, "W")
    assert unit_named("mJ/frame") == Unit("mj/frame", "other", 0.001, "frames", "J/frame")
    assert unit_named("Wh/1k tokens").factor == 3.6  # 3,600 J over 1,000 tokens


# As baichuan-inc/Baichuan2's README.md (7B 模型结果) writes each benchmark's number of shots
# in a row under the benchmarks' names.
BAICHUAN2_SHOTS = """### 7B 模型结果

|                       | **C-Eval** | **MMLU** | **CMMLU** | **Gaokao** | **AGIEval** | **BBH** |
|:---------------------:|:----------:|:--------:|:---------:|:----------:|:-----------:|:-------:|
|                       |  5-shot    |  5-shot  |  5-shot   | 5-shot     | 5-shot      | 3-shot  |
| **GPT-4**             | 68.40      | 83.93    | 70.33     | 66.15      | 63.27       | 75.12   |
| **LLaMA-7B**          | 27.10      | 35.10    | 26.75     | 27.81      | 28.17       | 32.38   |
| **Baichuan2-7B-Base** | 54.00      | 54.16    | 57.07     | 47.47      | 42.73       | 41.56   |
"""


def test_a_row_of_shot_counts_under_benchmarks_heads_their_columns():
    page = normalized(BAICHUAN2_SHOTS)
    found = {
        row["raw_value"]: (row["column_name"], row["metric"], row["value"], row["row_label"])
        for row in page.measurements.iter_rows(named=True)
    }
    assert found["83.93"] == ("MMLU / 5-shot", "accuracy", 83.93, "GPT-4")
    assert found["32.38"] == ("BBH / 3-shot", "accuracy", 32.38, "LLaMA-7B")
    assert found["54.00"] == ("C-Eval / 5-shot", "accuracy", 54.0, "Baichuan2-7B-Base")
    assert not any("shot" in value for value in found)  # "5-shot" is no score of 5
    assert page.measurements.height == 18
    assert page.quarantine.height == 0


# As TexasInstruments/edgeai-modelzoo's models/vision/detection/readme.md gives two scores in
# a cell, the first not measured for some models.
TI_WIDERFACE = """## Face Detection with EdgeAI-MMDetection

|Dataset      |Model Name                       |Input Size |GigaMACS  |AP[0.5:0.95]%, AP50%|Available|Notes |
|-------------|---------------------------------|-----------|----------|--------------------|---------|----- |
|WIDERFace    |YOLOX-tiny-Lite                  |416x416    |**3.19**  |**23.5**, 49.1      |Y        |      |
|WIDERFace    |YOLOX-tiny-Lite                  |1024x1024  |**19.35** |**---**, 68.6       |         |      |
|WIDERFace    |YOLOX-s-Lite                     |1024x1024  |**34.03** |**---**, 72.3       |Y        |      |
"""


def test_a_placeholder_beside_a_score_in_one_cell_costs_the_score_nothing():
    page = normalized(TI_WIDERFACE)
    scores = {
        (row["row_number"], row["value"])
        for row in page.measurements.iter_rows(named=True)
        if row["metric"] == "accuracy"
    }
    assert scores == {(1, 23.5), (1, 49.1), (2, 68.6), (3, 72.3)}
    assert page.quarantine.height == 0
    assert [value.number for value in read_cell("N/A, 12.5 ms").values] == [12.5]


# As intel/intel-extension-for-pytorch's cpu/2.0.100+cpu/tutorials/performance.html (gh-pages)
# describes the two systems of its results, side by side, under "Hardware Configuration".
IPEX_HARDWARE = """<html><body>
<h4>Hardware Configuration</h4>
<table>
<thead><tr><th></th><th>3rd Generation Intel® Xeon® Scalable Processors</th>
<th>Products formerly Cooper Lake</th></tr></thead>
<tbody>
<tr><td>CPU</td><td>Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz</td>
<td>Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz</td></tr>
<tr><td>Number of nodes</td><td>1</td><td>1</td></tr>
<tr><td>Number of sockets</td><td>2</td><td>2</td></tr>
<tr><td>Cores/Socket</td><td>40</td><td>28</td></tr>
<tr><td>Threads/Core</td><td>2</td><td>2</td></tr>
<tr><td>uCode</td><td>0xd0002a0</td><td>0x700001c</td></tr>
<tr><td>Hyper-Threading</td><td>ON</td><td>ON</td></tr>
<tr><td>TurboBoost</td><td>ON</td><td>ON</td></tr>
<tr><td>BIOS version</td><td>04.12.02</td><td>WLYDCRB1.SYS.0016.P29.2006080250</td></tr>
<tr><td>Number of DDR Memory slots</td><td>16</td><td>12</td></tr>
<tr><td>Capacity of DDR memory per slot</td><td>16GB</td><td>64GB</td></tr>
<tr><td>DDR frequency</td><td>3200</td><td>3200</td></tr>
<tr><td>Total Memory/Node (DDR+DCPMM)</td><td>256GB</td><td>768GB</td></tr>
<tr><td>Host OS</td><td>CentOS Linux release 8.4.2105</td><td>Ubuntu 18.04.4 LTS</td></tr>
<tr><td>Host Kernel</td><td>4.18.0-305.10.2.el8_4.x86_64</td><td>4.15.0-76-generic</td></tr>
<tr><td>Docker OS</td><td>Ubuntu 18.04.5 LTS</td><td>Ubuntu 18.04.5 LTS</td></tr>
<tr><td>Spectre-Meltdown Mitigation</td><td>Mitigated</td><td>Mitigated</td></tr>
</tbody></table>
</body></html>
"""


def test_a_table_describing_systems_side_by_side_holds_no_result():
    page = normalized(IPEX_HARDWARE, "text/html")
    assert page.measurements.height == 0  # not "16GB" of memory per slot as a figure
    assert page.quarantine.height == 0  # nor its OS and core counts as values of no metric


# As axelera-ai-hub/voyager-sdk's docs/reference/model_zoo.md describes its columns in a paragraph, with
# frames per second for its throughputs, above a table whose accuracy loss states no unit.
AXELERA_ZOO = """## Supported models and performance characteristics

The tables below list all model zoo models supported by this release of the Voyager SDK. The models
are categorised by task type (such as classification or object detection) and the tables provide
information including the accuracy of the original FP32 model, the accuracy loss following
compilation and quantization (FP32 accuracy minus Quantized model accuracy), and the host
throughput in frames per second (FPS) which is measured from the host side when running inference
on the following reference platform:

### Image Classification
| Model | Resolution | Dataset     | Ref FP32 accuracy | Accuracy loss | Ref PCIe FPS | Ref M.2 FPS |
| :---- |:--------- | :---------- | ----------------: | ------------: | -----------: | ----------: |
| EfficientNet-B0 | 224x224    | ImageNet-1K | 77.67             | 0.87          | 1307         | 1309        |
| EfficientNet-B1 | 224x224    | ImageNet-1K | 77.60             | 0.40          | 885          | 882         |
"""


def test_an_accuracy_loss_takes_no_throughput_unit_from_the_paragraph():
    found = fields_by_raw_value(AXELERA_ZOO, "metric", "value", "unit")
    assert found["0.87"] == ("other", 0.87, "score")  # not 0.87 frames per second
    assert found["0.40"] == ("other", 0.4, "score")
    assert found["77.67"] == ("accuracy", 77.67, "%")
    assert found["1307"] == ("throughput", 1307.0, "items/s")


# As EricLBuehler/mistral.rs's releases/v0.9.0/report.md names its x86 host by the Xeon's
# codename in the heading over that host's tables.
MISTRALRS_HOSTS = """# mistral.rs v0.9.0 CPU Benchmark Report

CPU-only comparison of mistral.rs against llama.cpp on two architectures: GB10 (aarch64, 10x
Cortex-X925) and a c7i.8xlarge Xeon (Sapphire Rapids, AVX512/VNNI/AMX). Values are tokens per
second; speedups are mistral.rs divided by llama.cpp at the same prompt length or decode depth,
with each engine at its best measured configuration.

## Appendix: Full Tables

#### qwen3-4b (GB10)

##### Q8_0 Decode

| Depth | mistral.rs ISQ q8_0 | llama.cpp GGUF Q8_0 | mistral.rs speedup |
|---:|---:|---:|---:|
| 128 | 24.7 | 24.1 | 1.024x |

#### qwen3-4b (x86, Sapphire Rapids)

llama.cpp values are its best fa configuration per point (fa=1 shallow, fa=0 deep).

##### Q8_0 Decode

| Depth | mistral.rs ISQ q8_0 | llama.cpp GGUF Q8_0 | mistral.rs speedup |
|---:|---:|---:|---:|
| 128 | 20.6 | 24.5 | 0.84x |
"""


def test_a_cpus_codename_names_the_cpu_of_the_tables_under_it():
    found = fields_by_raw_value(MISTRALRS_HOSTS, "accelerator", "vendor")
    assert found["24.7"] == ("GB10", "NVIDIA")
    assert found["20.6"] == ("Sapphire Rapids", "Intel")  # not the page's GB10
    assert found["0.84x"] == ("Sapphire Rapids", "Intel")
    assert read_hardware("AMD EPYC Genoa", "label").accelerator == "EPYC Genoa"
    assert read_hardware("a trip to Genoa", "prose") is None  # a city, without AMD's words
