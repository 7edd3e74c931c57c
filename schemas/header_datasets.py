"""The dataset a value's column header names: after "on" ("mAP50-95 on COCO val2017"), or as
one level of a grouped header, or the whole header ("lambada_openai / FP16", "MMLU")."""

from __future__ import annotations

import re
from functools import lru_cache

import polars as pl

from perfledger.schemas.identities import canonical_dataset, dataset_named

_ON_DATASET = re.compile(r"\s(?:on|@)\s+(?P<name>\S.*)$", re.I)
# How a grouped header's levels are joined (sources/layouts/header_levels.py)
_LEVELS = " / "


def datasets_of_headers(frame: pl.DataFrame) -> pl.Expr:
    """The dataset each value's column header names, as published, where the vocabulary
    knows it."""
    headers = frame.get_column("column_name").drop_nulls().unique().to_list()
    named = {header: found for header in headers if (found := dataset_of_header(header))}
    if not named:
        return pl.lit(None, dtype=pl.String)
    return pl.col("column_name").replace_strict(named, default=None, return_dtype=pl.String)


@lru_cache(maxsize=4096)
def dataset_of_header(header: str) -> str | None:
    """The dataset named after "on" ("Prec@1 on imagenet_val"), else by a level of the header
    that is a dataset's name and nothing else."""
    match = _ON_DATASET.search(" ".join(header.split()))
    if match is not None:
        name = match.group("name").strip()
        return name if canonical_dataset(name) is not None else None
    levels = (level.strip() for level in header.split(_LEVELS))
    return next((level for level in levels if dataset_named(level)), None)
