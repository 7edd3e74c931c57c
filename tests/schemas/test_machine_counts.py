"""Columns counting the machines a run used ("Nodes", "Instances", "Servers"): settings of the
run, never results, whose numbers times the chips a named system holds count the run's chips;
a count of devices the row states outright stays the count."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a YOLOv8 training report writes its per-class validation (an Ultralytics summary): the
# images and the annotated instances of each class beside its scores, on a Colab T4.
YOLO_VALIDATION = """## Training Summary

- Environment: Google Colab GPU, Tesla T4
- Model: YOLOv8m pretrained base

## Per-Class Validation Metrics

| Class | Images | Instances | Precision | Recall | mAP50 | mAP50-95 |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
| Bus | 168 | 242 | 0.878 | 0.798 | 0.869 | 0.666 |
| Car | 136 | 1197 | 0.855 | 0.750 | 0.830 | 0.495 |
"""


def test_a_column_of_instances_is_a_setting_of_the_rows_not_a_result():
    result = normalized(YOLO_VALIDATION)
    assert "Instances" not in result.quarantine["column_name"].to_list()
    found = fields_by_raw_value(
        YOLO_VALIDATION, "column_name", "value", "accelerator", "accelerator_count", "settings"
    )
    assert found["0.869"] == ("mAP50", 0.869, "T4", None, "Class=Bus; Instances=242")
    assert found["0.495"] == ("mAP50-95", 0.495, "T4", None, "Class=Car; Instances=1197")
    assert "242" not in found and "1197" not in found


def test_words_counting_machines_read_as_nodes():
    for header in ("Instances", "# Instances", "Number of instances", "Servers", "Hosts", "VMs"):
        assert read_header(header).role == "nodes", header
    # a model's instances on one device are no machines; an instance type names the platform
    assert read_header("Model instances").role != "nodes"
    assert read_header("Instance type").role == "platform"


# As a page comparing one training config across machines writes it ("agpt-2b across
# machines"): the nodes and the devices of each run.
ACROSS_MACHINES = """# agpt-2b across machines

## Results

| system | nodes | devices | tok/s | tok/s/device | MFU | TFLOPS |
|---|---:|---:|---:|---:|---:|---:|
| Perlmutter (A100-40GB) | 1 | 4 | 40,363 | **10,091** | **30.3%** | 94.6 |
| Perlmutter (A100-40GB) | 2 | 8 | 51,244 | 6,406 | 19.2% | 60.1 |
"""


def test_devices_a_row_states_stay_its_count_beside_its_nodes():
    found = fields_by_raw_value(ACROSS_MACHINES, "accelerator", "accelerator_count")
    assert found["40,363"] == ("A100", 4)
    assert found["51,244"] == ("A100", 8)


# A table of the shape cloud training pages publish: the instance type and how many of them.
INSTANCE_COUNTS = """## Training throughput

| Model | Instance | Instances | Throughput (seq/s) |
|---|---|---|---|
| Llama 2 7B | trn1.32xlarge | 4 | 120.5 |
| Llama 2 7B | p4d.24xlarge | 4 | 98.2 |
| BERT-Large | p5.48xlarge | 1 | 4500 |
"""


def test_instances_times_the_chips_of_the_instance_type_count_the_run():
    result = normalized(INSTANCE_COUNTS)
    assert result.measurements["raw_value"].to_list() == ["120.5", "98.2", "4500"]
    found = fields_by_raw_value(INSTANCE_COUNTS, "accelerator", "accelerator_count", "system")
    assert found["120.5"] == ("Trainium", 64, "4x trn1.32xlarge")
    assert found["98.2"] == ("A100", 32, "4x p4d.24xlarge")
    assert found["4500"] == ("H100", 8, "p5.48xlarge")


def test_chips_counted_after_the_word_a_run_was_made_on_are_its_count():
    from perfledger.schemas.unknown_chips import read_hardware

    # as READMEs say where their runs were made
    assert read_hardware("We ran the experiments on 1 H100.", "prose").count == 1
    assert read_hardware("vLLM server - LSF job running on 1 H100", "prose").count == 1
    assert read_hardware("Serving Llama 3.1 8B on one H100", "prose").count == 1
    assert read_hardware("on a DGX H100", "prose").count == 8  # one system of eight
    # a number before a chip with no such word stays no count
    assert read_hardware("Figure 2 H100 results", "prose").count is None


# As GPU-Benchmarks-on-LLM-Inference names its GPUs under "GPU": a GeForce card by its bare
# number and memory, and how many of them after a star. The header is the word that makes
# "4090" a card; the rows had loaded on no chip at all.
GPUS_BY_NUMBER = """Average speed (tokens/s) of generating 1024 tokens by GPUs on LLaMA 3.

| GPU                        | 8B Q4_K_M | 8B F16 | 70B Q4_K_M |
|----------------------------|-----------|--------|------------|
| 3070 8GB                   | 70.94     | OOM    | OOM        |
| 4090 24GB                  | 127.74    | 54.34  | OOM        |
| 3090 24GB * 2              | 108.07    | 47.15  | 16.29      |
| RTX 4000 Ada 20GB * 4      | 56.14     | 20.58  | 7.33       |
"""


def test_a_card_named_by_its_number_under_gpu_counts_its_cards_after_a_star():
    found = fields_by_raw_value(GPUS_BY_NUMBER, "accelerator", "accelerator_count", "system")
    assert found["70.94"] == ("RTX 3070", None, "RTX 3070")
    assert found["54.34"] == ("RTX 4090", None, "RTX 4090")
    assert found["16.29"] == ("RTX 3090", 2, "2x RTX 3090")
    assert found["7.33"] == ("RTX 4000 Ada", 4, "4x RTX 4000 Ada")


# As intel-ai-benchmarking's edge whitepaper opens its cross-platform table: the platforms span
# "three GPU architectures", kinds of GPU; each of its rows had loaded on three chips.
PLATFORMS_SPANNED = """## 2. Current State: Cross-Platform Performance Landscape

Our benchmarking campaign covered five Intel platforms spanning three GPU architectures, two memory subsystems, and the full range of current iGPU-to-dGPU configurations.

| Platform | GPU Type | Best Config TPS | TTFT |
|----------|----------|----------------|------|
| Meteor Lake | iGPU (Xe-LPG, no XMX) | 6.7 | — |
| Lunar Lake | iGPU (Xe2-LPG) | **22.8** | **60ms** |
| Arc A770M | dGPU (Xe-HPG) | **52.2** | **42ms** |
"""


def test_a_count_of_gpu_architectures_counts_no_gpus():
    found = fields_by_raw_value(PLATFORMS_SPANNED, "accelerator", "accelerator_count", "system")
    assert found["6.7"] == ("Meteor Lake", None, "Meteor Lake")
    assert found["60ms"] == ("Lunar Lake", None, "Lunar Lake")
    assert found["52.2"] == ("Arc A770M", None, "Arc A770M")
