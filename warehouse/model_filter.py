"""Which models `perfledger report` shows (its --model option): a module of its own, which
report.py and report_models.py (they import each other) both import by one name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelFilter:
    """Which models the report shows: those whose name contains one of `words` (casefolded),
    every model when there are none."""

    words: tuple[str, ...] = ()

    def __call__(self, model: str | None) -> bool:
        return not self.words or any(word in (model or "").casefold() for word in self.words)

    def describe(self) -> str:
        if not self.words:
            return "every model"
        return "models whose name contains " + " or ".join(f"“{word}”" for word in self.words)


KEEP_ALL = ModelFilter()
