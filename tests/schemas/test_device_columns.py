"""Columns named after the device or the software a result ran on, as PaddleDetection's
keypoint benchmark writes them: a device-count word over times ("GPU" above "4.4 ms"), a
setting's value before its word ("Kirin 980 (4-threads)"), and software that runs on one class
of device ("CPU + MKLDNN", "TensorRT (FP16)") beside a note naming only the GPU."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As PaddlePaddle/PaddleDetection writes it (configs/keypoint/KeypointBenchmark.md).
SERVER = """## Benchmark on Server

| Model | CPU + MKLDNN (thread=1) | CPU + MKLDNN (thread=4) | GPU | TensorRT (FP32) | TensorRT (FP16) |
| :------------------------ | :------: | :------: | :-----: | :---: | :---: |
| LiteHRNet-18-256x192 | 88.8 ms |  40.7 ms | 4.4 ms | 2.0 ms | 1.8 ms |
| PP-TinyPose-128x96 | 25.2 ms | 14.1 ms | 2.7 ms | 0.9 ms | 0.8 ms |

**Notes:**
- These tests above are based Python deployment.
- The environment is NVIDIA T4 / PaddlePaddle(commit: 7df301f2fc0602745e40fa3a7c43ccedd41786ca) \
/ CUDA10.1 / CUDNN7 / Python3.7 / TensorRT6.
- The time only includes inference time.
"""

MOBILE = """## Benchmark on Mobile

| Model | Kirin 980 (1-thread) | Kirin 980 (4-threads)  | Qualcomm Snapdragon 845 (1-thread) \
| Qualcomm Snapdragon 845 (4-threads) |
| :------------------------ | :---: | :---: | :---: | :---: |
| PicoDet-s-192x192 (det) | 14.85 ms | 5.45 ms | 17.50 ms | 7.56 ms |
| PP-TinyPose-128x96 (pose) | 12.03 ms | 5.09 ms | 13.14 ms | 6.73 ms |
"""


def _by_cell(page: str) -> dict[tuple[str, str], dict]:
    return {
        (row["model"], row["column_name"]): row
        for row in normalized(page).measurements.iter_rows(named=True)
    }


def test_times_under_a_device_word_are_results_on_that_device():
    found = _by_cell(SERVER)
    gpu = found[("LiteHRNet-18-256x192", "GPU")]
    assert (gpu["value"], gpu["unit"], gpu["metric"]) == (4.4, "ms", "latency")
    assert gpu["accelerator"] == "T4"
    assert gpu["accelerator_count"] is None  # "GPU" counts nothing here
    assert found[("PP-TinyPose-128x96", "GPU")]["value"] == 2.7


def test_software_of_one_device_class_takes_that_class_of_chip_from_the_note():
    found = _by_cell(SERVER)
    tensorrt = found[("LiteHRNet-18-256x192", "TensorRT (FP16)")]
    assert (tensorrt["value"], tensorrt["accelerator"], tensorrt["activation_dtype"]) == (
        1.8,
        "T4",
        "fp16",
    )
    cpu = found[("LiteHRNet-18-256x192", "CPU + MKLDNN (thread=4)")]
    assert cpu["value"] == 40.7
    assert cpu["accelerator"] is None  # the note names a GPU, not the CPU these ran on


def test_a_thread_count_before_its_word_heads_results():
    found = _by_cell(MOBILE)
    four = found[("PicoDet-s-192x192 (det)", "Kirin 980 (4-threads)")]
    assert (four["value"], four["unit"], four["accelerator"]) == (5.45, "ms", "Kirin 980")
    snapdragon = found[("PP-TinyPose-128x96 (pose)", "Qualcomm Snapdragon 845 (4-threads)")]
    assert (snapdragon["value"], snapdragon["accelerator"]) == (6.73, "Snapdragon 845")
    assert len(found) == 8  # every time of the table, one and four threads alike
