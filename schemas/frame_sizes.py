"""Frame sizes written in a header ("HD (1920x1080)", "4K", "720p", "VGA"): the input a column
of results ran on, which names no model."""

from __future__ import annotations

import re

_FRAME_SIZE = re.compile(
    r"(?i)(?<![\w.])(?:\d{2,5} ?[x×] ?\d{2,5}|\d{3,4}p|[248]k|[fqu]?hd|q?vga)(?![\w.])"
)


def names_frame_size(header: str) -> bool:
    """Whether a header names the frame size of a video or image its column ran on."""
    return _FRAME_SIZE.search(header) is not None
