"""Speed tables of molecular dynamics and protein structure runs on GPUs, written as their
READMEs write them: simulated nanoseconds per day ("ns/day") beside timesteps per second and
atom-steps per second, the system's size in atoms as a setting, how the run is laid out on a
cluster ("Threads/rank", "ntasks", "cpus-per-task") and times counted in GPU seconds."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As lammps-ani's benchmark README writes its strong scaling: atoms and GPUs, then ns/day,
# timesteps per second and million atom-steps per second.
STRONG_SCALING = """## Strong Scaling

| atoms     | num_gpus | ns/day | timesteps/s | Matom_step/s |
|-----------|----------|--------|-------------|--------------|
| 100002    | 1        | 1.495  | 34.618      | 3.462        |
| 100002    | 8        | 7.663  | 177.377     | 17.738       |
| 100002    | 16       | 9.69   | 224.308     | 22.431       |
"""


def test_ns_per_day_is_simulated_time_per_day_not_a_scaling_factor():
    found = fields_by_raw_value(
        STRONG_SCALING, "metric", "value", "unit", "accelerator_count", "settings"
    )
    assert found["1.495"] == ("other", 1.495, "ns/day", 1, "atoms=100002")
    assert found["7.663"] == ("other", 7.663, "ns/day", 8, "atoms=100002")
    assert found["34.618"] == ("throughput", 34.618, "items/s", 1, "atoms=100002")


def test_million_atom_steps_per_second_is_a_throughput():
    found = fields_by_raw_value(STRONG_SCALING, "metric", "value", "unit", "accelerator_count")
    assert found["3.462"] == ("throughput", 3462000.0, "items/s", 1)
    assert found["17.738"] == ("throughput", 17738000.0, "items/s", 8)
    assert normalized(STRONG_SCALING).measurements.height == 9


# As a LAMMPS benchmark report writes each benchmark: its metrics, then the atoms simulated
# in the last column.
EAM = """### EAM Benchmark

| Configuration | Loop Time (s) | Timesteps/sec | ns/day | hours/ns | atom-steps/sec | Atoms |
|---------------|---------------|---------------|--------|----------|----------------|-------|
| CPU-1 | 2.26361 | 44.177 | 19.085 | 1.258 | 1413664 | 32000 |
"""


def test_atoms_after_the_metrics_are_a_setting_and_hours_per_ns_keeps_its_unit():
    found = fields_by_raw_value(EAM, "metric", "value", "unit", "settings")
    assert found["19.085"] == ("other", 19.085, "ns/day", "Atoms=32000")
    assert found["1.258"] == ("other", 1.258, "hours/ns", "Atoms=32000")
    assert found["1413664"] == ("throughput", 1413664.0, "items/s", "Atoms=32000")
    assert "32000" not in found
    quarantine = normalized(EAM).quarantine
    assert quarantine.height == 0


# As AlphaFold 3's performance page compares one A100 with sixteen, in GPU seconds.
GPU_SECONDS = """## Model Inference

We compare compile-free inference timings of these two setups in the table below
using GPU seconds (i.e. multiplying by 16 when using 16 A100s).

Num Tokens | 1 A100 80 GB (GPU secs) | 16 A100 40 GB (GPU secs) | Improvement
:--------- | ----------------------: | -----------------------: | ----------:
1024       | 62                      | 352                      | 5.7×
"""


def test_gpu_seconds_are_a_time_not_a_count_of_gpus():
    found = fields_by_raw_value(
        GPU_SECONDS, "metric", "value", "unit", "accelerator", "accelerator_count"
    )
    assert found["62"] == ("latency", 62000.0, "ms", "A100", 1)
    assert found["352"] == ("latency", 352000.0, "ms", "A100", 16)
    assert found["5.7×"][:3] == ("speedup", 5.7, "x")
    assert normalized(GPU_SECONDS).quarantine.height == 0


# As GROMACS benchmark READMEs lay out their runs: MPI ranks and threads per rank, Slurm's
# ntasks and cpus-per-task, and GROMACS's nstlist beside the ns/day.
CLUSTER_LAYOUT = """# GROMACS

| Version  | Benchmark        | System | MPI ranks | Threads/rank | GPUs | Performance (ns/day) |
|----------|------------------|--------|-----------|--------------|------|----------------------|
| `2026.0` | `stmv.tpr`       | LUMI   | 8         | 7            | 8    | 110.446              |

| cluster               | wall time (s)  | ns/day   |  ntasks  |  cpus-per-task  |  GPUs |
|:----------------------|----------:|--------------:|:--------:|:---------------:|:-----:|
| adroit (v100)         |    10.5   | 163.9         |   1      | 1               | 1     |

| GCDs | Bonded | nstlist |  Performance (ns/day) |
|------|--------|---------|-----------------------|
|  8   |  gpu   | 400     |  79.709               |
"""


def test_ranks_tasks_and_nstlist_are_settings_of_the_run():
    found = fields_by_raw_value(CLUSTER_LAYOUT, "metric", "value", "unit", "settings")
    assert found["110.446"][:3] == ("other", 110.446, "ns/day")
    assert "Threads/rank=7" in found["110.446"][3]
    assert found["163.9"][:3] == ("other", 163.9, "ns/day")
    assert "ntasks=1" in found["163.9"][3] and "cpus-per-task=1" in found["163.9"][3]
    assert found["79.709"][:3] == ("other", 79.709, "ns/day")
    assert "nstlist=400" in found["79.709"][3]
    frame = normalized(CLUSTER_LAYOUT)
    assert set(frame.measurements.get_column("metric")) <= {"other", "time_to_train"}
    assert frame.quarantine.height == 0


# As lammps-ani compares its potential with Allegro: the model in a "Name" column.
MODELS_COMPARED = """## Strong Scaling

For comparative purposes, consider the following:

| Name    | # of Atoms | System | # of GPUs | Speed (timesteps/sec) | Precision |
|---------|------------|--------|-----------|-----------------------|-----------|
| ANI     | 100K       | Water  | 4         | 112                   | FP32      |
| Allegro | 100K       | Water  | 256       | ~110                  | TF32      |
"""


def test_machine_learned_potentials_are_models():
    found = fields_by_raw_value(
        MODELS_COMPARED, "model", "metric", "value", "accelerator_count", "precision"
    )
    assert found["112"] == ("ANI", "throughput", 112.0, 4, "FP32")
    assert found["~110"] == ("Allegro", "throughput", 110.0, 256, "TF32")


# As DeePMD-kit's parallel training page writes its scaling test: each card's samples per
# second times the number of cards.
EACH_CARD = """## Scaling test

| Num of GPU cards | Samples per batch | Seconds every 100 batches | Samples per second | Speed up |
| ---------------- | ----------------- | ------------------------- | ------------------ | -------- |
| 1                | 1                 | 1.4515                    | 68.89              | 1.00     |
| 2                | 2                 | 1.5962                    | 62.65\\*2           | 1.82     |
| 4                | 4                 | 1.7635                    | 56.71\\*4           | 3.29     |
"""


def test_a_rate_of_each_card_is_the_rate_per_card():
    found = fields_by_raw_value(
        EACH_CARD, "metric", "value", "qualifier", "accelerator_count", "value_per_accelerator"
    )
    assert found["68.89"] == ("throughput", 68.89, None, 1, 68.89)
    assert found["62.65*2"] == ("throughput", 62.65, "each of 2", 2, 62.65)
    assert found["56.71*4"] == ("throughput", 56.71, "each of 4", 4, 56.71)


# As a LAMMPS ReaxFF scaling report compares one CPU core with one GPU: the time of each.
ONE_GPU_TIME = """## GPU Speedup Analysis

| Replicate | Atoms | CPU-1 (s) | GPU-1 (s) | Speedup |
|-----------|-------|-----------|-----------|---------|
| 3x3x3 | 8208 | 34.1324 | 34.5569 | .98x |
| 4x4x4 | 19456 | 77.2107 | 77.2951 | .99x |
"""


def test_the_time_of_a_run_on_one_gpu_is_a_time():
    found = fields_by_raw_value(ONE_GPU_TIME, "metric", "value", "unit")
    assert found["34.1324"] == ("latency", 34132.4, "ms")
    assert found["34.5569"] == ("latency", 34556.9, "ms")
    assert found["77.2951"] == ("latency", 77295.1, "ms")
    assert found[".98x"] == ("speedup", 0.98, "x")
    assert normalized(ONE_GPU_TIME).quarantine.height == 0
