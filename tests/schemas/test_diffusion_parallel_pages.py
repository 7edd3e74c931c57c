"""Speed tables of diffusion-model inference spread over several GPUs, written as their
READMEs write them: the degree of each kind of parallelism as a column beside the time, and
the time under a column headed "Times"."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As xDiT's ConsisID performance report writes it: a degree per kind of parallelism
# (Ulysses, Ring, CFG) beside the number of GPUs, and the time of one video under "Times".
PARALLEL_DEGREES = """## ConsisID Performance Report

In this study, we systematically evaluate xDiT's acceleration performance across 1 to 6 Nvidia H100 GPUs.

As shown in the table, the ConsisID model achieves a significant reduction in inference latency with Ulysses Attention, Ring Attention, or Classifier-Free Guidance (CFG) parallelization.

### 720x480 Resolution (49 frames, 50 steps)

| N-GPUs | Ulysses Degree | Ring Degree | Cfg Parallel |  Times  |
| :----: | :------------: | :---------: | :----------: | :-----: |
|   6    |       2        |      3      |      1       | 44.89s  |
|   6    |       1        |      3      |      2       | 35.78s  |
|   1    |       1        |      1      |      1       | 114.87s |
"""


def test_degrees_of_parallelism_are_settings_and_times_are_latencies():
    found = fields_by_raw_value(
        PARALLEL_DEGREES, "metric", "value", "unit", "accelerator_count", "settings"
    )
    assert found["44.89s"] == (
        "latency",
        44890.0,
        "ms",
        6,
        "Ulysses Degree=2; Ring Degree=3; Cfg Parallel=1",
    )
    assert found["35.78s"][:4] == ("latency", 35780.0, "ms", 6)
    assert found["114.87s"] == (
        "latency",
        114870.0,
        "ms",
        1,
        "Ulysses Degree=1; Ring Degree=1; Cfg Parallel=1",
    )
    frame = normalized(PARALLEL_DEGREES).measurements
    assert frame.height == 3  # no degree is a value


# As xDiT's SANA report writes it: bare "ulysses" beside "pp" over the degrees.
BARE_ULYSSES = """## Performance of SANA

We use the open-source version of `Sana_1600M_4Kpx_BF16_diffusers` for performance evaluation.

Currently, xDiT supports acceleration for SANA with Pipefusion, Ulysses, Ring, CFG, and any combination thereof. We tested latency on an 8xA100 (NVLink) machine by generating 4096x4096 images with 20 steps. The measured latencies are shown in the table below.

| #GPUs | ulysses | pp | Latency (seconds) |
|---|---|---|---|
| 1 | 1 | 1 | 17.551 |
| 2 | 1 | 2 | 11.276 |
| 2 | 2 | 1 | 10.175 |
| 8 | 1 | 4 | 4.050 |
| 8 | 2 | 1 | 3.991 |
"""


def test_a_bare_ulysses_column_is_a_degree_of_parallelism():
    found = fields_by_raw_value(BARE_ULYSSES, "metric", "value", "accelerator_count", "settings")
    assert found["17.551"] == ("latency", 17551.0, 1, "ulysses=1; pp=1")
    assert found["10.175"] == ("latency", 10175.0, 2, "ulysses=2; pp=1")
    assert found["4.050"] == ("latency", 4050.0, 8, "ulysses=1; pp=4")
    assert normalized(BARE_ULYSSES).measurements.height == 5


# As xDiT's HunyuanVideo report writes it: one row per GPU type, one column per number of
# GPUs ("2 GPUs"); the row "H100" names a chip a vocabulary knows as a one-GPU platform.
GPUS_PER_COLUMN = """## HunyuanVideo Performance Report

### 1280x720 Resolution (129 frames, 50 steps) - Ulysses Latency (seconds)

| GPU Type | 1 GPU | 2 GPUs | 4 GPUs | 8 GPUs |
|----------|--------|---------|---------|---------|
| H100 | 1,904.08 | 925.04 | 514.08 | 337.58 |
| H20 | 6,639.17 | 3,400.55 | 1,762.86 | 940.97 |
| L20 | 6,043.88 | 3,271.44 | 2,080.05 | |
"""


def test_a_columns_count_of_gpus_outweighs_the_one_gpu_a_chip_name_implies():
    found = fields_by_raw_value(GPUS_PER_COLUMN, "accelerator", "accelerator_count", "value")
    assert found["1,904.08"] == ("H100", 1, 1904080.0)
    assert found["925.04"] == ("H100", 2, 925040.0)
    assert found["514.08"] == ("H100", 4, 514080.0)
    assert found["337.58"] == ("H100", 8, 337580.0)
    assert found["940.97"] == ("H20", 8, 940970.0)
    assert found["2,080.05"] == ("L20", 4, 2080050.0)


# As TeaCache's CogVideoX1.5 README writes it: one row of times, the first under the model's
# own name (the baseline), the others under each threshold of the cache.
BASELINE_FIRST = """# TeaCache4CogVideoX1.5

## 📈 Inference Latency Comparisons on a Single H100 GPU

| CogVideoX1.5-t2v | TeaCache (0.1) | TeaCache (0.2) | TeaCache (0.3) |
| :--------------: | :------------: | :------------: | :------------: |
|      ~465 s      |     ~322 s     |     ~260 s     |     ~204 s     |
"""


def test_times_under_the_first_columns_name_are_the_baselines_results():
    found = fields_by_raw_value(BASELINE_FIRST, "column_name", "model", "metric", "value")
    assert found["~465 s"] == ("CogVideoX1.5-t2v", "CogVideoX1.5-t2v", "latency", 465000.0)
    assert found["~322 s"] == ("TeaCache (0.1)", "CogVideoX1.5-t2v", "latency", 322000.0)
    assert found["~204 s"] == ("TeaCache (0.3)", "CogVideoX1.5-t2v", "latency", 204000.0)
    assert normalized(BASELINE_FIRST).measurements.height == 4


# As TeaCache's Wan2.1 README writes its 14B model's times: in minutes ("~55 min").
MINUTES = """## 📈 Inference Latency Comparisons on a Single A800

|      Wan2.1 t2v 14B        |        TeaCache (0.14)       |    TeaCache (0.15)    |    TeaCache (0.2)     |
|:--------------------------:|:----------------------------:|:---------------------:|:---------------------:|
|         ~55 min            |        ~38 min               |     ~30 min           |     ~27 min           |
"""


def test_minutes_after_a_number_are_a_time_not_a_minimum():
    found = fields_by_raw_value(MINUTES, "column_name", "model", "value", "statistic")
    assert found["~55 min"] == ("Wan2.1 t2v 14B", "Wan2.1 t2v 14B", 3300000.0, None)
    assert found["~38 min"] == ("TeaCache (0.14)", "Wan2.1 t2v 14B", 2280000.0, None)
    assert found["~27 min"] == ("TeaCache (0.2)", "Wan2.1 t2v 14B", 1620000.0, None)


def test_a_video_or_image_diffusion_model_named_in_the_heading_is_the_values_model():
    assert fields_by_raw_value(PARALLEL_DEGREES, "model")["44.89s"] == ("ConsisID",)
    assert fields_by_raw_value(BARE_ULYSSES, "model")["17.551"] == ("SANA",)
    assert fields_by_raw_value(GPUS_PER_COLUMN, "model", "model_canonical")["925.04"] == (
        "HunyuanVideo",
        "HunyuanVideo",
    )
