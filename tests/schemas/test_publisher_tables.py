"""Tables of more publishers' pages, each quoted from a public page: a table read turned
around whose metric rows name the phase they measured, bold group rows inside a pipe table,
a group header over several columns, chips named without their brand, precisions written
in pairs, and a model named in a list of the run's settings."""

from __future__ import annotations

from tests.schemas.test_page_structures import normalized

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
