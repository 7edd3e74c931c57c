"""Tables that list the settings of a run, or of several systems, instead of results.

"Parameter | Value" over "Instance", "Batch size", "Sequence length": a table of two columns
naming settings states the setup of the tables near it, as an environment list does. A
table describing up to three systems side by side ("| | Ice Lake | Cooper Lake |" over
"CPU", "Number of sockets", "Host OS") holds no result either, and states no one setup;
so does a wider one ("SOC | 骁龙 865 | ... | RK3399" over "设备", "CPU", "GPU") whose cells are
mostly not numbers: a results table's cells are numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import polars as pl

from perfledger.schemas.cell_reading import SPREAD_MARKER, CellValue, read_cell
from perfledger.schemas.folding import clean_text, fold_words
from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.label_mappings import LabelMappings
from perfledger.schemas.labels import known_framework
from perfledger.schemas.row_labels import TABLE_KEY
from perfledger.schemas.table_plans import ColumnStats, header_reading
from perfledger.schemas.unknown_chips import read_hardware

RESULT_KINDS = ("metric", "statistic", "result")  # header kinds that head results
_SETUP_SHARE = 0.6  # of a setup table's names that must name settings or labels
_NAME_AND_VALUE = 2  # columns of a table listing one setup
SETUP_COLUMNS = 4  # a setup table's names, then the values of up to three systems
_TABLE = TABLE_KEY


def setup_tables(
    cells: pl.DataFrame, mappings: LabelMappings, wide: frozenset[tuple[int, int]] = frozenset()
) -> dict[tuple[int, int], tuple[str, ...]]:
    """The rows ("Instance: inf2.48xlarge (12 Inferentia2 devices)") of each table of two
    columns that lists a run's settings by name ("Parameter | Value": Model, Instance, Batch
    size, Sequence length...): such a table states the setup of the tables near it, as an
    environment list does, and holds no result of its own. A table listing the settings of
    several systems side by side ("| | Ice Lake | Cooper Lake |" over "CPU", "Number of
    sockets", "Host OS"...) holds no result either, and states no one setup: it gives no rows,
    and none of its names may name a metric. `wide`: the (document, table) of wider tables
    whose cells are mostly not numbers (`mostly_text`), which may list systems too."""
    shapes = cells.group_by(_TABLE).agg(
        pl.col("vcol").max().alias("_last"), pl.col("vrow").max().alias("_rows")
    )
    narrow = shapes.filter(
        (
            pl.col("_last").is_between(1, SETUP_COLUMNS - 1)
            | pl.concat_str(_TABLE, separator=":").is_in([f"{d}:{t}" for d, t in wide])
        )
        # one environment a row ("GPU | SDK | Release" over "MR-V100 | 4.4.0 | 26.06") may be one
        & ((pl.col("_rows") >= 2) | ((pl.col("_rows") == 1) & (pl.col("_last") >= 2)))
    ).select(_TABLE)
    if narrow.height == 0:
        return {}
    rows = (
        cells.join(narrow, on=_TABLE, how="semi")
        .sort([*_TABLE, "vrow", "vcol"])
        .group_by([*_TABLE, "vrow"], maintain_order=True)
        .agg(pl.col("raw_value"), pl.col("table_title").first())
        .group_by(_TABLE, maintain_order=True)
        .agg(pl.col("raw_value").sort_by("vrow").alias("_rows"), pl.col("table_title").first())
    )
    found = {}
    for document, table, table_rows, title in rows.iter_rows():
        width = len(table_rows[0])
        if any(len(row) != width for row in table_rows):
            continue
        (name_header, *value_headers), *body = table_rows
        named = header_reading(name_header, mappings)
        valued = [header_reading(header, mappings) for header in value_headers]
        if named.kind in RESULT_KINDS or any(
            reading.kind in RESULT_KINDS and reading.role != "eval_metric" for reading in valued
        ):
            continue  # "Model | Throughput", "Throughput | 1234": results
        if any(_SPREAD.search(cell) for row in body for cell in row[1:] if cell):
            continue  # "0.9310 ±0.0070": a figure measured with its spread, no setting
        names = [clean_text(row[0]) for row in body]
        environments = _environments(name_header, named, valued, body)
        if environments or len(body) < 2:
            if environments:
                found[(document, table)] = environments
            continue
        if width > _NAME_AND_VALUE and _measured_cells([row[1:] for row in body]):
            continue  # "AprilTag Node | 90.8 fps | 56.3 fps": runs timed on each system
        if _all_timed([row[1] for row in body] if width == _NAME_AND_VALUE else []):
            continue  # "input size | infer time" over "96x 96 | 60ms": a run timed per row
        if (
            not _documents_parameters(name_header, valued)
            and not _describes_hardware(name_header, body, width)
            and not _lists_fields(name_header, names, width, mappings)
            and not _lists_hyperparameters(title, width)
            and not _names_settings(
                names,
                # beside a name, a value alone may be its version ("PyTorch | 2.4")
                [row[1:] if width > _NAME_AND_VALUE else [] for row in body],
                mappings,
                metrics_allowed=width == _NAME_AND_VALUE,
            )
        ):
            continue
        found[(document, table)] = (
            tuple(
                f"{clean_text(name)}: {clean_text(value)}"
                for name, value in body
                if clean_text(name) and clean_text(value)
            )
            if width == _NAME_AND_VALUE
            else ()
        )
    return found


_SPREAD = re.compile(rf"\d\s*{SPREAD_MARKER}\s*\d")

# The first header of a table documenting a tool's parameters ("Parameter | Value |
# Explanation"), whatever the parameters are called ("port", "eviction_ratio").
_PARAMETERS_HEADER = re.compile(
    r"(?:parameters?|params?|options?|arguments?|args?|flags?|(?:environment |env )?variables?"
    r"|config(?:uration)? (?:keys?|options?|items?)|keys?|fields?)"
)


def _documents_parameters(name_header: str, valued: list[HeaderReading]) -> bool:
    """Whether a table's first header names parameters and a column beside their values
    explains them ("Parameter | Value | Explanation"): it documents settings, whatever their
    names, and holds no results."""
    return bool(_PARAMETERS_HEADER.fullmatch(fold_words(name_header).strip(" *"))) and any(
        reading.kind == "text" for reading in valued
    )


# The first header of a table describing the machine a page's runs used, part by part
# ("Hardware | Model" over "GPU | nvidia_a100-sxm4-80gb", "Memory | 2TB").
_HARDWARE_HEADER = re.compile(
    r"(?:hardware|hw|machine|system|server|node|platform|environment|component|硬件|环境|配置"
    r"|硬件(?:环境|配置)|测试环境)(?: (?:configuration|config|spec(?:ification)?s?|details?))?"
)
# A row naming a part of a machine that a chip is ("GPU", "Accelerator", "NPU", "CPU").
_DEVICE_PART = re.compile(r"(?:gpus?|cpus?|npus?|accelerators?|devices?|chips?|显卡|加速卡)")


def _describes_hardware(name_header: str, body: list[list[str]], width: int) -> bool:
    """Whether a table of two columns describes one machine part by part, a row naming a
    device part beside the chip it is: it lists the setup of the results near it, whatever
    figures of the machine (memory, bandwidth) its other rows give."""
    if width != _NAME_AND_VALUE or not _HARDWARE_HEADER.fullmatch(
        fold_words(name_header).strip(" *")
    ):
        return False
    return any(
        _DEVICE_PART.fullmatch(fold_words(name).strip(" *:"))
        and (mention := read_hardware(value, "label")) is not None
        and mention.accelerator is not None
        for name, value in body
    )


def _lists_fields(name_header: str, names: list[str], width: int, mappings: LabelMappings) -> bool:
    """Whether a table of two columns names its rows as fields or parameters ("Field | Value"
    over "Hardware", "World", "Campaign") and none of them a metric: it lists one setup."""
    return (
        width == _NAME_AND_VALUE
        and bool(_PARAMETERS_HEADER.fullmatch(fold_words(name_header).strip(" *")))
        and not any(header_reading(name, mappings).kind in RESULT_KINDS for name in names)
    )


# A heading naming the hyperparameters of a run ("Key Hyperparameters", "超参数").
_HYPERPARAMETERS = re.compile(r"(?i)hyper-?\s?param(?:eter)?s?|\u8d85\u53c2")


def _lists_hyperparameters(title: str | None, width: int) -> bool:
    """Whether a table of two columns stands under a heading naming hyperparameters ("Key
    Hyperparameters" over "Learning Rate | 2e-5", "max_head_offpolicyness η | 16"): it lists
    the settings of a run, whatever their names read as ("max ..." a statistic)."""
    return width == _NAME_AND_VALUE and bool(title) and bool(_HYPERPARAMETERS.search(title or ""))


def _names_settings(
    texts: list[str], values: list[list[str]], mappings: LabelMappings, metrics_allowed: bool
) -> bool:
    """Whether most texts name a setting or a label, and few a metric (none, unless
    `metrics_allowed`). `values`: the cells beside each text, across the systems a table
    sets side by side."""
    kinds = [header_reading(text, mappings).kind for text in texts]
    if not kinds:
        return False
    # A setup names its software by name beside its version ("PyTorch | 2.11.0+cu130",
    # "Triton | 3.6.0"); software named beside plain numbers across columns ("PyTorch |
    # 1234.5 | 456.7 | 89.1") is what a results table compares.
    settings = sum(
        1
        for kind, text, beside in zip(kinds, texts, values, strict=True)
        if kind in ("config", "label", "text")
        or (kind is None and known_framework(text) and not _plain_numbers(beside))
    )
    metrics = sum(1 for kind in kinds if kind in RESULT_KINDS)
    if metrics and not metrics_allowed:
        return False
    return settings >= _SETUP_SHARE * len(kinds) and metrics * 3 <= len(kinds)


# A number as a result is written ("1234.5", "25.12 (2 on GPU)", "~3 ms"), not a version
# ("2.11.0", "3.6").
_PLAIN_NUMBER = re.compile(r"^\s*(?:\*\*|__)?[~<>\u2248]?\s*[+-]?\d[\d,]*(?:\.\d+)?(?![\d.]|\.\d)")


def _environments(
    name_header: str, named: HeaderReading, valued: list[HeaderReading], body: list[list[str]]
) -> tuple[str, ...]:
    """The chips of a table listing the environments a page's results were run in, one a row
    ("GPU | SDK | Release" over "MR-V100 | 4.4.0 | 26.03"): every row names a chip first and
    the other headers name settings or labels, no result and no column of plain numbers. Each
    row reads as a setup item ("GPU: MR-V100") of the tables after it; rows of different chips
    list setups that disagree, and name the chip of none."""
    if len(valued) < _NAME_AND_VALUE - 1 or named.kind not in ("config", "label"):
        return ()
    for at, reading in enumerate(valued, start=1):
        if reading.kind in RESULT_KINDS or (
            reading.kind is None and _plain_numbers([row[at] for row in body])
        ):
            return ()
    chips = [clean_text(row[0]) for row in body]
    if not chips or not all(_names_a_chip(chip) for chip in chips):
        return ()
    header = clean_text(name_header)
    return tuple(dict.fromkeys(f"{header}: {chip}" for chip in chips))


def _names_a_chip(text: str) -> bool:
    mention = read_hardware(text, "label")
    return mention is not None and mention.accelerator is not None


def _plain_numbers(cells: list[str]) -> bool:
    """Whether the filled cells are all numbers as results are written, and some are filled."""
    filled = [cell for cell in cells if cell and cell.strip()]
    return bool(filled) and all(_PLAIN_NUMBER.match(cell) for cell in filled)


def _measured_cells(values: list[list[str]]) -> bool:
    """Whether most filled cells beside the names are rates or times measured ("90.8
    fps<br>11 ms", "860ms"): results of the systems side by side, which no table listing
    their settings holds ("1.9 GHz" is a clock, "16 GB" a size, "60 s" may be how long a run
    was set to last: a time in whole seconds or more is no measure here)."""
    filled = [cell for row in values for cell in row if cell and cell.strip()]
    measured = sum(1 for cell in filled if _measured(cell))
    return bool(filled) and measured * 2 > len(filled)


def _measured(cell: str) -> bool:
    value = _first_value(cell)
    if value is None or value.unit is None:
        return False
    return value.unit.kind == "rate" or (
        value.unit.kind == "duration" and (value.unit.factor < 1 or value.number % 1 != 0)
    )


def _all_timed(values: list[str]) -> bool:
    """Whether every filled cell of a table's one column of values is a time or a rate and
    there are two at least: the results of the rows, which no list of one run's settings
    gives all alike."""
    filled = [cell for cell in values if cell and cell.strip()]
    return len(filled) >= 2 and all(
        (value := _first_value(cell)) is not None
        and value.unit is not None
        and value.unit.kind in ("rate", "duration")
        for cell in filled
    )


def _first_value(cell: str) -> CellValue | None:
    """The first value a cell reads as, if any."""
    values = read_cell(clean_text(cell)).values
    return values[0] if values else None


_TEXT_SHARE = 0.5  # at most this share of a wide setup table's filled cells start as numbers


def mostly_text(stats: Sequence[ColumnStats]) -> bool:
    """Whether the body cells of a table's columns but its first (`stats`, one per column)
    are mostly not numbers, as a table listing systems side by side is ("Xiaomi MI10",
    "1xA77 @2.84GHz + 3xA77 @2.42GHz", "Adreno 650") and no table of results."""
    filled = sum(column.filled for column in stats[1:])
    numeric = sum(column.numeric for column in stats[1:])
    return filled > 0 and numeric <= _TEXT_SHARE * filled
