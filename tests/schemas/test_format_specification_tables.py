"""A table of what data formats are (bits of their elements and scales, the size of the block
a scale covers) is no results table: "Scaling Block Size" is a setting, not a scaling
efficiency, and a header counting bits names a setting, not a measured figure. A heading
naming "Scores" in the plural names the scores of the table under it, as "Score" does."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import normalized

# As intel/neural-compressor's docs/source/PT_MXQuant.md opens (its first rows)
MX_FORMATS = """## Introduction

To balance memory limits and accuracy preservation for AI models, the Microscaling (MX) \
specification was promoted from the well-known Microsoft Floating Point (MSFP) data type [1, 2]:

<table>
  <tr>
    <th>Format Name</th>
    <th>Element Data type</th>
    <th>Element Bits</th>
    <th>Scaling Block Size</th>
    <th>Scale Data Type</th>
    <th>Scale Bits</th>
  </tr>
  <tr>
    <td>MXFP4</td>
    <td>FP4 (E2M1)</td>
    <td>4</td>
    <td>32</td>
    <td>E8M0</td>
    <td>8</td>
  </tr>
  <tr>
    <td>MXINT8</td>
    <td>INT8</td>
    <td>8</td>
    <td>32</td>
    <td>E8M0</td>
    <td>8</td>
  </tr>
</table>
"""


def test_a_table_of_data_formats_holds_no_results():
    document = normalized(MX_FORMATS, "text/html")
    assert document.measurements.height == 0
    assert document.quarantine.height == 0


def test_a_block_size_a_scaling_word_qualifies_is_a_setting():
    assert (read_header("Scaling Block Size").kind, read_header("Scaling Block Size").role) == (
        "config",
        "setting",
    )
    assert read_header("Element Bits").kind == "config"
    # a scaling word no longer role word holds still names the derived figure
    assert read_header("Weak scaling").role == "scaling_efficiency"
    assert read_header("Throughput - speedup").role == "speedup"


# As microsoft/BitNet's docs/bitnet-embeddings-i2s-guide.md reports its embedding models'
# scores under a heading naming them in the plural, after paragraphs naming training losses
BITNET_MTEB = """## 2. Model Details

- Continual Contrastive Pre-training: Trained on 1B text pairs with InfoNCE loss.
- Distillation-based Supervised Fine-tuning: Contrastive loss + similarity-distribution \
distillation + attention-relation distillation from FP16 teacher.

### MTEB v2 Evaluation Scores (16-bit embeddings)

| Model | Weights | Bitext | Classification | Clustering | Pair Class. | Reranking | Retrieval | STS | **Mean** |
|---|---|---|---|---|---|---|---|---|---|
| bitnet-embeddings-270m | 1.58-bit | 80.47 | 71.09 | 52.37 | 79.72 | 60.50 | 66.71 | 74.35 | **66.26** |
"""  # noqa: E501


def test_a_heading_naming_scores_names_the_tables_metric():
    document = normalized(BITNET_MTEB)
    found = {
        row["raw_value"]: (row["column_name"], row["metric"])
        for row in document.measurements.iter_rows(named=True)
    }
    assert found["80.47"] == ("Bitext", "accuracy")
    assert found["74.35"] == ("STS", "accuracy")
