"""A claim whose sentence and context name no baseline, about a system the page compares with
one baseline elsewhere ("torch.compile ... by more than 3.5 times" on a page whose other claim
reads "torch.compile improves the throughput ... when compared to Eager-mode"), takes that
baseline: read once all the page's claims are read, since the stating claim may come after."""

from __future__ import annotations

import re

from perfledger.sources.claims.lexicon import fold

# Baselines a claim names itself or takes from its sentence; only these are stated.
TAKEN = re.compile(r"\+baseline-(?:none|without|implicit|page|previous|section|lead-in|stated)")
WANTED = re.compile(r"\+baseline-(?:none|without|shared)")


def fill_from_page(rows: list[dict]) -> None:
    """Give a claim with no baseline (or only the system without its change) the one baseline
    the page states for its subject, when it states exactly one."""
    stated: dict[str, set[tuple[str, str, bool]]] = {}
    for row in rows:
        if (
            row["is_qualitative"]
            or row["baseline_kind"] != "system"
            or not row["subject"]
            or TAKEN.search(row["method"])
        ):
            continue
        kept_verbatim = f"system={row['baseline']}" in (row["unresolved"] or "").split("; ")
        stated.setdefault(fold(row["subject"]), set()).add(
            (row["baseline"], row["baseline_text"], kept_verbatim)
        )
    if not stated:
        return
    for row in rows:
        unstated = row["baseline_kind"] is None or (
            row["baseline_kind"] == "counterpart"
            and row["baseline"].startswith("without")
            or row["baseline_kind"] == "counterpart"
            and " without " in row["baseline"]
        )
        if row["is_qualitative"] or not row["subject"] or not unstated:
            continue
        found = stated.get(fold(row["subject"]), set())
        if len(found) != 1:
            continue
        ((baseline, text, kept_verbatim),) = found
        if fold(baseline) == fold(row["subject"]):
            continue
        old = f"system={row['baseline']}"
        row["baseline"], row["baseline_text"], row["baseline_kind"] = baseline, text, "system"
        row["baseline_count"] = None
        row["method"] = WANTED.sub("", row["method"]) + "+baseline-page"
        row["confidence"] = round(max(0.05, row["confidence"] - 0.1), 2)
        labels = [
            entry for entry in (row["unresolved"] or "").split("; ") if entry and entry != old
        ]
        if kept_verbatim:
            labels.append(f"system={baseline}")
        row["unresolved"] = "; ".join(dict.fromkeys(labels)) or None
