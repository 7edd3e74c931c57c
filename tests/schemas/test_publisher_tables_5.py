"""Tables of more publishers' pages, each quoted from a public page: percentiles named as
percents in a header row written under the `|---|` row; a page whose numbers show both
decimal marks, settled by the language of its prose."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# NVIDIA DeepLearningExamples, PyTorch QuartzNet README: the precision and metric of each
# group stand over blank cells above the `|---|` row; the batch size, the audio duration
# and the percentiles ("90%", "95%", "99%", "Avg") stand in the first row under it.
QUARTZNET = """##### Inference performance: NVIDIA DGX A100 (1x A100 80GB)

|  |  | FP16 Latency (ms) Percentiles |  |  |  | TF32 Latency (ms) Percentiles |  |  |  | FP16/TF32 speed up |
|-----:|---------------:|------:|------:|------:|------:|------:|------:|------:|------:|------:|
|   BS |   Duration (s) |   90% |   95% |   99% |   Avg |   90% |   95% |   99% |   Avg |   Avg |
|    1 |            2.0 | 35.51 | 36.36 | 55.57 | 35.71 | 33.23 | 33.86 | 40.05 | 33.23 |  0.93 |
|    2 |            2.0 | 38.05 | 38.91 | 52.67 | 38.21 | 34.17 | 35.17 | 39.32 | 33.73 |  0.88 |
"""  # noqa: E501


def test_percentiles_written_as_percents_under_the_rule_row_name_their_columns():
    result = normalized(QUARTZNET)
    found = {
        (row["raw_value"], row["batch_size"]): (
            row["metric"],
            row["unit"],
            row["statistic"],
            row["activation_dtype"],
        )
        for row in result.measurements.iter_rows(named=True)
    }
    assert found[("55.57", "1")] == ("latency", "ms", "p99", "fp16")
    assert found[("36.36", "1")] == ("latency", "ms", "p95", "fp16")
    assert found[("39.32", "2")] == ("latency", "ms", "p99", "tf32")
    assert found[("33.73", "2")] == ("latency", "ms", "mean", "tf32")
    # the percents name columns: none of them is quarantined as a latency
    assert "99%" not in result.quarantine.get_column("raw_value").to_list()


def test_a_lone_percent_in_a_row_of_words_is_still_a_value():
    table = """| Model | Top-1 | Note |
|---|---|---|
| ResNet-50 | 90% | baseline |
| ResNet-101 | 91.5% | deeper |
"""
    values = normalized(table).measurements
    assert "90%" in values.get_column("raw_value").to_list()


# NVIDIA DeepLearningExamples, TensorFlow2 SIM README: an English page whose parameter
# table lists layer sizes as "200,80" (a comma, as a decimal comma would be written) and
# whose speedups have three decimals ("1.208"), which alone read two ways.
SIM = """## Parameters

| Scope           | parameter                 | Comment                                                                 | Default Value             |
|-----------------|---------------------------|-------------------------------------------------------------------------|---------------------------|
| model           | stage_two_mlp_dims        | MLP hidden dimensions for the stage two component                       | 200,80                    |
| model           | aux_mlp_dims              | MLP hidden dimensions for the auxiliary loss                            | 100,50                    |

## Results

The following table shows the speedup achieved by the model on NVIDIA A100 80GB GPUs
when the XLA compiler is enabled for training, compared with the same run without it.
The results were obtained by running the training script in the TensorFlow container.

|GPUs |Precision      |Speedup |
|-----|---------------|--------|
|1    |TF32           |1.208   |
|1    |AMP            |1.178   |
|8    |TF32           |1.232   |
|8    |AMP            |1.119   |

| GPUs | Throughput - TF32 (samples/s) |
|------|-------------------------------|
| 1    | 377254.65                     |
"""  # noqa: E501


def test_a_page_showing_both_marks_reads_its_numbers_as_its_prose_language_writes_them():
    result = normalized(SIM)
    speedups = {
        row["raw_value"]: row["value"]
        for row in result.measurements.iter_rows(named=True)
        if row["metric"] == "speedup"
    }
    assert speedups["1.208"] == 1.208
    assert speedups["1.119"] == 1.119
    assert result.quarantine.filter(result.quarantine["raw_value"] == "1.208").is_empty()
