"""Reading gaps found on benchmark pages of inference engines no corpus held: a device's
memory named in a header ("Max. GPU memory" beside "Max. CPU memory") is no device class the
column ran on, and a page's opening prose that reports results in passing ("87.3 top-1
accuracy", "greater efficiency") names no metric for the tables far below it."""

from __future__ import annotations

from perfledger.schemas.context_labels import device_class
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As OpenNMT/CTranslate2's README.md (Benchmarks, GPU) shows its GPU runs: the note under
# the table names the GPU, two memory columns name the GPU's and the host's memory.
CTRANSLATE2_GPU = """## Benchmarks

#### GPU

| | Tokens per second | Max. GPU memory | Max. CPU memory | BLEU |
| --- | --- | --- | --- | --- |
| **OpenNMT-tf WMT14 model** | | | | |
| OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0) | 1483.5 | 3031MB | 3122MB | 26.94 |
| **OPUS-MT model** | | | | |
| Marian 1.11.0 | 3241.0 | 3381MB | 2156MB | 27.92 |

Executed with CUDA 11 on a [*g5.xlarge*](https://aws.amazon.com/ec2/instance-types/g5/) \
Amazon EC2 instance equipped with a NVIDIA A10G GPU (driver version: 510.47.03).
"""


def test_a_devices_memory_in_a_header_names_no_device_the_column_ran_on():
    found = fields_by_raw_value(
        CTRANSLATE2_GPU, "metric", "value", "accelerator", "accelerator_count"
    )
    # Every column of a run on the A10G, not only the memory columns
    assert found["1483.5"] == ("throughput", 1483.5, "A10G", 1)
    assert found["26.94"] == ("accuracy", 26.94, "A10G", 1)
    assert found["3241.0"] == ("throughput", 3241.0, "A10G", 1)
    assert found["3031MB"] == ("other", 3031.0, "A10G", 1)
    assert found["2156MB"] == ("other", 2156.0, "A10G", 1)


def test_a_header_naming_a_device_and_no_memory_still_names_its_class():
    assert device_class("Max. GPU memory") is None
    assert device_class("CPU memory (MB)") is None
    assert device_class("GPU time (ms)") == "accelerator"
    assert device_class("CPU latency") == "cpu"
