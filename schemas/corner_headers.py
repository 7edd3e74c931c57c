"""What the top-left header of a table says of all of it: the model it names
("Llama-3.1-8B-Instruct" over rows of runs), the precision it is ("q4k" over rows of
phases), the software every row ran on ("DeepStream" over rows of models) or the setting its
numbered columns are values of ("Seq Len | 256 | 512")."""

from __future__ import annotations

import re
from dataclasses import replace

from perfledger.schemas.header_reading import HeaderReading
from perfledger.schemas.labels import framework_alone, known_model
from perfledger.schemas.precisions import Precision


def corner_precision(readings: list[HeaderReading]) -> Precision | None:
    """The precision a top-left header is, and nothing else ("q4k" over rows of phases and
    columns of lengths): every value of the table ran in it."""
    corner = readings[0] if readings else None
    if corner is None or corner.kind is not None or corner.precision is None:
        return None
    return corner.precision if corner.precision.text == corner.text else None


_BEFORE_METRIC = re.compile(r"(?i)\s*(\S.*?)\s+metrics?\s*")


def corner_model(readings: list[HeaderReading]) -> str | None:
    """A top-left header naming no role ("Llama-3.1-8B-Instruct") names the table's model,
    when no column holds models."""
    corner = readings[0] if readings else None
    if corner is not None and corner.kind == "metric_name":
        # "GLM4-chat Metric" over rows of benchmarks: the model, and what its rows name
        named = _BEFORE_METRIC.fullmatch(corner.text)
        corner = HeaderReading(named.group(1), None, None) if named else corner
    if corner is None or corner.kind is not None or not corner.text or corner.is_number:
        return None
    if any(reading.role == "model" for reading in readings):
        return None
    if corner_precision(readings) is not None:
        return None  # "q4k", "INT8" over rows of phases: the table's precision, no model
    # A model's name holds its size or version ("Llama-3.1-8B", "ResNet50") or is known whole
    # ("BERT"); another word alone ("Run", "Name") heads the row labels.
    named = any(character.isdigit() for character in corner.text) or known_model(corner.text)
    return corner.text if named else None


def corner_framework(readings: list[HeaderReading]) -> str | None:
    """The framework a top-left header names alone ("DeepStream" over "YOLO-NAS L",
    "YOLOv8s"...): every row ran on it, and the words under it name the rows' models."""
    corner = readings[0] if len(readings) > 1 else None
    if corner is None or corner.kind is not None or any(r.role == "model" for r in readings):
        return None
    return framework_alone(corner.text)


def corner_setting_of(readings: list[HeaderReading], roles: list[str]) -> HeaderReading | None:
    """The top-left header's setting when most result columns (by `roles`, the columns' roles
    in a table's plan) are headed by a number: the header row then lists that setting's
    values ("Seq Len | 256 | 512 | 1024"). A corner of no known role that names no model,
    precision or software ("History length | 16 | 32") is a setting of its own name."""
    if not readings:
        return None
    corner = readings[0]
    unknown = (
        corner.kind is None
        and bool(corner.text)
        and not corner.is_number
        and corner_model(readings) is None
        and corner_precision(readings) is None
        and corner_framework(readings) is None
    )
    if not unknown and (roles[0] != "config" or corner.role is None):
        return None
    results = [
        reading for reading, role in zip(readings[1:], roles[1:], strict=True) if role == "result"
    ]
    numbered = sum(1 for reading in results if reading.is_number)
    if not results or numbered * 2 <= len(results):
        return None
    return replace(corner, kind="config", role="setting") if unknown else corner
