"""Speed and accuracy pages of applied computer-vision toolkits (OCR and document AI, face
analysis, tracking, depth), quoted as their pages write them."""

from __future__ import annotations

from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import normalized

# As mindee/doctr writes it (docs/source/using_doctr/using_models.rst): grid tables of
# detection models, the batch in the timing column's header ("sec/it (B: 1)"), the CPU in the
# paragraph below, and further down the page a sample hOCR export quoted in a code block.
DOCTR_MODELS = """Text Detection
--------------

Available detection architectures
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

For a comprehensive comparison, we have compiled a detailed benchmark on publicly available datasets:

+------------------------------------------------------------------------------------+----------------------------+----------------------------+--------------------+
|                                                                                    |        FUNSD               |        CORD                |                    |
+==================================================+=================+===============+============+===============+============+===============+====================+
| **Architecture**                                 | **Input shape** | **# params**  | **Recall** | **Precision** | **Recall** | **Precision** | **sec/it (B: 1)**  |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+
| db_resnet34                                      | (1024, 1024, 3) | 22.4 M        | 82.76      | 76.75         | 89.20      | 71.74         | 0.8                |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+
| db_mobilenet_v3_large                            | (1024, 1024, 3) | 4.2 M         | 82.69      | 84.63         | 94.51      | 70.28         | 0.5                |
+--------------------------------------------------+-----------------+---------------+------------+---------------+------------+---------------+--------------------+

Seconds per iteration (with a batch size of 1) is computed after a warmup phase of 100 tensors, by measuring the average number of processed tensors per second over 1000 samples. Those results were obtained on a `11th Gen Intel(R) Core(TM) i7-11800H @ 2.30GHz`.

For reference, here is a sample XML byte string output:

.. code-block:: xml

  <?xml version="1.0" encoding="UTF-8"?>
  <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
    <head>
      <title>docTR - hOCR</title>
    </head>
    <body>
      <div class="ocr_page" id="page_1" title="image; bbox 0 0 3456 3456; ppageno 0" />
    </body>
  </html>
"""  # noqa: E501


def test_an_rst_page_quoting_html_in_a_code_block_is_read_as_rst():
    parsed, layout = parse_document(DOCTR_MODELS.encode(), "text/x-rst")
    assert layout == "rst_table"
    assert parsed.table_count == 1
    found = {
        (row["model"], row["column_name"]): (row["metric"], row["value"], row["unit"])
        for row in normalized(DOCTR_MODELS, "text/x-rst").measurements.iter_rows(named=True)
    }
    assert len(found) == 10
    assert found["db_resnet34", "FUNSD / Recall"] == ("accuracy", 82.76, "score")
    assert found["db_mobilenet_v3_large", "CORD / Precision"] == ("accuracy", 70.28, "score")
    assert found["db_resnet34", "sec/it (B: 1)"] == ("latency", 800.0, "ms")


def test_a_batch_written_b_colon_in_a_timing_header_is_the_batch_size():
    rows = (
        normalized(DOCTR_MODELS, "text/x-rst")
        .measurements.filter(metric="latency")
        .select("model", "batch_size", "accelerator")
    )
    assert sorted(rows.rows()) == [
        ("db_mobilenet_v3_large", "1", "Core i7-11800H"),
        ("db_resnet34", "1", "Core i7-11800H"),
    ]
