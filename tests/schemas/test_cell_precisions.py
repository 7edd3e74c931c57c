"""A precision written in a result cell after its value ("30.6(INT8)") is that value's own,
nearer than the precision its row states ("FP16")."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

# As airockchip/rknn_model_zoo writes its benchmark (README.md, "Model performance
# benchmark(FPS)"): LPRNet runs in FP16 on the newer NPUs, in INT8 on the older ones.
RKNN_BENCHMARK = """## Model performance benchmark(FPS)

| demo             | model_name                          | inputs_shape&nbsp;&nbsp;&nbsp;&nbsp; | dtype | RK3566<br />RK3568 | RK3562         | RK3588<br />@single_core | RK3576<br />@single_core | RV1109     | RV1126     | RK1808     |
| ---------------- | ----------------------------------- | ------------------------------------ | ----- | ------------------ | -------------- | ------------------------ | ------------------------ | ---------- | ---------- | ---------- |
| LPRNet           | lprnet                              | [1, 3, 24, 94]          | FP16     | 143.2                 | 420.6     | 586.4          | 647.8     | 30.6(INT8) | 47.6(INT8) | 30.1(INT8) |
| PPOCR-Det        | ppocrv4_det                         | [1, 3, 480, 480]        | INT8     | 22.1                  | 28.0      | 50.7           | 64.3      | 11.0       | 16.1       | 14.2       |
"""


def test_a_precision_after_a_value_overrides_the_rows():
    found = fields_by_raw_value(RKNN_BENCHMARK, "value", "precision", "accelerator")
    assert found["30.6(INT8)"] == (30.6, "INT8", "RV1109")
    assert found["47.6(INT8)"] == (47.6, "INT8", "RV1126")
    assert found["586.4"] == (586.4, "FP16", "RK3588")
    assert found["11.0"] == (11.0, "INT8", "RV1109")
