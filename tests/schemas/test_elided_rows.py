"""A row of "..." standing for the rows a long table leaves out publishes no value: its cells
are placeholders, not numbers that failed to read."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As casper-hansen/AutoAWQ's README.md shortens its benchmark table between models.
AUTOAWQ_ELIDED = """# AutoAWQ

## Benchmarks

- GPU: RTX 4090 (AMD Ryzen 9 7950X)

| Model Name | Size | Version | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s | Memory (VRAM)     |
| ---------- | ---- | ------- | ---------- | -------------- | ------------- | ---------------- | --------------- | ----------------- |
| Vicuna     | 7B   | 🟢GEMV   | 1          | 2048           | 2048          | 1123.63          | 133.191         | 6.15 GB (26.02%)  |
| ...        | ...  | ...     | ...        | ...            | ...           | ...              | ...             | ...               |
| Mistral    | 7B   | 🔵GEMM   | 1          | 64             | 64            | 1093.35          | 156.317         | 4.35 GB (18.41%)  |
"""


def test_a_row_of_ellipses_is_no_value_that_failed_to_read():
    document = normalized(AUTOAWQ_ELIDED)
    checks = set(document.quarantine.get_column("check").to_list())
    assert checks == {"placeholder_value"}
    loaded = dict(
        document.measurements.filter(document.measurements["column_name"] == "Decode tokens/s")
        .select("raw_value", "value")
        .iter_rows()
    )
    assert loaded == {"133.191": 133.191, "156.317": 156.317}
