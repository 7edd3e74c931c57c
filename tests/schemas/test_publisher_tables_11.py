"""Tables of compiler and accelerator publishers no corpus holds, written as their pages write
them: a compiler's blog naming a model in each column over rows of devices, the metric and
unit stated in the paragraph above the table."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As apache/tvm-site renders it (2018/10/03/auto-opt-all.html, "All Our Results"): an empty
# <thead>, the models in the first body row, section rows naming each device class, and the
# unit only in the paragraph above ("time costs per image in milliseconds"). Rows cut to four.
TVM_ALL_RESULTS = """<html lang="en"><body>
<h2 id="all-our-results">All Our Results</h2>
<p>We tested the following networks on ImageNet (3x224x224) dataset with batch size = 1 and data type = float32.
The reported numbers are time costs per image in milliseconds.</p>
<table>
  <thead>
    <tr><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th><th> </th></tr>
  </thead>
  <tbody>
    <tr><td> </td><td><strong>densenet121</strong></td><td><strong>inception v3</strong></td><td><strong>mobilenet</strong></td><td><strong>mobilenet v2</strong></td><td><strong>resnet18</strong></td><td><strong>resnet50</strong></td><td><strong>squeezenet v1.0</strong></td><td><strong>squeezenet v1.1</strong></td><td><strong>vgg16</strong></td><td><strong>vgg19</strong></td></tr>
    <tr><td><strong>ARM CPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>Raspberry Pi 3B</td><td>609.5</td><td>2070.4</td><td>122.2</td><td>103.7</td><td>322.5</td><td>725.8</td><td>185.1</td><td>94.1</td><td>1759.6</td><td>2118.6</td></tr>
    <tr><td><strong>NVIDIA GPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>GTX TITAN X</td><td>5.8</td><td>9.7</td><td>1.0</td><td>-</td><td>-</td><td>4.3</td><td>-</td><td>-</td><td>6.4</td><td>7.5</td></tr>
  </tbody>
</table>
</body></html>
"""

_FIELDS = ("row_label", "column_name", "metric", "value", "unit", "model_canonical", "accelerator")


def test_a_column_named_after_a_model_measures_what_the_paragraph_above_states():
    result = normalized(TVM_ALL_RESULTS, "text/html")
    # the Titan's four "-" say no value was published; no number is held back
    assert result.quarantine["check"].to_list() == ["placeholder_value"] * 4
    rows = {
        (row["row_label"], row["column_name"]): tuple(row[field] for field in _FIELDS[2:])
        for row in result.measurements.iter_rows(named=True)
    }
    assert len(rows) == 16  # ten numbers of the Pi's row, six of the Titan's
    assert rows[("Raspberry Pi 3B", "resnet50")] == (
        "latency",
        725.8,
        "ms",
        "ResNet-50",
        "BCM2837",
    )
    assert rows[("GTX TITAN X", "mobilenet")] == ("latency", 1.0, "ms", "MobileNet v1", "Titan X")
    precisions = set(result.measurements["activation_dtype"]) | set(
        result.measurements["weight_dtype"]
    )
    assert precisions == {"fp32"}


# As quic/cloud-ai-sdk-pages renders it (gh-pages 1.17/blogs/Microscaling/microscaling/, Table
# 1): the batch, prompt, generation and context lengths as BS, PL, GL, CL; a column of each
# precision and the gain of the microscaling format over FP16.
AIC_MICROSCALING = """<html><body>
<h2 id="experimental-results">Experimental Results</h2>
<p>Table 1 shows experimental results for various workloads on the Qualcomm Cloud AI 100 Standard card. The throughput improvement when using MXFP6 weights is given. For the 13B model, without MXFP6 the network will not fit, but with MXFP6, the model fits and benefits from the performance improvements.</p>
<p><em>Table 1 - Qualcomm Cloud AI 100 STD Throughput Improvement</em></p>
<table>
<thead>
<tr>
<th style="text-align: center;">Model</th>
<th style="text-align: center;">BS</th>
<th style="text-align: center;">PL</th>
<th style="text-align: center;">GL</th>
<th style="text-align: center;">CL</th>
<th style="text-align: center;">FP16 <br />(tok/sec)</th>
<th style="text-align: center;">MXFP6 <br />(tok/sec)</th>
<th style="text-align: center;">MXFP6 % Gain <br />over FP16</th>
</tr>
</thead>
<tbody>
<tr>
<td style="text-align: center;">gpt-j-6b</td>
<td style="text-align: center;">1</td>
<td style="text-align: center;">1024</td>
<td style="text-align: center;">1024</td>
<td style="text-align: center;">2048</td>
<td style="text-align: center;">8.08</td>
<td style="text-align: center;">13.9</td>
<td style="text-align: center;">72.03</td>
</tr>
</tbody>
</table>
</body></html>
"""


def test_prompt_generation_and_context_lengths_are_settings_and_mxfp6_is_a_precision():
    result = normalized(AIC_MICROSCALING, "text/html")
    found = {
        row["column_name"]: (
            row["metric"],
            row["value"],
            row["activation_dtype"],
            row["weight_dtype"],
            row["accelerator"],
        )
        for row in result.measurements.iter_rows(named=True)
    }
    # "PL | GL | CL" held 1024, 1024 and 2048 as throughputs; they are the run's lengths
    assert set(found) == {"FP16 (tok/sec)", "MXFP6 (tok/sec)", "MXFP6 % Gain over FP16"}
    assert found["FP16 (tok/sec)"] == ("throughput", 8.08, "fp16", "fp16", "Cloud AI 100")
    assert found["MXFP6 (tok/sec)"] == ("throughput", 13.9, "fp6", "fp6", "Cloud AI 100")
    # the gain is MXFP6's; FP16, named after "over", is what it is measured against
    assert found["MXFP6 % Gain over FP16"][2:4] == ("fp6", "fp6")
    assert result.quarantine.height == 0


# As quic/cloud-ai-sdk-pages renders it (gh-pages 1.17/blogs/AmberChat/, "Performance numbers
# on Qualcomm Cloud AI 100 Standard SKU"): the replicas run beside the batch size, and a
# DL2q instance of eight cards named in the device column.
AIC_AMBERCHAT = """<html><body>
<h3 id="performance-numbers-on-qualcomm-cloud-ai-100-standard-sku">Performance numbers on Qualcomm Cloud AI 100 Standard SKU:</h3>
<table>
<thead>
<tr>
<th style="text-align: center;">Model</th>
<th style="text-align: center;">Device</th>
<th style="text-align: center;">Precision<br>of Weights</th>
<th style="text-align: center;">Replicas</th>
<th style="text-align: center;">Batch Size</th>
<th style="text-align: center;">Compiled<br>Prompt Length</th>
<th style="text-align: center;">Maximum<br>Context Length</th>
<th style="text-align: center;">Prefill<br>Latency (sec)</th>
<th style="text-align: center;">Decode<br>Throughput (tok/s)</th>
</tr>
</thead>
<tbody>
<tr>
<td style="text-align: center;"></td>
<td style="text-align: center;">8x STD SKU DL2q</td>
<td style="text-align: center;">MXFP6</td>
<td style="text-align: center;">8</td>
<td style="text-align: center;">1</td>
<td style="text-align: center;">128</td>
<td style="text-align: center;">2048</td>
<td style="text-align: center;">1.33</td>
<td style="text-align: center;">119.2</td>
</tr>
</tbody>
</table>
</body></html>
"""


def test_replicas_are_a_setting_and_a_dl2q_instance_runs_eight_cloud_ai_100():
    result = normalized(AIC_AMBERCHAT, "text/html")
    found = {
        row["column_name"]: (
            row["metric"],
            row["value"],
            row["accelerator"],
            row["accelerator_count"],
            row["system"],
        )
        for row in result.measurements.iter_rows(named=True)
    }
    # "Replicas | 8" was a throughput of 8
    assert set(found) == {"Prefill Latency (sec)", "Decode Throughput (tok/s)"}
    assert found["Decode Throughput (tok/s)"] == (
        "throughput",
        119.2,
        "Cloud AI 100",
        8,
        "dl2q.24xlarge",
    )
    assert found["Prefill Latency (sec)"][:2] == ("latency", 1330.0)


# Other rows of the same TVM table, naming a phone, a board and GPUs by their product names.
TVM_DEVICE_ROWS = TVM_ALL_RESULTS.replace(
    TVM_ALL_RESULTS[
        TVM_ALL_RESULTS.index("    <tr><td><strong>ARM CPU") : TVM_ALL_RESULTS.index("  </tbody>")
    ],
    """    <tr><td><strong>ARM CPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>Huawei P20 Pro</td><td>181.4</td><td>439.9</td><td>41.1</td><td>34.5</td><td>76.5</td><td>208.2</td><td>51.8</td><td>25.7</td><td>480.6</td><td>627.0</td></tr>
    <tr><td>Google Pixel2</td><td>162.2</td><td>433.5</td><td>39.5</td><td>30.1</td><td>61.1</td><td>181.3</td><td>47.3</td><td>23.2</td><td>391.1</td><td>487.7</td></tr>
    <tr><td>Xilinx PYNQ</td><td>2888.3</td><td>9709.1</td><td>723.5</td><td>514.3</td><td>1234.6</td><td>3580.5</td><td>909.9</td><td>477.3</td><td><sup>-(Note 1)</sup></td><td>-</td></tr>
    <tr><td><strong>Mali GPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>Mali-T860</td><td>410.9</td><td>783.1</td><td>75.4</td><td>70.8</td><td>128.6</td><td>352.9</td><td>106.2</td><td>58.0</td><td>679.5</td><td>805.3</td></tr>
    <tr><td><strong>AMD GPU</strong></td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td><td> </td></tr>
    <tr><td>AMD Vega FE</td><td>5.7</td><td>8.8</td><td>1.0</td><td>-</td><td>-</td><td>4.5</td><td>-</td><td>-</td><td>5.9</td><td>7.0</td></tr>
""",
)


def test_devices_named_by_product_run_on_their_chips():
    result = normalized(TVM_DEVICE_ROWS, "text/html")
    chips = {
        row["row_label"]: (row["vendor"], row["accelerator"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert chips == {
        "Huawei P20 Pro": ("Huawei", "Kirin 970"),
        "Google Pixel2": ("Qualcomm", "Snapdragon 835"),
        "Xilinx PYNQ": ("AMD", "Zynq-7020"),
        "Mali-T860": ("Arm", "Mali-T860"),
        "AMD Vega FE": ("AMD", "Radeon Vega Frontier Edition"),
    }


# As mlc-ai/llm-perf-bench writes it (README.md, "Multiple NVIDIA GPUs, 4-bit"): a column per
# inference engine, the first one named with "LLM" in it, and no unit anywhere in its section.
MLC_ENGINES = """## Performance

All experiments are based on fp16 activation and compute, decoding 256 tokens with a prompt "What is the meaning of life?". And all numbers are based on PCIe, not NVLink.

### Multiple NVIDIA GPUs, 4-bit

| Model         | GPU          | MLC-LLM | exllama | Llama.cpp | vLLM  |
|---------------|--------------|---------|---------|-----------|-------|
| Llama2-70B    | A100 x 2     | **40.9**    | 32.64   | 17.35     | 21.4  |
|               | A100 x 4     | **55.8**    | 30.36   | 15.45     | 21.36 |
"""


def test_an_engine_named_with_llm_heads_numbers_not_the_rows_model():
    result = normalized(MLC_ENGINES)
    # "MLC-LLM" read as the rows' model column: its numbers were neither loaded nor set
    # apart. Its figures, like the other engines', state no unit: they are quarantined.
    assert result.measurements.height == 0
    held = result.quarantine.filter(result.quarantine["column_name"] == "MLC-LLM")
    assert sorted(held["raw_value"].to_list()) == ["40.9", "55.8"]
    assert set(held["check"]) == {"unknown_metric"}
    assert result.quarantine.height == 8


# As hao-ai-lab/hao-ai-lab.github.io writes it (content/blogs/jacobi-forcing/index.md,
# "Detailed Results (on A100, at 7B scale)"): the speedups as inline TeX the site renders with
# KaTeX, arrows in the headers, a starred accuracy.
JACOBI_RESULTS = """### Detailed Results (on A100, at 7B scale)

| Task      | Method           | Family      | Speedup $\\uparrow$ | TPF $\\uparrow$ | TPS $\\uparrow$ | Acc / Solve $\\uparrow$ |
|----------|--------------|------------|-----------|-------|-------|---------------|
| HumanEval| AR           | AR           | $1.00\\times$    | 1.0  | 41.3  | 87.8%       |
|          | D2F          | dLLM         | $1.8\\times$    |  2.5   | 73.2    | 54.3%   |
|          | EAGLE-3      | SD           |  $2.9\\times$ | 6.4 | 120.7 | 68.9%$^*$ |
"""


def test_speedups_written_in_inline_tex_are_values_not_row_names():
    result = normalized(JACOBI_RESULTS)
    assert result.quarantine.height == 0
    found = {
        (row["row_label"], row["metric"]): (row["value"], row["unit"], row["accelerator"])
        for row in result.measurements.iter_rows(named=True)
    }
    # "$1.8\\times$" was no number: the column was read as words naming the rows
    assert found[("HumanEval / D2F / dLLM", "speedup")] == (1.8, "x", "A100")
    assert found[("HumanEval / EAGLE-3 / SD", "speedup")] == (2.9, "x", "A100")
    assert found[("HumanEval / EAGLE-3 / SD", "accuracy")] == (68.9, "%", "A100")
    assert found[("HumanEval / AR / AR", "throughput")] == (41.3, "items/s", "A100")
    assert result.measurements.height == 12


def test_a_precision_column_naming_the_weights_gives_the_weights_dtype_alone():
    result = normalized(AIC_AMBERCHAT, "text/html")
    # "Precision of Weights | MXFP6": the weights are MXFP6; the page computes in FP16, which
    # that column does not say, and the activations' dtype is not taken to be the weights'
    dtypes = set(
        result.measurements.select("precision", "activation_dtype", "weight_dtype").iter_rows()
    )
    assert dtypes == {("MXFP6", None, "fp6")}


# As mindspore-ai/models writes it (research/cv/tgcn/README.md, evaluation performance): the
# coefficient of determination in TeX, a power no footnote's mark.
TGCN_EVALUATION = """| Parameters | T-GCN (1GPU) |
| ------------------- | ------------------- |
| Model Version | T-GCN |
| Resource | AMD Ryzen Threadripper 2990WX 32-Core Processor, V100-PCIE |
| Accuracy | 0.7144 |
| $R^2$ | 0.8458 |
"""


def test_a_tex_power_stays_a_power_and_names_r_squared():
    found = fields_by_raw_value(TGCN_EVALUATION, "metric", "value")
    assert found["0.8458"] == ("accuracy", 0.8458)
    assert found["0.7144"] == ("accuracy", 0.7144)


# As quic/cloud-ai-sdk-pages renders it (gh-pages 1.17/blogs/Text_Embeddings/): the pricing
# plan in a column headed "Pricing Model", the model run in the column "Embedding Model".
AIC_EMBEDDINGS = """<html><body>
<h2 id="text-embeddings">Text Embeddings</h2>
<table>
<thead>
<tr>
<th style="text-align: center;">Pricing Model</th>
<th style="text-align: center;">Price ($/hr)</th>
<th style="text-align: center;">Embedding Model</th>
<th style="text-align: center;">Sequence Length (tokens)</th>
<th style="text-align: center;">Latency (ms)</th>
<th style="text-align: center;">Throughput (inferences/sec)</th>
</tr>
</thead>
<tbody>
<tr>
<td style="text-align: center;">3 yr, all up front</td>
<td style="text-align: center;">$3.3537</td>
<td style="text-align: center;"><em>BAAI/bge-base-en-v1.5</em></td>
<td style="text-align: center;">512</td>
<td style="text-align: center;">15.2</td>
<td style="text-align: center;">457</td>
</tr>
<tr>
<td style="text-align: center;">on-demand</td>
<td style="text-align: center;">$8.9194</td>
<td style="text-align: center;"><em>BAAI/bge-base-en-v1.5</em></td>
<td style="text-align: center;">512</td>
<td style="text-align: center;">15.2</td>
<td style="text-align: center;">457</td>
</tr>
</tbody>
</table>
</body></html>
"""


def test_a_pricing_model_is_a_setting_and_the_embedding_model_is_the_model():
    result = normalized(AIC_EMBEDDINGS, "text/html")
    rows = {
        (row["column_name"], row["settings"].split(";")[0]): row["model"]
        for row in result.measurements.iter_rows(named=True)
    }
    # the pricing plans were read as the models run, the embedding model lost
    assert rows == {
        ("Latency (ms)", "Pricing Model=3 yr, all up front"): "BAAI/bge-base-en-v1.5",
        (
            "Throughput (inferences/sec)",
            "Pricing Model=3 yr, all up front",
        ): "BAAI/bge-base-en-v1.5",
        ("Latency (ms)", "Pricing Model=on-demand"): "BAAI/bge-base-en-v1.5",
        ("Throughput (inferences/sec)", "Pricing Model=on-demand"): "BAAI/bge-base-en-v1.5",
    }
