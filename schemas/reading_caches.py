"""The memo of the label readers, emptied when a vocabulary under schemas/vocab/ changes.

Headers, platforms, precisions, units and rows repeat from table to table and page to page,
so each reader keeps what it found; an edited vocabulary (a chip added, then `perfledger
reprocess` in the same process, as the tests do) must not be answered from the old memo."""

from __future__ import annotations

from functools import _lru_cache_wrapper
from importlib import import_module

from perfledger.schemas.vocabulary import vocabulary_signature

_seen: list[tuple] = []


def refresh_caches() -> None:
    """Empty every reader's memo when the vocabularies differ from the last call's."""
    signature = vocabulary_signature()
    if _seen and _seen[0] == signature:
        return
    if _seen:
        for clear in _clearers():
            clear()
    _seen[:] = [signature]


# The modules whose readers keep a memo of what they read (lru_cache or cache).
_MEMO_MODULES = (
    "cell_reading",
    "chip_vocabulary",
    "context_datasets",
    "context_labels",
    "folding",
    "header_reading",
    "identities",
    "labels",
    "legends",
    "model_names",
    "platform_mentions",
    "precisions",
    "row_labels",
    "table_notes",
    "table_plans",
    "table_subject",
    "units",
    "unknown_chips",
    "value_reading",
    "vocabulary",
)


def _clearers() -> list:
    modules = [import_module(f"perfledger.schemas.{name}") for name in _MEMO_MODULES]
    return [
        value.cache_clear
        for module in modules
        for value in vars(module).values()
        if isinstance(value, _lru_cache_wrapper)
    ]
