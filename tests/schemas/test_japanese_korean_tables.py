"""Tables written in Korean and Japanese, and the Chinese "精度" heading a column of
precisions: their words for throughput, latency, batch size, model and precision, tokens and
seconds, the counters of cards ("A100 1枚", "H100 8장"), and "2,450" read as Korean, Japanese
and Chinese pages write thousands."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from perfledger.schemas.model_names import models_in_text
from perfledger.schemas.unknown_chips import read_hardware
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a Korean project README optimizing D-FINE's inference sums up its results.
D_FINE_KOREAN = """# D-Fine 모델 추론 최적화

D-Fine 객체 탐지 모델의 추론 성능을 최적화하는 프로젝트입니다.

## 환경

- **인스턴스**: AWS EC2 g4dn.xlarge (Tesla T4, 16GB VRAM)
- **모델**: `ustc-community/dfine_x_coco` (640x640, 80 클래스)

## 벤치마크 결과 요약

| 최적화 방식 | 지연시간 | 처리량 | mAP@50 | 속도 향상 |
|------------|---------|--------|--------|----------|
| Baseline (FP32) | 71.20 ms | 14 img/s | 0.684 | 1x |
| FP16 | 56.01 ms | 18 img/s | 0.682 | 1.3x |
| **TensorRT FP16** | **12.98 ms** | **77 img/s** | **0.682** | **5.5x** |
| **TensorRT INT8** | **8.04 ms** | **124 img/s** | **0.658** | **8.9x** |
"""


def test_a_korean_table_names_its_latency_and_throughput():
    found = fields_by_raw_value(D_FINE_KOREAN, "metric", "value", "unit", "accelerator")
    assert found["71.20 ms"] == ("latency", 71.2, "ms", "T4")
    assert found["124 img/s"] == ("throughput", 124.0, "items/s", "T4")
    assert read_header("처리량 (토큰/초)").unit.canonical == "items/s"
    assert read_header("배치 크기").role == "batch_size"
    assert read_hardware("H100 8장", "label").count == 8


# As a Chinese guide to tensor parallelism reports its precisions ("精度") side by side, the
# column of precisions first, a ratio of convergence speeds after the results.
PRECISIONS_ZH = """**实测结果**：

| 精度 | 吞吐量 (tokens/s/GPU) | 内存 (GB) | 最终Loss | 收敛速度 |
|------|----------------------|----------|---------|---------|
| **FP32** | 2340 | 68.5 | 2.847 | 1.0× |
| **BF16** | 4890 | 34.2 | 2.849 | 1.0× |
| **FP16** | 4920 | 34.2 | 2.851 | 0.98× |
"""


def test_a_column_of_precisions_under_the_word_for_accuracy_names_them():
    # "精度" read as the table's accuracy made its ratios accuracies, and quarantined them
    assert normalized(PRECISIONS_ZH).quarantine.height == 0
    found = fields_by_raw_value(PRECISIONS_ZH, "metric", "value", "precision", "activation_dtype")
    assert found["0.98×"] == ("speedup", 0.98, "FP16", "fp16")
    assert found["4890"] == ("throughput", 4890.0, "BF16", "bf16")
    # an accuracy column of a Chinese page stays one
    page = "| 模型 | 精度 |\n|---|---|\n| ResNet50 | 76.1 |\n"
    assert fields_by_raw_value(page, "metric")["76.1"] == ("accuracy",)


def test_japanese_words_of_a_results_table():
    assert read_header("スループット (tokens/s)").role == "throughput"
    assert read_header("レイテンシ (ms)").role == "latency"
    assert read_header("バッチサイズ").role == "batch_size"
    assert read_hardware("A100 1枚", "label").count == 1


def test_a_model_named_after_words_of_another_language_is_named_alone():
    # as the same guide's scenario caption reads: "high-concurrency inference (Llama 2 70B, ...)"
    named = models_in_text("场景 2：高并发推理（Llama 2 70B, 4xA100 80GB, 100 并发请求）")
    assert [phrase for phrase, _reading in named] == ["Llama 2 70B"]


def test_a_model_named_inside_words_of_another_language_is_named_alone():
    # Cambricon MagicMind's mmsegmentation sample (Cambricon/magicmind_cloud) as GitHub renders
    # it: "the example below is DeepLabV3's accuracy result", over its printed IoU per class
    page = """<html><body><p>精度结果:
<strong>以下示例为DeepLabV3精度结果</strong></p>
<pre><code>+---------------+-------+-------+
|     Class     |  IoU  |  Acc  |
+---------------+-------+-------+
|      road     | 97.85 | 98.85 |
|    sidewalk   | 82.71 | 90.04 |
+---------------+-------+-------+
</code></pre></body></html>"""
    assert [phrase for phrase, _reading in models_in_text("以下示例为DeepLabV3精度结果")] == [
        "DeepLabV3"
    ]
    measurements = normalized(page, "text/html").measurements
    road = measurements.filter(measurements["raw_value"] == "97.85")
    assert road.select("column_name", "model").rows() == [("IoU", "DeepLabV3")]


def test_prose_in_korean_japanese_or_chinese_script_reads_commas_as_thousands():
    from perfledger.schemas.number_locale import POINT, page_mark

    # "2,450" alone on a page tells nothing; its prose's script does
    assert (
        page_mark(0, 0, None, ["D-Fine 객체 탐지 모델의 추론 성능을 최적화하는 프로젝트입니다."])
        == POINT
    )
    assert page_mark(0, 0, None, ["高并发推理的吞吐量与延迟对比"]) == POINT
    assert page_mark(0, 0, None, ["short"]) is None
