"""Tables of accelerator vendors' technical blog posts written in Markdown (ROCm/rocm-blogs,
blogs/artificial-intelligence/): result tables under a title naming a family of chips, with the
one chip of the runs said in prose; quoted from the posts' own cells."""

from __future__ import annotations

from tests.schemas.page_reading import normalized

# As ROCm/rocm-blogs' eagle3-speculative-decoding post opens and gives its Kimi table (rows
# cut): the title names two chips as alternatives, the results section the one they ran on.
EAGLE3_KIMI = """# Accelerating Large-Scale LLM Inference on AMD Instinct MI350X/MI355X with Eagle3 and AMD Quark

## Acceleration Results

The following draft results section lists only the 1K/1K workload, with ISL=1024 and OSL=1024. Speedup is computed as Eagle3 throughput divided by the corresponding no-speculative-decoding baseline throughput. Kimi-K2.5 results use AMD Instinct MI355X, TP=4, random prompts, `num_prompts=10 x concurrency`, `num_warmups=2 x concurrency`, and 10 seeds per cell.

### Kimi K2.5 Eagle3: BF16 and AMD Quark FP8 Drafts

| Concurrency | No-spec (tok/s/GPU) | BF16 Eagle3 (tok/s/GPU) | FP8 Eagle3 (tok/s/GPU) |
|-------------|---------------------|-------------------------|------------------------|
| 4           | 82.7                | 157.0 (1.90x)           | 165.2 (2.00x)          |
| 64          | 533.3               | 901.6 (1.69x)           | 936.6 (1.76x)          |
"""


def test_a_title_naming_two_chips_as_alternatives_gives_way_to_the_chip_the_prose_names():
    read = normalized(EAGLE3_KIMI)
    rows = read.measurements
    assert rows.height == 10
    assert set(rows["accelerator"].to_list()) == {"MI355X"}
    assert set(rows["accelerator_count"].to_list()) == {4}
    by_raw = {
        (row["raw_value"], row["metric"]): (row["value"], row["precision"])
        for row in rows.iter_rows(named=True)
    }
    assert by_raw[("82.7", "throughput")] == (82.7, None)
    assert by_raw[("936.6 (1.76x)", "throughput")] == (936.6, "FP8")
    assert by_raw[("936.6 (1.76x)", "speedup")] == (1.76, "FP8")
