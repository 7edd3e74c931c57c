"""A page that lists its test setup line by line under the same heading as its tables,
farther up than the paragraphs read as the table's own, still names the hardware of the
tables' numbers: those farther paragraphs are the page's earlier prose."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# QwenLM/Qwen2.5, docs/source/benchmark/speed_benchmark.rst (as of commit f4d356cb's parent),
# its opening and its "0.5B (vLLM)" table, first input length only.
QWEN25_SPEED = """Qwen2.5 Speed Benchmark
=========================


This section reports the speed performance of bf16 models, quantized models
(including GPTQ-Int4, GPTQ-Int8 and AWQ) of the Qwen2.5 series. Specifically, we
report the inference speed (tokens/s) as well as memory footprint (GB)
under the conditions of different context lengths.

The environment of the evaluation with vLLM is:

-  NVIDIA A100 80GB
-  CUDA 12.1
-  vLLM 0.6.3
-  Pytorch 2.4.0
-  Flash Attention 2.6.3
-  Transformers 4.46.0


Notes:

- We use the batch size of 1 and the least number of GPUs as
  possible for the evaluation.
- We test the speed and memory of generating 2048 tokens with
  the input lengths of 1, 6144, 14336, 30720, 63488, and 129024
  tokens.
- For vLLM, the memory usage is not reported because it pre-allocates
  all GPU memory. We use ``gpu_memory_utilization=0.9 max_model_len=32768 enforce_eager=False``
  by default.


-  0.5B (vLLM)

+-------------------------+--------------+--------------+---------+-----------------+
| Model                   | Input Length | Quantization | GPU Num | Speed(tokens/s) |
+=========================+==============+==============+=========+=================+
| Qwen2.5-0.5B-Instruct   | 1            | BF16         | 1       | 311.55          |
+                         +              +--------------+---------+-----------------+
|                         |              | GPTQ-Int8    | 1       | 257.07          |
+                         +              +--------------+---------+-----------------+
|                         |              | GPTQ-Int4    | 1       | 260.93          |
+                         +              +--------------+---------+-----------------+
|                         |              | AWQ          | 1       | 261.95          |
+-------------------------+--------------+--------------+---------+-----------------+
"""


def test_a_setup_listed_far_above_the_table_names_its_accelerator():
    rows = normalized(QWEN25_SPEED, "text/x-rst").measurements
    assert rows.select("precision", "value", "accelerator", "accelerator_count").rows() == [
        ("BF16", 311.55, "A100", 1),
        ("GPTQ-Int8", 257.07, "A100", 1),
        ("GPTQ-Int4", 260.93, "A100", 1),
        ("AWQ", 261.95, "A100", 1),
    ]
    assert set(rows.get_column("label_sources").str.extract(r"accelerator=(\w+)", 1)) == {
        "paragraph"
    }
