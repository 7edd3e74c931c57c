"""Speed tables of robotics perception pages: ROS nodes and graphs timed on each platform, the
platforms as column headers, each cell a frame rate over the latency of the same run written
one under the other ("90.8 fps<br>11 ms", "385 fps<br><br>2.9 ms @ 30Hz")."""

from __future__ import annotations

from perfledger.schemas.cell_reading import read_cell
from tests.schemas.page_reading import normalized

# As NVIDIA-ISAAC-ROS/ros2_benchmark writes it (README.md, "Results"): the rows name ROS
# nodes, which reads like a count of nodes, and the cells beside them are timed runs.
ROS2_NODES = """## Results

| Node | Input Size | Intel NUC Corei7 11th Gen | AGX Orin (CPU only) |
| --- | --- | --- | --- |
| [AprilTag Node](scripts/apriltag_ros_apriltag_node.py) | 720p | [90.8 fps](results/a.json)<br>11 ms | [56.3 fps](results/b.json)<br>18 ms |
| [Rectify Node](scripts/image_proc_rectify_node.py) | 1080p | [539 fps](results/c.json)<br>1.9 ms | [185 fps](results/d.json)<br>5.6 ms |
"""

# As NVIDIA-ISAAC-ROS/isaac_ros_benchmark writes it (README.md, "Performance").
ISAAC_NODES = """## Performance

| Node<br/><br/> | Input Size<br/><br/> | AGX Thor T5000<br/><br/> | DGX Spark<br/><br/> | x86_64 w/ RTX 5090<br/><br/> |
|---|---|---|---|---|
| [AprilTag Node](x.py)<br/><br/> | 720p<br/><br/> | [385 fps](a.json)<br/><br/><br/>2.9 ms @ 30Hz<br/><br/> | [462 fps](b.json)<br/><br/><br/>2.4 ms @ 30Hz<br/><br/> | [596 fps](c.json)<br/><br/><br/>2.0 ms @ 30Hz<br/><br/> |
| [FoundationPose Pose Estimation Node](y.py)<br/><br/> | 720p<br/><br/> | [3.15 fps](d.json)<br/><br/><br/>370 ms @ 30Hz<br/><br/> | [2.77 fps](e.json)<br/><br/><br/>360 ms @ 30Hz<br/><br/> | [10.1 fps](f.json)<br/><br/><br/>99 ms @ 30Hz<br/><br/> |
"""


def _loaded(page: str) -> dict[tuple[str, str], tuple]:
    frame = normalized(page).measurements
    return {
        (row["raw_value"], row["metric"]): (row["value"], row["unit"], row["accelerator"])
        for row in frame.iter_rows(named=True)
    }


def test_a_frame_rate_over_a_latency_in_one_cell_reads_as_two_values():
    first, second = read_cell("385 fps 2.9 ms @ 30Hz").values
    assert (first.number, first.unit.alias, first.secondary) == (385.0, "fps", False)
    assert (second.number, second.unit.alias, second.qualifier) == (2.9, "ms", "@ 30Hz")
    assert len(read_cell("12 ms 15 ms").values) == 1  # two times: no such pair
    assert read_cell("12 ms 15 ms").values[0].rest == "ms 15 ms"


def test_nodes_timed_on_platforms_side_by_side_load_every_rate_and_latency():
    loaded = _loaded(ROS2_NODES)
    assert len(loaded) == 8
    assert loaded[("90.8 fps 11 ms", "throughput")] == (90.8, "items/s", "NUC Corei7")
    assert loaded[("90.8 fps 11 ms", "latency")] == (11.0, "ms", "NUC Corei7")
    assert loaded[("185 fps 5.6 ms", "throughput")] == (185.0, "items/s", "Jetson AGX Orin")
    assert loaded[("185 fps 5.6 ms", "latency")] == (5.6, "ms", "Jetson AGX Orin")


def test_platform_columns_of_stacked_rates_and_latencies_load_both_with_the_input_rate():
    result = normalized(ISAAC_NODES)
    assert result.quarantine.height == 0
    frame = result.measurements
    assert frame.height == 12
    rows = {
        (" ".join(row["raw_value"].split()), row["metric"]): (
            row["value"],
            row["unit"],
            row["qualifier"],
        )
        for row in frame.iter_rows(named=True)
    }
    assert rows[("385 fps 2.9 ms @ 30Hz", "throughput")] == (385.0, "items/s", None)
    assert rows[("385 fps 2.9 ms @ 30Hz", "latency")] == (2.9, "ms", "@ 30Hz")
    assert rows[("10.1 fps 99 ms @ 30Hz", "latency")] == (99.0, "ms", "@ 30Hz")
    chips = dict(zip(frame["column_name"], frame["accelerator"], strict=True))
    assert chips["DGX Spark"] == "GB10"
    assert chips["x86_64 w/ RTX 5090"] == "RTX 5090"


# Two Jetson Thor modules side by side (isaac_ros_benchmark README.md): each its own chip.
THOR_MODULES = """## Performance

| Node | Input Size | AGX Thor T5000 | AGX Thor T4000 |
|---|---|---|---|
| [AprilTag Node](x.py) | 720p | [385 fps](a.json)<br/>2.9 ms @ 30Hz | [280 fps](b.json)<br/>11 ms @ 30Hz |
"""


def test_the_jetson_thor_modules_a_header_names_are_told_apart():
    frame = normalized(THOR_MODULES).measurements
    chips = {
        (row["column_name"], row["metric"]): (row["value"], row["accelerator"])
        for row in frame.iter_rows(named=True)
    }
    assert chips[("AGX Thor T5000", "throughput")] == (385.0, "Jetson T5000")
    assert chips[("AGX Thor T4000", "throughput")] == (280.0, "Jetson T4000")
    assert chips[("AGX Thor T4000", "latency")] == (11.0, "Jetson T4000")


# As Nota-NetsPresso/netspresso-trainer writes its device matrix
# (docs/benchmarks/device_matrix/tensorrt.md): the framework is the page's first heading alone,
# the board a heading below it, the precision the heading over each table.
NETSPRESSO_TENSORRT = """# TensorRT

The models in NetsPresso Trainer can be converted to TensorRT format by NetsPresso's Launcher module.

## JetPack 6.0

### Jetson Orin Nano

#### FP16

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | MixNet-s | (224, 224) | 3 | 6.6357 | 8.0 | 1.0 | onnx_opset=13 |
"""


def test_a_heading_that_is_a_framework_alone_names_the_framework_of_the_tables_under_it():
    frame = normalized(NETSPRESSO_TENSORRT).measurements
    loaded = {
        row["column_name"]: (row["value"], row["framework"], row["accelerator"], row["precision"])
        for row in frame.iter_rows(named=True)
    }
    assert loaded["Latency (ms)"] == (6.6357, "TensorRT", "Jetson Orin Nano", "FP16")
    from perfledger.schemas.labels import framework_alone

    assert framework_alone("OpenVINO") == "OpenVINO"
    assert framework_alone("TensorRT benchmark results") is None


# As marcoslucianops/DeepStream-Yolo writes it (docs/benchmarks.md): the top-left header is the
# software every run used, the words under it the models, some no catalogue knows.
DEEPSTREAM_YOLO = """### Results

| DeepStream         | Precision | Resolution | IoU=0.5:0.95 | IoU=0.5 | IoU=0.75 | FPS<br />(without display) |
|:------------------:|:---------:|:----------:|:------------:|:-------:|:--------:|:--------------------------:|
| YOLO-NAS L         | FP16      | 640        | 0.484        | 0.658   | 0.532    | 235.27                     |
| DAMO-YOLO-Nl       | FP16      | 416        | 0.392        | 0.559   | 0.423    | 483.73                     |
| DAMO-YOLO-L star   | FP16      | 640        | 0.502        | 0.674   | 0.551    | 176.93                     |
| YOLOX-s            | FP16      | 640        | 0.405        | 0.593   | 0.437    | 428.29                     |
"""


def test_a_framework_in_the_top_left_corner_is_every_rows_and_the_words_under_it_models():
    frame = normalized(DEEPSTREAM_YOLO).measurements
    rate = {
        row["raw_value"]: (row["model"], row["model_canonical"], row["framework"], row["metric"])
        for row in frame.iter_rows(named=True)
        if row["column_name"].startswith("FPS")
    }
    assert rate["235.27"] == ("YOLO-NAS L", "YOLO-NAS L", "DeepStream", "throughput")
    assert rate["483.73"] == ("DAMO-YOLO-Nl", "DAMO-YOLO-NL", "DeepStream", "throughput")
    # a name no catalogue knows is still the row's model, as published
    assert rate["176.93"][0] == "DAMO-YOLO-L star"
    assert rate["428.29"] == ("YOLOX-s", "YOLOX-S", "DeepStream", "throughput")
    settings = set(frame["settings"].drop_nulls())
    assert not any("DeepStream=" in text for text in settings)


NETSPRESSO_TFLITE = """# TFLite

## Raspberry Pi 5

### FP16

| Task | Model | Input shape | Classes | Latency (ms) | GPU Memory (MB) | CPU Memory (MB) | Ramarks |
|---|---|---|---|---|---|---|---|
| Classification | EfficientFormer-l1 | (224, 224) | 3 | 164.574 | - | 115.844 | onnx_opset=13 |
| Classification | MixNet-s | (224, 224) | 3 | 60.0817 | - | 31.1328 | onnx_opset=13 |
| Segmentation | PIDNet-s | (512, 512) | 35 | 471.467 | - | 45.4258 | onnx_opset=13 |
"""


def test_the_vision_models_of_an_edge_device_matrix_are_known_with_their_sizes():
    frame = normalized(NETSPRESSO_TFLITE).measurements
    models = {
        row["raw_value"]: (row["model_canonical"], row["framework"], row["accelerator"])
        for row in frame.iter_rows(named=True)
        if row["column_name"] == "Latency (ms)"
    }
    assert models["164.574"] == ("EfficientFormer-L1", "TFLite", "BCM2712")
    assert models["60.0817"] == ("MixNet-S", "TFLite", "BCM2712")
    assert models["471.467"] == ("PIDNet-S", "TFLite", "BCM2712")


# As justincdavis/trtutils writes it (benchmark/markdown/OVERVIEW_TABLE.md): a table printed
# the way psql and tabulate's "presto" format print one, " | " between cells and a rule of
# dashes with "+" where the columns meet under the header, no pipe on either side.
TRTUTILS_OVERVIEW = """Device  | Framework | Model       | Input Size | Mean (ms) | Median (ms) | Min (ms) | Max (ms)
--------+-----------+-------------+------------+-----------+-------------+----------+---------
OrinAGX | yolov10n  | ultralytics | 160        | 3.1       | 3.1         | 3.0      | 3.5
OrinAGX | yolov10n  | trtutils    | 640        | 4.1       | 4.1         | 4.0      | 5.3
"""


def test_a_table_printed_with_plus_junctions_under_its_header_loads_every_value():
    frame = normalized(TRTUTILS_OVERVIEW).measurements
    assert frame.height == 8
    loaded = {
        (row["row_number"], row["column_name"]): (
            row["value"],
            row["metric"],
            row["statistic"],
            row["accelerator"],
        )
        for row in frame.iter_rows(named=True)
    }
    assert loaded[(1, "Mean (ms)")] == (3.1, "latency", "mean", "Jetson AGX Orin")
    assert loaded[(1, "Max (ms)")] == (3.5, "latency", "max", "Jetson AGX Orin")
    assert loaded[(2, "Median (ms)")] == (4.1, "latency", "p50", "Jetson AGX Orin")
    assert loaded[(2, "Min (ms)")] == (4.0, "latency", "min", "Jetson AGX Orin")


def test_a_box_border_or_a_rule_of_another_width_is_no_such_header_rule():
    from perfledger.sources.layouts.pipe_rows import with_junction_rules

    lines = ["a | b | c", "---+---", "+---+---+---+"]
    assert with_junction_rules(lines, set()) == lines
    assert with_junction_rules(["a | b", "---+---"], set()) == ["a | b", "---|---"]
    assert with_junction_rules(["a | b", "---+---"], {1}) == ["a | b", "---+---"]


def test_durations_beside_setting_names_still_list_a_setup():
    from perfledger.schemas.setup_tables import _measured_cells

    assert _measured_cells([["90.8 fps 11 ms", "56.3 fps 18 ms"]])
    assert not _measured_cells([["60 s", "60 s"], ["8", "8"]])


def test_the_same_printout_inside_fenced_code_is_read_to_its_last_row():
    page = f"# Benchmarks\n\n```\n{TRTUTILS_OVERVIEW}(2 rows)\n```\n"
    frame = normalized(page).measurements
    assert frame.height == 8
    loaded = {
        (row["row_number"], row["column_name"]): (row["value"], row["statistic"])
        for row in frame.iter_rows(named=True)
    }
    assert loaded[(1, "Mean (ms)")] == (3.1, "mean")
    assert loaded[(2, "Max (ms)")] == (5.3, "max")


def test_a_column_naming_its_own_framework_takes_none_from_a_framework_heading():
    # the heading of NetsPresso's TensorRT matrix over a table whose columns name frameworks
    page = "# TensorRT\n\n| Model | PyTorch (ms) | TensorRT (ms) |\n|---|---|---|\n| MixNet-s | 10.2 | 6.6357 |\n"
    frame = normalized(page).measurements
    frameworks = dict(zip(frame["column_name"], frame["framework"], strict=True))
    # each column's own, not the heading's for both
    assert frameworks == {"PyTorch (ms)": "PyTorch", "TensorRT (ms)": "TensorRT"}
