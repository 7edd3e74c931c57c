"""The files a table's cells link to, as one outline block of the table ("links").

A model zoo often names the device its numbers were measured on only in the files its table
links, compiled per device: "`H <.../Compiled/v2.17.0/hailo8/cas_vit_m.hef>`_",
"[yolov5s](.../rk3588/yolov5s.rknn)". The cells keep the text a reader sees; the targets of
their links to model files are kept apart, for the table's context to read the device from
(schemas/context_labels.py) when nothing nearer names one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A link's target as Markdown ("[H](target)"), reStructuredText ("`H <target>`_") and HTML
# (href="target") write it.
_TARGET = re.compile(
    r"\]\(\s*<?(?P<md>[^()\s<>]+)|<(?P<rst>[^<>\s`]+)>`_|href\s*=\s*[\"'](?P<html>[^\"']+)",
    re.I,
)
# A file of a model, as converted or compiled for a runtime or a device: a link to a page or
# a picture says nothing of where a table's numbers were measured.
_MODEL_FILE = re.compile(
    r"\.(?:hef|rknn|bmodel|cvimodel|axmodel|om|engine|plan|trt|tflite|onnx|mlmodel|mlpackage"
    r"|dlc|xmodel|kmodel|nb|mnn|pt|pth|bin|safetensors|gguf)$",
    re.I,
)
MAX_TARGETS = 64  # distinct files kept per table: a sample enough to tell its devices


def links_block(lines: Iterable[str], line: int, table_index: int) -> list[tuple]:
    """The outline row of the model files `lines` (a table's rows as written) link to, one a
    line; none when they link none."""
    targets = (
        match.group("md") or match.group("rst") or match.group("html")
        for text in lines
        if "](" in text or "`_" in text or "href" in text.lower()
        for match in _TARGET.finditer(text)
    )
    return links_of(targets, line, table_index)


def links_of(targets: Iterable[str], line: int, table_index: int) -> list[tuple]:
    """The outline row of the model files among a table's link `targets`, one a line; none
    when none is a model file."""
    files: dict[str, None] = {}
    for target in targets:
        path = target.split("?", 1)[0].split("#", 1)[0]
        if _MODEL_FILE.search(path):
            files[path] = None
            if len(files) >= MAX_TARGETS:
                break
    return [(line, "links", None, "\n".join(files), table_index)] if files else []
