"""A score written after its name and followed by a remark in brackets ("mAP 0.37373
(Symmetric Entropy)") loads as the score, the remark kept as its qualifier, as the same
column's "80.376% (Asymmetric MSE)" does."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import normalized

# furiosa-ai/furiosa-sdk, docs/en/source/software/quantization.rst (commit 6f396351),
# "Accuracy of Quantized Models", four of its eight rows ("85.8%" tells the page's decimal mark).
FURIOSA_QUANTIZATION = """Accuracy of Quantized Models
--------------------------------------

.. list-table:: Quantization Accuracy
   :header-rows: 1

   * - Model
     - FP Accuracy
     - INT8 Accuracy (Calibration Method)
     - INT8 Accuracy ÷ FP Accuracy
   * - ConvNext-B
     - 85.8%
     - 80.376% (Asymmetric MSE)
     - 93.678%
   * - ResNet50 v1.5
     - 76.456%
     - 76.228% (Asymmetric MSE)
     - 99.702%
   * - RetinaNet
     - mAP 0.3757
     - mAP 0.37373 (Symmetric Entropy)
     - 99.476%
   * - YOLOX-l
     - mAP 0.497
     - mAP 0.48524 (Asymmetric 99.99%-Percentile)
     - 97.634%
"""


def test_a_named_score_with_a_remark_reads_as_the_score():
    value = read_cell("mAP 0.37373 (Symmetric Entropy)").values[0]
    assert (value.number, value.rest, value.qualifier) == (0.37373, "mAP", "Symmetric Entropy")
    assert read_cell("Gaudi 2 (8 cards)").problem == "unparseable_value"  # a name, no score


def test_quantized_detection_scores_load_with_their_calibration_method():
    document = normalized(FURIOSA_QUANTIZATION, "text/x-rst")
    column = "INT8 Accuracy (Calibration Method)"
    rows = document.measurements.filter(column_name=column)
    assert rows.select("model", "metric", "value", "precision", "qualifier").rows() == [
        ("ConvNext-B", "accuracy", 80.376, "INT8", "Asymmetric MSE"),
        ("ResNet50 v1.5", "accuracy", 76.228, "INT8", "Asymmetric MSE"),
        ("RetinaNet", "accuracy", 0.37373, "INT8", "Symmetric Entropy"),
        ("YOLOX-l", "accuracy", 0.48524, "INT8", "Asymmetric 99.99%-Percentile"),
    ]
    assert document.quarantine.filter(column_name=column).height == 0
