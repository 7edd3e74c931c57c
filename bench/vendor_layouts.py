"""Results tables laid out as other vendors publish them, mixed into the seed pages.

Each layout follows real pages (../shared/real-pages): NVIDIA's Deep Learning Examples
READMEs put the system, its GPU count and the precision in the headings above a table with
one column per precision; AMD's and Intel Gaudi's pages print units in the cells under a
header without one, below a heading naming the chip and precision; some results come from
accelerators no vocabulary knows, their count in a row label or a heading; and some tables
have a two-row header. A text capture has one header line per column, so the layout with
two header rows is HTML only. Every table records what each of its metric cells reads as.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bench.tables import (
    HEADER_LEVEL_SEPARATOR,
    Expected,
    Table,
    draw_number,
    print_number,
    scaled,
)

DLE_MODELS = (
    "EfficientNet v1-B0",
    "EfficientNet v1-B4",
    "ResNet-50 v1.5",
    "SSD300 v1.1",
    "FastPitch",
    "BERT-Large",
    "Transformer-XL Base",
    "nnU-Net",
)
# (system as the heading names it, the precision mixed precision is compared with)
TRAINING_SYSTEMS = (
    ("NVIDIA DGX A100 (8x A100 80GB)", "TF32"),
    ("NVIDIA DGX A100 (8x A100 40GB)", "TF32"),
    ("NVIDIA DGX-1 (8x V100 32GB)", "FP32"),
    ("NVIDIA DGX-1 (8x V100 16GB)", "FP32"),
    ("NVIDIA DGX H100 (8x H100 80GB)", "TF32"),
)
INFERENCE_SYSTEMS = (
    ("NVIDIA DGX A100 (1x A100 80GB)", "TF32"),
    ("NVIDIA DGX-1 (1x V100 32GB)", "FP32"),
    ("NVIDIA DGX H100 (1x H100 80GB)", "TF32"),
    ("NVIDIA T4", "FP32"),
)
KNOWN_CHIPS = ("MI300X", "MI250X", "MI210", "Gaudi2", "Gaudi3", "H100", "TPU v5e")
# Names no vocabulary holds: the warehouse keeps them as published.
UNKNOWN_CHIPS = ("Zeta-9", "NeoChip X2", "Quark QX-400", "Helios H7", "Lumen L20", "Strata S1")
CHIP_PRECISIONS = ("FP16", "BF16", "FP8", "INT8")
# (model, the units its throughput is printed in)
SERVED_MODELS = (
    ("Llama 2 70B", ("tokens/s", "tok/s")),
    ("Llama 3 8B", ("tokens/s",)),
    ("Mistral 7B", ("tokens/s", "tok/s")),
    ("GPT-J 6B", ("tokens/s", "samples/s")),
    ("ResNet-50", ("img/s", "ips", "images/sec")),
    ("BERT Large", ("sequences/s", "samples/s")),
    ("Stable Diffusion XL", ("img/s",)),
    ("DLRM v2", ("samples/s", "qps")),
    ("Whisper Large v3", ("samples/s",)),
)
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
RUN_NOTE = (
    "Our results were obtained by running the benchmark scripts in the framework's "
    "release container on {system}."
)


class TableBuilder:
    """A table's rows and the reading of each metric cell, filled a cell at a time."""

    def __init__(self, headers: list[str]) -> None:
        self.headers = tuple(headers)
        self.rows: list[list[str]] = []
        self.expected: dict[tuple[int, int], Expected] = {}

    def add_row(self, cells: list[tuple[str, Expected | None]]) -> None:
        row_number = len(self.rows) + 1
        self.rows.append([text for text, _ in cells])
        for column, (_text, reading) in enumerate(cells):
            if reading is not None:
                self.expected[(row_number, column)] = reading

    def table(self, title: str, intro: str, **layout) -> Table:
        return Table(title, intro, self.headers, self.rows, expected=self.expected, **layout)


def config(text: str) -> tuple[str, None]:
    return text, None


def plain(text: str, metric: str, unit: str) -> tuple[str, Expected]:
    """A metric cell holding a number alone, in its metric's unit (named in the header, or
    implied)."""
    return text, Expected(metric, scaled(text), unit)


def draw_rate(rng: random.Random) -> float:
    return 10 ** rng.uniform(1.3, 4.5)


def gpu_counts(rng: random.Random) -> list[int]:
    return [1, *sorted(rng.sample((2, 4, 8, 16, 32, 64), rng.randint(1, 4)))]


# ---- NVIDIA Deep Learning Examples: context in the headings ---------------------------------


def make_dle_training(rng: random.Random, _fmt: str) -> Table:
    """'Training performance: NVIDIA DGX A100 (8x A100 80GB)' above GPUs, batch size and one
    throughput column per precision, their speedup and, on some pages, weak scaling."""
    system, base = rng.choice(TRAINING_SYSTEMS)
    model = rng.choice(DLE_MODELS)
    leading = rng.choice((["GPUs", "Batch size / GPU"], ["Batch size / GPU", "GPUs"]))
    scaling = rng.random() < 0.5
    separators = rng.random() < 0.5
    decimals = rng.choice((0, 2))
    builder = TableBuilder(
        [
            *leading,
            f"Throughput - {base}",
            "Throughput - mixed precision",
            f"Throughput speedup ({base} - mixed precision)",
            *([f"Weak scaling - {base}", "Weak scaling - mixed precision"] if scaling else []),
        ]
    )
    rate, gain = draw_rate(rng), rng.uniform(1.05, 3.2)
    for batch in sorted(rng.sample(BATCHES[4:9], rng.choice((1, 1, 2)))):
        single: tuple[float, float] | None = None
        for count in gpu_counts(rng):
            efficiency = rng.uniform(0.85, 0.99) ** math.log2(count) if count > 1 else 1.0
            base_rate = rate * count * efficiency
            mixed_rate = base_rate * gain * rng.uniform(0.95, 1.05)
            base_text = print_number(base_rate, decimals, separators)
            mixed_text = print_number(mixed_rate, decimals, separators)
            speedup = print_number(scaled(mixed_text) / scaled(base_text), 2)
            cells = [config(str(count)), config(str(batch))]
            if leading[0] != "GPUs":
                cells.reverse()
            cells += [
                plain(base_text, "throughput", "items/s"),
                plain(mixed_text, "throughput", "items/s"),
                plain(speedup, "speedup", "x"),
            ]
            if scaling:
                single = single or (scaled(base_text), scaled(mixed_text))
                for text, first in ((base_text, single[0]), (mixed_text, single[1])):
                    ratio = "1" if count == 1 else print_number(scaled(text) / first, 2)
                    cells.append(plain(ratio, "scaling_efficiency", "x"))
            builder.add_row(cells)
    return builder.table(
        f"Training performance results for {model}",
        RUN_NOTE.format(system=system),
        context=f"Training performance: {system}",
    )


def make_dle_accuracy(rng: random.Random, _fmt: str) -> Table:
    """'Training accuracy: NVIDIA DGX-1 (8x V100 32GB)' above accuracy and time to train per
    precision: '82.98%' or '0.269', '19.5hrs' or '20:04:48'."""
    system, base = rng.choice(TRAINING_SYSTEMS)
    model = rng.choice(DLE_MODELS)
    with_batch = rng.random() < 0.5
    percent = rng.random() < 0.5
    clock = rng.random() < 0.5
    builder = TableBuilder(
        [
            "GPUs",
            *(["Batch size / GPU"] if with_batch else []),
            f"Accuracy - {base}",
            "Accuracy - mixed precision",
            f"Time to train - {base}",
            "Time to train - mixed precision",
            f"Time to train speedup ({base} to mixed precision)",
        ]
    )
    # hours on 8 GPUs: a clock reading stays under 100 hours on one GPU
    hours, gain = rng.uniform(2, 12), rng.uniform(1.3, 3.0)
    for count in sorted(rng.sample((1, 4, 8, 16, 32, 64), rng.randint(2, 4))):
        cells = [config(str(count))]
        if with_batch:
            cells.append(config(str(rng.choice(BATCHES[5:9]))))
        score = rng.uniform(0.70, 0.84)
        for _ in range(2):
            if percent:
                text = f"{score * 100 + rng.uniform(-0.3, 0.3):.2f}"
                cells.append((text + "%", Expected("accuracy", scaled(text), "%")))
            else:
                cells.append(
                    plain(f"{score + rng.uniform(-0.003, 0.003):.3f}", "accuracy", "score")
                )
        base_hours = hours * 8 / count
        times = []
        for spent in (base_hours, base_hours / gain * rng.uniform(0.95, 1.05)):
            seconds = round(spent * 3600)
            if clock:
                text = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
                times.append(seconds)
                cells.append((text, Expected("time_to_train", float(seconds), "s")))
            else:
                text = print_number(spent, 1 if spent < 10 else rng.choice((0, 1)))
                times.append(scaled(text, "3600"))
                cells.append((text + "hrs", Expected("time_to_train", times[-1], "s")))
        cells.append(plain(print_number(times[0] / times[1], 2), "speedup", "x"))
        builder.add_row(cells)
    return builder.table(
        f"Training accuracy results for {model}",
        RUN_NOTE.format(system=system),
        context=f"Training accuracy: {system}",
    )


def make_dle_inference(rng: random.Random, _fmt: str) -> Table:
    """'Inference performance: NVIDIA DGX A100 (1x A100 80GB)', then a line naming the
    precision ('FP16 Inference Latency') above throughput and latency percentiles."""
    system, base = rng.choice(INFERENCE_SYSTEMS)
    model = rng.choice(DLE_MODELS)
    precision = rng.choice(("FP16", base, "Mixed precision"))
    resolution = rng.random() < 0.5
    builder = TableBuilder(
        [
            "Batch size",
            *(["Resolution"] if resolution else []),
            "Throughput Avg",
            "Latency Avg (ms)",
            "Latency 90% (ms)",
            "Latency 95% (ms)",
            "Latency 99% (ms)",
        ]
    )
    rate = draw_rate(rng) / 10
    size = rng.choice(("224x224", "380x380", "512x512"))
    for batch in sorted(rng.sample(BATCHES, rng.randint(4, 9))):
        throughput = rate * batch * rng.uniform(0.6, 1.0) ** math.log2(batch + 1)
        average = batch / throughput * 1000
        cells = [
            config(str(batch)),
            *([config(size)] if resolution else []),
            plain(print_number(throughput, 2), "throughput", "items/s"),
        ]
        for spread in (1.0, 1.01, 1.02, 1.05):
            cells.append(plain(print_number(average * spread, 2), "latency", "ms"))
        builder.add_row(cells)
    return builder.table(
        f"Inference performance results for {model}",
        RUN_NOTE.format(system=system),
        context=f"Inference performance: {system}",
        caption=f"{precision} Inference Latency",
    )


# ---- units in the cells ---------------------------------------------------------------------


def make_units_in_cells(rng: random.Random, _fmt: str) -> Table:
    """'MI300X, FP16' above Model | Batch size | Throughput | Latency (or Time to train) |
    Speedup, the unit in each cell: '1,234 tokens/s', '12.5 ms', '~5 hours', '1.83x'."""
    chip, precision = rng.choice(KNOWN_CHIPS), rng.choice(CHIP_PRECISIONS)
    training = rng.random() < 0.4
    speedup = rng.random() < 0.6
    builder = TableBuilder(
        [
            "Model",
            "Batch size",
            "Throughput",
            "Time to train" if training else "Latency",
            *(["Speedup"] if speedup else []),
        ]
    )
    for model, units in rng.sample(SERVED_MODELS, rng.randint(3, 7)):
        number = draw_number(rng, 10, 40_000, rng.choice((0, 0, 1)))
        cells = [
            config(model),
            config(str(rng.choice(BATCHES[:8]))),
            (f"{number} {rng.choice(units)}", Expected("throughput", scaled(number), "items/s")),
        ]
        cells.append(draw_duration(rng) if training else draw_latency(rng))
        if speedup:
            factor = draw_number(rng, 1.05, 4.0, 2)
            cells.append((f"{factor}x", Expected("speedup", scaled(factor), "x")))
        builder.add_row(cells)
    title = "Training results" if training else "Inference throughput and latency"
    return builder.table(
        title, "Measured with the vendor's latest software release.", context=f"{chip}, {precision}"
    )


def draw_latency(rng: random.Random) -> tuple[str, Expected]:
    if rng.random() < 0.25:
        number = draw_number(rng, 1.0, 9.0, 2)
        return f"{number} s", Expected("latency", scaled(number, "1000"), "ms")
    number = draw_number(rng, 0.5, 900.0, rng.choice((1, 2)))
    return f"{number} ms", Expected("latency", scaled(number), "ms")


def draw_duration(rng: random.Random) -> tuple[str, Expected]:
    style = rng.randrange(3)
    if style == 0:  # an estimate in whole hours
        hours = str(rng.randint(2, 30))
        return f"~{hours} hours", Expected("time_to_train", scaled(hours, "3600"), "s")
    if style == 1:
        hours = draw_number(rng, 1.0, 48.0, 1)
        return f"{hours} hours", Expected("time_to_train", scaled(hours, "3600"), "s")
    minutes = draw_number(rng, 5.0, 180.0, rng.choice((0, 1)))
    return f"{minutes} min", Expected("time_to_train", scaled(minutes, "60"), "s")


# ---- accelerators no vocabulary knows -------------------------------------------------------


def name_system(rng: random.Random, chip: str) -> str:
    """A system of an unknown chip as pages write it: '8x Zeta-9', 'NeoChip X2 (16 chips)'."""
    count = rng.choice((4, 8, 16, 32, 64))
    return rng.choice((f"{count}x {chip}", f"{chip} ({count} chips)", f"1x {chip}", chip))


def make_unknown_platforms(rng: random.Random, _fmt: str) -> Table:
    """Systems of unknown chips in the rows ('8x Zeta-9') or in the heading above
    ('NeoChip X2 (16 chips), BF16')."""
    in_rows = rng.random() < 0.5
    chips = rng.sample(UNKNOWN_CHIPS, 3)
    headers = ["Model", "Batch size", "Throughput (tokens/s)", "Latency (ms)"]
    if in_rows:
        headers = ["System", "Model", "Precision", "Throughput (samples/s)", "Latency (ms)"]
    builder = TableBuilder(headers)
    for _ in range(rng.randint(3, 10)):
        model, _units = rng.choice(SERVED_MODELS)
        throughput = draw_number(rng, 20, 90_000, rng.choice((0, 1)))
        latency = draw_number(rng, 0.3, 400.0, 2)
        labels = (
            [
                config(name_system(rng, rng.choice(chips))),
                config(model),
                config(rng.choice(CHIP_PRECISIONS)),
            ]
            if in_rows
            else [config(model), config(str(rng.choice(BATCHES[:9])))]
        )
        builder.add_row(
            [*labels, plain(throughput, "throughput", "items/s"), plain(latency, "latency", "ms")]
        )
    if in_rows:
        return builder.table(
            "Results on other accelerators", "Each system ran the same software stack."
        )
    return builder.table(
        "Early results",
        "Preliminary measurements, subject to change.",
        context=f"{name_system(rng, chips[0])}, {rng.choice(CHIP_PRECISIONS)}",
    )


# ---- a two-row header -----------------------------------------------------------------------


def make_two_level_header(rng: random.Random, _fmt: str) -> Table:
    """Precisions over throughput and latency in a two-row header: its columns read as
    'Mixed Precision / Throughput (samples/s)'."""
    system, base = rng.choice((*INFERENCE_SYSTEMS, (f"1x {rng.choice(UNKNOWN_CHIPS)}", "FP32")))
    with_model = rng.random() < 0.5
    tops = ("Mixed Precision", base)
    subs = ("Throughput (samples/s)", "Latency (ms)")
    builder = TableBuilder(
        [
            *(["Model"] if with_model else []),
            "Batch size",
            *(f"{top}{HEADER_LEVEL_SEPARATOR}{sub}" for top in tops for sub in subs),
        ]
    )
    model = rng.choice(SERVED_MODELS)[0]
    rate = draw_rate(rng)
    for batch in sorted(rng.sample(BATCHES, rng.randint(4, 10)), reverse=True):
        cells = [*([config(model)] if with_model else []), config(str(batch))]
        for gain in (rng.uniform(1.5, 3.0), 1.0):
            throughput = rate * batch * gain * rng.uniform(0.5, 1.0)
            cells.append(plain(print_number(throughput, 0), "throughput", "items/s"))
            cells.append(plain(print_number(batch / throughput * 1000, 3), "latency", "ms"))
        builder.add_row(cells)
    return builder.table(
        f"Inference performance results for {model}",
        RUN_NOTE.format(system=system),
        context=f"Inference performance: {system}",
        header_levels=2,
    )


# ---- the mix --------------------------------------------------------------------------------

Builder = Callable[[random.Random, str], Table]
LAYOUTS: dict[str, Builder] = {
    "dle_training": make_dle_training,
    "dle_accuracy": make_dle_accuracy,
    "dle_inference": make_dle_inference,
    "units_in_cells": make_units_in_cells,
    "unknown_platforms": make_unknown_platforms,
    "two_level_header": make_two_level_header,
}
# Text captures hold the layouts a capture can show: one header line per column.
LAYOUTS_OF_FORMAT = {
    "html": tuple(LAYOUTS),
    "text": tuple(layout for layout in LAYOUTS if layout != "two_level_header"),
}


def mix_vendor_tables(tables: list[Table], seed: int, index: int, fmt: str) -> list[Table]:
    """The seed tables with about as many tables of other layouts put among them. Drawn from
    a stream of their own, so the seed tables are those of a corpus without them."""
    rng = random.Random(f"perfledger-bench-layouts:{seed}:{index}")
    mixed = list(tables)
    for _ in range(rng.randint(3, 6)):
        layout = rng.choice(LAYOUTS_OF_FORMAT[fmt])
        table = LAYOUTS[layout](rng, fmt)
        table.layout = layout
        mixed.insert(rng.randint(0, len(mixed)), table)
    return mixed
