"""Column headers of training-throughput tables that describe the cluster a figure came from:
a network's bandwidth written in the header ("with 800 Gbps") is a figure of the setup, not
the column's unit, and a count of devices written after the chip ("H100 96 GPUs") is the
run's count."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

# As foundation-model-stack/fms-fsdp's README.md gives its training throughput per GPU on two
# clusters, each described in its column's header.
FMS_FSDP_THROUGHPUT = """# FMS FSDP

We benchmark the best possible throughput and the strategies we employ in the below table \
and share the throughput obtained on 128 A100 GPUs as well as 96 H100 GPUs, we use the exact \
same scripts and configurations for these GPUs.

| Model Size | Sharding Strategy | Compile | Activation Checkpointing | Batch Size | Training Throughput <br/> tokens/sec/GPU <br/> A100 80G 128 GPUs with 400Gbps | Training throughput <br/> tokens/sec/GPU <br/> H100 96 GPUs with 800 Gbps |
|------------|-------------------|---------|--------------------------|------------|-------------------------------------------------------------------------------|---------------------------------------------------------------------------|
| 7b         | HSDP              | Y       | No AC                    | 2          | 4550                                                                          | 9600                                                                      |
| 13b        | FSDP              | Y       | Selective AC             | 2          | 2150                                                                          | 4850                                                                      |
"""


def test_a_bandwidth_after_a_number_in_a_header_is_no_unit_of_the_column():
    found = fields_by_raw_value(FMS_FSDP_THROUGHPUT, "metric", "value", "unit", "rate_per")
    assert found["9600"] == ("throughput", 9600.0, "items/s", "accelerator")
    assert found["4850"] == ("throughput", 4850.0, "items/s", "accelerator")
    assert found["4550"] == ("throughput", 4550.0, "items/s", "accelerator")


def test_a_count_of_devices_after_the_chip_in_a_header_is_the_runs_count():
    found = fields_by_raw_value(FMS_FSDP_THROUGHPUT, "accelerator", "accelerator_count")
    assert found["9600"] == ("H100", 96)
    assert found["4850"] == ("H100", 96)
    assert found["2150"] == ("A100", 128)


# The same README's utilization table: the clusters' counts are stated once, in the
# paragraph above, for both chips; the utilizations are written as fractions.
FMS_FSDP_UTILIZATION = """# FMS FSDP

We benchmark the best possible throughput and the strategies we employ in the below table \
and share the throughput obtained on 128 A100 GPUs as well as 96 H100 GPUs, we use the exact \
same scripts and configurations for these GPUs.

| Model Size | Compile | Batch size | MFU (A100 80G) | HFU (A100 80G) | MFU (H100 80G) | HFU (H100 80G) |
|------------|---------|------------|----------------|----------------|----------------|----------------|
| 7B         | Y       | 2          | 0.68           | 0.68           | 0.46           | 0.46           |
| 13B        | Y       | 2          | 0.61           | 0.69           | 0.43           | 0.46           |
"""


def test_a_utilization_written_as_a_fraction_is_a_percentage_of_peak():
    found = fields_by_raw_value(FMS_FSDP_UTILIZATION, "column_name", "value", "unit")
    assert found["0.61"] == ("MFU (A100 80G)", 61.0, "%")
    assert found["0.69"] == ("HFU (A100 80G)", 69.0, "%")
    assert found["0.43"] == ("MFU (H100 80G)", 43.0, "%")


def test_each_chip_a_column_names_takes_the_count_its_context_states_for_it():
    found = fields_by_raw_value(FMS_FSDP_UTILIZATION, "accelerator", "accelerator_count")
    assert found["0.61"] == ("A100", 128)
    assert found["0.43"] == ("H100", 96)


# mosaicml/llm-foundry, scripts/train/benchmarking/README.md: the micro batch of one step on
# one GPU, its accumulation, and the global batch of the run, each in a column of its own.
LLM_FOUNDRY_BATCHES = """# Benchmarking

| Model | SeqLen (T) | # GPUs | GPU | MFU | MicroBatchSize | GradAccum | GlobalBatchSize | Throughput (S/s) | Throughput (T/s/GPU) | Precision |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| 70b | 2048 | 512 | h100_80gb | 41.25 | 8 | 1 | 4096 | 251 | 1007 | amp_bf16 |
| 70b | 2048 | 64 | h100_80gb | 42.57 | 8 | 4 | 2048 | 32 | 1039 | amp_bf16 |
"""


def test_the_runs_batch_is_its_global_batch_not_one_devices_micro_batch():
    found = fields_by_raw_value(LLM_FOUNDRY_BATCHES, "batch_size", "batch_size_number")
    assert found["1007"] == ("4096", 4096.0)
    assert found["1039"] == ("2048", 2048.0)
    assert found["251"] == ("4096", 4096.0)
    settings = fields_by_raw_value(LLM_FOUNDRY_BATCHES, "settings")
    assert "MicroBatchSize=8" in settings["1007"][0]
