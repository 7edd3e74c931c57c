"""A benchmark of scores named in capitals ("MATH") heads a column of accuracies as "GSM8K"
and "HumanEval" do; the word written otherwise ("math", a subject row "Math") is no
benchmark (schemas/vocab/datasets_in_capitals.csv)."""

from __future__ import annotations

from perfledger.schemas.identities import canonical_dataset, dataset_named
from perfledger.schemas.scored_datasets import names_scored_dataset
from tests.schemas.page_reading import normalized

# OpenBMB/MiniCPM, docs/README-minicpm1-cn.md (commit 0fcc3d08), "越级比较", its first rows.
MINICPM = """### 文本模型评测

**越级比较:**
|模型|平均分|英文均分|中文均分|C-Eval|CMMLU|MMLU|HumanEval|MBPP|GSM8K|MATH|BBH|ARC-E|ARC-C|HellaSwag|
|-|-|-|-|-|-|-|-|-|-|-|-|-|-|-|
|Llama2-7B|35.40|36.21|31.765|32.42|31.11|44.32|12.2|27.17|13.57|1.8|33.23|75.25|42.75|75.62*|
|Qwen-7B|49.46|47.19|59.655|58.96|60.35|57.65|17.07|42.15|41.24|5.34|37.75|83.42|64.76|75.32*|
"""


def test_a_math_column_of_a_score_table_is_an_accuracy():
    rows = normalized(MINICPM).measurements.filter(column_name="MATH")
    assert rows.select("model", "metric", "value").rows() == [
        ("Llama2-7B", "accuracy", 1.8),
        ("Qwen-7B", "accuracy", 5.34),
    ]
    result = normalized(MINICPM)
    assert result.quarantine.filter(column_name="MATH").height == 0


def test_math_names_the_benchmark_only_in_capitals():
    assert dataset_named("MATH") == "MATH" and names_scored_dataset("MATH")
    assert dataset_named("MATH-500") == "MATH-500" and names_scored_dataset("MATH-500")
    for text in ("Math", "math", "Math (subject)"):
        assert dataset_named(text) is None and not names_scored_dataset(text)
    assert canonical_dataset("math word problems solved") is None
