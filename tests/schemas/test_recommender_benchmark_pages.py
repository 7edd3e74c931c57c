"""Speed tables of recommendation-model and gradient-boosting benchmarks, written as their
READMEs write them: the time of one training epoch with its spread in brackets before the
unit ("0.267 (+/- 0.002) second"), and a score with its spread in brackets ("0.269741
(±0.0001)")."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As TorchRec's EmbeddingBag benchmarks write it: the time to train one epoch, its spread
# bracketed between the number and its unit.
EPOCH_TIMES = """# TorchRec Benchmarks for `EmbeddingBag`

Other setup includes:
-   AWS EC2 instance with 8 16GB NVIDIA Tesla V100

### 1. Comparison between EBC and FusedEBC on DLRM EMB (`ebc_comparison_dlrm`)

We see that Fused EBC has much faster training efficiency compared to EBC.

| Module | Time to train one epoch | Note |
| ------ | ---------------------- | ---- |
| EBC | 0.267 (+/- 0.002) second | DLRM EMB with sizes of the 5 largest tables reduced by 128 times |
| Fused EBC | 0.019 (+/- 0.009) second | DLRM EMB with sizes of the 5 largest tables reduced by 32 times |

### 2. Full sized DLRM EMB w/ UVM/UVM-caching w/ FusedEBC (`fused_ebc_uvm`)

| Module | Time to train one epoch | Note |
| ------ | ---------------------- | ---- |
|Fused EBC with UVM | 0.62 (+/- 5.34) second | full sized DLRM EMB |
"""


def test_time_to_train_one_epoch_loads_with_its_bracketed_spread():
    found = fields_by_raw_value(EPOCH_TIMES, "metric", "value", "unit", "spread")
    assert found["0.267 (+/- 0.002) second"] == ("time_to_train", 0.267, "s", 0.002)
    assert found["0.019 (+/- 0.009) second"] == ("time_to_train", 0.019, "s", 0.009)
    assert found["0.62 (+/- 5.34) second"] == ("time_to_train", 0.62, "s", 5.34)
    assert len(found) == 3


def test_a_spread_in_brackets_is_no_unit():
    # CatBoost's quality benchmarks: a logloss with its spread, then its change to the best
    (value,) = read_cell("0.269741 (±0.0001)").values
    assert (value.number, value.unit, value.rest, value.spread) == (0.269741, None, None, 0.0001)
    first, change = read_cell("0.223154 (±0.0005) (+6.90%)").values
    assert (first.number, first.unit, first.spread) == (0.223154, None, 0.0005)
    assert (change.number, change.unit.canonical, change.secondary) == (6.9, "%", True)


# CatBoost's quality benchmarks: a library per column, tuned and not
LIBRARY_COLUMNS = """## Comparison results

| | Tuned CatBoost | Tuned LightGBM
--- | --- | ---
[Adult](https://archive.ics.uci.edu/ml/datasets/Adult) | _**0.269741**_ (±0.0001) | 0.276018 (±0.0003) (+2.33%)


Metric: Logloss (lower is better). In the first brackets - std, in the second - the percentage difference from the tuned CatBoost.
"""


def test_a_library_named_in_camel_case_is_no_speedup():
    assert read_header("Tuned CatBoost").role is None
    assert read_header("CatBoost").kind is None
    assert read_header("BatchSize").role == "batch_size"  # words apart that name it whole
    found = fields_by_raw_value(LIBRARY_COLUMNS, "metric", "value", "spread")
    assert found["0.269741 (±0.0001)"][1:] == (0.269741, 0.0001)
    assert found["0.269741 (±0.0001)"][0] != "speedup"


# LightGBM's experiments: the paragraph over the table says it compares time, the cells say
# their seconds
TIME_COST = """Speed
'''''

We compared speed using only the training task without any test or metric output. We didn't count the time for IO.

The following table is the comparison of time cost:

+-----------+-----------+---------------+---------------+
| Data      | xgboost   | xgboost\\_hist | LightGBM      |
+===========+===========+===============+===============+
| Higgs     | 3794.34 s | 165.575 s     | **130.094 s** |
+-----------+-----------+---------------+---------------+
| Yahoo LTR | 674.322 s | 131.462 s     | **76.229 s**  |
+-----------+-----------+---------------+---------------+
"""

# CatBoost's SHAP benchmark: "Time in the table is given in seconds", cells bare numbers
TIME_IN_THE_TABLE = """**Results**

Time in the table is given in seconds and we didn't take into account time for data preprocessing.


depth|test size|catboost|lightgbm|xgboost|
:--------|:----|:-------|:-------|:------|
2|1000|0.311|**0.090**|0.112|
10|10000|**95.680**|1189.685|306.529
"""


def test_a_table_stated_to_compare_time_loads_its_times():
    rst = normalized(TIME_COST, "text/x-rst").measurements
    found = {
        (row["row_label"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in rst.iter_rows(named=True)
    }
    assert found[("Higgs", "xgboost")] == ("time_to_result", 3794.34, "s")
    assert found[("Yahoo LTR", "LightGBM")] == ("time_to_result", 76.229, "s")
    assert rst.height == 6
    shap = fields_by_raw_value(TIME_IN_THE_TABLE, "metric", "value", "unit")
    assert shap["0.311"] == ("time_to_result", 0.311, "s")
    assert shap["1189.685"] == ("time_to_result", 1189.685, "s")
    assert len(shap) == 6


# CatBoost's ranking benchmark: a blank header row (GitHub needs one), the header in the
# rows of words under it, the method's tuned settings beside its score
BLANK_HEADER = """## 4. Results

|                         |               |         |           |             |
|-------------------------|---------------|---------|-----------|-------------|
| **MQ2008**              |               |         |           | **NDCG**    |
|                         | learning_rate | max_bin | max_depth | best_score  |
| **cat-rmse**            | 0.03          | 254     | 6         | **0.830443**|
| cat-query-rmse          | 0.03          | 128     | 6         | 0.82957     |
| lgb-pairwise            | 0.15          | 64      | 4         | 0.822661    |
"""


def test_the_rows_of_words_under_a_blank_header_are_its_header():
    frame = normalized(BLANK_HEADER).measurements
    found = {
        row["raw_value"]: (row["column_name"], row["metric"], row["value"], row["settings"])
        for row in frame.iter_rows(named=True)
    }
    assert found["0.830443"][:3] == ("NDCG / best_score", "accuracy", 0.830443)
    assert "learning_rate=0.03; max_bin=254; max_depth=6" in found["0.830443"][3]
    assert found["0.822661"][:3] == ("NDCG / best_score", "accuracy", 0.822661)
    assert frame.height == 3  # the settings are no scores
