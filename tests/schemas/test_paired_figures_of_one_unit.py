"""A cell of two figures of one unit parted by a spaced "/" ("115.5 tok/s / 110.4 tok/s",
"2964tps / 154tps"): two runs or two phases side by side, each a value of its own. Under a
header naming both in brackets ("Decode tok/s (Doppler/TJS)") each takes its name, else its
place ("1/2", "2/2"); a column of such cells is a column of results whatever its header's
word ("LLM"), and "- / -" publishes neither."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import normalized

# As clocksmith/doppler's docs/release-matrix.md compares its browser engine with
# Transformers.js: both decode rates, then both prompt rates, in one cell each.
DOPPLER_LANES = """# Release Matrix

## Local Claim Lanes

| Lane | Status | Backend | Surface | Workload | Decode tok/s (Doppler/TJS) | Prompt tok/s (Doppler/TJS) |
|---|---|---|---|---|---:|---:|
| `gemma-3-270m-it-q4k-rdrr` | candidate | chromium-webgpu | browser | p064-d064-t0-k1 | 175.8 tok/s / 107.1 tok/s | 1036.5 tok/s / 840.4 tok/s |
| `qwen-3-5-2b-q4k-rdrr` | candidate | chromium-webgpu | browser | p512-d128-t0-k1 | 56.5 tok/s / 41.5 tok/s | 446.8 tok/s / 9.608 tok/s |
"""  # noqa: E501

# As cactus-compute/cactus's README.md gives each device's prefill and decode rates.
CACTUS_SPEED = """# Cactus

## Inference Speed

- LLM: Gemma-4-E2B-CQ4 (1k-context prefill / decode for 100 tokens)

| Device | LLM | RAM |
|--------|-----|-----|
| Mac M5 Max | 2964tps / 154tps | 1348MB |
| iPhone 17 Pro | 729tps / 37tps | 644MB |
| Pixel 10 Pro | - / - | - |
"""


def _rows(page: str, column: str) -> list[tuple]:
    measurements = normalized(page).measurements
    rows = measurements.filter(measurements["column_name"] == column)
    return sorted(
        (row["raw_value"], row["qualifier"], row["metric"], row["value"], row["unit"])
        for row in rows.iter_rows(named=True)
    )


def test_each_figure_takes_the_name_the_headers_brackets_give_it():
    assert _rows(DOPPLER_LANES, "Decode tok/s (Doppler/TJS)") == [
        ("175.8 tok/s / 107.1 tok/s", "Doppler", "throughput", 175.8, "items/s"),
        ("175.8 tok/s / 107.1 tok/s", "TJS", "throughput", 107.1, "items/s"),
        ("56.5 tok/s / 41.5 tok/s", "Doppler", "throughput", 56.5, "items/s"),
        ("56.5 tok/s / 41.5 tok/s", "TJS", "throughput", 41.5, "items/s"),
    ]
    assert _rows(DOPPLER_LANES, "Prompt tok/s (Doppler/TJS)") == [
        ("1036.5 tok/s / 840.4 tok/s", "Doppler", "throughput", 1036.5, "items/s"),
        ("1036.5 tok/s / 840.4 tok/s", "TJS", "throughput", 840.4, "items/s"),
        ("446.8 tok/s / 9.608 tok/s", "Doppler", "throughput", 446.8, "items/s"),
        ("446.8 tok/s / 9.608 tok/s", "TJS", "throughput", 9.608, "items/s"),
    ]
    assert normalized(DOPPLER_LANES).quarantine.height == 0


def test_a_column_of_such_pairs_holds_results_each_named_by_its_place():
    assert _rows(CACTUS_SPEED, "LLM") == [
        ("2964tps / 154tps", "1/2", "throughput", 2964.0, "items/s"),
        ("2964tps / 154tps", "2/2", "throughput", 154.0, "items/s"),
        ("729tps / 37tps", "1/2", "throughput", 729.0, "items/s"),
        ("729tps / 37tps", "2/2", "throughput", 37.0, "items/s"),
    ]
    measurements = normalized(CACTUS_SPEED).measurements
    assert set(measurements["model"].drop_nulls()) == set()  # the rates name no model
    assert sorted(measurements["accelerator"].unique()) == ["A19 Pro", "M5 Max"]


def test_dashes_parted_by_a_slash_publish_nothing_and_figures_of_two_units_stay_two_kinds():
    assert read_cell("- / -").problem == "placeholder_value"
    time, rate = read_cell("0.09s / 168tps").values
    assert (time.number, time.unit.alias, rate.number, rate.unit.alias) == (0.09, "s", 168, "tps")
    assert rate.secondary and time.qualifier is None
