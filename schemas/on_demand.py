"""Pandera models named from the module that states their columns, imported only when used.

pandera brings pandas and numpy (over 70 MB); an ingest whose frames pass the plain polars
checks never needs them, yet `schemas.cells.CellSchema` and the like must keep working.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable


def models_on_demand(owner: str, module: str, names: Iterable[str]) -> Callable[[str], object]:
    """A module-level `__getattr__` for the module `owner` that imports `module` (a sibling of
    `owner` when written `.name`) the first time one of `names` is asked for and hands back
    that name from it."""
    wanted = frozenset(names)

    def __getattr__(name: str) -> object:
        if name in wanted:
            return getattr(importlib.import_module(module, owner.rpartition(".")[0]), name)
        raise AttributeError(f"module {owner!r} has no attribute {name!r}")

    return __getattr__
