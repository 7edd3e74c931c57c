"""A Chinese header counting a run's input or output tokens ("输入token数", "输出 token 数量")
is the run's sequence length, a setting of its row's values, as "Input Tokens" is; it is no
result of its own."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# THUDM/GLM-4, inference/README_zh.md (commit 3f79b543), "GLM-4-32B-0414", its first two rows.
GLM4 = """#### GLM-4-32B-0414

| 精度   | 显卡数量 | 显存占用  | 首 Token 延迟 | Token 输出速度    | 输入token数 |
|------|------|-------|------------|---------------|----------|
| BF16 | 1    | 68 GB | 0.16s      | 24.4 tokens/s | 1000     |
| BF16 | 1    | 72 GB | 1.37s      | 16.9 tokens/s | 8000     |
"""


def test_the_input_token_count_is_a_setting_of_the_row():
    rows = normalized(GLM4).measurements.sort("row_number", "column_name")
    assert rows.select("column_name", "metric", "value", "settings").rows() == [
        ("Token 输出速度", "throughput", 24.4, "输入token数=1000"),
        ("显存占用", "other", 68.0, "输入token数=1000"),
        ("首 Token 延迟", "latency", 160.0, "输入token数=1000"),
        ("Token 输出速度", "throughput", 16.9, "输入token数=8000"),
        ("显存占用", "other", 72.0, "输入token数=8000"),
        ("首 Token 延迟", "latency", 1370.0, "输入token数=8000"),
    ]
