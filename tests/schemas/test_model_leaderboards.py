"""Leaderboards of models under no "Model" header: each row names a model, known to the
catalogue or not, and the benchmark heading each column names what its numbers score."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# baichuan-inc/Baichuan2, README.md (commit ed1cf0f5), "法律、医疗" / "13B 模型结果", rows
# quoted as published (four of its nine).
BAICHUAN2_MEDICAL = """## 法律、医疗

我们对以上数据集进行了 5-shot 测试。

### 13B 模型结果

|                             | **JEC-QA** | **CEval-MMLU-CMMLU** | **MedQA-USMLE** | **MedQA-MCMLE** | **MedMCQA** |
|:---------------------------:|:----------:|:--------------------:|:---------------:|:---------------:|:-----------:|
|                             | 5-shot     |  5-shot              |  5-shot         |  5-shot         | 5-shot      |
| **GPT-4**                   | 59.32      | 77.16                | 80.28           | 74.58           | 72.51       |
| **GPT-3.5 Turbo**           | 42.31      | 61.17                | 53.81           | 52.92           | 56.25       |
| **LLaMA2-13B**              | 34.08      | 47.42                | 35.04           | 29.74           | 42.12       |
| **XVERSE-13B**              | 46.42      | 58.08                | 32.99           | 58.76           | 41.34       |
| **Baichuan2-13B-Base**      | 47.40      | 59.33                | 40.38           | 61.62           | 42.86       |
"""


def test_medical_and_legal_exam_benchmarks_head_columns_of_accuracies():
    rows = normalized(BAICHUAN2_MEDICAL).measurements.filter(row_label="GPT-4")
    by_column = {row["column_name"]: (row["metric"], row["value"]) for row in rows.to_dicts()}
    assert by_column["JEC-QA / 5-shot"] == ("accuracy", 59.32)
    assert by_column["MedQA-USMLE / 5-shot"] == ("accuracy", 80.28)
    assert by_column["MedQA-MCMLE / 5-shot"] == ("accuracy", 74.58)
    assert by_column["MedMCQA / 5-shot"] == ("accuracy", 72.51)


def test_a_model_no_catalogue_knows_among_known_ones_is_its_rows_model():
    rows = normalized(BAICHUAN2_MEDICAL).measurements.filter(column_name="MedMCQA / 5-shot")
    assert rows.select("row_label", "model", "value").rows() == [
        ("GPT-4", "GPT-4", 72.51),
        ("GPT-3.5 Turbo", "GPT-3.5 Turbo", 56.25),
        ("LLaMA2-13B", "LLaMA2-13B", 42.12),
        ("XVERSE-13B", "XVERSE-13B", 41.34),
        ("Baichuan2-13B-Base", "Baichuan2-13B-Base", 42.86),
    ]


def test_a_row_of_words_beside_known_models_names_no_model():
    page = """| | MMLU | GSM8K |
| --- | --- | --- |
| Llama2-7B | 44.32 | 13.57 |
| Qwen-7B | 57.65 | 41.24 |
| Average | 50.99 | 27.41 |
"""
    rows = normalized(page).measurements.filter(row_label="Average")
    assert rows.get_column("model").to_list() == [None, None]


# baichuan-inc/Baichuan2, README.md (commit ed1cf0f5), "量化效果", its second table, the
# note under it and the sentence after.
BAICHUAN2_QUANTIZED = """### 量化效果

量化后在各个 benchmark 上的结果和原始版本对比如下：

| Model 5-shot           | C-Eval | MMLU | CMMLU |
|------------------------|:------:|:----:|:-----:|
| Baichuan2-13B-Chat      | 56.74  | 57.32| 59.68  |
| Baichuan2-13B-Chat-4bits | 56.05   | 56.24 | 58.82  |
| Baichuan2-7B-Chat       | 54.35   | 52.93 | 54.99  |
| Baichuan2-7B-Chat-4bits | 53.04   | 51.72 | 52.84  |
> C-Eval 是在其 val set 上进行的评测

可以看到，4bits 相对 bfloat16 精度损失在 1 - 2 个百分点左右。
"""


def test_a_dtype_the_model_name_states_beats_one_the_prose_states():
    rows = normalized(BAICHUAN2_QUANTIZED).measurements.filter(column_name="C-Eval")
    assert rows.select("model", "value", "precision", "weight_dtype").rows() == [
        ("Baichuan2-13B-Chat", 56.74, "bfloat16", "bf16"),
        ("Baichuan2-13B-Chat-4bits", 56.05, None, "int4"),
        ("Baichuan2-7B-Chat", 54.35, "bfloat16", "bf16"),
        ("Baichuan2-7B-Chat-4bits", 53.04, None, "int4"),
    ]
    sources = rows.get_column("label_sources").str.extract(r"precision=(\w+)", 1).to_list()
    assert sources == ["paragraph", "row", "paragraph", "row"]


# kvcache-ai/ktransformers, doc/en/DeepseekR1_V3_tutorial.md, "V0.2.1": the settings listed
# above its benchmark table, and the table's first rows.
KTRANSFORMERS_SETTINGS = """### V0.2.1

- Model: DeepseekV3-q4km (int4)<br>
- CPU: cpu_model_name: Intel (R) Xeon (R) Gold 6454S, 32 cores per socket, 2 sockets, 2 numa nodes
- GPU: 4090 24G VRAM

#### Benchmark Results

| Prompt               | hi (2)   | 1K (969)  | 2K (1930) |
| -------------------- | -------- | --------- | --------- |
| Prefill token/s      | 13       | 105       | 102       |
| decode token/s       | 16.8     | 15.4      | 14.2      |
"""


def test_a_dtype_the_prose_and_the_model_name_agree_on_keeps_the_prose_label():
    rows = normalized(KTRANSFORMERS_SETTINGS).measurements.filter(column_name="1K (969)")
    assert rows.select("model", "value", "precision", "weight_dtype").rows() == [
        ("DeepseekV3-q4km", 105.0, "q4km (int4)", "int4"),
        ("DeepseekV3-q4km", 15.4, "q4km (int4)", "int4"),
    ]


# EmbeddedLLM's post on vLLM's sleep mode (claims-pages), "Key Findings" of its FP8 ablation:
# rows naming a known model and the figure measured of it.
SLEEP_MODE_FINDINGS = """**Key Findings:**

| Metric | BF16 | FP8 | Improvement |
|--------|------|-----|-------------|
| **Total Time (5 switches)** | 108.2s | 113.6s | -5% (slightly slower) |
| **Qwen3-0.6B Wake Time** | 0.27s avg | 0.18s avg | **33% faster** |
| **Phi-3-vision Wake Time** | 0.90s avg | 0.78s avg | **13% faster** |
| **Qwen3-0.6B Inference** | 0.41s avg | 0.44s avg | -7% (slightly slower) |
| **Phi-3-vision Inference** | 0.81s avg | 0.57s avg | **30% faster** |
"""


def test_a_row_naming_a_known_model_and_its_figure_is_no_unknown_model():
    models = fields_by_raw_value(SLEEP_MODE_FINDINGS, "row_label", "model")
    assert models["0.27s avg"] == ("Qwen3-0.6B Wake Time", None)
    assert models["0.44s avg"] == ("Qwen3-0.6B Inference", None)
