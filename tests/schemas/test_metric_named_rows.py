"""Tables whose first column names each row's metric ("Metric | No Sleep | Level 2 |
Improvement"): every column beside it holds those metrics' values for one system or method,
whatever words its header shares with settings or labels, and each value keeps its row's
name as its label."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.schemas.page_reading import normalized

CLAIMS_PAGES = Path(__file__).resolve().parents[2].parent / "shared" / "claims-pages" / "pages"

# As ROCm/rocm-blogs shows it (blogs/artificial-intelligence/llama2-Qlora/README.md, section 4),
# the run named in the page's paragraph about its setup.
QLORA_COMPARISON = """# Fine-tuning Llama 2 on a single AMD GPU

In this blog, we conducted our experiment using a single MI250 GPU with the Docker image.

## 4. Comparison between QLoRA, LoRA, and full-parameter fine tuning

| Metric | Full-parameter | LoRA | **QLoRA**|
|--------------------|-----------|-----------|-----------|
|Trainable parameters| 6,738,415,616 | 4,194,304 | 4,194,304 |
|Mem usage/GB |128 | 83.2 | 10.88|
|Number of GCDs |2 | 2 | 1|
|Training Speed|3 hours| 9 minutes |6 minutes|
|Training Loss|1.368|1.377|1.347|
"""


def _by_cell(measurements) -> dict[tuple[str, str], dict]:
    return {
        (row["row_label"], row["column_name"]): row for row in measurements.iter_rows(named=True)
    }


def test_a_column_whose_header_reads_as_a_setting_holds_values_beside_metric_names():
    found = _by_cell(normalized(QLORA_COMPARISON).measurements)
    # "Full-parameter" is a method, not a model size: its numbers were the rows' labels.
    assert found[("Training Loss", "Full-parameter")]["value"] == 1.368
    assert found[("Training Loss", "Full-parameter")]["metric"] == "loss"
    assert found[("Training Speed", "Full-parameter")]["value"] == 3 * 3600 * 1000  # ms
    assert found[("Training Loss", "QLoRA")]["value"] == 1.347
    assert all(row["settings"] is None for row in found.values())


def test_every_value_of_a_row_named_by_its_metric_keeps_the_row_name():
    path = CLAIMS_PAGES / "embeddedllm_vllm_sleep_mode.md"
    if not path.is_file():
        pytest.skip(f"../shared/claims-pages is not here ({path.parent}); this test reads it")
    page = path.read_text()
    result = normalized(page)
    rows = result.measurements.filter(result.measurements["raw_value"].is_in(["45x faster"]))
    # "Qwen3-0.6B Switch Time | 37.6s avg | 0.85s avg | **45x faster**": the speedup column
    # names its own metric and still takes the row's name.
    assert rows["row_label"].to_list() == ["Qwen3-0.6B Switch Time"]
    found = _by_cell(result.measurements)
    # "Level 2" reads as no label: its figures are values, once the row labels.
    level_2 = found[("Qwen3-0.6B Switch Time", "Level 2")]
    assert (level_2["value"], level_2["unit"], level_2["qualifier"]) == (850.0, "ms", "avg")
    assert found[("Total Time (5 switches)", "Level 2")]["value"] == 124600.0
    assert "0.85s avg" not in result.measurements["model"].to_list()
    # Its "3-10x slower" is a range, set apart with its reason, not a row's name.
    quarantined = result.quarantine.filter(result.quarantine["raw_value"] == "3-10x slower")
    assert quarantined["check"].to_list() == ["range_value"]


# As ROCm/rocm-blogs shows it (blogs/software-tools-optimization/matrix-cores/README.md):
# a rate per clock cycle and compute unit, the table's figure, beside its instructions' shape.
MATRIX_INSTRUCTIONS = """# AMD matrix cores

The matrix dimensions and number of blocks supported on CDNA2 GPUs are listed in the table
below.

|A/B Data Format|C/D Data Format|M  |N  |K  |Blocks|Cycles|Flops/cycle/CU|
|---------------|---------------|---|---|---|------|------|-----------|
|FP32           |FP32           |32 |32 |2  |1     |64    |256        |
|FP16           |FP32           |32 |32 |8  |1     |64    |1024       |
"""


def test_flops_per_cycle_is_a_figure_not_a_model_size():
    quarantine = normalized(MATRIX_INSTRUCTIONS).quarantine
    rates = quarantine.filter(quarantine["column_name"] == "Flops/cycle/CU")
    # Before, "Flops" read as the model's work per input, the column as a setting, and its
    # figures were neither loaded nor set apart. Here nothing names their metric: set apart
    # with that reason (the page's own context names a throughput, and they load).
    assert sorted(rates["raw_value"].to_list()) == ["1024", "256"]
    assert set(rates["check"]) == {"unknown_metric"}
