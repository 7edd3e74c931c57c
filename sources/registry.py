"""The source registry: which pages perfledger reads, and the captures bundled with it."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

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


def load_registry(path: Path = REGISTRY_PATH) -> Registry:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"cannot read the source registry {path}: {error}") from error
    sources = {
        name: Source(name=name, **{**entry, "allowed_hosts": tuple(entry.get("allowed_hosts", ()))})
        for name, entry in data.get("sources", {}).items()
    }
    captures = []
    for entry in data.get("captures", []):
        if entry["source"] not in sources:
            raise ValueError(f"capture {entry['file']} names unknown source {entry['source']}")
        captures.append(
            Capture(
                path=(path.parent / entry["file"]).resolve(),
                source=entry["source"],
                captured_at=entry["captured_at"],
                content_type=entry.get("content_type", ""),
                note=entry.get("note", ""),
            )
        )
    return Registry(sources=sources, captures=tuple(captures))
