"""The lines an inference benchmark tool prints per model (Tengine's tm_benchmark, ncnn's
benchncnn, MNN's benchmark), pasted inside fenced code as edge pages show them: read as a
results table, a row per model, a column per statistic. A metric's line of a log
("GPU Compute Time: min = ..."), a line of one statistic and a shell session stay code."""

from __future__ import annotations

from perfledger.sources.layouts.markdown_blocks import hidden_lines
from perfledger.sources.layouts.page_text import split_lines
from perfledger.sources.layouts.statistic_lines import find_statistic_lines
from tests.schemas.page_reading import fields_by_raw_value, normalized

# As OAID/Tengine writes it (benchmark/README.md, "Typical output"): the board above the code,
# the tool's settings printed above its lines, two runs in one block.
TM_BENCHMARK = """## Benchmark

Raspberry Pi 4B  (Cortex-A72 1.5GHZ x 4)

```bash
pi@raspberrypi:~/tengine-lite/build/install/bin $ ./tm_benchmark -r 5 -t 1 -p 0
loop_counts = 5
num_threads = 1
power       = 0
tengine-lite library version: 1.0-dev
     squeezenet_v1.1  min =  120.53 ms   max =  122.51 ms   avg =  121.46 ms
         mobilenetv1  min =  213.51 ms   max =  215.19 ms   avg =  214.09 ms
ALL TEST DONE
pi@raspberrypi:~/tengine-lite/build/install/bin $ ./tm_benchmark -r 5 -t 4 -p 0
loop_counts = 5
num_threads = 4
tengine-lite library version: 1.0-dev
     squeezenet_v1.1  min =   39.77 ms   max =   41.43 ms   avg =   40.47 ms
ALL TEST DONE
```
"""

# As alibaba/MNN's benchmark page of 2020-3-22 writes it: a line per model among the tool's
# log lines, its marker first, each value glued to its unit.
MNN_BENCHMARK = """### Mate30 Pro (Kirlin 990)
```
[MNNInfo]:*************set armv82 backend*************
[ - ] resnet-v2-50.mnn            max =   45.885ms  min =   39.539ms  avg =   40.194ms
parsed /proc/cpuinfo Hardware = "Hisilicon Kirin990"
```
"""

# As NVIDIA's DeepLearningExamples quote trtexec (GPUNet README): a metric's statistics in a
# log line, and settings of one value each.
LOG_LINES = """```
[04/07/2022-19:40:17] [I] GPU Compute Time: min = 0.554077 ms, max = 0.572388 ms, mean = 0.564606 ms
loss = 0.35
lr = 0.001   warmup = 100
```
"""


def _runs(page: str):
    lines = split_lines(page)
    return find_statistic_lines(lines, hidden_lines(lines, 0, []))


def test_each_run_of_a_tools_lines_is_a_table_of_a_row_per_model():
    runs = _runs(TM_BENCHMARK)
    assert [(run.statistics, len(run.rows)) for run in runs] == [
        (("min (ms)", "max (ms)", "avg (ms)"), 2),
        (("min (ms)", "max (ms)", "avg (ms)"), 1),
    ]
    assert runs[0].rows[1][1:] == ("mobilenetv1", ("213.51", "215.19", "214.09"))


def test_the_statistics_load_as_latencies_of_the_board_named_above_the_code():
    result = normalized(TM_BENCHMARK)
    assert result.quarantine.height == 0
    found = fields_by_raw_value(
        TM_BENCHMARK, "model", "metric", "statistic", "value", "unit", "accelerator"
    )
    assert found["121.46"] == ("squeezenet_v1.1", "latency", "mean", 121.46, "ms", "BCM2711")
    assert found["213.51"] == ("mobilenetv1", "latency", "min", 213.51, "ms", "BCM2711")
    assert found["41.43"] == ("squeezenet_v1.1", "latency", "max", 41.43, "ms", "BCM2711")
    assert result.measurements.height == 9


def test_a_line_among_log_lines_with_its_marker_and_glued_units_is_read():
    (run,) = _runs(MNN_BENCHMARK)
    assert run.statistics == ("max (ms)", "min (ms)", "avg (ms)")
    assert run.rows == ((3, "resnet-v2-50.mnn", ("45.885", "39.539", "40.194")),)


def test_a_metrics_log_line_and_single_settings_stay_code():
    assert _runs(LOG_LINES) == []
    assert normalized(LOG_LINES).measurements.height == 0


# The same page names its Loongson boards with a hyphen between maker and model token.
LOONGSON_RUN = """## Benchmark

Loongson (Loongson-3A4000 1.8GHz x 4)

```bash
lshf@lshf-PC:~/tengine$ ./tm_benchmark -r 5 -t 1 -a 1
tengine-lite library version: 1.2-dev
     squeezenet_v1.1  min =   89.81 ms   max =   93.23 ms   avg =   90.62 ms
```
"""


def test_a_makers_word_joined_by_a_hyphen_to_the_model_token_names_the_chip():
    found = fields_by_raw_value(LOONGSON_RUN, "accelerator", "vendor", "metric", "statistic")
    assert found["90.62"] == ("3A4000", "Loongson", "latency", "mean")
