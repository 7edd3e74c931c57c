"""Speed tables of speech recognition projects, written as their READMEs write them: a CPU's
real-time factors per number of concurrent tasks under a model's heading, each task count with
its runtime and precision in brackets, and a transcription's time rounded, then spelled out
in minutes and seconds."""

from __future__ import annotations

from tests.schemas.page_reading import fields_by_raw_value, normalized

# As FunASR's "CPU Benchmark (ONNX-python)" writes it: the model in a heading, the CPU in the
# heading of each table, and the precision of each row in brackets after its task count; the
# prose above names the int8 model's accuracy.
CONCURRENT_TASKS = """# CPU Benchmark (ONNX-python)

## [Paraformer-large](https://www.modelscope.cn/models/iic/speech_paraformer-large_asr_nat-zh-cn-16k-common-vocab8404-pytorch/summary)

CER after int8-quant: 1.95%

### Intel(R) Xeon(R) Platinum 8369B CPU @ 2.90GHz   16core-32processor    with avx512_vnni

| concurrent-tasks | processing time(s) |   RTF   | Speedup Rate |
|:----------------:|:------------------:|:-------:|:------------:|
|  1 (onnx fp32)   |        2806        | 0.0777  |     12.9     |
|  1 (onnx int8)   |        1611        | 0.0446  |     22.4     |
|  8 (onnx fp32)   |        538         | 0.0149  |     67.1     |
"""


def test_a_count_of_concurrent_tasks_is_a_setting_and_its_brackets_name_the_precision():
    found = fields_by_raw_value(
        CONCURRENT_TASKS, "model", "dataset", "settings", "precision", "metric", "unit"
    )
    assert found["0.0777"] == (
        "Paraformer-large",
        None,
        "concurrent-tasks=1 (onnx fp32)",
        "fp32",
        "other",
        "RTF",
    )
    assert found["0.0446"] == (
        "Paraformer-large",
        None,
        "concurrent-tasks=1 (onnx int8)",
        "int8",
        "other",
        "RTF",
    )
    assert found["67.1"][2:4] == ("concurrent-tasks=8 (onnx fp32)", "fp32")


# As insanely-fast-whisper's README writes it: the time to transcribe in minutes, rounded, then
# the exact time in minutes and seconds in brackets.
SPELLED_TIMES = """## Insanely Fast Whisper

On an Nvidia A100 - 80GB:

| Optimisation type    | Time to Transcribe (150 mins of Audio) |
|------------------|------------------|
| large-v3 (Transformers) (`fp32`)             | ~31 (*31 min 1 sec*)             |
| **large-v3 (Transformers) (`fp16` + `batching [24]` + `Flash Attention 2`)** | **~2 (*1 min 38 sec*)**            |
| **distil-large-v2 (Transformers) (`fp16` + `batching [24]` + `Flash Attention 2`)** | **~1 (*1 min 18 sec*)**           |
"""


def test_a_time_spelled_in_minutes_and_seconds_in_brackets_is_read_whole():
    page = fields_by_raw_value(SPELLED_TIMES, "raw_value")
    values = {
        (row["raw_value"], row["approximate"]): (row["value"], row["unit"])
        for row in normalized(SPELLED_TIMES).measurements.iter_rows(named=True)
    }
    assert set(page) == {"~31 (31 min 1 sec)", "~2 (1 min 38 sec)", "~1 (1 min 18 sec)"}
    assert values[("~2 (1 min 38 sec)", False)] == (98000.0, "ms")
    assert values[("~2 (1 min 38 sec)", True)] == (120000.0, "ms")
    assert values[("~31 (31 min 1 sec)", False)] == (1861000.0, "ms")
    assert values[("~1 (1 min 18 sec)", False)] == (78000.0, "ms")


def test_a_distilled_whisper_named_by_its_size_is_that_model():
    found = fields_by_raw_value(SPELLED_TIMES, "model_canonical")
    assert found["~1 (1 min 18 sec)"] == ("Distil-Whisper Large v2",)


# As FunASR's llama.cpp runtime benchmarks write them: a speed as a multiple of real time
# ("~20× real-time") beside word error rates.
TIMES_REAL_TIME = """## Results

| system | **CER** (micro, normalize_zh) ↓ | speed ↑ | size |
|---|---|---|---|
| **FunASR SenseVoiceSmall** | **7.81** (fp32 ref) / **8.17** (Q8 runtime) | **~20× real-time** | 449 MB (f16) |
| **FunASR Paraformer** | **10.18** (fp32 ref) / **9.89** (Q8 runtime) | **~21× real-time** | 401 MB (f16) |
"""


def test_a_multiple_of_real_time_is_a_speed_in_times_real_time():
    found = fields_by_raw_value(TIMES_REAL_TIME, "value", "unit", "approximate")
    assert found["~20× real-time"] == (20.0, "RTFx", True)
    assert found["~21× real-time"] == (21.0, "RTFx", True)


# As FunASR's notes on reproducing its speeds write them: a run's RTFx and its CER in one cell.
SPEED_AND_ERROR = """## Current Public vLLM Benchmark Scope

| Field | Value |
|-------|-------|
| Fun-ASR-Nano vLLM batch result | `RTFx 340`, CER `8.20%` |
| Fun-ASR-Nano PyTorch baseline | `RTFx 21`, CER `8.06%` |
"""


def test_values_each_after_its_name_in_one_cell_all_load():
    rows = normalized(SPEED_AND_ERROR).measurements.sort("line_number", "value")
    found = [(row["value"], row["unit"], row["qualifier"]) for row in rows.iter_rows(named=True)]
    assert found == [
        (8.2, "%", "CER"),
        (340.0, "rtfx", None),
        (8.06, "%", "CER"),
        (21.0, "rtfx", None),
    ]


# As sherpa's Sphinx docs write a voice's page: the voice played in a `.. raw:: html` table,
# then its real-time factor on a board per number of threads in a grid table.
RAW_HTML_THEN_GRID = """vits-melo-tts-zh_en (Chinese + English, 1 speaker)
---------------------------------------------------

This model is converted from `<https://huggingface.co/myshell-ai/MeloTTS-Chinese>`_
and it supports only 1 speaker. It supports both Chinese and English.

Note that if you input English words, only those that are present in the ``lexicon.txt``
can be pronounced. See
`<https://github.com/k2-fsa/sherpa-onnx/pull/1209>`_
for how to add new words.

.. raw:: html

  <table>
    <tr>
      <th>Wave filename</th>
      <th>Content</th>
    </tr>
    <tr>
      <td>zh-en-3.wav</td>
      <td>Your browser does not support the <code>audio</code> element.</td>
    </tr>
  </table>

RTF on Raspberry Pi 4 Model B Rev 1.5
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

We use the following command to test the RTF of this model on Raspberry Pi 4 Model B Rev 1.5:

The results are given below:

  +-------------+-------+-------+-------+-------+
  | num_threads | 1     | 2     | 3     | 4     |
  +=============+=======+=======+=======+=======+
  | RTF         | 6.727 | 3.877 | 2.914 | 2.518 |
  +-------------+-------+-------+-------+-------+
"""


def test_html_a_sphinx_page_embeds_leaves_it_a_sphinx_page():
    for content_type in ("text/x-rst", None):
        page = normalized(RAW_HTML_THEN_GRID, content_type)
        found = {
            row["raw_value"]: (row["metric"], row["unit"], row["accelerator"])
            for row in page.measurements.iter_rows(named=True)
        }
        assert found == {
            "6.727": ("other", "RTF", "BCM2711"),
            "3.877": ("other", "RTF", "BCM2711"),
            "2.914": ("other", "RTF", "BCM2711"),
            "2.518": ("other", "RTF", "BCM2711"),
        }


# As sherpa's RKNN page writes it: a list-table whose header cells are line blocks, each
# naming a device and the model's precision on two lines.
LINE_BLOCK_HEADERS = """Speed test
----------

The results are summarized in the following table. We use the following command to test
the RTF of this model on the board, and it supports both Chinese and English.

.. list-table::

 * -
   - | 1 Cortex A55 CPU
     | with ``int8 ONNX`` model
   - | 1 Cortex A76 CPU
     | with ``int8 ONNX`` model
   - 1 RK3588 NPU
 * - RTF
   - 0.440
   - 0.100
   - 0.129

You can find detailed test commands below.
"""


def test_a_line_block_in_a_list_table_cell_reads_as_its_lines():
    rows = normalized(LINE_BLOCK_HEADERS, "text/x-rst").measurements.iter_rows(named=True)
    found = {
        row["raw_value"]: (row["column_name"], row["accelerator"], row["precision"]) for row in rows
    }
    assert found["0.440"] == ("1 Cortex A55 CPU with int8 ONNX model", "A55", "int8")
    assert found["0.100"] == ("1 Cortex A76 CPU with int8 ONNX model", "A76", "int8")
    assert found["0.129"] == ("1 RK3588 NPU", "RK3588", None)


def test_a_corner_naming_a_setting_gives_each_column_its_value():
    rows = normalized(RAW_HTML_THEN_GRID, "text/x-rst").measurements.iter_rows(named=True)
    found = {row["raw_value"]: row["settings"] for row in rows}
    assert found == {
        "6.727": "num_threads=1",
        "3.877": "num_threads=2",
        "2.914": "num_threads=3",
        "2.518": "num_threads=4",
    }


# As WeNet's GPU runtime README writes its error rates per left-chunk setting: a row holding
# only a test set's name ("| DEV |") heads the rows under it.
LONE_GROUP_LABELS = """#### Dynamic Left Chunks
For online model, training with dynamic left chunk option on will help further improve the
model accuracy. Let's take a look at the below table.

**WenetSpeech**
chunksize = 16
|Scoring                | left-full | left-8 | left-4 | left-2 | left-1 | left-0 |
|-----------------------|-----------|--------|--------|--------|--------|--------|
| DEV |
|ctc greedy             | 9.16        | 9.19   |9.12      |9.05    |9.08      | 9.3    |
| Test Meeting |
| ctc greedy              |18.43        |18.47     |18.53      |18.81     |19.27      |20.37   |
"""


def test_a_label_alone_on_its_row_heads_the_rows_under_it():
    page = normalized(LONE_GROUP_LABELS)
    found = fields_by_raw_value(LONE_GROUP_LABELS, "table_title", "column_name")
    assert found["9.16"] == ("WenetSpeech — DEV", "left-full")
    assert found["20.37"] == ("WenetSpeech — Test Meeting", "left-0")
    assert page.measurements.height == 12
    assert page.quarantine.height == 0


# As WeNet's GPU runtime README writes its streaming model's speeds: the number of left chunks
# the model attends to, a setting, spanning the rows of two decoders.
LEFT_CHUNKS = """### Online Model Perf
* Aishell2, FP16, onnx, [U2++ Conformer](http://mobvoi-speech-public.ufile.ucloud.cn/public/wenet/aishell2/20210618_u2pp_conformer_exp.tar.gz)
Our chunksize is 16 * 4 * 10 = 640 ms, so we should care about the perf of latency less than 640ms so that it can be a realtime application.

<table border='0' cellpadding='0' cellspacing='0'>
<tr id='r0'>
<td>Model</td>
<td>Num Left Chunks</td>
<td>Concurrency</td>
<td>Avg Latency (ms)</td>
<td>Latency P95 (ms)</td>
<td>Latency P99 (ms)</td>
<td>Throughput (infer/s)</td>
<td>Platform</td>
 </tr>
 <tr id='r1'>
<td rowspan='2' class='x21'>ctc prefix beam search</td>
<td rowspan='4' class='x21'>5</td>
<td>50</td>
<td>78</td>
<td>110</td>
<td>134</td>
<td>644</td>
<td rowspan='4' class='x21'>onnx</td>
 </tr>
 <tr id='r2'>
<td>100</td>
<td>124</td>
<td>155</td>
<td>192</td>
<td>805</td>
 </tr>
</table>
"""


def test_a_count_of_chunks_is_a_setting_not_a_latency():
    page = normalized(LEFT_CHUNKS)
    found = {
        row["raw_value"]: (row["metric"], row["settings"])
        for row in page.measurements.iter_rows(named=True)
    }
    assert found["78"] == ("latency", "Num Left Chunks=5; Concurrency=50")
    assert found["805"] == ("throughput", "Num Left Chunks=5; Concurrency=100")
    assert page.measurements.height == 8
    assert page.quarantine.height == 0


# As FunASR's vLLM guide writes its benchmark: a Notes column stating the speedup a row's
# speed makes ("16x speedup") beside columns naming their own metrics.
STATED_SPEEDUP = """# Fun-ASR-Nano vLLM Guide

**Test set**: 184 files, 11,541 seconds total. Models: Fun-ASR-Nano / GLM-ASR-Nano.

## Benchmark

| Model | Engine | VAD | RTFx | CER | Notes |
|-------|--------|-----|------|-----|-------|
| Fun-ASR-Nano | PyTorch | dynamic | 21 | 8.06% | Baseline |
| Fun-ASR-Nano | **vLLM batch** | dynamic | **340** | **8.20%** | 16x speedup |
"""


def test_a_note_stating_a_speedup_leaves_the_columns_their_metrics():
    found = fields_by_raw_value(STATED_SPEEDUP, "metric", "value", "unit")
    assert found["340"] == ("other", 340.0, "RTFx")
    assert found["8.20%"] == ("accuracy", 8.2, "%")
    assert found["21"] == ("other", 21.0, "RTFx")
