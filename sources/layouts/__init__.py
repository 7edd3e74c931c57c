"""Page layouts: each module of this package that defines LAYOUT is one layout.

A layout declares with its LAYOUT the media types fetch asks for and keeps for it and the file
suffixes collect reads as its pages (see `Layout` in sources/layouts/base.py); fetch and
collect read them here, so adding a layout takes its module alone.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from perfledger.sources.layouts.base import Layout


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


def fetched_media_types() -> frozenset[str]:
    """The media types a fetched page may have: those some layout reads."""
    return frozenset(name for layout in all_layouts().values() for name in layout.media_types)


def accepted_media_types() -> list[tuple[str, float]]:
    """(media type, weight) of the types fetch asks for by name, the most wanted first; among
    equal weights, in the layouts' order."""
    asked = [
        (name, weight)
        for layout in all_layouts().values()
        for name, weight in layout.media_types.items()
        if weight is not None
    ]
    return sorted(asked, key=lambda pair: -pair[1])


def file_media_types() -> dict[str, str]:
    """The media type of a file by its suffix (".md"), for every suffix some layout reads."""
    found: dict[str, str] = {}
    owners: dict[str, str] = {}
    for layout in all_layouts().values():
        for suffix, media_type in layout.suffixes.items():
            suffix = suffix.lower()
            if found.setdefault(suffix, media_type) != media_type:
                raise ValueError(
                    f"the layouts {owners[suffix]} and {layout.name} both read "
                    f"'{suffix}' files, as {found[suffix]} and {media_type}"
                )
            owners.setdefault(suffix, layout.name)
    return found
