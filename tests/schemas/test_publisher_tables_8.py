"""Tables of publishers no corpus holds, written as their pages write them: a board vendor's
model zoo that groups its models by architecture, a kernel library stating its tables' unit
once for a whole section, a load-balancer report closing its headers with the unit."""

from __future__ import annotations

from perfledger.schemas.units import unit_in_header
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


# As a serving framework's load-balancer report writes it: the unit closes each header after
# the statistic, with no bracket or comma ("P99 ms"), beside rates the table's prose is about.
LATENCY_HEADERS = """# Master performance

The master sustains 5,000 QPS.

| Workers | Master QPS | Avg ms | P50 ms | P99 ms |
|---:|---:|---:|---:|---:|
| 1 | 964.721 | 28.255 | 11 | 565 |
| 8 | 11190.225 | 450.817 | 11 | 6228 |
"""


def test_a_duration_closing_a_header_after_its_statistic_is_the_columns_unit():
    found = fields_by_raw_value(LATENCY_HEADERS, "metric", "unit", "statistic")
    assert found["28.255"] == ("latency", "ms", "mean")
    assert found["450.817"] == ("latency", "ms", "mean")
    assert found["565"] == ("latency", "ms", "p99")
    assert found["964.721"][:2] == ("throughput", "items/s")


def test_a_duration_after_a_number_or_alone_is_no_headers_unit():
    assert unit_in_header("latency under 10 ms") is None
    assert unit_in_header("YOLOv8 s") is None
    assert unit_in_header("P99 μs").factor == 1e-06


# As a kernel library compares its kernels with another library's: "ep" names that library
# here, not expert parallelism, for a word follows it; the baseline's times are values too.
BASELINE_COLUMNS = """# MoE benchmarks

## 3. Results

All µs/call, BF16, B200.

### 3.1 Same kernels, same GPU time

| GPUs | stage | ep kernel | ep event meas | FI kernel |
|---:|---|---:|---:|---:|
| 8 | dispatch | 43.9 | 50.0 | 45.3 |
| 16 | combine | 200.4 | 207.9 | 187.8 |

| GPUs | EP | TP | FI kernel |
|---:|---:|---:|---:|
| 8 | 8 | 1 | 45.3 |
"""


def test_a_parallelism_abbreviation_followed_by_a_word_is_no_setting_column():
    result = normalized(BASELINE_COLUMNS)
    by_column = dict(
        zip(result.measurements["raw_value"], result.measurements["column_name"], strict=False)
    )
    assert by_column["43.9"] == "ep kernel"
    assert by_column["207.9"] == "ep event meas"
    # a bare "EP" or "TP" column is still the run's setting
    last = result.measurements.filter(result.measurements["table_index"] == 1)
    assert last["raw_value"].to_list() == ["45.3"]
    assert "EP=8" in last["settings"][0]
