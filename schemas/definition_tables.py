"""Tables that define the header words of another table of their page.

A results table headed with abbreviations ("e2e_time | p_whole | p_train | acc") is often
preceded or followed by a table that spells each one out, a row per word:

    | 指标名称 (name) | 指标值 (value)        | 特殊说明 (note)          |
    | 总吞吐量        | p_whole, 见"性能指标" | 实际训练图片数除以总时间 |

A cell that starts with a header word of another table of the page, in two rows at least,
makes its table such a definition list: each of those rows' first cell is the definition of
that word, with the unit its remark states ("单位为GiB"). A header that reads as nothing reads
as its definition (schemas/table_plans.py,
as a glossary written in prose does), and only where the definition names a metric: a
definition that names a label or a setting would turn a column of numbers into labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import polars as pl

from perfledger.schemas.folding import clean_text
from perfledger.schemas.row_labels import TABLE_KEY
from perfledger.schemas.units import stated_units

MIN_DEFINED = 2  # one row naming a header is a coincidence; two make a list of definitions
# The word a definition cell starts with: an identifier ("p_whole", "token/p/s", "MFU"),
# before the remark that follows it (", 见“性能指标”", " (see below)").
_LEADING_WORD = r"^\s*\**\s*([A-Za-z][\w.+/-]{0,30})"


def header_key(text: str) -> str:
    """A header as definitions are looked up: cleaned, marks around it gone, case folded."""
    return clean_text(text).strip(" *_:").casefold()


def defined_headers(
    cells: pl.DataFrame,
    headers: dict[tuple[int, int], tuple[str, ...]],
    names_metric: Callable[[str], bool],
) -> dict[int, dict[str, str]]:
    """{document: {header key: definition}} of the definition tables of `cells` (oriented
    cells of one or more documents, `vrow`/`vcol`), for the headers of each document's other
    tables that read as nothing. `headers` gives each table's header cells;
    `names_metric(text)` says whether a definition names a metric."""
    wanted: dict[int, dict[str, set[int]]] = {}  # document -> header key -> its tables
    for (document, table), texts in headers.items():
        for text in texts:
            key = header_key(text)
            if key and _LEADING_CHARS.fullmatch(key):
                wanted.setdefault(document, {}).setdefault(key, set()).add(table)
    if not wanted:
        return {}
    keys = sorted({key for found in wanted.values() for key in found})
    named = (
        cells.filter(
            (pl.col("vrow") > 0)
            & (pl.col("vcol") > 0)
            # A cell whose leading word is a key holds the key, lower-cased, somewhere: one
            # scan for all the keys at once leaves the word's extraction, which costs more,
            # to the few cells that may start with one.
            & pl.col("raw_value").str.to_lowercase().str.contains_any(keys)
        )
        .with_columns(
            _key=pl.col("raw_value").str.extract(_LEADING_WORD, 1).str.to_lowercase(),
        )
        .filter(pl.col("_key").is_in(keys))
        .select(*TABLE_KEY, "vrow", "_key")
    )
    if named.height < MIN_DEFINED:
        return {}
    names = (
        cells.filter(pl.col("vcol") == 0)
        .join(named, on=[*TABLE_KEY, "vrow"], how="inner")
        .select(*TABLE_KEY, "vrow", "_key", "raw_value")
    )
    units = _units_noted(cells, names)
    by_table: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for document, table, row, key, name in names.iter_rows():
        if table not in wanted.get(document, {}).get(key, {table}):
            unit = units.get((document, table, row))
            by_table.setdefault((document, table), []).append(
                (key, f"{name} ({unit})" if unit and clean_text(name) else name)
            )
    found: dict[int, dict[str, str]] = {}
    for (document, _table), pairs in by_table.items():
        definitions = {
            key: clean_text(name)
            for key, name in pairs
            if clean_text(name) and header_key(name) != key and names_metric(name)
        }
        if len(pairs) >= MIN_DEFINED and definitions:
            page = found.setdefault(document, {})
            for key, definition in definitions.items():
                page.setdefault(key, definition)
    return found


_LEADING_CHARS = re.compile(r"[a-z][\w.+/-]{0,30}")


def _units_noted(cells: pl.DataFrame, names: pl.DataFrame) -> dict[tuple[int, int, int], str]:
    """The unit each definition row's remark states ("通常称为“显存”,单位为GiB"): the defined
    word's unit, which its own header does not write."""
    remarks = cells.filter(pl.col("vcol") >= 2).join(
        names.select(*TABLE_KEY, "vrow"), on=[*TABLE_KEY, "vrow"], how="semi"
    )
    found = {}
    for document, table, row, text in remarks.select(*TABLE_KEY, "vrow", "raw_value").iter_rows():
        stated = stated_units(clean_text(text)) if text else []
        if stated:
            found[(document, table, row)] = stated[-1].canonical
    return found
