"""Pages where people write up the runs they made on their own hardware: a llama.cpp
quantization type heading a table ("Q4_K_M (4-bit Quantization)"), a time per sample
("Avg Time/Sample"), a speech model's transcription time, and a table quoted in a
blockquote."""

from __future__ import annotations

from perfledger.schemas.header_reading import read_header
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As a report of a model's benchmark scores per quantization writes it: the llama.cpp
# quantization type in the heading, the scores and the time each sample took under it.
QUANTIZATION_HEADING = """#### Q4_K_M (4-bit Quantization)

| Benchmark | Accuracy | Passed | Total | Avg Time/Sample |
|-----------|----------|--------|-------|-----------------|
| HumanEval | 50.61% | 83 | 164 | 8.5s |
| HellaSwag | 86.00% | 86 | 100 | 22.3s |
| BFCL | 63.00% | 252 | 400 | 16.41s |
"""


def test_a_quantization_type_written_with_underscores_in_a_heading_is_its_precision():
    # "Q4_K_M" was taken for an identifier in code ("train_llama3_8b.sh") and dropped
    found = fields_by_raw_value(QUANTIZATION_HEADING, "metric", "precision", "weight_dtype")
    assert found["50.61%"] == ("accuracy", "Q4_K_M", "int4")
    assert found["63.00%"] == ("accuracy", "Q4_K_M", "int4")


def test_a_time_per_sample_written_with_a_slash_is_a_latency():
    # it was given the table's accuracy and quarantined for its unit
    found = fields_by_raw_value(QUANTIZATION_HEADING, "metric", "statistic", "value", "unit")
    assert found["8.5s"] == ("latency", "mean", 8500.0, "ms")
    assert found["16.41s"] == ("latency", "mean", 16410.0, "ms")
    assert read_header("time/token").role == "latency"


# As a student's answer about on-device speech recognition writes it, quoted in a
# blockquote: three Whisper sizes transcribing one recording on a Raspberry Pi.
QUOTED_TABLE = """**Report the real-time factor for each.**

> I recorded 5 seconds saying *"This is a test, this is a test, testing now."* \
([speech-scripts/test.wav](speech-scripts/test.wav)) and transcribed it on the Pi 5 with three \
model sizes (int8, beam=1):
>
> | Model | Transcript | Transcription time | Real-time factor |
> |---|---|---|---|
> | tiny.en | "This is a **task**, this is a **task** testing now." | 1.09s | 0.22x |
> | base.en | "This is a **test**, this is a **test** testing now." | 2.15s | 0.43x |
> | small.en | "this is a **task** this is a **task** testing now" | 5.76s | 1.15x |
"""


def test_a_table_quoted_in_a_blockquote_loads_as_it_shows():
    result = normalized(QUOTED_TABLE)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(QUOTED_TABLE, "metric", "value", "unit", "model", "precision")
    assert found["1.09s"] == ("latency", 1090.0, "ms", "tiny.en", "int8")
    assert found["5.76s"] == ("latency", 5760.0, "ms", "small.en", "int8")


def test_the_time_a_task_of_inference_takes_is_a_latency():
    for header in ("Transcription time", "Generation time", "Prefill time", "Encoding time"):
        assert read_header(header).role == "latency", header
