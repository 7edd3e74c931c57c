"""Tables of publishers no corpus holds, written as their pages write them: a board vendor's
model zoo that groups its models by architecture, a kernel library stating its tables' unit
once for a whole section."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a board vendor's classification zoo writes it: the architecture family groups the rows,
# the model column names the model, the class count and parameter count describe it.
ZOO = """# Classification

## Performance

| Architecture   | Model       | Size    | Categories | Parameter | Floating point Top-1 |
| ----------- | --------------- | ------- | ---------- | --------- | --------- |
| Transformer | EdgeNeXt_base   | 224x224 | 1000       | 18.51     | 78.21     |
|             | EdgeNeXt_small  | 224x224 | 1000       | 5.59      | 76.50     |
| CNN         | ResNet18        | 224x224 | 1000       | 11.27     | 71.49     |
"""


def test_the_model_column_names_the_model_and_the_architecture_is_a_setting():
    found = fields_by_raw_value(ZOO, "model", "metric", "unit", "settings")
    assert found["78.21"][:3] == ("EdgeNeXt_base", "accuracy", "%")
    assert found["71.49"][0] == "ResNet18"
    assert "Architecture=Transformer" in found["78.21"][3]


def test_class_and_parameter_counts_describe_the_model_and_are_no_values():
    result = normalized(ZOO)
    assert sorted(result.measurements["raw_value"].to_list()) == ["71.49", "76.50", "78.21"]
    assert "Categories=1000; Parameter=18.51" in result.measurements["settings"][0]
    assert result.quarantine.height == 0


# As a kernel library's benchmark notes write it: the section says once what its numbers
# are in ("All µs/call"), the tables under its subsections give bare numbers.
SECTION_UNIT = """# MoE benchmarks

## 3. Results

All µs/call, BF16, hidden 7168 / top-k 8 / 256 experts, B200 (8 GPU/node, NDR IB).

### 3.1 Same kernels, same GPU time

| GPUs | stage | FI kernel | FI measured (fast) |
|---:|---|---:|---:|
| 8 | dispatch | 45.3 | 65.0 |
| 16 | combine | 187.8 | 236.5 |
"""


def test_a_unit_per_call_stated_for_a_section_gives_its_tables_unit():
    found = fields_by_raw_value(SECTION_UNIT, "metric", "unit", "value", "accelerator_count")
    assert found["45.3"] == ("latency", "ms", 0.0453, 8)
    assert found["236.5"] == ("latency", "ms", 0.2365, 16)
