"""Memory columns of diffusion speed tables, written as their READMEs write them: an arrow
saying which way is better after the header, and the memory each image takes ("GB/im")."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As ToMe for SD's README writes its results: "↓" after each header (lower is better), the
# time per image in "s/im" and the memory per image in "GB/im".
MEMORY_PER_IMAGE = """## What is ToMe for SD?

Here are results with FID scores vs. time and memory usage (lower is better) when using Stable Diffusion v1.5 to generate 512x512 images of ImageNet-1k classes on a 4090 GPU with 50 PLMS steps using fp16:

| Method                      | r% | FID ↓  | Time (s/im) ↓            | Memory (GB/im) ↓        |
|-----------------------------|----|:------|:--------------------------|:------------------------|
| Baseline _(Original Model)_ | 0  | 33.12 | 3.09                      | 3.41                    |
| w/ **ToMe for SD**        | 10 | 32.86 | 2.56 (**1.21x** _faster_) | 2.99 (**1.14x** _less_) |
|                             | 60 | 33.37 | 1.52 (**2.03x** _faster_) | 0.60 (**5.68x** _less_) |
"""


def test_memory_per_image_under_an_arrow_is_a_memory_in_gb_per_image():
    found = fields_by_raw_value(MEMORY_PER_IMAGE, "column_name", "metric", "value", "unit")
    assert found["3.41"] == ("Memory (GB/im) ↓", "other", 3.41, "GB/image")
    assert found["3.09"] == ("Time (s/im) ↓", "latency", 3090.0, "ms")


def test_memory_beside_a_gain_keeps_its_unit():
    rows = [
        row
        for row in normalized(MEMORY_PER_IMAGE).measurements.iter_rows(named=True)
        if row["raw_value"] == "0.60 (5.68x less)" and row["metric"] == "other"
    ]
    assert [(row["value"], row["unit"]) for row in rows] == [(0.6, "GB/image")]
