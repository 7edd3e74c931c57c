"""Mappings a user records for labels perfledger could not resolve, applied by every run.

They live beside the warehouse in `label-mappings.toml` (written by `perfledger map-label`),
as review decisions on claims do: `perfledger reprocess` re-reads the archived pages with
them, so the values come back without fetching anything.

    [[label]]
    kind = "platform"
    text = "Andromeda (16x CS-2)"
    accelerator = "CS-2"
    accelerator_count = 16

    [[label]]
    kind = "source"
    text = "file-results-de.html"
    language = "de"

    [[label]]
    kind = "table"
    text = "file-serving-results#2"
    model = "Llama 3.1 8B"
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from perfledger.schemas.folding import fold_words

MAPPING_FILE = "label-mappings.toml"
# What each kind of label may be mapped to, with the type of each field.
FIELDS: dict[str, dict[str, type]] = {
    "platform": {"accelerator": str, "accelerator_count": int, "vendor": str, "system": str},
    "column": {"kind": str, "role": str, "unit": str, "statistic": str, "precision": str},
    "model": {"model": str, "item_kind": str},
    "precision": {"activation": str, "weight": str},
    "unit": {"kind": str, "factor": float, "canonical": str, "item_kind": str},
    # A page's language where it declares none, by source id: it settles "12.345"; and the
    # model a page is about where it names it nowhere a table's values could take it from.
    "source": {"language": str, "model": str},
    # The model one table is about, the table named "SOURCE_ID#TABLE_INDEX".
    "table": {"model": str},
}
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}")
COLUMN_KINDS = ("metric", "result", "config", "label", "text", "reference", "unit", "metric_name")
UNIT_KINDS = ("rate", "duration", "ratio", "percent", "other")


class MappingFileError(ValueError):
    """The mapping file cannot be applied; the message names the entry."""


@dataclass(frozen=True)
class LabelMappings:
    """Mapped fields per label kind, keyed by the label's folded text."""

    by_kind: dict[str, dict[str, dict]] = field(default_factory=dict)

    def get(self, kind: str, text: str | None) -> dict | None:
        if not text or not self.by_kind.get(kind):
            return None
        return self.by_kind[kind].get(fold_words(text))

    def __bool__(self) -> bool:
        return any(self.by_kind.values())


NO_MAPPINGS = LabelMappings()


def mapping_path(warehouse: Path) -> Path:
    return warehouse / MAPPING_FILE


def read_mappings(path: Path) -> LabelMappings:
    if not path.exists():
        return NO_MAPPINGS
    try:
        entries = tomllib.loads(path.read_text(encoding="utf-8")).get("label", [])
    except tomllib.TOMLDecodeError as error:
        raise MappingFileError(f"{path}: {error}") from error
    by_kind: dict[str, dict[str, dict]] = {kind: {} for kind in FIELDS}
    for number, entry in enumerate(entries, start=1):
        kind, text = entry.get("kind"), entry.get("text")
        fields = {
            name: value for name, value in entry.items() if name not in ("kind", "text", "note")
        }
        problem = mapping_problem(kind, text, fields)
        if problem:
            raise MappingFileError(f"{path}: label entry {number}: {problem}")
        # The last entry for a label wins: a user corrects a mapping by adding another.
        by_kind[kind][fold_words(text)] = fields
    return LabelMappings(by_kind)


def mapping_problem(kind: object, text: object, fields: dict[str, object]) -> str | None:
    """Why an entry cannot be applied, or None."""
    if not isinstance(kind, str) or kind not in FIELDS:
        return f"kind must be one of {', '.join(FIELDS)}, not {kind!r}"
    if not isinstance(text, str) or not fold_words(text):
        return "text must name the label as published"
    if not fields:
        return f"map the label to at least one of {', '.join(FIELDS[kind])}"
    for name, value in fields.items():
        expected = FIELDS[kind].get(name)
        if expected is None:
            return f"a {kind} label cannot set {name!r}; it may set {', '.join(FIELDS[kind])}"
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            continue
        if not isinstance(value, expected) or isinstance(value, bool):
            return f"{name} must be a {expected.__name__}, not {value!r}"
    if kind == "column" and fields.get("kind", "metric") not in COLUMN_KINDS:
        return f"a column's kind must be one of {', '.join(COLUMN_KINDS)}"
    if kind == "unit" and fields.get("kind", "other") not in UNIT_KINDS:
        return f"a unit's kind must be one of {', '.join(UNIT_KINDS)}"
    if (
        kind == "source"
        and "language" in fields
        and not _LANGUAGE_TAG.fullmatch(str(fields["language"]))
    ):
        return "a source's language must be a language tag such as en or de-DE"
    count = fields.get("accelerator_count", 1)
    if isinstance(count, int) and count <= 0:  # an int: checked against FIELDS above
        return "accelerator_count must be positive"
    return None


def append_mapping(
    path: Path, kind: str, text: str, fields: dict[str, object], note: str | None = None
) -> None:
    problem = mapping_problem(kind, text, fields)
    if problem:
        raise MappingFileError(problem)
    lines = ["", "[[label]]", f"kind = {json.dumps(kind)}", f"text = {json.dumps(text)}"]
    lines += [f"{name} = {json.dumps(value)}" for name, value in fields.items()]
    if note:
        lines.append(f"note = {json.dumps(note)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
