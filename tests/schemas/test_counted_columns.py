"""A column headed by a count of what a run processed ("Tokens" beside a model's checkpoints)
holds settings of the run, never results: it takes no metric from the page's prose."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value

# As TinyLlama's README (jzhang38/TinyLlama) opens and lists its checkpoints: the prose
# states a time to train in days; the "Tokens" column counts the tokens each checkpoint saw.
TINYLLAMA_CHECKPOINTS = """# TinyLlama-1.1B

The TinyLlama project aims to **pretrain** a **1.1B Llama model on 3 trillion tokens**. With
some proper optimization, we can achieve this within a span of "just" 90 days using 16
A100-40G GPUs.

#### Releases Schedule

| Date       | HF Checkpoint                                   | Tokens | Step | Commonsense Avg |
|------------|-------------------------------------------------|--------|------| --------------- |
| 2023-09-01 | Pythia-1.0B                                     | 300B   | 143k   | 48.30 |
| 2023-09-16 | TinyLlama-1.1B-intermediate-step-240k-503b      | 503B   | 240K    | 48.28 |
| 2023-10-01 | TinyLlama-1.1B-intermediate-step-480k-1T        | 1T     | 480k | 50.22 |
"""


def test_a_column_of_tokens_seen_holds_no_result():
    values = fields_by_raw_value(TINYLLAMA_CHECKPOINTS, "column_name", "metric")
    assert not {raw for raw, (column, _) in values.items() if column in ("Tokens", "Step")}
    assert "503B" not in values and "1T" not in values
