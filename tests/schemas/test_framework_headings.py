"""A heading naming a framework alone labels the tables under it; a heading that only mentions
one among other words does not, nor does any heading a table comparing frameworks row by row;
quoted from the pages' own cells."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# PaddlePaddle/Paddle-Lite docs/demo_guides/huawei_ascend_npu.md: "the Paddle models verified"
PADDLE_MODELS_VERIFIED = """# 华为昇腾 NPU

### 已验证支持的 Paddle 模型

#### 性能（基于 CANN 3.3.0 版本测试）

| 模型 | Intel CPU性能 (ms) | x86 + Ascend310 性能 (ms） |
| ---- | ------------------ | -------------------------- |
| [AlexNet](https://paddlelite-demo.bj.bcebos.com/NNAdapter/models/PaddleClas/AlexNet.tgz) | 81.16 | 4.32 |
"""


def test_a_heading_mentioning_a_framework_among_other_words_names_none():
    rows = normalized(PADDLE_MODELS_VERIFIED).measurements
    assert sorted(rows.select("value", "framework").rows()) == [(4.32, None), (81.16, None)]


# OpenNMT/CTranslate2 README.md: the project's own name heads a table comparing it with others
CTRANSLATE2_CPU = """# CTranslate2

## Benchmarks

#### CPU

| | Tokens per second | Max. memory | BLEU |
| --- | --- | --- | --- |
| **OpenNMT-tf WMT14 model** | | | |
| OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0) | 209.2 | 2653MB | 26.93 |
| **OpenNMT-py WMT14 model** | | | |
| OpenNMT-py 3.0.4 (with PyTorch 1.13.1) | 275.8 | 2012MB | 26.77 |
| - int8 | 323.3 | 1359MB | 26.72 |
| CTranslate2 3.6.0 | 658.8 | 849MB | 26.77 |
"""


def test_a_table_comparing_frameworks_takes_none_from_the_page_title():
    rows = normalized(CTRANSLATE2_CPU).measurements
    speeds = rows.filter(rows["column_name"] == "Tokens per second").sort("row_number")
    frameworks = dict(zip(speeds["raw_value"], speeds["framework"], strict=True))
    assert frameworks["209.2"] == "OpenNMT-tf"  # OpenNMT-tf's run, not CTranslate2's
    # "- int8": a sub-item of the row above it, that engine's int8 run, not the page's engine
    assert frameworks["323.3"] == "OpenNMT-py"


def test_software_named_with_its_release_in_an_unheaded_column_is_the_rows_framework():
    rows = normalized(CTRANSLATE2_CPU).measurements
    speeds = rows.filter(rows["column_name"] == "Tokens per second").sort("row_number")
    found = {
        value: (framework, version)
        for value, framework, version in speeds.select(
            "raw_value", "framework", "sdk_version"
        ).iter_rows()
    }
    assert found["275.8"] == ("OpenNMT-py", "3.0.4")  # "(with PyTorch 1.13.1)" ran under it
    assert found["658.8"] == ("CTranslate2", "3.6.0")
