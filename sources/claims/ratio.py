"""A claim's number and direction as a ratio in the subject's better direction, and the kind
of ratio its words state (see the conversion rules in sources/claims/extract.py)."""

from __future__ import annotations

from perfledger.schemas.claims import load_claim_vocab
from perfledger.sources.claims.lexicon import fold
from perfledger.sources.claims.records import Reading


def compute_ratio(value: float, unit: str, sense: str, better_high: bool) -> float | None:
    """Turn a number and its direction into a multiplier in the subject's better direction."""
    if value <= 0:
        return None
    if unit == "percent":
        share = value / 100.0
        if sense == "quantity":
            factor = share
        elif sense == "down":
            if share >= 1.0:
                return None
            factor = 1.0 - share
        else:
            factor = 1.0 + share
    else:
        factor = value
        if sense == "down":
            factor = 1.0 / value
    if sense == "better":
        return factor
    if sense == "worse":
        # "0.79x slower": a multiple below one is already the ratio the word says, as a
        # table's cell reads it (schemas/cell_reading.py); "2x slower" is 1/2
        return factor if unit == "multiplier" and factor < 1.0 else 1.0 / factor
    return factor if better_high else 1.0 / factor


def ratio_kind(reading: Reading, text: str) -> str:
    unit, sense, grammar = reading.anchor.unit, reading.sense, reading.grammar
    if unit == "fraction" or (unit == "percent" and sense == "quantity"):
        return "fraction"
    if unit == "multiplier":
        return "multiplier"
    if sense == "better":
        word = fold(text[reading.ratio_start : reading.ratio_end]).rsplit(" ", 1)[-1]
        speed = grammar == "adj" and word in load_claim_vocab()["direction_speed"]["words"]
        return "percent_faster" if speed else "percent_improvement"
    return {"worse": "percent_slower", "up": "percent_more", "down": "percent_less"}[sense]
