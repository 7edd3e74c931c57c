"""The hardware a value's own remark names: the words a result cell holds after its value
and unit ("4160 tokens/s/p 配置 Atlas 800T A2": the lines of a cell giving the rate, a link
to its configuration and the hardware it ran on). Only a chip or system the vocabulary knows
is taken from there: a remark's other words ("on 2 threads", "without warm-up") name none.
A remark that is a precision and nothing else ("30.6(INT8)" in a row of FP16 models) is the
value's own precision, nearer than its row's."""

from __future__ import annotations

import polars as pl

from perfledger.schemas.precisions import remark_precision
from perfledger.schemas.row_labels import PLATFORM_FIELDS, platform_fields
from perfledger.schemas.unknown_chips import read_hardware


def remark_platforms(values: pl.DataFrame) -> list[pl.Series]:
    """The PLATFORM_FIELDS, prefixed "vq_", of the known hardware each value's remark
    (`qualifier`) names; each distinct remark is read once."""
    remarks = values.get_column("qualifier")
    distinct = remarks.drop_nulls().unique().to_list()
    read = {text: platform_fields(_known(text)) for text in distinct}
    named = {text: fields for text, fields in read.items() if fields[0] is not None}
    return [
        remarks.replace_strict(
            {text: fields[index] for text, fields in named.items()},
            default=None,
            return_dtype=dtype,
        ).alias(f"vq_{name}")
        for index, (name, dtype) in enumerate(PLATFORM_FIELDS.items())
    ]


def _known(text: str):
    mention = read_hardware(text, "label")
    if mention is None or mention.accelerator is None or mention.names_device:
        return None
    return mention


def remark_precisions(values: pl.DataFrame) -> list[pl.Series]:
    """The precision each value's remark is ("INT8"), as "vq_text", "vq_act" and "vq_wt";
    each distinct remark is read once."""
    remarks = values.get_column("qualifier")
    distinct = remarks.drop_nulls().unique().to_list()
    read = {text: remark_precision(text) for text in distinct}
    named = {text: precision for text, precision in read.items() if precision is not None}
    return [
        remarks.replace_strict(
            {text: getattr(precision, field) for text, precision in named.items()},
            default=None,
            return_dtype=pl.String,
        ).alias(f"vq_{name}")
        for name, field in (("text", "text"), ("act", "activation"), ("wt", "weight"))
    ]
