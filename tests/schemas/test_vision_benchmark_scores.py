"""Vision-language benchmarks (OCRBench, MMMU, MME, TextVQA...) head columns of scores as MMLU
does, also with the split the score was taken on after the name ("MMMU val", "DocVQA test",
"MMB dev(en)"); a metric the prose above names in passing gives way to such a column."""

from __future__ import annotations

from perfledger.schemas.scored_datasets import metric_of_scored_name
from tests.schemas.page_reading import normalized

# OpenBMB/MiniCPM, README.md (commit 87ab91b5), "多模态模型评测", its first row.
MINICPM_V = """#### 多模态模型评测

<table>
<thead><tr><th align="left">Model</th><th>Size</th><th>TextVQA val</th><th>OCRBench</th>\
<th nowrap="nowrap" >MME</th><th>MMB dev(en)</th><th>MMMU val</th><th>LLaVA Bench</th></tr></thead>
<tbody align="center">
<tr><td colspan="12" align="left"><strong>Proprietary models</strong></td></tr>
<tr><td nowrap="nowrap" align="left">Gemini Pro Vision</td><td>- </td><td>74.6</td><td>680</td>\
<td>2148.9</td><td>75.2</td><td>48.9</td><td>79.9</td></tr>
</tbody>
</table>
"""

# OpenBMB/MiniCPM-V, docs/minicpm_v2dot6_en.md (commit 0dbb566d): the paragraph above the
# evaluation and the first row of its table.
MINICPM_V_2_6 = """## MiniCPM-V 2.6

This directly improves the inference speed, first-token latency, memory usage, and power \
consumption.

### Evaluation

<table>
<thead><tr><th>Model</th><th>Size</th><th>OCRBench</th><th>MMMU val</th><th>MathVista mini</th>\
<th>TextVQA val</th></tr></thead>
<tbody>
<tr><td>GPT-4o</td><td>-</td><td>736</td><td>69.2</td><td>61.3</td><td>-</td></tr>
<tr><td>MiniCPM-V 2.6</td><td>8B</td><td>852*</td><td>49.8</td><td>60.6</td><td>80.1</td></tr>
</tbody>
</table>
"""


def test_a_split_after_a_scored_benchmark_is_no_part_of_its_name():
    for text in ("MMMU val", "DocVQA test", "MathVista mini", "MMB dev(en)", "VQAv2 test-dev"):
        assert metric_of_scored_name(text) == "accuracy", text
    # MiniCPM-V 2.6's leaderboard average and multi-image columns
    for text in ("OpenCompass", "BLINK val", "Mantis Eval", "MIRB"):
        assert metric_of_scored_name(text) == "accuracy", text
    assert metric_of_scored_name("Arc A770") is None


def test_vision_benchmark_columns_load_as_scores():
    result = normalized(MINICPM_V)
    rows = result.measurements.sort("column_name")
    assert rows.select("model", "column_name", "metric", "value").rows() == [
        ("Gemini Pro Vision", "LLaVA Bench", "accuracy", 79.9),
        ("Gemini Pro Vision", "MMB dev(en)", "accuracy", 75.2),
        ("Gemini Pro Vision", "MME", "accuracy", 2148.9),
        ("Gemini Pro Vision", "MMMU val", "accuracy", 48.9),
        ("Gemini Pro Vision", "OCRBench", "accuracy", 680.0),
        ("Gemini Pro Vision", "TextVQA val", "accuracy", 74.6),
    ]
    assert result.quarantine.height == 0


def test_a_benchmark_column_says_more_than_a_metric_named_in_passing():
    rows = normalized(MINICPM_V_2_6).measurements.sort("row_number", "column_name")
    assert rows.select("model", "column_name", "metric", "value").rows() == [
        ("GPT-4o", "MMMU val", "accuracy", 69.2),
        ("GPT-4o", "MathVista mini", "accuracy", 61.3),
        ("GPT-4o", "OCRBench", "accuracy", 736.0),
        ("MiniCPM-V 2.6", "MMMU val", "accuracy", 49.8),
        ("MiniCPM-V 2.6", "MathVista mini", "accuracy", 60.6),
        ("MiniCPM-V 2.6", "OCRBench", "accuracy", 852.0),
        ("MiniCPM-V 2.6", "TextVQA val", "accuracy", 80.1),
    ]
