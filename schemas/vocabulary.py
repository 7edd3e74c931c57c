"""Load the vocabularies under schemas/vocab/: the data that maps vendor words to canonical ones."""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import polars as pl

VOCAB_DIR = Path(__file__).resolve().parent / "vocab"

DIMENSION_ROLES = (
    "model",
    "variant",
    "platform",
    "sdk_version",
    "framework",
    "dataset",
    "batch_size",
    "precision",
    "division",
    "quality_target",
    "mlperf_id",
)
METRIC_ROLES = (
    "throughput",
    "latency",
    "time_to_train",
    "time_to_result",
    "eval_metric",
    "ranking",
)

_UNIT_IN_HEADER = re.compile(r"\(([^()]{1,40})\)\s*$")


def read_vocab(name: str) -> pl.DataFrame:
    """Read one vocabulary CSV as strings, so that a stray number never changes a column's type."""
    path = VOCAB_DIR / name
    status = path.stat()
    # Normalization asks for the same few files for every document; an edited file (another
    # size or mtime) is read again.
    return _read_vocab_file(path, status.st_mtime_ns, status.st_size)


@cache
def word_alternatives(name: str) -> re.Pattern[str]:
    """The patterns of a vocabulary file's `pattern` column as one pattern, each matching
    as whole words of folded text (no letter on either side): "accuracy loss", "init"."""
    patterns = read_vocab(name).get_column("pattern").to_list()
    return re.compile(r"(?<![a-z])(?:" + "|".join(patterns) + r")(?![a-z])")


def vocabulary_signature() -> tuple[tuple[str, int, int], ...]:
    """(name, size, modification time) of every vocabulary file: changes when one is edited."""
    return tuple(
        (entry.name, status.st_size, status.st_mtime_ns)
        for entry in sorted(VOCAB_DIR.iterdir())
        for status in [entry.stat()]
    )


@lru_cache(maxsize=128)
def _read_vocab_file(path: Path, _mtime_ns: int, _size: int) -> pl.DataFrame:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        raise ValueError(f"vocabulary {path} is empty")
    frame = pl.DataFrame(rows, schema={key: pl.String for key in rows[0]})
    # An empty field means "no value", never the empty string.
    return frame.with_columns(pl.all().replace("", None))


def fold_label(text: str) -> str:
    """Lower-case and compatibility-fold a label so that spacing and width variants compare equal."""
    folded = unicodedata.normalize("NFKC", text).replace("\u00a0", " ").strip().lower()
    return re.sub(r"\s+", " ", folded)


def split_header(header: str) -> tuple[str, str | None]:
    """'Throughput (items/sec)' -> ('throughput', 'items/sec')."""
    folded = fold_label(header)
    match = _UNIT_IN_HEADER.search(folded)
    if match is None:
        return folded, None
    return folded[: match.start()].strip(), match.group(1).strip()


@dataclass(frozen=True)
class ColumnRole:
    role: str
    identifying: bool
    description: str


@cache
def column_vocabulary() -> tuple[tuple[re.Pattern[str], ColumnRole], ...]:
    rows = read_vocab("columns.csv").iter_rows(named=True)
    return tuple(
        (
            re.compile(rf"(?:{row['pattern']})"),
            ColumnRole(row["role"], row["identifying"] == "true", row["description"]),
        )
        for row in rows
    )


def classify_header(header: str) -> ColumnRole | None:
    """The role of a column from its header text, or None when the header is not known."""
    base, _unit = split_header(header)
    for pattern, role in column_vocabulary():
        if pattern.fullmatch(base):
            return role
    return None


def header_unit(header: str) -> str | None:
    return split_header(header)[1]
