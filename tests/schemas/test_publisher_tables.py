"""Tables of more publishers' pages, each quoted from a public page: a table read turned
around whose metric rows name the phase they measured, bold group rows inside a pipe table,
a group header over several columns, chips named without their brand, precisions written
in pairs, and a model named in a list of the run's settings."""

from __future__ import annotations

from perfledger.schemas.precisions import read_precision_label
from tests.schemas.page_reading import normalized

# ktransformers' doc/en/DeepseekR1_V3_tutorial.md: the metrics stand in the first column,
# and only the words beside "token/s" tell prefill from decode.
KTRANS_V02 = """### V0.2

#### Memory consumption:

| Prompt<br>(500 tokens) | Dual socket Ktrans (6 experts) | Dual socket Ktrans (8 experts) | llama.cpp (8 experts) |
| ---------------------- | ------------------------------ | ------------------------------ | --------------------- |
| Prefill token/s        | 97.32                          | 82.94                          | 10.31                 |
| Decode token/s         | 13.69                          | 12.208                         | 4.51                  |
"""


def test_a_turned_table_s_metric_rows_keep_what_they_say_besides_the_metric():
    values = normalized(KTRANS_V02).measurements
    found = {
        row["raw_value"]: (row["metric"], row["variant"], row["row_label"])
        for row in values.iter_rows(named=True)
    }
    assert found["97.32"] == ("throughput", "Prefill", "Dual socket Ktrans (6 experts)")
    assert found["13.69"] == ("throughput", "Decode", "Dual socket Ktrans (6 experts)")
    assert found["4.51"] == ("throughput", "Decode", "llama.cpp (8 experts)")
    # the two throughputs of one system no longer share their labels
    assert values.get_column("row_identity").n_unique() == values.height


# CTranslate2's README.md: bold rows group the runs by the model translated.
CT2 = """#### CPU

| | Tokens per second | Max. memory | BLEU |
| --- | --- | --- | --- |
| **OpenNMT-tf WMT14 model** | | | |
| OpenNMT-tf 2.31.0 (with TensorFlow 2.11.0) | 209.2 | 2653MB | 26.93 |
| **OpenNMT-py WMT14 model** | | | |
| OpenNMT-py 3.0.4 (with PyTorch 1.13.1) | 275.8 | 2012MB | 26.77 |
| **OPUS-MT model** | | | |
| Marian 1.11.0 | 344.5 | 7605MB | 27.93 |
"""

# ktransformers' DeepseekR1_V3_tutorial.md: bold rows group a turned table's metric rows
# by the version and number of experts run.
KTRANS_V021 = """### V0.2.1

| Prompt length  | 1K     | 2K     |
| -------------- | ------ | ------ |
| **6 experts V0.2.0** |  |  |
| Prefill token/s      | 105 | 102 |
| decode token/s       | 15.4 | 14.2 |
| **6 experts V0.2.1** |  |  |
| Prefill token/s      | 111 | 112.5 |
| decode token/s       | 15.9 | 15.4 |
"""


def test_a_bold_group_row_names_the_model_of_the_rows_under_it():
    values = normalized(CT2).measurements
    found = {
        row["raw_value"]: (row["model"], row["table_title"]) for row in values.iter_rows(named=True)
    }
    assert found["209.2"] == ("OpenNMT-tf WMT14", "CPU \u2014 OpenNMT-tf WMT14 model")
    assert found["275.8"] == ("OpenNMT-py WMT14", "CPU \u2014 OpenNMT-py WMT14 model")
    assert found["344.5"][0] == "OPUS-MT"
    # the group rows are no rows of values
    assert values.get_column("row_number").max() == 3


def test_a_bold_group_row_of_a_turned_table_is_the_variant_of_its_metric_rows():
    values = normalized(KTRANS_V021).measurements
    found = {row["raw_value"]: row["variant"] for row in values.iter_rows(named=True)}
    assert found["105"] == "6 experts V0.2.0 / Prefill"
    assert found["14.2"] == "6 experts V0.2.0 / decode"
    assert found["112.5"] == "6 experts V0.2.1 / Prefill"
    assert found["15.9"] == "6 experts V0.2.1 / decode"


# CTranslate2's README.md, GPU table: "int8 + float16" is its int8_float16 compute type.
CT2_GPU = """#### GPU

| | Tokens per second | Max. GPU memory | Max. CPU memory | BLEU |
| --- | --- | --- | --- | --- |
| CTranslate2 3.6.0 | 6634.7 | 1261MB | 953MB | 26.77 |
| - int8 | 8567.2 | 1005MB | 807MB | 26.85 |
| - float16 | 10990.7 | 941MB | 807MB | 26.77 |
| - int8 + float16 | 8725.4 | 813MB | 800MB | 26.83 |

#### CPU

| | Tokens per second | Max. memory | BLEU |
| --- | --- | --- | --- |
| Marian 1.11.0 | 344.5 | 7605MB | 27.93 |
| - int16 | 330.2 | 5901MB | 27.65 |
"""


def test_precisions_written_in_pairs_give_weights_and_activations_and_int16_is_one():
    values = normalized(CT2_GPU).measurements
    found = {
        row["raw_value"]: (row["activation_dtype"], row["weight_dtype"])
        for row in values.iter_rows(named=True)
    }
    assert found["8567.2"] == ("int8", "int8")
    assert found["8725.4"] == ("fp16", "int8")
    assert found["330.2"] == ("int16", "int16")
    # TensorRT Model Optimizer's Windows benchmark heads its columns so
    precision = read_precision_label("INT4 Weight, FP16 Activation")
    assert (precision.activation, precision.weight) == ("fp16", "int4")
