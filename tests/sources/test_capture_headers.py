"""Text captures (a page copied from a browser: each table one cell per line) whose tables a
header word of no vocabulary starts: a first column headed "Name", and a header of model
names. Their cells are quoted from real pages as a browser's copy flattens them."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# NVIDIA-AI-IOT torch2trt's benchmark page for the Jetson Nano (docs/benchmarks/jetson_nano,
# published on its GitHub pages; ../shared/real-pages-2 holds the HTML), copied as text.
TORCH2TRT_NANO = """Jetson Nano

Name
Data Type
Input Shapes
torch2trt kwargs
Max Error
Throughput (PyTorch)
Throughput (TensorRT)
Latency (PyTorch)
Latency (TensorRT)
torchvision.models.alexnet.alexnet
float16
[(1, 3, 224, 224)]
{'fp16_mode': True}
2.29E-05
46.4
69.9
22.1
14.7
torchvision.models.squeezenet.squeezenet1_0
float16
[(1, 3, 224, 224)]
{'fp16_mode': True}
1.20E-02
44
137
24.2
7.6
"""

# Intel Neural Compressor's "FP8 Quantization" page for Gaudi (its FP8 Accuracy tables;
# ../shared/real-pages holds the HTML), copied as text: the header names the model and the
# two precisions compared, words no header vocabulary knows.
INC_FP8_ACCURACY = """FP8 Accuracy

Llama-3.1-8B-Instruct
fp8 w/ fp8 KVCache
bf16 w/ bf16 KVCache
lambada_openai
0.7299
0.7359
hellaswag
0.5892
0.5911
piqa
0.7965
0.7998
"""


def test_a_capture_whose_first_header_cell_is_name_reads_every_row():
    measurements = normalized(TORCH2TRT_NANO, "text/plain").measurements
    alexnet = measurements.filter(measurements["row_label"].str.contains("alexnet")).select(
        "column_name", "metric", "value", "activation_dtype"
    )
    assert alexnet.filter(alexnet["column_name"] == "Throughput (TensorRT)").row(0) == (
        "Throughput (TensorRT)",
        "throughput",
        69.9,
        "fp16",
    )
    assert ("Latency (TensorRT)", "latency", 14.7, "fp16") in alexnet.rows()
    assert measurements.height == 2 * 5  # Max Error and four speeds, for both models


def test_a_capture_table_headed_by_a_model_and_its_precisions_reads_by_its_shapes():
    measurements = normalized(INC_FP8_ACCURACY, "text/plain").measurements
    loaded = {
        (row["row_label"], row["column_name"]): (row["value"], row["activation_dtype"])
        for row in measurements.iter_rows(named=True)
    }
    assert loaded[("lambada_openai", "fp8 w/ fp8 KVCache")] == (0.7299, "fp8")
    assert loaded[("lambada_openai", "bf16 w/ bf16 KVCache")] == (0.7359, "bf16")
    assert loaded[("piqa", "bf16 w/ bf16 KVCache")] == (0.7998, "bf16")
    assert len(loaded) == 6
