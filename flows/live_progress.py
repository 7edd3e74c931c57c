"""A run's progress on a terminal: a bar over its documents, drawn by rich (which Prefect
installs), with the lines that matter (failures, waits) printed above it.

Used only when stderr is a terminal: piped or captured output keeps the plain lines of
pipeline.RunTracker, one per document, which logs and scripts read.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import click

from perfledger.flows.pipeline import RunTracker
from perfledger.warehouse.load import DocumentLoad


def on_terminal() -> bool:
    """Whether a live display may be drawn: stderr (where it goes) and stdout (where the
    summary goes) are both a terminal."""
    return sys.stderr.isatty() and sys.stdout.isatty()


@contextlib.contextmanager
def tracker_for(quiet: bool, reading: str = "reading files") -> Iterator[RunTracker]:
    """How a command shows a run: nothing with --quiet, a live bar on a terminal, else a
    line per document on stderr."""
    if quiet:
        yield RunTracker()
    elif on_terminal():
        with LiveProgress(reading) as live:
            yield live
    else:
        yield RunTracker(lambda message: click.echo(f"  {message}", err=True))


class LiveProgress(RunTracker):
    """A RunTracker drawn as a live bar; a context manager that clears it when done."""

    def __init__(self, reading: str = "reading files") -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        super().__init__()
        self._display = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[name]}"),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._display.add_task(reading, total=None, name="")

    def __enter__(self) -> LiveProgress:
        self._display.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._display.stop()

    def message(self, text: str) -> None:
        self._display.console.print(f"  {text}", markup=False, highlight=False)

    def collected(self, count: int) -> None:
        self._display.update(self._task, description="reading documents", total=count, completed=0)

    def read(self, name: str, load: DocumentLoad) -> None:
        if load.status == "failed":
            self.message(f"{name}: failed - {load.message}")
        self._display.update(
            self._task, description="reading documents", advance=1, name=_shortened(name)
        )

    def writing(self) -> None:
        self._display.update(self._task, description="writing the snapshot", name="")


def _shortened(name: str, width: int = 50) -> str:
    return name if len(name) <= width else "\u2026" + name[-(width - 1) :]
