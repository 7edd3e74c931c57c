"""The source registry: which pages perfledger reads, and the captures bundled with it."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from perfledger.sources.capture_time import checked

REGISTRY_PATH = Path(__file__).resolve().parent / "registry.toml"


@dataclass(frozen=True)
class Source:
    name: str
    url: str
    publisher: str = ""
    title: str = ""
    kind: str = ""
    layout: str = "auto"
    schedule: str = ""
    allowed_hosts: tuple[str, ...] = ()
    description: str = ""
    local: bool = False  # True lets the fetcher reach loopback/private addresses


@dataclass(frozen=True)
class Capture:
    path: Path
    source: str
    captured_at: str
    content_type: str
    note: str = ""


@dataclass(frozen=True)
class Registry:
    sources: dict[str, Source] = field(default_factory=dict)
    captures: tuple[Capture, ...] = ()

    def source_for_url(self, url: str) -> Source | None:
        return next((s for s in self.sources.values() if s.url == url), None)


USER_REGISTRY = "registry.toml"  # beside the warehouse's catalog: sources a user added
_SOURCE_FIELDS = {
    "url",
    "publisher",
    "title",
    "kind",
    "layout",
    "schedule",
    "allowed_hosts",
    "description",
    "local",
}


class RegistryError(ValueError):
    """A registry file that cannot be used; the message names the file and the entry."""


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise RegistryError(f"cannot read the source registry {path}: {error}") from error


def _sources_of(data: dict, path: Path) -> dict[str, Source]:
    sources = {}
    for name, entry in data.get("sources", {}).items():
        unknown = sorted(set(entry) - _SOURCE_FIELDS)
        if unknown or "url" not in entry:
            raise RegistryError(
                f"{path}: source '{name}' needs a url and knows only {sorted(_SOURCE_FIELDS)}"
                + (f"; unknown: {unknown}" if unknown else "")
            )
        sources[name] = Source(
            name=name, **{**entry, "allowed_hosts": tuple(entry.get("allowed_hosts", ()))}
        )
    return sources


def load_registry(path: Path = REGISTRY_PATH, user_path: Path | None = None) -> Registry:
    """The bundled registry, with the user's registry (if any) added over it."""
    data = _read_toml(path)
    sources = _sources_of(data, path)
    if user_path is not None and user_path.exists():
        sources |= _sources_of(_read_toml(user_path), user_path)
    captures = []
    for entry in data.get("captures", []):
        if entry["source"] not in sources:
            raise RegistryError(f"capture {entry['file']} names unknown source {entry['source']}")
        captures.append(
            Capture(
                path=(path.parent / entry["file"]).resolve(),
                source=entry["source"],
                captured_at=_capture_time(entry, path),
                content_type=entry.get("content_type", ""),
                note=entry.get("note", ""),
            )
        )
    return Registry(sources=sources, captures=tuple(captures))


def _capture_time(entry: dict, path: Path) -> str:
    try:
        return checked(
            str(entry.get("captured_at", "")), f"{path}: capture {entry['file']}: captured_at"
        )
    except ValueError as error:
        raise RegistryError(str(error)) from None


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def add_source(user_path: Path, source: Source) -> None:
    """Append a source to the user's registry; a name already used is refused."""
    existing = _sources_of(_read_toml(user_path), user_path) if user_path.exists() else {}
    if source.name in existing or source.name in load_registry().sources:
        raise RegistryError(f"a source named '{source.name}' exists already")
    lines = ["", f"[sources.{json.dumps(source.name)}]"]
    for name in (
        "url",
        "publisher",
        "title",
        "kind",
        "layout",
        "schedule",
        "allowed_hosts",
        "description",
        "local",
    ):
        value = getattr(source, name)
        if value not in ("", (), None) and not (name == "local" and value is False):
            lines.append(f"{name} = {_toml_value(value)}")
    user_path.parent.mkdir(parents=True, exist_ok=True)
    with user_path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
