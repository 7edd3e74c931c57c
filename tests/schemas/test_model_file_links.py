"""The device a model zoo names only in the model files its table links or lists, compiled
per device ("`H <.../Compiled/v2.17.0/hailo8/cas_vit_m.hef>`_"): the chip of the table's
values when nothing nearer names one, files built for several devices naming none; a file a
row names ("groundingdino_bm1688_fp16.bmodel") gives that row's chip."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As hailo-ai/hailo_model_zoo writes it (docs/public_models/HAILO8/HAILO8_classification.rst):
# the page and the table say "ImageNet", the compiled model each row links is for Hailo-8.
HAILO8_IMAGENET = """ImageNet
^^^^^^^^

.. list-table::
   :widths: 31 9 7 11 9 8 8 8 9
   :header-rows: 1

   * - Network Name
     - float
     - Hardware Degradation
     - FPS (Batch Size=1)
     - FPS (Batch Size=8)
     - Links
     - Input Resolution (HxWxC)
     - Params (M)
     - OPS (G)
   * - cas_vit_m
     - 81.2
     - 0.3
     - 47
     - 157
     - `S <https://github.com/Tianfang-Zhang/CAS-ViT>`_ `PT <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/Classification/cas_vit_m/pretrained/2024-09-03/cas_vit_m.zip>`_ `H <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/ModelZoo/Compiled/v2.17.0/hailo8/cas_vit_m.hef>`_ `PR <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/ModelZoo/Compiled/v2.17.0/hailo8/cas_vit_m_profiler_results_compiled.html>`_
     - 384x384x3
     - 12.42
     - 10.89
   * - cas_vit_s
     - 79.9
     - 0.3
     - 71
     - 225
     - `S <https://github.com/Tianfang-Zhang/CAS-ViT>`_ `PT <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/Classification/cas_vit_s/pretrained/2024-08-13/cas_vit_s.zip>`_ `H <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/ModelZoo/Compiled/v2.17.0/hailo8/cas_vit_s.hef>`_ `PR <https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/ModelZoo/Compiled/v2.17.0/hailo8/cas_vit_s_profiler_results_compiled.html>`_
     - 384x384x3
     - 5.5
     - 5.4
"""


def test_a_model_zoo_table_linking_files_compiled_for_one_chip_is_on_that_chip():
    result = normalized(HAILO8_IMAGENET, "text/x-rst")
    assert result.quarantine.height == 0
    found = {
        (row["raw_value"], row["column_name"]): (row["metric"], row["value"], row["accelerator"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert found[("47", "FPS (Batch Size=1)")] == ("throughput", 47.0, "Hailo-8")
    assert found[("225", "FPS (Batch Size=8)")] == ("throughput", 225.0, "Hailo-8")
    vendors = set(result.measurements.get_column("vendor").to_list())
    assert vendors == {"Hailo"}


# The same zoo's Hailo-8L page (HAILO8L_object_detection.rst), its row as an HTML table: the
# links' targets are read from the anchors.
HAILO8L_HTML = """<h2>COCO</h2>
<table><thead><tr><th>Network Name</th><th>mAP</th><th>Quantized</th>
<th>FPS (Batch Size=1)</th><th>FPS (Batch Size=8)</th><th>Links</th></tr></thead>
<tbody><tr><td>yolov5m_wo_spp</td><td>41.6</td><td>40.14</td><td>51</td><td>78</td>
<td><a href="https://github.com/ultralytics/yolov5/releases/tag/v2.0">S</a>
<a href="https://hailo-model-zoo.s3.eu-west-2.amazonaws.com/ModelZoo/Compiled/v2.17.0/hailo8l/yolov5m_wo_spp.hef">H</a></td>
</tr></tbody></table>
"""


def test_the_anchors_of_an_html_table_name_the_chip_too():
    result = normalized(HAILO8L_HTML, "text/html")
    found = {
        row["raw_value"]: (row["metric"], row["accelerator"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert found["51"] == ("throughput", "Hailo-8L")


# Rows linking files built for two chips: no one chip is the table's.
TWO_DEVICES = """### Model performance

| model | FPS | file |
| --- | --- | --- |
| yolov5s | 48.4 | [yolov5s.rknn](https://example.com/models/RK3588/yolov5s.rknn) |
| yolov5n | 39.7 | [yolov5n.rknn](https://example.com/models/RK3566/yolov5n.rknn) |
"""


def test_files_compiled_for_several_chips_name_none():
    found = fields_by_raw_value(TWO_DEVICES, "metric", "accelerator")
    assert found["48.4"] == ("throughput", None)


# As sophgo/sophon-demo writes it (sample/GroundingDINO/README.md, "6.1 bmrt_test"): each row
# a model file compiled for one chip, the chip written in the file's name; the command above
# the table names one of them.
BMRT_TEST = """### 6.1 bmrt_test
使用bmrt_test测试模型的理论性能：
```bash
# 请根据实际情况修改要测试的bmodel路径和devid参数
bmrt_test --bmodel models/BM1684X/groundingdino_bm1684x_fp16.bmodel
```
测试结果中的`calculate time`就是模型推理的时间。

测试各个模型的理论推理时间，结果如下：

|              测试模型                | calculate time(s)         |
| ------------------------------------| --------------------------|
| groundingdino_bm1684x_fp16.bmodel   | 0.532807                  |
| groundingdino_bm1688_fp16.bmodel    | 1.256347                  |
| groundingdino_cv186x_fp16.bmodel    | 1.662021                  |
"""


def test_a_model_file_named_for_its_chip_is_on_that_chip():
    found = fields_by_raw_value(BMRT_TEST, "metric", "value", "unit", "accelerator", "precision")
    assert found["0.532807"] == ("latency", 532.807, "ms", "BM1684X", "fp16")
    assert found["1.256347"] == ("latency", 1256.347, "ms", "BM1688", "fp16")
    assert found["1.662021"] == ("latency", 1662.021, "ms", "CV186X", "fp16")
