"""A bare quantization type ("q4", "q8") is the weights' dtype, as "Q4_K_M" and "q8_0" are;
a year after it makes it a quarter ("Q4 2024")."""

from __future__ import annotations

from perfledger.schemas.precisions import find_precisions
from tests.schemas.page_reading import fields_by_raw_value

# As EricLBuehler/mistral.rs' releases/v0.8.2/report.md compares its UQFF quantizations with
# llama.cpp's GGUF ones, in its appendix's full tables.
MISTRALRS_APPENDIX = """# mistral.rs v0.8.2 Report

## Appendix: Full Tables

All appendix values are tokens per second. The speedup column is mistral.rs divided by the \
comparison engine in the same row.

### GB10

#### Gemma 4 E4B

##### Q4_K_M Prefill

| Length | mistral.rs UQFF q4 | llama.cpp GGUF Q4_K_M | mistral.rs speedup |
|---:|---:|---:|---:|
| 128 | 4643.5 | 3170.7 | 1.465x |
| 512 | 7747.0 | 4666.9 | 1.660x |

##### Q8_0 Prefill

| Length | mistral.rs UQFF q8 | llama.cpp GGUF Q8_0 | mistral.rs speedup |
|---:|---:|---:|---:|
| 128 | 3657.1 | 2645.4 | 1.382x |
"""


def test_a_bare_quantization_type_in_a_header_is_the_weights_dtype():
    found = fields_by_raw_value(
        MISTRALRS_APPENDIX, "column_name", "value", "weight_dtype", "accelerator"
    )
    assert found["4643.5"] == ("mistral.rs UQFF q4", 4643.5, "int4", "GB10")
    assert found["3170.7"] == ("llama.cpp GGUF Q4_K_M", 3170.7, "int4", "GB10")
    assert found["3657.1"] == ("mistral.rs UQFF q8", 3657.1, "int8", "GB10")


def test_a_year_after_a_bare_type_makes_it_a_quarter():
    assert find_precisions("Q4 2024 results") == ()
    assert find_precisions("Q3 FY25") == ()
    assert [p.weight for p in find_precisions("mistral.rs UQFF q8")] == ["int8"]
