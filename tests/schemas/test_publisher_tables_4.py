"""Tables of more publishers' pages, each quoted from a public page: a percentage under a
gain is the change over the baseline, not the ratio to it; a share under a column naming no
comparison is no speedup; a time column keeps the metric of its cells' units when the page's
prose names another; a quantization in bits per weight or a GGUF type after a model's name
sets the weights' precision."""

from __future__ import annotations

from perfledger.schemas.model_names import read_model
from perfledger.schemas.precisions import read_precision_label
from tests.schemas.page_reading import normalized

# vllm-ascend's Suffix Speculative Decoding tutorial: "TPOT Gain" and "TPS Gain" are how much
# faster than the baseline (55.1 ms / 37.9 ms is 1.454 times, written "45.2%"); "Accept Rate"
# is the share of draft tokens accepted. The prose above the table says "improvement".
SUFFIX_DECODING = """## **Test Results**

Below are the detailed test results of the six open-source datasets in this evaluation.
Compared to the baseline, the improvement in TPOT and throughput performance at different
concurrency levels after enabling Suffix Decoding varies across datasets.

Below is the raw detailed test results:

| Concurrency | Avg Input | Avg Output | Requests | Base TPOT(ms) | Base Throughput(TPS) | Suffix TPOT(ms) | Suffix Throughput(TPS) | Accept Rate | TPOT Gain | TPS Gain |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| **HumanEval** | | | | | | | | | | |
| 1 | 150 | 2700 | 100 | 55.1 | 18.1 | 37.9 | 26.3 | 27.0% | 45.2% | 45.1% |
"""  # noqa: E501

# faster-whisper's README: "Time" names no metric; its cells are durations.
FASTER_WHISPER = """# Faster Whisper transcription with CTranslate2

This implementation is up to 4 times faster than openai/whisper for the same accuracy while
using less memory.

### Large-v2 model on GPU

| Implementation | Precision | Beam size | Time | VRAM Usage |
| --- | --- | --- | --- | --- |
| openai/whisper | fp16 | 5 | 2m23s | 4708MB |
| faster-whisper (`batch_size=8`) | fp16 | 5 | 17s | 6090MB |
"""


def _by_column(page: str) -> dict[str, tuple]:
    values = normalized(page).measurements
    return {
        (row["column_name"], row["raw_value"]): (row["metric"], row["value"], row["unit"])
        for row in values.iter_rows(named=True)
    }


def test_a_percentage_under_a_gain_is_the_change_never_a_ratio_below_one():
    found = _by_column(SUFFIX_DECODING)
    assert found[("TPOT Gain", "45.2%")] == ("other", 45.2, "%")
    assert found[("TPS Gain", "45.1%")] == ("other", 45.1, "%")
    assert found[("Suffix TPOT(ms)", "37.9")] == ("latency", 37.9, "ms")


def test_a_share_under_a_column_naming_no_comparison_is_no_speedup():
    found = _by_column(SUFFIX_DECODING)
    assert found[("Accept Rate", "27.0%")] == ("other", 27.0, "%")


def test_a_time_column_is_read_as_a_time_whatever_metric_the_prose_names():
    result = normalized(FASTER_WHISPER)
    found = _by_column(FASTER_WHISPER)
    assert found[("Time", "2m23s")] == ("time_to_result", 143.0, "s")
    assert found[("Time", "17s")] == ("time_to_result", 17.0, "s")
    assert "2m23s" not in set(result.quarantine.get_column("raw_value").to_list())


# exllamav2's README: the "Mode" column states EXL2 quantizations by their bits per weight.
EXLLAMAV2 = """## Performance

| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |
|------------|--------------|-------|-------|-----|---------|-------------|
| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |
| Llama2     | EXL2 3.0 bpw | 7B    | -     | -   | 217 t/s | **257** t/s |
| Llama2     | EXL2 4.0 bpw | 7B    | -     | -   | 185 t/s | **211** t/s |
| Llama2     | EXL2 5.0 bpw | 7B    | -     | -   | 164 t/s | **179** t/s |
"""


def test_about_four_bits_per_weight_are_int4_weights_with_activations_unstated():
    values = normalized(EXLLAMAV2).measurements
    found = {
        row["raw_value"]: (row["precision"], row["activation_dtype"], row["weight_dtype"])
        for row in values.iter_rows(named=True)
    }
    assert found["185 t/s"] == ("4.0 bpw", None, "int4")
    # 3.0 and 5.0 bits per weight are 3-bit and 5-bit weights, as 4.0 are 4-bit ones
    assert found["217 t/s"] == ("3.0 bpw", None, "int3")
    assert found["164 t/s"] == ("5.0 bpw", None, "int5")
    assert read_precision_label("4.65 bits per weight").weight == "int4"
    assert read_precision_label("8.5 bpw").weight == "int8"


# KTransformers' DeepSeek-R1 tutorial: "- Model: DeepseekV3-q4km (int4)<br>" above a table of
# prefill and decode rates.
KTRANSFORMERS = """### V0.2.1

- Model: DeepseekV3-q4km (int4)<br>
- GPU: 4090 24G VRAM

#### Benchmark Results

| Prompt               | hi (2)   | 1K (969)  |
| -------------------- | -------- | --------- |
| Output length        | 10tokens | 300tokens |
| **6 experts V0.2.1** |          |           |
| Prefill token/s      | 13       | 111       |
| decode token/s       | 16.8     | 15.9      |
"""


def test_a_quantization_suffix_is_the_precision_the_rest_the_model():
    assert read_model("DeepseekV3-q4km").canonical == "DeepSeek-V3"
    assert read_model("DeepseekV3-q4km").precision == "Q4KM"
    assert read_model("Llama-3-8B-Q4_K_M").base == "Llama 3 8B"
    assert read_model("llama-2-7b.Q4_K_M.gguf").base == "Llama 2 7B"
    assert read_model("qwen2.5-7b-awq").base == "Qwen2.5 7B"
    assert read_precision_label("Q4_K_M").weight == "int4"
    assert read_precision_label("q8_0").weight == "int8"
    values = normalized(KTRANSFORMERS).measurements
    row = values.filter(values["raw_value"] == "111").row(0, named=True)
    assert (row["model_canonical"], row["weight_dtype"]) == ("DeepSeek-V3", "int4")
