"""Tables of publishers no corpus holds, each quoted from a public page: a unit the page
states once in its test setup, for tables under other headings."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# Paddle Lite's benchmark page: the columns are phone SoCs named in Chinese, and the unit of
# every table is stated once, in the 测试说明 list of the 测试环境 section.
PADDLE_LITE = """# 性能数据

## 测试环境

* 测试说明
    * CPU 线程数设为 1，绑定大核
    * warmup=20, repeats=600，统计平均时间，单位 ms

## 测试数据

#### ARMV8 CPU 数据

|模型|骁龙 865|麒麟 990|RK3399|
|:----|----:|----:|----:|
|MobileNetV1|28.38 |38.22 |103.39 |
|MobileNetV2|18.52 |24.93 |73.37 |
"""


def _labels(page: str) -> dict[str, tuple]:
    return fields_by_raw_value(page, "accelerator", "metric", "unit_published", "label_sources")


def test_a_unit_the_page_states_in_its_setup_gives_chip_columns_their_metric():
    result = normalized(PADDLE_LITE)
    assert result.quarantine.height == 0
    found = _labels(PADDLE_LITE)
    accelerator, metric, unit, sources = found["28.38"]
    assert (accelerator, metric, unit) == ("Snapdragon 865", "latency", "ms")
    assert "metric=page" in sources and "unit=page" in sources
    assert found["24.93"][:3] == ("Kirin 990", "latency", "ms")
    assert found["103.39"][:3] == ("RK3399", "latency", "ms")


def test_a_tables_own_heading_comes_before_the_pages_statement():
    page = PADDLE_LITE.replace("ARMV8 CPU 数据", "ARMV8 CPU 数据（单位 us）")
    _accelerator, metric, unit, sources = _labels(page)["28.38"]
    assert (metric, unit) == ("latency", "us")
    assert "unit=heading" in sources


def test_a_page_stating_two_units_states_none_for_its_tables():
    page = PADDLE_LITE.replace("* CPU 线程数设为 1", "* 吞吐单位 FPS")
    result = normalized(page)
    assert result.measurements.height == 0
    assert set(result.quarantine.get_column("check").to_list()) == {"unknown_metric"}


# FasterTransformer's GPT guide: each table's model is named only in the heading above it,
# in a size the model catalogue does not list.
FT_GPT = """## Performance

#### Performance of GPT-1.3B

* head_num = 32
* data_type = FP16

| Batch_size | Input Seqlen | Output Seqlen | FT <br/> Latency (ms) | Memory Usage (GB) |
| :--------: | :----------: | :-----------: | :-------------------: | :---------------: |
|     1      |     128      |       8       |         36.76         |       8.67        |
|     2      |     128      |       8       |         39.16         |       5.39        |

#### Performance of GPT-350M

| Batch_size | Input Seqlen | Output Seqlen | FT <br/> Latency (ms) | Memory Usage (GB) |
| :--------: | :----------: | :-----------: | :-------------------: | :---------------: |
|     1      |     128      |       8       |         17.87         |       2.04        |
"""


def test_a_model_no_catalogue_knows_named_in_the_heading_labels_the_table():
    values = normalized(FT_GPT).measurements
    found = {
        row["raw_value"]: (row["model"], row["model_canonical"], row["label_sources"])
        for row in values.iter_rows(named=True)
    }
    model, canonical, sources = found["36.76"]
    assert (model, canonical) == ("GPT-1.3B", "GPT-1.3B")
    assert "model=heading" in sources
    assert found["17.87"][:2] == ("GPT-350M", "GPT-350M")


def test_a_heading_naming_two_unknown_models_names_none():
    page = FT_GPT.replace("Performance of GPT-350M", "GPT-350M vs GPT-125M")
    found = {
        row["raw_value"]: row["model"]
        for row in normalized(page).measurements.iter_rows(named=True)
    }
    assert found["17.87"] is None
    assert found["36.76"] == "GPT-1.3B"


def test_a_precision_and_a_size_in_a_heading_name_no_model():
    from perfledger.schemas.model_names import unknown_model_in_text

    assert unknown_model_in_text("Performance of GPT-1.3B") == "GPT-1.3B"
    assert unknown_model_in_text("Results of fp16-2B") is None
    assert unknown_model_in_text("W4A16-7B runs") is None


# The Hailo Model Zoo's list of classification models: the float model's accuracy stands in
# a column headed "float" beside what the compiled model loses ("Hardware Degradation"), and
# the models, most of them in no catalogue, under "Network Name".
HAILO = """ImageNet
^^^^^^^^

.. list-table::
   :header-rows: 1

   * - Network Name
     - float
     - Hardware Degradation
     - FPS (Batch Size=1)
   * - cas_vit_m
     - 81.2
     - 0.3
     - 47
   * - deit_base
     - 80.26
     - 0.4
     - 40
"""


def test_models_under_a_network_name_header_load_as_written_when_no_catalogue_knows_them():
    found = {
        row["raw_value"]: (row["model"], row["model_canonical"])
        for row in normalized(HAILO, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert found["47"] == ("cas_vit_m", "cas_vit_m")
    assert found["40"] == ("deit_base", "DeiT-Base")


def test_a_precision_column_beside_a_quantization_loss_is_that_precisions_accuracy():
    result = normalized(HAILO, "text/x-rst")
    assert result.quarantine.height == 0
    found = {
        row["raw_value"]: (row["model"], row["metric"], row["activation_dtype"])
        for row in result.measurements.iter_rows(named=True)
    }
    assert found["81.2"] == ("cas_vit_m", "accuracy", "fp32")
    assert found["80.26"] == ("deit_base", "accuracy", "fp32")
    assert found["0.3"][:2] == ("cas_vit_m", "other")
    assert found["47"][:2] == ("cas_vit_m", "throughput")


def test_a_degradation_is_a_figure_of_its_own_and_names_no_hardware():
    document = normalized(HAILO, "text/x-rst", "hailo")
    found = {row["raw_value"]: row for row in document.measurements.iter_rows(named=True)}
    degradation, fps = found["0.3"], found["47"]
    assert (degradation["column_name"], degradation["metric"], degradation["value"]) == (
        "Hardware Degradation",
        "other",
        0.3,
    )
    assert (fps["value"], fps["batch_size"], fps["platform"]) == (47.0, "1", None)


def test_a_precision_column_beside_other_figures_states_no_accuracy():
    page = HAILO.replace("Hardware Degradation", "Params (M)")
    result = normalized(page, "text/x-rst")
    float_column = result.quarantine.filter(result.quarantine["column_name"] == "float")
    assert set(float_column.get_column("check").to_list()) == {"unknown_metric"}


# A llama.cpp-style table of GGUF quantization types (written for this test): each type sets
# the weights' integer width and leaves the activations unstated.
GGUF = """| Quantization | Model | tokens/s |
|---|---|---|
| Q2_K | Llama-2-7B | 41.2 |
| Q3_K_M | Llama-2-7B | 38.5 |
| Q5_K_M | Llama-2-7B | 30.1 |
| Q5_0 | Llama-2-7B | 31.4 |
| Q6_K | Llama-2-7B | 27.9 |
| IQ2_XXS | Llama-2-7B | 44.0 |
"""


def test_gguf_types_of_two_three_five_and_six_bits_set_the_weights_width():
    found = {
        row["raw_value"]: (row["activation_dtype"], row["weight_dtype"])
        for row in normalized(GGUF).measurements.iter_rows(named=True)
    }
    assert found == {
        "41.2": (None, "int2"),
        "38.5": (None, "int3"),
        "30.1": (None, "int5"),
        "31.4": (None, "int5"),
        "27.9": (None, "int6"),
        "44.0": (None, "int2"),
    }


# Cloud instances as the clouds name them (written for this test): each instance type runs on
# a known chip, in a known number.
CLOUD = """| Instance | Throughput (tokens/s) |
|---|---|
| a3-highgpu-8g | 9120 |
| a2-ultragpu-4g | 2310 |
| g2-standard-96 | 1450 |
| ct5lp-hightpu-4t | 1780 |
| Standard_ND96isr_H100_v5 | 9050 |
| ND MI300X v5 | 8800 |
| ND GB200 v6 | 7400 |
| NC24ads_A100_v4 | 640 |
"""


def test_cloud_instance_types_name_their_chip_and_count():
    found = {
        row["raw_value"]: (row["accelerator"], row["accelerator_count"], row["system"])
        for row in normalized(CLOUD).measurements.iter_rows(named=True)
    }
    assert found == {
        "9120": ("H100", 8, "a3-highgpu-8g"),
        "2310": ("A100", 4, "a2-ultragpu-4g"),
        "1450": ("L4", 8, "g2-standard-96"),
        "1780": ("TPU v5e", 4, "ct5lp-hightpu-4t"),
        "9050": ("H100", 8, "ND H100 v5"),
        "8800": ("MI300X", 8, "ND MI300X v5"),
        "7400": ("GB200", 4, "ND GB200 v6"),
        "640": ("A100", 1, "NC24ads A100 v4"),
    }
