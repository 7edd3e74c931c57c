"""Numeric settings from the environment: one reader, one kind of error for every setting."""

from __future__ import annotations

import pytest

from perfledger.flows import budget, readers, settings
from perfledger.warehouse import compaction


def test_a_budget_that_is_not_a_finite_number_is_refused_by_name(monkeypatch):
    for text in ("nan", "inf", "-inf"):
        monkeypatch.setenv(budget.TIMEOUT_ENV, text)
        with pytest.raises(
            ValueError, match=f"PERFLEDGER_DOCUMENT_TIMEOUT_S must be a number, not '{text}'"
        ):
            budget.Budget.from_env()
    monkeypatch.setenv(budget.TIMEOUT_ENV, "1_5.5")
    assert budget.Budget.from_env().timeout_s == 15.5


def test_zero_turns_merging_off_but_zero_readers_is_refused(monkeypatch):
    monkeypatch.setenv(compaction.EVERY_ENV, "0")
    assert settings.merge_every() == 0
    monkeypatch.setenv(compaction.EVERY_ENV, "1_000")
    assert settings.merge_every() == 1000
    monkeypatch.delenv(compaction.EVERY_ENV)
    assert settings.merge_every() == compaction.DEFAULT_EVERY == 64
    monkeypatch.setenv(compaction.EVERY_ENV, "-3")
    with pytest.raises(
        ValueError,
        match=r"COMPACT_EVERY must be 0 or more: a whole number of "
        r"snapshots \(0: never\), not '-3'",
    ):
        settings.merge_every()
    monkeypatch.setenv(readers.READERS_ENV, "0")
    with pytest.raises(ValueError, match="PERFLEDGER_READERS must be positive: a whole number"):
        readers.reader_count()
