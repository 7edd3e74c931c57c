"""The settings kept beside a warehouse's catalog (the sources a user added, label mappings,
claim reviews), which shape every run: for a shared warehouse they live on its bucket, under
`settings/`, so that every machine's runs apply the same ones.

A run reads them from the bucket before it reads the pages. A command that edits one takes
the warehouse's settings lock, reads the bucket's copy, edits it and puts it back, so that
two machines editing at once both keep their edit. A folder warehouse keeps them in its
folder, and nothing here applies to it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from perfledger.schemas.label_mappings import MAPPING_FILE
from perfledger.sources import archive
from perfledger.sources.object_store import store_at
from perfledger.sources.registry import USER_REGISTRY
from perfledger.warehouse import location
from perfledger.warehouse.reviews import REVIEW_FILE

SETTINGS_FILES = (USER_REGISTRY, MAPPING_FILE, REVIEW_FILE)


def pull(warehouse: Path) -> None:
    """This machine's copies of the settings made the bucket's, where it holds them."""
    shared = location.shared(warehouse)
    if shared is None:
        return
    store = store_at(shared.settings)
    for name in SETTINGS_FILES:
        text = store.get(name)
        if text is not None:
            archive.write_atomically(warehouse / name, text)


@contextlib.contextmanager
def editing(warehouse: Path) -> Iterator[None]:
    """Around an edit of a settings file: the latest copies first, the edited ones put back."""
    shared = location.shared(warehouse)
    if shared is None:
        yield
        return
    with location.settings_lock(shared):
        pull(warehouse)
        before = {name: _read(warehouse / name) for name in SETTINGS_FILES}
        yield
        store = store_at(shared.settings)
        for name in SETTINGS_FILES:
            if _read(warehouse / name) not in (None, before[name]):
                store.put_file(name, warehouse / name)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
