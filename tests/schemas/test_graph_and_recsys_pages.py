"""Pages of graph learning and recommender-system publishers (DGL's examples, HugeCTR's
sparse operation kit) and of quantization recipes (Intel Neural Compressor), quoted with the
cells the tests need: evaluation datasets named by a column's header, a run's stop condition as
a setting, a heading describing a method rather than naming a setting, prose counting repeated
runs."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As DGL's examples/pytorch/graphsaint/README.md gives F1-micro per sampler (rows cut).
GRAPHSAINT_F1 = """## Experiments

> Note that the sampling method in the pre-sampling phase must be offline sampling.

### F1-micro

#### Random node sampler

| Method | PPI | Flickr | Reddit | Yelp | Amazon |
| --- | --- | --- | --- | --- | --- |
| Paper | 0.960±0.001 | 0.507±0.001 | 0.962±0.001 | 0.641±0.000 | 0.782±0.004 |
| DGL_offline | 0.9715      | 0.5024 | 0.9645 | 0.6457 | 0.8051 |

#### Random edge sampler

| Method      | PPI         | Flickr      | Reddit | Yelp | Amazon |
| --- | --- | --- | --- | --- | --- |
| DGL_offline | 0.9817      | 0.5077 | 0.9655 | 0.6530 | 0.8034 |
"""


def test_a_heading_naming_a_method_by_a_setting_word_leaves_the_metric_to_its_section():
    # "Random node sampler" names a sampler: "node" is no setting the table lists, so the
    # section's "F1-micro" still says what its numbers are, as it does under "Random edge".
    by_raw = fields_by_raw_value(GRAPHSAINT_F1, "metric", "dataset_canonical")
    assert by_raw["0.9715"] == ("accuracy", "PPI")
    assert by_raw["0.8051"] == ("accuracy", None)
    assert by_raw["0.9817"] == ("accuracy", "PPI")
    assert normalized(GRAPHSAINT_F1).quarantine.height == 0


# The same page's section on the spread of sampling times (one table, rows cut).
GRAPHSAINT_REPEATS = """## Test std of sampling and normalization time

- We've run experiments 10 times repeatedly to test average and standard deviation of sampling
  and normalization time.

> The value is (average, std).

### Random node sampler

| Method                    | PPI             | Flickr       |
| ------------------------- | --------------- | ------------ |
| author_Sampling(std)      | 0.788, 0.661    | 0.728, 0.367 |
"""


def test_prose_counting_repeated_runs_names_no_ratio():
    # "10 times repeatedly" counts runs: these seconds are no speedups in "x"
    read = normalized(GRAPHSAINT_REPEATS)
    assert "speedup" not in read.measurements["metric"].to_list()
    # nothing names what they measure: each cell is kept with the reason
    assert read.quarantine["raw_value"].to_list() == ["0.788, 0.661", "0.728, 0.367"]


# As HugeCTR's sparse_operation_kit/documents/tutorials/DLRM_Benchmark/README.md gives its runs
# (columns and rows cut).
HUGECTR_DLRM = """### Performance on 8 x A100

| batch size | exit criteria | xla | amp | training time (minutes) | throughput(samples/second) |
| :---: | :---:        | :---: | :---: | :---: | :---:  |
| 65536 | 1 epoch      | yes   | no    | 8.79  | 8.16M  |
| 55296 | AUC > 0.8025 | yes   | no    | 8.04  | 7.60M  |
"""


def test_a_runs_stop_condition_is_a_setting_of_the_row():
    read = normalized(HUGECTR_DLRM)
    assert read.quarantine.height == 0
    by_raw = {
        row["raw_value"]: (row["metric"], row["accelerator"], row["accelerator_count"])
        for row in read.measurements.iter_rows(named=True)
    }
    assert by_raw["8.16M"] == ("throughput", "A100", 8)
    settings = dict(read.measurements.select("raw_value", "settings").iter_rows())
    assert "exit criteria=AUC > 0.8025" in settings["7.60M"]


# As Intel Neural Compressor's docs/source/llm_recipes.md groups accuracies by dataset and
# precision (columns and rows cut).
INC_RECIPES = """## Large Language Models Accuracy

<table><thead>
  <tr>
    <th rowspan="3">Model</th>
    <th colspan="3">lambada_openai</th>
  </tr>
  <tr>
    <th>FP32</th>
    <th colspan="2">SQ INT8</th>
  </tr>
  <tr>
    <th>ACC</th>
    <th>ACC</th>
    <th>Ratio</th>
  </tr></thead>
<tbody>
  <tr>
    <td>baichuan-inc/Baichuan-13B-Chat</td>
    <td>67.57%</td>
    <td>67.86%</td>
    <td>1.0043</td>
  </tr>
</tbody>
</table>

| Model | MMLU | GSM8K | wikitext2 |
| --- | --- | --- | --- |
| Llama-2-7B | 45.3 | 14.6 | 5.47 |
"""


def test_a_column_headed_by_an_evaluation_dataset_names_it():
    by_raw = fields_by_raw_value(INC_RECIPES, "metric", "dataset", "dataset_canonical")
    assert by_raw["67.57%"] == ("accuracy", "lambada_openai", "LAMBADA")
    assert by_raw["67.86%"] == ("accuracy", "lambada_openai", "LAMBADA")
    assert by_raw["45.3"] == ("accuracy", "MMLU", "MMLU")
    assert by_raw["14.6"] == ("accuracy", "GSM8K", "GSM8K")
    # a perplexity on WikiText-2 is its score, as "PPL" over it would say
    assert by_raw["5.47"] == ("accuracy", "wikitext2", "WikiText-2")


# As FlashInfer's flashinfer/moe_ep/kernel_src/cutedsl_megamoe/TUNING.md opens its results
# (paragraphs and rows cut): the page's opening paragraphs, then a heading stating the unit and
# statistic, then a paragraph naming what its bracketed figures are.
FLASHINFER_MEGAMOE = """# CuTeDSL MegaMoE tuning + performance notes

This document collects the performance work on the CuTeDSL mega
backends: the tuning surface (knobs, per-size default profiles, online
autotuning), how tuning resolves at runtime, the measured results for
each backend and combine-leg variant, and the benchmark methodology
behind those numbers — including the measurement pitfalls we hit and how
to avoid them.

Unless noted otherwise, all measurements were taken 2026-07-21 on a
single GB200 node (4x GPUs, EP=4) at a DeepSeek-V3-like geometry:
256 experts, top-8, hidden 7168, intermediate 2048.

## Microbenchmark results (2026-07-22, e2e_pipelined p50 µs)

Default geometry (7168 hidden / 2048 inter / 256 experts /
top-8), 4x GB200, heuristic knobs, speedup vs `sm100_fp8_fp4_bf16_deepgemm` in parens:

| tok/rank | dg     | nvfp4 bf16     | +ikr           |
|---------:|-------:|---------------:|---------------:|
| 8        | 215.0  | 222.2 (0.97x)  | 234.0 (0.92x)  |
| 1024     | 474.1  | 428.6 (1.11x)  | 431.8 (1.10x)  |
"""


def test_a_heading_stating_a_unit_gives_columns_of_kernels_its_metric():
    # The heading's "p50 µs" says what every column holds; the speedup a paragraph names "in
    # parens" is the bracketed figure's, and the opening paragraphs' words are no metric of it.
    rows = normalized(FLASHINFER_MEGAMOE).measurements.select(
        "column_name", "raw_value", "metric", "value", "unit", "statistic", "accelerator"
    )
    found = {(row[0], row[1], row[2]): row[3:] for row in rows.iter_rows()}
    assert found[("dg", "215.0", "latency")] == (0.215, "ms", "p50", "GB200")
    assert found[("+ikr", "234.0 (0.92x)", "latency")] == (0.234, "ms", "p50", "GB200")
    assert found[("+ikr", "234.0 (0.92x)", "speedup")][:2] == (0.92, "x")
    assert set(rows["metric"]) == {"latency", "speedup"}
