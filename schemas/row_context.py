"""Labels a table's row takes from the table's context where its own cells state none: the
precision of a row named for quantizing ("Weight & activation"), of a row whose name the page
defines (a configuration file), and units a footnote gives per subject."""

from __future__ import annotations

import re

import polars as pl

from perfledger.schemas.precisions import find_precisions
from perfledger.schemas.row_labels import (
    ROW_KEY,
    TABLE_KEY,
    UNIT_FIELDS,
    precision_fields,
    unit_fields,
)
from perfledger.schemas.table_plans import TablePlan


def with_context_labels(
    rows: pl.DataFrame, plans: dict[tuple[int, int], TablePlan]
) -> pl.DataFrame:
    """`rows` (one per table row, with the labels its cells state) with what each table's
    context says of rows stating none."""
    return _with_quantized_rows(_with_named_rows(_with_note_units(rows, plans), plans), plans)


# A row run with its weights and activations quantized, named for it rather than by a dtype.
_BOTH_QUANTIZED = re.compile(
    r"(?i)\bweights?\s*(?:&|and|\+)\s*activations?\b"
    r"|\bactivations?\s*(?:&|and|\+)\s*weights?\b"
)


def _with_quantized_rows(
    rows: pl.DataFrame, plans: dict[tuple[int, int], TablePlan]
) -> pl.DataFrame:
    """The precision of a row named for quantizing weights and activations ("Weight &
    activation") that states no dtype: the one the table's context gives such runs ("W8A8
    mode")."""
    quantized = {
        key: found.value
        for key, plan in plans.items()
        if (found := plan.context.get("precision:quantized")) is not None
    }
    if not quantized:
        return rows
    # The rows of those tables stating no dtype, read in one query for all the tables.
    tables = pl.DataFrame(
        list(quantized), schema={name: rows.schema[name] for name in TABLE_KEY}, orient="row"
    )
    found = [
        (document, table, vrow, *precision_fields(quantized[document, table]))
        for document, table, vrow, label in (
            rows.filter(pl.col("rq_text").is_null() & pl.col("fq_text").is_null())
            .select(*ROW_KEY, "row_label")
            .join(tables, on=TABLE_KEY, how="semi")
            .iter_rows()
        )
        if label and _BOTH_QUANTIZED.search(label)
    ]
    return _with_row_precisions(rows, found)


def _with_named_rows(rows: pl.DataFrame, plans: dict[tuple[int, int], TablePlan]) -> pl.DataFrame:
    """The precision of a row whose name the page defines ("v100_x8" under "configs/v100_x8.py
    : Full precision GPU training"), where the row states none of its own."""
    found = []
    for (document, table), plan in plans.items():
        if not plan.named_rows:
            continue
        for vrow, label in (
            rows.filter((pl.col("document") == document) & (pl.col("table_index") == table))
            .select("vrow", "row_label")
            .iter_rows()
        ):
            definition = next(
                (
                    plan.named_rows[part.casefold()]
                    for part in (label or "").split(" / ")
                    if part.casefold() in plan.named_rows
                ),
                None,
            )
            precisions = find_precisions(definition) if definition else ()
            if precisions:
                found.append((document, table, vrow, *precision_fields(precisions[0])))
    return _with_row_precisions(rows, found)


def _with_row_precisions(rows: pl.DataFrame, found: list[tuple]) -> pl.DataFrame:
    """`rows` with the precisions `found` ((document, table, row, *precision fields)) for
    the rows whose cells state none."""
    if not found:
        return rows
    defined = pl.DataFrame(
        found,
        schema={
            "document": pl.Int32,
            "table_index": pl.Int32,
            "vrow": pl.Int32,
            "_d_text": pl.String,
            "_d_act": pl.String,
            "_d_wt": pl.String,
        },
        orient="row",
    )
    rows = rows.join(defined, on=ROW_KEY, how="left", maintain_order="left")
    open_row = pl.col("rq_text").is_null() & pl.col("fq_text").is_null()
    return rows.with_columns(
        pl.when(open_row)
        .then(pl.col(f"_d_{name}"))
        .otherwise(pl.col(f"fq_{name}"))
        .alias(f"fq_{name}")
        for name in ("text", "act", "wt")
    ).drop("_d_text", "_d_act", "_d_wt")


def _with_note_units(rows: pl.DataFrame, plans: dict[tuple[int, int], TablePlan]) -> pl.DataFrame:
    """Units a table's footnote gives per subject ('PQM4Mv2 throughput measured in
    graphs/s'): the row whose model, dataset or variant is most like the subject, when one
    row is alike enough and no other as much."""
    from perfledger.schemas.table_notes import note_units

    found = []
    for (document, table), plan in plans.items():
        if not plan.note or "measured in" not in plan.note.lower():
            continue
        candidates = (
            rows.filter((pl.col("document") == document) & (pl.col("table_index") == table))
            .select("vrow", "dataset", "model", "variant")
            .rows()
        )
        for vrow, unit in note_units(plan.note, candidates):
            found.append((document, table, vrow, *unit_fields(unit)))
    if not found:
        return rows
    notes = pl.DataFrame(
        found,
        schema={
            "document": pl.Int32,
            "table_index": pl.Int32,
            "vrow": pl.Int32,
            **{f"n_{name}": dtype for name, dtype in UNIT_FIELDS.items()},
        },
        orient="row",
    )
    rows = rows.join(notes, on=ROW_KEY, how="left")
    has_label_unit = pl.col("r_alias").is_not_null()
    return rows.with_columns(
        pl.when(has_label_unit)
        .then(pl.col(f"r_{name}"))
        .otherwise(pl.col(f"n_{name}"))
        .alias(f"r_{name}")
        for name in UNIT_FIELDS
    ).drop(f"n_{name}" for name in UNIT_FIELDS)
