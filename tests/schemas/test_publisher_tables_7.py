"""Tables of publishers no corpus holds, written as their pages write them: model cards of
fields one a row, two figures of one run in one cell, an NPU named by its core."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import fields_by_raw_value, normalized

# A model zoo's performance card: one column per run, one field per row; most rows describe
# the run, the speed, total time and loss are its figures.
CARD = """# T-GCN

## Performance

### Training Performance

| Parameters | T-GCN (1GPU) | T-GCN (8GPU) |
| ------------------- | ------------------- | ------------------- |
| Model Version | T-GCN | T-GCN |
| Resource | AMD Ryzen Threadripper 2990WX, V100-PCIE | Xeon Gold 6226R, 8x V100-PCIE |
| Uploaded Date | 2021-09-30 | 2021-09-30 |
| MindSpore version | 1.5.0rc1 | 1.5.0 |
| Dataset | SZ-taxi | SZ-taxi |
| Training Parameters | seed=1；epoch=3000；batch_size = 64 | seed=1；epoch=3000；batch_size = 64 |
| Optimizer | Adam with Weight Decay | Adam with Weight Decay |
| Loss Function | L2 loss | L2 loss |
| Outputs | Car traffic speeds | Car traffic speeds |
| Loss | 10.2 | 10.9 |
| Average checkpoint (.ckpt file) size | 839 KB | 839 KB |
| Speed | 15 ms/step | 14 ms/step |
| Total time | 27 minutes 30 seconds | 2 minutes 56 seconds |
| Scripts | [train.py](https://example.org/train.py) | [train.py](https://example.org/train.py) |
"""


def _rows(page: str) -> dict[str, tuple]:
    return fields_by_raw_value(
        page, "model", "accelerator", "accelerator_count", "metric", "unit", "value"
    )


def test_a_card_of_fields_one_a_row_is_read_one_run_a_column():
    result = normalized(CARD)
    found = _rows(CARD)
    assert found["15 ms/step"] == ("T-GCN", "V100", 1, "latency", "ms", 15.0)
    assert found["14 ms/step"] == ("T-GCN", "V100", 8, "latency", "ms", 14.0)
    assert found["27 minutes 30 seconds"][3:] == ("time_to_train", "s", 1650.0)
    assert found["10.9"][3] == "loss"
    # The fields that describe the run are no values: nothing else is read or set aside.
    assert len(found) == 6
    assert result.quarantine.height == 0


def test_a_card_with_a_field_no_vocabulary_names_is_still_read():
    page = CARD.replace("| Optimizer |", "| Solver |")
    assert _rows(page)["15 ms/step"][3] == "latency"


def test_a_card_naming_a_single_figure_is_read_one_run_a_column():
    """An inference card holds one figure among its fields: its columns are runs all the same,
    and its dates and versions are no values to set aside."""
    page = "\n".join(
        line for line in CARD.splitlines() if not line.startswith(("| Loss |", "| Total"))
    )
    result = normalized(page)
    assert _rows(page)["15 ms/step"][3] == "latency"
    assert result.quarantine.height == 0


def test_a_table_of_settings_and_names_is_not_a_card():
    """First cells naming models, not fields: the table is read as published."""
    page = (
        "# Results\n\n| Setting | A100 | H100 |\n| --- | --- | --- |\n"
        "| ResNet-50 | 2,800 | 5,100 |\n| BERT-Large | 900 | 1,700 |\n| Speed | 1 | 2 |\n"
    )
    # Read as published: its chips name the columns (no metric is named, so none loads).
    assert set(normalized(page).quarantine["column_name"]) == {"A100", "H100"}


# A kernel library's README: each cell holds the time and the compute rate that time gives.
KERNEL = """# Fused cross entropy

H100 BF16 forward medians. Effective TFLOPS count the common projection work:

| M | Entropy | CuTe SM90 | Torch fallback |
|---:|:---:|---:|---:|
| 2048 | No | **3.12 ms / 706 TFLOPS** | 11.36 ms / 194 TFLOPS |
"""


def test_two_figures_parted_by_a_slash_are_two_values_each_with_its_metric():
    rows = normalized(KERNEL).measurements.filter(normalized(KERNEL).measurements["value"] > 0)
    got = sorted(
        (row["column_name"], row["metric"], row["value"], row["unit"])
        for row in rows.iter_rows(named=True)
    )
    assert got == [
        ("CuTe SM90", "latency", 3.12, "ms"),
        ("CuTe SM90", "other", 706.0, "TFLOP/s"),
        ("Torch fallback", "latency", 11.36, "ms"),
        ("Torch fallback", "other", 194.0, "TFLOP/s"),
    ]


def test_a_slash_between_figures_of_one_kind_parts_no_figures():
    """ "12 ms / 15 ms" is a pair of one figure (two runs, or a range): no second metric."""
    assert not any(value.secondary for value in read_cell("12 ms / 15 ms").values)
    assert [value.number for value in read_cell("3 ms/step").values] == [3.0]


# A toolchain's simulated performance: the NPU named by its core, in an italic line.
NPU = """# Hardware Performance

*Performance simulation result on NPU KDP720:*

| Model                | Size    | FPS (npu only) | Time(npu only) |
| -------------------- | ------- | -------------- | -------------- |
| Mobilenet v2         | 224x224 |    683.1       | 1.463 ms       |
"""


def test_an_npu_named_by_its_core_is_its_chip():
    found = _rows(NPU)
    assert found["683.1"][1] == "KL720"
    assert found["683.1"][3] == "throughput"


def test_an_f_score_is_an_accuracy():
    page = "# OCR\n\n| model | fscore |\n| --- | --- |\n| dbnet_r50 | 83.71 |\n"
    assert _rows(page)["83.71"][3] == "accuracy"


# A serving framework's raw results: the Markdown header row is left blank, the names of the
# columns, with their units in brackets, stand in the first row under it.
BLANK_HEADER = """# Results

Our benchmarking results show a 13x speedup over the baseline.

|   |   |   |   |   |
|---|---|---|---|---|
|2nd run ||**TGI v3** (time in s)|**vLLM** (s)|**Amount of req**|
|**Llama 3.1 8b**|Small test - L4 - 8B|17.5|19.9|200|
|**Llama 3.1 70b**|Small test - 8XH100 - 70B|6.2|7.4|200|
"""


def test_column_names_with_units_under_a_blank_header_row_are_its_header():
    rows = normalized(BLANK_HEADER).measurements
    got = {
        (row["column_name"], row["raw_value"]): (row["metric"], row["unit_published"])
        for row in rows.iter_rows(named=True)
    }
    assert got[("TGI v3 (time in s)", "17.5")] == ("latency", "s")
    assert got[("vLLM (s)", "7.4")] == ("latency", "s")
    # The number of requests sent is a setting of the run, not a figure.
    assert not any(column == "Amount of req" for column, _raw in got)


# A fine-tuning library's README: each notebook's gain written as a multiple and its word.
GAINS = """# Free Notebooks

| Model | Free Notebooks | Performance | Memory use |
|-----------|---------|--------|----------|
| **Llama 3.1 (8B) Alpaca** | [Start for free](https://example.org/a.ipynb) | 2x faster | 70% less |
| **Orpheus-TTS (3B)** | [Start for free](https://example.org/b.ipynb) | 1.5x faster | 50% less |
"""


def test_a_multiple_with_the_word_faster_is_a_speedup():
    found = _rows(GAINS)
    assert found["2x faster"][3:] == ("speedup", "x", 2.0)
    assert found["1.5x faster"][3:] == ("speedup", "x", 1.5)


def test_a_multiple_saying_slower_keeps_the_number_printed_and_its_word():
    # the cell's number as printed; the speedup it means is its inverse (value_reading)
    (value,) = read_cell("2x slower").values
    assert (value.number, value.unit.canonical, value.qualifier) == (2.0, "x", "slower")
    assert read_cell("3x speedup").values[0].qualifier == "speedup"


# Edge boards compared: the first Neural Compute Stick is a Myriad 2, its successor a Myriad X;
# a regression's R^2 is a score as an accuracy is.
BOARDS = """# Benchmarking Machine Learning on the Edge

| Board  | Framework | Connection | MobileNet v2 (ms) | MobileNet v1 (ms) |
| --- | --- | --- | --- | --- |
| Movidius NCS | OpenVINO | USB2 | 204.5 | 115.7 |
| Intel NCS2 | OpenVINO | USB3 | 80.4 | 52.8 |
"""


def test_the_first_neural_compute_stick_is_a_myriad_2():
    found = _rows(BOARDS)
    assert found["204.5"][1] == "Myriad 2"
    assert found["80.4"][1] == "Myriad X"


def test_an_r_squared_is_a_score():
    page = "# T-GCN\n\n| Model | RMSE | $R^2$ |\n| --- | --- | --- |\n| T-GCN | 4.1001 | 0.8458 |\n"
    assert _rows(page)["0.8458"][3] == "accuracy"
