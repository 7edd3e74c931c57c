"""Page layouts: each module of this package that defines LAYOUT is one layout."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from sources.layouts.base import Layout


@cache
def all_layouts() -> dict[str, Layout]:
    layouts: dict[str, Layout] = {}
    for module_info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        layout = getattr(module, "LAYOUT", None)
        if isinstance(layout, Layout):
            layouts[layout.name] = layout
    return layouts


def choose_layout(data: bytes, content_type: str | None, requested: str = "auto") -> Layout:
    """The layout named by the source, or the one whose sniffer scores the bytes highest."""
    layouts = all_layouts()
    if requested != "auto":
        if requested not in layouts:
            raise ValueError(f"unknown layout '{requested}'; known: {', '.join(sorted(layouts))}")
        return layouts[requested]
    return max(layouts.values(), key=lambda layout: layout.sniff(data, content_type))
