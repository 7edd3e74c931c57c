"""A model zoo's table whose result cells hold lines ("4160 tokens/s/p", a link to the
configuration, the hardware), joined into one text when read: the value with the unit its
first line opens with, the rest a remark. MindSpore's pages write a rate per processor
"tokens/s/p", and the sequence length under "序列"."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As mindspore-ai/docs writes it (docs/mindformers/docs/source_zh_cn/start/models.md, commit
# 0a1c216b): training and inference performance, each "value unit <br> config link <br> chip".
MINDFORMERS_MODELS = """# 模型库

当前MindFormers支持的模型列表如下：

<table>
  <thead>
    <tr>
      <th> 模型 </th>
      <th> 参数 </th>
      <th> 序列 </th>
      <th> 训练性能（配置/硬件） </th>
      <th> 推理性能（配置/硬件） </th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <td rowspan="1"> <a href="https://gitee.com/mindspore/mindformers/blob/dev/docs/model_cards/glm2.md"> GLM2 </a> </td>
      <td> 6B </td>
      <td> 2K </td>
      <td> 815.2059134 tokens/s/p <br> <a href="https://gitee.com/mindspore/mindformers/blob/dev/configs/glm2/run_glm2_6b_finetune_800T_A2_64G.yaml"> 配置 </a> <br> Atlas 800T A2 </td>
      <td> 32.08 tokens/s (seq_length=512) <br> <a href="https://gitee.com/mindspore/mindformers/blob/dev/configs/glm2/predict_glm2_6b.yaml"> 配置 </a> <br> Atlas 800T A2 </td>
    </tr>
  </tbody>
</table>
"""


def test_a_value_opening_a_cell_of_lines_takes_the_unit_of_its_first_line():
    result = normalized(MINDFORMERS_MODELS)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(MINDFORMERS_MODELS, "metric", "value", "unit", "rate_per")
    assert found["815.2059134 tokens/s/p 配置 Atlas 800T A2"] == (
        "throughput",
        815.2059134,
        "items/s",
        "accelerator",
    )
    assert found["32.08 tokens/s (seq_length=512) 配置 Atlas 800T A2"] == (
        "throughput",
        32.08,
        "items/s",
        None,
    )
    assert result.measurements.height == 2  # "2K" under "序列" is the sequence length


def test_the_hardware_a_cells_last_line_names_is_its_values():
    found = fields_by_raw_value(MINDFORMERS_MODELS, "vendor", "accelerator", "system", "platform")
    assert found["815.2059134 tokens/s/p 配置 Atlas 800T A2"] == (
        "Huawei",
        "Ascend 910B",
        "Atlas 800 A2",
        "Atlas 800T A2",
    )
    assert found["32.08 tokens/s (seq_length=512) 配置 Atlas 800T A2"][1] == "Ascend 910B"
