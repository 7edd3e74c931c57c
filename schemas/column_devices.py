"""The device a result column names apart from its neighbours: a model zoo setting the accuracy
of its NPU build beside its float model's on a GPU ("Acc Top1 (NPU)" | "Acc Top1 (GPU)",
"mAP at IOU = 0.50 (GPU)" | "mAP at IOU = 0.50 (NPU)"). schemas/value_assembly.py gives each
such column its own device, never the chip the page names for another device's column."""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

# The classes of device a header or a chip's text may name, as they are written in capitals.
_DEVICES = "GPU|NPU|CPU|TPU|DSP|VPU|APU|XPU|MCU|FPGA"
# A device named in brackets, or after the header's last separator ("Acc Top1 / GPU").
_DEVICE_WORD = re.compile(rf"(?:\(|(?:^|\s/\s))\s*({_DEVICES})s?\s*(?:\)|$)", re.I)
# A device a chip's text names ("EN675 NPU"), in that text written in capitals.
_CHIP_DEVICE = rf"(?:^|[^A-Z0-9])({_DEVICES})S?(?:$|[^A-Z0-9])"


@lru_cache(maxsize=16_384)
def _device_word(header: str) -> str | None:
    found = {match.group(1).upper() for match in _DEVICE_WORD.finditer(header)}
    return found.pop() if len(found) == 1 else None


def column_device_words(values: pl.DataFrame) -> pl.Series:
    """`_column_device` per value: the device its column header names ("GPU"), where the
    columns of its table name two devices or more; else null."""
    headers = values.get_column("column_name")
    words = {text: _device_word(text) for text in headers.drop_nulls().unique().to_list()}
    if not any(words.values()):
        return pl.Series("_column_device", [None] * values.height, dtype=pl.String)
    named = headers.replace_strict(words, default=None, return_dtype=pl.String)
    return (
        values.select("document", "table_index")
        .with_columns(_word=named)
        .select(
            pl.when(pl.col("_word").drop_nulls().n_unique().over("document", "table_index") > 1)
            .then(pl.col("_word"))
            .alias("_column_device")
        )
        .to_series()
    )


def names_other_device(chip_text: pl.Expr, device: pl.Expr) -> pl.Expr:
    """Whether a chip's text names a device class other than `device` ("EN675 NPU" beside a
    "(GPU)" column): the chip is not the one that column's values ran on."""
    named = chip_text.str.to_uppercase().str.extract(_CHIP_DEVICE, 1)
    return (device.is_not_null() & named.is_not_null() & (named != device)).fill_null(False)
