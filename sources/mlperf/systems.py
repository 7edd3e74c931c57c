"""Read an MLPerf system description (systems/<system>.json) into canonical platform labels.

How MLCommons reads the same file (mlcommons/logging, result_summarizer/result_summarizer.py,
commit d4a66d8): the accelerator count is `int(accelerators_per_node) * int(number_of_nodes)`,
and the `status` is mapped by `_map_availability` through result_summarizer/config.yaml
(commit e6e040b, `availability:`), trying the status as written, then lower-cased; a status
the map lacks is an error there. The categories are the four the system description checker
accepts from round 4.1 on (system_desc_checker/system_desc_checker.py, commit 48ccae8):
"Available on-premise", "Available cloud", "Research, Development, or Internal (RDI)",
"Preview". The map is data: sources/mlperf/rules/availability.csv.
"""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polars as pl

from perfledger.schemas.labels import canonical_framework, resolve_platforms
from perfledger.schemas.platform_mentions import read_platform
from perfledger.sources.mlperf.mllog import Problem

MAX_SYSTEM_BYTES = 1024 * 1024
MAX_COUNT = 1_000_000  # nodes or accelerators per node; beyond it a count is not one

AVAILABILITY_MAP = Path(__file__).resolve().parent / "rules" / "availability.csv"
# The official category -> the short availability the project's frames use.
AVAILABILITY_SHORT = {
    "Available on-premise": "available",
    "Available cloud": "available",
    "Research, Development, or Internal (RDI)": "rdi",
    "Preview": "preview",
}
DIVISIONS = ("closed", "open")
_MEMORY = re.compile(r"(\d+(?:\.\d+)?)\s*(GB|GiB|TB)\b", re.I)
_SDK = re.compile(r"\b(?:[A-Za-z]+\s+)?SDK\s+v?\d+(?:\.\d+)*", re.I)


@dataclass(frozen=True)
class SystemDescription:
    system_id: str  # file stem, the name the results/ folder uses
    submitter_name: str | None
    division: str | None
    status: str | None  # as written: onprem, cloud, available, preview, research
    availability: str | None  # available, preview or rdi
    availability_category: str | None  # the official category, e.g. "Available on-premise"
    system_name: str | None  # as written
    number_of_nodes: int | None
    accelerators_per_node: int | None
    accelerator_count: int | None
    accelerator_model_name: str | None
    accelerator_memory_gb: float | None
    host_processor_model_name: str | None
    host_processors_per_node: int | None
    framework: str | None
    framework_canonical: str | None
    sdk_version: str | None
    vendor: str | None
    system: str | None  # canonical, as the vendor pages' normalizer names it
    accelerator: str | None
    platform_resolution: str  # how `system` was found, see resolve_system_platform


def read_system_file(path: Path) -> tuple[SystemDescription | None, list[Problem]]:
    """Parse one system JSON (at most MAX_SYSTEM_BYTES of it)."""
    with Path(path).open("rb") as handle:
        data = handle.read(MAX_SYSTEM_BYTES + 1)
    if len(data) > MAX_SYSTEM_BYTES:
        return None, [
            Problem("file_too_large", f"system description larger than {MAX_SYSTEM_BYTES} bytes")
        ]
    problems: list[Problem] = []
    try:
        fields = json.loads(
            data.decode("utf-8", errors="replace"),
            object_pairs_hook=lambda pairs: _keep_first(pairs, problems),
        )
    except ValueError as error:
        return None, [
            Problem(
                "malformed_json",
                f"not valid JSON: {error}",
                None,
                data[:200].decode("utf-8", errors="replace"),
            )
        ]
    if not isinstance(fields, dict):
        return None, [Problem("malformed_json", "the system description is not a JSON object")]
    description, more = describe_system(Path(path).stem, fields)
    return description, problems + more


def _keep_first(pairs: list[tuple[str, object]], problems: list[Problem]) -> dict:
    fields: dict = {}
    for key, value in pairs:
        # Submitters repeat keys; only a repeat with another value is worth reporting.
        if key in fields and fields[key] != value:
            problems.append(
                Problem(
                    "conflicting_key",
                    f"'{key}' is given twice with different values; the first is used",
                    None,
                    str(value)[:200],
                )
            )
        fields.setdefault(key, value)
    return fields


def describe_system(system_id: str, fields: dict) -> tuple[SystemDescription, list[Problem]]:
    """Canonical description of one system from its JSON fields."""
    problems: list[Problem] = []
    nodes = _read_count(fields, "number_of_nodes", problems)
    per_node = _read_count(fields, "accelerators_per_node", problems)
    count = nodes * per_node if nodes is not None and per_node is not None else None
    if count == 0:
        # A CPU-only system has no accelerator to name, so its scores cannot be measurements.
        problems.append(Problem("no_accelerators", "the system states no accelerator"))
    division = _read_text(fields.get("division"))
    division = division.lower() if division else None
    if division not in DIVISIONS:
        problems.append(Problem("unknown_division", f"division '{division}' is not closed/open"))
        division = None
    status = _read_text(fields.get("status"))
    category = map_availability(status)
    if category is None:
        problems.append(
            Problem(
                "unknown_status",
                f"status '{status}' is not an availability the MLCommons "
                "summarizer maps (sources/mlperf/rules/availability.csv)",
            )
        )
    framework = _read_text(fields.get("framework"))
    accelerator_model = _read_text(fields.get("accelerator_model_name"))
    system_name = _read_text(fields.get("system_name"))
    submitter = _read_text(fields.get("submitter"))
    vendor, system, accelerator, how = resolve_system_platform(
        system_name, system_id, accelerator_model, count, submitter
    )
    host = _read_text(fields.get("host_processor_model_name"))
    if count == 0 and host:
        # A CPU-only system's vendor is its processor's maker, not its submitter.
        processor = read_platform(host)
        vendor = processor.vendor if processor is not None and processor.vendor else vendor
    return SystemDescription(
        system_id=system_id,
        submitter_name=submitter,
        division=division,
        status=status,
        availability=AVAILABILITY_SHORT.get(category) if category else None,
        availability_category=category,
        system_name=system_name,
        number_of_nodes=nodes,
        accelerators_per_node=per_node,
        accelerator_count=count,
        accelerator_model_name=accelerator_model,
        accelerator_memory_gb=parse_memory_gb(
            _read_text(fields.get("accelerator_memory_capacity"))
        ),
        host_processor_model_name=host,
        host_processors_per_node=_optional_count(fields, "host_processors_per_node"),
        framework=framework,
        framework_canonical=canonicalize_framework(framework),
        sdk_version=find_sdk_version(framework),
        vendor=vendor,
        system=system,
        accelerator=accelerator,
        platform_resolution=how,
    ), problems


def resolve_system_platform(
    system_name: str | None,
    system_id: str,
    accelerator_model: str | None,
    accelerator_count: int | None,
    submitter: str | None,
) -> tuple[str | None, str | None, str | None, str]:
    """(vendor, system, accelerator, how) through schemas/vocab/platforms.csv.

    Tried in order: the system name ("Bow-Pod16" -> Bow Pod16), the system id up to its
    first "_" (NVIDIA's "dgxa100_ngc22.04_mxnet" -> DGX A100), then "<count>x <accelerator>"
    from the JSON ("128x Gaudi"). A name is accepted only when the platform it names holds
    the JSON's own accelerator count, so a name never overrides what the JSON states.
    Unresolved systems keep the submitter, the system name and the accelerator as written.
    """
    candidates: list[tuple[str, str]] = []
    if system_name:
        candidates.append(("system_name", system_name))
    if "_" in system_id:
        candidates.append(("system_id", system_id.split("_", 1)[0]))
    if accelerator_model and accelerator_count:
        candidates.append(("accelerator_count", f"{accelerator_count}x {accelerator_model}"))
        short = accelerator_model.split(" ", 1)[-1]  # "NVIDIA A100-SXM4-80GB" -> "A100-SXM4-80GB"
        candidates.append(("accelerator_count", f"{accelerator_count}x {short}"))
    resolved = resolve_platforms(pl.Series([label for _, label in candidates], dtype=pl.String))
    by_label = {row["platform"]: row for row in resolved.iter_rows(named=True)}
    for how, label in candidates:
        row = by_label.get(label)
        if row is None or row.get("system") is None:
            continue
        if accelerator_count is not None and row["accelerator_count"] != accelerator_count:
            continue
        return row["vendor"], row["system"], row["accelerator"], how
    # A system no platform names, of a chip the vocabulary knows ("AMD Instinct
    # MI300X-NPS1-SPX-192GB-750W" is an MI300X): its chip as vendor pages name it.
    chip = read_platform(accelerator_model) if accelerator_model else None
    if chip is not None and chip.accelerator is not None:
        return chip.vendor, system_name or system_id, chip.accelerator, "accelerator_vocabulary"
    return submitter, system_name or system_id, accelerator_model, "unresolved"


def canonicalize_framework(framework: str | None) -> str | None:
    """'TensorFlow 1.15 Poplar SDK 2.5.1' -> 'TensorFlow'; 'MxNet NVIDIA Release 22.04' -> 'MXNet'."""
    if not framework:
        return None
    first = re.split(r"[\s(,]+", framework.strip(), maxsplit=1)[0]
    return pl.select(canonical_framework(pl.lit(first))).item() or first


def find_sdk_version(framework: str | None) -> str | None:
    """The vendor SDK named in the framework field ('Poplar SDK 2.5.1'), if any."""
    if not framework:
        return None
    match = _SDK.search(framework)
    return match.group(0) if match else None


def parse_memory_gb(text: str | None) -> float | None:
    """'80 GB' -> 80.0; '32GB' -> 32.0; None when no size is stated."""
    if not text:
        return None
    match = _MEMORY.search(text)
    if match is None:
        return None
    number = float(match.group(1))
    return number * 1024 if match.group(2).upper() == "TB" else number


@cache
def availability_map() -> dict[str, str]:
    """Status as written -> official category, from sources/mlperf/rules/availability.csv."""
    with AVAILABILITY_MAP.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    mapping = {row["status"]: row["category"] for row in rows}
    unknown = set(mapping.values()) - set(AVAILABILITY_SHORT)
    if unknown:
        raise ValueError(f"{AVAILABILITY_MAP.name}: unknown categories {sorted(unknown)}")
    return mapping


def map_availability(status: str | None) -> str | None:
    """The official category of a status, as `_map_availability` finds it: the status as
    written, else lower-cased; None when the map has neither."""
    if not status:
        return None
    mapping = availability_map()
    return mapping.get(status) or mapping.get(status.lower())


def _read_count(fields: dict, key: str, problems: list[Problem]) -> int | None:
    value = fields.get(key)
    text = _read_text(value)
    if text is None:
        problems.append(Problem("missing_field", f"'{key}' is missing"))
        return None
    number = read_whole_number(value)
    if number is None:
        problems.append(Problem("bad_number", f"'{key}' is not a whole number", None, text))
        return None
    if number < 0:
        problems.append(Problem("bad_number", f"'{key}' is negative", None, text))
        return None
    if number > MAX_COUNT:
        problems.append(Problem("bad_number", f"'{key}' is over {MAX_COUNT:,}", None, text))
        return None
    return number


def _optional_count(fields: dict, key: str) -> int | None:
    """A count the description may leave out or write as "N/A"."""
    number = read_whole_number(fields.get(key))
    return number if number is not None and 0 < number <= MAX_COUNT else None


def read_whole_number(value) -> int | None:
    """8, 8.0, "8", "8.0", " 1.0 " -> 8 or 1; 1.5, "two", True, inf -> None.

    The summarizer's int(...) takes the JSON numbers 8 and 8.0; submitters also write the
    count as text, with or without a decimal part."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            pass
        try:
            value = float(text)
        except ValueError:
            return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _read_text(value) -> str | None:
    if value is None or isinstance(value, dict | list):
        return None
    text = str(value).strip()
    return text or None
