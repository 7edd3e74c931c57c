"""Reading gaps found on LLM inference benchmark pages of publishers not studied before: pipe
tables stacked under their headings with no blank line between."""

from __future__ import annotations

from perfledger.sources.parse import parse_document
from tests.schemas.page_reading import normalized

# As h2oai/h2ogpt's perf.md gives one table per model and number of GPUs, each right under its
# heading lines, no blank line anywhere on the page (two of its tables quoted, rows cut).
H2OGPT_PERF = """## Backend: transformers
### Model: h2oai/h2ogpt-4096-llama2-7b-chat
### Number of GPUs: 1
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    31.8619 |                        41.9433  |
|     16 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                    32.2947 |                        40.9252  |
|     16 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                    67.9752 |                        18.0571  |
|      8 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                   114.622  |                         9.21246 |
|      8 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    94.1774 |                         8.95532 |
|      8 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   185.146  |                         4.35807 |
|      4 | 1 x NVIDIA GeForce RTX 4090 (24564 MiB)        |                    39.544  |                        32.571   |
### Number of GPUs: 2
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 2 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    32.1395 |                        40.3871  |
|     16 | 2 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                    71.4808 |                        17.7518  |
|      8 | 2 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    95.7178 |                         9.06591 |
|      8 | 2 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   186.884  |                         4.35012 |
### Model: h2oai/h2ogpt-4096-llama2-13b-chat
### Number of GPUs: 1
|   bits | gpus                                           |   summarization time [sec] |   generation speed [tokens/sec] |
|-------:|:-----------------------------------------------|---------------------------:|--------------------------------:|
|     16 | 1 x NVIDIA RTX 6000 Ada Generation (49140 MiB) |                    52.4984 |                        26.2487  |
|     16 | 1 x NVIDIA GeForce RTX 3090 (24576 MiB)        |                   OOM      |                       OOM       |
"""


def test_pipe_tables_stacked_under_headings_without_blank_lines_are_read_as_tables():
    parsed, layout = parse_document(H2OGPT_PERF.encode(), "text/markdown")
    assert layout == "pipe_table"
    assert parsed.cells["table_index"].unique().sort().to_list() == [0, 1, 2]
    read = normalized(H2OGPT_PERF)
    # 13 rows of two results each: 24 values and the two OOM cells quarantined as placeholders
    assert read.measurements.height == 24
    assert sorted(read.quarantine["check"].to_list()) == ["placeholder_value"] * 2
    by_raw = {
        row["raw_value"]: (row["metric"], row["unit"], row["value"], row["accelerator"])
        + (row["accelerator_count"],)
        for row in read.measurements.iter_rows(named=True)
    }
    assert by_raw["40.3871"] == ("throughput", "items/s", 40.3871, "RTX 6000 Ada", 2)
    assert by_raw["186.884"] == ("latency", "ms", 186884.0, "RTX 3090", 2)
    assert by_raw["52.4984"] == ("latency", "ms", 52498.4, "RTX 6000 Ada", 1)
